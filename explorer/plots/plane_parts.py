"""The data plane's moving parts, described once (:func:`parts`) and drawn by matplotlib
(:func:`apply`) or by the page (the :func:`tracks` of a :class:`~explorer.plots.scene.Scene`).

Per step: the half-plane shading, the boundary now and before, the margin band, the pocket or
averaged line and its legend text, the normal ``w`` and its label, the update arrow and its
label, the rings on the visited points and, in "you choose" mode, on the points still failing.
The points, their numbers, the hulls and the legend are laid out per run (still layers).
"""

from __future__ import annotations

import numpy as np

from ..perceptron.replay import StepFrame
from ..shared.geometry import clip_line, half_plane_polygon
from . import style as S
from . import tracks as T
from .overlays import kept_label, label_beside
from .scene import FIGURE, Track

PANEL = "plane"
#: Rings on the visited points: (colour, width in points) of a visit, and of one that updates.
RINGS = ((S.PICKED, 2.4), (S.TRIGGER, 3.6))


def set_rings(rings, part: dict) -> None:
    """Move a collection of rings to a part ``{"xy", "c"}``: each ring's colour and width by
    its code in :data:`RINGS` (the point visited; the one that triggered an update)."""
    pts = part["xy"]
    rings.set_offsets(pts)
    if len(pts):
        rings.set_edgecolors([RINGS[c][0] for c in part["c"]])
        rings.set_linewidths([RINGS[c][1] for c in part["c"]])
_LINES = ("line", "ghost", "band_hi", "band_lo", "kept_line")


def tracks(plane, pt: float) -> list:
    """The plane's tracks (styles in CSS px, ``pt`` CSS px per point); layers are set by the
    figure from the z order."""
    out = []
    for name in ("shade_pos", "shade_neg"):
        art = getattr(plane, name)
        out.append(Track(name, PANEL, "polygon", z=art.get_zorder(),
                         style=T.polygon_style(art, pt)))
    for name in _LINES:
        art = getattr(plane, name)
        out.append(Track(name, PANEL, "polyline", z=art.get_zorder(),
                         style=T.line_style(art, pt)))
    for name in ("normal", "update"):
        art = getattr(plane, name)
        out.append(Track(name, PANEL, "arrow", z=art.get_zorder(), style=T.arrow_style(art, pt)))
    for name in ("normal_text", "update_text"):
        art = getattr(plane, name)
        out.append(Track(name, PANEL, "text", z=art.get_zorder(), style=T.text_style(art, pt)))
    if plane.moving:  # data of more than two features: the points move with the step's plane
        for name, marker in (("pos", S.POS_MARKER), ("neg", S.NEG_MARKER)):
            art = getattr(plane, name)
            out.append(Track(name, PANEL, "points", z=art.get_zorder(),
                             style=T.points_style(art, pt, marker=marker)))
    out.append(Track("picked", PANEL, "points", z=plane.picked.get_zorder(),
                     style=T.points_style(plane.picked, pt, rings=RINGS)))
    out.append(Track("failing", PANEL, "points", z=plane.failing.get_zorder(),
                     style=T.points_style(plane.failing, pt)))
    if plane.kept_text is not None:
        out.append(Track("kept_text", FIGURE, "text", z=plane.legend.get_zorder(),
                         style=T.text_style(plane.kept_text, pt)))
    return out


def artists(plane) -> dict:
    """Track name -> the matplotlib artist that draws it."""
    out = {name: getattr(plane, name) for name in ("shade_pos", "shade_neg", *_LINES, "normal",
                                                   "update", "normal_text", "update_text",
                                                   "picked", "failing")}
    if plane.kept_text is not None:
        out["kept_text"] = plane.kept_text
    if plane.moving:
        out["pos"], out["neg"] = plane.pos, plane.neg
    return out


def _seg(w, b, box, level: float = 0.0) -> np.ndarray:
    return T.segment(clip_line(w, b, box, level=level) if np.any(w) else None)


def _shading(w, b, box):
    if np.any(w):
        pos = half_plane_polygon(w, b, box, sign=1)
        neg = half_plane_polygon(w, b, box, sign=-1)
        return (pos if len(pos) >= 3 else T.EMPTY), (neg if len(neg) >= 3 else T.EMPTY)
    # f(x) = b everywhere: the whole plane gets one label (+1 when b >= 0)
    xmin, xmax, ymin, ymax = box
    full = np.array([[xmin, ymin], [xmax, ymin], [xmax, ymax], [xmin, ymax]], dtype=float)
    return (full, T.EMPTY) if b >= 0 else (T.EMPTY, full)


def _normal(w, b, box):
    """The normal ``w`` drawn from the boundary point nearest the view's centre, of a fixed
    length, and its label's position; NaN when ``w = 0`` or that point is outside the view."""
    norm = float(np.linalg.norm(w))
    if norm == 0:
        return T.NAN_SEG.copy(), T.NAN2.copy()
    xmin, xmax, ymin, ymax = box
    c = np.array([(xmin + xmax) / 2, (ymin + ymax) / 2])
    u = w / norm
    anchor = c - (c @ w + b) / norm * u
    tip = anchor + 0.16 * (xmax - xmin) * u
    if not (xmin <= anchor[0] <= xmax and ymin <= anchor[1] <= ymax):
        return T.NAN_SEG.copy(), T.NAN2.copy()
    return np.array([anchor, tip]), tip + 0.03 * (xmax - xmin) * u


