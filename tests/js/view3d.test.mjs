// The 3-D projection the page turns (explorer/app/static/kinds_xor.js), against numbers from
// explorer.plots.view3d.project / cube_project (the kernel's projection of the same view), and
// the box's edges; a drag that turns a panel's view, the keys that turn it (Shift + arrows),
// and "reset view" (the key v and the panel's button).

import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { CUBE_EDGES, corner, cubeToPx, dataToPx } from "../../explorer/app/static/kinds_xor.js";
import { KINDS } from "../../explorer/app/static/kinds.js";
import {
  HOME, RESET_VIEW_KEYS, TURN_DEG, TURN_KEY_DEG, keyTurn,
} from "../../explorer/app/static/input.js";
import { PageFigure } from "../../explorer/app/static/pagefigure.js";
import { FakeElement, installPage, modelFor, sceneHeader, settle } from "./fakes.mjs";

const close = (a, b, what) => {
  assert.equal(a.length, b.length, what);
  a.forEach((v, i) => assert.ok(Math.abs(v - b[i]) < 1e-9, `${what}: ${a} != ${b}`));
};
// a panel whose data -> px mapping is the identity: the projection itself comes out
const plain = (view3d) => ({ ax: 1, bx: 0, ay: 1, by: 0, view3d });

test("data points project as explorer.plots.view3d.project does", () => {
  const p = plain({ azim: -60, elev: 25, lo: [-1, 0, 2], hi: [3, 4, 6] });
  const pts = [[0, 1, 3], [3, 4, 6], [-1, 0, 2], [2.5, 0.5, 5]];
  // explorer.plots.view3d.project(pts, azim=-60, elev=25, lo=[-1, 0, 2], hi=[3, 4, 6])
  const want = [[-0.683012701892, -0.530498403468], [1.366025403784, 1.060996806937],
    [-1.366025403784, -1.060996806937], [0.274519052838, 0.020173432288]];
  const out = new Float64Array(2 * pts.length);
  pts.forEach(([x, y, z], j) => dataToPx(p, x, y, z, out, j));
  close([...out], want.flat(), "project");
});

test("cube coordinates project as explorer.plots.view3d.cube_project does", () => {
  const out = new Float64Array(4);
  const p = plain({ azim: 130, elev: -40 });
  cubeToPx(p, 1, -1, 1, out, 0);
  cubeToPx(p, -1, 1, -1, out, 1);
  close([...out], [-0.123256833432, -0.139535344554, 0.123256833432, 0.139535344554], "cube_project");
});

test("simple views: from the front, from the side, from above; then mapped to the panel's px", () => {
  const at = (azim, elev, u) => { const o = new Float64Array(2); cubeToPx(plain({ azim, elev }), ...u, o, 0); return [...o]; };
  close(at(0, 0, [0.3, 0.5, 0.7]), [0.5, 0.7], "azim 0, elev 0: (u2, u3)");
  close(at(90, 0, [0.3, 0.5, 0.7]), [-0.3, 0.7], "azim 90: (-u1, u3)");
  close(at(0, 90, [0.3, 0.5, 0.7]), [0.5, -0.3], "elev 90: from above");
  const o = new Float64Array(2);
  cubeToPx({ ax: 50, bx: 100, ay: -50, by: 200, view3d: { azim: 0, elev: 0 } }, 0, 1, 1, o, 0);
  assert.deepEqual([...o], [150, 150]);
});

test("the box has 12 edges between corners one coordinate apart; its labels follow", () => {
  assert.equal(CUBE_EDGES.length, 12);
  for (const [a, b] of CUBE_EDGES) {
    const d = corner(a).map((v, i) => v !== corner(b)[i]).filter(Boolean).length;
    assert.equal(d, 1, `${a}-${b}`);
  }
  const f = { buf: new Float64Array(64) };
  const tr = { panel: plain({ azim: 0, elev: 0, labels: [[0, 0, 1.2, "z", "name"]] }) };
  assert.equal(KINDS.axes3d.geom(f, tr), 25);
  close([f.buf[48], f.buf[49]], [0, 1.2], "the label at its cube point");
  assert.equal(KINDS.axes3d.geom(f, { panel: {} }), 0, "no view: nothing");
});

// ------------------------------------------------------------------ turning
let page;
beforeEach(() => { page = installPage(); });
afterEach(() => page.restore());

test("a drag turns a panel's view; the kernel hears the view where the drag ends", async () => {
  const panels = [{ name: "cube", x: 20, y: 20, w: 100, h: 100, xlim: [-2, 2], ylim: [-2, 2],
    clip: true, view3d: { azim: 30, elev: 20, lo: [0, 0, 0], hi: [1, 1, 1], labels: [] } }];
  const tracks = [{ name: "box", panel: "cube", kind: "axes3d", layer: "over", z: 0, style: {} }];
  const model = modelFor(sceneHeader({ panels, tracks }));
  const root = new FakeElement("div");
  const fig = new PageFigure(model, root);
  await settle();
  const canvas = root.find("pe-canvas");
  canvas.dispatch("pointerdown", { button: 0, clientX: 50, clientY: 50, pointerId: 1, preventDefault() {} });
  canvas.dispatch("pointermove", { clientX: 70, clientY: 50 + 200 });
  assert.equal(fig.panels.get("cube").view3d.azim, 30 - 20 * TURN_DEG);
  assert.equal(fig.panels.get("cube").view3d.elev, 90, "the elevation stops at 90");
  assert.deepEqual(model.sent.filter((m) => m.type === "view3d"), [], "nothing while it turns");
  canvas.dispatch("pointerup", { clientX: 70, clientY: 250 });
  assert.deepEqual(model.sent.filter((m) => m.type === "view3d"),
    [{ type: "view3d", panel: "cube", azim: 30 - 20 * TURN_DEG, elev: 90 }]);
});

