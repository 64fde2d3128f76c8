"""The Cover figure: Cover's counting theorem as curves, small sets' dichotomies, Boolean counts.

One live figure with three views (:data:`VIEWS`), each a set of axes shown alone:

* ``"curves"``: ``P(M, N) = S(M, N) / 2^N`` (Sayed (60.65), (60.78); Cover 1965) for several
  ``M`` against ``N / (M + 1)`` or against ``N`` (log scale), the capacity ``N = 2 (M + 1)``
  where every curve crosses 1/2 (Sayed (60.81)), and Monte Carlo estimates with error bars
  (:class:`CurvesPanel`);
* ``"dichotomies"``: a small point set (:class:`~explorer.plots.dichotomy_grid.PointSetPlane`)
  beside a page of its dichotomies (:class:`~explorer.plots.dichotomy_grid.TileGrid`);
* ``"boolean"``: the 16 Boolean functions of two inputs as tiles beside the counts of
  Sayed's Table 60.3 (:class:`~explorer.plots.dichotomy_grid.BooleanCounts`).

Artists are made once and updated in place; the figure has no steps, so :meth:`render`
draws the whole visible figure, except that in the curves view with ``blit`` a new set of M
redraws only the curves, dots and legend over a cached background (:meth:`redraw`).
"""

from __future__ import annotations

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.lines import Line2D

from ..shared.i18n import N_, tr
from . import live
from . import style as S
from .cover_scene import MC_Z, CoverScene, mc_marks
from .dichotomy_grid import BooleanCounts, PointSetPlane, TileGrid
from .page_figure import new_figure

__all__ = ["CoverFigure", "CurvesPanel", "MonteCarloFilm", "VIEWS"]

VIEWS = ("curves", "dichotomies", "boolean")
FIGSIZE = (13.0, 6.8)
#: One colour, dash pattern and marker per curve: distinct in colour and in greyscale.
COLORS = (S.POS, S.NEG, S.UPDATE, S.TRIGGER, S.BOUND, S.ACCENT, "#000000", S.GHOST)
DASHES = ("-", "--", "-.", ":", (0, (6, 2, 1, 2, 1, 2)), (0, (1, 1)), (0, (8, 3)), "-")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
#: The narration's point past the capacity on each curve (none of the Monte Carlo markers).
PAST_MARKER = "d"


#: The curves panel's title.
TITLE = N_("Cover's theorem: P(M, N) = S(M, N) / 2ᴺ  (Sayed (60.65), (60.78); Cover 1965)")


