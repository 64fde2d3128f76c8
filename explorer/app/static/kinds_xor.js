// Kinds of moving parts of the XOR figure (explorer/plots/scene.py, explorer/plots/view3d.py):
// a two-colour raster (the region a classifier gives each class) and a 3-D view in projection
// (its box and axes' names, points, lines and a polygon), which the page turns as it is dragged.
// kinds.js gathers them with the 2-D kinds (kinds_plane.js, whose drawing they reuse) into KINDS.

import {
  AREA, FONT, HEADED, LINE, MARKER, anySegment, anyVertex, drawArrow, drawLine, drawPoints, drawPolygon,
  finite, num, threeVertices,
} from "./kinds_plane.js";

// ------------------------------------------------------------------ raster
// static data [[x0, y0], [x1, y1], [C, R]]: the extent and the grid; per step `bits`
// (R rows of ceil(C / 8) bytes, most significant bit first, row 0 at y0)
function rasterInit(tr, t) {
  const d = Array.isArray(t.data) ? t.data : [[0, 0], [1, 1], [1, 1]];
  tr.extent = [d[0][0], d[0][1], d[1][0], d[1][1]];
  tr.cols = Math.max(1, d[2][0] | 0);
  tr.rows = Math.max(1, d[2][1] | 0);
  tr.rgba = (tr.style.colors || ["#00000000", "#00000000"]).map((c) => {
    const h = String(c).replace("#", "");
    const v = (i) => parseInt(h.slice(i, i + 2), 16);
    return [v(0), v(2), v(4), h.length >= 8 ? v(6) : 255];
  });
}

function rasterGeom(f, tr) {
  if (!f.a || !f.a.bits) return 0;
  const p = tr.panel, e = tr.extent, b = f.buf;
  b[0] = p.ax * e[0] + p.bx; b[1] = p.ay * e[1] + p.by;
  b[2] = p.ax * e[2] + p.bx; b[3] = p.ay * e[3] + p.by;
  return 2;
}

function rasterDraw(f, tr) {
  const C = tr.cols, R = tr.rows, nb = Math.ceil(C / 8), bits = f.a.bits, o = f.i * f.a.bits_per;
  if (!tr.image) {
    tr.canvas = document.createElement("canvas");
    tr.canvas.width = C; tr.canvas.height = R;
    tr.image = tr.canvas.getContext("2d").createImageData(C, R);
  }
  const px = tr.image.data, [c0, c1] = tr.rgba;
  for (let r = 0; r < R; r++) {
    const row = o + r * nb, out = (R - 1 - r) * C;  // row 0 is the bottom (origin "lower")
    for (let j = 0; j < C; j++) {
      const c = (bits[row + (j >> 3)] >> (7 - (j & 7))) & 1 ? c1 : c0, q = 4 * (out + j);
      px[q] = c[0]; px[q + 1] = c[1]; px[q + 2] = c[2]; px[q + 3] = c[3];
    }
  }
  tr.canvas.getContext("2d").putImageData(tr.image, 0, 0);
  const b = f.buf, ctx = f.ctx;
  ctx.globalAlpha = 1;  // the colours carry their opacity
  ctx.imageSmoothingEnabled = true;  // matplotlib's "bilinear"
  ctx.drawImage(tr.canvas, Math.min(b[0], b[2]), Math.min(b[1], b[3]), Math.abs(b[2] - b[0]),
    Math.abs(b[3] - b[1]));
}

// ------------------------------------------------------------------ 3-D in projection
// The panel's view3d: {azim, elev (degrees), lo, hi (the box), labels [[u1, u2, u3, text,
// "name" | "tick"]] (cube coordinates)}; the panel's limits are in projected units.
export const CUBE_EDGES = [];
for (let a = 0; a < 8; a++) for (let b = a + 1; b < 8; b++) {
  const x = a ^ b;
  if (x === 1 || x === 2 || x === 4) CUBE_EDGES.push([a, b]);
}
export const corner = (i) => [i & 4 ? 1 : -1, i & 2 ? 1 : -1, i & 1 ? 1 : -1];

// cube coordinates -> CSS px (x = -sin a u1 + cos a u2, y = -sin e cos a u1 - sin e sin a u2
// + cos e u3), as explorer.plots.view3d.cube_project and the panel's mapping
export function cubeToPx(p, u0, u1, u2, out, j) {
  const v = p.view3d, a = v.azim * Math.PI / 180, e = v.elev * Math.PI / 180;
  const sa = Math.sin(a), ca = Math.cos(a), se = Math.sin(e), ce = Math.cos(e);
  const x = -sa * u0 + ca * u1, y = -se * ca * u0 - se * sa * u1 + ce * u2;
  out[2 * j] = p.ax * x + p.bx;
  out[2 * j + 1] = p.ay * y + p.by;
}

export function dataToPx(p, x, y, z, out, j) {
  const v = p.view3d, lo = v.lo, hi = v.hi;
  const u = (w, i) => (w - (lo[i] + hi[i]) / 2) / ((hi[i] - lo[i]) / 2);
  cubeToPx(p, u(x, 0), u(y, 1), u(z, 2), out, j);
}

