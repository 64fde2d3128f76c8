"""Where to put a text so that it covers nothing: in display pixels, as matplotlib renders it.

* :func:`free_corner` puts a panel's note in the corner of its axes that the drawing leaves
  freest: the fewest segments of a path (and points) under the note, then the least of a
  shaded area, then the first corner in the order given.
* :func:`place_labels` puts point labels on their points, or beside them where another label
  or point is in the way, so that no two of their rendered boxes overlap.

Both work on the extents matplotlib gives for the renderer of the figure, so what they promise
is what a test can measure (``Text.get_window_extent``).
"""

from __future__ import annotations

import numpy as np
from matplotlib.path import Path
from matplotlib.transforms import Bbox

__all__ = ["CORNERS", "segments_in_box", "free_corner", "place_labels"]

#: A note's corners, as (x, y, ha, va) in axes coordinates, in order of preference.
CORNERS = ((0.02, 0.02, "left", "bottom"), (0.98, 0.02, "right", "bottom"),
           (0.98, 0.98, "right", "top"), (0.02, 0.98, "left", "top"))


def segments_in_box(p0, p1, box: Bbox) -> np.ndarray:
    """Whether each segment ``p0[i]``-``p1[i]`` (display px; a point when both are equal)
    meets ``box`` (Liang-Barsky clipping); segments with a NaN end never do."""
    p0, p1 = np.asarray(p0, dtype=float).reshape(-1, 2), np.asarray(p1, dtype=float).reshape(-1, 2)
    d = p1 - p0
    lo, hi = np.zeros(len(p0)), np.ones(len(p0))
    ok = np.isfinite(p0).all(axis=1) & np.isfinite(p1).all(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        for axis, low, high in ((0, box.x0, box.x1), (1, box.y0, box.y1)):
            for p, q in ((-d[:, axis], p0[:, axis] - low), (d[:, axis], high - p0[:, axis])):
                flat = p == 0
                ok &= ~(flat & (q < 0))
                r = q / p
                lo = np.where(~flat & (p < 0), np.maximum(lo, r), lo)
                hi = np.where(~flat & (p > 0), np.minimum(hi, r), hi)
    return ok & (lo <= hi)


def _shaded_share(box: Bbox, paths) -> float:
    """The share of ``box`` inside any of ``paths`` (display px), sampled on a 9 x 9 grid."""
    if not paths:
        return 0.0
    gx, gy = np.meshgrid(np.linspace(box.x0, box.x1, 9), np.linspace(box.y0, box.y1, 9))
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    inside = np.zeros(len(grid), dtype=bool)
    for path in paths:
        inside |= path.contains_points(grid)
    return float(inside.mean())


def free_corner(text, renderer, *, segments=None, pad=0.0, shaded=(), corners=CORNERS) -> list:
    """Put ``text`` (in axes coordinates) at the corner of ``corners`` that covers least:
    first the fewest ``segments`` (a pair of ``(n, 2)`` arrays of ends, display px) meeting
    its box grown by ``pad`` px, then the smallest share of ``shaded`` (polygons, display px),
    then the earliest corner. Returns the corners from the freest to the least free."""
    p0, p1 = segments if segments is not None else (np.zeros((0, 2)), np.zeros((0, 2)))
    paths = [Path(np.asarray(s, dtype=float)) for s in shaded if len(s) >= 3]
    scored = []
    for rank, corner in enumerate(corners):
        _put(text, corner)
        box = text.get_window_extent(renderer).padded(pad)
        scored.append(((int(segments_in_box(p0, p1, box).sum()), _shaded_share(box, paths),
                        rank), corner))
    ranked = [corner for _, corner in sorted(scored)]
    _put(text, ranked[0])
    return ranked


def _put(text, corner) -> None:
    x, y, ha, va = corner
    text.set_position((x, y))
    text.set_ha(ha)
    text.set_va(va)


def _beside(radius: float) -> list:
    """Offsets (px) and alignments for a label: on its point, then around it at two distances
    (right, left, above, below, then the diagonals), 17 places in all."""
    out = [(0.0, 0.0, "center", "center")]
    for r in (radius + 2.0, 2.2 * radius + 6.0):
        d = r / np.sqrt(2)
        out += [(r, 0.0, "left", "center"), (-r, 0.0, "right", "center"),
                (0.0, r, "center", "bottom"), (0.0, -r, "center", "top"),
                (d, d, "left", "bottom"), (-d, d, "right", "bottom"),
                (d, -d, "left", "top"), (-d, -d, "right", "top")]
    return out


def place_labels(texts, anchors, *, radius: float, renderer, inside: Bbox, to_data) -> None:
    """Put each of ``texts`` (labels of the points at ``anchors``, display px; markers of
    ``radius`` px) on its point or beside it, in the first of :func:`_beside`'s places that
    meets no label placed before it, stays ``inside`` the axes and covers no other point's
    marker; failing that, where it meets the fewest labels, then leaves the axes least, then
    covers the fewest markers. ``to_data`` maps display px to the texts' coordinates."""
    anchors = np.asarray(anchors, dtype=float).reshape(-1, 2)
    marks = [Bbox.from_extents(x - radius, y - radius, x + radius, y + radius) for x, y in anchors]
    placed = []
    for i, text in enumerate(texts):
        best = None
        for rank, (dx, dy, ha, va) in enumerate(_beside(radius)):
            text.set_ha(ha)
            text.set_va(va)
            text.set_position(to_data(anchors[i] + (dx, dy)))
            box = text.get_window_extent(renderer)
            score = (sum(box.overlaps(b) for b in placed),
                     not (inside.x0 <= box.x0 and box.x1 <= inside.x1 and inside.y0 <= box.y0
                          and box.y1 <= inside.y1),
                     sum(box.overlaps(m) for j, m in enumerate(marks) if j != i), rank)
            if best is None or score < best[0]:
                best = (score, (dx, dy, ha, va), box)
            if score[:3] == (0, False, 0):
                break
        dx, dy, ha, va = best[1]
        text.set_ha(ha)
        text.set_va(va)
        text.set_position(to_data(anchors[i] + (dx, dy)))
        placed.append(best[2])
