// Where a click is (explorer/app/static/input.js): CSS px in the figure, the panel under it and
// its data coordinates; the nearest drawn point; and the same through the page figure's clicks.

import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import {
  PICK_PX, figurePx, locateIn, nearestVertexIn,
} from "../../explorer/app/static/input.js";
import { PageFigure } from "../../explorer/app/static/pagefigure.js";
import { FakeElement, chunkMessage, installPage, modelFor, sceneHeader, settle } from "./fakes.mjs";

// a panel as the page keeps it (runs.js: newRun): box, limits and the data -> px mapping
function panel(name, x, y, w, h, [x0, x1], [y0, y1]) {
  const ax = w / (x1 - x0), ay = -h / (y1 - y0);
  return { name, x, y, w, h, ax, bx: x - x0 * ax, ay, by: y + h - y0 * ay };
}
const left = panel("left", 10, 10, 100, 100, [-1, 1], [-1, 1]);
const right = panel("right", 130, 10, 80, 40, [0, 8], [0, 4]);
const figure = { name: "figure", x: 0, y: 0, w: 240, h: 140, ax: 1, bx: 0, ay: 1, by: 0, figure: true };
const PANELS = [figure, left, right];

test("a pointer on a canvas shown at another size is mapped to the figure's CSS px", () => {
  assert.deepEqual(figurePx({ left: 0, top: 0, width: 240, height: 140 }, 240, 140, 60, 35), [60, 35]);
  // shown at half size, 100 px from the left and 50 from the top of the page
  assert.deepEqual(figurePx({ left: 100, top: 50, width: 120, height: 70 }, 240, 140, 130, 85), [60, 70]);
});

test("a point is in the panel whose box holds it, at that panel's data coordinates", () => {
  const at = locateIn(PANELS, 60, 60);
  assert.equal(at.panel, left);
  assert.deepEqual([at.x + 0, at.y + 0], [0, 0]);  // (+ 0: -0 is 0 here)
  const corner = locateIn(PANELS, 110, 10);  // the box's edge counts
  assert.deepEqual([corner.panel.name, corner.x, corner.y], ["left", 1, 1]);
  const r = locateIn(PANELS, 150, 40);
  assert.deepEqual([r.panel.name, r.x, r.y], ["right", 2, 1]);
});

test("outside every panel (the figure itself is none) there is nothing", () => {
  assert.equal(locateIn(PANELS, 120, 60), null);
  assert.equal(locateIn(PANELS, 5, 5), null);
  assert.equal(locateIn([figure], 5, 5), null);
});

test("a drag stays in its panel: a point outside is kept at the box's edge", () => {
  const at = locateIn(PANELS, 200, -30, left);
  assert.deepEqual([at.panel, at.px, at.py, at.x, at.y], [left, 110, 10, 1, 1]);
});

test("the nearest vertex within reach, the last of equals; none out of reach", () => {
  const buf = Float64Array.from([0, 0, 10, 0, 3, 4, NaN, NaN, 10, 0]);
  assert.deepEqual(nearestVertexIn(buf, 5, 9, 1, 100), { index: 4, d2: 2 });
  assert.deepEqual(nearestVertexIn(buf, 5, 2, 3, 100), { index: 2, d2: 2 });
  assert.equal(nearestVertexIn(buf, 5, 50, 50, PICK_PX * PICK_PX), null);
  assert.deepEqual(nearestVertexIn(buf, 5, 3, 4 + PICK_PX, PICK_PX * PICK_PX), { index: 2, d2: PICK_PX ** 2 });
  assert.equal(nearestVertexIn(buf, 2, 3, 4, 1), null, "only the first nv vertices");
});

// ------------------------------------------------------------------ through the page
let page;
beforeEach(() => { page = installPage(); });
afterEach(() => page.restore());

async function openAt(mode) {
  const model = modelFor(sceneHeader({}), { pointer_mode: mode });
  const root = new FakeElement("div");
  const fig = new PageFigure(model, root);
  await settle();
  model.message(...chunkMessage({ index: 0 }));
  model.kernel({ step: 4 });
  await settle();
  page.clock.frame();
  return { fig, model, root, canvas: root.find("pe-canvas") };
}

test("a click in a panel reaches the kernel in data coordinates, with a mark where it was", async () => {
  const { model, root, canvas } = await openAt("add+");
  canvas.dispatch("click", { clientX: 60, clientY: 70 });  // the plane: x 0..10 over 10..210 px
  assert.deepEqual(model.sent.filter((m) => m.type === "pointer"),
    [{ type: "pointer", panel: "plane", x: 2.5, y: 2.5, mode: "add+" }]);
  page.clock.frame();
  const mark = root.peDisplayList.find((d) => d.track === "(pointer)");
  assert.deepEqual([mark.kind, mark.px, mark.hit], ["pointer add+", [[60, 70]], false]);
  canvas.dispatch("click", { clientX: 230, clientY: 70 });  // beside the panel: nothing
  assert.equal(model.sent.filter((m) => m.type === "pointer").length, 1);
});

test("in remove mode the mark goes to the drawn point nearest the click", async () => {
  const { model, root, canvas } = await openAt("remove");
  // at step 4 the dots are at (4, 2) and (4, 4): px (90, 80) and (90, 40)
  canvas.dispatch("click", { clientX: 95, clientY: 47 });
  page.clock.frame();
  const mark = root.peDisplayList.find((d) => d.track === "(pointer)");
  assert.deepEqual([mark.px, mark.hit], [[[90, 40]], true]);
  assert.equal(model.sent.at(-1).mode, "remove");
  canvas.dispatch("click", { clientX: 150, clientY: 40 });  // no point within reach
  page.clock.frame();
  const far = root.peDisplayList.filter((d) => d.track === "(pointer)").at(-1);
  assert.deepEqual([far.px, far.hit], [[[150, 40]], false]);
});

test("in view mode a click does nothing", async () => {
  const { model, canvas } = await openAt("view");
  canvas.dispatch("click", { clientX: 60, clientY: 70 });
  assert.equal(model.sent.filter((m) => m.type === "pointer").length, 0);
});
