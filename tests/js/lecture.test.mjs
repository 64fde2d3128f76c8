// A lecture's screens (explorer/app/static/lecture.js, follow.js): frames, the presenter's
// publisher, and a follower's page figure drawing the presenter's step from frames alone.

import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { Follower } from "../../explorer/app/static/follow.js";
import {
  FollowerModel, Publisher, TOO_FAST, covers, decodeFrame, encodeFrame, presenting, stateFrame,
} from "../../explorer/app/static/lecture.js";
import { PageFigure } from "../../explorer/app/static/pagefigure.js";
import { FakeElement, chunkMessage, installPage, modelFor, sceneHeader, settle } from "./fakes.mjs";

let page;
beforeEach(() => { page = installPage(); });
afterEach(() => page.restore());

class FakeSocket {
  constructor() { this.sent = []; this.closed = false; }
  send(data) { this.sent.push(decodeFrame(data)); }
  close() { this.closed = true; }
}

function publisher({ open = true } = {}) {
  const sockets = [];
  const timers = [];
  const pub = new Publisher(() => { const s = new FakeSocket(); sockets.push(s); return s; },
    { setInterval: () => 0, setTimeout: (fn) => timers.push(fn) });
  if (open) sockets[0].onopen();
  return { pub, sockets, timers };
}

const fakeFigure = (extra = {}) => ({ model: modelFor(sceneHeader(), extra), root: new FakeElement("div") });

test("a frame keeps its header and its buffers byte for byte", () => {
  const data = encodeFrame({ t: "msg", fig: 3, msg: { type: "chunk" } },
    [new Uint8Array([1, 2, 3]), new Float32Array([0.5]).buffer, new DataView(new ArrayBuffer(0))]);
  const { header, buffers } = decodeFrame(data);
  assert.deepEqual(header, { t: "msg", fig: 3, msg: { type: "chunk" }, sizes: [3, 4, 0] });
  assert.deepEqual([...new Uint8Array(buffers[0].buffer, buffers[0].byteOffset, 3)], [1, 2, 3]);
  assert.equal(buffers[1].getFloat32(0, true), 0.5);
});

test("only the hall's presenter address makes a page present", () => {
  assert.equal(presenting({ cookie: "a=1; pe_lecture=present; b=2" }), true);
  assert.equal(presenting({ cookie: "pe_lecture=presents" }), false);
  assert.equal(presenting({ cookie: "" }), false);
  assert.equal(presenting(null), false);
});

test("the still layers go as buffers named in 'bin', the rest as JSON", () => {
  const png = new Uint8Array([137, 80, 78, 71]);
  const [header, buffers] = stateFrame(4, { below: png, step: 2, above: new DataView(new ArrayBuffer(0)) });
  assert.deepEqual(header, { t: "state", fig: 4, set: { step: 2 }, bin: ["below", "above"] });
  assert.equal(buffers[0], png);
  assert.equal(buffers[1].byteLength, 0);
});

test("the publisher sends what changed, each chunk once, and each step drawn once", () => {
  const { pub, sockets } = publisher();
  const figure = fakeFigure();
  pub.attach(figure);
  const first = sockets[0].sent.shift().header;
  assert.equal(first.t, "state");
  assert.equal(first.set.scene.n_steps, 20);
  assert.deepEqual(first.bin, ["below", "above"]);
  pub.state(figure);  // nothing changed
  assert.equal(sockets[0].sent.length, 0);
  figure.model.values.step = 7;
  pub.state(figure);
  assert.deepEqual(sockets[0].sent.shift().header.set, { step: 7 });
  const [msg, buffers] = chunkMessage({ index: 0 });
  pub.msg(figure, msg, buffers);
  pub.msg(figure, { type: "pointer_done" }, []);  // not part of what a follower draws
  pub.view(figure, 3);
  pub.view(figure, 3);
  const sent = sockets[0].sent.map((f) => f.header);
  assert.deepEqual(sent.map((h) => h.t), ["msg", "view"]);
  assert.deepEqual(sent[0].sizes, [80, 80]);
});

