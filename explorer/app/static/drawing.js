// The page figure's drawing (explorer/app/static/pagefigure.js): one frame on the canvas, the
// still layers with the tracks between and over them (KINDS, kinds.js) and the pointer's marks,
// and the display list tests read (what is drawn where). The base of PageFigure's classes
// (input.js extends it).

import { KINDS } from "./kinds.js";
import { SOLID } from "./kinds_plane.js";

const DOTTED = [3, 3];

export class PageFigureDrawing {
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
