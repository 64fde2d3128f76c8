// The dashboard's page-drawn figure (explorer/app/pagefigure.py; issue 20).
//
// The kernel sends a run once: a scene (panels with their data -> CSS px mapping, track
// headers), two still PNG layers, and per-step arrays in chunks of steps (binary buffers). The
// page draws the step shown from those arrays and runs the transport itself (Step, Back, the
// slider, Play, the jumps, the keys): no kernel round trip before the pixels change. It tells
// the kernel the settled step (the `step` trait), asks for chunks ahead of need, and never
// shows a step whose chunk it does not have (it waits at the last step it has and says so).
// An ES module importing its siblings (nothing loads from the network): explorer/app/esm_join.py
// joins them into the one module anywidget loads, no build step; Node's tests import them as
// they are (tests/js/). PageFigure extends PageFigureRuns (runs.js: a run, its chunks and static
// tracks as they arrive), which extends PageFigureInput (input.js: keys and pointer), which
// extends PageFigureDrawing (drawing.js: a frame on the canvas, KINDS of kinds.js); the
// transport's pure rules are transport.js's.

import { watchFocus } from "./keys.js";
import { lecturePublisher } from "./lecture.js";
import { QuestionCard } from "./question.js";
import { PageFigureRuns } from "./runs.js";
import {
  MAX_SPEED, PUSHED_WAIT_MS, RETRY_MS, SETTLE_MS, chunksFor, clampStep, controlStates, target,
  waitingWords,
} from "./transport.js";
import { pageWord, setPageWords } from "./words.js";

let serial = 0;

function el(tag, cls, attrs) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (attrs) for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

export class PageFigure extends PageFigureRuns {
  constructor(model, root) {
    super();
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
    this.wordsSent = null;  // the kernel's words (words.js) and transport labels, as applied
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
    this.enlarged = "";  // the panel shown large ("" none) and those that may be (enlarge.js)
    this.enlargeable = [];
    this.hover = null;  // the panel under the pointer (z shows it large)
    this.build();
    this.askKeys = new Set();
    this.card = new QuestionCard(this.root, (msg) => this.model.send(msg));
    this.publisher = lecturePublisher();  // the hall's presenter page publishes (lecture.js)
    this.bind();
    if (this.publisher) this.publisher.attach(this);
    this.sync(true);
  }