test("after a lost connection the publisher sends everything again; a refusal stops it", () => {
  const { pub, sockets, timers } = publisher();
  const figure = fakeFigure();
  pub.attach(figure);
  pub.msg(figure, ...chunkMessage({ index: 1 }));
  pub.view(figure, 6);
  sockets[0].onclose({ code: 1006 });
  pub.view(figure, 7);  // while away: kept, sent on return
  assert.equal(timers.length, 1);
  timers.shift()();
  sockets[1].onopen();
  assert.deepEqual(sockets[1].sent.map((f) => f.header.t), ["state", "msg", "view"]);
  assert.equal(sockets[1].sent[2].header.step, 7);
  sockets[1].onclose({ code: 4003 });
  assert.equal(timers.length, 0);
});

test("a page the server closes for sending too fast stops presenting and says so", () => {
  const body = new FakeElement("body");
  const doc = { body, createElement: (tag) => new FakeElement(tag),
    querySelector: (sel) => (sel === ".pe-presenting"
      ? body.children.find((c) => c.className === "pe-presenting") || null : null) };
  const sockets = [];
  const timers = [];
  const pub = new Publisher(() => { const s = new FakeSocket(); sockets.push(s); return s; },
    { doc, setInterval: () => 0, setTimeout: (fn) => timers.push(fn) });
  sockets[0].onopen();
  sockets[0].onmessage({ data: JSON.stringify({ followers: 3, max_followers: 10 }) });
  const badge = doc.querySelector(".pe-presenting");
  assert.match(badge.children.map((c) => (typeof c === "string" ? c : c.textContent)).join(""),
    /Presenting · 3 following/);
  sockets[0].onclose({ code: TOO_FAST, reason: "this page sent frames faster than the room takes them" });
  assert.equal(timers.length, 0);  // not dialled again
  assert.ok(pub.stopped);
  assert.equal(badge.children.map((c) => (typeof c === "string" ? c : c.textContent)).join(""),
    "● Not presenting · reload");  // a few words in the row of tabs, the reason in its tooltip
  assert.equal(badge.attributes.title, "Not presenting: this page sent frames faster than "
    + "the room takes them. Reload the page to present again.");
  assert.ok(badge.classList.contains("pe-presenting-off"));
});

test("the publisher keeps what a reconnection needs of a drag's merges, not their history", () => {
  const { pub, sockets, timers } = publisher();
  const figure = fakeFigure();
  pub.attach(figure);
  const st = (tracks, { merge = true, narration = null } = {}) => pub.msg(figure, { type: "static",
    run: 1, merge, narration, arrays: Object.fromEntries(tracks.map((t) => [t, { xy: ["float32", [1, 2]] }])) },
  tracks.map(() => new Uint8Array(8)));
  st(["points", "line"], { merge: false });
  st(["band"], { narration: "Dragging point 3." });
  for (let i = 0; i < 100; i++) st(["points", "line"]);
  st(["band"]);  // its tracks again, not its narration: the narrated one stays
  sockets[0].onclose({ code: 1006 });
  timers.shift()();
  sockets[1].onopen();
  const statics = sockets[1].sent.filter((f) => f.header.t === "msg").map((f) => f.header.msg);
  assert.deepEqual(statics.map((m) => [m.merge, Object.keys(m.arrays).join(), m.narration]),
    [[false, "points,line", null], [true, "band", "Dragging point 3."],
      [true, "points,line", null], [true, "band", null]]);
  assert.equal(covers({ merge: false }, { merge: false }), true);
  assert.equal(covers({ merge: true, run: 2, arrays: { a: 1 } }, { merge: true, run: 1, arrays: { a: 1 } }), false);
});

test("a follower's model never drives: no play, no keys, nothing sent", () => {
  const m = new FollowerModel();
  m.take({ t: "state", set: { playing: true, step: 4, key_actions: { ArrowRight: "step" }, ratio: 2 } }, []);
  assert.equal(m.get("playing"), false);
  assert.deepEqual(m.get("key_actions"), {});
  assert.equal(m.get("step"), 4);
  assert.equal(m.get("ratio"), undefined);  // the follower's screen, not the presenter's
  m.take({ t: "view", step: 9 }, []);
  assert.equal(m.get("step"), 9);
  assert.equal(m.send({ type: "chunk" }), undefined);
});

