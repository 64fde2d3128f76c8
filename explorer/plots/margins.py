"""The Margins figure: the perceptron's line against the maximum-margin one (Sayed ch. 61).

Four panels drawn from results of :mod:`explorer.margins`:

* the data plane (left): the points, the SVM's line ``f(x) = 0`` with its band ``f(x) = ±1``
  shaded (its half-width is the margin ``1 / ||w||``, Sayed (61.3)), the perceptron's final line
  with the band its own margin reaches, the support vectors ringed with rings that grow with
  their dual weight ``alpha_i``, and for the soft margin the slack of every point inside the
  band as a segment to its margin line (length ``s_i / ||w||``, Sayed (61.12)); when the hard
  margin does not exist, both classes' convex hulls and their common point; the iterate of the
  stochastic subgradient rule ``svm_sgd`` (Sayed (61.22)) at the step shown, beside the exact
  solution it approaches (dashed);
* dual weights (top right): ``alpha_i y_i`` of each support vector, ``w = sum alpha_i y_i x_i``
  (Sayed (61.44)), up for class +1 and down for class -1, between ``±C`` (61.51);
* the SGD objective (bottom, first half): Sayed's (61.13) after each step, the exact minimum
  dashed, a cursor at the step shown;
* Example 61.3 (bottom, second half): training error rate and ``#SV / N`` against ``C``, the
  current ``C`` marked.

Artists are created once; :meth:`MarginsFigure.set_data` re-lays them out and
:meth:`MarginsFigure.show` moves only the SGD line and the objective cursor, so that
:meth:`MarginsFigure.render` can blit them over a cached background.
"""

from __future__ import annotations

import numpy as np
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.legend_handler import HandlerTuple
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Polygon
from matplotlib.ticker import (
    FixedLocator,
    FuncFormatter,
    LogLocator,
    MaxNLocator,
    NullFormatter,
    ScalarFormatter,
)
from matplotlib.transforms import ScaledTranslation

from ..geometry import clip_line
from ..margins import MarginComparison, SGDProgress, SupportPath
from . import live
from . import style as S
from .overlays import LEGEND_DROP, certificate_artists, set_hulls
from .plane import data_box

__all__ = ["MarginsFigure", "MarginPlane", "DualWeights", "SGDObjective", "SupportPathPanel"]

FIGSIZE = (13.0, 6.8)
WIDTH_RATIOS = (2.2, 1.1, 1.1)
OVERLAYS = ("overlaid",)
SVM_COLOR = S.LINE
PERC = S.KEPT  # orange, dash-dot: the perceptron's line
PERC_STYLE = S.KEPT_STYLE
SGD = S.UPDATE  # bluish green: the SGD iterate (solid) and its limit (dashed)
SLACK = S.TRIGGER  # reddish purple: slack segments
SLAB = "#000000"
SLAB_ALPHA = 0.07
_EMPTY = np.zeros((0, 2))
#: Legends inside a panel: a light backing so that a line passing behind stays readable.
_PANEL_LEGEND = dict(frameon=True, facecolor="white", edgecolor="none", framealpha=0.85,
                     borderpad=0.3)
MAX_SV_NUMBERS = 15  # support vectors numbered in the plane when not every point is


def _g(x: float, digits: int = 3) -> str:
    """A number for a label: ``digits`` significant digits, a real minus sign."""
    return f"{x:.{digits}g}".replace("-", "−")


def _free(ax, lines: int, size: float) -> float:
    """Share of the axes' height taken by ``lines`` rows of text of ``size`` points, plus a gap."""
    fig, pos = ax.figure, ax.get_position()
    height = pos.height * fig.get_figheight() * 72
    return float(np.clip((lines * 1.3 * size + 8) / max(height, 1.0), 0.12, 0.6))


def plane_box(X, ends, *, reach: float = 0.3):
    """The plane's limits: the points (and the origin) padded, grown to show the slack segments'
    ends when that needs at most ``reach`` times the side on each side. A very wide soft band
    (small ``C``) would shrink the data to a dot: then the view keeps to the data and the
    segments are clipped at its edge."""
    box = np.array(data_box(X), dtype=float)
    ends = np.asarray(ends, dtype=float).reshape(-1, 2)
    if len(ends):
        side = box[1] - box[0]
        lo = np.minimum(box[[0, 2]], ends.min(axis=0) - 0.05 * side)
        hi = np.maximum(box[[1, 3]], ends.max(axis=0) + 0.05 * side)
        if np.any(lo < box[[0, 2]] - reach * side) or np.any(hi > box[[1, 3]] + reach * side):
            return tuple(float(v) for v in box)
        half = max(hi[0] - lo[0], hi[1] - lo[1]) / 2  # keep it square, as the layout expects
        mid = (lo + hi) / 2
        box = np.array([mid[0] - half, mid[0] + half, mid[1] - half, mid[1] + half])
    return tuple(float(v) for v in box)


