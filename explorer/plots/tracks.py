"""Moving parts as tracks (see :mod:`explorer.plots.scene`): their styles in CSS px read from
matplotlib artists, one step's parts applied back to those artists, and steps stacked into a
chunk's arrays.

A panel describes step ``k`` as ``parts(f) -> {track name: {array name: value}}`` with the
arrays of one step (no step axis). Text tracks carry the string itself (``"text"``) and the
alignment names (``"ha"``, ``"va"``); :func:`stack` turns them into indices into the chunk's
string table and :data:`~explorer.plots.scene.HA`/:data:`~explorer.plots.scene.VA` codes.

Style values, all in CSS px (``pt`` below is CSS px per point, :func:`px_per_pt`):

* ``color``, ``fill``, ``hatch_color``: "#RRGGBB"; ``alpha``, ``fill_alpha``, ``hatch_alpha``
  in 0..1; ``fill`` "none" for rings;
* ``width``: line width (for a ``points`` track with ``colors``, a list: one width a colour);
* ``dash``: dash lengths (on, off, ...) or absent for a solid line;
* ``hatch``: "/" (rising lines) or "\\" (falling); ``hatch_gap``: horizontal distance
  between neighbouring hatch lines; ``hatch_width``: their width (matplotlib's
  ``hatch.linewidth``);
* ``size``: a marker's diameter; ``marker``: "o" (circle), "s" (square), "D" (diamond);
* ``font``: type size in CSS px; ``weight``: "normal" or "bold"; ``box``: a text's
  background ``{"color", "alpha", "pad"}``;
* ``head``: an arrow head's length, ``size`` (on an arrow) its full width; on a ``prefix``
  track with a ``head``, every segment of the drawn polyline (two consecutive vertices, NaN
  rows break it) is an arrow with its head at the later vertex (none when both are equal),
  and ``width`` is the shaft's width (matplotlib's quiver scales an arrow shorter than its
  head down as a whole).
"""

from __future__ import annotations

import numpy as np
from matplotlib import colors as mcolors
from matplotlib import rcParams
from matplotlib.hatch import get_path as hatch_path

from . import mpl_adapter as mpl
from .scene import ARRAYS, HA, VA

NAN2 = np.full(2, np.nan)
NAN_SEG = np.full((2, 2), np.nan)
EMPTY = np.zeros((0, 2))
HA_CODE = {name: i for i, name in enumerate(HA)}
VA_CODE = {name: i for i, name in enumerate(VA)}


def css_dpi(fig) -> float:
    """CSS px per inch of a figure: its dpi without the device pixel ratio (see
    :func:`explorer.plots.live.resize`)."""
    return mpl.css_dpi(fig)


def figure_renderer(fig):
    """The renderer that lays ``fig`` out at its dpi (its canvas's, or matplotlib's own for a
    canvas without one), for measuring text and legends."""
    return mpl.renderer(fig)


def px_per_pt(fig) -> float:
    """CSS px per typographic point (matplotlib sizes lines, markers and type in points)."""
    return css_dpi(fig) / 72.0


# ---------------------------------------------------------------------- styles
def hex_alpha(color, alpha=None) -> tuple[str, float]:
    """``("#RRGGBB", alpha)`` of a matplotlib colour; ``alpha`` (an artist's) multiplies."""
    rgba = mcolors.to_rgba(color)
    a = rgba[3] * (1.0 if alpha is None else float(alpha))
    return mcolors.to_hex(rgba, keep_alpha=False), round(float(a), 4)


def _dash(pattern, pt: float):
    offset, seq = pattern
    return None if not seq else [round(float(v) * pt, 3) for v in seq]


def line_style(line, pt: float) -> dict:
    """Colour, opacity, width and dashes of a ``Line2D``."""
    color, alpha = hex_alpha(line.get_color(), line.get_alpha())
    out = {"color": color, "alpha": alpha, "width": round(line.get_linewidth() * pt, 3)}
    dash = _dash(mpl.dash_pattern(line), pt)  # scaled by the line width, in points
    if dash:
        out["dash"] = dash
    return out


def hatch_gap(hatch: str, pt: float) -> float:
    """Horizontal distance in CSS px between neighbouring lines of a matplotlib hatch (its
    pattern tiles squares of 72 points)."""
    verts = hatch_path(hatch).vertices  # in a unit square (one inch = 72 pt)
    rising = "/" in hatch
    starts = verts[::2]
    ends = verts[1::2]
    slope_ok = (ends[:, 1] - starts[:, 1]) * (ends[:, 0] - starts[:, 0]) * (1 if rising else -1) > 0
    icept = np.unique(np.round((starts[:, 1] - (1 if rising else -1) * starts[:, 0])[slope_ok], 9))
    step = float(np.min(np.diff(icept))) if len(icept) > 1 else 1.0
    return round(step * 72 * pt, 3)


