// The page figure as the page runs it (explorer/app/static/pagefigure.js and the modules it
// imports), in Node with the stand-ins of fakes.mjs: chunks and waiting for a chunk that has not
// come, settling (the kernel hears the step once it stops moving), the transport's buttons,
// slider and Play, and what a frame draws.

import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { PageFigure } from "../../explorer/app/static/pagefigure.js";
import { PUSHED_WAIT_MS, RETRY_MS, SETTLE_MS } from "../../explorer/app/static/transport.js";
import { FakeElement, chunkMessage, installPage, modelFor, sceneHeader, settle } from "./fakes.mjs";

let page;
beforeEach(() => { page = installPage(); });
afterEach(() => page.restore());

// a figure showing a run of n steps in chunks of C (no chunk sent yet)
async function open({ n = 20, C = 5, ...extra } = {}) {
  const model = modelFor(sceneHeader({ n, chunk: C }), extra);
  const root = new FakeElement("div");
  const fig = new PageFigure(model, root);
  await settle();
  return { fig, model, root };
}

const deliver = (model, index, { run = 1, C = 5, n = 20 } = {}) =>
  model.message(...chunkMessage({ run, index, C, n }));
const button = (root, css) => root.find(css);
const slide = (fig, k) => { fig.slider.value = String(k); fig.slider.dispatch("input"); };
const status = (root) => root.find("pe-where").textContent;
const narration = (root) => root.find("pe-pf-narration").textContent;

// ------------------------------------------------------------------ chunks and waiting
test("the page asks for the chunk of its step and draws nothing before it comes", async () => {
  const { fig, model, root } = await open();
  assert.deepEqual(model.asked(), [0]);
  page.clock.frame();
  assert.equal(root.peStep, -1);
  deliver(model, 0);
  page.clock.frame();
  assert.equal(root.peStep, 0);
  assert.equal(fig.shown, 0);
  assert.equal(narration(root), "at 0");
  assert.equal(status(root), "step 0 of 20");
});

test("a step whose chunk has not come: the page waits at the step it has, says so, and asks", async () => {
  const { fig, model, root } = await open();
  deliver(model, 0);
  page.clock.frame();
  slide(fig, 12);  // chunk 2 (steps 10-14) is not here
  page.clock.frame();
  assert.equal(fig.want, 12);
  assert.equal(root.peStep, 0, "the canvas stays at the last step it has");
  assert.equal(root.dataset.waiting, "true");
  assert.match(status(root), /waiting for steps 10–14 from the kernel…$/);
  assert.ok(model.asked().includes(2));
  deliver(model, 2);
  page.clock.frame();
  assert.equal(root.peStep, 12);
  assert.equal(root.dataset.waiting, "false");
  assert.equal(narration(root), "at 12");
  assert.doesNotMatch(status(root), /waiting/);
});

test("a presenter's page publishes a step when it is asked for, before its own frame draws it", async () => {
  const { fig, model, root } = await open();
  deliver(model, 0);
  page.clock.frame();
  const views = [];
  fig.publisher = { view: (f, k) => views.push(k), state() {}, msg() {}, detach() {} };
  slide(fig, 3);
  assert.deepEqual(views, [3], "the followers hear step 3 before this page's next frame");
  assert.equal(root.peStep, 0);
  page.clock.frame();
  assert.equal(root.peStep, 3);
  slide(fig, 12);  // not here yet: nothing is published until it is shown
  assert.deepEqual(views.filter((k) => k === 12), []);
  deliver(model, 2);
  assert.ok(views.includes(12));
});

test("the neighbouring chunk is asked for ahead of need, on the side the step is nearer", async () => {
  const { fig, model } = await open();
  deliver(model, 0);
  deliver(model, 1);
  model.sent.length = 0;
  slide(fig, 8);  // late in chunk 1 (steps 5-9): chunk 2 next
  assert.deepEqual(model.asked(), [2]);
  model.sent.length = 0;
  deliver(model, 2);
  slide(fig, 11);  // early in chunk 2: chunk 1, which is here
  assert.deepEqual(model.asked(), []);
  slide(fig, 20);  // the last step, alone in chunk 4: asked for; once it is here, chunk 3
  assert.deepEqual(model.asked(), [4]);
  deliver(model, 4);
  assert.deepEqual(model.asked(), [4, 3]);
});