def _segment(artist, w, b, box, level=0.0) -> None:
    seg = clip_line(w, b, box, level=level) if np.any(w) else None
    if seg is None:
        artist.set_data([], [])
    else:
        artist.set_data(seg[:, 0], seg[:, 1])


def _slab_polygon(w, b, box, lo: float, hi: float) -> np.ndarray:
    """The part of ``box`` where ``lo <= <w, x> + b <= hi`` (clip the box against two lines)."""
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


# --------------------------------------------------------------------------- data plane
class MarginPlane:
    """The 2-D data with both separators, the band, support vectors, slacks and the SGD line."""

    def __init__(self, ax):
        self.ax = ax
        S.style_axes(ax, title="Margins", xlabel="x₁", ylabel="x₂")
        ax.set_aspect("equal", adjustable="box")
        ax.set_anchor("N")
        self.slab = Polygon([[0, 0]], closed=True, facecolor=to_rgba(SLAB, SLAB_ALPHA),
                            edgecolor="none", zorder=0.6)
        ax.add_patch(self.slab)
        self.pos = ax.scatter([], [], s=S.POINT_SIZE, marker=S.POS_MARKER, c=S.POS,
                              edgecolors="white", linewidths=0.8, zorder=3)
        self.neg = ax.scatter([], [], s=S.POINT_SIZE, marker=S.NEG_MARKER, c=S.NEG,
                              edgecolors="white", linewidths=0.8, zorder=3)
        (self.line,) = ax.plot([], [], color=SVM_COLOR, lw=2.8, zorder=4)
        (self.band_hi,) = ax.plot([], [], color=SVM_COLOR, lw=1.5, ls=":", zorder=2)
        (self.band_lo,) = ax.plot([], [], color=SVM_COLOR, lw=1.5, ls=":", zorder=2)
        (self.perc,) = ax.plot([], [], color=PERC, lw=2.6, ls=PERC_STYLE, zorder=4.2)
        # the perceptron's band: light orange, dotted, so it reads apart from the grey slab
        self.perc_slab = Polygon([[0, 0]], closed=True, facecolor=to_rgba(PERC, 0.22),
                                 edgecolor=to_rgba(PERC, 0.7), hatch="..", linewidth=0,
                                 zorder=0.7)
        ax.add_patch(self.perc_slab)
        self.perc_key = Patch(facecolor=to_rgba(PERC, 0.22), edgecolor=to_rgba(PERC, 0.7),
                              hatch="..", linewidth=0)
        self.rings = ax.scatter([], [], s=[], facecolors="none", edgecolors=S.LINE,
                                linewidths=1.8, zorder=3.5)
        self.slacks = LineCollection([], colors=SLACK, linewidths=2.4, zorder=3.2,
                                     capstyle="butt")
        ax.add_collection(self.slacks)
        (self.slack_ends,) = ax.plot([], [], ls="none", marker="o", ms=3.5, color=SLACK,
                                     zorder=3.2)
        self.hull_pos, self.hull_neg, self.cert = certificate_artists(ax)
        (self.target,) = ax.plot([], [], color=SGD, lw=2.2, ls=(0, (5, 3)), zorder=4.4)
        # the moving SGD line is drawn last (over the points) in a full draw as in a blitted one
        (self.sgd,) = ax.plot([], [], color=SGD, lw=3.0, zorder=7, solid_capstyle="butt")
        self.labels = []
        self.box = (-1.0, 1.0, -1.0, 1.0)
        self.legend = None
        self._entries = []
        self._legend_title = ""

    # ------------------------------------------------------------------ layout
    def set_data(self, X, y, cmp: MarginComparison, sgd: SGDProgress | None, *, box=None,
                 numbers: bool | None = None) -> None:
        """Place everything that depends on the data, the comparison and the run (not the step).

        ``numbers`` (default: when there are at most 30 points) numbers every point; otherwise
        only the support vectors are numbered, when there are at most ``MAX_SV_NUMBERS``.
        """
        ax = self.ax
        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=float)
        fit = cmp.svm
        self.pos.set_offsets(X[y > 0])
        self.neg.set_offsets(X[y < 0])
        if box is None:
            box = plane_box(X, cmp.slack_end)
        self.box = box
        ax.set_xlim(box[0], box[1])
        ax.set_ylim(box[2], box[3])
        for t in self.labels:
            t.remove()
        self.labels = []
        if numbers is None:
            numbers = len(X) <= 30
        # point numbers (1-based, as on the dual-weight axis): all of them when there are
        # few points, else those of the support vectors when there are few of those
        if fit is not None and not numbers and len(fit.support) <= MAX_SV_NUMBERS:
            shown = np.asarray(fit.support)
        else:
            shown = np.arange(len(X)) if numbers else np.zeros(0, dtype=int)
        self._numbers = (X, shown)
        entries = [((self.pos, self.neg), "class +1 / −1")]
        # the maximum-margin (or soft-margin) SVM and its band f = ±1
        if fit is not None:
            w, b = np.asarray(fit.w, dtype=float), float(fit.b)
            _segment(self.line, w, b, box)
            _segment(self.band_hi, w, b, box, level=1.0)
            _segment(self.band_lo, w, b, box, level=-1.0)
            if np.any(w):
                self.slab.set_xy(_slab_polygon(w, b, box, -1.0, 1.0))
                label = ("max-margin line, band f = ±1" if cmp.hard else
                         f"SVM, band f = ±1: 1/‖w‖ = {_g(cmp.svm_margin)}")
            else:  # a soft margin so loose that no line pays for itself
                self.slab.set_xy(np.zeros((1, 2)))
                label = "SVM: w = 0, no line"
            entries.append(((self.line, Patch(facecolor=to_rgba(SLAB, SLAB_ALPHA * 2),
                                              edgecolor=SVM_COLOR, ls=":", lw=1.2)), label))
            sv = np.asarray(fit.support)
            alpha = np.asarray(fit.alpha)[sv]
            top = float(alpha.max()) if alpha.size and alpha.max() > 0 else 1.0
            self.rings.set_offsets(X[sv] if sv.size else _EMPTY)
            self.rings.set_sizes(ring_sizes(alpha, top))
            entries.append((Line2D([], [], ls="none", marker="o", ms=11, mfc="none", mec=S.LINE,
                                   mew=1.8), "support vectors, ring ∝ αᵢ"))
        else:
            for art in (self.line, self.band_hi, self.band_lo):
                art.set_data([], [])
            self.slab.set_xy(np.zeros((1, 2)))
            self.rings.set_offsets(_EMPTY)
            self.rings.set_sizes([])
        # the perceptron's final line and the band its margin reaches
        wp, bp = np.asarray(cmp.perceptron_w, dtype=float), float(cmp.perceptron_b)
        _segment(self.perc, wp, bp, box)
        m = cmp.perceptron_margin
        if m is not None and m > 0:
            level = m * float(np.linalg.norm(wp))
            self.perc_slab.set_xy(_slab_polygon(wp, bp, box, -level, level))
            perc = f"perceptron: margin {_g(m)}"
        else:
            self.perc_slab.set_xy(np.zeros((1, 2)))
            perc = ("perceptron: w = 0" if m is None else
                    f"perceptron: margin {_g(m)}, {cmp.perceptron_errors} wrong")
        entries.append(((self.perc, self.perc_key), perc))
        # slack segments (soft margin)
        segs = np.stack([cmp.slack_start, cmp.slack_end], axis=1) if len(cmp.slack_index) else []
        self.slacks.set_segments(segs)
        if len(cmp.slack_index):
            ends = np.asarray(cmp.slack_end)
            self.slack_ends.set_data(ends[:, 0], ends[:, 1])
            entries.append((self.slacks, f"slack sᵢ/‖w‖: Σsᵢ = {_g(cmp.hinge_total)}"))
        else:
            self.slack_ends.set_data([], [])
        # hulls and their common point when the hard margin does not exist
        cert = cmp.certificate if fit is None else None
        set_hulls(self, X, y, cert)
        if cert is not None:
            if not cert.conic:
                entries.append(((self.hull_pos, self.hull_neg), "hulls of +1 / −1"))
            entries.append((self.cert, "in both cones" if cert.conic else "in both hulls"))
        if sgd is not None:
            t = sgd.target
            tw = np.asarray(t.w, dtype=float)
            flat = float(np.linalg.norm(tw)) <= 1e-9 * max(1.0, float(np.abs(X).max()))
            _segment(self.target, np.zeros(2) if flat else tw, float(t.b), box)
            entries.append((self.sgd, "SGD iterate (61.22)"))
            entries.append((self.target, f"SGD's limit: C = {_g(sgd.C)}"
                            + (", w = 0" if flat else "")))
        else:
            self.target.set_data([], [])
            self.sgd.set_data([], [])
        self._place_numbers(fit)
        self._entries = entries
        self._legend_title = legend_title(cmp)
        if fit is None:
            title = "No hard margin: not separable"
        elif cmp.hard:
            title = "Hard margin (Sayed 61.4)"
        else:
            title = f"Soft margin, C = {_g(cmp.C)} (Sayed 61.11)"
        ax.set_title(title, fontsize=S.TITLE_SIZE, loc="left")

    def _place_numbers(self, fit) -> None:
        """Number points just outside their ring (support vectors) or beside the marker."""
        X, shown = self._numbers
        radius = np.full(len(X), np.sqrt(S.POINT_SIZE) / 2)  # points
        if fit is not None and len(fit.support):
            radius[np.asarray(fit.support)] = np.sqrt(self.rings.get_sizes()) / 2
        self.labels = []
        for i in shown:
            r = 0.72 * radius[i] + 1.5
            t = self.ax.annotate(str(i + 1), (X[i, 0], X[i, 1]), xytext=(r, r),
                                 textcoords="offset points", fontsize=S.TICK_SIZE,
                                 color="#333333", zorder=4, annotation_clip=True)
            t.set_clip_path(self.ax.patch)
            self.labels.append(t)

    def build_legend(self, ncol: int):
        """The legend in ``ncol`` columns, hung a fixed distance below the axes."""
        ax = self.ax
        old = ax.get_legend()
        if old is not None:
            old.remove()
        handles, labels = zip(*self._entries, strict=True)
        below = ax.transAxes + ScaledTranslation(0, -LEGEND_DROP / 72, ax.figure.dpi_scale_trans)
        self.legend = ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0),
                                bbox_transform=below, ncol=ncol, fontsize=S.TICK_SIZE - 1,
                                frameon=False, handlelength=2.4, columnspacing=1.0,
                                handletextpad=0.5, borderaxespad=0.2, title=self._legend_title,
                                title_fontsize=S.TICK_SIZE - 1, alignment="left",
                                handler_map={tuple: HandlerTuple(ndivide=None, pad=0.4)})
        return self.legend

    # ------------------------------------------------------------------ step
    def dynamic_artists(self) -> list:
        """The SGD iterate's line, the only artist of the plane that moves with the step."""
        return [self.sgd]

    def show(self, w, b) -> None:
        """Draw the SGD iterate ``f(x) = <w, x> + b = 0`` (``w=None``: hide it)."""
        if w is None:
            self.sgd.set_data([], [])
        else:
            _segment(self.sgd, np.asarray(w, dtype=float), float(b), self.box)


