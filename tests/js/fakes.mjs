// Small stand-ins for what the page figure touches in a browser, so Node's tests can run the real
// modules (explorer/app/static/*.js): a canvas 2D context that records what it draws, elements,
// the document and window, animation frames and timers on a clock the test moves, and an
// anywidget model. No DOM library. Not a test file itself (tests/js/*.test.mjs import it).

// ------------------------------------------------------------------ canvas
// A 2D context that keeps its state like a canvas (save/restore) and logs every call; each
// painting call (stroke, fill, fillText, fillRect, drawImage, putImageData) is logged with the
// state it paints with, so a test can ask what was drawn, where and how.
const STATE = ["strokeStyle", "fillStyle", "globalAlpha", "lineWidth", "font", "textAlign",
  "textBaseline", "lineJoin", "lineCap", "imageSmoothingEnabled"];
const PAINT = new Set(["stroke", "fill", "fillText", "fillRect", "drawImage", "putImageData",
  "strokeRect"]);

export class FakeContext {
  constructor() {
    this.log = [];
    this.stack = [];
    this.dash = [];
    this.path = [];
    Object.assign(this, { strokeStyle: "#000000", fillStyle: "#000000", globalAlpha: 1,
      lineWidth: 1, font: "10px sans-serif", textAlign: "start", textBaseline: "alphabetic",
      lineJoin: "miter", lineCap: "butt", imageSmoothingEnabled: true });
  }

  state() {
    const s = { dash: [...this.dash] };
    for (const k of STATE) s[k] = this[k];
    return s;
  }

  call(name, args) {
    const entry = { op: name, args };
    if (PAINT.has(name)) Object.assign(entry, this.state(), { path: this.path });
    this.log.push(entry);
  }

  // what was painted: [{op, args, state..., path}] (a path: the moveTo/lineTo/... since beginPath)
  painted() { return this.log.filter((e) => PAINT.has(e.op)); }

  save() { this.stack.push(this.state()); this.call("save", []); }
  restore() {
    const s = this.stack.pop();
    if (s) { for (const k of STATE) this[k] = s[k]; this.dash = s.dash; }
    this.call("restore", []);
  }
  setLineDash(d) { this.dash = [...d]; this.call("setLineDash", [[...d]]); }
  getLineDash() { return [...this.dash]; }
  beginPath() { this.path = []; this.call("beginPath", []); }
  measureText(text) { return { width: 6 * String(text).length }; }
  createImageData(w, h) { return { width: w, height: h, data: new Uint8ClampedArray(4 * w * h) }; }
}
for (const name of ["moveTo", "lineTo", "closePath", "rect", "arc"]) {
  FakeContext.prototype[name] = function (...args) { this.path.push([name, ...args]); this.call(name, args); };
}
for (const name of ["stroke", "fill", "fillText", "fillRect", "strokeRect", "drawImage",
  "putImageData", "clip", "clearRect", "setTransform"]) {
  FakeContext.prototype[name] = function (...args) { this.call(name, args); };
}

