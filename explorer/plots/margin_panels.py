"""The Margins figure's side panels: dual weights (Sayed (61.44)), the SGD objective (61.13)
along an ``svm_sgd`` run, and Sayed's Example 61.3 (training error and #SV/N against C)."""

from __future__ import annotations

import textwrap

import numpy as np
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import (
    FixedLocator,
    FuncFormatter,
    LogLocator,
    MaxNLocator,
    NullFormatter,
    ScalarFormatter,
)

from ..margins import MarginComparison, SGDProgress, SupportPath
from ..shared.i18n import N_, tr
from ..shared.number_format import number_text
from . import style as S
from .margin_plane import _PANEL_LEGEND, SGD, _free
from .tracks import css_dpi, figure_renderer

__all__ = ["DualWeights", "SGDObjective", "SupportPathPanel"]

TITLE = N_("Dual weights: w = Σ αᵢ yᵢ xᵢ (Sayed 61.44)")
#: The SGD objective's curve in its legend (in lines as narrow as the panel needs).
CURVE_WORDS = N_("P = ρ‖w‖² + mean hinge, along the whole run")


# --------------------------------------------------------------------------- dual weights
#: The bars' axis runs to the largest |alpha_i|; the box ±C of the soft margin's dual (61.51)
#: is drawn when C is at most this many times that (otherwise the bars would be slivers at the
#: foot of an axis running to ±C, and the legend gives C in words).
C_SHOWN_WITHIN = 2.0
_C_TICKS = {-2: "−C", -1: "−C/2", 0: "0", 1: "C/2", 2: "C"}


class DualWeights:
    """``alpha_i y_i`` of each support vector (Sayed (61.44)), hatched by class; the axis is
    scaled to the largest weight, with ``±C`` drawn when it is near (:data:`C_SHOWN_WITHIN`)."""

    def __init__(self, ax):
        self.ax = ax
        self.compact = False
        S.style_axes(ax, title=tr(TITLE),
                     xlabel=tr("support vector (point number)"), ylabel="αᵢ yᵢ")
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

    def set_compact(self, compact: bool) -> None:
        """A narrow panel (side by side): a shorter title and legend."""
        self.compact = bool(compact)
        self.ax.set_title(tr("Dual weights (Sayed 61.44)") if compact else tr(TITLE),
                          fontsize=S.TITLE_SIZE, loc="left")

    def _no_svm(self) -> None:
        """No hard-margin SVM (the hulls meet): no bars, a note saying why."""
        ax = self.ax
        self.pos.set_verts([])
        self.neg.set_verts([])
        self.cap_hi.set_data([], [])
        self.cap_lo.set_data([], [])
        self.index = np.zeros(0, dtype=int)
        self.zero.set_visible(False)
        self.note.set_text(tr("no hard-margin SVM:\nthe hulls meet (★)") if self.compact else
                           tr("no hard-margin SVM:\nthe classes' hulls meet (★ in the plane)"))
        ax.set_xlim(-0.5, 0.5)
        ax.set_ylim(-1, 1)
        ax.set_yticks([])

    def set_data(self, y, cmp: MarginComparison) -> None:
        """One bar per support vector, in the order of their point numbers (the tick labels)."""
        ax = self.ax
        fit = cmp.svm
        self.set_compact(self.compact)  # its title and label in the language shown now
        ax.set_xlabel(tr("support vector (point number)"))
        if self.legend is not None:
            self.legend.remove()
            self.legend = None
        if fit is None:
            self._no_svm()
            return
        self.note.set_text("")
        self.zero.set_visible(True)
        ax.yaxis.set_major_locator(MaxNLocator(nbins=4, symmetric=True))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _p=None: number_text(v, digits=2)))
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
        labels = [tr("class +1 (up)"), tr("class −1 (down)")]
        short = [tr("+1 (up)"), tr("−1 (down)")]
        top = top if top > 0 else 1.0
        if cmp.C is not None and cmp.C <= C_SHOWN_WITHIN * top:
            # the box of the soft margin's dual, 0 <= alpha_i <= C (61.51)
            C = cmp.C
            top = max(top, C)
            self.cap_hi.set_data([-0.5, m - 0.5], [C, C])
            self.cap_lo.set_data([-0.5, m - 0.5], [-C, -C])
            # ticks in units of C (short labels; what matters is a weight against its cap)
            ax.yaxis.set_major_locator(FixedLocator([-C, -C / 2, 0.0, C / 2, C]))
            ax.yaxis.set_major_formatter(FuncFormatter(
                lambda v, _p=None: _C_TICKS.get(round(v / C * 2) if C else 0, "")))
            handles.append(self.cap_hi)
            labels.append(tr("limit ±C = {C} (61.51)").format(C=number_text(C)))
            short.append("±C")
        elif cmp.C is not None:  # far above every weight: said, not drawn
            self.cap_hi.set_data([], [])
            self.cap_lo.set_data([], [])
            handles.append(Line2D([], [], color=S.LINE, lw=1.2, ls="--"))
            labels.append(tr("C = {C}: off scale").format(C=number_text(cmp.C)))
            short.append(tr("C: off scale"))
        else:
            self.cap_hi.set_data([], [])
            self.cap_lo.set_data([], [])
        ax.set_xlim(-0.5 - 0.1 * (m < 3), max(m, 1) - 0.5 + 0.1 * (m < 3))
        free = _free(ax, 1.5, S.TICK_SIZE - 1)
        ax.set_ylim(-top * 1.08, top * 1.08 + 2.16 * top * free / (1 - free))
        # the short words in a narrow panel (side by side, or a legend that would be wider)
        room = ax.get_position().width * ax.figure.bbox.width
        for words in ([short] if self.compact else [labels, short]):
            if self.legend is not None:
                self.legend.remove()
            self.legend = ax.legend(handles, words, loc="upper left", ncol=3, **_PANEL_LEGEND,
                                    fontsize=S.legend_size(css_dpi(ax.figure)), handlelength=1.6,
                                    columnspacing=0.6 if words is short else 1.0,
                                    borderaxespad=0.2)
            if self.legend.get_window_extent(figure_renderer(ax.figure)).width <= room:
                break


