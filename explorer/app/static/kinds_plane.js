// How the page draws each 2-D kind of moving part (the track kinds of explorer/plots/scene.py;
// kinds.js gathers them with the XOR figure's into KINDS).
//
// A kind is three functions of the frame `f` = {ctx, buf, a, i, strings} (a: the track's arrays
// in the chunk shown, i: the step's row in it, strings: the chunk's texts) and the track `tr`
// ({name, kind, panel: {ax, bx, ay, by, x, y, w, h}, style, data}):
//   geom(f, tr)         writes the track's vertices in CSS px into f.buf, returns how many;
//   visible(f, tr, nv)  whether anything is drawn (NaN coordinates are not);
//   draw(f, tr, nv)     draws it on f.ctx (style applied, clipped to the panel);
// and `style`, the style keys it reads (explorer.plots.scene.KIND_STYLES says the same:
// tests/test_kinds_agree.py). A new kind of moving part is a new entry of a kinds table.

import { COVER_MARKERS } from "./kinds_cover.js";

export const HA = ["left", "center", "right"];
export const VA = ["top", "middle", "bottom", "alphabetic"];
export const FONT = "\"Noto Sans SC PE\", DejaVu Sans, Bitstream Vera Sans, Arial, sans-serif";

export const SOLID = [];

export function num(v, d) { return typeof v === "number" && Number.isFinite(v) ? v : d; }
export function finite(b, j) { return Number.isFinite(b[2 * j]) && Number.isFinite(b[2 * j + 1]); }

// ------------------------------------------------------------------ geometry
export function geomXY(f, tr) {
  const xy = f.a && f.a.xy;
  if (!xy) return 0;
  const p = tr.panel, buf = f.buf, per = f.a.xy_per, o = f.i * per, nv = per / 2;
  for (let j = 0; j < nv; j++) {
    buf[2 * j] = p.ax * xy[o + 2 * j] + p.bx;
    buf[2 * j + 1] = p.ay * xy[o + 2 * j + 1] + p.by;
  }
  return nv;
}

export function geomPrefix(f, tr) {
  // vertices start .. n - 1 of the static polyline (start 0 when not sent), then the tail
  const a = f.a, p = tr.panel, buf = f.buf, data = tr.data;
  const total = data ? data.length / 2 : 0;
  const end = a && a.n ? Math.min(Math.max(a.n[f.i], 0), total) : 0;
  const begin = a && a.start ? Math.min(Math.max(a.start[f.i], 0), end) : 0;
  let n = 0;
  for (let j = begin; j < end; j++, n++) { buf[2 * n] = data[2 * j]; buf[2 * n + 1] = data[2 * j + 1]; }
  if (a && a.tail) {
    buf[2 * n] = p.ax * a.tail[2 * f.i] + p.bx;
    buf[2 * n + 1] = p.ay * a.tail[2 * f.i + 1] + p.by;
    n += 1;
  }
  return n;
}

export function geomVline(f, tr) {
  if (!f.a || !f.a.x) return 0;
  const p = tr.panel, x = p.ax * f.a.x[f.i] + p.bx, buf = f.buf;
  buf[0] = x; buf[1] = p.y; buf[2] = x; buf[3] = p.y + p.h;
  return 2;
}

export function textOf(f) {
  const t = f.a && f.a.t ? f.a.t[f.i] : -1;
  return t >= 0 && t < f.strings.length ? String(f.strings[t]) : "";
}

// ------------------------------------------------------------------ visibility
export function anySegment(f, tr, nv) {
  for (let j = 1; j < nv; j++) if (finite(f.buf, j) && finite(f.buf, j - 1)) return true;
  return false;
}
export function anyVertex(f, tr, nv) {
  for (let j = 0; j < nv; j++) if (finite(f.buf, j)) return true;
  return false;
}

// ------------------------------------------------------------------ drawing
export function drawLine(f, tr, nv) {
  const ctx = f.ctx, buf = f.buf;
  ctx.beginPath();
  let pen = false;
  for (let j = 0; j < nv; j++) {
    if (!finite(buf, j)) { pen = false; continue; }  // a gap, as matplotlib draws NaN
    if (pen) ctx.lineTo(buf[2 * j], buf[2 * j + 1]);
    else { ctx.moveTo(buf[2 * j], buf[2 * j + 1]); pen = true; }
  }
  if (tr.style.width > 0) ctx.stroke();
}

