"""The Margins figure's data plane: the points, the SVM's line and band, the perceptron's line
with its band, support vectors ringed by dual weight, slack segments, the certificate when no hard
margin exists, and the SGD iterate (Sayed ch. 61). Drawn by :class:`explorer.plots.MarginsFigure`.
"""

from __future__ import annotations

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.colors import to_rgba
from matplotlib.legend_handler import HandlerTuple
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Polygon

from ..margins import MarginComparison, SGDProgress
from ..shared.geometry import clip_line
from ..shared.i18n import tr
from ..shared.number_format import number_text
from . import style as S
from .margin_parts import apply_plane, plane_parts, ring_sizes
from .margin_parts import slab_polygon as _slab_polygon
from .overlays import LEGEND_DROP, certificate_artists, set_hulls
from .plane import data_box
from .room import anchor
from .tracks import css_dpi

__all__ = ["MarginPlane", "legend_title", "plane_box", "ring_sizes"]

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
#: What a plane shows: both separators (overlaid), or one of them (side by side).
PARTS = ("both", "svm", "perceptron")
MAX_SV_NUMBERS = 15  # support vectors numbered in the plane when not every point is


def _free(ax, lines: int, size: float) -> float:
    """Share of the axes' height taken by ``lines`` rows of text of ``size`` points, plus a gap."""
    fig, pos = ax.figure, ax.get_position()
    height = pos.height * fig.get_figheight() * 72
    size = S.legend_size(css_dpi(fig), size)  # a legend's type is never under its floor
    return float(np.clip((lines * 1.3 * size + 8) / max(height, 1.0), 0.12, 0.6))


def plane_box(X, ends, *, band=None, reach: float = 1.5):
    """The plane's limits: the points (and the origin) padded, grown to show the slack segments'
    ends and both edges ``f(x) = ±1`` of the band when that needs at most ``reach`` times the
    side on each side (the view then spans up to ``1 + 2·reach`` times the data's). A band
    wider still (a very small ``C``) would shrink the data to a dot: then the view keeps to
    the data, the segments are clipped at its edge, and the legend says the band's edges lie
    beyond the view.

    ``band`` is the SVM's ``(w, b)`` (None: no band); an edge enters the view through its
    point nearest the data's centre.
    """
    box = np.array(data_box(X), dtype=float)
    ends = np.asarray(ends, dtype=float).reshape(-1, 2)
    if band is not None and np.any(band[0]):
        w, b = np.asarray(band[0], dtype=float), float(band[1])
        centre = np.array([(box[0] + box[1]) / 2, (box[2] + box[3]) / 2])
        feet = [centre - (centre @ w + b - level) / (w @ w) * w for level in (-1.0, 1.0)]
        ends = np.vstack([ends, *feet])
    if len(ends):
        side = box[1] - box[0]
        # a margin of 5 % of the view around the ends, so the band's edges do not hug its rim
        grown = max(side, float(np.ptp(np.vstack([ends, box[[0, 2]], box[[1, 3]]]), axis=0).max()))
        lo = np.minimum(box[[0, 2]], ends.min(axis=0) - 0.05 * grown)
        hi = np.maximum(box[[1, 3]], ends.max(axis=0) + 0.05 * grown)
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