// ------------------------------------------------------------------ elements
export class FakeElement {
  constructor(tag) {
    this.tagName = tag.toUpperCase();
    this.attributes = {};
    this.children = [];
    this.listeners = {};
    this.dataset = {};
    this.style = {};
    this.className = "";
    this.textContent = "";
    this.disabled = false;
    this.hidden = false;
    this.isConnected = true;
    this.offsetParent = {};
    const classes = new Set();
    this.classList = {
      add: (...c) => c.forEach((x) => classes.add(x)),
      remove: (...c) => c.forEach((x) => classes.delete(x)),
      toggle: (c, on) => { if (on === undefined ? !classes.has(c) : on) classes.add(c); else classes.delete(c); },
      contains: (c) => classes.has(c),
    };
    if (tag === "canvas") { this.width = 300; this.height = 150; this.context = new FakeContext(); }
    if (tag === "input") { this.value = ""; this.min = ""; this.max = ""; }
  }
  setAttribute(k, v) {
    this.attributes[k] = String(v);
    if (["value", "min", "max"].includes(k)) this[k] = String(v);
  }
  getAttribute(k) { return k in this.attributes ? this.attributes[k] : null; }
  removeAttribute(k) { delete this.attributes[k]; }
  append(...nodes) { for (const n of nodes) this.children.push(n); }
  appendChild(n) { this.children.push(n); return n; }
  replaceChildren(...nodes) { this.children = [...nodes]; }
  addEventListener(type, fn) { (this.listeners[type] ||= []).push(fn); }
  removeEventListener(type, fn) { this.listeners[type] = (this.listeners[type] || []).filter((f) => f !== fn); }
  dispatch(type, ev = {}) { for (const fn of this.listeners[type] || []) fn(ev); }
  getContext() { return this.context; }
  // the canvas's box on the page: at the top left, as large as the figure unless a test says
  getBoundingClientRect() {
    return this.rect || { left: 0, top: 0, width: parseFloat(this.style.width) || this.width,
      height: parseFloat(this.style.height) || this.height };
  }
  setPointerCapture() {}
  matches() { return false; }
  contains() { return false; }
  click() { this.dispatch("click", {}); }
  // every element below (depth first), this one first
  *walk() { yield this; for (const c of this.children) if (c instanceof FakeElement) yield* c.walk(); }
  find(cls) { for (const e of this.walk()) if (e.className.split(" ").includes(cls)) return e; return null; }
}

// ------------------------------------------------------------------ the page
// The globals the modules use, on a clock the test moves: setTimeout, performance.now,
// requestAnimationFrame, document, window, createImageBitmap. Returns {clock, restore}.
export function installPage() {
  const clock = {
    now: 1000,
    timers: [],   // {id, at, fn}
    frames: [],   // {id, fn}
    serial: 0,
    // run the timers due within `ms` from now, in order, and move the clock there
    advance(ms) {
      const end = this.now + ms;
      for (;;) {
        const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
        if (!due) break;
        this.timers = this.timers.filter((t) => t !== due);
        this.now = Math.max(this.now, due.at);
        due.fn();
      }
      this.now = end;
    },
    // one animation frame at the clock's time (the callbacks asked for before it)
    frame() {
      const frames = this.frames;
      this.frames = [];
      for (const f of frames) f.fn(this.now);
    },
  };
  const saved = {};
  const set = (name, value) => {
    saved[name] = Object.getOwnPropertyDescriptor(globalThis, name);
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  };
  set("setTimeout", (fn, ms = 0) => {
    const id = ++clock.serial;
    clock.timers.push({ id, at: clock.now + Math.max(0, ms), fn });
    return id;
  });
  set("clearTimeout", (id) => { clock.timers = clock.timers.filter((t) => t.id !== id); });
  set("requestAnimationFrame", (fn) => { const id = ++clock.serial; clock.frames.push({ id, fn }); return id; });
  set("cancelAnimationFrame", (id) => { clock.frames = clock.frames.filter((f) => f.id !== id); });
  set("performance", { now: () => clock.now });
  set("createImageBitmap", async () => ({ close() {} }));
  set("document", {
    createElement: (tag) => new FakeElement(tag),
    querySelector: () => null,
    querySelectorAll: () => [],
    activeElement: null,
    body: { dataset: {} },
  });
  const win = { listeners: {}, devicePixelRatio: 1,
    addEventListener(type, fn) { (this.listeners[type] ||= []).push(fn); },
    removeEventListener(type, fn) { this.listeners[type] = (this.listeners[type] || []).filter((f) => f !== fn); },
    matchMedia: () => ({ addEventListener() {}, removeEventListener() {} }) };
  set("window", win);
  const restore = () => {
    for (const [name, d] of Object.entries(saved)) {
      if (d) Object.defineProperty(globalThis, name, d);
      else delete globalThis[name];
    }
  };
  return { clock, window: win, restore };
}

