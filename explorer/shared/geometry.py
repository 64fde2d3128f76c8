"""Plane geometry for drawing a linear classifier in two dimensions (numpy only).

A view clips the line ``<w, x> + b = c`` to its axes box, shades the two half-planes as
polygons, and, without an offset, draws the version space: the cone of weight vectors that
classify every point correctly (each point ``x_i`` allows the half-plane ``y_i <w, x_i> > 0``).
When no line separates the classes, their convex hulls meet, and a view outlines both hulls.
"""

from __future__ import annotations

import numbers

import numpy as np

from .validation import check_int, check_positive, check_real, check_vector

__all__ = ["clip_line", "half_plane_polygon", "version_space_cone", "cone_polygon",
           "version_space_slice", "slice_exists", "convex_hull_polygon"]


def _box(box) -> tuple[float, float, float, float]:
    """``(xmin, xmax, ymin, ymax)`` as four finite floats with ``xmin < xmax``, ``ymin < ymax``."""
    try:
        vals = [float(v) for v in box]
    except (TypeError, ValueError):
        vals = None
    if (vals is None or len(vals) != 4 or not all(np.isfinite(vals))
            or not (vals[0] < vals[1] and vals[2] < vals[3])):
        raise ValueError(f"box must be (xmin, xmax, ymin, ymax), four finite numbers with "
                         f"xmin < xmax and ymin < ymax; got {box!r}")
    return tuple(vals)


def _points_2d(X, name="X") -> np.ndarray:
    P = np.asarray(X)
    if P.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold numbers; got dtype {P.dtype}")
    P = P.astype(float)
    if P.size == 0:
        return P.reshape(0, 2)
    if P.ndim != 2 or P.shape[1] < 2:
        raise ValueError(f"{name} must hold 2-D points, shape (n, 2); got shape {P.shape}")
    if not np.all(np.isfinite(P)):
        raise ValueError(f"{name} must contain only finite numbers; got NaN or infinite values")
    return P


def clip_line(w, b: float, box, *, level: float = 0.0):
    """Endpoints of ``{x : <w, x> + b = level}`` inside ``box = (xmin, xmax, ymin, ymax)``.

    Returns an array of shape (2, 2) (two points) or None when the line misses the box or
    ``w = 0``.
    """
    w = check_vector(w, name="w", length=2)
    xmin, xmax, ymin, ymax = _box(box)
    c = check_real(level, name="level") - check_real(b, name="b")
    pts = []
    if abs(w[1]) > 1e-300:
        for x in (xmin, xmax):
            yv = (c - w[0] * x) / w[1]
            if ymin - 1e-12 <= yv <= ymax + 1e-12:
                pts.append((x, yv))
    if abs(w[0]) > 1e-300:
        for yv in (ymin, ymax):
            x = (c - w[1] * yv) / w[0]
            if xmin - 1e-12 <= x <= xmax + 1e-12:
                pts.append((x, yv))
    if len(pts) < 2:
        return None
    pts = np.array(pts)
    # the two points farthest apart (corners can appear twice)
    d = np.linalg.norm(pts[:, None, :] - pts[None, :, :], axis=-1)
    i, j = np.unravel_index(np.argmax(d), d.shape)
    if d[i, j] == 0:
        return None
    return pts[[i, j]]


def half_plane_polygon(w, b: float, box, *, sign: int = 1) -> np.ndarray:
    """Vertices of ``{x in box : sign * (<w, x> + b) >= 0}`` (Sutherland–Hodgman, one edge).

    Returns shape (m, 2), possibly with m = 0 (empty).
    """
    xmin, xmax, ymin, ymax = _box(box)
    if isinstance(sign, bool) or not isinstance(sign, numbers.Real) or sign not in (1, -1):
        raise ValueError(f"sign must be +1 or -1; got {sign!r}")
    poly = np.array([[xmin, ymin], [xmax, ymin], [xmax, ymax], [xmin, ymax]], dtype=float)
    w = check_vector(w, name="w", length=2)
    val = sign * (poly @ w + check_real(b, name="b"))
    out = []
    for k in range(4):
        p, q = poly[k], poly[(k + 1) % 4]
        vp, vq = val[k], val[(k + 1) % 4]
        if vp >= 0:
            out.append(p)
        if (vp >= 0) != (vq >= 0):
            t = vp / (vp - vq)
            out.append(p + t * (q - p))
    return np.array(out).reshape(-1, 2)


