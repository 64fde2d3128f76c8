// One panel, large (issue 33, item 3): the page's rules (explorer/app/static/enlarge.js) and
// the page figure's key and click (input.js) that ask the kernel for a panel large and back.
// Run by Node's own test runner: `node --test tests/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

import * as E from "../../explorer/app/static/enlarge.js";
import { PageFigureInput } from "../../explorer/app/static/input.js";

// the Perceptron figure's panels at 1366 x 768 in lecture mode (a scene's, as the page keeps them)
const PANELS = [
  { name: "plane", x: 80, y: 37, w: 408, h: 408, title: [80, 11, 120, 22] },
  { name: "weights", x: 578, y: 156, w: 255, h: 255, title: [578, 130, 149, 22] },
  { name: "mistakes", x: 925, y: 123, w: 255, h: 322, title: [925, 97, 159, 22] },
  { name: "figure", x: 0, y: 0, w: 1300, h: 470, figure: true },
];
const NAMES = ["plane", "weights", "mistakes"];

test("a click on a panel's title, or just around it, finds that panel; elsewhere none", () => {
  assert.equal(E.titleAt(PANELS, NAMES, 100, 20), "plane");
  assert.equal(E.titleAt(PANELS, NAMES, 578 - E.TITLE_PAD, 130 - E.TITLE_PAD), "weights");
  assert.equal(E.titleAt(PANELS, NAMES, 1000, 110), "mistakes");
  assert.equal(E.titleAt(PANELS, NAMES, 300, 200), null);  // inside the plane: a point's place
  assert.equal(E.titleAt(PANELS, NAMES, 210, 20), null);    // right of the title's words
  assert.equal(E.titleAt(PANELS, ["plane"], 600, 140), null);  // not a panel shown large
  assert.equal(E.titleAt([{ name: "a", x: 0, y: 0, w: 9, h: 9 }], ["a"], 1, 1), null);  // no title
});

test("z shows the panel under the pointer large, else the first (the data plane); z or Esc goes back", () => {
  const at = (hover, enlarged = "") => ({ enlarged, names: NAMES, hover });
  assert.equal(E.keyRequest("z", at(null)), "plane");
  assert.equal(E.keyRequest("Z", at("weights")), "weights");
  assert.equal(E.keyRequest("z", at("figure")), "plane");  // the figure's margin: the plane
  assert.equal(E.keyRequest("z", at(null, "weights")), "");
  assert.equal(E.keyRequest("Escape", at(null, "weights")), "");
  assert.equal(E.keyRequest("Escape", at(null)), null);  // Esc is nobody's when none is large
  assert.equal(E.keyRequest("z", { enlarged: "", names: [], hover: null }), null);
  assert.equal(E.keyRequest("x", at(null)), null);
});

test("a click on a title shows its panel large, on the large panel's title goes back", () => {
  assert.equal(E.clickRequest("weights", ""), "weights");
  assert.equal(E.clickRequest("weights", "weights"), "");
  assert.equal(E.clickRequest("plane", "weights"), "plane");
  assert.equal(E.clickRequest(null, "weights"), null);
  assert.match(E.titleTip("plane", ""), /large/);
  assert.match(E.titleTip("plane", "plane"), /every panel/);
  assert.equal(E.titleTip(null, ""), "");
});

// ------------------------------------------------------------------ the page figure's input
function figure({ enlarge = true, enlarged = "" } = {}) {
  globalThis.document = { querySelector: () => null };  // no blackout
  const fig = Object.create(PageFigureInput.prototype);
  fig.keys = new Map([[" ", "play"]]);
  fig.forward = new Set();
  fig.sent = [];
  fig.acted = [];
  fig.act = (a) => fig.acted.push(a);
  fig.model = { send: (m) => fig.sent.push(m), get: (k) => (k === "enlarge" ? enlarge : undefined) };
  fig.active = () => true;
  fig.keyFocus = { keyboard: null };
  fig.run = 1;
  fig.width = 1300;
  fig.height = 470;
  fig.panels = new Map(PANELS.map((p) => [p.name, p]));
  fig.enlargeable = enlarged ? [enlarged] : NAMES;
  fig.enlarged = enlarged;
  fig.canvas = { getBoundingClientRect: () => ({ left: 10, top: 300, width: 1300, height: 470 }),
    classList: { toggle() {} }, title: "" };
  return fig;
}

function keyEvent(key, extra = {}) {
  const target = { tagName: "BODY", closest: () => null, getAttribute: () => null };
  return { key, target, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...extra,
    prevented: 0, stopped: 0, preventDefault() { this.prevented++; }, stopPropagation() { this.stopped++; } };
}

test("the key z asks the kernel once for a panel large, and the page acts on nothing else", () => {
  const fig = figure();
  fig.hover = "mistakes";
  const ev = keyEvent("z");
  fig.key(ev);
  assert.deepEqual(fig.sent, [{ type: "enlarge", panel: "mistakes" }]);
  assert.deepEqual([fig.acted, ev.prevented, ev.stopped], [[], 1, 1]);
  const back = figure({ enlarged: "mistakes" });
  back.key(keyEvent("Escape"));
  assert.deepEqual(back.sent, [{ type: "enlarge", panel: "" }]);
});

test("Ctrl+Z stays undo, a text box keeps its z, a follower and a figure before its scene ask nothing", () => {
  const undo = figure();
  const ev = keyEvent("z", { ctrlKey: true });
  undo.key(ev);
  assert.deepEqual([undo.sent, ev.prevented], [[], 0]);  // the page bridge's "Undo"
  const typing = figure();
  const input = { tagName: "INPUT", closest: (css) => (css === "input" ? input : null),
    getAttribute: () => "text" };
  typing.key(keyEvent("z", { target: input }));
  assert.deepEqual(typing.sent, []);
  const follower = figure({ enlarge: false });  // FollowerModel: enlarge is false
  const esc = keyEvent("Escape");
  follower.enlarged = "plane";
  follower.key(esc);
  follower.key(keyEvent("z"));
  assert.deepEqual([follower.sent, esc.prevented], [[], 0]);
  const early = figure();
  early.run = null;
  early.key(keyEvent("z"));
  assert.deepEqual(early.sent, []);
});

test("a click on a title asks for its panel large, a click elsewhere asks nothing", () => {
  const fig = figure();
  fig.titleClick({ clientX: 10 + 600, clientY: 300 + 140 });
  fig.titleClick({ clientX: 10 + 300, clientY: 300 + 200 });
  assert.deepEqual(fig.sent, [{ type: "enlarge", panel: "weights" }]);
  const large = figure({ enlarged: "weights" });
  large.panels.set("weights", { name: "weights", x: 80, y: 37, w: 408, h: 408, title: [80, 11, 149, 22] });
  large.titleClick({ clientX: 10 + 100, clientY: 300 + 20 });
  assert.deepEqual(large.sent, [{ type: "enlarge", panel: "" }]);
});