# --------------------------------------------------------------------------- data plane
class MarginPlane:
    """The 2-D data with both separators, the band, support vectors, slacks and the SGD line."""

    def __init__(self, ax, *, parts: str = "both"):
        if parts not in PARTS:
            raise ValueError(f"parts: expected one of {list(PARTS)}; got {parts!r}")
        self.ax = ax
        self.parts = parts
        S.style_axes(ax, title=tr("Margins"), xlabel="x₁", ylabel="x₂")
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
        self._items = []
        self._legend_title = ""
        #: The plane of w data of more than two features are drawn in
        #: (:class:`explorer.plots.margin_view.MarginView`); None for two features.
        self.view = None

    @property
    def _entries(self) -> list:
        """The legend's (handle, label) pairs (its items also hold each label's short form,
        for a narrow plane, and a kind)."""
        return [(item[0], item[1]) for item in self._items]

    # ------------------------------------------------------------------ layout
    def drawn(self, X, cmp: MarginComparison) -> tuple[np.ndarray, MarginComparison]:
        """The data and the comparison as this plane draws them: as they are (two features),
        or in the plane of w (:attr:`view`)."""
        X = np.asarray(X, dtype=float)
        if self.view is None:
            return X, cmp
        return self.view.points(X), self.view.comparison(cmp)

    def set_data(self, X, y, cmp: MarginComparison, sgd: SGDProgress | None, *, box=None,
                 numbers: bool | None = None, view=None) -> None:
        """Place everything that depends on the data, the comparison and the run (not the step).

        ``numbers`` (default: when there are at most 30 points) numbers every point; otherwise
        only the support vectors are numbered, when there are at most ``MAX_SV_NUMBERS``.
        ``view``: for data of more than two features, the plane of w they are drawn in
        (:class:`explorer.plots.margin_view.MarginView` of ``X`` and ``cmp``).
        """
        ax = self.ax
        self.view = view
        perc_norm = float(np.linalg.norm(cmp.perceptron_w))
        X, cmp = self.drawn(X, cmp)
        y = np.asarray(y, dtype=float)
        fit = cmp.svm
        if box is None:
            band = (fit.w, fit.b) if fit is not None else None
            box = plane_box(X, cmp.slack_end, band=band)
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
        entries = [((self.pos, self.neg), tr("class +1 / −1"), tr("class ±1"))]
        self.place_svm(X, y, cmp)
        entries += self._svm_entries(cmp)
        entries.append(self._perceptron_entry(cmp, box, perc_norm))
        if len(cmp.slack_index):
            total = number_text(cmp.hinge_total)
            entries.append((self.slacks, tr("slack sᵢ/‖w‖: Σsᵢ = {total}").format(total=total),
                            tr("slack: Σsᵢ = {total}").format(total=total)))
        # hulls and their common point when the hard margin does not exist
        cert = cmp.certificate if fit is None else None
        set_hulls(self, X, y, cert)
        if cert is not None:
            if not cert.conic:
                hulls = tr("hulls of +1 / −1")
                entries.append(((self.hull_pos, self.hull_neg), hulls, hulls))
            both = tr("in both cones") if cert.conic else tr("in both hulls")
            entries.append((self.cert, both, both))
        entries += self._sgd_entries(sgd, X, box)
        self._place_numbers(fit)
        self._items = entries
        # side by side the plane is narrow: C in Sayed's terms stays in the settings column
        self._legend_title = legend_title(cmp, short=self.parts == "svm")
        if self.parts == "svm":
            self._items = [(h, short, short, *kind) for h, _label, short, *kind in self._items]
        if self.parts != "both":
            self._keep_parts(cmp)
        title, xlabel, ylabel = self._title(cmp), "x₁", "x₂"
        if view is not None:  # what the plane is, and what its distances are
            words = view.words()
            self._legend_title += "\n" + view.legend_words(parts=self.parts)
            if self.parts == "both":  # which margin in brackets: a narrow title drops it
                # (live.fit_title; the legend says C)
                title = tr("{plane} ({margin})").format(plane=words[0], margin=_which(cmp))
            xlabel, ylabel = words[1], words[2]
        ax.set_title(title, fontsize=S.TITLE_SIZE, loc="left")
        ax.set_xlabel(xlabel, fontsize=S.LABEL_SIZE)
        if self.parts != "svm":  # side by side the y axis is labelled once, on the left
            ax.set_ylabel(ylabel, fontsize=S.LABEL_SIZE)

    def _svm_entries(self, cmp: MarginComparison) -> list:
        """The legend's entries of the maximum-margin (or soft-margin) SVM and its band
        f = ±1, and of the support vectors' rings (none without an SVM)."""
        fit, entries = cmp.svm, []
        if fit is not None:
            m = number_text(cmp.svm_margin)
            if np.any(fit.w) and not self.band_shown():
                if len(self.line.get_xdata()):
                    label = tr("SVM; band f = ±1 beyond this view: 1/‖w‖ = {m}").format(m=m)
                    short = tr("band beyond view: 1/‖w‖ = {m}").format(m=m)
                else:
                    label = tr("SVM line and band f = ±1 beyond this view: 1/‖w‖ = {m}"
                               ).format(m=m)
                    short = tr("SVM beyond view: 1/‖w‖ = {m}").format(m=m)
            elif np.any(fit.w) and cmp.hard:
                label, short = tr("max-margin line, band f = ±1"), tr("max-margin line, f = ±1")
            elif np.any(fit.w):
                label = tr("SVM, band f = ±1: 1/‖w‖ = {m}").format(m=m)
                short = tr("band: 1/‖w‖ = {m}").format(m=m)
            else:  # a soft margin so loose that no line pays for itself
                label = short = tr("SVM: w = 0, no line")
            entries.append(((self.line, Patch(facecolor=to_rgba(SLAB, SLAB_ALPHA * 2),
                                              edgecolor=SVM_COLOR, ls=":", lw=1.2)), label,
                            short))
            entries.append((Line2D([], [], ls="none", marker="o", ms=11, mfc="none", mec=S.LINE,
                                   mew=1.8), tr("support vectors, ring ∝ αᵢ"),
                            tr("support vectors ∝ αᵢ"), "support"))
        return entries

    def _perceptron_entry(self, cmp: MarginComparison, box, norm: float) -> tuple:
        """Place the perceptron's final line and the band its margin reaches (``norm``: its
        ``||w||`` in ``R^M``, the band being ``|f| <= margin·||w||``); its legend entry
        (handle, label, short label)."""
        wp, bp = np.asarray(cmp.perceptron_w, dtype=float), float(cmp.perceptron_b)
        _segment(self.perc, wp, bp, box)
        m = cmp.perceptron_margin
        # in the SVM's plane of w the perceptron's band would be its slab's cut with the plane,
        # wider there than its margin: only its line is drawn, its margin said
        cut = self.view is not None and self.view.kind != "perceptron"
        if m is not None and m > 0 and cut:
            self.perc_slab.set_xy(np.zeros((1, 2)))
            dims = str(self.view.M).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
            perc = tr("perceptron: margin {m} in ℝ{dims}, band not drawn").format(
                m=number_text(m), dims=dims)
            return self.perc, perc, perc
        if m is not None and m > 0:
            level = m * norm
            self.perc_slab.set_xy(_slab_polygon(wp, bp, box, -level, level))
            perc = tr("perceptron: margin {m}").format(m=number_text(m))
        else:
            self.perc_slab.set_xy(np.zeros((1, 2)))
            perc = (tr("perceptron: w = 0") if m is None else
                    tr("perceptron: margin {m}, {wrong} wrong").format(
                        m=number_text(m), wrong=cmp.perceptron_errors))
        return (self.perc, self.perc_key), perc, perc

    def _sgd_entries(self, sgd: SGDProgress | None, X: np.ndarray, box) -> list:
        """Place the SGD run's limit (none without a run); the legend's entries of its iterate
        and limit."""
        entries = []
        if sgd is not None:
            t = sgd.target
            tw, tb = np.asarray(t.w, dtype=float), float(t.b)
            flat = float(np.linalg.norm(tw)) <= 1e-9 * max(1.0, float(np.abs(X).max()))
            if self.view is not None:  # where its hyperplane cuts the plane of w
                tw, tb = self.view.hyperplane(tw, tb)
            _segment(self.target, np.zeros(2) if flat else tw, tb, box)
            entries.append((self.sgd, tr("SGD iterate (61.22)"), tr("SGD rule (61.22)")))
            C = number_text(sgd.C)
            entries.append((self.target, tr("SGD's limit: C = {C}, w = 0").format(C=C) if flat
                            else tr("SGD's limit: C = {C}").format(C=C), tr("its limit")))
        else:
            self.target.set_data([], [])
            self.sgd.set_data([], [])
        return entries

    def _title(self, cmp: MarginComparison) -> str:
        """The plane's title: which margin, or which part alone."""
        fit = cmp.svm
        if self.parts == "perceptron":
            return tr("Perceptron's line (classic rule)")
        if self.parts != "both":
            if fit is None:
                return tr("No hard margin")
            return (tr("Max margin (61.4)") if cmp.hard else
                    tr("Soft margin, C = {C}").format(C=number_text(cmp.C)))
        if fit is None:
            return tr("No hard margin: not separable")
        if cmp.hard:
            return tr("Hard margin (Sayed 61.4)")
        return tr("Soft margin, C = {C} (Sayed 61.11)").format(C=number_text(cmp.C))

    def _keep_parts(self, cmp: MarginComparison) -> None:
        """Side by side: leave out the other separator's artists and legend entries."""
        if self.parts == "svm":
            hide = [self.perc]
            self.perc_slab.set_xy(np.zeros((1, 2)))
        else:
            hide = [self.line, self.band_hi, self.band_lo, self.slack_ends, self.target,
                    self.sgd, self.cert, self.hull_pos, self.hull_neg]
            self.slab.set_xy(np.zeros((1, 2)))
            self.rings.set_offsets(_EMPTY)
            self.rings.set_sizes([])
            self.slacks.set_segments([])
            for t in self.labels:
                t.remove()
            self.labels = []
            self._legend_title = tr("final line: cyclic passes from w = 0")
        for art in hide:
            if hasattr(art, "set_data"):
                art.set_data([], [])
            else:
                art.set_visible(False)
        shown = {id(a) for a in hide} | ({id(self.slacks)} if self.parts == "perceptron" else set())
        self._items = [(h, label, short, *kind) for h, label, short, *kind in self._items
                         if not any(id(a) in shown for a in (h if isinstance(h, tuple) else (h,)))
                         and not (self.parts == "perceptron" and kind == ["support"])]

    def place_svm(self, X, y, cmp: MarginComparison) -> None:
        """Move the points, the SVM's line, band and rings and the slack segments to a new
        solution, inside the current box (legend, limits and the perceptron's line untouched):
        the parts of :func:`explorer.plots.margin_parts.plane_parts`, which the page draws."""
        pt = self.ax.figure.dpi / 72.0  # the rings' diameters go through px and back
        apply_plane(self, plane_parts(self, X, y, cmp, pt=pt), pt=pt)

    def band_shown(self) -> bool:
        """Whether both edges ``f(x) = ±1`` of the band cross the view."""
        return len(self.band_hi.get_xdata()) > 0 and len(self.band_lo.get_xdata()) > 0

    def edit_artists(self) -> list:
        """The artists an edit of the data moves (drawn over the background while editing)."""
        return [self.slab, self.band_hi, self.band_lo, self.pos, self.neg, self.slacks,
                self.slack_ends, self.rings, self.line, *self.labels]

    def _place_numbers(self, fit) -> None:
        """Number points just outside their ring (support vectors) or beside the marker."""
        X, shown = self._numbers
        radius = np.full(len(X), np.sqrt(S.POINT_SIZE) / 2)  # points
        if fit is not None and len(fit.support) and self.parts != "perceptron":
            radius[np.asarray(fit.support)] = np.sqrt(self.rings.get_sizes()) / 2
        self.labels = []
        for i in shown:
            r = 0.72 * radius[i] + 1.5
            t = self.ax.annotate(str(i + 1), (X[i, 0], X[i, 1]), xytext=(r, r),
                                 textcoords="offset points", fontsize=S.TICK_SIZE,
                                 color="#333333", zorder=4, annotation_clip=True)
            t.set_clip_path(self.ax.patch)
            self.labels.append(t)

    def build_legend(self, ncol: int, where: str = "below"):
        """The legend in ``ncol`` columns, hung a fixed distance below the axes, or beside
        them (:func:`explorer.plots.room.anchor`); its type is never under
        ``S.LEGEND_MIN_PX``."""
        self.legend = margin_legend(self.ax, [e[:2] for e in self._items], ncol=ncol,
                                    where=where, title=self._legend_title)
        return self.legend

    # ------------------------------------------------------------------ step
    def dynamic_artists(self) -> list:
        """The SGD iterate's line, the only artist of the plane that moves with the step."""
        return [] if self.parts == "perceptron" else [self.sgd]

    def show(self, w, b) -> None:
        """Draw the SGD iterate ``f(x) = <w, x> + b = 0`` (``w=None``: hide it)."""
        if w is None or self.parts == "perceptron":
            self.sgd.set_data([], [])
        else:
            _segment(self.sgd, np.asarray(w, dtype=float), float(b), self.box)