def polygon_style(patch, pt: float) -> dict:
    """Fill and hatching of a ``Polygon`` (the hatch takes the edge colour)."""
    fill, fill_alpha = hex_alpha(patch.get_facecolor())
    out = {"fill": fill, "fill_alpha": fill_alpha, "width": round(patch.get_linewidth() * pt, 3)}
    if patch.get_linewidth() > 0:
        out["color"], out["alpha"] = hex_alpha(patch.get_edgecolor())
    hatch = patch.get_hatch()
    if hatch:
        out["hatch"] = "/" if "/" in hatch else "\\"
        out["hatch_gap"] = hatch_gap(hatch, pt)
        out["hatch_color"], out["hatch_alpha"] = hex_alpha(patch.get_edgecolor())
        out["hatch_width"] = round(float(rcParams["hatch.linewidth"]) * pt, 3)
    return out


def arrow_style(arrow, pt: float) -> dict:
    """A ``FancyArrowPatch`` with a "-|>" head: colour, shaft width, head length."""
    color, alpha = hex_alpha(arrow.get_edgecolor())
    style = arrow.get_arrowstyle()
    head = style.head_length * arrow.get_mutation_scale()  # points
    wide = 2 * style.head_width * arrow.get_mutation_scale()  # both barbs
    return {"color": color, "alpha": alpha, "width": round(arrow.get_linewidth() * pt, 3),
            "head": round(head * pt, 3), "size": round(wide * pt, 3)}


def text_style(text, pt: float) -> dict:
    """Colour, size (CSS px), weight and background box of a ``Text``."""
    color, alpha = hex_alpha(text.get_color(), text.get_alpha())
    weight = text.get_fontweight()
    bold = weight == "bold" or (isinstance(weight, (int, float)) and weight >= 600)
    out = {"color": color, "alpha": alpha, "font": round(text.get_fontsize() * pt, 3),
           "weight": "bold" if bold else "normal"}
    box = text.get_bbox_patch()
    if box is not None:
        fill, a = hex_alpha(box.get_facecolor())
        pad = box.get_boxstyle().pad * text.get_fontsize()  # the box pads by a share of the size
        out["box"] = {"color": fill, "alpha": a, "pad": round(pad * pt, 3)}
    return out


def text_lines(text, *, height: float) -> list:
    """``[(line, (x, y)), ...]``: each line of a ``Text`` that matplotlib has laid out (drawn
    at the figure's dpi) and the left end of its baseline, where matplotlib draws it, in CSS px
    from the top left of a figure ``height`` CSS px high: one text track a line (``ha`` "left",
    ``va`` "baseline") draws it as matplotlib does, whatever the page's line spacing."""
    fig = text.get_figure(root=True)
    info = mpl.line_offsets(text, figure_renderer(fig))
    x0, y0 = text.get_transform().transform(text.get_unitless_position())
    css = css_dpi(fig) / fig.dpi
    return [(line, np.array([(x0 + x) * css, height - (y0 + y) * css]))
            for line, (x, y) in info]


def points_style(coll, pt: float, *, marker: str = "o", rings=None) -> dict:
    """Markers of a scatter (made with ``marker``): diameter, shape, fill (or "none"), edge
    colour and width, dashes. ``rings``: ``((colour, width in points), ...)`` that the
    per-point codes ``c`` pick."""
    size = float(np.sqrt(coll.get_sizes()[0])) if len(coll.get_sizes()) else 6.0
    out = {"marker": marker, "size": round(size * pt, 3)}
    face = coll.get_facecolor()
    if len(face) == 0 or face[0][3] == 0:
        out["fill"] = "none"
    else:
        out["fill"], out["fill_alpha"] = hex_alpha(face[0])
    edge = coll.get_edgecolor()
    if len(edge) and edge[0][3] > 0:
        out["color"], out["alpha"] = hex_alpha(edge[0])
    elif "fill" in out and out["fill"] != "none":
        out["color"], out["alpha"] = out["fill"], out.get("fill_alpha", 1.0)
    widths = coll.get_linewidths()
    out["width"] = round(float(widths[0] if len(widths) else 0.0) * pt, 3)
    styles = coll.get_linestyle()
    dash = _dash(styles[0], pt) if styles else None
    if dash:
        out["dash"] = dash
    if rings is not None:
        out["colors"] = [mcolors.to_hex(c) for c, _ in rings]
        out["width"] = [round(w * pt, 3) for _, w in rings]
    return out


def marker_style(line, pt: float) -> dict:
    """The markers of a ``Line2D`` (drawn as a ``points`` track)."""
    face, fa = hex_alpha(line.get_markerfacecolor())
    edge, ea = hex_alpha(line.get_markeredgecolor())
    return {"marker": line.get_marker(), "size": round(line.get_markersize() * pt, 3),
            "fill": face, "fill_alpha": fa, "color": edge, "alpha": ea,
            "width": round(line.get_markeredgewidth() * pt, 3)}