export function drawPolygon(f, tr, nv) {
  const ctx = f.ctx, buf = f.buf, s = tr.style;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, first = true;
  ctx.beginPath();
  for (let j = 0; j < nv; j++) {
    if (!finite(buf, j)) continue;  // padding: fewer vertices at this step
    const x = buf[2 * j], y = buf[2 * j + 1];
    if (first) { ctx.moveTo(x, y); first = false; } else ctx.lineTo(x, y);
    x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
  }
  ctx.closePath();
  if (s.fill) { ctx.globalAlpha = s.fillAlpha; ctx.fillStyle = s.fill; ctx.fill(); }
  // the edge first: the hatch below replaces the current path (a path is not saved state)
  if (s.width > 0) { ctx.globalAlpha = s.alpha; ctx.strokeStyle = s.color; ctx.stroke(); }
  if (s.hatch) {
    ctx.save();
    ctx.clip();
    ctx.beginPath();
    ctx.setLineDash(SOLID);
    ctx.lineWidth = s.hatchWidth;
    ctx.globalAlpha = s.hatchAlpha;
    ctx.strokeStyle = s.hatchColor;
    const g = s.hatchGap;
    // lines anchored to the figure, so the hatch stays still while the polygon moves
    if (/[/xX]/.test(s.hatch)) for (let q = Math.floor((x0 + y0) / g) * g; q <= x1 + y1; q += g) {
      ctx.moveTo(q - y0, y0); ctx.lineTo(q - y1, y1);
    }
    if (/[\\xX]/.test(s.hatch)) for (let q = Math.floor((x0 - y1) / g) * g; q <= x1 - y0; q += g) {
      ctx.moveTo(q + y0, y0); ctx.lineTo(q + y1, y1);
    }
    ctx.stroke();
    ctx.restore();
  }
}

export function arrowAt(ctx, s, x0, y0, x1, y1) {
  const len = Math.hypot(x1 - x0, y1 - y0);
  if (len < 1e-9) return;
  const ux = (x1 - x0) / len, uy = (y1 - y0) / len;
  const hl = Math.min(s.head[0], len), hw = s.head[1] * (hl / s.head[0]) / 2;
  const bx = x1 - ux * hl, by = y1 - uy * hl;
  ctx.setLineDash(s.dash);
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(bx, by);
  ctx.stroke();
  ctx.setLineDash(SOLID);
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(bx - uy * hw, by + ux * hw);
  ctx.lineTo(bx + uy * hw, by - ux * hw);
  ctx.closePath();
  ctx.fill();
}

export function drawArrow(f, tr) {
  const b = f.buf;
  arrowAt(f.ctx, tr.style, b[0], b[1], b[2], b[3]);
}

// a prefix track with a head: every segment of the drawn polyline is an arrow
export function drawPrefix(f, tr, nv) {
  if (!tr.style.arrows) { drawLine(f, tr, nv); return; }
  const b = f.buf;
  for (let j = 1; j < nv; j++) {
    if (finite(b, j) && finite(b, j - 1)) arrowAt(f.ctx, tr.style, b[2 * j - 2], b[2 * j - 1], b[2 * j], b[2 * j + 1]);
  }
}

// marker -> (ctx, x, y, r) that traces its path (filled, then edged): shapes beyond those below
const MARKERS = { ...COVER_MARKERS };

export function drawPoints(f, tr, nv) {
  const ctx = f.ctx, buf = f.buf, s = tr.style, a = f.a;
  const cc = a.c && s.colors ? a.c : null, per = a.c_per || 0;
  const sizes = a.s || null, sper = a.s_per || 0;  // each marker's diameter, if given
  const m = s.marker;
  const open = s.ring || m === "ring" || m === "box" || m === "x" || m === "+";
  ctx.setLineDash(open ? s.dash : SOLID);
  for (let j = 0; j < nv; j++) {
    if (!finite(buf, j)) continue;
    const x = buf[2 * j], y = buf[2 * j + 1];
    const r = (sizes ? sizes[f.i * sper + j] : s.size) / 2;
    const code = cc ? cc[f.i * per + j] : 0;
    const col = cc ? s.colors[code] || s.color : (open ? s.color : s.fill || s.color);
    ctx.beginPath();
    if (m === "s" || m === "box") ctx.rect(x - r, y - r, 2 * r, 2 * r);
    else if (m === "D") {
      ctx.moveTo(x, y - r); ctx.lineTo(x + r, y); ctx.lineTo(x, y + r); ctx.lineTo(x - r, y);
      ctx.closePath();
    } else if (m === "^" || m === "v") {  // matplotlib's triangles: apex and base r from the centre
      const d = m === "^" ? r : -r;
      ctx.moveTo(x, y - d); ctx.lineTo(x + r, y + d); ctx.lineTo(x - r, y + d); ctx.closePath();
    } else if (m === "x") {
      ctx.moveTo(x - r, y - r); ctx.lineTo(x + r, y + r); ctx.moveTo(x - r, y + r); ctx.lineTo(x + r, y - r);
    } else if (m === "+") {
      ctx.moveTo(x - r, y); ctx.lineTo(x + r, y); ctx.moveTo(x, y - r); ctx.lineTo(x, y + r);
    } else if (MARKERS[m]) MARKERS[m](ctx, x, y, r);  // more shapes (kinds_cover.js)
    else ctx.arc(x, y, r, 0, 2 * Math.PI);
    if (open) {
      ctx.globalAlpha = s.alpha;
      ctx.lineWidth = s.widths ? (s.widths[code] || s.width) : s.width;
      ctx.strokeStyle = col;
      ctx.stroke();
      continue;
    }
    ctx.globalAlpha = s.fillAlpha;
    ctx.fillStyle = col;
    ctx.fill();
    // the edge, where it differs from the fill (matplotlib draws a marker's edge over its face)
    if (s.width > 0 && cc) { ctx.globalAlpha = s.alpha; ctx.strokeStyle = s.color; ctx.stroke(); }
    else if (s.width > 0 && s.color !== col) {
      ctx.globalAlpha = s.alpha; ctx.lineWidth = s.width; ctx.strokeStyle = s.color; ctx.stroke();
    }
  }
}

