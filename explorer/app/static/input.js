// The page figure's input (explorer/app/static/pagefigure.js): the transport's keys, clicks
// that add, remove or choose points (with instant marks), drags that move a point or turn a
// 3-D view. The pure parts (where a pointer is, the nearest point) are functions of their
// own; the class extends the figure's drawing (drawing.js) and runs.js extends it.

import { BACK_KEY, ENLARGE_KEYS, clickRequest, keyRequest, titleAt, titleTip } from "./enlarge.js";
import { dashboardKey } from "./keys.js";
import { KINDS } from "./kinds.js";
import { pageWord } from "./words.js";
import { PageFigureDrawing } from "./drawing.js";

export const MARK_MS = 5000;         // pointer feedback lasts until the next scene, or this long
export const PICK_PX = 14;           // remove/choose: the nearest drawn point within this distance
export const TURN_DEG = 0.5;         // a panel with a 3-D view turns this many degrees a CSS px dragged
export const DRAG_SEND_MS = 30;      // a dragged point's moves reach the kernel at most this often
// A 3-D view's keys (when the figure has the keys, as the transport's): Shift + an arrow turns
// it as a drag that way would, TURN_KEY_DEG a press; v (or the panel's "reset view" button)
// brings back the view it opened with (its `home`, else HOME)
export const TURN_KEY_DEG = 10;
export const TURN_KEYS = { ArrowLeft: [1, 0], ArrowRight: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
export const RESET_VIEW_KEYS = ["v", "V"];
export const HOME = { azim: -60, elev: 25 };  // explorer.plots.view3d.AZIM, ELEV

// the view `view` ({azim, elev, home?}) after the key `key` (with Shift or not): the turned
// or reset angles {azim, elev}, or null when the key does not turn a 3-D view
export function keyTurn(view, key, shift) {
  if (RESET_VIEW_KEYS.includes(key)) {
    const h = Array.isArray(view.home) ? { azim: view.home[0], elev: view.home[1] } : HOME;
    return { ...h };
  }
  if (!shift || !(key in TURN_KEYS)) return null;
  const [da, de] = TURN_KEYS[key];
  return { azim: view.azim + da * TURN_KEY_DEG,
    elev: Math.max(-90, Math.min(90, view.elev + de * TURN_KEY_DEG)) };
}

// A pointer at (clientX, clientY) on a canvas whose box on screen is `rect` and whose figure is
// width x height CSS px: CSS px in the figure
export function figurePx(rect, width, height, clientX, clientY) {
  return [(clientX - rect.left) * (width / rect.width), (clientY - rect.top) * (height / rect.height)];
}

// where (px, py) in the figure is: the last of `panels` (not the figure's pseudo-panel) whose
// box holds it, or `within` (a drag stays in its panel: the point is kept inside it), and the
// data coordinates there: {panel, px, py, x, y}, or null outside every panel
export function locateIn(panels, px, py, within) {
  let panel = within || null;
  if (panel) {
    px = Math.min(Math.max(px, panel.x), panel.x + panel.w);
    py = Math.min(Math.max(py, panel.y), panel.y + panel.h);
  } else {
    for (const p of panels) {
      if (!p.figure && px >= p.x && px <= p.x + p.w && py >= p.y && py <= p.y + p.h) panel = p;
    }
  }
  if (!panel) return null;
  return { panel, px, py, x: (px - panel.bx) / panel.ax, y: (py - panel.by) / panel.ay };
}

// the vertex of buf[0 .. 2 nv) nearest (px, py) at a squared distance at most `within2`:
// {index, d2}, or null (ties: the last)
export function nearestVertexIn(buf, nv, px, py, within2) {
  let best = null, bestD = within2;
  for (let j = 0; j < nv; j++) {
    const d = (buf[2 * j] - px) ** 2 + (buf[2 * j + 1] - py) ** 2;
    if (d <= bestD) { bestD = d; best = { index: j, d2: d }; }
  }
  return best;
}

export class PageFigureInput extends PageFigureDrawing {
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

  // a key of the transport (or one forwarded to the kernel), whatever control has the focus
  // but a text box (keys.js: dashboardKey); the control does not act on it as well
  key(ev) {
    if (document.querySelector(".pe-blackout")) return;  // blacked out: the page bridge's keys
    if (this.turnKey(ev)) return;
    const action = this.keys.get(ev.key);
    // a question's keys (question.js): ask (again), Escape closes the one on the figure
    // (before Escape takes a panel shown large back)
    const ask = !!this.askKeys && this.askKeys.has(ev.key);
    const close = ev.key === "Escape" && !!this.card && !!this.card.view;
    const large = action || ask || close ? null : this.largeFor(ev.key);
    if (!action && !ask && !close && large === null && !this.forward.has(ev.key)) return;
    if (!dashboardKey(ev, this.keyFocus) || !this.active()) return;
    ev.preventDefault();  // a focused button's click, a slider's move
    ev.stopPropagation();
    if (ask) this.askHere();
    else if (close) this.card.click("close");
    else if (action) this.act(action);
    else if (large !== null) this.model.send({ type: "enlarge", panel: large });
    else this.model.send({ type: "key", key: ev.key });
  }

  // ------------------------------------------------------------------ one panel, large
  // (enlarge.js) what the key `key` asks for: a panel's name, "" (back) or null (nothing)
  largeFor(key) {
    if (key !== BACK_KEY && !ENLARGE_KEYS.includes(key)) return null;
    if (!this.model.get("enlarge") || this.run === null) return null;
    return keyRequest(key, { enlarged: this.enlarged || "", names: this.enlargeable || [],
      hover: this.hover || null });
  }

  // the enlargeable panel whose title is under the pointer event `ev`, or null
  titleUnder(ev) {
    if (!this.model.get("enlarge") || this.run === null) return null;
    const [px, py] = figurePx(this.canvas.getBoundingClientRect(), this.width, this.height,
      ev.clientX, ev.clientY);
    return titleAt(this.panels.values(), this.enlargeable || [], px, py);
  }

  // a click on a panel's title: that panel large, or back
  titleClick(ev) {
    const ask = clickRequest(this.titleUnder(ev), this.enlarged || "");
    if (ask !== null) this.model.send({ type: "enlarge", panel: ask });
  }

  // where the pointer is: the panel under it (the key z shows it large) and, over a title
  // that a click shows large, a magnifier and a tooltip
  hoverAt(ev) {
    const title = this.titleUnder(ev);
    const at = title ? null : this.locate(ev);
    this.hover = title || (at ? at.panel.name : null);
    this.canvas.classList.toggle("pe-pf-title", !!title);
    this.canvas.classList.toggle("pe-pf-large", !!title && title === this.enlarged);
    const tip = titleTip(title, this.enlarged || "");
    if (this.canvas.title !== tip) this.canvas.title = tip;
  }

  // ------------------------------------------------------------------ pointer
  pointer(ev) {
    // a question answered by a place is open: a click on its panel answers, others do nothing
    const placeIn = this.card ? this.card.placePanel() : null;
    if (placeIn !== null && this.run !== null) {
      const at = this.locate(ev);
      if (at && at.panel.name === placeIn) this.card.click("answer", [at.x, at.y]);
      return;
    }
    const mode = this.mode;
    if (mode === "view" || mode === "drag" || this.run === null) return;
    const where = this.locate(ev);
    if (!where) return;
    const { panel, px, py, x, y } = where;
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
    const where = this.locate(ev);
    return where ? where.panel : null;
  }

  // the 3-D view the keys turn: the one under the pointer, else the first shown
  turnable() {
    if (this.run === null || !this.panels) return null;
    const under = this.hover ? this.panels.get(this.hover) : null;
    if (under && under.view3d) return under;
    for (const p of this.panels.values()) if (p.view3d) return p;
    return null;
  }

  // Shift + an arrow or v on a figure with a 3-D view: turned or reset here (drawn at the
  // next frame), the kernel hears the view; true if the key was the view's
  turnKey(ev) {
    if (!RESET_VIEW_KEYS.includes(ev.key) && !(ev.shiftKey && ev.key in TURN_KEYS)) return false;
    const p = this.turnable();
    const v = p ? keyTurn(p.view3d, ev.key, ev.shiftKey) : null;
    if (!v || !dashboardKey(ev, this.keyFocus) || !this.active()) return false;
    ev.preventDefault();
    ev.stopPropagation();
    this.setView(p, v);
    return true;
  }

  // panel `p`'s view turned to {azim, elev}: drawn again, and the kernel hears it
  setView(p, v) {
    const before = p.view3d;
    if (before.azim === v.azim && before.elev === v.elev) return;
    before.azim = v.azim;
    before.elev = v.elev;
    this.drawn = -1;
    this.requestDraw();
    this.model.send({ type: "view3d", panel: p.name, azim: v.azim, elev: v.elev });
  }

  // a small "reset view" button over the top right corner of the first 3-D view (none when
  // the scene has no 3-D view)
  placeViewButton() {
    let p = null;
    for (const q of this.panels.values()) if (q.view3d) { p = q; break; }
    if (!p) { if (this.viewButton) this.viewButton.hidden = true; return; }
    if (!this.viewButton) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "pe-pf-btn pe-pf-view-reset";
      b.textContent = pageWord("reset_view", "reset view");
      b.title = pageWord("reset_view_tip", "Turn the 3-D view back (key v); drag or Shift + arrows turn it");
      b.addEventListener("click", () => { const q = this.turnable();
        if (q) this.setView(q, keyTurn(q.view3d, "v", false)); });
      this.figure.appendChild(b);
      this.viewButton = b;
    }
    const b = this.viewButton;
    b.hidden = false;
    b.style.left = `${(100 * (p.x + p.w)) / Math.max(1, this.width)}%`;
    b.style.top = `${(100 * p.y) / Math.max(1, this.height)}%`;
  }

  turnStart(ev) {
    if (ev.button !== 0 || this.run === null) return;
    const p = this.panelAt(ev);
    if (!p || !p.view3d) return;
    ev.preventDefault();
    try { this.canvas.setPointerCapture(ev.pointerId); } catch (e) { /* a synthetic event */ }
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
    const [px, py] = figurePx(this.canvas.getBoundingClientRect(), this.width, this.height,
      ev.clientX, ev.clientY);
    return locateIn(this.panels.values(), px, py, within);
  }

  // drag mode: press on a point of a `drag_tracks` track, move it (drawn here at frame rate),
  // the kernel hears "down", "move" (at most every DRAG_SEND_MS) and "up" in data coordinates
  dragStart(ev) {
    if (this.mode !== "drag" || this.run === null || ev.button !== 0) return;
    if (this.card && this.card.placePanel() !== null) return;  // a click answers (pointer)
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

  // the drag in progress, moved to where the pointer event `ev` is (kept in its panel); null
  // when there is none
  dragTo(ev) {
    const d = this.drag;
    if (!d || d.released) return null;
    const at = this.locate(ev, d.panel);
    d.px = at.px; d.py = at.py;
    return d;
  }

  dragMove(ev) {
    const d = this.dragTo(ev);
    if (!d) return;
    const wait = DRAG_SEND_MS - (performance.now() - d.sent);
    if (wait <= 0) this.dragSend(d, "move");
    else if (!d.timer) d.timer = setTimeout(() => { d.timer = 0; if (!d.released) this.dragSend(d, "move"); }, wait);
    this.requestDraw();
  }

  dragEnd(ev) {
    const d = this.dragTo(ev);
    if (!d) return;
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

  // the drawn point nearest (px, py) within PICK_PX in `panel`, of the points tracks `names`
  // (all of them when null): {track, index, x, y}, or null
  nearest(panel, px, py, names) {
    const c = this.chunkOf(this.drawn);
    if (!c) return null;
    let best = null, bestD = PICK_PX * PICK_PX;
    for (const tr of this.tracks) {
      if (tr.kind !== "points" || tr.panel !== panel || (names && !names.has(tr.name))) continue;
      const f = this.frameFor(tr, c, this.drawn - c.start), b = f.buf;
      const hit = nearestVertexIn(b, KINDS.points.geom(f, tr), px, py, bestD);
      if (hit) {
        bestD = hit.d2;
        best = { track: tr.name, index: hit.index, x: b[2 * hit.index], y: b[2 * hit.index + 1] };
      }
    }
    return best;
  }

  nearestVertex(panel, px, py, names) { return this.nearest(panel, px, py, names); }

  nearestPoint(panel, px, py) {
    const near = this.nearest(panel, px, py, null);
    return near ? [near.x, near.y] : null;
  }
}
