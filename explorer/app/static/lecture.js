// A lecture's screens (issue 32): the presenter's page publishes what its page figures get and
// show, the hall server keeps the latest and sends it on (explorer/serving/lecture.py), and each
// follower's page draws the same figure from it with the same modules and no kernel.
//
// A frame is [4-byte big-endian header length][header JSON][buffers], the header's "sizes"
// giving the buffers' lengths. Headers: {t: "state", fig, set: {trait: value}}, {t: "msg", fig,
// msg} (a message the kernel sent the figure, with its buffers), {t: "view", fig, step} (the step
// drawn), {t: "focus", fig, blackout, title} (the figure on the presenter's screen).
// A follower sends only its answer to the question open, as text: {t: "answer", fig, id,
// choice} (explorer/serving/answers.py); the presenter hears the room's counts as text,
// {tally: {choice: count}, fig, id}, and passes them to its kernel.

import { answerKey, followerQuestion } from "./question.js";
import { pageWord } from "./words.js";

// the model traits the page figure reads (runs.js, pagefigure.js, drawing.js, input.js)
export const STATE_KEYS = ["scene", "below", "above", "controls", "step", "playing", "transport",
  "key_actions", "forward_keys", "name", "lecture", "show_transport", "pointer_mode",
  "pointer_colors", "drag_tracks", "ratio", "question", "words"];
// of those, the bytes (PNG still layers): sent as buffers, named in the header's "bin"
export const BINARY_KEYS = new Set(["below", "above"]);
export const FLAG_COOKIE = "pe_lecture";
const KEEP_SENT_CHUNKS = 48;            // chunk messages kept to send again after a reconnection
const FOCUS_MS = 250;              // how often the presenter's page looks at what is on screen
export const REDIAL_MS = 2000;    // a lost connection is tried again after this
// the server's close code for a page that sent more messages than its limit
// (explorer/serving/lecture_web.py, TOO_FAST): not dialled again
export const TOO_FAST = 4008;

export function encodeFrame(header, buffers = []) {
  const bytes = buffers.map((b) => (b instanceof Uint8Array ? b
    : ArrayBuffer.isView(b) ? new Uint8Array(b.buffer, b.byteOffset, b.byteLength) : new Uint8Array(b)));
  const head = bytes.length ? { ...header, sizes: bytes.map((b) => b.byteLength) } : header;
  const text = new TextEncoder().encode(JSON.stringify(head));
  const out = new Uint8Array(4 + text.byteLength + bytes.reduce((a, b) => a + b.byteLength, 0));
  new DataView(out.buffer).setUint32(0, text.byteLength);
  out.set(text, 4);
  let at = 4 + text.byteLength;
  for (const b of bytes) { out.set(b, at); at += b.byteLength; }
  return out.buffer;
}

// {header, buffers: [DataView]} of a frame's bytes (an ArrayBuffer)
export function decodeFrame(data) {
  const view = new DataView(data);
  const n = view.getUint32(0);
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(data, 4, n)));
  const buffers = [];
  let at = 4 + n;
  for (const size of header.sizes || []) { buffers.push(new DataView(data, at, size)); at += size; }
  return { header, buffers };
}

// the page's part in a lecture: "present" (the hall's presenter address set the flag cookie; its
// key is HttpOnly), "explore" (a follower left to explore: a way back), or ""
export function lectureRole(doc) {
  if (!doc || typeof doc.cookie !== "string") return "";
  for (const c of doc.cookie.split(";")) {
    const [name, value] = c.trim().split("=");
    if (name === FLAG_COOKIE && (value === "present" || value === "explore")) return value;
  }
  return "";
}

export function presenting(doc) { return lectureRole(doc) === "present"; }

// Whether static message `next` leaves nothing of `old` standing (applied in order): a whole
// static part ends all before it; a merge ends an earlier merge of no other tracks whose
// narration and tail, if any, it sets again. The server keeps its copy by the same rule
// (explorer/serving/lecture.py, covers): a drag's hundreds of merges keep one.
export function covers(next, old) {
  if (!next.merge) return true;
  const has = (m, k) => typeof m[k] === "string";
  return !!old.merge && old.run === next.run
    && Object.keys(old.arrays || {}).every((t) => t in (next.arrays || {}))
    && ["narration", "tail"].every((k) => !has(old, k) || has(next, k));
}

// ------------------------------------------------------------------ presenter
export class Publisher {
  // `connect()`: a new WebSocket-like object (send, close, onopen, onclose, binaryType)
  constructor(connect, { doc = null, setInterval: every = globalThis.setInterval,
    setTimeout: later = globalThis.setTimeout } = {}) {
    this.connect = connect;
    this.doc = doc;
    this.later = later;
    this.figs = new Map();   // figure -> {id, state: {}, statics: [{msg, data}], chunks: Map, view}
    this.serial = 0;
    this.focus = null;
    this.socket = null;
    this.open = false;
    this.stopped = false;
    this.dial();
    this.timer = every(() => this.look(), FOCUS_MS);
  }

