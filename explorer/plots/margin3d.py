"""The Margins tab's data panel for data of exactly three features: a rotatable 3-D view.

With ``M = 3`` the max-margin solution is drawn where it is computed, in ``R^3`` (issue 34,
item 2), in the orthographic projection of :mod:`explorer.plots.view3d` that the Perceptron
tab's 3-D view uses (:mod:`explorer.plots.data3d`; the page turns it as it is dragged or keyed,
"reset view" or ``v`` bring it back; matplotlib draws the same projection for exports):

* the points, by class (static 3-D tracks);
* the SVM's separating plane ``<w, x> + b = 0`` (filled, drawn edge), its two margin planes
  ``<w, x> + b = ±1`` (dashed outlines) and the slab between them (the part of the box where
  ``|f| <= 1``, a convex solid drawn as the hull of its projected vertices, shaded lightly as
  the 2-D band is), each clipped to the box; the slab's half-width is the margin ``1/||w||``
  (Sayed (61.3)), exact here as every distance in ``R^3`` is;
* the support vectors ringed, and for the soft margin the slack of every point inside the slab
  as a segment to its margin plane (length ``s_i / ||w||``, Sayed (61.12)), its end marked;
* the perceptron's final plane (dash-dot outline), the SGD's limit (dashed outline) and its
  iterate at the step shown (solid outline, the one part that moves with the step).

The box is a cube around the points (one scale on all three axes, so that the slab's width
reads as a distance). The view's angles are the panel's (:class:`~explorer.plots.view3d.Panel3D`);
they are not part of the tab's link.

:class:`~explorer.plots.margin3d_scene.Margins3DScene`, mixed into
:class:`explorer.plots.MarginsFigure`, shows :class:`Margin3D` in the data plane's place for
three features with both lines overlaid (side by side, each line keeps its own plane of ``w``,
:mod:`explorer.plots.margin_view`).
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_rgba
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Polygon

from ..margins import MarginComparison, SGDProgress
from ..shared.i18n import N_, tr, tr_n
from ..shared.number_format import number_text
from . import style as S
from . import tracks as T
from .data3d import (
    EMPTY3,
    axis_labels,
    box_style,
    closed,
    cube_box,
    hide_frame,
    hull2d,
    label_texts,
    turn_points,
)
from .margin_parts import ring_sizes
from .margin_plane import legend_title, margin_legend
from .scene import Track
from .view3d import AZIM, CORNERS, ELEV, Panel3D, project
from .xor_ways import plane_in_box

__all__ = ["Margin3D", "slab_vertices", "band_planes"]

PANEL = "plane"
SVM_COLOR = S.LINE
PERC, SGD, SLACK = S.KEPT, S.UPDATE, S.TRIGGER
SLAB = "#000000"
#: The words under the title that say how to turn the view.
TURN = N_("in 3-D: drag to turn")
#: Track name -> the artist attribute that draws it (the static data tracks first).
TRACKS = ("m3_box", "m3_slab", "m3_band_lo", "m3_band_hi", "m3_line", "m3_pos", "m3_neg",
          "m3_slacks", "m3_slack_ends", "m3_rings", "m3_perc", "m3_target")


def band_planes(w, b) -> tuple[tuple, tuple]:
    """The margin planes ``<w, x> + b = -1`` and ``+1`` as ``(w, b')`` of ``<w, x> + b' = 0``."""
    w = np.asarray(w, dtype=float)
    return (w, float(b) + 1.0), (w, float(b) - 1.0)


def slab_vertices(w, b, lo, hi) -> np.ndarray:
    """The vertices of the part of the box ``lo..hi`` where ``-1 <= <w, x> + b <= 1``: its
    corners there and where the margin planes cut the box (the part is their convex hull;
    (0, 3) when the slab misses the box or ``w = 0``)."""
    w = np.asarray(w, dtype=float)
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    if not np.any(w):
        return EMPTY3.copy()
    corners = lo + (hi - lo) * (CORNERS + 1) / 2
    f = corners @ w + float(b)
    rows = [corners[np.abs(f) <= 1.0]]
    for wp, bp in band_planes(w, b):
        rows.append(plane_in_box(wp, bp, lo, hi).reshape(-1, 3))
    out = np.vstack(rows)
    return out if len(out) >= 3 else EMPTY3.copy()


def _outline(w, b, lo, hi) -> np.ndarray:
    """The closed outline of the plane ``<w, x> + b = 0`` in the box (empty when it misses)."""
    w = np.asarray(w, dtype=float)[:3]
    return closed(plane_in_box(w, float(b), lo, hi)) if np.any(w) else EMPTY3.copy()


class Margin3D:
    """The Margins figure's data panel for three features, in projection on a 2-D axes.

    Parameters
    ----------
    ax : matplotlib Axes
        A plain 2-D axes (its frame is hidden; the box and its labels are drawn instead).
    """

    def __init__(self, ax):
        self.ax = ax
        S.style_axes(ax, title=tr("Margins"), xlabel="", ylabel="")
        ax.set_aspect("equal", adjustable="box")
        ax.set_anchor("N")
        hide_frame(ax)
        (self.box_line,) = ax.plot([], [], color="#9A9A9A", lw=0.9, zorder=1)
        self.slab = Polygon(np.zeros((3, 2)), closed=True, facecolor=to_rgba(SLAB, 0.08),
                            edgecolor="none", linewidth=0, zorder=0.6)
        self.line = Polygon(np.zeros((3, 2)), closed=True, facecolor=to_rgba(SVM_COLOR, 0.16),
                            edgecolor=SVM_COLOR, linewidth=2.4, zorder=2.2)
        for patch in (self.slab, self.line):
            ax.add_patch(patch)
        (self.band_lo,) = ax.plot([], [], color=SVM_COLOR, lw=1.5, ls=(0, (4, 3)), zorder=2)
        (self.band_hi,) = ax.plot([], [], color=SVM_COLOR, lw=1.5, ls=(0, (4, 3)), zorder=2)
        self.pos = ax.scatter([], [], s=S.POINT_SIZE, marker=S.POS_MARKER, c=S.POS,
                              edgecolors="white", linewidths=0.8, zorder=3)
        self.neg = ax.scatter([], [], s=S.POINT_SIZE, marker=S.NEG_MARKER, c=S.NEG,
                              edgecolors="white", linewidths=0.8, zorder=3)
        (self.slacks,) = ax.plot([], [], color=SLACK, lw=1.6, zorder=3.2)
        self.slack_ends = ax.scatter([], [], s=S.POINT_SIZE * 0.35, marker="o", c=SLACK,
                                     zorder=3.3)
        self.rings = ax.scatter([], [], s=S.POINT_SIZE * 3.2, marker="o", facecolors="none",
                                edgecolors=SVM_COLOR, linewidths=1.8, zorder=3.5)
        (self.perc,) = ax.plot([], [], color=PERC, lw=2.2, ls=S.KEPT_STYLE, zorder=4.2)
        (self.target,) = ax.plot([], [], color=SGD, lw=1.6, ls=(0, (5, 3)), zorder=4.4)
        (self.sgd,) = ax.plot([], [], color=SGD, lw=2.6, zorder=7)
        self.texts = []  # the axes' names and values (drawn by the page's "axes3d" track)
        self.axis_labels = ()
        self.azim, self.elev = AZIM, ELEV
        self.lo, self.hi = np.full(3, -1.0), np.full(3, 1.0)
        self.X3, self.y = EMPTY3, np.zeros(0)
        self.legend = None
        self._entries = []
        self._legend_title = ""
        self._shown = {}  # the parts last applied (turning the view moves them again)

    # ------------------------------------------------------------------ data
    def set_data(self, X, y, cmp: MarginComparison, sgd: SGDProgress | None) -> None:
        """Place the points ``X`` (n, 3), the comparison's planes, rings and slacks and the
        SGD's limit; the legend's entries and the title."""
        X = np.asarray(X, dtype=float).reshape(-1, 3)
        self.X3, self.y = X, np.asarray(y, dtype=float)
        self.lo, self.hi = cube_box(X, origin=False)
        self.axis_labels = axis_labels(self.lo, self.hi)
        self.texts = label_texts(self.ax, self.axis_labels, old=self.texts)
        self._shown = {}
        parts = self.still_parts(cmp, sgd)
        self._entries = self._legend_entries(cmp, sgd, parts)
        self._legend_title = legend_title(cmp) + "\n" + tr(
            "every distance exact; drag, Shift + arrows turn, v resets")
        fit = cmp.svm
        which = (tr("No hard margin: not separable") if fit is None else
                 tr("Hard margin") if cmp.hard else
                 tr("Soft margin, C = {C}").format(C=number_text(cmp.C)))
        self.ax.set_title(tr("{which}, {turn}").format(which=which, turn=tr(TURN)),
                          fontsize=S.TITLE_SIZE, loc="left")
        self.set_view(self.azim, self.elev)
        self.apply(parts)

    def still_parts(self, cmp: MarginComparison, sgd: SGDProgress | None) -> dict:
        """Every part but the SGD iterate, in data coordinates (the same at every step)."""
        lo, hi, X = self.lo, self.hi, self.X3
        out = {"m3_box": {}, "m3_pos": {}, "m3_neg": {}}
        fit = cmp.svm
        if fit is not None and np.any(fit.w):
            w, b = np.asarray(fit.w, dtype=float), float(fit.b)
            poly = plane_in_box(w, b, lo, hi)
            (wl, bl), (wh, bh) = band_planes(w, b)
            out["m3_line"] = {"xyz": poly if len(poly) >= 3 else EMPTY3.copy()}
            out["m3_band_lo"] = {"xyz": _outline(wl, bl, lo, hi)}
            out["m3_band_hi"] = {"xyz": _outline(wh, bh, lo, hi)}
            out["m3_slab"] = {"xyz": slab_vertices(w, b, lo, hi)}
        else:
            for name in ("m3_line", "m3_band_lo", "m3_band_hi", "m3_slab"):
                out[name] = {"xyz": EMPTY3.copy()}
        sv = np.asarray(fit.support, dtype=int) if fit is not None else np.zeros(0, int)
        alpha = np.asarray(fit.alpha, dtype=float)[sv] if fit is not None else np.zeros(0)
        top = float(alpha.max()) if alpha.size and alpha.max() > 0 else 1.0
        pt = T.px_per_pt(self.ax.figure)  # CSS px a point, as the 2-D rings (margin_parts)
        out["m3_rings"] = {"xyz": X[sv].reshape(-1, 3),
                           "s": np.sqrt(ring_sizes(alpha, top)) * pt}  # diameters, CSS px
        if len(cmp.slack_index):
            start = np.asarray(cmp.slack_start, float).reshape(-1, 3)
            end = np.asarray(cmp.slack_end, float).reshape(-1, 3)
            gap = np.full_like(start, np.nan)
            out["m3_slacks"] = {"xyz": np.stack([start, end, gap], axis=1).reshape(-1, 3)[:-1]}
            out["m3_slack_ends"] = {"xyz": end}
        else:
            out["m3_slacks"] = {"xyz": EMPTY3.copy()}
            out["m3_slack_ends"] = {"xyz": EMPTY3.copy()}
        out["m3_perc"] = {"xyz": _outline(cmp.perceptron_w, cmp.perceptron_b, lo, hi)}
        out["m3_target"] = {"xyz": EMPTY3.copy() if sgd is None else
                            _outline(sgd.target.w, sgd.target.b, lo, hi)}
        return out

    def sgd_part(self, w, b) -> dict:
        """The SGD iterate's plane ``<w, x> + b = 0`` as the ``sgd`` track's part."""
        return {"xyz": EMPTY3.copy() if w is None else _outline(w, b, self.lo, self.hi)}

    def _legend_entries(self, cmp, sgd, parts) -> list:
        entries = [((self.pos, self.neg), tr("class +1 / −1"))]
        fit = cmp.svm
        if fit is not None and np.any(fit.w):
            key = Patch(facecolor=to_rgba(SVM_COLOR, 0.16), edgecolor=SVM_COLOR, lw=1.6)
            entries.append((key, tr("max-margin plane f = 0") if cmp.hard else tr("SVM plane f = 0")))
            slab = Patch(facecolor=to_rgba(SLAB, 0.16), edgecolor=SVM_COLOR, ls=(0, (4, 3)))
            inside = len(parts["m3_band_lo"]["xyz"]) and len(parts["m3_band_hi"]["xyz"])
            words = (tr("margin planes f = ±1: 1/‖w‖ = {m}") if inside else
                     tr("margin planes f = ±1 (beyond the box): 1/‖w‖ = {m}"))
            entries.append((slab, words.format(m=number_text(cmp.svm_margin))))
            entries.append((Line2D([], [], ls="none", marker="o", ms=11, mfc="none", mec=SVM_COLOR,
                                   mew=1.8), tr("support vectors, ring ∝ αᵢ")))
        elif fit is not None:
            entries.append((Patch(facecolor="none", edgecolor="none"), tr("SVM: w = 0, no plane")))
        else:
            entries.append((Patch(facecolor="none", edgecolor="none"),
                            tr("no hard margin (hulls: 2-D data only)")))
        if len(cmp.slack_index):
            entries.append((self.slacks, tr("slack sᵢ/‖w‖: Σsᵢ = {total}").format(
                total=number_text(cmp.hinge_total))))
        m = cmp.perceptron_margin
        entries.append((self.perc, tr("perceptron: w = 0, no plane") if m is None else
                        tr("perceptron's plane: margin {m}").format(m=number_text(m)) if m > 0
                        else tr_n("perceptron's plane: {n} wrong", "perceptron's plane: {n} wrong",
                                  cmp.perceptron_errors).format(n=cmp.perceptron_errors)))
        if sgd is not None:
            entries.append((self.sgd, tr("SGD iterate (61.22)")))
            entries.append((self.target, tr("SGD's limit: C = {C}").format(C=number_text(sgd.C))))
        return entries

    def build_legend(self, ncol: int, where: str = "below"):
        """The legend in ``ncol`` columns, below or beside the axes (as the 2-D plane's)."""
        self.legend = margin_legend(self.ax, self._entries, ncol=ncol, where=where,
                                    title=self._legend_title)
        return self.legend

    # ------------------------------------------------------------------ view
    def set_view(self, azim: float, elev: float) -> None:
        """Turn the view (degrees; elevation within -90..90) and move what it shows."""
        turn_points(self, azim, elev)
        if self._shown:
            self.apply(dict(self._shown))

    def project(self, xyz) -> np.ndarray:
        """Data coordinates ``(..., 3)`` to the view's plane ``(..., 2)`` as seen now."""
        return project(np.asarray(xyz, dtype=float).reshape(-1, 3), azim=self.azim,
                       elev=self.elev, lo=self.lo, hi=self.hi)

    # ------------------------------------------------------------------ the page
    def panel(self, panel) -> Panel3D:
        return Panel3D.of(panel, azim=self.azim, elev=self.elev, lo=tuple(self.lo),
                          hi=tuple(self.hi), labels=self.axis_labels)

    def artists(self) -> dict:
        """Track name -> artist (the SGD iterate's track is the figure's ``sgd``)."""
        return {name: self.box_line if name == "m3_box" else getattr(self, name[3:])
                for name in TRACKS}

    def tracks(self, pt: float) -> list:
        """The panel's still tracks (the same at every step; sent with the scene)."""
        y, out = self.y, []
        kinds = {"m3_slab": "hull3d", "m3_line": "polygon3d", "m3_pos": "points3d",
                 "m3_neg": "points3d", "m3_rings": "points3d", "m3_slack_ends": "points3d"}
        for name, art in self.artists().items():
            kind = kinds.get(name, "polyline3d")
            data = None
            if name == "m3_box":
                kind, style = "axes3d", box_style(self.box_line, self.texts, self.axis_labels, pt)
            elif kind in ("hull3d", "polygon3d"):
                style = T.polygon_style(art, pt)
            elif name in ("m3_pos", "m3_neg"):
                style = T.points_style(art, pt, marker=S.POS_MARKER if name == "m3_pos"
                                       else S.NEG_MARKER)
                data = {"data": self.X3[y > 0] if name == "m3_pos" else self.X3[y < 0]}
            elif kind == "points3d":
                style = T.points_style(art, pt)
            else:
                style = T.line_style(art, pt)
            out.append(Track(name, PANEL, kind, z=art.get_zorder(), style=style,
                             **({} if data is None else {"data": data})))
        return out

    def sgd_track(self, pt: float) -> Track:
        return Track("sgd", PANEL, "polyline3d", z=self.sgd.get_zorder(),
                     style=T.line_style(self.sgd, pt))

    def label_texts(self) -> list:
        return list(self.texts)

    def dynamic_artists(self) -> list:
        return [self.sgd]

    def apply(self, parts: dict) -> None:
        for name, part in parts.items():
            self.apply_part(name, part)

    def apply_part(self, name: str, part: dict) -> bool:
        """Put one track's part (3-D, data coordinates) on its artist, projected as seen now;
        False for a track that is not this panel's."""
        arts = {**self.artists(), "sgd": self.sgd}
        if name not in arts:
            return False
        if "xyz" not in part:
            return True  # the static tracks: placed by set_view
        self._shown[name] = part
        xyz = np.asarray(part["xyz"], dtype=float).reshape(-1, 3)
        xy = self.project(xyz) if len(xyz) else T.EMPTY
        art = arts[name]
        if name == "m3_slab":
            T.set_polygon(art, hull2d(xy))
        elif name == "m3_line":
            T.set_polygon(art, xy)
        elif name == "m3_slacks":  # one line broken by NaN rows between the segments
            art.set_data(xy[:, 0], xy[:, 1]) if len(xy) else art.set_data([], [])
        elif isinstance(art, Line2D):
            T.set_polyline(art, xy)
        else:
            ok = np.isfinite(xy).all(axis=1) if len(xy) else np.zeros(0, bool)
            art.set_offsets(xy[ok] if ok.any() else T.EMPTY)
            if "s" in part:  # the rings' diameters (CSS px) as marker areas (points²)
                d = np.asarray(part["s"], dtype=float).reshape(-1)[:len(xy)]
                pt = T.px_per_pt(self.ax.figure)
                art.set_sizes((d[ok] / pt) ** 2 if ok.any() else [])
        return True