def parts(plane, f: StepFrame, *, band=None, hand=None, coords=None, origin=(0.0, 0.0)) -> dict:
    """The plane's parts at frame ``f`` (numpy only): ``band`` and ``hand`` default to the
    run's, as laid out by :meth:`DataPlane.set_overlays`. ``coords``: the points where this
    step draws them (data of more than two features, :mod:`explorer.plots.plane_of_w`; ``f``
    then gives its vectors in the same plane, and ``origin`` says where the origin is, from
    which the update arrow starts); by default where :meth:`DataPlane.set_data` put them."""
    band = plane.band if band is None else band
    hand = plane.hand if hand is None else hand
    box = plane.box
    w, b = np.asarray(f.w, dtype=float)[:2], float(f.b)
    line = _seg(w, b, box)
    moved = f.k > 0 and (not np.array_equal(f.w_prev, f.w) or f.b_prev != f.b)
    ghost = _seg(np.asarray(f.w_prev, dtype=float)[:2], float(f.b_prev), box) if moved \
        else T.NAN_SEG.copy()
    pos, neg = _shading(w, b, box)
    normal, label_at = _normal(w, b, box)
    out = {
        "shade_pos": {"xy": pos}, "shade_neg": {"xy": neg},
        "line": {"xy": line}, "ghost": {"xy": ghost},
        "band_hi": {"xy": _seg(w, b, box, band) if band else T.NAN_SEG.copy()},
        "band_lo": {"xy": _seg(w, b, box, -band) if band else T.NAN_SEG.copy()},
        "normal": {"xy": normal},
        "normal_text": {"xy": label_at, "text": "w", "ha": "left", "va": "baseline"},
    }
    X = plane.X if coords is None else np.asarray(coords, dtype=float)
    if plane.moving:
        out["pos"], out["neg"] = {"xy": X[plane.y > 0]}, {"xy": X[plane.y < 0]}
    picked = list(f.picked)
    out["picked"] = {"xy": X[picked] if picked else T.EMPTY,
                     "c": np.array([1 if i in f.triggered else 0 for i in picked], dtype=np.uint8)}
    out["failing"] = {"xy": X[list(f.failing)] if hand and f.failing else T.EMPTY}
    kept = f.kept_kind is not None and f.kept_w is not None
    out["kept_line"] = {"xy": _seg(np.asarray(f.kept_w)[:2], float(f.kept_b), box) if kept
                        else T.NAN_SEG.copy()}
    if plane.kept_text is not None:
        text = kept_label(f.kept_kind if kept else plane.kept_kind,
                          f.kept_errors if kept else None, plane.n)
        out["kept_text"] = {"xy": np.asarray(plane.kept_anchor, dtype=float), "text": text,
                            "ha": "left", "va": "baseline"}
    out["update"], out["update_text"] = _update(plane, f, box, line, ghost, normal,
                                                np.asarray(origin, dtype=float))
    return out


def _update(plane, f: StepFrame, box, line, ghost, normal, origin):
    """The update arrow ``origin -> origin + update`` and its label, placed clear of what is
    drawn."""
    if not (f.updated and f.update_vector is not None and np.any(f.update_vector[:2])):
        return {"xy": T.NAN_SEG.copy()}, T.hidden_text()
    u = np.asarray(f.update_vector, dtype=float)[:2]
    avoid = [tuple(map(tuple, s)) for s in (line, ghost, normal) if np.isfinite(s).all()]
    avoid += plane.hull_segments
    avoid += [(p, p) for p in plane.spots]  # the points and their numbers
    text = plane.update_label
    at, ha, va = label_beside(tuple(origin), u, box, avoid=avoid, half=plane.text_half(text))
    return ({"xy": np.array([origin, origin + u])},
            {"xy": np.asarray(at, dtype=float), "text": text, "ha": ha, "va": va})


def apply(plane, p: dict) -> None:
    """Move the plane's artists to the parts ``p`` (matplotlib draws the description)."""
    for name in _LINES:
        T.set_polyline(getattr(plane, name), p[name]["xy"])
    T.set_polygon(plane.shade_pos, p["shade_pos"]["xy"])
    T.set_polygon(plane.shade_neg, p["shade_neg"]["xy"])
    T.set_arrow(plane.normal, p["normal"]["xy"])
    T.set_text(plane.normal_text, p["normal_text"])
    set_rings(plane.picked, p["picked"])
    plane.failing.set_offsets(p["failing"]["xy"])
    if "pos" in p:
        plane.pos.set_offsets(p["pos"]["xy"])
        plane.neg.set_offsets(p["neg"]["xy"])
    if "kept_text" in p:  # placed by its legend
        plane.kept_text.set_text(p["kept_text"]["text"])
    T.set_arrow(plane.update, p["update"]["xy"])
    T.set_text(plane.update_text, p["update_text"])