  dial() {
    if (this.stopped) return;
    const s = this.connect();
    s.binaryType = "arraybuffer";
    s.onopen = () => { this.open = true; this.resend(); };
    s.onmessage = (ev) => { if (typeof ev.data === "string") this.heard(ev.data); };
    s.onclose = (ev) => {
      this.open = false;
      if (ev && (ev.code === 4003 || ev.code === 4001)) { this.stopped = true; return; }
      if (ev && ev.code === TOO_FAST) { this.stopped = true; this.refused(ev.reason); return; }
      this.later(() => this.dial(), REDIAL_MS);
    };
    this.socket = s;
  }

  // the server closed the room to this page (it sent frames too fast): the badge says so in
  // a few words (it sits in the row of tabs), the reason in its tooltip
  refused(reason) {
    if (!this.doc) return;
    const badge = this.badge();
    badge.classList.add("pe-presenting-off");
    const why = pageWord("not_presenting", "Not presenting: {reason}. Reload the page to present again.",
      { reason: reason || pageWord("refused", "refused by the server") });
    badge.setAttribute("title", why);
    badge.setAttribute("aria-label", why);
    badge.replaceChildren("● ", this.word(pageWord("not_presenting_short", "Not presenting · ")),
      pageWord("reload", "reload"));
  }

  // the server's word: how many follow (shown in the page's "Presenting" badge), or the room's
  // answers to a figure's question (passed to its kernel, which shows them on the card)
  heard(text) {
    let said;
    try { said = JSON.parse(text); } catch { return; }
    if (!said || typeof said !== "object") return;
    if ("tally" in said) { this.tallied(said); return; }
    this.followers = said.followers | 0;
    if (!this.doc) return;
    const badge = this.badge();
    // "● Presenting · 3 following"; where the row is short (lecture mode on a 1024 px
    // projector) the words go and "● 3" stays (pagefigure.css)
    badge.replaceChildren("● ", this.word(pageWord("presenting", "Presenting · ")), String(this.followers),
      this.word(pageWord("following", " following")));
  }

  tallied({ tally, fig, id, points }) {
    const places = Array.isArray(points) ? { points } : {};  // a question answered by a place
    for (const [figure, f] of this.figs) {
      if (f.id === fig) figure.model.send({ type: "tally", id, tally, ...places });
    }
  }

  // a word of the badge that goes where the row is short (pagefigure.css, .pe-pw)
  word(text) {
    const w = this.doc.createElement("span");
    w.className = "pe-pw";
    w.textContent = text;
    return w;
  }

  // the "Presenting" badge in the row of tabs (made once)
  badge() {
    let badge = this.doc.querySelector(".pe-presenting");
    if (!badge) {
      badge = this.doc.createElement("button");
      badge.className = "pe-presenting";
      badge.setAttribute("type", "button");
      badge.setAttribute("aria-live", "polite");
      badge.setAttribute("title", pageWord("presenting_tip", "This page presents: students following "
        + "the lecture see its figure. Click (or press A) to show them the address to follow, with a QR code."));
      badge.addEventListener("click", () => showAddress(this.doc));
    }
    inTopBar(this.doc, badge);
    return badge;
  }

  put(header, buffers = []) {
    const data = encodeFrame(header, buffers);
    if (this.open) this.socket.send(data);
    return data;
  }

  attach(figure) {
    const id = ++this.serial;
    this.figs.set(figure, { id, state: {}, statics: [], chunks: new Map(), view: null });
    if (figure.root) figure.root.dataset.lectureFig = String(id);  // for tests: its name here
    this.state(figure);
  }

  detach(figure) { this.figs.delete(figure); }

  // the traits that changed since they were last published
  state(figure) {
    const f = this.figs.get(figure);
    if (!f) return;
    const changed = {};
    for (const key of STATE_KEYS) {
      const v = figure.model.get(key);
      if (v !== undefined && f.state[key] !== v) { f.state[key] = v; changed[key] = v; }
    }
    if (Object.keys(changed).length) this.put(...stateFrame(f.id, changed));
  }

  msg(figure, msg, buffers) {
    const f = this.figs.get(figure);
    if (!f || !msg || (msg.type !== "chunk" && msg.type !== "static")) return;
    const data = this.put({ t: "msg", fig: f.id, msg }, buffers || []);
    if (msg.type === "static") f.statics = [...f.statics.filter((o) => !covers(msg, o.msg)), { msg, data }];
    else {
      f.chunks.set(`${msg.run}/${msg.index}`, data);
      if (f.chunks.size > KEEP_SENT_CHUNKS) f.chunks.delete(f.chunks.keys().next().value);
    }
  }

