// The dashboard's page-drawn figure (explorer/app/pagefigure.py; issue 20).
//
// The kernel sends a run once: a scene (panels with their data -> CSS px mapping, track
// headers), two still PNG layers, and per-step arrays in chunks of steps (binary buffers). The
// page draws the step shown from those arrays and runs the transport itself (Step, Back, the
// slider, Play, the jumps, the keys): no kernel round trip before the pixels change. It tells
// the kernel the settled step (the `step` trait), asks for chunks ahead of need, and never
// shows a step whose chunk it does not have (it waits at the last step it has and says so).
// Plain ES module, no imports: nothing loads from the network. The kernel sends it after
// kinds.js (how each kind of moving part is drawn: KINDS, resolveStyle).

const FIELDS = 'input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="slider"]';
const BUTTONS = 'button, a[href], [role="button"], summary';  // Space and Enter are theirs
const SETTLE_MS = 150;        // a step unchanged this long is "settled": the kernel learns it
const PUSHED_WAIT_MS = 1500;  // a chunk the kernel said it pushed, asked for if it has not come
const RETRY_MS = 8000;        // a chunk asked for and not come: asked again
const KEEP_CHUNKS = 24;       // chunks kept in the page (the farthest from the step go first)
const MARK_MS = 5000;         // pointer feedback lasts until the next scene, or this long
const PICK_PX = 14;           // remove/choose: the nearest drawn point within this distance
const MAX_SPEED = 30;         // Play's fastest: steps per second
const TURN_DEG = 0.5;         // a panel with a 3-D view turns this many degrees a CSS px dragged
const DRAG_SEND_MS = 30;      // a dragged point's moves reach the kernel at most this often

const DOTTED = [3, 3];
const TYPED = { float32: Float32Array, float64: Float64Array, int32: Int32Array, uint8: Uint8Array };
let serial = 0;