def _which(cmp: MarginComparison) -> str:
    """Which margin the plane shows, for the bracket of a title that says what the plane is."""
    if cmp.svm is None:
        return tr("no hard margin: not separable")
    if cmp.hard:
        return tr("hard margin")
    return tr("soft margin, C = {C}").format(C=number_text(cmp.C))


def margin_legend(ax, entries, *, ncol: int, where: str, title: str):
    """The margin plane's legend on ``ax`` (2-D or the 3-D view): ``entries`` (handle, label)
    in ``ncol`` columns, hung below or beside the axes (:func:`explorer.plots.room.anchor`),
    its type never under ``S.LEGEND_MIN_PX``; a legend already there goes."""
    old = ax.get_legend()
    if old is not None:
        old.remove()
    handles, labels = zip(*entries, strict=True) if entries else ((), ())
    size = S.legend_size(css_dpi(ax.figure))
    place = {"borderaxespad": 0.2, **anchor(ax, where, drop=LEGEND_DROP)}
    return ax.legend(list(handles), list(labels), ncol=ncol, fontsize=size, frameon=False,
                     handlelength=2.4, columnspacing=1.0, handletextpad=0.5, title=title,
                     title_fontsize=size, alignment="left", **place,
                     handler_map={tuple: HandlerTuple(ndivide=None, pad=0.4)})


def legend_title(cmp: MarginComparison, *, short: bool = False) -> str:
    """The plane legend's heading: ``gamma(S)`` and, for a soft margin (unless ``short``),
    ``C`` in Sayed's terms."""
    if cmp.gamma is not None:
        gamma = tr("margin γ(S) = 1/‖w*‖ = {gamma} (Sayed 61.3)").format(
            gamma=number_text(cmp.gamma))
    else:
        gamma = (tr("no γ(S): not separable") if short else
                 tr("not separable: no γ(S), no hard margin"))
    if cmp.hard or short:
        return gamma
    terms = tr("C = {C}, in Sayed's terms (61.11, 61.13):").format(C=number_text(cmp.C))
    return (f"{terms}\nη = N·C = {number_text(cmp.sayed_eta)}, ρ = 1/(2η) = "
            f"{number_text(cmp.sayed_rho)}\n{gamma}")