class CurvesPanel:
    """``P(M, N)`` for up to eight ``M``, the capacity marks and Monte Carlo dots."""

    def __init__(self, ax):
        self.ax = ax
        S.style_axes(ax, title=tr(TITLE), ylabel=tr("P(M, N), fraction separable"))
        self.curves = []
        self.mc_dots = []
        self.mc_bars = []
        for i in range(len(COLORS)):
            (line,) = ax.plot([], [], color=COLORS[i], ls=DASHES[i], lw=2.4, zorder=3)
            (dots,) = ax.plot([], [], ls="none", marker=MARKERS[i], ms=7, mfc="white",
                              mec=COLORS[i], mew=1.8, zorder=5)
            bars = LineCollection([], colors=COLORS[i], linewidths=1.6, zorder=4.5)
            ax.add_collection(bars)
            self.curves.append(line)
            self.mc_dots.append(dots)
            self.mc_bars.append(bars)
        self.half = ax.axhline(0.5, color=S.GHOST, lw=1.2, ls=":", zorder=1)
        self.cap_line = ax.axvline(2.0, color=S.LINE, lw=1.4, ls=":", zorder=1)
        (self.cap_dots,) = ax.plot([], [], ls="none", marker="o", ms=9, mfc=S.CERT, mec=S.LINE,
                                   mew=1.4, zorder=6)
        # the narration's P past the capacity, at N = past_capacity(M): a vertex of each curve
        (self.past_dots,) = ax.plot([], [], ls="none", marker=PAST_MARKER, ms=10, mfc=S.LINE,
                                    mec="white", mew=1.2, zorder=6)
        self.legend = None
        self.Ms = ()
        self.mode = "ratio"

    def set_data(self, curves, *, mode: str = "ratio", mc=(), mc_legend: bool | None = None
                 ) -> None:
        """Draw ``curves`` (from :func:`explorer.cover.cover_curves`) and Monte Carlo points.

        ``mode`` is ``"ratio"`` (x = N / (M + 1), linear) or ``"n"`` (x = N, log scale).
        ``mc_legend`` (default: whether ``mc`` has points) lists the Monte Carlo marks in the
        legend (a film of the points appearing keeps the entry from its first frame on).
        """
        if mode not in ("ratio", "n"):
            raise ValueError(f"expected mode 'ratio' or 'n'; got {mode!r}")
        ax = self.ax
        ax.set_title(tr(TITLE), fontsize=S.TITLE_SIZE, loc="left")  # the language shown now
        ax.set_ylabel(tr("P(M, N), fraction separable"))
        self.mode = mode
        self.Ms = tuple(c.M for c in curves)
        ratio = mode == "ratio"
        ax.set_xscale("linear" if ratio else "log")
        for i, line in enumerate(self.curves):
            if i < len(curves):
                c = curves[i]
                x = c.N / (c.M + 1) if ratio else c.N
                keep = slice(None) if ratio else slice(1, None)  # no N = 0 on a log axis
                line.set_data(x[keep], c.P[keep])
                line.set_label(f"M = {c.M}")
                line.set_visible(True)
            else:
                line.set_data([], [])
                line.set_visible(False)
        caps = np.array([[2.0 if ratio else c.capacity, 0.5] for c in curves])
        self.cap_dots.set_data(caps[:, 0], caps[:, 1])
        past = np.array([[c.past / (c.M + 1) if ratio else c.past, c.P[c.past]]
                         for c in curves if c.past is not None]).reshape(-1, 2)
        self.past_dots.set_data(past[:, 0], past[:, 1])
        self.cap_line.set_visible(ratio)
        for dots, bars, marks in zip(self.mc_dots, self.mc_bars,
                                     mc_marks(curves, mc, mode=mode, slots=len(COLORS)),
                                     strict=True):
            dots.set_data(marks[:, 0], marks[:, 1])
            bars.set_segments([[(a, lo), (a, hi)] for a, _, lo, hi in marks])
        if ratio:
            ax.set_xlim(0, 3.06)
            ax.set_xlabel(tr("N / (M + 1)   (capacity at 2: N = 2(M + 1), Sayed (60.81))"),
                          fontsize=S.LABEL_SIZE)
        else:
            top = max(c.N[-1] for c in curves)
            ax.set_xlim(1, top * 1.05)
            ax.set_xlabel(tr("N, number of points (log scale); dots: capacity N = 2(M + 1)"),
                          fontsize=S.LABEL_SIZE)
        ax.set_ylim(-0.03, 1.05)
        handles = [self.curves[i] for i in range(len(curves))]
        labels = [f"M = {c.M}" for c in curves]
        handles.append(Line2D([], [], ls="none", marker="o", ms=9, mfc=S.CERT, mec=S.LINE))
        labels.append(tr("P = 1/2 at N = 2(M+1)"))
        handles.append(Line2D([], [], ls="none", marker=PAST_MARKER, ms=10, mfc=S.LINE,
                              mec="white", mew=1.2))
        labels.append(tr("P at N = ⌈2.5(M+1)⌉"))
        if bool(mc) if mc_legend is None else mc_legend:
            handles.append(Line2D([], [], ls="-", marker="o", mfc="white", mec=S.LINE,
                                  color=S.LINE, lw=1.2))
            labels.append(tr("Monte Carlo ± {z} s.e.").format(z=f"{MC_Z:g}"))
        if self.legend is not None:
            self.legend.remove()
        self.legend = ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                                fontsize=S.TICK_SIZE, frameon=False, borderaxespad=0.0)

    def curve_xy(self, M: int) -> tuple[np.ndarray, np.ndarray]:
        """The data of the curve drawn for ``M`` (for tests)."""
        line = self.curves[self.Ms.index(M)]
        return np.asarray(line.get_xdata()), np.asarray(line.get_ydata())