  // ------------------------------------------------------------------ DOM
  build() {
    const root = this.root;
    root.classList.add("pe-pagefigure");
    this.words();
    const bar = el("div", "pe-pf-bar", { role: "toolbar" });
    this.bar = bar;
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
        this.speedLabel = speed;
        this.speedInput = el("input", "pe-pf-speed-input", { type: "range", min: "1", max: String(MAX_SPEED),
          step: "1", value: String(this.speed) });
        this.speedOut = el("span", "pe-pf-readout");
        this.speedOut.textContent = String(this.speed);
        this.speedUnit = el("span", "pe-pf-unit");
        speed.append(this.speedUnit, this.speedInput, this.speedOut);
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
      step: "1", value: "0" });
    this.slider.addEventListener("input", () => {
      if (this.card.waiting()) { this.slider.value = String(this.want); return; }  // see act
      this.go(Number(this.slider.value));
    });
    this.stepWord = el("span", "pe-pf-unit");
    lab.append(this.stepWord, this.slider);
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
    this.label();
    // for tests: the display list of the last frame and the step drawn
    Object.defineProperty(root, "peDisplayList", { configurable: true,
      get: () => this.displayList() });
    // and the panels of the scene drawn: name, box in CSS px from the canvas's top left, and
    // the legend under it as the kernel drew it ([x, y, w, h, type px], or absent), its
    // title's box and words, and a 3-D view's angles and box as turned now (or absent)
    Object.defineProperty(root, "pePanels", { configurable: true,
      get: () => [...this.panels.values()].filter((p) => !p.figure).map((p) => ({
        name: p.name, x: p.x, y: p.y, w: p.w, h: p.h, legend: p.legend || null,
        title: p.title || null, heading: p.heading || null,
        view3d: p.view3d ? { ...p.view3d } : null,
        map: [p.ax, p.bx, p.ay, p.by] })) });  // data -> figure px: x * ax + bx
    Object.defineProperty(root, "peFigureWidth", { configurable: true, get: () => this.width });
    root.peStep = -1;
    root.peDrawMs = 0;
  }

  // the kernel's dictionary of words, if new: looked up from now on; true if it or the
  // transport's labels changed (the kernel sends both at a change of language, in one
  // message or two)
  words() {
    const w = this.model.get("words") || {};
    const sent = JSON.stringify([w, this.model.get("controls")]);
    if (sent === this.wordsSent) return false;
    this.wordsSent = sent;
    setPageWords(w);
    return true;
  }

  // the words the page writes itself, in the page's language (again after a change of it):
  // the transport's labels and tooltips (the kernel's `controls`), the speed, the slider
  // and the 3-D view's button; the status line is written again at the next refresh
  label() {
    this.bar.setAttribute("aria-label", pageWord("run_controls", "Run controls"));
    for (const [action, label, tip] of this.model.get("controls")) {
      const b = this.buttons[action];
      if (!b) continue;
      if (b.title !== tip) b.title = tip;
      if (action === "play") this.playLabel = label;
      else if (b.textContent !== label) b.textContent = label;
    }
    if (this.buttons.play) this.buttons.play.textContent = this.playLabel;
    if (this.speedLabel) {
      const speed = pageWord("speed", "Play speed, steps per second");
      this.speedLabel.title = speed;
      this.speedInput.setAttribute("aria-label", speed);
      this.speedUnit.textContent = pageWord("steps_per_s", "steps/s");
    }
    const step = pageWord("step", "step");
    this.slider.setAttribute("aria-label", step);
    this.stepWord.textContent = step;
    if (this.viewButton) {
      this.viewButton.textContent = pageWord("reset_view", "reset view");
      this.viewButton.title = pageWord("reset_view_tip",
        "Turn the 3-D view back (key v); drag or Shift + arrows turn it");
    }
    this.texts.status = null;
  }

  bind() {
    const m = this.model;
    this.onChange = () => { if (!this.syncQueued) { this.syncQueued = true;
      queueMicrotask(() => { this.syncQueued = false; this.sync(false);
        if (this.publisher) this.publisher.state(this); }); } };
    this.onCustom = (msg, buffers) => {
      this.custom(msg, buffers || []);
      if (this.publisher) this.publisher.msg(this, msg, buffers || []);
    };
    m.on("change", this.onChange);
    m.on("msg:custom", this.onCustom);
    this.keyFocus = watchFocus(window);
    this.onKey = (ev) => this.key(ev);
    window.addEventListener("keydown", this.onKey, true);  // before the page bridge's keys
    this.onClick = (ev) => this.pointer(ev);
    this.canvas.addEventListener("click", (ev) => this.titleClick(ev));
    this.canvas.addEventListener("click", this.onClick);
    this.canvas.addEventListener("pointermove", (ev) => this.hoverAt(ev));
    this.canvas.addEventListener("pointerleave", () => { this.hover = null; });
    this.canvas.addEventListener("pointerdown", (ev) => this.turnStart(ev));
    this.canvas.addEventListener("pointermove", (ev) => this.turnMove(ev));
    this.canvas.addEventListener("pointerup", (ev) => this.turnEnd(ev));
    this.canvas.addEventListener("pointercancel", (ev) => this.turnEnd(ev));
    this.canvas.addEventListener("pointerdown", (ev) => this.dragStart(ev));
    this.canvas.addEventListener("pointermove", (ev) => this.dragMove(ev));
    this.canvas.addEventListener("pointerup", (ev) => this.dragEnd(ev));
    this.canvas.addEventListener("pointercancel", (ev) => this.dragEnd(ev));
    this.watchRatio();
    // a font that loads after a draw (the shipped Chinese font, explorer/shared/cjk_font.py):
    // the canvas's texts drawn again with it, where they had fallen back to boxes
    this.onFonts = () => { this.drawn = -1; this.requestDraw(); };
    if (document.fonts) document.fonts.addEventListener("loadingdone", this.onFonts);
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
    if (this.publisher) this.publisher.detach(this);
    m.off("change", this.onChange);
    m.off("msg:custom", this.onCustom);
    window.removeEventListener("keydown", this.onKey, true);
    if (this.dprQuery) this.dprQuery.removeEventListener("change", this.onDpr);
    if (document.fonts) document.fonts.removeEventListener("loadingdone", this.onFonts);
    cancelAnimationFrame(this.raf);
    cancelAnimationFrame(this.playRaf);
    clearTimeout(this.settleTimer);
    this.playing = false;
  }

  // ------------------------------------------------------------------ steps
  clamp(k) { return clampStep(k, this.n); }
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
    for (const i of chunksFor(k, this.C, this.n)) this.ensure(i);
  }

  go(k) {
    this.want = this.clamp(k);
    this.show();
  }

  // show the step asked for if its data is here; else ask for it and wait where we are
  show() {
    if (this.run === null) return;
    if (this.has(this.want)) {
      if (this.shown !== this.want) {
        this.shown = this.want;
        this.requestDraw();
        // a presenter's followers hear the step now, not after this page's next animation
        // frame: each draws it at its own next frame (a frame less of latency in the room)
        if (this.publisher) this.publisher.view(this, this.want);
      }
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
    return target(action, { k: this.want, n: this.n, updates: this.updates,
      epoch: this.transport.epoch | 0, cycleStart: this.transport.cycle_start });
  }

  act(action) {
    if (this.card.waiting()) return;  // a question waits for its reveal: the step stays
    if (action === "play") { this.playing ? this.stop(true) : this.play(); return; }
    if (action === "reset" && this.playing) this.stop(false);
    this.go(this.target(action));
  }

  // ------------------------------------------------------------------ questions
  sync(initial) {
    if (!initial && this.words()) {
      this.label();
      this.card.drawnKey = "";  // the question's card drawn again (showQuestion, below)
    }
    super.sync(initial);
    this.askKeys = new Set(this.model.get("ask_keys") || []);
    this.showQuestion();
  }

  custom(msg, buffers) {
    if (msg && msg.type === "ask") return this.askHere();  // the Ask button, while playing
    return super.custom(msg, buffers);
  }

  // the question over the figure, its veils on the panels as drawn on screen
  showQuestion() {
    const c = this.canvas, f = this.figure;
    const scale = this.width && c.clientWidth ? c.clientWidth / this.width : 1;
    const left = (f.offsetLeft || 0) + (c.offsetLeft || 0), top = f.offsetTop || 0;
    this.card.show(this.model.get("question"), this.panels, scale,
      [left, top + (c.offsetTop || 0)], top, Math.round((this.height || 0) * scale));
    const v = this.card.view;
    this.root.dataset.question = v ? (v.revealed ? "revealed" : "open") : "";
  }

  // ask (key q, or the Ask button while playing): Play stops, the kernel hears the step shown;
  // q again on an unanswered question asks the tab's next one
  askHere() {
    if (this.playing) this.stop(true);
    const k = this.shown >= 0 ? this.shown : this.want;
    this.model.send({ type: "ask", step: Math.max(0, k | 0), again: this.card.unanswered() });
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
    const k = this.want, empty = this.run === null || this.n === 0;
    const b = this.buttons;
    const state = controlStates({ k, n: this.n, empty, playing: this.playing, updates: this.updates,
      epoch: this.transport.epoch | 0, cycleStart: this.transport.cycle_start });
    for (const [action, off] of Object.entries(state.disabled)) {
      if (b[action] && b[action].disabled !== off) b[action].disabled = off;
    }
    for (const [action, hidden] of Object.entries(state.hidden)) if (b[action]) b[action].hidden = hidden;
    if (b.play) {
      const label = this.playing ? `❚❚ ${pageWord("pause", "Pause")}` : this.playLabel;
      if (b.play.textContent !== label) b.play.textContent = label;
      b.play.setAttribute("aria-label", this.playing ? pageWord("pause", "Pause") : pageWord("play", "Play"));
    }
    this.slider.disabled = state.slider.disabled;
    if (this.slider.max !== String(state.slider.max)) this.slider.max = String(state.slider.max);
    if (this.slider.value !== String(k)) this.slider.value = String(k);
    this.writeTexts();
  }

  // the narration and status of the step on the canvas (written in the same frame as its pixels)
  writeTexts() {
    const k = this.drawn;
    // (a step asked for and not drawn yet was published already: show())
    if (this.publisher && k >= 0 && k === this.shown) this.publisher.view(this, k);
    const c = k >= 0 ? this.chunkOf(k) : null;
    let status = "", narration = "";
    if (c) {
      const i = k - c.start;
      status = c.status[i] || pageWord("step_of", "step {k} of {n}", { k, n: this.n });
      narration = (this.staticNarration !== null ? this.staticNarration : c.narration[i] || "")
        + this.staticTail;
    } else if (this.run !== null) {
      status = pageWord("step_of", "step {k} of {n}", { k: this.want, n: this.n });
    }
    if (this.transport.status_suffix) status += this.transport.status_suffix;
    const waiting = this.waiting();
    this.root.dataset.waiting = waiting ? "true" : "false";
    if (waiting) {
      status += waitingWords(this.shown !== this.want ? this.want : this.want + 1, this.C, this.n);
    }
    if (status !== this.texts.status) { this.texts.status = status; this.where.textContent = status; }
    // nothing of a new scene drawn yet (its layers decoding): the canvas still shows the last
    // step drawn, and its words stay with it
    if (k < 0 && this.texts.narration) return;
    if (narration !== this.texts.narration) {
      this.texts.narration = narration;
      this.narration.textContent = narration;
      // new words may move the figure (a longer narration wraps): a question's card, veils
      // and dots follow it (drawn again only if something moved)
      if (this.card && this.card.view && this.showQuestion) this.showQuestion();
    }
  }
}
