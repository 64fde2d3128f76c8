// Markers of the Cover figure's Monte Carlo points (explorer/plots/cover.py: one marker a curve,
// "o", "s", "^", "D", "v", "P", "X", "*") that kinds.js does not draw itself: matplotlib's filled
// plus, filled x and five-pointed star, traced in a box of half-width r around (x, y) as
// matplotlib's marker paths are (kinds_plane.js fills them, then strokes their edge).
// No imports: kinds_plane.js reads COVER_MARKERS into its MARKERS.

export function tracePolygon(ctx, x, y, r, pts, unit) {
  for (let j = 0; j < pts.length; j++) {
    const px = x + pts[j][0] * r / unit, py = y - pts[j][1] * r / unit;  // canvas y is down
    if (j === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
  }
  ctx.closePath();
}

const PLUS_FILLED = [[-1, -3], [1, -3], [1, -1], [3, -1], [3, 1], [1, 1], [1, 3], [-1, 3], [-1, 1],
  [-3, 1], [-3, -1], [-1, -1]];
const X_FILLED = [[-1, -2], [0, -1], [1, -2], [2, -1], [1, 0], [2, 1], [1, 2], [0, 1], [-1, 2],
  [-2, 1], [-1, 0], [-2, -1]];
// matplotlib's unit_regular_star(5, 0.381966): outer vertices from the top, inner between them
const STAR = Array.from({ length: 10 }, (_, j) => {
  const a = Math.PI / 2 + j * Math.PI / 5, q = j % 2 ? 0.381966 : 1;
  return [q * Math.cos(a), q * Math.sin(a)];
});

// marker -> (ctx, x, y, r) that traces its path
export const COVER_MARKERS = {
  P: (ctx, x, y, r) => tracePolygon(ctx, x, y, r, PLUS_FILLED, 3),
  X: (ctx, x, y, r) => tracePolygon(ctx, x, y, r, X_FILLED, 2),
  "*": (ctx, x, y, r) => tracePolygon(ctx, x, y, r, STAR, 1),
};