def version_space_cone(X, y):
    """Directions of ``w`` (no offset, 2-D) with ``y_i <w, x_i> >= 0`` for every point.

    Returns ``(lo, hi)`` angles in radians with ``lo < hi`` (the cone is every direction
    between them, counter-clockwise), or None if no direction has ``y_i <w, x_i> > 0`` for every
    point (a cone shrunk to one ray counts as none). Points at the origin impose nothing.
    """
    X = _points_2d(X)
    y = np.asarray(y, dtype=float).reshape(-1)
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"X and y must have the same number of points; got {X.shape[0]} and "
                         f"{y.shape[0]}")
    V = X[:, :2] * y[:, None]
    V = V[np.linalg.norm(V, axis=1) > 0]
    if len(V) == 0:
        return (-np.pi, np.pi)
    theta = np.arctan2(V[:, 1], V[:, 0])
    # Each point allows the closed half-circle [theta - pi/2, theta + pi/2]. Measure all
    # angles relative to the first point's allowed interval and intersect.
    ref = theta[0]
    lo, hi = -np.pi / 2, np.pi / 2
    rel = (theta - ref + np.pi) % (2 * np.pi) - np.pi  # in [-pi, pi)
    for r in rel[1:]:
        lo = max(lo, r - np.pi / 2)
        hi = min(hi, r + np.pi / 2)
    if hi - lo <= 1e-9:  # empty, or a single ray: no w classifies every point strictly
        return None
    return (ref + lo, ref + hi)


def cone_polygon(cone, radius: float, *, points: int = 48) -> np.ndarray:
    """A polygon (apex at the origin) approximating the cone up to ``radius``; shape (m, 2)."""
    radius = check_positive(radius, name="radius")
    points = check_int(points, name="points", minimum=2, maximum=10_000)
    lo, hi = (check_real(float(v), name="cone angle") for v in cone)
    ang = np.linspace(lo, hi, points)
    arc = radius * np.column_stack([np.cos(ang), np.sin(ang)])
    return np.vstack([[0.0, 0.0], arc])


def _slice_constraints(X, y, b):
    """The slice at ``b`` as ``V w > c`` (rows ``y_i x_i``, ``c_i = -y_i b``), points at the
    origin left out; None when such a point already fails (``y_i b <= 0``)."""
    X = _points_2d(X)
    y = np.asarray(y, dtype=float).reshape(-1)
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"X and y must have the same number of points; got {X.shape[0]} and "
                         f"{y.shape[0]}")
    b = check_real(b, name="b")
    V, c = X[:, :2] * y[:, None], -y * b
    zero = ~V.any(axis=1)
    if np.any(zero & (c >= 0)):
        return None
    return V[~zero], c[~zero]


def version_space_slice(X, y, b: float, box) -> np.ndarray:
    """The version space with an offset, sliced at ``b`` and clipped to ``box``.

    With an offset the version space lives in ``(w1, w2, b)``: the ``(w, b)`` with
    ``y_i (<w, x_i> + b) > 0`` for every point (each point allows an open half-space through
    the origin; the update adds ``eta y_i (x_i, 1)``, its inward normal, Sayed eq. (60.26)).
    With ``b`` held fixed the slice is ``{w : <y_i x_i, w> > -y_i b}``, an intersection of
    half-planes: a convex polygon, possibly unbounded or empty.

    Returns
    -------
    ndarray of shape (m, 2)
        Vertices (counter-clockwise) of the slice's closure inside ``box = (xmin, xmax, ymin,
        ymax)``, or shape (0, 2) when it has no interior there: the slice may still be non-empty
        outside the box (see :func:`slice_exists`).
    """
    xmin, xmax, ymin, ymax = _box(box)
    rows = _slice_constraints(X, y, b)
    empty = np.zeros((0, 2))
    if rows is None:
        return empty
    V, c = rows
    poly = np.array([[xmin, ymin], [xmax, ymin], [xmax, ymax], [xmin, ymax]], dtype=float)
    vals = poly @ V.T - c  # (4, n): each corner against each constraint
    if np.any((vals < 0).all(axis=0)):
        return empty  # one point's half-plane misses the box
    cuts = ~(vals >= 0).all(axis=0)  # the others hold at every corner: nothing to clip
    for a, ci in zip(V[cuts], c[cuts], strict=True):
        val = poly @ a - ci
        keep = val >= 0
        if keep.all():
            continue
        nxt = np.roll(poly, -1, axis=0)
        vn = np.roll(val, -1)
        out = []
        for p, q, vp, vq, kp in zip(poly, nxt, val, vn, keep, strict=True):
            if kp:
                out.append(p)
            if kp != (vq >= 0):
                out.append(p + vp / (vp - vq) * (q - p))
        if len(out) < 3:
            return empty
        poly = np.array(out)
    x, yv = poly[:, 0], poly[:, 1]
    area = 0.5 * abs(np.dot(x, np.roll(yv, -1)) - np.dot(yv, np.roll(x, -1)))
    return poly if area > 1e-12 * (xmax - xmin) * (ymax - ymin) else empty