def ring_sizes(alpha, top: float) -> np.ndarray:
    """Marker areas (points²) of the support-vector rings: growing with ``alpha / top``."""
    alpha = np.asarray(alpha, dtype=float)
    return S.POINT_SIZE * (1.8 + 4.2 * np.clip(alpha / top, 0.0, 1.0))


def legend_title(cmp: MarginComparison) -> str:
    """The plane legend's heading: ``gamma(S)`` and, for a soft margin, ``C`` in Sayed's terms."""
    if cmp.gamma is not None:
        gamma = f"γ(S) = 1/‖w*‖ = {_g(cmp.gamma)} (Sayed 61.3)"
    else:
        gamma = "not separable: no γ(S), no hard margin"
    if cmp.hard:
        return gamma
    return (f"C = {_g(cmp.C)}, in Sayed's terms (61.11, 61.13):\n"
            f"η = N·C = {_g(cmp.sayed_eta)}, ρ = 1/(2η) = {_g(cmp.sayed_rho)}\n{gamma}")


# --------------------------------------------------------------------------- dual weights
class DualWeights:
    """``alpha_i y_i`` of each support vector (Sayed (61.44)), hatched by class."""

    def __init__(self, ax):
        self.ax = ax
        S.style_axes(ax, title="Dual weights: w = Σ αᵢ yᵢ xᵢ (Sayed 61.44)",
                     xlabel="support vector (point number)", ylabel="αᵢ yᵢ")
        self.pos = PolyCollection([], facecolors=to_rgba(S.POS, 0.85), edgecolors=S.POS,
                                  hatch=S.POS_HATCH, linewidths=0.6, zorder=3)
        self.neg = PolyCollection([], facecolors=to_rgba(S.NEG, 0.85), edgecolors=S.NEG,
                                  hatch=S.NEG_HATCH, linewidths=0.6, zorder=3)
        ax.add_collection(self.pos)
        ax.add_collection(self.neg)
        self.zero = ax.axhline(0, color="#888888", lw=0.8, zorder=2)
        (self.cap_hi,) = ax.plot([], [], color=S.LINE, lw=1.2, ls="--", zorder=2)
        (self.cap_lo,) = ax.plot([], [], color=S.LINE, lw=1.2, ls="--", zorder=2)
        self.note = ax.text(0.5, 0.45, "", transform=ax.transAxes, ha="center", va="center",
                            fontsize=S.TEXT_SIZE, color="#333333")
        self.index = np.zeros(0, dtype=int)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=12, integer=True))
        ax.xaxis.set_major_formatter(FuncFormatter(self._tick))
        self.legend = None

    def _tick(self, x, _pos=None) -> str:
        """Tick label at bar ``x``: the point number (1-based) of that support vector."""
        r = int(round(x))
        return str(int(self.index[r]) + 1) if 0 <= r < len(self.index) and abs(x - r) < 1e-6 else ""

    def set_data(self, y, cmp: MarginComparison) -> None:
        """One bar per support vector, in the order of their point numbers (the tick labels)."""
        ax = self.ax
        fit = cmp.svm
        if self.legend is not None:
            self.legend.remove()
            self.legend = None
        if fit is None:
            self.pos.set_verts([])
            self.neg.set_verts([])
            self.cap_hi.set_data([], [])
            self.cap_lo.set_data([], [])
            self.index = np.zeros(0, dtype=int)
            self.zero.set_visible(False)
            self.note.set_text("no hard-margin SVM:\nthe classes' hulls meet (★ in the plane)")
            ax.set_xlim(-0.5, 0.5)
            ax.set_ylim(-1, 1)
            ax.set_yticks([])
            return
        self.note.set_text("")
        self.zero.set_visible(True)
        if cmp.C is None:
            ax.yaxis.set_major_locator(MaxNLocator(nbins=5))
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _p=None: _g(v)))
        else:  # the box of the soft margin's dual, 0 <= alpha_i <= C (61.51)
            ax.yaxis.set_major_locator(FixedLocator([-cmp.C, 0.0, cmp.C]))
            ax.yaxis.set_major_formatter(FuncFormatter(
                lambda v, _p=None: "0" if v == 0 else ("C" if v > 0 else "−C")))
        y = np.asarray(y, dtype=float)
        sv = np.asarray(fit.support)
        self.index = sv
        h = np.asarray(fit.alpha)[sv] * y[sv]
        m = len(sv)
        width = 0.8 if m <= 60 else 1.0
        x = np.arange(m)

        def bars(mask):
            xs, hs = x[mask], h[mask]
            return [[(a - width / 2, 0.0), (a - width / 2, v), (a + width / 2, v), (a + width / 2, 0.0)]
                    for a, v in zip(xs, hs, strict=True)]

        self.pos.set_verts(bars(y[sv] > 0) if m else [])
        self.neg.set_verts(bars(y[sv] < 0) if m else [])
        top = float(np.abs(h).max()) if m else 1.0
        handles = [Patch(facecolor=to_rgba(S.POS, 0.85), edgecolor=S.POS, hatch=S.POS_HATCH),
                   Patch(facecolor=to_rgba(S.NEG, 0.85), edgecolor=S.NEG, hatch=S.NEG_HATCH)]
        labels = ["class +1 (up)", "class −1 (down)"]
        if cmp.C is not None:
            top = max(top, cmp.C)
            self.cap_hi.set_data([-0.5, m - 0.5], [cmp.C, cmp.C])
            self.cap_lo.set_data([-0.5, m - 0.5], [-cmp.C, -cmp.C])
            handles.append(self.cap_hi)
            labels.append("±C (61.51)")
        else:
            self.cap_hi.set_data([], [])
            self.cap_lo.set_data([], [])
        top = top if top > 0 else 1.0
        ax.set_xlim(-0.5 - 0.1 * (m < 3), max(m, 1) - 0.5 + 0.1 * (m < 3))
        free = _free(ax, 1.5, S.TICK_SIZE - 1)
        ax.set_ylim(-top * 1.08, top * 1.08 + 2.16 * top * free / (1 - free))
        self.legend = ax.legend(handles, labels, loc="upper left", ncol=3, **_PANEL_LEGEND,
                                fontsize=S.TICK_SIZE - 1, handlelength=1.6, columnspacing=1.0,
                                borderaxespad=0.2)