function typed(dtype, buf) {
  const T = TYPED[dtype] || Float32Array;
  if (buf instanceof ArrayBuffer) return new T(buf);
  // a DataView (ipywidgets); copy when its offset does not suit the element size
  if (buf.byteOffset % T.BYTES_PER_ELEMENT) {
    return new T(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  }
  return new T(buf.buffer, buf.byteOffset, buf.byteLength / T.BYTES_PER_ELEMENT);
}

function el(tag, cls, attrs) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (attrs) for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

class PageFigure {
  constructor(model, root) {
    this.model = model;
    this.root = root;
    this.id = ++serial;
    this.run = null;
    this.n = 0;
    this.C = 1;
    this.panels = new Map();
    this.draw_order = [];  // [under..., "above", over...] tracks, the string marks the layer
    this.chunks = new Map();
    this.early = new Map();    // run -> Map of chunks that came before their scene
    this.inflight = new Map(); // index -> {t, pushed}
    this.images = { below: null, above: null };
    this.ready = false;
    this.gen = 0;
    this.want = 0;     // the step asked for (slider, buttons, keys, Play, the kernel)
    this.shown = -1;   // the step whose data is shown (or is about to be, next frame)
    this.drawn = -1;
    this.playing = false;
    this.speed = 4;
    this.marks = [];
    this.modelStep = model.get("step");
    this.buf = new Float64Array(512);
    this.raf = 0;
    this.playRaf = 0;
    this.settleTimer = 0;
    this.texts = { narration: null, status: null };
    this.transport = {};
    this.updates = [];
    this.keys = new Map();
    this.forward = new Set();
    this.mode = "view";
    this.statics = new Map();  // track -> arrays the same at every step (sent apart, replaceable)
    this.staticStrings = [];
    this.staticNarration = null;  // a narration that stands until the next run (an edit's)
    this.staticTail = "";  // words after every step's narration (a static chunk's tail)
    this.earlyStatic = null;
    this.drag = null;  // a point being dragged: {track, index, panel, px, py, released}
    this.build();
    this.bind();
    this.sync(true);
  }

  // ------------------------------------------------------------------ DOM
  build() {
    const root = this.root;
    root.classList.add("pe-pagefigure");
    const bar = el("div", "pe-pf-bar", { role: "toolbar", "aria-label": "Run controls" });
    this.buttons = {};
    for (const [action, label, tip, css] of this.model.get("controls")) {
      const b = el("button", `pe-pf-btn ${css}`, { type: "button", title: tip });
      b.textContent = label;
      if (action === "step") b.classList.add("pe-pf-primary");
      b.addEventListener("click", () => this.act(action));
      this.buttons[action] = b;
      bar.appendChild(b);
      if (action === "play") {
        this.playLabel = label;
        const speed = el("label", "pe-pf-speed");
        this.speedInput = el("input", "pe-pf-speed-input", { type: "range", min: "1", max: String(MAX_SPEED),
          step: "1", value: String(this.speed), "aria-label": "Play speed, steps per second" });
        this.speedOut = el("span", "pe-pf-readout");
        this.speedOut.textContent = String(this.speed);
        speed.append("steps/s", this.speedInput, this.speedOut);
        this.speedInput.addEventListener("input", () => {
          this.speed = Math.min(MAX_SPEED, Math.max(1, Number(this.speedInput.value) || 4));
          this.speedOut.textContent = String(this.speed);
        });
        bar.appendChild(speed);
      }
    }
    const scrub = el("div", "pe-pf-scrub");
    const lab = el("label", "pe-pf-slider");
    this.slider = el("input", "pe-scrub pe-pf-slider-input", { type: "range", min: "0", max: "1",
      step: "1", value: "0", "aria-label": "step" });
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    lab.append("step", this.slider);
    this.where = el("span", "pe-where");
    scrub.append(lab, this.where);
    const nid = `pe-pf-narration-${this.id}-${Math.random().toString(36).slice(2, 8)}`;
    this.narration = el("div", "pe-pf-narration", { id: nid, "aria-live": "polite" });
    this.figure = el("div", "pe-pf-figure", { role: "img", "aria-describedby": nid });
    this.canvas = el("canvas", "pe-canvas");
    this.figure.appendChild(this.canvas);
    this.ctx = this.canvas.getContext("2d");
    this.frame = { ctx: this.ctx, buf: this.buf, a: null, i: 0, strings: [] };
    root.append(bar, scrub, this.narration, this.figure);
    // for tests: the display list of the last frame and the step drawn
    Object.defineProperty(root, "peDisplayList", { configurable: true,
      get: () => this.displayList() });
    root.peStep = -1;
    root.peDrawMs = 0;
  }

  bind() {
    const m = this.model;
    this.onChange = () => { if (!this.syncQueued) { this.syncQueued = true;
      queueMicrotask(() => { this.syncQueued = false; this.sync(false); }); } };
    this.onCustom = (msg, buffers) => this.custom(msg, buffers || []);
    m.on("change", this.onChange);
    m.on("msg:custom", this.onCustom);
    this.onKey = (ev) => this.key(ev);
    window.addEventListener("keydown", this.onKey, true);  // before the page bridge's keys
    this.onClick = (ev) => this.pointer(ev);
    this.canvas.addEventListener("click", this.onClick);
    this.canvas.addEventListener("pointerdown", (ev) => this.turnStart(ev));
    this.canvas.addEventListener("pointermove", (ev) => this.turnMove(ev));
    this.canvas.addEventListener("pointerup", (ev) => this.turnEnd(ev));
    this.canvas.addEventListener("pointercancel", (ev) => this.turnEnd(ev));
    this.canvas.addEventListener("pointerdown", (ev) => this.dragStart(ev));
    this.canvas.addEventListener("pointermove", (ev) => this.dragMove(ev));
    this.canvas.addEventListener("pointerup", (ev) => this.dragEnd(ev));
    this.canvas.addEventListener("pointercancel", (ev) => this.dragEnd(ev));
    this.watchRatio();
  }

  watchRatio() {
    const r = window.devicePixelRatio || 1;
    if (this.model.get("ratio") !== r) { this.model.set("ratio", r); this.model.save_changes(); }
    if (this.dprQuery) this.dprQuery.removeEventListener("change", this.onDpr);
    this.dprQuery = window.matchMedia(`(resolution: ${r}dppx)`);
    this.onDpr = () => { this.watchRatio(); this.drawn = -1; this.requestDraw(); };
    this.dprQuery.addEventListener("change", this.onDpr);
  }

  destroy() {
    const m = this.model;
    m.off("change", this.onChange);
    m.off("msg:custom", this.onCustom);
    window.removeEventListener("keydown", this.onKey, true);
    if (this.dprQuery) this.dprQuery.removeEventListener("change", this.onDpr);
    cancelAnimationFrame(this.raf);
    cancelAnimationFrame(this.playRaf);
    clearTimeout(this.settleTimer);
    this.playing = false;
  }

  // ------------------------------------------------------------------ kernel -> page
  sync(initial) {
    const m = this.model;
    this.transport = m.get("transport") || {};
    const updates = this.transport.updates;
    this.updates = Array.isArray(updates) ? updates : [];
    this.keys = new Map(Object.entries(m.get("key_actions") || {}));
    this.forward = new Set(m.get("forward_keys") || []);
    const scene = m.get("scene") || {};
    if (scene.run !== undefined && scene.run !== this.run) this.newRun(scene, initial);
    else if (m.get("below") !== this.images.belowSrc || m.get("above") !== this.images.aboveSrc) {
      this.decodeImages();
    }
    this.figure.setAttribute("aria-label", m.get("name") || "Figure");
    this.root.classList.toggle("pe-pf-lecture", !!m.get("lecture"));
    this.root.classList.toggle("pe-pf-nosteps", m.get("show_transport") === false);
    const mode = m.get("pointer_mode") || "view";
    if (mode !== this.mode) {
      this.mode = mode;
      this.canvas.classList.toggle("pe-pf-pointing", mode !== "view");
      this.root.dataset.pointerMode = mode;
      if (this.marks.length) { this.marks = []; this.requestDraw(); }
    }
    const k = m.get("step");
    if (k !== this.modelStep) {  // the kernel set the step (a link, a reset, a new run)
      this.modelStep = k;
      if (this.playing && k !== this.want) this.stop(false);
      this.go(k);
    }
    const playing = !!m.get("playing");
    if (playing !== this.playing) playing ? this.play() : this.stop(true);  // the kernel's word
    this.refresh();
  }

  newRun(scene, initial) {
    const before = this.run === null || initial ? -1 : this.want;
    this.stop(false);
    this.run = scene.run;
    this.root.peRun = scene.run;  // for tests: how many scenes the figure has had
    this.n = Math.max(0, scene.n_steps | 0);
    this.C = Math.max(1, scene.chunk | 0);
    this.width = scene.width | 0;
    this.height = scene.height | 0;
    this.panels = new Map();
    for (const p of scene.panels || []) {
      const [x0, x1] = p.xlim, [y0, y1] = p.ylim;
      const ax = p.w / (x1 - x0), ay = -p.h / (y1 - y0);
      this.panels.set(p.name, { ...p, ax, bx: p.x - x0 * ax, ay, by: p.y + p.h - y0 * ay,
        x0, x1, y0, y1, view3d: p.view3d ? { ...p.view3d } : undefined });
    }
    this.panels.set("figure", { name: "figure", x: 0, y: 0, w: this.width, h: this.height,
      clip: false, ax: 1, bx: 0, ay: 1, by: 0, figure: true });
    const tracks = (scene.tracks || []).map((t, i) => {
      const panel = this.panels.get(t.panel) || this.panels.get("figure");
      const tr = { name: t.name, kind: t.kind, layer: t.layer, z: num(t.z, 0), i, panel,
        style: resolveStyle(t.kind, t.style || {}) };
      if (t.kind === "prefix" && Array.isArray(t.data)) {
        tr.data = new Float64Array(t.data.length * 2);
        t.data.forEach(([x, y], j) => {  // null: a gap (JSON has no NaN)
          tr.data[2 * j] = x === null ? NaN : panel.ax * x + panel.bx;
          tr.data[2 * j + 1] = y === null ? NaN : panel.ay * y + panel.by;
        });
        this.grow(t.data.length + 1);
      }
      const kind = KINDS[t.kind];  // a kind may prepare its static data once per scene
      if (kind && kind.init) { kind.init(tr, t); this.grow((Array.isArray(t.data) ? t.data.length : 0) + 64); }
      return tr;
    });
    const by = (a, b) => a.z - b.z || a.i - b.i;
    this.draw_order = [...tracks.filter((t) => t.layer !== "over").sort(by), "above",
      ...tracks.filter((t) => t.layer === "over").sort(by)];
    this.tracks = tracks;
    this.chunks = this.early.get(this.run) || new Map();
    this.early.clear();
    const st = this.earlyStatic;
    this.earlyStatic = null;
    this.staticTail = "";
    if (st && st.run === this.run) this.applyStatic(st);
    else { this.statics = new Map(); this.staticStrings = []; this.staticNarration = null; }
    if (this.drag && this.drag.released) this.drag = null;
    if (this.drag) this.drag.panel = this.panels.get(this.drag.panel.name) || this.drag.panel;  // a new layout mid-drag
    this.inflight = new Map();
    if (!initial) {
      const t = performance.now();
      for (const i of scene.pushed || []) if (!this.chunks.has(i)) this.inflight.set(i, { t, pushed: true });
      setTimeout(() => { if (this.shown !== this.want) this.show(); }, PUSHED_WAIT_MS + 50);
    }
    this.marks = [];
    this.shown = -1;
    this.drawn = -1;
    this.slider.max = String(Math.max(this.n, 1));
    this.modelStep = this.model.get("step");
    this.want = this.clamp(this.modelStep);
    // the same run drawn again (a new size, the bound computed): the page's step stays, and
    // the kernel hears it when it settles (its own step may be one the page has left)
    if (scene.keep && before >= 0) this.want = this.clamp(before);
    this.decodeImages();
    this.show();
  }

  decodeImages() {
    const gen = ++this.gen;
    const m = this.model;
    this.ready = false;  // never the new tracks over the old layers
    const srcs = { below: m.get("below"), above: m.get("above") };
    this.images.belowSrc = srcs.below;
    this.images.aboveSrc = srcs.above;
    const decode = (v) => (!v || !v.byteLength ? Promise.resolve(null)
      : createImageBitmap(new Blob([v], { type: "image/png" })).catch(() => null));
    Promise.all([decode(srcs.below), decode(srcs.above)]).then(([b, a]) => {
      if (gen !== this.gen) { if (b) b.close(); if (a) a.close(); return; }
      for (const old of [this.images.below, this.images.above]) if (old) old.close();
      this.images.below = b;
      this.images.above = a;
      this.ready = true;
      this.drawn = -1;
      this.requestDraw();
    });
  }

  custom(msg, buffers) {
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "chunk") return this.chunkArrived(msg, buffers);
    if (msg.type === "static") return this.staticArrived(msg, buffers);
    if (msg.type === "go") return this.go(msg.step);
    if (msg.type === "pointer_done") {  // refused: the marks go, and a drag lets go
      if (this.drag) { clearTimeout(this.drag.timer); this.drag = null; this.requestDraw(); }
      if (this.marks.length) { this.marks = []; this.requestDraw(); }
    }
  }

  chunkArrived(msg, buffers) {
    const chunk = { index: msg.index, start: msg.start, count: msg.count,
      strings: msg.strings || [], narration: msg.narration || [], status: msg.status || [],
      tracks: new Map() };
    let b = 0;
    for (const [track, fields] of Object.entries(msg.arrays || {})) {
      const t = {};
      for (const [name, [dtype, shape]] of Object.entries(fields)) {
        t[name] = typed(dtype, buffers[b++]);
        t[name + "_per"] = shape.slice(1).reduce((a, v) => a * v, 1);  // values a step
        if (name === "xy" && shape.length === 3) this.grow(shape[1]);
      }
      chunk.tracks.set(track, t);
    }
    if (msg.run !== this.run) {  // a chunk of a scene the page has not seen yet
      if (this.early.size > 2) this.early.clear();  // (or of an old one: forgotten)
      if (!this.early.has(msg.run)) this.early.set(msg.run, new Map());
      this.early.get(msg.run).set(msg.index, chunk);
      return;
    }
    this.chunks.set(msg.index, chunk);
    this.inflight.delete(msg.index);
    this.evict();
    if (this.shown !== this.want && this.has(this.want)) this.show();
    else this.refresh();
  }

  // arrays the same at every step (e.g. the data and a solution while they are edited)
  staticArrived(msg, buffers) {
    const st = { run: msg.run, tracks: new Map(), strings: msg.strings || [],
      narration: typeof msg.narration === "string" ? msg.narration : null, merge: !!msg.merge,
      tail: typeof msg.tail === "string" ? msg.tail : null };
    let b = 0;
    for (const [track, fields] of Object.entries(msg.arrays || {})) {
      const t = {};
      for (const [name, [dtype, shape]] of Object.entries(fields)) {
        t[name] = typed(dtype, buffers[b++]);
        t[name + "_per"] = shape.slice(1).reduce((a, v) => a * v, 1);
        if (name === "xy" && shape.length === 3) this.grow(shape[1]);
      }
      t.strings = st.strings;  // the texts its "t" indexes
      st.tracks.set(track, t);
    }
    if (msg.run !== this.run) {  // its scene comes next
      const early = this.earlyStatic;
      if (st.merge && early && early.run === st.run) {
        for (const [k, v] of st.tracks) early.tracks.set(k, v);
        if (st.narration !== null) early.narration = st.narration;
        if (st.tail !== null) early.tail = st.tail;
      } else this.earlyStatic = st;
      return;
    }
    this.applyStatic(st);
  }

  applyStatic(st) {
    if (st.tail !== null) this.staticTail = st.tail;
    if (st.merge) {  // only the tracks that changed (send_static(changed_only=True))
      for (const [k, v] of st.tracks) this.statics.set(k, v);
      if (st.narration !== null) this.staticNarration = st.narration;
      if (this.drag && this.drag.released) this.drag = null;
      this.requestDraw();
      return;
    }
    this.statics = st.tracks;
    this.staticStrings = st.strings;
    this.staticNarration = st.narration;
    if (this.drag && this.drag.released) this.drag = null;  // the kernel has the drop
    this.requestDraw();
  }

  evict() {
    if (this.chunks.size <= KEEP_CHUNKS) return;
    const here = Math.floor(Math.max(this.shown, 0) / this.C);
    const far = [...this.chunks.keys()].sort((a, b) => Math.abs(b - here) - Math.abs(a - here));
    for (const i of far.slice(0, this.chunks.size - KEEP_CHUNKS)) if (i !== here) this.chunks.delete(i);
  }

  grow(vertices) {
    if (vertices * 2 > this.buf.length) {
      this.buf = new Float64Array(vertices * 2 + 64);
      if (this.frame) this.frame.buf = this.buf;
    }
  }

  // ------------------------------------------------------------------ steps
  clamp(k) { k = Math.round(Number(k)); return Number.isFinite(k) ? Math.min(Math.max(k, 0), this.n) : 0; }
  chunkOf(k) { return this.chunks.get(Math.floor(k / this.C)); }
  has(k) { return this.run !== null && !!this.chunkOf(k); }

  ensure(index) {
    if (this.run === null || index < 0 || index * this.C > this.n || this.chunks.has(index)) return;
    const now = performance.now();
    const f = this.inflight.get(index);
    if (f && now - f.t < (f.pushed ? PUSHED_WAIT_MS : RETRY_MS)) return;
    this.inflight.set(index, { t: now, pushed: false });
    this.model.send({ type: "chunk", run: this.run, index });
  }

  prefetch(k) {
    const c = Math.floor(k / this.C);
    this.ensure(c);
    if (k - c * this.C >= this.C / 2) this.ensure(c + 1);
    else this.ensure(c - 1);
  }

  go(k) {
    this.want = this.clamp(k);
    this.show();
  }

  // show the step asked for if its data is here; else ask for it and wait where we are
  show() {
    if (this.run === null) return;
    if (this.has(this.want)) {
      if (this.shown !== this.want) { this.shown = this.want; this.requestDraw(); }
      this.prefetch(this.want);
      if (!this.playing) this.settleSoon();
    } else {
      this.ensure(Math.floor(this.want / this.C));
    }
    this.refresh();
  }

  settleSoon() {
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => this.settle(), SETTLE_MS);
  }

  // write the settled step (and `extra` traits) to the kernel, in one message
  settle(extra) {
    clearTimeout(this.settleTimer);
    const k = this.shown;
    const changes = {};
    for (const [key, v] of Object.entries(extra || {})) if (this.model.get(key) !== v) changes[key] = v;
    if (!this.playing && k >= 0 && k === this.want && k !== this.model.get("step")) {
      this.modelStep = k;
      changes.step = k;
    }
    if (!Object.keys(changes).length) return;
    for (const [key, v] of Object.entries(changes)) this.model.set(key, v);
    this.model.save_changes();
  }

  target(action) {
    const k = this.want, n = this.n, up = this.updates, epoch = this.transport.epoch | 0;
    switch (action) {
      case "step": return k + 1;
      case "back": return k - 1;
      case "reset": return 0;
      case "end": return n;
      case "next_update": { for (const u of up) if (u > k) return u; return n; }
      case "prev_update": { let p = 0; for (const u of up) { if (u < k) p = u; else break; } return p; }
      case "epoch_end": return epoch <= 0 ? n : Math.min((Math.floor(k / epoch) + 1) * epoch, n);
      case "cycle_start": { const c = this.transport.cycle_start;
        return c === null || c === undefined ? k : Math.min(c, n); }
    }
    return k;
  }

  act(action) {
    if (action === "play") { this.playing ? this.stop(true) : this.play(); return; }
    if (action === "reset" && this.playing) this.stop(false);
    this.go(this.target(action));
  }

  // ------------------------------------------------------------------ play
  play() {
    if (this.playing || this.run === null || this.n === 0 || this.want >= this.n) {
      if (!this.playing && this.model.get("playing")) this.settle({ playing: false });
      return;
    }
    this.playing = true;
    clearTimeout(this.settleTimer);
    if (!this.model.get("playing")) { this.model.set("playing", true); this.model.save_changes(); }
    this.due = performance.now() + 1000 / this.speed;
    const tick = (now) => {
      if (!this.playing) return;
      if (now >= this.due) {
        if (this.want >= this.n) { this.stop(true); return; }
        if (this.shown === this.want && this.has(this.want + 1)) {
          this.want += 1;
          this.show();
          const every = 1000 / this.speed;
          this.due = now - this.due > every ? now + every : this.due + every;
          if (this.want >= this.n) { this.stop(true); return; }
        } else {
          this.ensure(Math.floor((this.want + 1) / this.C));  // Play waits for the kernel
          this.refresh();
        }
      }
      this.playRaf = requestAnimationFrame(tick);
    };
    this.playRaf = requestAnimationFrame(tick);
    this.refresh();
  }

  // stop playing; `settleStep`: the step shown is the settled one (else one is coming)
  stop(settleStep) {
    if (!this.playing) return;
    this.playing = false;
    cancelAnimationFrame(this.playRaf);
    if (settleStep) this.settle({ playing: false });
    else if (this.model.get("playing")) { this.model.set("playing", false); this.model.save_changes(); }
    this.refresh();
  }

  waiting() {
    if (this.run === null) return false;
    if (this.shown !== this.want) return true;
    // Play waits at the last step it has, once that step is on the canvas
    return this.playing && this.drawn === this.want && this.want < this.n && !this.has(this.want + 1);
  }

  // ------------------------------------------------------------------ controls
  refresh() {
    const k = this.want, n = this.n, empty = this.run === null || n === 0, up = this.updates;
    const b = this.buttons;
    const set = (btn, off) => { if (btn && btn.disabled !== off) btn.disabled = off; };
    set(b.step, empty || k >= n);
    set(b.end, empty || k >= n);
    set(b.play, empty || (k >= n && !this.playing));
    set(b.back, k <= 0);
    set(b.reset, k <= 0);
    set(b.prev_update, k <= 0 || !(up.length && up[0] < k));
    set(b.next_update, empty || !(up.length && up[up.length - 1] > k));
    set(b.epoch_end, empty || k >= n);
    if (b.epoch_end) b.epoch_end.hidden = !((this.transport.epoch | 0) > 0);
    const cyc = this.transport.cycle_start;
    if (b.cycle_start) {
      b.cycle_start.hidden = cyc === null || cyc === undefined || cyc > n;
      set(b.cycle_start, cyc === null || cyc === undefined || k === cyc);
    }
    if (b.play) {
      const label = this.playing ? "❚❚ Pause" : this.playLabel;
      if (b.play.textContent !== label) b.play.textContent = label;
      b.play.setAttribute("aria-label", this.playing ? "Pause" : "Play");
    }
    this.slider.disabled = empty;
    if (this.slider.value !== String(k)) this.slider.value = String(k);
    this.writeTexts();
  }

  // the narration and status of the step on the canvas (written in the same frame as its pixels)
  writeTexts() {
    const k = this.drawn;
    const c = k >= 0 ? this.chunkOf(k) : null;
    let status = "", narration = "";
    if (c) {
      const i = k - c.start;
      status = c.status[i] || `step ${k} of ${this.n}`;
      narration = (this.staticNarration !== null ? this.staticNarration : c.narration[i] || "")
        + this.staticTail;
    } else if (this.run !== null) {
      status = `step ${this.want} of ${this.n}`;
    }
    if (this.transport.status_suffix) status += this.transport.status_suffix;
    const waiting = this.waiting();
    this.root.dataset.waiting = waiting ? "true" : "false";
    if (waiting) {
      const next = this.shown !== this.want ? this.want : this.want + 1;
      const c0 = Math.floor(next / this.C) * this.C;
      status += ` · waiting for steps ${c0}–${Math.min(c0 + this.C - 1, this.n)} from the kernel…`;
    }
    if (status !== this.texts.status) { this.texts.status = status; this.where.textContent = status; }
    if (narration !== this.texts.narration) {
      this.texts.narration = narration;
      this.narration.textContent = narration;
    }
  }

  // ------------------------------------------------------------------ keys
  active() {
    const r = this.root;
    if (!r.isConnected || r.offsetParent === null) return false;
    const f = document.activeElement;
    if (r.matches(":hover") || (f && r.contains(f))) return true;
    if (document.body.dataset.voila === undefined) return false;  // a notebook's keys are its own
    for (const other of document.querySelectorAll(".pe-pagefigure")) {
      if (other.offsetParent !== null) return other === r;  // the first one on screen
    }
    return false;
  }

  key(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (document.querySelector(".pe-blackout")) return;  // blacked out: the page bridge's keys
    const action = this.keys.get(ev.key);
    if (!action && !this.forward.has(ev.key)) return;
    const t = ev.target;
    if (t && t.closest && t.closest(FIELDS)) return;  // typing, or working a control
    if ((ev.key === " " || ev.key === "Enter") && t && t.closest && t.closest(BUTTONS)) return;
    if (!this.active()) return;
    ev.preventDefault();
    ev.stopPropagation();
    if (action) this.act(action);
    else this.model.send({ type: "key", key: ev.key });
  }

  // ------------------------------------------------------------------ pointer
  pointer(ev) {
    const mode = this.mode;
    if (mode === "view" || mode === "drag" || this.run === null) return;
    const r = this.canvas.getBoundingClientRect();
    const px = (ev.clientX - r.left) * (this.width / r.width);
    const py = (ev.clientY - r.top) * (this.height / r.height);
    let panel = null;
    for (const p of this.panels.values()) {
      if (!p.figure && px >= p.x && px <= p.x + p.w && py >= p.y && py <= p.y + p.h) panel = p;
    }
    if (!panel) return;
    const x = (px - panel.bx) / panel.ax, y = (py - panel.by) / panel.ay;
    this.model.send({ type: "pointer", panel: panel.name, x, y, mode });
    // instant feedback: where a point goes, or the point that is meant
    let at = [px, py], hit = false;
    if (mode === "remove" || mode === "choose") {
      const near = this.nearestPoint(panel, px, py);
      if (near) { at = near; hit = true; }
    }
    this.marks.push({ mode, x: at[0], y: at[1], hit, panel: panel.name });
    const mark = this.marks[this.marks.length - 1];
    setTimeout(() => { const i = this.marks.indexOf(mark);
      if (i >= 0) { this.marks.splice(i, 1); this.requestDraw(); } }, MARK_MS);
    this.requestDraw();
  }

  // a panel with a 3-D view (`view3d`: azimuth, elevation) turns as it is dragged, redrawn at
  // frame rate in the page; the kernel hears the view where the drag ends ("view3d" message)
  panelAt(ev) {
    const r = this.canvas.getBoundingClientRect();
    const px = (ev.clientX - r.left) * (this.width / r.width);
    const py = (ev.clientY - r.top) * (this.height / r.height);
    for (const p of this.panels.values()) {
      if (!p.figure && px >= p.x && px <= p.x + p.w && py >= p.y && py <= p.y + p.h) return p;
    }
    return null;
  }

  turnStart(ev) {
    if (ev.button !== 0 || this.run === null) return;
    const p = this.panelAt(ev);
    if (!p || !p.view3d) return;
    ev.preventDefault();
    this.canvas.setPointerCapture(ev.pointerId);
    this.turning = { p, x: ev.clientX, y: ev.clientY, azim: p.view3d.azim, elev: p.view3d.elev };
    this.canvas.classList.add("pe-pf-turning");
  }

  turnMove(ev) {
    const t = this.turning;
    if (!t) return;
    t.p.view3d.azim = t.azim - (ev.clientX - t.x) * TURN_DEG;
    t.p.view3d.elev = Math.max(-90, Math.min(90, t.elev + (ev.clientY - t.y) * TURN_DEG));
    this.drawn = -1;
    this.requestDraw();
  }

  turnEnd(ev) {
    const t = this.turning;
    if (!t) return;
    this.turning = null;
    this.canvas.classList.remove("pe-pf-turning");
    const v = t.p.view3d;
    if (v.azim !== t.azim || v.elev !== t.elev) {
      this.model.send({ type: "view3d", panel: t.p.name, azim: v.azim, elev: v.elev });
    }
  }

  // where a pointer event is: CSS px in the figure, its panel and data coordinates there
  locate(ev, within) {
    const r = this.canvas.getBoundingClientRect();
    let px = (ev.clientX - r.left) * (this.width / r.width);
    let py = (ev.clientY - r.top) * (this.height / r.height);
    let panel = within || null;
    if (panel) {  // a drag stays in its panel
      px = Math.min(Math.max(px, panel.x), panel.x + panel.w);
      py = Math.min(Math.max(py, panel.y), panel.y + panel.h);
    } else {
      for (const p of this.panels.values()) {
        if (!p.figure && px >= p.x && px <= p.x + p.w && py >= p.y && py <= p.y + p.h) panel = p;
      }
    }
    if (!panel) return null;
    return { panel, px, py, x: (px - panel.bx) / panel.ax, y: (py - panel.by) / panel.ay };
  }

  // drag mode: press on a point of a `drag_tracks` track, move it (drawn here at frame rate),
  // the kernel hears "down", "move" (at most every DRAG_SEND_MS) and "up" in data coordinates
  dragStart(ev) {
    if (this.mode !== "drag" || this.run === null || ev.button !== 0) return;
    const at = this.locate(ev);
    if (!at) return;
    this.model.send({ type: "pointer", panel: at.panel.name, x: at.x, y: at.y, mode: "drag",
      phase: "down" });
    const hit = this.nearestVertex(at.panel, at.px, at.py, new Set(this.model.get("drag_tracks") || []));
    if (!hit) return;
    ev.preventDefault();
    try { this.canvas.setPointerCapture(ev.pointerId); } catch (e) { /* a synthetic event */ }
    this.drag = { track: hit.track, index: hit.index, panel: at.panel, px: at.px, py: at.py,
      sent: performance.now(), timer: 0, released: false };
    this.requestDraw();
  }

  dragMove(ev) {
    const d = this.drag;
    if (!d || d.released) return;
    const at = this.locate(ev, d.panel);
    d.px = at.px; d.py = at.py;
    const wait = DRAG_SEND_MS - (performance.now() - d.sent);
    if (wait <= 0) this.dragSend(d, "move");
    else if (!d.timer) d.timer = setTimeout(() => { d.timer = 0; if (!d.released) this.dragSend(d, "move"); }, wait);
    this.requestDraw();
  }

  dragEnd(ev) {
    const d = this.drag;
    if (!d || d.released) return;
    const at = this.locate(ev, d.panel);
    d.px = at.px; d.py = at.py;
    clearTimeout(d.timer);
    d.released = true;  // drawn where it was dropped until the kernel's answer comes
    this.dragSend(d, "up");
    this.requestDraw();
  }

  dragSend(d, phase) {
    const p = d.panel;
    d.sent = performance.now();
    this.model.send({ type: "pointer", panel: p.name, x: (d.px - p.bx) / p.ax,
      y: (d.py - p.by) / p.ay, mode: "drag", phase });
  }

  // the dragged point drawn where the pointer is (over the arrays' vertex)
  dragged(tr, f, nv) {
    const d = this.drag;
    if (d && d.track === tr.name && d.index < nv) { f.buf[2 * d.index] = d.px; f.buf[2 * d.index + 1] = d.py; }
  }

  nearestVertex(panel, px, py, names) {
    const c = this.chunkOf(this.drawn);
    if (!c) return null;
    let best = null, bestD = PICK_PX * PICK_PX;
    for (const tr of this.tracks) {
      if (tr.kind !== "points" || tr.panel !== panel || !names.has(tr.name)) continue;
      const f = this.frameFor(tr, c, this.drawn - c.start), b = f.buf;
      const nv = KINDS.points.geom(f, tr);
      for (let j = 0; j < nv; j++) {
        const dd = (b[2 * j] - px) ** 2 + (b[2 * j + 1] - py) ** 2;
        if (dd <= bestD) { bestD = dd; best = { track: tr.name, index: j }; }
      }
    }
    return best;
  }

  nearestPoint(panel, px, py) {
    const c = this.chunkOf(this.drawn);
    if (!c) return null;
    const i = this.drawn - c.start;
    let best = null, bestD = PICK_PX * PICK_PX;
    for (const tr of this.tracks) {
      if (tr.kind !== "points" || tr.panel !== panel) continue;
      const f = this.frameFor(tr, c, i), b = f.buf;
      const nv = KINDS.points.geom(f, tr);
      for (let j = 0; j < nv; j++) {
        const d = (b[2 * j] - px) ** 2 + (b[2 * j + 1] - py) ** 2;
        if (d <= bestD) { bestD = d; best = [b[2 * j], b[2 * j + 1]]; }
      }
    }
    return best;
  }

  // ------------------------------------------------------------------ drawing
  requestDraw() {
    if (!this.raf) this.raf = requestAnimationFrame(() => { this.raf = 0; this.draw(); });
  }

  // the frame the kinds draw from: track `tr`'s arrays in chunk `c`, at row `i`
  frameFor(tr, c, i) {
    const f = this.frame;
    const st = this.statics.get(tr.name);
    if (st) { f.a = st; f.i = 0; f.strings = st.strings || this.staticStrings; return f; }
    f.a = c.tracks.get(tr.name) || null;
    f.i = i;
    f.strings = c.strings;
    return f;
  }

  draw() {
    const t0 = performance.now();
    const k = this.shown;
    const c = k >= 0 ? this.chunkOf(k) : null;
    if (!this.ready || !c) return;
    const dpr = window.devicePixelRatio || 1;
    const W = Math.round(this.width * dpr), H = Math.round(this.height * dpr);
    const cv = this.canvas, ctx = this.ctx;
    if (cv.width !== W || cv.height !== H) {
      cv.width = W; cv.height = H;
      cv.style.width = `${this.width}px`;
      cv.style.height = `${this.height}px`;
      this.figure.style.width = `${this.width}px`;
      this.figure.style.height = `${this.height}px`;
    }
    const i = k - c.start;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, W, H);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (this.images.below) ctx.drawImage(this.images.below, 0, 0, this.width, this.height);
    for (const tr of this.draw_order) {
      if (tr === "above") {
        if (this.images.above) ctx.drawImage(this.images.above, 0, 0, this.width, this.height);
        continue;
      }
      const kind = KINDS[tr.kind];
      if (!kind) continue;
      const f = this.frameFor(tr, c, i);
      const nv = kind.geom(f, tr);
      this.dragged(tr, f, nv);
      if (nv && kind.visible(f, tr, nv)) this.drawTrack(kind, f, tr, nv);
    }
    this.drawMarks();
    this.drawn = k;
    this.root.peStep = k;
    this.writeTexts();
    this.root.peDrawnAt = performance.now();
    this.root.peDrawMs = this.root.peDrawnAt - t0;
  }

  drawTrack(kind, f, tr, nv) {
    const ctx = this.ctx, s = tr.style, p = tr.panel;
    ctx.save();
    if (p.clip) { ctx.beginPath(); ctx.rect(p.x, p.y, p.w, p.h); ctx.clip(); }
    ctx.lineWidth = s.width;
    ctx.setLineDash(s.dash);
    ctx.lineJoin = "round";
    ctx.lineCap = "butt";
    ctx.strokeStyle = s.color;
    ctx.fillStyle = s.color;
    ctx.globalAlpha = s.alpha;
    kind.draw(f, tr, nv);
    ctx.restore();
  }

  drawMarks() {
    if (!this.marks.length) return;
    const ctx = this.ctx, colors = this.model.get("pointer_colors") || {};
    for (const mk of this.marks) {
      ctx.save();
      ctx.globalAlpha = 1;
      ctx.lineWidth = 2;
      ctx.setLineDash(mk.hit ? SOLID : DOTTED);
      ctx.strokeStyle = colors[mk.mode] || "#000000";
      ctx.beginPath();
      const r = 9;
      if (mk.mode === "add-") ctx.rect(mk.x - r * 0.8, mk.y - r * 0.8, r * 1.6, r * 1.6);
      else ctx.arc(mk.x, mk.y, mk.mode === "add+" ? r : r + 4, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.setLineDash(SOLID);
      ctx.beginPath();
      if (mk.mode === "add+" || mk.mode === "add-") {
        ctx.moveTo(mk.x - 4, mk.y); ctx.lineTo(mk.x + 4, mk.y);
        if (mk.mode === "add+") { ctx.moveTo(mk.x, mk.y - 4); ctx.lineTo(mk.x, mk.y + 4); }
      } else if (mk.mode === "remove") {
        ctx.moveTo(mk.x - 5, mk.y - 5); ctx.lineTo(mk.x + 5, mk.y + 5);
        ctx.moveTo(mk.x - 5, mk.y + 5); ctx.lineTo(mk.x + 5, mk.y - 5);
      }
      ctx.stroke();
      ctx.restore();
    }
  }

  displayList() {
    const k = this.drawn;
    const c = k >= 0 ? this.chunkOf(k) : null;
    if (!c) return [];
    const i = k - c.start, out = [];
    for (const tr of this.draw_order) {
      const kind = KINDS[tr.kind];
      if (tr === "above" || !kind) continue;
      const f = this.frameFor(tr, c, i);
      const nv = kind.geom(f, tr);
      this.dragged(tr, f, nv);
      const px = [];
      for (let j = 0; j < nv; j++) px.push([f.buf[2 * j], f.buf[2 * j + 1]]);
      const item = { track: tr.name, kind: tr.kind, layer: tr.layer,
        visible: nv > 0 && kind.visible(f, tr, nv), px };
      if (kind.text) item.text = kind.text(f, tr);
      out.push(item);
    }
    for (const mk of this.marks) {
      out.push({ track: "(pointer)", kind: `pointer ${mk.mode}`, layer: "over", visible: true,
        px: [[mk.x, mk.y]], panel: mk.panel, hit: mk.hit });
    }
    return out;
  }
}

function render({ model, el }) {
  const figure = new PageFigure(model, el);
  return () => figure.destroy();
}

export default { render };