def slice_exists(X, y, b: float) -> bool:
    """Whether any ``w`` at all has ``y_i (<w, x_i> + b) > 0`` for every point.

    The version space with an offset is a cone in ``(w, b)``, so its slices at every ``b > 0``
    are scaled copies of the one at ``b = 1`` (and likewise for ``b < 0``): one linear program
    per sign answers for every ``b``, maximising the normalised margin ``s <= 1`` of
    ``y_i (<w, x_i> + sign(b)) >= s ||(x_i, 1)||``; the slice is non-empty iff ``s > 0``
    (above 1e-9). At ``b = 0`` the slice is the cone of :func:`version_space_cone`.
    """
    rows = _slice_constraints(X, y, b)
    if rows is None:
        return False
    V, c = rows
    if len(V) == 0:
        return True
    if float(b) == 0.0:
        return version_space_cone(V, np.ones(len(V))) is not None
    from scipy.optimize import linprog

    unit = c / abs(float(b))  # the slice at b = +-1: <v_i, w> > -y_i sign(b)
    norms = np.sqrt(np.einsum("ij,ij->i", V, V) + 1.0)
    A = np.column_stack([-V, norms])  # -<v_i, w> + s n_i <= -unit_i
    res = linprog([0.0, 0.0, -1.0], A_ub=A, b_ub=-unit, bounds=[(None, None), (None, None),
                                                                (None, 1.0)], method="highs")
    return bool(res.status == 0 and -res.fun > 1e-9)


def _segment_ends(P: np.ndarray, centred: np.ndarray) -> np.ndarray:
    """The two extreme points of nearly collinear points along their main direction."""
    direction = np.linalg.svd(centred, full_matrices=False)[2][0]
    t = centred @ direction
    return P[[int(np.argmin(t)), int(np.argmax(t))]].copy()


def convex_hull_polygon(X, *, tol: float = 1e-12) -> np.ndarray:
    """Vertices of the convex hull of 2-D points, counter-clockwise, shape (m, 2).

    Degenerate sets keep their true shape: one distinct point gives ``m = 1`` (the point), and
    two distinct points or collinear points give ``m = 2`` (the two ends of the segment), so a
    view can draw a point or a segment where :class:`scipy.spatial.ConvexHull` would fail.
    Otherwise the hull comes from ``scipy.spatial.ConvexHull`` (Qhull). Only the first two
    columns of ``X`` are used. An empty ``X`` gives shape (0, 2).
    """
    P = _points_2d(X)
    if P.size == 0:
        return np.zeros((0, 2))
    P = np.unique(P.reshape(len(P), -1)[:, :2], axis=0)
    if len(P) == 1:
        return P.copy()
    centred = P - P.mean(axis=0)
    sv = np.linalg.svd(centred / float(np.abs(centred).max()), compute_uv=False)
    if len(P) == 2 or sv[1] <= tol * len(P) * sv[0]:
        return _segment_ends(P, centred)
    from scipy.spatial import ConvexHull, QhullError

    try:
        hull = ConvexHull(P)
    except QhullError:  # pragma: no cover - nearly collinear beyond the rank test
        return _segment_ends(P, centred)
    return P[hull.vertices].copy()  # Qhull lists 2-D hull vertices counter-clockwise
