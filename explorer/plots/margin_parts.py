"""The Margins figure's moving parts, described once and drawn by matplotlib or by the page.

Two kinds of parts (see :mod:`explorer.plots.scene` for tracks and chunks):

* what moves with the SGD step (:func:`step_parts`): the iterate of the subgradient rule
  ``svm_sgd`` (Sayed (61.22)) as its line ``f(x) = 0`` in the SVM's plane, and the objective
  panel's cursor and dot at Sayed's (61.13) after step ``k``; sent per step in chunks;
* what an edit of the data moves (:func:`plane_parts`, the same at every step of a run): the
  points, the SVM's line, its band ``f(x) = ±1`` and its grey slab, the support vectors' rings
  (area growing with ``alpha_i``), the slack segments (length ``s_i / ||w||``, Sayed (61.12))
  and the point numbers; sent once with the scene, and again while a point is added, removed
  or dragged (the page draws the new solution at once; the rest of the figure follows when the
  edit is finished).

Everything else (axes, legends, the perceptron's line and band, the SGD's limit, the side
panels) is laid out per run and size and drawn by matplotlib as still layers.
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_hex

from ..shared.geometry import clip_line
from . import style as S
from . import tracks as T
from .scene import Track

#: Edit parts of a plane, in the order they are drawn (their artists' z order decides).
EDIT = ("slab", "band_hi", "band_lo", "pos", "neg", "slacks", "slack_ends", "rings", "line")
#: What a plane showing only the perceptron's line moves with the data.
PERCEPTRON_EDIT = ("pos", "neg")


def ring_sizes(alpha, top: float) -> np.ndarray:
    """Marker areas (points²) of the support-vector rings: growing with ``alpha / top``."""
    alpha = np.asarray(alpha, dtype=float)
    return S.POINT_SIZE * (1.8 + 4.2 * np.clip(alpha / top, 0.0, 1.0))


def slab_polygon(w, b, box, lo: float, hi: float) -> np.ndarray:
    """The part of ``box`` where ``lo <= <w, x> + b <= hi`` (clip the box against two lines);
    a single vertex (nothing drawn) when that part is empty."""
    xmin, xmax, ymin, ymax = box
    poly = np.array([[xmin, ymin], [xmax, ymin], [xmax, ymax], [xmin, ymax]], dtype=float)
    for sign, level in ((1.0, lo), (-1.0, -hi)):  # keep sign * (f - level) >= 0
        if len(poly) == 0:
            break
        val = sign * (poly @ w + b) - level
        out = []
        for k in range(len(poly)):
            p, q, vp, vq = poly[k], poly[(k + 1) % len(poly)], val[k], val[(k + 1) % len(poly)]
            if vp >= 0:
                out.append(p)
            if (vp >= 0) != (vq >= 0):
                out.append(p + vp / (vp - vq) * (q - p))
        poly = np.array(out).reshape(-1, 2)
    return poly if len(poly) >= 3 else np.zeros((1, 2))


def _seg(w, b, box, level: float = 0.0) -> np.ndarray:
    w = np.asarray(w, dtype=float)
    return T.segment(clip_line(w, float(b), box, level=level) if np.any(w) else None)


# ---------------------------------------------------------------------- edits of the data
def edit_names(plane) -> tuple:
    return PERCEPTRON_EDIT if plane.parts == "perceptron" else EDIT


def plane_tracks(plane, panel: str, pt: float) -> list:
    """The tracks of a plane's edit parts and point numbers, named ``"<panel>_<part>"``."""
    out = []
    for name in edit_names(plane):
        art = getattr(plane, name)
        z, track = art.get_zorder(), f"{panel}_{name}"
        if name == "slab":
            out.append(Track(track, panel, "polygon", z=z, style=T.polygon_style(art, pt)))
        elif name in ("pos", "neg"):
            style = T.points_style(art, pt, marker=S.POS_MARKER if name == "pos" else S.NEG_MARKER)
            style["colors"] = [style["fill"]]  # filled, with the white edge of the artist
            out.append(Track(track, panel, "points", z=z, style=style))
        elif name == "rings":
            out.append(Track(track, panel, "points", z=z, style=T.points_style(art, pt)))
        elif name == "slacks":
            style = {"color": to_hex(art.get_edgecolor()[0]) if len(art.get_edgecolor())
                     else to_hex(S.TRIGGER), "alpha": 1.0,
                     "width": round(float(art.get_linewidths()[0]) * pt, 3)}
            out.append(Track(track, panel, "polyline", z=z, style=style))
        elif name == "slack_ends":
            out.append(Track(track, panel, "points", z=z, style=T.marker_style(art, pt)))
        else:
            out.append(Track(track, panel, "polyline", z=z, style=T.line_style(art, pt)))
    for i, text in enumerate(plane.labels):
        out.append(Track(f"{panel}_number{i}", panel, "text", z=text.get_zorder(),
                         style=T.text_style(text, pt)))
    return out


