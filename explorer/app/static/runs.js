// The page figure's runs as the kernel sends them (explorer/app/static/pagefigure.js): a new
// run's scene and still layers, its chunks of per-step arrays and its static tracks, kept
// until they are drawn (a chunk or static part may come before its scene). PageFigure
// (pagefigure.js) extends it; it extends the figure's input (input.js).

import { KINDS, resolveStyle } from "./kinds.js";
import { num } from "./kinds_plane.js";
import { PUSHED_WAIT_MS } from "./transport.js";
import { PageFigureInput } from "./input.js";

const KEEP_CHUNKS = 24;       // chunks kept in the page (the farthest from the step go first)

const TYPED = { float32: Float32Array, float64: Float64Array, int32: Int32Array, uint8: Uint8Array };

export function typed(dtype, buf) {
  const T = TYPED[dtype] || Float32Array;
  if (buf instanceof ArrayBuffer) return new T(buf);
  // a DataView (ipywidgets); copy when its offset does not suit the element size
  if (buf.byteOffset % T.BYTES_PER_ELEMENT) {
    return new T(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  }
  return new T(buf.buffer, buf.byteOffset, buf.byteLength / T.BYTES_PER_ELEMENT);
}

export class PageFigureRuns extends PageFigureInput {
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
    // the same run drawn again (a new size, the bound computed) while playing: Play goes on
    // from the step it shows, and the kernel, still playing, hears nothing; a new run stops it
    const resume = this.playing && !!scene.keep && before >= 0;
    if (resume) { this.playing = false; cancelAnimationFrame(this.playRaf); } else this.stop(false);
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
    this.placeViewButton();
    this.enlarged = typeof scene.enlarged === "string" ? scene.enlarged : "";
    this.enlargeable = Array.isArray(scene.enlargeable) ? scene.enlargeable.map(String) : [];
    this.root.dataset.enlarged = this.enlarged;  // for tests: the panel shown large
    // and a class, which lecture mode's CSS reads (the rows above the figure give it room)
    // and whose change has the page bridge measure the figure's place again
    this.root.classList.toggle("pe-pf-enlarged", !!this.enlarged);
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
    this.modelStep = this.model.get("step");
    this.want = this.clamp(this.modelStep);
    // the same run drawn again (a new size, the bound computed): the page's step stays, and
    // the kernel hears it when it settles (its own step may be one the page has left)
    if (scene.keep && before >= 0) this.want = this.clamp(before);
    this.decodeImages();
    this.show();
    if (resume) this.play();
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
}
