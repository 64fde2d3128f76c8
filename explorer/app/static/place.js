// A question answered by a place on the data plane (issue 33, item 1: "Where will the boundary
// move?"; explorer/app/point_question.py): the place a click gives, rounded as the kernel and
// the hall server keep it (explorer/shared/plane_point.py), whether the boundary swept over it,
// and the layer question.js draws over the plane: the answers as dots, this page's own larger
// and ringed, and at the reveal the old boundary dashed (the figure draws the new one). The
// pure parts are tested in Node (tests/js/place.test.mjs).

export const PLACE_GRID = 10000;   // a place keeps the decimals of the box's side / this (plane_point.GRID)
export const DOT_PX = 5;           // a room's dot's radius, CSS px
export const MINE_PX = 9;          // this page's own dot's radius

const placeFinite = (v) => typeof v === "number" && Number.isFinite(v);

// `box` [x0, x1, y0, y1] if it is one (x0 < x1, y0 < y1), else null
export function placeBox(box) {
  if (!Array.isArray(box) || box.length !== 4 || !box.every(placeFinite)) return null;
  return box[0] < box[1] && box[2] < box[3] ? box : null;
}

// the place [x, y] a click at data (x, y) answers, rounded, or null outside `box`
export function roundPlace(x, y, box) {
  const b = placeBox(box);
  if (!b || !placeFinite(x) || !placeFinite(y)) return null;
  const [x0, x1, y0, y1] = b;
  if (x < x0 || x > x1 || y < y0 || y > y1) return null;
  const digits = Math.max(0, Math.ceil(-Math.log10(Math.max(x1 - x0, y1 - y0) / PLACE_GRID)));
  const snap = (v, lo, hi) => Math.min(hi, Math.max(lo, Number(v.toFixed(digits))));
  return [snap(x, x0, x1), snap(y, y0, y1)];
}

// whether [x, y] is two placeFinite numbers
export function isPlace(p) { return Array.isArray(p) && p.length === 2 && p.every(placeFinite); }

// whether the boundary swept over `p` going from line `before` to `after` ([w1, w2, b] each)
export function sweptOver(before, after, p) {
  const plus = (l) => l[0] * p[0] + l[1] * p[1] + l[2] > 0;
  return plus(before) !== plus(after);
}

// the line [a, b, c] (a x + b y + c = 0) where it crosses the box: [[x, y], [x, y]] in data
// coordinates, or null when it misses the box
export function clipLine(l, box) {
  if (!Array.isArray(l) || l.length !== 3 || !l.every(placeFinite) || !(l[0] || l[1])) return null;
  const [x0, x1, y0, y1] = box, [a, b, c] = l, ends = [];
  if (b) for (const x of [x0, x1]) { const y = -(a * x + c) / b; if (y >= y0 && y <= y1) ends.push([x, y]); }
  if (a) for (const y of [y0, y1]) { const x = -(b * y + c) / a; if (x >= x0 && x <= x1) ends.push([x + 0, y]); }
  const far = ends.find((e) => Math.hypot(e[0] - ends[0][0], e[1] - ends[0][1]) > 1e-12);
  return ends.length && far ? [ends[0], far] : null;
}

// what the layer over the plane draws, in CSS px of the host: `point` the question's plane
// ({box, before, after}), `mine` this page's place or null, `dots` the room's [x, y, swept],
// `panel` the scene's panel (x, y, w, h in figure px; data -> figure px: x * ax + bx), `scale`
// CSS px per figure px, `at` the canvas's offset in the host. {box: [left, top, w, h], dots:
// [{x, y, swept}], mine: {x, y, swept} or null, old: [x1, y1, x2, y2] or null (at the reveal)}
export function placeGeometry({ point, mine, dots, revealed, panel, scale, at }) {
  const box = placeBox(point && point.box);
  if (!box || !panel) return null;
  const left = at[0] + panel.x * scale, top = at[1] + panel.y * scale;
  const px = (x) => (panel.bx + panel.ax * x) * scale - panel.x * scale;
  const py = (y) => (panel.by + panel.ay * y) * scale - panel.y * scale;
  const judged = revealed && Array.isArray(point.after) && Array.isArray(point.before);
  const dot = (p, s) => ({ x: px(p[0]), y: py(p[1]),
    swept: judged ? sweptOver(point.before, point.after, p) : s === undefined ? null : !!s });
  const out = { box: [left, top, panel.w * scale, panel.h * scale],
    dots: (Array.isArray(dots) ? dots : []).filter((d) => Array.isArray(d) && isPlace(d.slice(0, 2)))
      .map((d) => dot(d, d[2])),
    mine: isPlace(mine) ? dot(mine) : null, old: null };
  const old = judged ? clipLine(point.before, box) : null;
  if (old) out.old = [px(old[0][0]), py(old[0][1]), px(old[1][0]), py(old[1][1])];
  return out;
}

// the layer drawn on `canvas` (already placed over the panel, sized `g.box`): swept dots
// bluish green discs, the others vermillion rings, unjudged dark grey; this page's own larger
export function drawPlaces(canvas, g, ratio = 1) {
  const [, , w, h] = g.box;
  canvas.width = Math.max(1, Math.round(w * ratio));
  canvas.height = Math.max(1, Math.round(h * ratio));
  const ctx = canvas.getContext && canvas.getContext("2d");
  if (!ctx) return;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, w, h);
  if (g.old) {
    ctx.save();
    ctx.setLineDash([8, 6]);
    ctx.lineWidth = 2.5;
    ctx.strokeStyle = "#555555";
    ctx.beginPath();
    ctx.moveTo(g.old[0], g.old[1]);
    ctx.lineTo(g.old[2], g.old[3]);
    ctx.stroke();
    ctx.restore();
  }
  const color = (d) => (d.swept === null ? "#333333" : d.swept ? "#009E73" : "#D55E00");
  const one = (d, r, ring) => {
    ctx.beginPath();
    ctx.arc(d.x, d.y, r, 0, 2 * Math.PI);
    ctx.fillStyle = d.swept === false ? "rgba(255,255,255,0.85)" : color(d);
    ctx.fill();
    ctx.lineWidth = ring ? 3 : 2;
    ctx.strokeStyle = ring ? "#111111" : color(d);
    ctx.stroke();
  };
  for (const d of g.dots) one(d, DOT_PX, false);
  if (g.mine) one(g.mine, MINE_PX, true);
}