def plane_artists(plane, panel: str) -> dict:
    """Track name -> the matplotlib artist that draws it."""
    out = {f"{panel}_{name}": getattr(plane, name) for name in edit_names(plane)}
    out.update({f"{panel}_number{i}": t for i, t in enumerate(plane.labels)})
    return out


def plane_parts(plane, X, y, cmp, *, pt: float) -> dict:
    """A plane's edit parts for data ``(X, y)`` and their comparison ``cmp`` (numpy only;
    ``pt`` CSS px per point sizes the rings). Unprefixed names (:data:`EDIT`)."""
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    out = {}
    for name, pts in (("pos", X[y > 0]), ("neg", X[y < 0])):
        out[name] = {"xy": pts.reshape(-1, 2), "c": np.zeros(len(pts), dtype=np.uint8)}
    if plane.parts == "perceptron":
        return out
    box, fit = plane.box, cmp.svm
    if fit is not None:
        w, b = np.asarray(fit.w, dtype=float), float(fit.b)
        out["line"] = {"xy": _seg(w, b, box)}
        out["band_hi"] = {"xy": _seg(w, b, box, 1.0)}
        out["band_lo"] = {"xy": _seg(w, b, box, -1.0)}
        out["slab"] = {"xy": slab_polygon(w, b, box, -1.0, 1.0) if np.any(w) else np.zeros((1, 2))}
        sv = np.asarray(fit.support, dtype=int)
        alpha = np.asarray(fit.alpha, dtype=float)[sv]
        top = float(alpha.max()) if alpha.size and alpha.max() > 0 else 1.0
        out["rings"] = {"xy": X[sv].reshape(-1, 2),
                        "s": np.sqrt(ring_sizes(alpha, top)) * pt}  # diameters, CSS px
    else:
        for name in ("line", "band_hi", "band_lo"):
            out[name] = {"xy": T.NAN_SEG.copy()}
        out["slab"] = {"xy": np.zeros((1, 2))}
        out["rings"] = {"xy": T.EMPTY, "s": np.zeros(0)}
    # slack segments (soft margin), one polyline broken by NaN rows
    if len(cmp.slack_index):
        start, end = np.asarray(cmp.slack_start, float), np.asarray(cmp.slack_end, float)
        gap = np.full_like(start, np.nan)
        out["slacks"] = {"xy": np.stack([start, end, gap], axis=1).reshape(-1, 2)[:-1]}
        out["slack_ends"] = {"xy": end.reshape(-1, 2)}
    else:
        out["slacks"] = {"xy": T.NAN_SEG.copy()}
        out["slack_ends"] = {"xy": T.EMPTY}
    return out