test("a chunk asked for and not come is asked for again after a while, not before", async () => {
  const { fig, model } = await open();
  deliver(model, 0);
  model.sent.length = 0;
  slide(fig, 17);
  slide(fig, 18);
  assert.deepEqual(model.asked(), [3], "once while it is on its way");
  page.clock.advance(RETRY_MS - 1);
  slide(fig, 17);
  assert.deepEqual(model.asked(), [3]);
  page.clock.advance(2);
  slide(fig, 18);
  assert.deepEqual(model.asked(), [3, 3]);
});

test("chunks pushed with a new scene are not asked for unless they are late", async () => {
  const { fig, model } = await open();
  deliver(model, 0);
  model.sent.length = 0;
  model.kernel({ scene: sceneHeader({ run: 2, pushed: [0, 1] }) });
  await settle();
  assert.deepEqual(model.asked(), [], "the kernel said it sent them");
  deliver(model, 1, { run: 2 });
  page.clock.advance(PUSHED_WAIT_MS + 60);
  slide(fig, 1);
  assert.deepEqual(model.asked(), [0], "chunk 0 is late: asked for");
});

test("a chunk that comes before its scene is kept for it", async () => {
  const { fig, model, root } = await open();
  deliver(model, 0);
  deliver(model, 0, { run: 2 });  // the next run's, early
  model.sent.length = 0;
  model.kernel({ scene: sceneHeader({ run: 2 }) });
  await settle();
  page.clock.frame();
  assert.equal(fig.run, 2);
  assert.equal(root.peRun, 2);
  assert.equal(root.peStep, 0);
  assert.deepEqual(model.asked(), [], "not asked for again");
});

test("the page keeps at most 24 chunks, dropping the farthest from its step", async () => {
  const n = 299, C = 10;
  const { fig, model } = await open({ n, C });
  for (let i = 0; i <= 29; i++) deliver(model, i, { n, C });
  assert.equal(fig.chunks.size, 24);
  assert.ok(fig.chunks.has(0) && !fig.chunks.has(29));
});

// ------------------------------------------------------------------ settling
test("the kernel hears the step once it has stopped moving, once", async () => {
  const { root, model } = await open();
  deliver(model, 0);
  deliver(model, 1);
  for (let j = 0; j < 3; j++) { button(root, "pe-step").click(); page.clock.advance(SETTLE_MS - 10); }
  assert.equal(model.heardStep(), undefined, "not while it moves");
  page.clock.advance(20);
  assert.deepEqual(model.saved, [{ step: 3 }]);
  page.clock.advance(10 * SETTLE_MS);
  assert.equal(model.saved.length, 1);
});

test("a step the page waits for is not settled until it is shown", async () => {
  const { fig, model } = await open();
  deliver(model, 0);
  slide(fig, 16);
  page.clock.advance(5 * SETTLE_MS);
  assert.equal(model.heardStep(), undefined);
  deliver(model, 3);
  page.clock.advance(SETTLE_MS);
  assert.equal(model.heardStep(), 16);
});

test("a step the kernel set is shown and not echoed back", async () => {
  const { fig, model, root } = await open();
  deliver(model, 0);
  deliver(model, 1);
  model.kernel({ step: 7 });
  await settle();
  page.clock.frame();
  assert.equal(root.peStep, 7);
  page.clock.advance(5 * SETTLE_MS);
  assert.deepEqual(model.saved, []);
  assert.equal(fig.modelStep, 7);
});