# --------------------------------------------------------------------------- SGD objective
class SGDObjective:
    """Sayed's objective (61.13) along an ``svm_sgd`` run, its exact minimum, a step cursor.

    The curve is the whole run, for reference (its legend says so), not a "so far" panel."""

    def __init__(self, ax):
        self.ax = ax
        S.style_axes(ax, title=tr("SGD objective (61.13)"), xlabel=tr("step"), ylabel="")
        (self.curve,) = ax.plot([], [], color=SGD, lw=2.2, zorder=3,
                                label=tr(CURVE_WORDS))
        (self.optimum,) = ax.plot([], [], color=S.BOUND, lw=2.0, ls="--", zorder=2.5,
                                  label=tr("min P (SVM)"))
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
        ax.set_title(tr("SGD objective (61.13)"), fontsize=S.TITLE_SIZE, loc="left")
        ax.set_xlabel(tr("step"))
        if sgd is None:
            for art in (self.curve, self.optimum, self.dot):
                art.set_data([], [])
            self.cursor.set_visible(False)
            self.legend.set_visible(False)
            self.note.set_text(tr("no SGD run"))
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
        texts = self.legend.get_texts()
        texts[1].set_text(tr("min P = {P} (SVM)").format(P=number_text(sgd.optimum)))
        # the curve's words in as many lines as the panel's width needs
        room = ax.get_position().width * ax.figure.bbox.width
        for width in (26, 18, 12):
            texts[0].set_text("\n".join(textwrap.wrap(tr(CURVE_WORDS), width,
                                                       break_on_hyphens=False)))
            if self.legend.get_window_extent(figure_renderer(ax.figure)).width <= room:
                break
        lo = max(min(float(obj.min()), sgd.optimum), 1e-12)
        hi = max(float(obj.max()), sgd.optimum)
        lines = texts[0].get_text().count("\n") + 2
        free = _free(ax, lines + 1, S.TICK_SIZE - 1)  # the legend's lines, and a gap
        ax.set_xlim(0, right)
        if hi / lo > 5:  # log scale: the last per cent above the minimum stays visible
            ax.set_yscale("log")
            lo, hi = lo / 1.15, hi * 1.08
            ax.set_ylim(lo, hi * (hi / lo) ** (free / (1 - free)))
            decades = np.log10(hi / lo)
            ax.yaxis.set_major_locator(LogLocator(subs=(1.0,) if decades > 1.5 else (1.0, 2.0, 5.0)))
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _p=None: number_text(v, digits=2)))
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
#: The support path legend's heading.
PATH_HEADING = N_("error ≤ #SV/N (Sayed 61.29)")


class SupportPathPanel:
    """Sayed's Example 61.3: training error rate and ``#SV / N`` against ``C``, current ``C``."""

    def __init__(self, ax):
        self.ax = ax
        S.style_axes(ax, title=tr("Support path, Ex. 61.3"), xlabel=tr("C (Sayed's η = N·C)"),
                     ylabel="")
        ax.set_xscale("log")
        (self.sv,) = ax.plot([], [], color=S.POS, lw=2.2, ls="--", marker="s", ms=5,
                             label="#SV / N", zorder=3)
        (self.err,) = ax.plot([], [], color=S.NEG, lw=2.2, marker="o", ms=5,
                              label=tr("training error R_emp"), zorder=3.5)
        self.now = ax.axvline(1, color=S.LINE, lw=1.4, ls=":", zorder=2, label=tr("C now"))
        self.note = ax.text(0.5, 0.45, "", transform=ax.transAxes, ha="center", va="center",
                            fontsize=S.TEXT_SIZE, color="#333333")
        self.legend = ax.legend(loc="upper right", fontsize=S.TICK_SIZE - 1, handlelength=2.2,
                                borderaxespad=0.2, ncol=1, **_PANEL_LEGEND,
                                title=tr(PATH_HEADING), title_fontsize=S.TICK_SIZE - 1)

    def set_data(self, path: SupportPath | None, C: float | None) -> None:
        ax = self.ax
        ax.set_title(tr("Support path, Ex. 61.3"), fontsize=S.TITLE_SIZE, loc="left")
        ax.set_xlabel(tr("C (Sayed's η = N·C)"))  # the words in the language shown now
        self.legend.set_title(tr(PATH_HEADING))
        self.legend.get_texts()[1].set_text(tr("training error R_emp"))
        if path is None:
            self.sv.set_data([], [])
            self.err.set_data([], [])
            self.now.set_visible(False)
            self.legend.set_visible(False)
            self.note.set_text(tr("no path computed"))
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
            self.legend.get_texts()[2].set_text(tr("C now = {C}").format(C=number_text(C)))
        else:
            self.now.set_visible(False)
            self.legend.get_texts()[2].set_text(tr("hard margin: C → ∞"))
        span = np.log10(hi / lo) if hi > lo else 1.0
        ax.set_xlim(lo / 10 ** (0.06 * span), hi * 10 ** (0.06 * span))
        free = _free(ax, 5, S.TICK_SIZE - 1)
        top = max(float(np.max(path.sv_fraction)), 1e-3)
        ax.set_ylim(0, top * 1.04 / (1 - free))