def apply_plane(plane, p: dict, *, pt: float) -> None:
    """Move a plane's edit artists to the parts ``p`` (matplotlib draws the description)."""
    plane.pos.set_offsets(p["pos"]["xy"])
    plane.neg.set_offsets(p["neg"]["xy"])
    if plane.parts == "perceptron":
        return
    for name in ("line", "band_hi", "band_lo"):
        T.set_polyline(getattr(plane, name), p[name]["xy"])
    plane.slab.set_xy(p["slab"]["xy"])
    plane.rings.set_offsets(p["rings"]["xy"])
    plane.rings.set_sizes((np.asarray(p["rings"]["s"], dtype=float) / pt) ** 2)
    xy = np.asarray(p["slacks"]["xy"], dtype=float)
    segs = [xy[i:i + 2] for i in range(0, len(xy), 3) if np.isfinite(xy[i:i + 2]).all()]
    plane.slacks.set_segments(segs)
    T.set_polyline(plane.slack_ends, p["slack_ends"]["xy"])


def number_parts(plane, *, hidden: bool = False) -> dict:
    """The point numbers as texts at their anchor (the point) moved by their offset in points
    (converted to data units with the axes' size), or hidden (an edit waiting for its layout)."""
    out = {}
    if not plane.labels:
        return out
    ax = plane.ax
    fig = ax.figure
    ax.apply_aspect()
    pos = ax.get_position()
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    per_pt = fig.dpi / 72.0  # display px a point
    sx = per_pt * (x1 - x0) / (pos.width * fig.bbox.width)
    sy = per_pt * (y1 - y0) / (pos.height * fig.bbox.height)
    for i, t in enumerate(plane.labels):
        if hidden:
            out[f"number{i}"] = T.hidden_text()
            continue
        (ax_, ay_), (ox, oy) = t.xy, t.xyann
        out[f"number{i}"] = {"xy": np.array([ax_ + ox * sx, ay_ + oy * sy]),
                             "text": t.get_text(), "ha": t.get_horizontalalignment(),
                             "va": t.get_verticalalignment()}
    return out


def apply_numbers(plane, p: dict) -> None:
    """Show or hide the point numbers as the parts say (their places are the layout's)."""
    for i, t in enumerate(plane.labels):
        t.set_visible(bool(np.isfinite(np.asarray(p[f"number{i}"]["xy"], float)).all()))


# ---------------------------------------------------------------------- the SGD step
def step_tracks(figure, pt: float) -> list:
    """The SGD iterate's line in the SVM's plane, the objective's cursor and dot."""
    sgd, obj = figure.plane.sgd, figure.objective
    return [Track("sgd", "plane", "polyline", z=sgd.get_zorder(), style=T.line_style(sgd, pt)),
            Track("cursor", "objective", "vline", z=obj.cursor.get_zorder(),
                  style=T.vline_style(obj.cursor, pt)),
            Track("dot", "objective", "points", z=obj.dot.get_zorder(),
                  style=T.marker_style(obj.dot, pt))]


def step_artists(figure) -> dict:
    return {"sgd": figure.plane.sgd, "cursor": figure.objective.cursor,
            "dot": figure.objective.dot}


def step_parts(figure, k: int) -> dict:
    """The parts at SGD step ``k`` in data coordinates (the dot's value is the objective's,
    not its logarithm; the figure maps it for a log axis)."""
    sgd = figure.sgd
    if sgd is None:
        return {"sgd": {"xy": T.NAN_SEG.copy()}, "cursor": {"x": np.array(np.nan)},
                "dot": {"xy": T.EMPTY}}
    w, b = sgd.traj.state(k)
    value = sgd.objective_at(k)
    view = figure.plane.view  # more than two features: where the iterate cuts the plane of w
    w, b = view.hyperplane(w, b) if view is not None else (np.asarray(w, dtype=float), float(b))
    line = T.NAN_SEG.copy() if figure.plane.parts == "perceptron" else \
        _seg(w, b, figure.plane.box)
    return {"sgd": {"xy": line}, "cursor": {"x": np.array(float(k))},
            "dot": {"xy": np.array([[float(k), value]])}}
