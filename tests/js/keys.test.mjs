// Unit tests of the page's key logic (explorer/app/static/keys.js and the page figure's key
// handler in input.js), run by Node's own test runner: `node --test tests/js/` (tests/test_js.py
// runs it under pytest). No build step and no DOM library: the ES modules are imported as they
// are, beside small stand-ins for elements, events and the window.

import assert from "node:assert/strict";
import { test } from "node:test";

import * as K from "../../explorer/app/static/keys.js";
import { PageFigureInput } from "../../explorer/app/static/input.js";

// ------------------------------------------------------------------ stand-ins
// A simple selector ("tag", "[attr]", '[attr="v"]', 'tag[attr="v"][...]'), matched as the DOM
// would; enough for every selector keys.js uses (a test below checks that it parses them all).
const SIMPLE = /^([a-z]*)((?:\[[a-z-]+(?:="[^"]*")?\])*)$/;

function matchesSimple(node, selector) {
  const m = SIMPLE.exec(selector);
  if (!m) throw new Error(`selector the stand-in cannot read: ${selector}`);
  if (m[1] && node.tagName.toLowerCase() !== m[1]) return false;
  for (const [, name, value] of m[2].matchAll(/\[([a-z-]+)(?:="([^"]*)")?\]/g)) {
    const got = node.getAttribute(name);
    if (got === null || (value !== undefined && got !== value)) return false;
  }
  return true;
}

class El {
  constructor(tag, attrs = {}, parent = null) {
    this.tagName = tag.toUpperCase();
    this.attrs = attrs;
    this.parent = parent;
    this.isContentEditable = attrs.contenteditable === "true" || attrs.contenteditable === ""
      || !!(parent && parent.isContentEditable);
  }
  getAttribute(name) { return name in this.attrs ? String(this.attrs[name]) : null; }
  closest(css) {
    const selectors = css.split(",").map((s) => s.trim());
    for (let node = this; node; node = node.parent) {
      if (selectors.some((s) => matchesSimple(node, s))) return node;
    }
    return null;
  }
}

class Win {
  constructor() { this.listeners = []; }
  addEventListener(type, fn, capture) { this.listeners.push({ type, fn, capture }); }
  fire(type, ev) { for (const l of this.listeners) if (l.type === type) l.fn(ev); }
}

function keyEvent(key, target, mods = {}) {
  return { key, target, ctrlKey: false, altKey: false, metaKey: false, ...mods,
    prevented: 0, stopped: 0,
    preventDefault() { this.prevented += 1; }, stopPropagation() { this.stopped += 1; } };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

const DOCUMENTED = ["ArrowRight", "ArrowLeft", " ", "Home", "End", "r", "[", "]", "e", "l", "n",
  "p", "b", ".", "PageUp", "PageDown"];

// the controls of the dashboard a click can leave the focus on
const CONTROLS = {
  button: () => new El("button"),
  "icon in a button": () => new El("i", {}, new El("button")),
  "toggle button": () => new El("button", { "aria-pressed": "true" }),
  "range slider": () => new El("input", { type: "range" }),
  "slider handle": () => new El("div", { role: "slider" }, new El("div")),
  "check box": () => new El("input", { type: "checkbox" }),
  "radio button": () => new El("input", { type: "radio" }),
  "drop-down": () => new El("select"),
  tab: () => new El("li", { role: "tab" }),
  "file upload": () => new El("input", { type: "file" }),
  link: () => new El("a", { href: "#" }),
  page: () => new El("body"),
};

const TEXT_BOXES = {
  "text input": () => new El("input", { type: "text" }),
  "input without a type": () => new El("input"),
  "number input": () => new El("input", { type: "number" }),
  "search input": () => new El("input", { type: "search" }),
  "text area": () => new El("textarea"),
  "editable text": () => new El("div", { contenteditable: "true" }),
  "inside editable text": () => new El("span", {}, new El("div", { contenteditable: "" })),
};

// ------------------------------------------------------------------ tests
test("the stand-in reads every selector keys.js uses", () => {
  for (const [css] of K.OWN_KEYS) {
    for (const s of css.split(",")) assert.match(s.trim(), SIMPLE);
  }
});

test("every documented key is the dashboard's whatever control a click or a script focused", () => {
  const focus = K.watchFocus(new Win());
  for (const [name, make] of Object.entries(CONTROLS)) {
    for (const key of DOCUMENTED) {
      assert.equal(K.dashboardKey(keyEvent(key, make()), focus), true, `${JSON.stringify(key)} on ${name}`);
    }
  }
});

test("a text box keeps every key: typing types", () => {
  const focus = K.watchFocus(new Win());
  for (const [name, make] of Object.entries(TEXT_BOXES)) {
    assert.equal(K.typingIn(make()), true, name);
    for (const key of DOCUMENTED) {
      assert.equal(K.dashboardKey(keyEvent(key, make()), focus), false, `${JSON.stringify(key)} in ${name}`);
    }
  }
  for (const [name, make] of Object.entries(CONTROLS)) assert.equal(K.typingIn(make()), false, name);
});

test("with Ctrl, Alt or Meta a key is never the dashboard's (the browser's shortcuts)", () => {
  const focus = K.watchFocus(new Win());
  for (const mod of ["ctrlKey", "altKey", "metaKey"]) {
    assert.equal(K.dashboardKey(keyEvent("r", new El("body"), { [mod]: true }), focus), false, mod);
  }
});

test("Ctrl+Z undoes and Ctrl+Shift+Z or Ctrl+Y redoes, Cmd on a Mac, on any control but a text box", () => {
  const cases = [[{ key: "z", ctrlKey: true }, "Undo"], [{ key: "z", metaKey: true }, "Undo"],
    [{ key: "Z", ctrlKey: true, shiftKey: true }, "Redo"], [{ key: "z", metaKey: true, shiftKey: true }, "Redo"],
    [{ key: "y", ctrlKey: true }, "Redo"], [{ key: "Y", ctrlKey: true, shiftKey: true }, null],
    [{ key: "z" }, null], [{ key: "y" }, null], [{ key: "z", ctrlKey: true, altKey: true }, null],
    [{ key: "c", ctrlKey: true }, null], [{ key: "r", ctrlKey: true }, null]];
  for (const [name, make] of Object.entries(CONTROLS)) {
    for (const [mods, want] of cases) {
      const ev = keyEvent(mods.key, make(), mods);
      assert.equal(K.historyKey(ev), want, `${JSON.stringify(mods)} on ${name}`);
    }
  }
  for (const [name, make] of Object.entries(TEXT_BOXES)) {  // the text box's own undo
    assert.equal(K.historyKey(keyEvent("z", make(), { ctrlKey: true })), null, name);
    assert.equal(K.historyKey(keyEvent("y", make(), { ctrlKey: true })), null, name);
  }
});

test("a control reached with Tab keeps the keys it works itself, and only those", async () => {
  const win = new Win();
  const focus = K.watchFocus(win);
  const own = {
    button: [" "], "toggle button": [" "], "check box": [" "], "file upload": [" "], link: [" "],
    "range slider": ["ArrowRight", "ArrowLeft", "Home", "End", "PageUp", "PageDown"],
    "slider handle": ["ArrowRight", "ArrowLeft", "Home", "End", "PageUp", "PageDown"],
    "radio button": ["ArrowRight", "ArrowLeft", " ", "Home", "End", "PageUp", "PageDown"],
    "drop-down": ["ArrowRight", "ArrowLeft", " ", "Home", "End", "PageUp", "PageDown"],
    tab: ["ArrowRight", "ArrowLeft", " ", "Home", "End", "PageUp", "PageDown"],
    page: [],
  };
  for (const [name, make] of Object.entries(CONTROLS)) {
    if (!(name in own)) continue;  // an icon never has the focus (its button has)
    const control = make();
    win.fire("keydown", keyEvent("Tab", new El("body")));
    win.fire("focusin", { target: control });  // the Tab's move, during its key press
    assert.equal(focus.keyboard, control, name);
    for (const key of DOCUMENTED) {
      const mine = own[name].includes(key);
      assert.equal(K.dashboardKey(keyEvent(key, control), focus), !mine,
        `${JSON.stringify(key)} on ${name} reached with Tab`);
    }
    await tick();
  }
});

test("a click on a control reached with Tab, or a focus given later, gives the keys back", async () => {
  const win = new Win();
  const focus = K.watchFocus(win);
  const button = new El("button");
  win.fire("keydown", keyEvent("Tab", new El("body")));
  win.fire("focusin", { target: button });
  assert.equal(K.dashboardKey(keyEvent(" ", button), focus), false);
  win.fire("pointerdown", { target: button });  // clicked: no focus event, the focus stays
  assert.equal(K.dashboardKey(keyEvent(" ", button), focus), true);

  const slider = new El("input", { type: "range" });
  win.fire("keydown", keyEvent("ArrowRight", slider));
  await tick();  // the key press is over
  win.fire("focusin", { target: slider });  // a script's focus, later
  assert.equal(focus.keyboard, null);
  assert.equal(K.dashboardKey(keyEvent("ArrowRight", slider), focus), true);
});

test("the focus is watched once per window, whichever script asks first", async () => {
  const win = new Win();
  const a = K.watchFocus(win);
  const n = win.listeners.length;
  // the page bridge's copy of the module (another instance, as the page has two)
  const other = await import("../../explorer/app/static/keys.js?bridge");
  assert.notEqual(other.watchFocus, K.watchFocus);
  assert.equal(other.watchFocus(win), a);
  assert.equal(win.listeners.length, n);
  assert.ok(win.listeners.every((l) => l.capture === true));
});

// ------------------------------------------------------------------ the page figure's keys
function figure(actions = { " ": "play", ArrowRight: "step", "]": "next_update" }) {
  globalThis.document = { querySelector: () => null };  // no blackout
  const fig = Object.create(PageFigureInput.prototype);
  fig.keys = new Map(Object.entries(actions));
  fig.forward = new Set(["x"]);
  fig.acted = [];
  fig.sent = [];
  fig.act = (a) => fig.acted.push(a);
  fig.model = { send: (m) => fig.sent.push(m) };
  fig.active = () => true;
  fig.win = new Win();
  fig.keyFocus = K.watchFocus(fig.win);
  return fig;
}

test("a key press the figure takes acts once, and the focused control does not act on it", () => {
  for (const [name, make] of Object.entries(CONTROLS)) {
    for (const key of [" ", "ArrowRight", "]"]) {
      const fig = figure();
      const ev = keyEvent(key, make());
      fig.key(ev);
      assert.deepEqual(fig.acted, [fig.keys.get(key)], `${JSON.stringify(key)} on ${name}`);
      assert.equal(ev.prevented, 1, `${JSON.stringify(key)} on ${name}: its default prevented`);
      assert.equal(ev.stopped, 1, `${JSON.stringify(key)} on ${name}: not handled again`);
    }
  }
});

test("a key the figure forwards goes to the kernel once", () => {
  const fig = figure();
  const ev = keyEvent("x", new El("button"));
  fig.key(ev);
  assert.equal(JSON.stringify(fig.sent), JSON.stringify([{ type: "key", key: "x" }]));
  assert.deepEqual(fig.acted, []);
  assert.equal(ev.prevented, 1);
});

test("the figure leaves text boxes, keys not its own and keyboard-focused controls alone", () => {
  for (const [name, make] of Object.entries(TEXT_BOXES)) {
    const fig = figure();
    const ev = keyEvent(" ", make());
    fig.key(ev);
    assert.deepEqual([fig.acted, ev.prevented, ev.stopped], [[], 0, 0], name);
  }
  const fig = figure();
  const other = keyEvent("l", new El("button"));  // the page bridge's key
  fig.key(other);
  assert.deepEqual([fig.acted, other.prevented, other.stopped], [[], 0, 0]);

  const button = new El("button");
  fig.win.fire("keydown", keyEvent("Tab", new El("body")));
  fig.win.fire("focusin", { target: button });
  const space = keyEvent(" ", button);
  fig.key(space);  // the button's own click, once
  assert.deepEqual([fig.acted, space.prevented], [[], 0]);
  const right = keyEvent("ArrowRight", button);
  fig.key(right);  // not a button's key: the figure's
  assert.deepEqual([fig.acted, right.prevented], [["step"], 1]);
});