test("a follower draws the presenter's step from the frames alone", async () => {
  const doc = globalThis.document;
  const host = { doc, base: "/", figure: new FakeElement("main"), state: new FakeElement("span"),
    title: new FakeElement("span"), dark: new FakeElement("div") };
  const made = [];
  const follower = new Follower(host, (model, el) => { const f = new PageFigure(model, el); made.push(f); return f; });
  const presenter = fakeFigure();
  const frames = [
    encodeFrame({ t: "focus", fig: 1, blackout: false, title: "Perceptron" }),
    encodeFrame(...stateFrame(1, presenter.model.values)),
    encodeFrame({ t: "msg", fig: 1, msg: chunkMessage({ index: 2 })[0] }, chunkMessage({ index: 2 })[1]),
    encodeFrame({ t: "view", fig: 1, step: 12 }),
    encodeFrame({ t: "view", fig: 2, step: 1 }),  // another tab's figure: not this one's
  ];
  for (const f of frames) follower.take(f);
  await settle();
  page.clock.frame();
  assert.equal(made.length, 1);
  const root = made[0].root;
  assert.equal(root.peStep, 12);
  assert.equal(root.find("pe-pf-narration").textContent, "at 12");
  assert.equal(host.title.textContent, "Following the lecture: Perceptron");
  follower.take(encodeFrame({ t: "focus", fig: 1, blackout: true, title: "Perceptron" }));
  assert.equal(host.dark.hidden, false);
  follower.take(encodeFrame({ t: "focus", fig: 2, blackout: false, title: "Margins" }));
  assert.equal(host.figure.children.length, 0);  // the old figure went; the new one comes whole
  assert.equal(follower.model.get("scene"), undefined);
});

test("the follower page says how many places are free for those who explore", async () => {
  const { placesText } = await import("../../explorer/app/static/follow.js");
  assert.equal(placesText({ pages: 3, pooled: 2, starting: 1, max_pages: 10 }),
    "6 of 10 places free");
  assert.equal(placesText({ pages: 10, pooled: 0, starting: 0, max_pages: 10 }),
    "all 10 places are taken just now");
  assert.equal(placesText({ pages: 4, max_pages: 0 }), "");
});

test("a page opened from a follower's 'Explore from here' offers the way back", async () => {
  const { lectureRole } = await import("../../explorer/app/static/lecture.js");
  assert.equal(lectureRole({ cookie: "x=1; pe_lecture=explore" }), "explore");
  assert.equal(lectureRole({ cookie: "pe_lecture=present" }), "present");
  assert.equal(lectureRole({ cookie: "pe_lecture=presentx" }), "");
});

test("a follower page the server closes for too many messages says so and stops", async () => {
  const { follow } = await import("../../explorer/app/static/follow.js");
  const els = {};
  for (const name of ["figure", "state", "title", "dark", "places"]) els[name] = new FakeElement("div");
  const doc = { body: { dataset: { base: "/" } }, baseURI: "http://hall.example/follow",
    createElement: (tag) => new FakeElement(tag),
    querySelector: (sel) => els[sel.replace(".pe-follow-", "")] || null };
  const sockets = [];
  class FakeWS { constructor(url) { this.url = String(url); sockets.push(this); } close() {} }
  const saved = { fetch: globalThis.fetch, setInterval: globalThis.setInterval };
  globalThis.fetch = () => Promise.reject(new Error("no hall here"));
  globalThis.setInterval = () => 0;
  try {
    follow(doc, FakeWS);
    assert.equal(sockets[0].url, "ws://hall.example/lecture/follow");
    sockets[0].onclose({ code: TOO_FAST, reason: "this page sent too many messages" });
    assert.equal(els.state.textContent,
      "Disconnected: this page sent too many messages. Reload the page to follow again.");
    sockets[0].onclose({ code: 1009, reason: "" });  // one message too large
    assert.equal(els.state.textContent, "Disconnected: this page sent a message too large. "
      + "Reload the page to follow again.");
    page.clock.advance(60_000);
    assert.equal(sockets.length, 1);  // never dialled again
    sockets[0].onclose({ code: 1006 });  // a lost connection: dialled again
    page.clock.advance(60_000);
    assert.equal(sockets.length, 2);
  } finally {
    Object.assign(globalThis, saved);
  }
});

// ------------------------------------------------------------------ questions in the room
const openQuestion = (extra = {}) => ({ id: 3, name: "next_update", words: "Will the next point "
  + "trigger an update?", detail: "Step 1 visits point 5.", choices: [["yes", "Yes"], ["no", "No"]],
phase: "open", answer: null, tally: { yes: 0, no: 0 }, hide: [], truth: null, ...extra });

