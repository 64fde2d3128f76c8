"""The Perceptron tab's data panel for data of exactly three features: a rotatable 3-D view.

With ``M = 3`` the run is drawn where it happens, in ``R^3`` (issue 34, item 2), in the
orthographic projection of :mod:`explorer.plots.view3d` (the page turns it as it is dragged or
keyed, with no kernel round trip; matplotlib draws the same projection for exports):

* the points, by class, as on the data plane (static 3-D tracks: they do not move);
* the plane ``<w, x> + b = 0`` now (filled lightly, drawn edge), and the one before the step
  (dashed outline), each clipped to the box (:func:`explorer.plots.xor_ways.plane_in_box`);
* the side ``f >= 0`` shaded: the part of the box on that side, a convex solid whose outline in
  the view is the convex hull of its projected vertices (the ``hull3d`` kind), hatched as the
  data plane's positive half-plane, and the normal ``w`` drawn from the plane into it;
* the update ``eta y x`` from the origin (the ``arrow3d`` kind), the visited point ringed,
  the pocket or averaged classifier's plane (dash-dot outline).

The box is a cube around the points and the origin (one scale on all three axes, so that the
normal looks normal to the plane and the update adds as vectors do). The view's angles are
the panel's (``Panel3D``); they are not part of the tab's link.
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_rgba
from matplotlib.patches import Polygon

from ..perceptron.replay import StepFrame
from ..shared.number_format import number_text
from . import style as S
from . import tracks as T
from .overlays import kept_label
from .plane import DataPlane
from .plane_parts import RINGS
from .scene import FIGURE, Panel, Track
from .view3d import (
    AXIS_EDGE,
    AZIM,
    CORNERS,
    ELEV,
    HALF,
    NAME_OUT,
    TICK_OUT,
    Panel3D,
    box_lines,
    cube_project,
    project,
    to_cube,
)
from .xor_ways import plane_in_box

PANEL = "plane"
NAMES = ("x₁", "x₂", "x₃")
#: The normal ``w``'s drawn length, a share of the box's side.
NORMAL_SHARE = 0.3
EMPTY3 = np.zeros((0, 3))
NAN_SEG3 = np.full((2, 3), np.nan)
#: Ticks written on each axis: its two ends and its middle.
TICKS = 3


def hide_frame(ax) -> None:
    """A plain 2-D axes made the canvas of a 3-D view: no ticks, grid or spines (the box and
    its labels are drawn instead), limits of the projected cube."""
    ax.set_xticks([])
    ax.set_yticks([])
    ax.grid(False)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.set_xlim(-HALF, HALF)
    ax.set_ylim(-HALF, HALF)


def axis_labels(lo, hi, names=NAMES) -> tuple:
    """The box ``lo..hi``'s axes' names and values, ``((u1, u2, u3), text, "name" or
    "tick")`` in cube coordinates (:class:`~explorer.plots.view3d.Panel3D`'s ``labels``): each
    axis named beside its edge, and :data:`TICKS` values along it."""
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    labels = []
    for i, edge in enumerate(AXIS_EDGE):
        labels.append((tuple(edge * NAME_OUT), names[i], "name"))
        span = hi[i] - lo[i]
        for v in np.linspace(lo[i] + 0.12 * span, hi[i] - 0.12 * span, TICKS):
            u = edge * TICK_OUT
            u[i] = to_cube(np.where(np.arange(3) == i, v, 0.0), lo, hi)[i]
            labels.append((tuple(u), number_text(float(f"{v:.2g}")), "tick"))
    return tuple(labels)


def label_texts(ax, labels, *, old=()) -> list:
    """matplotlib texts for ``labels`` (:func:`axis_labels`), replacing the ``old`` ones."""
    for t in old:
        t.remove()
    return [ax.text(0, 0, text, ha="center", va="center", zorder=1.2,
                    fontsize=S.LABEL_SIZE if kind == "name" else S.TICK_SIZE - 1,
                    color="#222222" if kind == "name" else "#555555")
            for _, text, kind in labels]


def place_frame(box_line, texts, labels, *, azim: float, elev: float) -> None:
    """Move the box's edges and its labels' texts to the view ``(azim, elev)``."""
    cube = dict(azim=azim, elev=elev)
    edges = cube_project(box_lines(), **cube)
    box_line.set_data(edges[:, 0], edges[:, 1])  # NaN rows break it between edges
    for t, (u, _, _) in zip(texts, labels, strict=True):
        t.set_position(tuple(cube_project(np.array(u), **cube)))


def turn_points(view, azim: float, elev: float) -> np.ndarray:
    """Turn a 3-D view of points (its ``X3``, ``y``, ``pos``/``neg`` scatters, box and labels)
    to ``(azim, elev)`` (degrees; elevation clipped to -90..90); returns where the points are
    seen now, shape (n, 2)."""
    view.azim, view.elev = float(azim), float(np.clip(float(elev), -90.0, 90.0))
    place_frame(view.box_line, view.texts, view.axis_labels, azim=view.azim, elev=view.elev)
    X, y = view.X3, view.y
    view.pos.set_offsets(view.project(X[y > 0]).reshape(-1, 2))
    view.neg.set_offsets(view.project(X[y < 0]).reshape(-1, 2))
    return view.project(X)


def box_style(box_line, texts, labels, pt: float) -> dict:
    """The ``axes3d`` track's style: the box's line, its names' and values' type (CSS px)."""
    box = T.line_style(box_line, pt)
    names = [t for t, (_, _, k) in zip(texts, labels, strict=True) if k == "name"]
    ticks = [t for t, (_, _, k) in zip(texts, labels, strict=True) if k == "tick"]
    if names:
        box["font"] = T.text_style(names[0], pt)["font"]
    if ticks:
        box["size"] = T.text_style(ticks[0], pt)["font"]
    return box


def cube_box(X, *, pad: float = 0.12, origin: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """``(lo, hi)``: a cube (one side on all axes) around the points ``X`` (n, 3) and (when
    ``origin``) the origin, padded by ``pad`` of its side on each end."""
    X = np.asarray(X, dtype=float).reshape(-1, 3)
    if not len(X):
        lo, hi = np.full(3, -1.0), np.full(3, 1.0)
    else:
        lo, hi = X.min(axis=0), X.max(axis=0)
        if origin:
            lo, hi = np.minimum(lo, 0.0), np.maximum(hi, 0.0)
    half = max(float((hi - lo).max()), 1e-9) / 2 * (1 + 2 * pad)
    centre = (lo + hi) / 2
    return centre - half, centre + half


def side_vertices(w, b, lo, hi) -> np.ndarray:
    """The vertices of the part of the box ``lo..hi`` where ``<w, x> + b >= 0``: its corners on
    that side and where the plane cuts the box (the part is their convex hull; (0, 3) when the
    box has no such part). With ``w = 0`` the whole box is on one side (``b >= 0``) or none."""
    w = np.asarray(w, dtype=float)
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    corners = lo + (hi - lo) * (CORNERS + 1) / 2
    if not np.any(w):
        return corners if b >= 0 else EMPTY3.copy()
    on = corners[corners @ w + b >= 0]
    if not len(on):
        return EMPTY3.copy()
    cut = plane_in_box(w, b, lo, hi)
    return np.vstack([on, cut]) if len(cut) else on


def hull2d(xy) -> np.ndarray:
    """The convex hull of the finite rows of ``xy`` (n, 2), counter-clockwise from the lowest
    x (Andrew's monotone chain; explorer/app/static/kinds_xor.js ``hullInPlace`` is the same)."""
    pts = T.finite_rows(xy)
    pts = pts[np.lexsort((pts[:, 1], pts[:, 0]))]
    if len(pts) < 3:
        return pts

    def half(points):
        out = []
        for p in points:
            while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                                     - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(pts[::-1])
    return np.array(lower[:-1] + upper[:-1])


def closed(poly) -> np.ndarray:
    """A polygon's vertices with the first repeated at the end (an outline); (0, 3) stays."""
    poly = np.asarray(poly, dtype=float).reshape(-1, 3)
    return np.vstack([poly, poly[:1]]) if len(poly) >= 3 else EMPTY3.copy()


class Data3D(DataPlane):
    """The data plane's artists and legend (:class:`~explorer.plots.plane.DataPlane`), drawn
    as a 3-D view in projection on a plain 2-D axes (its frame hidden; the box is drawn).

    Parameters
    ----------
    ax : matplotlib Axes
    title : str
    """

    #: The data plane's half-planes are both shaded; here only the side ``f >= 0`` is (the
    #: legend says so: :func:`explorer.plots.overlays.build_legend`).
    one_side = True

    def __init__(self, ax, *, title: str):
        super().__init__(ax, title=title)
        ax.set_xlabel("")
        ax.set_ylabel("")
        hide_frame(ax)
        (self.box_line,) = ax.plot([], [], color="#9A9A9A", lw=0.9, zorder=1)
        self.plane3 = Polygon(np.zeros((3, 2)), closed=True, facecolor=to_rgba(S.LINE, 0.10),
                              edgecolor=S.LINE, linewidth=2.6, zorder=2.2)
        ax.add_patch(self.plane3)
        self.plane3.set_visible(False)
        self.texts = []  # the axes' names and values (drawn by the page's "axes3d" track)
        self.azim, self.elev = AZIM, ELEV
        self.lo, self.hi = np.full(3, -1.0), np.full(3, 1.0)
        self.X3 = EMPTY3
        self.axis_labels = ()
        self.box = (-HALF, HALF, -HALF, HALF)
        self._shown = {}  # the parts last applied (turning the view moves them again)

    # ------------------------------------------------------------------ data
    def set_data(self, X, y, *, box=None, numbers=None, moving: bool = False) -> None:
        """Place the points ``X`` (n, 3) in a cube around them and the origin (``box``: a
        ``(lo, hi)`` kept from the last layout)."""
        X = np.asarray(X, dtype=float).reshape(-1, 3)
        y = np.asarray(y, dtype=float)
        self.X3, self.y, self.n = X, y, len(X)
        self.moving = False
        lo_hi = box if (isinstance(box, tuple) and len(box) == 2) else cube_box(X)
        self.lo, self.hi = (np.asarray(v, dtype=float) for v in lo_hi)
        self.X = self.project(X)  # where the points are seen now ("you choose" clicks)
        self.ax.set_xlim(-HALF, HALF)
        self.ax.set_ylim(-HALF, HALF)
        self.axis_labels = axis_labels(self.lo, self.hi)
        self.texts = label_texts(self.ax, self.axis_labels, old=self.texts)
        self.set_view(self.azim, self.elev)

    def set_view(self, azim: float, elev: float) -> None:
        """Turn the view (degrees; elevation within -90..90) and move what it shows."""
        self.X = turn_points(self, azim, elev)
        if self._shown:
            self.apply(self._shown)

    def project(self, xyz) -> np.ndarray:
        """Data coordinates ``(..., 3)`` to the view's plane ``(..., 2)`` as seen now."""
        return project(np.asarray(xyz, dtype=float).reshape(-1, 3), azim=self.azim,
                       elev=self.elev, lo=self.lo, hi=self.hi)

    # ------------------------------------------------------------------ the page
    def panel(self, panel: Panel) -> Panel3D:
        return Panel3D.of(panel, azim=self.azim, elev=self.elev, lo=tuple(self.lo),
                          hi=tuple(self.hi), labels=self.axis_labels)

    def tracks(self, pt: float) -> list:
        box = box_style(self.box_line, self.texts, self.axis_labels, pt)
        y = self.y
        out = [Track("side3d", PANEL, "hull3d", z=self.shade_pos.get_zorder(),
                     style=T.polygon_style(self.shade_pos, pt)),
               Track("box3d", PANEL, "axes3d", z=self.box_line.get_zorder(), style=box),
               Track("ghost3d", PANEL, "polyline3d", z=self.ghost.get_zorder(),
                     style=T.line_style(self.ghost, pt)),
               Track("plane3d", PANEL, "polygon3d", z=self.plane3.get_zorder(),
                     style=T.polygon_style(self.plane3, pt)),
               Track("pos3d", PANEL, "points3d", z=self.pos.get_zorder(),
                     style=T.points_style(self.pos, pt, marker=S.POS_MARKER),
                     data={"data": self.X3[y > 0]}),
               Track("neg3d", PANEL, "points3d", z=self.neg.get_zorder(),
                     style=T.points_style(self.neg, pt, marker=S.NEG_MARKER),
                     data={"data": self.X3[y < 0]}),
               Track("kept3d", PANEL, "polyline3d", z=self.kept_line.get_zorder(),
                     style=T.line_style(self.kept_line, pt)),
               Track("normal3d", PANEL, "arrow3d", z=self.normal.get_zorder(),
                     style=T.arrow_style(self.normal, pt)),
               Track("update3d", PANEL, "arrow3d", z=self.update.get_zorder(),
                     style=T.arrow_style(self.update, pt)),
               Track("picked3d", PANEL, "points3d", z=self.picked.get_zorder(),
                     style=T.points_style(self.picked, pt, rings=RINGS)),
               Track("failing3d", PANEL, "points3d", z=self.failing.get_zorder(),
                     style=T.points_style(self.failing, pt))]
        if self.kept_text is not None:
            out.append(Track("kept_text", FIGURE, "text", z=self.legend.get_zorder(),
                             style=T.text_style(self.kept_text, pt)))
        return out

    def artists(self) -> dict:
        out = {"side3d": self.shade_pos, "box3d": self.box_line, "ghost3d": self.ghost,
               "plane3d": self.plane3, "pos3d": self.pos, "neg3d": self.neg,
               "kept3d": self.kept_line, "normal3d": self.normal, "update3d": self.update,
               "picked3d": self.picked, "failing3d": self.failing}
        if self.kept_text is not None:
            out["kept_text"] = self.kept_text
        return out

    def label_texts(self) -> list:
        """Artists the page draws besides the tracks' own: the axes' names and values."""
        return list(self.texts)

    def dynamic_artists(self) -> list:
        arts = [self.shade_pos, self.box_line, *self.texts, self.ghost, self.plane3, self.pos,
                self.neg, self.kept_line, self.normal, self.picked, self.failing, self.update]
        if self.kept_text is not None:
            arts.append(self.legend)
        return arts

    # ------------------------------------------------------------------ step
    def parts(self, f: StepFrame, *, band=None, hand=None, coords=None,
              origin=(0.0, 0.0, 0.0)) -> dict:
        """The view's parts at frame ``f`` in data coordinates (numpy only); the page and
        :meth:`apply` project them with the view's angles."""
        hand = self.hand if hand is None else hand
        lo, hi = self.lo, self.hi
        w, b = np.asarray(f.w, dtype=float)[:3], float(f.b)
        poly = plane_in_box(w, b, lo, hi)
        moved = f.k > 0 and (not np.array_equal(f.w_prev, f.w) or f.b_prev != f.b)
        ghost = closed(plane_in_box(np.asarray(f.w_prev, dtype=float)[:3], float(f.b_prev),
                                    lo, hi)) if moved else EMPTY3.copy()
        X = self.X3
        picked = list(f.picked)
        out = {"side3d": {"xyz": side_vertices(w, b, lo, hi)},
               "plane3d": {"xyz": poly if len(poly) >= 3 else EMPTY3.copy()},
               "ghost3d": {"xyz": ghost}, "box3d": {}, "pos3d": {}, "neg3d": {},
               "normal3d": {"xyz": self._normal(w, b)},
               "picked3d": {"xyz": X[picked] if picked else EMPTY3.copy(),
                            "c": np.array([1 if i in f.triggered else 0 for i in picked],
                                          dtype=np.uint8)},
               "failing3d": {"xyz": X[list(f.failing)] if hand and f.failing
                             else EMPTY3.copy()}}
        kept = f.kept_kind is not None and f.kept_w is not None
        out["kept3d"] = {"xyz": closed(plane_in_box(np.asarray(f.kept_w, dtype=float)[:3],
                                                    float(f.kept_b), lo, hi)) if kept
                         else EMPTY3.copy()}
        if self.kept_text is not None:
            text = kept_label(f.kept_kind if kept else self.kept_kind,
                              f.kept_errors if kept else None, self.n)
            out["kept_text"] = {"xy": np.asarray(self.kept_anchor, dtype=float), "text": text,
                                "ha": "left", "va": "baseline"}
        u = None if f.update_vector is None else np.asarray(f.update_vector, dtype=float)[:3]
        start = np.asarray(origin, dtype=float)[:3]
        out["update3d"] = {"xyz": np.array([start, start + u]) if f.updated and u is not None
                           and np.any(u) else NAN_SEG3.copy()}
        return out

    def _normal(self, w, b) -> np.ndarray:
        """The normal ``w`` from the plane's point nearest the box's centre into the side
        ``f >= 0``, of a fixed length; NaN when ``w = 0`` or that point is outside the box."""
        norm = float(np.linalg.norm(w))
        if norm == 0:
            return NAN_SEG3.copy()
        c = (self.lo + self.hi) / 2
        anchor = c - (c @ w + b) / norm ** 2 * w
        if np.any(anchor < self.lo - 1e-9) or np.any(anchor > self.hi + 1e-9):
            return NAN_SEG3.copy()
        return np.array([anchor, anchor + NORMAL_SHARE * (self.hi[0] - self.lo[0]) * w / norm])

    def show(self, f: StepFrame, *, band=None, hand=None, coords=None,
             origin=(0.0, 0.0, 0.0)) -> None:
        self.apply(self.parts(f, hand=hand, origin=origin))

    def apply(self, parts: dict) -> None:
        """Put the parts (3-D, in data coordinates) on the artists, projected as seen now."""
        self._shown = parts
        for name, part in parts.items():
            self.apply_part(name, part)

    def apply_part(self, name: str, part: dict) -> bool:
        """Put one track's part on its artist; False for a track that is not this view's."""
        if name == "kept_text":
            if self.kept_text is not None:
                self.kept_text.set_text(part["text"])
            return True
        if name not in self.artists() or "xyz" not in part:
            return name in self.artists()  # the static tracks: placed by set_view
        self._shown[name] = part
        xyz = np.asarray(part["xyz"], dtype=float).reshape(-1, 3)
        xy = self.project(xyz) if len(xyz) else T.EMPTY
        art = self.artists()[name]
        if name == "side3d":
            T.set_polygon(art, hull2d(xy))
        elif name == "plane3d":
            T.set_polygon(art, xy)
        elif name in ("ghost3d", "kept3d"):
            T.set_polyline(art, xy)
        elif name in ("normal3d", "update3d"):
            T.set_arrow(art, xy)
        else:  # rings on points
            ok = np.isfinite(xy).all(axis=1) if len(xy) else np.zeros(0, bool)
            art.set_offsets(xy[ok] if ok.any() else T.EMPTY)
            if name == "picked3d" and ok.any():
                codes = np.asarray(part["c"], dtype=int)[ok]
                art.set_edgecolors([RINGS[c][0] for c in codes])
                art.set_linewidths([RINGS[c][1] for c in codes])
        return True


__all__ = ["Data3D", "cube_box", "side_vertices", "hull2d", "closed", "hide_frame",
           "axis_labels", "label_texts", "place_frame", "box_style"]