# --------------------------------------------------------------------------- SGD objective
class SGDObjective:
    """Sayed's objective (61.13) along an ``svm_sgd`` run, its exact minimum, a step cursor."""

    def __init__(self, ax):
        self.ax = ax
        S.style_axes(ax, title="SGD objective (61.13)", xlabel="step", ylabel="")
        (self.curve,) = ax.plot([], [], color=SGD, lw=2.2, zorder=3, label="P = ρ‖w‖² + mean hinge")
        (self.optimum,) = ax.plot([], [], color=S.BOUND, lw=2.0, ls="--", zorder=2.5,
                                  label="min P (SVM)")
        # above the legend (zorder 5): blitted over the background, they end up on top anyway
        self.cursor = ax.axvline(0, color=S.LINE, lw=1.2, alpha=0.6, zorder=5.5)
        (self.dot,) = ax.plot([], [], ls="none", marker="o", ms=8, color=S.LINE, zorder=6)
        self.note = ax.text(0.5, 0.45, "", transform=ax.transAxes, ha="center", va="center",
                            fontsize=S.TEXT_SIZE, color="#333333")
        self.legend = ax.legend(loc="upper right", fontsize=S.TICK_SIZE - 1, handlelength=2.2,
                                borderaxespad=0.2, **_PANEL_LEGEND)
        self.sgd = None

    def set_data(self, sgd: SGDProgress | None) -> None:
        ax = self.ax
        self.sgd = sgd
        if sgd is None:
            for art in (self.curve, self.optimum, self.dot):
                art.set_data([], [])
            self.cursor.set_visible(False)
            self.legend.set_visible(False)
            self.note.set_text("no SGD run")
            ax.set_yscale("linear")
            ax.set_xlim(0, 1)
            ax.set_ylim(0, 1)
            ax.set_xticks([])
            ax.set_yticks([])
            return
        self.note.set_text("")
        self.legend.set_visible(True)
        self.cursor.set_visible(True)
        steps, obj = np.asarray(sgd.steps), np.asarray(sgd.objective)
        right = max(int(steps[-1]), 1)
        self.curve.set_data(steps, obj)
        self.optimum.set_data([0, right], [sgd.optimum, sgd.optimum])
        self.legend.get_texts()[1].set_text(f"min P = {_g(sgd.optimum)} (SVM)")
        lo = max(min(float(obj.min()), sgd.optimum), 1e-12)
        hi = max(float(obj.max()), sgd.optimum)
        free = _free(ax, 3, S.TICK_SIZE - 1)
        ax.set_xlim(0, right)
        if hi / lo > 5:  # log scale: the last per cent above the minimum stays visible
            ax.set_yscale("log")
            lo, hi = lo / 1.15, hi * 1.08
            ax.set_ylim(lo, hi * (hi / lo) ** (free / (1 - free)))
            decades = np.log10(hi / lo)
            ax.yaxis.set_major_locator(LogLocator(subs=(1.0,) if decades > 1.5 else (1.0, 2.0, 5.0)))
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _p=None: _g(v, 2)))
            ax.yaxis.set_minor_formatter(NullFormatter())
        else:
            ax.set_yscale("linear")
            pad = 0.08 * (hi - lo) + 1e-3 * hi
            lo, hi = max(lo - pad, 0.0), hi + pad
            ax.set_ylim(lo, hi + (hi - lo) * free / (1 - free))
            ax.yaxis.set_major_locator(MaxNLocator(nbins=4))
            ax.yaxis.set_major_formatter(ScalarFormatter(useOffset=False))
        self.ax.xaxis.set_major_locator(MaxNLocator(nbins=4, integer=True))

    def dynamic_artists(self) -> list:
        return [self.cursor, self.dot]

    def show(self, k: int, value: float | None) -> None:
        if value is None:
            self.dot.set_data([], [])
            return
        self.cursor.set_xdata([k, k])
        self.dot.set_data([k], [value])