test("the presenter publishes its figure's question, and hands the room's tally to its kernel", () => {
  const { pub, sockets } = publisher();
  const fig = fakeFigure({ question: openQuestion() });
  pub.attach(fig);
  assert.deepEqual(sockets[0].sent.at(-1).header.set.question, openQuestion());
  pub.heard(JSON.stringify({ tally: { yes: 2, no: 1 }, fig: 1, id: 3 }));
  assert.deepEqual(fig.model.sent.at(-1), { type: "tally", id: 3, tally: { yes: 2, no: 1 } });
  const before = fig.model.sent.length;
  pub.heard(JSON.stringify({ tally: { yes: 1 }, fig: 9, id: 3 }));  // no such figure
  pub.heard("not json");
  assert.equal(fig.model.sent.length, before);
  pub.heard(JSON.stringify({ followers: 4, max_followers: 10 }));
  assert.equal(pub.followers, 4);
});

test("a follower's answer is kept on its page, told once, changeable until the reveal", () => {
  const told = [];
  const answers = new Map();
  const m = new FollowerModel({ fig: 1, answers, tell: (msg) => told.push(msg) });
  let changes = 0;
  m.on("change", () => { changes += 1; });
  m.take({ t: "state", set: { question: openQuestion({ answer: "no" }) } }, []);
  assert.equal(m.get("question").answer, null);  // the presenter's own answer is not this one's
  assert.equal(m.get("question").role, "follower");
  m.send({ type: "answer", id: 3, choice: "no" });
  m.send({ type: "answer", id: 3, choice: "yes" });  // a wrong click changed
  assert.deepEqual(told, [{ t: "answer", id: 3, choice: "no" }, { t: "answer", id: 3, choice: "yes" }]);
  assert.equal(m.get("question").answer, "yes");
  assert.ok(changes >= 3);
  m.send({ type: "answer", id: 2, choice: "no" });  // a stale id
  m.send({ type: "reveal", id: 3 });
  m.send({ type: "close", id: 3 });
  m.take({ t: "state", set: { question: openQuestion({ tally: { yes: 4, no: 0 } }) } }, []);
  assert.equal(told.length, 2);  // a new tally is not an occasion to tell again
  m.take({ t: "state", set: { question: openQuestion({ phase: "revealed", truth: "yes" }) } }, []);
  m.send({ type: "answer", id: 3, choice: "no" });  // after the reveal: nothing
  assert.equal(told.length, 2);
  assert.equal(m.get("question").verdict, "right");
  assert.equal(m.get("question").answer, "yes");
});

test("an answer is told again after a reconnection while its question is open", () => {
  const answers = new Map();
  const first = [];
  const a = new FollowerModel({ fig: 1, answers, tell: (msg) => first.push(msg) });
  a.take({ t: "state", set: { question: openQuestion() } }, []);
  a.send({ type: "answer", id: 3, choice: "no" });
  const again = [];  // the page's next connection: a new model, the page's answers
  const b = new FollowerModel({ fig: 1, answers, tell: (msg) => again.push(msg) });
  b.take({ t: "state", set: { question: openQuestion() } }, []);
  b.take({ t: "state", set: { question: openQuestion({ tally: { yes: 0, no: 1 } }) } }, []);
  assert.deepEqual(again, [{ t: "answer", id: 3, choice: "no" }]);
  assert.equal(b.get("question").answer, "no");
  const other = [];  // another question: nothing to tell
  const c = new FollowerModel({ fig: 1, answers, tell: (msg) => other.push(msg) });
  c.take({ t: "state", set: { question: openQuestion({ id: 4 }) } }, []);
  assert.deepEqual(other, []);
});

test("a follower's page sends its answers as text naming the figure", async () => {
  const doc = globalThis.document;
  const sent = [];
  const host = { doc, base: "/", figure: new FakeElement("main"), state: new FakeElement("span"),
    title: new FakeElement("span"), dark: new FakeElement("div"), send: (t) => sent.push(t) };
  const follower = new Follower(host, () => ({ destroy() {} }));
  follower.take(encodeFrame({ t: "focus", fig: 2, blackout: false, title: "Perceptron" }));
  follower.take(encodeFrame(...stateFrame(2, { question: openQuestion() })));
  follower.model.send({ type: "answer", id: 3, choice: "yes" });
  assert.deepEqual(sent.map((t) => JSON.parse(t)), [{ t: "answer", id: 3, choice: "yes", fig: 2 }]);
});