  view(figure, step) {
    const f = this.figs.get(figure);
    if (!f || f.view === step) return;
    f.view = step;
    this.put({ t: "view", fig: f.id, step });
  }

  // what is on screen: the first figure shown, blacked out or not, and its tab's name
  look() {
    if (!this.doc) return;
    let fig = null;
    for (const [figure, f] of this.figs) {
      const r = figure.root;
      if (r.isConnected && r.offsetParent !== null && r.getBoundingClientRect().width > 0) { fig = f.id; break; }
    }
    const blackout = !!this.doc.querySelector(".pe-blackout");
    const tab = this.doc.querySelector(".lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel");
    const title = tab ? tab.textContent.trim() : "";
    // the dashboard's link to this state (its "Link" box): a follower explores from it
    const share = this.doc.querySelector(".pe-share input");
    const link = share && share.value.includes("?") ? share.value.slice(share.value.indexOf("?")) : "";
    const focus = { t: "focus", fig, blackout, title, link };
    const key = JSON.stringify(focus);
    if (key !== this.focusKey) { this.focusKey = key; this.focus = focus; this.put(focus); }
    const badge = this.doc.querySelector(".pe-presenting");
    if (badge) inTopBar(this.doc, badge, 0);  // the bar may have been drawn again
  }

  // a new connection hears everything again
  resend() {
    for (const f of this.figs.values()) {
      this.socket.send(encodeFrame(...stateFrame(f.id, f.state)));
      for (const data of [...f.statics.map((o) => o.data), ...f.chunks.values()]) this.socket.send(data);
      if (f.view !== null) this.socket.send(encodeFrame({ t: "view", fig: f.id, step: f.view }));
    }
    if (this.focus) this.socket.send(encodeFrame(this.focus));
  }
}

// [header, buffers] of a "state" frame: JSON traits in "set", bytes as buffers named in "bin"
export function stateFrame(fig, traits) {
  const set = {}, bin = [], buffers = [];
  for (const [key, v] of Object.entries(traits)) {
    if (BINARY_KEYS.has(key)) { bin.push(key); buffers.push(v && v.byteLength ? v : new Uint8Array(0)); }
    else set[key] = v;
  }
  return [bin.length ? { t: "state", fig, set, bin } : { t: "state", fig, set }, buffers];
}

// the students' address, large, with its QR code (the hall's lecture/qr.svg), over the page
// until a click or A again; on a loopback address, a word that the room cannot reach it
export function showAddress(doc, show) {
  let box = doc.querySelector(".pe-address");
  if (!box) {
    const url = new URL("follow", doc.baseURI).href;
    box = doc.createElement("div");
    box.className = "pe-address";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", pageWord("address", "The students' address"));
    const head = doc.createElement("p");
    head.textContent = pageWord("address_head", "Follow the lecture on your laptop or phone:");
    const link = doc.createElement("p");
    link.className = "pe-address-url";
    link.textContent = url;
    const img = doc.createElement("img");
    img.setAttribute("src", new URL("lecture/qr.svg", doc.baseURI).href);
    img.setAttribute("alt", pageWord("qr_alt", "QR code of {url}", { url }));
    const note = doc.createElement("p");
    note.className = "pe-address-note";
    const host = new URL(url).hostname;
    note.textContent = (host === "localhost" || host.startsWith("127.") || host === "[::1]")
      ? pageWord("address_local", "This address works on this computer only: serve the hall with "
        + "--ip, or through a proxy (docs/serving.md), and open the presenter's address by that name.")
      : pageWord("address_close", "Press A or click to close.");
    box.append(head, link, img, note);
    box.addEventListener("click", () => showAddress(doc, false));
    doc.body.appendChild(box);
    box.hidden = true;
  }
  box.hidden = show === undefined ? !box.hidden : !show;
  return box;
}

function typing(ev) {
  const t = ev.target;
  return !!t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
}

// One publisher for the page: anywidget may evaluate this module once per widget, so the
// publisher lives on the window, never in a module's own variable (two would each take the
// presenter's place from the other, and name their figures alike).
const SHARED = "__peLecturePublisher";

// `el` in the dashboard's row of tabs, after the tabs, where the row has room at every size
// (at the page's bottom left until the row is there)
export function inTopBar(doc, el, tries = 40) {
  const bar = doc.querySelector(".pe-root .lm-TabBar");
  const parent = bar || doc.body;
  if (el.parentNode !== parent) parent.appendChild(el);
  el.classList.toggle("pe-lecture-floating", !bar);
  if (!bar && tries > 0) setTimeout(() => inTopBar(doc, el, tries - 1), 500);
}