# --------------------------------------------------------------------------- Example 61.3
class SupportPathPanel:
    """Sayed's Example 61.3: training error rate and ``#SV / N`` against ``C``, current ``C``."""

    def __init__(self, ax):
        self.ax = ax
        S.style_axes(ax, title="Sayed Ex. 61.3", xlabel="C (Sayed's η = N·C)", ylabel="")
        ax.set_xscale("log")
        (self.sv,) = ax.plot([], [], color=S.POS, lw=2.2, ls="--", marker="s", ms=5,
                             label="#SV / N", zorder=3)
        (self.err,) = ax.plot([], [], color=S.NEG, lw=2.2, marker="o", ms=5,
                              label="training error R_emp", zorder=3.5)
        self.now = ax.axvline(1, color=S.LINE, lw=1.4, ls=":", zorder=2, label="C now")
        self.note = ax.text(0.5, 0.45, "", transform=ax.transAxes, ha="center", va="center",
                            fontsize=S.TEXT_SIZE, color="#333333")
        self.legend = ax.legend(loc="upper right", fontsize=S.TICK_SIZE - 1, handlelength=2.2,
                                borderaxespad=0.2, ncol=1, **_PANEL_LEGEND,
                                title="R_emp ≤ #SV/N (61.29)", title_fontsize=S.TICK_SIZE - 1)

    def set_data(self, path: SupportPath | None, C: float | None) -> None:
        ax = self.ax
        if path is None:
            self.sv.set_data([], [])
            self.err.set_data([], [])
            self.now.set_visible(False)
            self.legend.set_visible(False)
            self.note.set_text("no path computed")
            ax.set_xlim(0.1, 10)
            ax.set_ylim(0, 1)
            ax.set_xticks([])
            ax.set_yticks([])
            return
        self.note.set_text("")
        self.legend.set_visible(True)
        ax.xaxis.set_major_locator(LogLocator())
        ax.yaxis.set_major_locator(MaxNLocator(nbins=5))
        Cs = np.asarray(path.Cs)
        self.sv.set_data(Cs, path.sv_fraction)
        self.err.set_data(Cs, path.error_rate)
        lo, hi = float(Cs.min()), float(Cs.max())
        if C is not None:
            lo, hi = min(lo, C), max(hi, C)
            self.now.set_xdata([C, C])
            self.now.set_visible(True)
            self.legend.get_texts()[2].set_text(f"C now = {_g(C)}")
        else:
            self.now.set_visible(False)
            self.legend.get_texts()[2].set_text("hard margin: C → ∞")
        span = np.log10(hi / lo) if hi > lo else 1.0
        ax.set_xlim(lo / 10 ** (0.06 * span), hi * 10 ** (0.06 * span))
        free = _free(ax, 5, S.TICK_SIZE - 1)
        top = max(float(np.max(path.sv_fraction)), 1e-3)
        ax.set_ylim(0, top * 1.04 / (1 - free))