// ------------------------------------------------------------------ keys and "reset view"
test("Shift + an arrow turns as a drag that way would; v gives the view it opened with", () => {
  const v = { azim: 30, elev: 20, home: [-60, 25] };
  assert.deepEqual(keyTurn(v, "ArrowRight", true), { azim: 30 - TURN_KEY_DEG, elev: 20 },
    "right: as a drag to the right (azimuth down)");
  assert.deepEqual(keyTurn(v, "ArrowLeft", true), { azim: 30 + TURN_KEY_DEG, elev: 20 });
  assert.deepEqual(keyTurn(v, "ArrowDown", true), { azim: 30, elev: 20 + TURN_KEY_DEG },
    "down: as a drag down (elevation up)");
  assert.deepEqual(keyTurn(v, "ArrowUp", true), { azim: 30, elev: 20 - TURN_KEY_DEG });
  assert.deepEqual(keyTurn({ azim: 0, elev: 85 }, "ArrowDown", true), { azim: 0, elev: 90 },
    "the elevation stops at 90");
  assert.equal(keyTurn(v, "ArrowRight", false), null, "an arrow alone is the transport's");
  assert.equal(keyTurn(v, "x", true), null);
  assert.deepEqual(keyTurn(v, "v", false), { azim: -60, elev: 25 }, "v: its home");
  assert.deepEqual(keyTurn({ azim: 1, elev: 2 }, "V", true), HOME, "no home: the default view");
  for (const k of ["v", "V"]) assert.ok(RESET_VIEW_KEYS.includes(k));
});

function keyEv(key, shiftKey = false) {
  return { key, shiftKey, target: null, prevented: 0, stopped: 0,
    preventDefault() { this.prevented++; }, stopPropagation() { this.stopped++; } };
}

async function figureWith(panels, tracks = [
  { name: "box", panel: panels[0].name, kind: "axes3d", layer: "over", z: 0, style: {} }]) {
  const model = modelFor(sceneHeader({ panels, tracks }));
  const fig = new PageFigure(model, new FakeElement("div"));
  await settle();
  fig.active = () => true;
  fig.acted = [];
  fig.act = (a) => fig.acted.push(a);
  return { fig, model };
}

test("the keys turn the 3-D view and v or the 'reset view' button bring it back; the kernel hears each view", async () => {
  const panels = [{ name: "plane", x: 20, y: 30, w: 100, h: 100, xlim: [-2, 2], ylim: [-2, 2],
    clip: true, view3d: { azim: -60, elev: 25, home: [-60, 25], lo: [0, 0, 0], hi: [1, 1, 1], labels: [] } }];
  const { fig, model } = await figureWith(panels);
  const view = () => fig.panels.get("plane").view3d;
  const sent = () => model.sent.filter((m) => m.type === "view3d");
  const left = keyEv("ArrowLeft", true);
  fig.key(left);
  assert.deepEqual([view().azim, view().elev], [-60 + TURN_KEY_DEG, 25]);
  assert.equal(left.prevented, 1);
  assert.deepEqual(fig.acted, [], "Shift + ← turns the view; it does not step back");
  fig.key(keyEv("ArrowDown", true));
  fig.key(keyEv("ArrowDown", true));
  assert.deepEqual([view().azim, view().elev], [-60 + TURN_KEY_DEG, 25 + 2 * TURN_KEY_DEG]);
  assert.deepEqual(sent().at(-1), { type: "view3d", panel: "plane", azim: -60 + TURN_KEY_DEG,
    elev: 25 + 2 * TURN_KEY_DEG });
  fig.key(keyEv("v"));
  assert.deepEqual([view().azim, view().elev], [-60, 25], "v: reset");
  assert.deepEqual(sent().at(-1), { type: "view3d", panel: "plane", azim: -60, elev: 25 });
  // dragged away, then the button over the panel's top right corner
  const canvas = fig.root.find("pe-canvas");
  canvas.dispatch("pointerdown", { button: 0, clientX: 50, clientY: 50, pointerId: 1, preventDefault() {} });
  canvas.dispatch("pointermove", { clientX: 90, clientY: 60 });
  canvas.dispatch("pointerup", { clientX: 90, clientY: 60 });
  assert.notDeepEqual([view().azim, view().elev], [-60, 25]);
  const button = fig.root.find("pe-pf-view-reset");
  assert.ok(button && !button.hidden, "a 'reset view' button");
  assert.equal(button.textContent, "reset view");
  assert.equal(button.style.top, `${(100 * 30) / fig.height}%`, "at the panel's top");
  assert.equal(button.style.left, `${(100 * 120) / fig.width}%`, "and its right edge");
  button.click();
  assert.deepEqual([view().azim, view().elev], [-60, 25], "the button: reset");
  assert.equal(sent().length, 6, "each key, the drag's end and the button: one message each");
});

test("without a 3-D view Shift + ← is the transport's, and there is no 'reset view' button", async () => {
  const panels = [{ name: "plane", x: 20, y: 30, w: 100, h: 100, xlim: [-2, 2], ylim: [-2, 2], clip: true }];
  const { fig, model } = await figureWith(panels, [
    { name: "l", panel: "plane", kind: "polyline", layer: "over", z: 0, style: {} }]);
  fig.keys = new Map([["ArrowLeft", "back"], ["v", undefined]]);
  fig.key(keyEv("ArrowLeft", true));
  assert.deepEqual(fig.acted, ["back"]);
  assert.equal(model.sent.filter((m) => m.type === "view3d").length, 0);
  const button = fig.root.find("pe-pf-view-reset");
  assert.ok(!button || button.hidden);
});
