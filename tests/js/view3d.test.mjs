// The 3-D projection the page turns (explorer/app/static/kinds_xor.js), against numbers from
// explorer.plots.view3d.project / cube_project (the kernel's projection of the same view), and
// the box's edges; and a drag that turns a panel's view.

import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { CUBE_EDGES, corner, cubeToPx, dataToPx } from "../../explorer/app/static/kinds_xor.js";
import { KINDS } from "../../explorer/app/static/kinds.js";
import { TURN_DEG } from "../../explorer/app/static/input.js";
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