// ------------------------------------------------------------------ the model
// An anywidget model: the page's `set` + `save_changes` are what the kernel hears (`saved`),
// `send` its messages (`sent`); `kernel(values)` is the kernel changing traits, `message` a
// custom message from the kernel.
export class FakeModel {
  constructor(values) {
    this.values = { ...values };
    this.pending = {};
    this.saved = [];
    this.sent = [];
    this.handlers = {};
  }
  get(k) { return this.values[k]; }
  set(k, v) { this.values[k] = v; this.pending[k] = v; }
  save_changes() { this.saved.push(this.pending); this.pending = {}; }
  send(msg) { this.sent.push(msg); }
  on(ev, fn) { (this.handlers[ev] ||= []).push(fn); }
  off(ev, fn) { this.handlers[ev] = (this.handlers[ev] || []).filter((f) => f !== fn); }
  kernel(values) {
    Object.assign(this.values, values);
    for (const fn of this.handlers.change || []) fn();
  }
  message(msg, buffers = []) { for (const fn of this.handlers["msg:custom"] || []) fn(msg, buffers); }
  // the step the kernel heard last (undefined: none)
  heardStep() { for (let i = this.saved.length - 1; i >= 0; i--) if ("step" in this.saved[i]) return this.saved[i].step; return undefined; }
  asked() { return this.sent.filter((m) => m.type === "chunk").map((m) => m.index); }
}

// ------------------------------------------------------------------ scenes and chunks
// A scene header (explorer.plots.scene.Scene.header() with the page figure's run and pushed):
// one panel "plane" at (10, 20) 200 x 100 CSS px showing x 0..10, y 0..5, and a points track
// "dots" and a polyline "line" (both moved per step) unless `tracks` says otherwise.
export function sceneHeader({ run = 1, n = 20, chunk = 5, tracks, panels, pushed = [], keep = false } = {}) {
  return {
    width: 240, height: 140, ratio: 1, n_steps: n, chunk, run, pushed, keep,
    panels: panels || [{ name: "plane", x: 10, y: 20, w: 200, h: 100, xlim: [0, 10], ylim: [0, 5], clip: true }],
    tracks: tracks || [
      { name: "line", panel: "plane", kind: "polyline", layer: "over", z: 0, style: { color: "#FF0000" } },
      { name: "dots", panel: "plane", kind: "points", layer: "over", z: 1, style: { size: 6 } },
    ],
  };
}

// The chunk message of steps index*C .. of a run of n steps: at step k the line goes from
// (0, 0) to (k, 1) and the dots sit at (k, 2) and (k, 4) (data coordinates), narration "at k".
export function chunkMessage({ run = 1, index, C = 5, n = 20 }) {
  const start = index * C, count = Math.min(C, n - start + 1);
  const line = new Float32Array(count * 4), dots = new Float32Array(count * 4);
  for (let i = 0; i < count; i++) {
    const k = start + i;
    line.set([0, 0, k, 1], 4 * i);
    dots.set([k, 2, k, 4], 4 * i);
  }
  const msg = { type: "chunk", run, index, start, count, strings: [],
    narration: Array.from({ length: count }, (_, i) => `at ${start + i}`),
    status: Array.from({ length: count }, (_, i) => `step ${start + i} of ${n}`),
    arrays: { line: { xy: ["float32", [count, 2, 2]] }, dots: { xy: ["float32", [count, 2, 2]] } } };
  return [msg, [line.buffer, dots.buffer]];
}

// the traits a PageFigure starts with (explorer.app.pagefigure.PageFigure's defaults)
export const CONTROLS = [
  ["reset", "Reset", "", "pe-reset"], ["back", "◀ Back", "", "pe-back"],
  ["step", "Step ▶", "", "pe-step"], ["play", "▶ Play", "", "pe-play"],
  ["prev_update", "⇤ Update", "", "pe-prev-update"], ["next_update", "Update ⇥", "", "pe-next-update"],
  ["epoch_end", "Epoch end", "", "pe-epoch-end"], ["end", "End", "", "pe-end"],
  ["cycle_start", "Cycle start", "", "pe-cycle-start"],
];

export function modelFor(scene, extra = {}) {
  return new FakeModel({ scene, below: new DataView(new ArrayBuffer(0)),
    above: new DataView(new ArrayBuffer(0)), transport: {}, name: "Figure", pointer_mode: "view",
    pointer_colors: {}, lecture: false, show_transport: true, step: 0, playing: false, ratio: 1,
    controls: CONTROLS, key_actions: {}, forward_keys: [], drag_tracks: [], ...extra });
}

// let the page's promises and queued microtasks run (images decoded, syncs)
export const settle = () => new Promise((resolve) => setImmediate(resolve));