class CoverFigure(CoverScene):
    """The Cover tab's figure; :meth:`set_view` chooses which panels are shown."""

    def __init__(self, fig=None, *, blit: bool = False, figsize=FIGSIZE, dpi: float = 80):
        self.fig = new_figure(fig, figsize=figsize, dpi=dpi)
        self.curves = CurvesPanel(self.fig.add_axes([0.07, 0.1, 0.7, 0.8]))
        self.plane = PointSetPlane(self.fig.add_axes([0.05, 0.1, 0.3, 0.8]))
        self.tiles = TileGrid(self.fig.add_axes([0.4, 0.05, 0.58, 0.85]))
        self.bool_tiles = TileGrid(self.fig.add_axes([0.02, 0.05, 0.5, 0.85]))
        self.bool_counts = BooleanCounts(self.fig.add_axes([0.6, 0.1, 0.38, 0.8]))
        self._groups = {"curves": [self.curves.ax],
                        "dichotomies": [self.plane.ax, self.tiles.ax],
                        "boolean": [self.bool_tiles.ax, self.bool_counts.ax]}
        self.view = "curves"
        self._size = (FIGSIZE[0] * dpi, FIGSIZE[1] * dpi, 1.0, dpi)
        self._static_key = None
        self._init_live(blit)
        self._init_scene()
        self.set_view("curves")

    def set_view(self, view: str) -> None:
        if view not in VIEWS:
            raise ValueError(f"expected a view in {VIEWS}; got {view!r}")
        self.view = view
        for name, axes in self._groups.items():
            for ax in axes:
                ax.set_visible(name == view)
        for a in self.curves.curves + self.curves.mc_dots + self.curves.mc_bars:
            a.set_animated(False)  # mark_animated flags them again in the curves view
        self._layout()
        self.invalidate()

    def fit(self, width: int, height: int, *, scale: float = 1.0, base_dpi: float = 80) -> None:
        """Size the figure to ``width`` × ``height`` CSS px with type ``scale`` times its size."""
        live.resize(self.fig, width, height, scale=scale, base_dpi=base_dpi)
        self._size = (width, height, scale, base_dpi)
        self._layout()
        self.invalidate()

    def _layout(self) -> None:
        """Place the visible panels, with margins in points (type keeps its size in points)."""
        fig = self.fig
        pt = fig.dpi / 72
        W, H = fig.bbox.width, fig.bbox.height
        left = (S.TICK_SIZE * 3 + S.LABEL_SIZE + 14) * pt / W
        bottom = (S.TICK_SIZE + S.LABEL_SIZE + 18) * pt / H
        top = 1 - (S.TITLE_SIZE + 12) * pt / H
        right_pad = 10 * pt / W
        if self.view == "curves":
            legend_w = (S.TICK_SIZE * 16) * pt / W
            self.curves.ax.set_position([left, bottom, 1 - left - legend_w - right_pad,
                                         top - bottom])
            return
        side_h = top - bottom
        side_w = min(side_h * H / W, 0.42)  # a square plane, at most 42 % of the width
        gap = 24 * pt / W
        if self.view == "dichotomies":
            self.plane.ax.set_position([left, bottom, side_w, side_h])
            self.plane.place_numbers()  # where they do not overlap at this size
            x0 = left + side_w + gap
            self.tiles.ax.set_position([x0, 0.01, 1 - x0 - right_pad, top - 0.01])
        else:
            tiles_w = min(0.5, (top - 0.01) * H / W * 1.25)
            self.bool_tiles.ax.set_position([right_pad, 0.01, tiles_w, top - 0.01])
            x0 = right_pad + tiles_w + gap + left
            self.bool_counts.ax.set_position([x0, bottom, 1 - x0 - right_pad, side_h])

    def show(self, k: int = 0) -> str:
        return ""

    def dynamic_artists(self) -> list:
        """In the curves view, what changes with the set of M: the curves, the Monte Carlo
        points, the capacity dots and the legend (the axes, ticks and titles stay)."""
        if self.view != "curves":
            return []
        c = self.curves
        arts = [*c.curves, *c.mc_dots, *c.mc_bars, c.cap_dots, c.past_dots]
        return arts + ([c.legend] if c.legend is not None else [])

    def redraw(self, *, static_key=None) -> None:
        """Draw what was set. With ``blit``, the curves view redraws only its moving artists
        over the cached background while ``static_key`` (e.g. the x-axis mode and limits) stays
        the same; any other view or a new key draws the whole figure."""
        if self.view != "curves" or static_key is None or static_key != self._static_key:
            self.invalidate()
        self._static_key = static_key
        self.mark_animated()
        self.render(0)


class MonteCarloFilm:
    """Cover's curves with the Monte Carlo points appearing in the order they were computed:
    frame ``i`` shows the first ``i`` (what the Cover tab's export animates in its curves view).

    Parameters
    ----------
    figure : CoverFigure
        Sized, on its own canvas, made with ``blit=True`` (a frame draws the curves, points and
        legend over the cached axes).
    curves : sequence of CoverCurve
        From :func:`explorer.cover.cover_curves`.
    mode : {"ratio", "n"}
        The x-axis, as :meth:`CurvesPanel.set_data`.
    mc : sequence of MCPoint
        The estimates, in the order they came.
    """

    def __init__(self, figure: CoverFigure, curves, *, mode: str, mc):
        self.figure, self.fig = figure, figure.fig
        self.curves, self.mode, self.mc = tuple(curves), mode, tuple(mc)
        figure.set_view("curves")

    def render(self, i: int) -> str:
        """Draw the curves with the first ``i`` points; returns ``""`` (no narration)."""
        self.figure.curves.set_data(self.curves, mode=self.mode, mc=self.mc[:i])
        self.figure.mark_animated()
        self.figure.render(0)
        return ""

    def invalidate(self) -> None:
        self.figure.invalidate()

    def savefig(self, fname, **kwargs) -> None:
        self.figure.savefig(fname, **kwargs)