def vline_style(line, pt: float) -> dict:
    return line_style(line, pt)


def hatch_line_width(pt: float) -> float:
    """Width of matplotlib's hatch lines in CSS px (``hatch.linewidth``, points)."""
    return round(float(rcParams["hatch.linewidth"]) * pt, 3)


# ---------------------------------------------------------------------- one step's parts
def segment(seg) -> np.ndarray:
    """A (2, 2) segment, or NaN rows when there is none."""
    return NAN_SEG.copy() if seg is None else np.asarray(seg, dtype=float).reshape(2, 2)


def hidden_text(ha: str = "left", va: str = "baseline") -> dict:
    return {"xy": NAN2.copy(), "text": "", "ha": ha, "va": va}


def finite_rows(xy) -> np.ndarray:
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    return xy[np.isfinite(xy).all(axis=1)]


def set_polyline(line, xy) -> None:
    """A ``Line2D`` through the finite vertices of ``xy`` (nothing when none is finite)."""
    pts = finite_rows(xy)
    line.set_data(pts[:, 0], pts[:, 1])


def set_polygon(patch, xy) -> None:
    """A ``Polygon`` through ``xy``, hidden when it has fewer than 3 finite vertices."""
    pts = finite_rows(xy)
    if len(pts) >= 3:
        patch.set_xy(pts)
    patch.set_visible(len(pts) >= 3)


def set_arrow(arrow, xy) -> None:
    """A ``FancyArrowPatch`` from ``xy[0]`` to ``xy[1]``, hidden when they are NaN."""
    xy = np.asarray(xy, dtype=float)
    ok = bool(np.isfinite(xy).all())
    if ok:
        arrow.set_positions(tuple(xy[0]), tuple(xy[1]))
    arrow.set_visible(ok)


def set_text(text, part: dict) -> None:
    """A ``Text`` from a text part (hidden when its position is NaN)."""
    xy = np.asarray(part["xy"], dtype=float)
    ok = bool(np.isfinite(xy).all())
    if ok:
        text.set_text(part["text"])
        text.set_position(tuple(xy))
        text.set_horizontalalignment(part["ha"])
        text.set_verticalalignment(part["va"])
    text.set_visible(ok)


def pieces(xy) -> list:
    """The pieces of a polyline between its NaN rows (a ``LineCollection``'s segments; a
    lone vertex draws nothing)."""
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    ok = np.isfinite(xy).all(axis=1)
    out, start = [], None
    for i, good in enumerate([*ok, False]):
        if good and start is None:
            start = i
        elif not good and start is not None:
            if i - start >= 2:
                out.append(xy[start:i])
            start = None
    return out


# ---------------------------------------------------------------------- a chunk's arrays
def _pad(values, *, kind: str, name: str) -> np.ndarray:
    """Stack per-step arrays whose first axis may differ: polygons repeat their last vertex
    (or are all NaN when empty), points and polylines are padded with NaN, codes with 0."""
    arrs = [np.asarray(v) for v in values]
    if all(a.shape == arrs[0].shape for a in arrs):
        return np.stack(arrs)
    m = max(len(a) for a in arrs)
    out = []
    for a in arrs:
        if len(a) == m:
            out.append(a)
            continue
        if name == "c":
            fill = np.zeros((m - len(a),), dtype=np.uint8)
        elif kind == "polygon" and len(a):
            fill = np.repeat(a[-1:], m - len(a), axis=0)
        else:
            fill = np.full((m - len(a), *a.shape[1:]), np.nan)
        out.append(np.concatenate([a.astype(float) if name != "c" else a, fill]))
    return np.stack(out)


def stack(steps: list, tracks) -> tuple[dict, tuple]:
    """One chunk's ``arrays`` and ``strings`` from the parts of its steps, in order.

    ``tracks`` are the scene's :class:`~explorer.plots.scene.Track` s: each gets the arrays
    its kind declares (:data:`~explorer.plots.scene.ARRAYS`) that the parts give.
    """
    strings: dict[str, int] = {}
    arrays = {}
    for track in tracks:
        rows = [s[track.name] for s in steps]
        if track.kind == "text":
            t = [strings.setdefault(r["text"], len(strings)) for r in rows]
            arrays[track.name] = {
                "xy": np.array([r["xy"] for r in rows], dtype=np.float32).reshape(-1, 2),
                "t": np.array(t, dtype=np.int32),
                "ha": np.array([HA_CODE[r["ha"]] for r in rows], dtype=np.uint8),
                "va": np.array([VA_CODE[r["va"]] for r in rows], dtype=np.uint8)}
            continue
        fields = {}
        for name, dtype in ARRAYS[track.kind].items():
            if name in rows[0]:
                fields[name] = _pad([r[name] for r in rows], kind=track.kind,
                                    name=name).astype(dtype)
        arrays[track.name] = fields
    return arrays, tuple(strings)