export function drawText(f, tr) {
  const ctx = f.ctx, s = tr.style, a = f.a, str = textOf(f), x = f.buf[0], y = f.buf[1];
  const ha = a.ha ? HA[a.ha[f.i]] || "left" : "left";
  const va = a.va ? a.va[f.i] : 3;
  ctx.font = s.font;
  ctx.textAlign = ha;
  ctx.textBaseline = VA[va] || "alphabetic";
  const lines = str.indexOf("\n") >= 0 ? str.split("\n") : null;
  const n = lines ? lines.length : 1, lh = 1.2 * s.size;
  // va places the block of lines: its top at y, its middle, its bottom (or last baseline)
  const shift = va === 0 ? 0 : va === 1 ? -(n - 1) * lh / 2 : -(n - 1) * lh;
  if (s.box) {
    let w = 0;
    for (let j = 0; j < n; j++) w = Math.max(w, ctx.measureText(lines ? lines[j] : str).width);
    const pad = s.box.pad, h = n * lh;
    const left = ha === "left" ? x : ha === "center" ? x - w / 2 : x - w;
    const top = va === 0 ? y : va === 1 ? y - h / 2 : y - h + (va === 3 ? 0.25 * s.size : 0);
    ctx.globalAlpha = s.box.alpha;
    ctx.fillStyle = s.box.color;
    ctx.fillRect(left - pad, top - pad, w + 2 * pad, h + 2 * pad);
    ctx.globalAlpha = s.alpha;
    ctx.fillStyle = s.color;
  }
  if (!lines) { ctx.fillText(str, x, y); return; }
  for (let j = 0; j < n; j++) ctx.fillText(lines[j], x, y + shift + j * lh);
}

// at least three drawn vertices (a polygon)
export function threeVertices(f, tr, nv) {
  let k = 0;
  for (let j = 0; j < nv; j++) if (finite(f.buf, j)) k++;
  return k >= 3;
}

// the style keys each kind reads (beyond none): a line's, a polygon's, a marker's, a text's
export const LINE = ["color", "alpha", "width", "dash"];
export const AREA = [...LINE, "fill", "fill_alpha", "hatch", "hatch_gap", "hatch_color",
  "hatch_alpha", "hatch_width"];
export const MARKER = [...LINE, "fill", "fill_alpha", "size", "marker", "colors"];
export const HEADED = [...LINE, "head", "size"];

export const PLANE_KINDS = {
  polyline: { geom: geomXY, visible: anySegment, draw: drawLine, style: LINE },
  polygon: { geom: geomXY, visible: threeVertices, draw: drawPolygon, style: AREA },
  arrow: { geom: geomXY, visible: (f, tr, nv) => nv === 2 && finite(f.buf, 0) && finite(f.buf, 1),
    draw: drawArrow, style: HEADED },
  points: { geom: geomXY, visible: anyVertex, draw: drawPoints, style: MARKER },
  text: { geom: geomXY, visible: (f, tr, nv) => nv >= 1 && finite(f.buf, 0) && textOf(f) !== "",
    draw: drawText, text: textOf, style: ["color", "alpha", "size", "font", "weight", "box"] },
  prefix: { geom: geomPrefix, visible: anySegment, draw: drawPrefix, style: HEADED },
  vline: { geom: geomVline, visible: (f, tr, nv) => nv === 2 && Number.isFinite(f.buf[0]),
    draw: drawLine, style: LINE },
};