function init3d(tr, t) {
  if (!Array.isArray(t.data)) return;
  tr.xyz = new Float64Array(t.data.length * 3);
  t.data.forEach((row, j) => { for (let i = 0; i < 3; i++) tr.xyz[3 * j + i] = row[i] === null ? NaN : row[i]; });
}

// per-step `xyz` (S, V, 3), else the static data
function geom3d(f, tr) {
  const p = tr.panel;
  if (!p.view3d) return 0;
  let xyz = tr.xyz, o = 0, nv = xyz ? xyz.length / 3 : 0;
  if (f.a && f.a.xyz) { xyz = f.a.xyz; nv = f.a.xyz_per / 3; o = f.i * f.a.xyz_per; }
  for (let j = 0; j < nv; j++) dataToPx(p, xyz[o + 3 * j], xyz[o + 3 * j + 1], xyz[o + 3 * j + 2], f.buf, j);
  return nv;
}

// the box: its 12 edges, then one vertex a label (names and values)
function axesGeom(f, tr) {
  const p = tr.panel;
  if (!p.view3d) return 0;
  let n = 0;
  for (const [a, b] of CUBE_EDGES) {
    cubeToPx(p, ...corner(a), f.buf, n++);
    cubeToPx(p, ...corner(b), f.buf, n++);
  }
  for (const l of p.view3d.labels || []) cubeToPx(p, l[0], l[1], l[2], f.buf, n++);
  return n;
}

function axesDraw(f, tr) {
  const ctx = f.ctx, b = f.buf, s = tr.style, labels = tr.panel.view3d.labels || [];
  ctx.beginPath();
  for (let j = 0; j < 2 * CUBE_EDGES.length; j += 2) {
    ctx.moveTo(b[2 * j], b[2 * j + 1]);
    ctx.lineTo(b[2 * j + 2], b[2 * j + 3]);
  }
  ctx.stroke();
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.globalAlpha = 1;
  labels.forEach((l, i) => {
    const name = l[4] === "name", j = 2 * CUBE_EDGES.length + i;
    ctx.font = `normal ${name ? tr.namePx : tr.tickPx}px ${FONT}`;
    ctx.fillStyle = name ? "#222222" : "#555555";
    ctx.fillText(String(l[3]), b[2 * j], b[2 * j + 1]);
  });
}

// The convex hull of the finite vertices b[0 .. 2 nv) (a convex solid's outline in the view),
// written back in place counter-clockwise from the lowest x; returns how many (Andrew's
// monotone chain, as explorer.plots.data3d.hull2d)
export function hullInPlace(b, nv) {
  const pts = [];
  for (let j = 0; j < nv; j++) if (finite(b, j)) pts.push([b[2 * j], b[2 * j + 1]]);
  pts.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  let out = pts;
  if (pts.length >= 3) {
    const cross = (o, a, c) => (a[0] - o[0]) * (c[1] - o[1]) - (a[1] - o[1]) * (c[0] - o[0]);
    const half = (list) => {
      const h = [];
      for (const p of list) {
        while (h.length >= 2 && cross(h[h.length - 2], h[h.length - 1], p) <= 0) h.pop();
        h.push(p);
      }
      return h;
    };
    const lower = half(pts), upper = half([...pts].reverse());
    out = [...lower.slice(0, -1), ...upper.slice(0, -1)];
  }
  out.forEach((p, j) => { b[2 * j] = p[0]; b[2 * j + 1] = p[1]; });
  return out.length;
}

export const XOR_KINDS = {
  raster: { init: rasterInit, geom: rasterGeom, visible: (f, tr, nv) => nv === 2, draw: rasterDraw,
    style: ["colors"] },
  points3d: { init: init3d, geom: geom3d, visible: anyVertex,
    draw: (f, tr, nv) => { if (!f.a) f.a = {}; drawPoints(f, tr, nv); }, style: MARKER },
  polyline3d: { init: init3d, geom: geom3d, visible: anySegment, draw: drawLine, style: LINE },
  polygon3d: { init: init3d, geom: geom3d, visible: threeVertices, draw: drawPolygon, style: AREA },
  axes3d: {
    // type sizes: `font` the axes' names, `size` their values (CSS px)
    init: (tr, t) => { tr.namePx = num((t.style || {}).font, 13); tr.tickPx = num((t.style || {}).size, 10); },
    geom: axesGeom, visible: (f, tr, nv) => nv > 0, draw: axesDraw,
    text: (f, tr) => (tr.panel.view3d.labels || []).map((l) => l[3]).join(" "),
    style: [...LINE, "font", "size"],
  },
  // the Perceptron tab's 3-D view (explorer/plots/data3d.py): the side f >= 0 of the box, and
  // the normal and the update as arrows
  hull3d: { init: init3d, geom: (f, tr) => hullInPlace(f.buf, geom3d(f, tr)), visible: threeVertices,
    draw: drawPolygon, style: AREA },
  arrow3d: { init: init3d, geom: geom3d,
    visible: (f, tr, nv) => nv === 2 && finite(f.buf, 0) && finite(f.buf, 1), draw: drawArrow,
    style: HEADED },
};