// a follower who left to explore gets a way back to the lecture
export function offerReturn(doc) {
  if (doc.querySelector(".pe-follow-again")) return;
  const a = doc.createElement("a");
  a.className = "pe-follow-again";
  a.setAttribute("href", new URL("follow", doc.baseURI).href);
  a.textContent = `◀ ${pageWord("follow_again", "Follow the lecture")}`;
  inTopBar(doc, a);
}

// the page's one publisher when it presents (else null)
export function lecturePublisher() {
  if (typeof document === "undefined") return null;
  if (lectureRole(document) === "explore") offerReturn(document);
  if (globalThis[SHARED] || !presenting(document)) return globalThis[SHARED] || null;
  const url = new URL("lecture/publish", document.baseURI);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const shared = new Publisher(() => new WebSocket(url), { doc: document });
  globalThis[SHARED] = shared;
  window.addEventListener("keydown", (ev) => {
    if ((ev.key === "a" || ev.key === "A") && !ev.ctrlKey && !ev.metaKey && !ev.altKey && !typing(ev)) {
      showAddress(document);
      ev.preventDefault();
    }
  });
  return shared;
}

// ------------------------------------------------------------------ follower
// what a follower tells the server of its answer: a choice's key, or a place [x, y]
export function toldAnswer(id, answer) {
  return Array.isArray(answer) ? { t: "answer", id, point: answer } : { t: "answer", id, choice: answer };
}

// An anywidget model for a follower's page figure: traits from "state" frames, the step from
// "view" frames, messages from "msg" frames. A follower never drives: the one thing that goes
// back is its answer to the question open, through `tell` ({t: "answer", id, choice}; the
// follower's page adds the figure and sends it). `answers`: the follower's own answers,
// kept by its page (answerKey) across this figure's models and reconnections.
export class FollowerModel {
  constructor({ fig = null, answers = new Map(), tell = () => {} } = {}) {
    this.attrs = {};
    this.step = null;
    this.handlers = { change: new Set(), "msg:custom": new Set() };
    this.fig = fig;
    this.answers = answers;
    this.tell = tell;
    this.told = new Set();  // the questions whose answer the server has from this model
  }

  get(key) {
    if (key === "playing") return false;  // the presenter's steps arrive one by one
    if (key === "step") return this.step !== null ? this.step : (this.attrs.step | 0);
    if (key === "key_actions") return {};
    if (key === "forward_keys" || key === "drag_tracks") return [];
    if (key === "pointer_mode") return "view";
    if (key === "enlarge") return false;  // the presenter shows a panel large, not a follower
    if (key === "question") return this.question();
    return this.attrs[key];
  }

  // the presenter's question as this follower's card shows it (its own answer)
  question() {
    const q = this.attrs.question;
    if (!q || !Number.isInteger(q.id)) return q;
    return followerQuestion(q, this.answers.get(answerKey(this.fig, q)));
  }

  set(key, value) { if (key === "ratio") this.attrs.ratio = value; }
  save_changes() {}

  // the card's click: an answer to the open question is kept and told (nothing else is sent)
  send(msg) {
    const q = this.attrs.question;
    if (!msg || msg.type !== "answer" || !q || msg.id !== q.id || q.phase !== "open") return;
    const key = answerKey(this.fig, q);
    this.answers.set(key, "point" in msg ? msg.point : msg.choice);
    this.told.add(key);
    this.tell(toldAnswer(q.id, this.answers.get(key)));
    this.emit("change");
  }

  // an answer given before a reconnection (or before another figure was on screen) is told
  // again: the server forgets a follower that leaves
  retell() {
    const q = this.attrs.question;
    if (!q || !Number.isInteger(q.id) || q.phase !== "open") return;
    const key = answerKey(this.fig, q);
    if (!this.answers.has(key) || this.told.has(key)) return;
    this.told.add(key);
    this.tell(toldAnswer(q.id, this.answers.get(key)));
  }

  on(name, fn) { if (this.handlers[name]) this.handlers[name].add(fn); }
  off(name, fn) { if (this.handlers[name]) this.handlers[name].delete(fn); }
  emit(name, ...args) { for (const fn of [...this.handlers[name]]) fn(...args); }

  // a frame of this figure: true if the model changed
  take(header, buffers) {
    if (header.t === "state") {
      const set = { ...header.set };
      (header.bin || []).forEach((key, i) => { set[key] = buffers[i]; });
      delete set.ratio;  // the follower's own screen
      Object.assign(this.attrs, set);
      if ("step" in set) this.step = null;  // the kernel moved it (a new run, a link)
      if ("question" in set) this.retell();
      this.emit("change");
    } else if (header.t === "view") {
      this.step = header.step;
      this.emit("change");
    } else if (header.t === "msg") {
      this.emit("msg:custom", header.msg, buffers);
    }
  }
}