# --------------------------------------------------------------------------- figure
class MarginsFigure(live.LiveFigure):
    """The Margins view's figure: data plane, dual weights, SGD objective, Example 61.3.

    Parameters
    ----------
    fig : matplotlib Figure, optional
        An existing empty figure (a widget passes its ipympl figure); by default a new
        ``matplotlib.figure.Figure`` not tied to pyplot.
    blit : bool, default False
        Draw steps by blitting the moving artists over a cached background (live canvases).
    overlay : {"overlaid"}
        The perceptron's and the SVM's lines share one plane. (A side-by-side layout is not
        offered: see the module notes.)
    """

    def __init__(self, fig=None, *, blit: bool = False, figsize=FIGSIZE, dpi: float = 80,
                 overlay: str = "overlaid"):
        if overlay not in OVERLAYS:
            raise ValueError(f"overlay: expected one of {list(OVERLAYS)}; got {overlay!r}")
        self.overlay = overlay
        self.fig = fig if fig is not None else Figure(figsize=figsize, dpi=dpi)
        if fig is not None:
            self.fig.set_size_inches(*figsize)
        gs = self.fig.add_gridspec(2, 3, width_ratios=WIDTH_RATIOS, hspace=0.42, wspace=0.32,
                                   left=0.065, right=0.985, top=0.94, bottom=0.08)
        self.grid = gs
        self._ratios = WIDTH_RATIOS
        self.plane = MarginPlane(self.fig.add_subplot(gs[:, 0]))
        self.duals = DualWeights(self.fig.add_subplot(gs[0, 1:]))
        self.objective = SGDObjective(self.fig.add_subplot(gs[1, 1]))
        self.path_panel = SupportPathPanel(self.fig.add_subplot(gs[1, 2]))
        self.X = np.zeros((0, 2))
        self.y = np.zeros(0)
        self.comparison = None
        self.path = None
        self.sgd = None
        self._box = None
        self._init_live(blit)

    # ------------------------------------------------------------------ data
    def set_data(self, X, y, comparison: MarginComparison, *, path: SupportPath | None = None,
                 sgd: SGDProgress | None = None, box=None) -> None:
        """Lay out a new comparison (new data, ``C`` or run): the only place artists are placed.

        ``X`` must be 2-D points (``d = 2``) and ``comparison`` computed on them
        (:func:`explorer.margins.compare`); ``path`` from :func:`explorer.margins.support_path`,
        ``sgd`` from :func:`explorer.margins.sgd_progress` on the same data. ``box`` fixes the
        plane's limits ``(xmin, xmax, ymin, ymax)``.
        """
        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=float)
        if X.ndim != 2 or X.shape[1] != 2:
            raise ValueError(f"X: expected points in the plane, shape (n, 2); got shape {X.shape}"
                             " (project first, e.g. datasets.load('breast_cancer', k=2))")
        if y.shape != (X.shape[0],):
            raise ValueError(f"y: expected shape ({X.shape[0]},); got {y.shape}")
        if not isinstance(comparison, MarginComparison):
            raise TypeError(f"comparison: expected a MarginComparison from explorer.margins."
                            f"compare; got {type(comparison).__name__}")
        if comparison.n != X.shape[0]:
            raise ValueError(f"comparison: expected one computed on these {X.shape[0]} points; "
                             f"got one for {comparison.n}")
        if sgd is not None and sgd.X.shape != X.shape:
            raise ValueError(f"sgd: expected a run on these {X.shape[0]} points; got one on "
                             f"{sgd.X.shape[0]}")
        self.X, self.y, self.comparison, self.path, self.sgd = X, y, comparison, path, sgd
        self._box = box
        self.plane.set_data(X, y, comparison, sgd, box=box)
        self.duals.set_data(y, comparison)
        self.objective.set_data(sgd)
        self.path_panel.set_data(path, comparison.C)
        # three legend columns only where two leave much room (each try costs a few ms)
        columns = (3, 2, 1) if self._plane_column() < 0.6 else (2, 1)
        live.legend_below(self.plane.ax, self.plane.build_legend, drop=LEGEND_DROP,
                          columns=columns)
        self.mark_animated()
        self.invalidate()

    def _plane_column(self) -> float:
        """Widen the plane's column (taking from the side panels, at most a third more) so that
        its legend fits in two columns: on a short, wide figure one long column of entries
        would leave room for only a small plane. Returns the two-column legend's width as a
        share of the column's."""
        ratios = list(self._ratios)
        self.grid.set_width_ratios(ratios)
        fig = self.fig
        cells = [self.grid[0, j].get_position(fig) for j in range(3)]
        total = sum(c.width for c in cells) * fig.bbox.width  # px of axes, gaps excluded
        cell = cells[0].width * fig.bbox.width
        renderer = getattr(fig.canvas, "get_renderer", fig._get_renderer)()
        need = self.plane.build_legend(2).get_window_extent(renderer).width + 8
        if cell < need <= cell * 4 / 3 and need < total:
            rest = ratios[1] + ratios[2]
            ratios[0] = need * rest / (total - need)
            self.grid.set_width_ratios(ratios)
            cell = need
        for ax in fig.axes:
            spec = ax.get_subplotspec()
            if spec is not None:
                ax.set_position(spec.get_position(fig))
        return need / cell

    # ------------------------------------------------------------------ step
    def show(self, k: int) -> str:
        """Move the SGD line and the objective cursor to step ``k``; returns a narration."""
        sgd = self.sgd
        if sgd is None:
            self.plane.show(None, None)
            self.objective.show(k, None)
            return ""
        w, b = sgd.traj.state(k)
        value = sgd.objective_at(k)
        self.plane.show(w, b)
        self.objective.show(k, value)
        gap = (value - sgd.optimum) / sgd.optimum if sgd.optimum > 0 else np.inf
        return (f"Step {k} of {sgd.traj.n_steps}: the SGD objective (Sayed (61.13)) is "
                f"{value:.4g}, {gap:.1%} above its minimum {sgd.optimum:.4g} "
                f"(the SVM with C = {sgd.C:.3g}).").replace("-", "−")

    def dynamic_artists(self) -> list:
        """The artists that move with the step, in drawing order."""
        arts = self.plane.dynamic_artists() + self.objective.dynamic_artists()
        return sorted(arts, key=lambda a: a.get_zorder())

    # ------------------------------------------------------------------ size
    def fit(self, width: int, height: int, *, scale: float = 1.0, base_dpi: float = 80) -> None:
        """Resize to ``width`` × ``height`` CSS pixels with type and markers ``scale`` times their
        designed size (see :func:`explorer.plots.live.resize`); on a figure wider than the
        designed aspect the side panels take the extra width."""
        self._ratios = live.fit_grid(self.fig, self.grid, width, height, scale=scale,
                                     base_dpi=base_dpi, ratios=WIDTH_RATIOS,
                                     aspect=FIGSIZE[0] / FIGSIZE[1])
        self.invalidate()
        if self.comparison is not None:  # legend columns, bands and free space follow the size
            self.set_data(self.X, self.y, self.comparison, path=self.path, sgd=self.sgd,
                          box=self._box)