// ------------------------------------------------------------------ transport
test("the buttons and the slider keep to the run's bounds", async () => {
  const { fig, model, root } = await open();
  deliver(model, 0);
  assert.equal(fig.slider.max, "20");
  assert.equal(fig.slider.min, "0");
  assert.equal(button(root, "pe-back").disabled, true);
  assert.equal(button(root, "pe-reset").disabled, true);
  assert.equal(button(root, "pe-step").disabled, false);
  button(root, "pe-back").click();
  assert.equal(fig.want, 0);
  button(root, "pe-end").click();
  assert.equal(fig.want, 20);
  assert.equal(button(root, "pe-step").disabled, true);
  assert.equal(button(root, "pe-end").disabled, true);
  assert.equal(button(root, "pe-play").disabled, true);
  button(root, "pe-step").click();
  assert.equal(fig.want, 20, "no step past the end");
  slide(fig, 99);
  assert.equal(fig.want, 20);
  slide(fig, -4);
  assert.equal(fig.want, 0);
  button(root, "pe-end").click();
  button(root, "pe-back").click();
  assert.equal(fig.want, 19);
  button(root, "pe-reset").click();
  assert.equal(fig.want, 0);
});

test("the update buttons step through the updates only; epoch end and cycle start jump", async () => {
  const { fig, model, root } = await open({ transport: { updates: [3, 8, 15], epoch: 6, cycle_start: 9 } });
  for (let i = 0; i <= 4; i++) deliver(model, i);
  const at = [];
  for (let j = 0; j < 4; j++) { button(root, "pe-next-update").click(); at.push(fig.want); }
  assert.deepEqual(at, [3, 8, 15, 20]);
  assert.equal(button(root, "pe-next-update").disabled, true);
  const back = [];
  for (let j = 0; j < 4; j++) { button(root, "pe-prev-update").click(); back.push(fig.want); }
  assert.deepEqual(back, [15, 8, 3, 0]);
  assert.equal(button(root, "pe-prev-update").disabled, true);
  slide(fig, 7);
  button(root, "pe-epoch-end").click();
  assert.equal(fig.want, 12);
  assert.equal(button(root, "pe-epoch-end").hidden, false);
  button(root, "pe-cycle-start").click();
  assert.equal(fig.want, 9);
  assert.equal(button(root, "pe-cycle-start").disabled, true);
  assert.equal(button(root, "pe-cycle-start").hidden, false);
});

test("with no epoch and no cycle their buttons are hidden", async () => {
  const { root, model } = await open();
  deliver(model, 0);
  assert.equal(button(root, "pe-epoch-end").hidden, true);
  assert.equal(button(root, "pe-cycle-start").hidden, true);
});

// Play at `speed` steps a second: an animation frame every 10 ms for `ms`
function playFor(ms) { for (let t = 0; t < ms; t += 10) { page.clock.advance(10); page.clock.frame(); } }

test("Play steps at its speed, the kernel hears only where it stops, and it stops at the end", async () => {
  const { fig, model, root } = await open();
  for (let i = 0; i <= 4; i++) deliver(model, i);
  slide(fig, 10);
  page.clock.advance(SETTLE_MS);
  model.saved.length = 0;
  button(root, "pe-play").click();
  assert.deepEqual(model.saved, [{ playing: true }]);
  assert.equal(button(root, "pe-play").textContent, "❚❚ Pause");
  playFor(1000);  // 4 steps a second
  assert.equal(fig.want, 14);
  assert.equal(model.heardStep(), undefined, "no step while playing");
  playFor(2000);
  assert.equal(fig.want, 20);
  assert.equal(fig.playing, false);
  assert.deepEqual(model.saved.slice(1), [{ playing: false, step: 20 }]);
  assert.equal(button(root, "pe-play").textContent, "▶ Play");
});

test("Pause stops where Play is and the kernel hears that step", async () => {
  const { fig, model, root } = await open();
  for (let i = 0; i <= 4; i++) deliver(model, i);
  button(root, "pe-play").click();
  playFor(760);
  button(root, "pe-play").click();
  assert.equal(fig.want, 3);
  assert.deepEqual(model.saved.at(-1), { playing: false, step: 3 });
  playFor(1000);
  assert.equal(fig.want, 3);
});

test("Play waits at the last step it has for the next chunk, and goes on when it comes", async () => {
  const { fig, model, root } = await open();
  deliver(model, 0);
  button(root, "pe-play").click();
  playFor(3000);
  assert.equal(fig.want, 4, "chunk 1 has not come");
  assert.equal(fig.playing, true);
  assert.equal(root.dataset.waiting, "true");
  assert.match(status(root), /waiting for steps 5–9/);
  assert.ok(model.asked().includes(1));
  deliver(model, 1);
  playFor(600);
  assert.ok(fig.want >= 5 && fig.want <= 7, String(fig.want));
});

test("a new scene keeps the words of the step on the canvas while its layers decode", async () => {
  const { model, root } = await open();
  deliver(model, 0);
  page.clock.frame();
  assert.equal(narration(root), "at 0");
  let decoded;
  globalThis.createImageBitmap = () => new Promise((resolve) => { decoded = resolve; });
  // the same run laid out again (the bound computed), with still layers to decode
  model.kernel({ scene: sceneHeader({ run: 2, keep: true }), below: new DataView(new ArrayBuffer(8)) });
  await settle();
  deliver(model, 0, { run: 2 });
  page.clock.frame();
  assert.equal(root.peStep, 0);
  assert.equal(narration(root), "at 0", "the words stay while the canvas shows the last step");
  decoded({ close() {} });
  await settle();
  page.clock.frame();
  assert.equal(narration(root), "at 0");
  assert.equal(root.dataset.waiting, "false");
});

test("Play goes on over the same run drawn again (a new size, the bound computed), not over a new run", async () => {
  const { fig, model, root } = await open();
  for (let i = 0; i <= 4; i++) deliver(model, i);
  button(root, "pe-play").click();
  playFor(760);
  assert.equal(fig.want, 3);
  model.saved.length = 0;
  // the kernel draws the same run again (keep): Play goes on from where it is, and the
  // kernel hears nothing (it still has playing = true)
  model.kernel({ scene: sceneHeader({ run: 2, keep: true }), playing: true });
  await settle();
  for (let i = 0; i <= 4; i++) deliver(model, i, { run: 2 });
  playFor(1000);
  assert.equal(fig.playing, true);
  assert.ok(fig.want >= 6 && fig.want <= 8, String(fig.want));
  assert.deepEqual(model.saved, [], "nothing said to the kernel while playing on");
  assert.equal(button(root, "pe-play").textContent, "❚❚ Pause");
  // a new run (not kept) stops Play
  model.kernel({ scene: sceneHeader({ run: 3 }) });
  await settle();
  assert.equal(fig.playing, false);
  assert.equal(button(root, "pe-play").textContent, "▶ Play");
});

// ------------------------------------------------------------------ a frame
test("a frame draws each track at its step, mapped from data to CSS px, in its style", async () => {
  const { model, root } = await open();
  deliver(model, 0);
  deliver(model, 1);
  model.kernel({ step: 6 });
  await settle();
  page.clock.frame();
  const list = root.peDisplayList;
  // the panel: x 0..10 -> 10..210 px, y 0..5 -> 120..20 px
  assert.deepEqual(list.map((d) => [d.track, d.visible, d.px]), [
    ["line", true, [[10, 120], [130, 100]]],
    ["dots", true, [[130, 80], [130, 40]]],
  ]);
  const ctx = root.find("pe-canvas").context;
  const stroke = ctx.painted().find((e) => e.op === "stroke");
  assert.equal(stroke.strokeStyle, "#FF0000");
  assert.equal(stroke.lineWidth, 1.5);
  assert.deepEqual(stroke.path, [["moveTo", 10, 120], ["lineTo", 130, 100]]);
  const discs = ctx.painted().filter((e) => e.op === "fill");
  assert.deepEqual(discs.map((e) => e.path[0].slice(0, 4)), [["arc", 130, 80, 3], ["arc", 130, 40, 3]]);
});
