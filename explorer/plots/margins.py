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

from ..margins import MarginComparison, SGDProgress, SupportPath, gap_words
from ..shared.i18n import tr
from ..shared.number_format import number_text
from . import live, room
from . import style as S
from .margin3d_scene import Margins3DScene
from .margin_panels import DualWeights, SGDObjective, SupportPathPanel
from .margin_plane import MarginPlane
from .margin_view import MarginView
from .overlays import LEGEND_DROP
from .page_figure import new_figure
from .tracks import figure_renderer

__all__ = ["MarginsFigure", "MarginPlane", "DualWeights", "SGDObjective", "SupportPathPanel"]

FIGSIZE = (13.0, 6.8)
WIDTH_RATIOS = (2.2, 1.1, 1.1)
#: Side by side: the perceptron's plane, the SVM's plane, then the dual weights above the SGD
#: objective (Example 61.3's panel is left to the overlaid layout: at this width its legend and
#: the objective's would not fit side by side).
SIDE_RATIOS = (2.0, 2.0, 1.5)
OVERLAYS = ("overlaid", "side")


# --------------------------------------------------------------------------- figure
class MarginsFigure(Margins3DScene):
    """The Margins view's figure: data plane, dual weights, SGD objective, Example 61.3.

    Parameters
    ----------
    fig : matplotlib Figure, optional
        An existing empty figure (a tab passes its off-screen one); by default a new
        ``matplotlib.figure.Figure`` not tied to pyplot.
    blit : bool, default False
        Draw steps by blitting the moving artists over a cached background (live canvases).
    overlay : {"overlaid", "side"}
        ``"overlaid"``: the perceptron's and the SVM's lines share one plane; ``"side"``: the
        perceptron's line in a plane of its own, left of the SVM's (same limits). Switch later
        with :meth:`set_overlay`.
    """

    def __init__(self, fig=None, *, blit: bool = False, figsize=FIGSIZE, dpi: float = 80,
                 overlay: str = "overlaid"):
        self.fig = new_figure(fig, figsize=figsize, dpi=dpi, canvas=True)
        kw = dict(hspace=0.42, wspace=0.32, left=0.065, right=0.985, top=0.94, bottom=0.08)
        self._grids = {"overlaid": self.fig.add_gridspec(2, 3, width_ratios=WIDTH_RATIOS, **kw),
                       "side": self.fig.add_gridspec(2, 3, width_ratios=SIDE_RATIOS, **kw)}
        gs = self._grids["overlaid"]
        self.plane = MarginPlane(self.fig.add_subplot(gs[:, 0]))
        self.perc_plane = MarginPlane(self.fig.add_subplot(gs[:, 0]), parts="perceptron")
        self.duals = DualWeights(self.fig.add_subplot(gs[0, 1:]))
        self.objective = SGDObjective(self.fig.add_subplot(gs[1, 1]))
        self.path_panel = SupportPathPanel(self.fig.add_subplot(gs[1, 2]))
        self.overlay = None
        self.focus = 0  # the row of side panels shown when only one fits (set_focus)
        self.room = None  # how the last layout shared the room (explorer.plots.room.Room)
        self._size = None
        self._laid_out = None  # the size set_data last laid the figure out at
        self.X = np.zeros((0, 2))
        self.y = np.zeros(0)
        self.comparison = None
        self.path = None
        self.sgd = None
        self._box = None
        self.editing = False
        self._init_scene()
        self._init_live(blit)
        self.set_overlay(overlay)

    def set_overlay(self, overlay: str) -> None:
        """``"overlaid"`` (one plane) or ``"side"`` (the perceptron's plane beside the SVM's);
        lays the figure out again when it has a size and data."""
        if overlay not in OVERLAYS:
            raise ValueError(f"overlay: expected one of {list(OVERLAYS)}; got {overlay!r}")
        if overlay == self.overlay:
            return
        self.overlay = overlay
        gs = self._grids[overlay]
        self.grid = gs
        side = overlay == "side"
        self._ratios = SIDE_RATIOS if side else WIDTH_RATIOS
        self.perc_plane.ax.set_visible(side)
        self.path_panel.ax.set_visible(not side)
        self.duals.set_compact(side)
        self.plane.parts = "svm" if side else "both"
        # side by side the planes share their limits: the y axis is labelled once, on the left
        self.plane.ax.tick_params(labelleft=not side)
        self.plane.ax.set_ylabel("" if side else "x₂")
        places = ((self.perc_plane.ax, gs[:, 0]), (self.plane.ax, gs[:, 1 if side else 0]),
                  (self.duals.ax, gs[0, 2] if side else gs[0, 1:]),
                  (self.objective.ax, gs[1, 2] if side else gs[1, 1]),
                  (self.path_panel.ax, gs[1, 2]))
        for ax, spec in places:
            ax.set_subplotspec(spec)
            ax.set_position(spec.get_position(self.fig))
        for a in self.perc_plane.edit_artists():
            a.set_animated(False)
        self.mark_animated()
        self.invalidate()
        self._laid_out = None
        if self._size is not None:
            self.fit(*self._size[:2], scale=self._size[2], base_dpi=self._size[3])

    # ------------------------------------------------------------------ data
    def set_data(self, X, y, comparison: MarginComparison, *, path: SupportPath | None = None,
                 sgd: SGDProgress | None = None, box=None) -> None:
        """Lay out a new comparison (new data, ``C`` or run): the only place artists are placed.

        ``X`` holds points of ``M >= 2`` features and ``comparison`` is computed on them
        (:func:`explorer.margins.compare`); ``path`` from :func:`explorer.margins.support_path`,
        ``sgd`` from :func:`explorer.margins.sgd_progress` on the same data. ``box`` fixes the
        plane's limits ``(xmin, xmax, ymin, ymax)``. With ``M > 2`` the planes draw the data in
        the plane of the SVM's w (:mod:`explorer.plots.margin_view`).
        """
        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=float)
        if X.ndim != 2 or X.shape[1] < 2:
            raise ValueError(f"X: expected points of at least two features, shape (n, M); got "
                             f"shape {X.shape}")
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
        self.forget_page_scene()  # a scene describes one run at one size
        view = MarginView(X, comparison) if X.shape[1] > 2 else None
        self.plane.set_data(X, y, comparison, sgd, box=box, view=view)
        if self.overlay == "side":  # both planes on the SVM plane's limits (and in its plane)
            self.perc_plane.set_data(X, y, comparison, None, box=self.plane.box, view=view)
        self._show_solid(X, y, comparison, sgd)  # three features overlaid: in 3-D (margin3d)
        self._lay_out()  # then the side panels fit their texts to where they are
        self.duals.set_data(y, comparison)
        self.objective.set_data(sgd)
        self.path_panel.set_data(path, comparison.C)
        live.floor_legends(self.fig)
        self.mark_animated()
        self.invalidate()
        self._laid_out = self._size

    def _planes(self) -> list:
        return [self.plane, self.perc_plane] if self.overlay == "side" else [self.data_plane]

    def _lay_out(self) -> None:
        """Share the room, the data plane first (:mod:`explorer.plots.room`). Overlaid: the
        plane as tall as the figure, its legend below it if there is room there, else beside
        it over the side panels (one row of them, the :attr:`focus`, when both rows would be
        too short). Side by side: both planes as tall as the figure, each legend below its
        plane (the plane gives way to it, as the legend of two narrow planes cannot go beside).
        """
        fig, grid = self.fig, self.grid
        side_by_side = self.overlay == "side"
        planes = self._planes()[::-1]  # left to right
        side = room.split(fig, grid, ratios=self._ratios, planes=len(planes))
        top = grid.get_subplot_params(fig).top
        room.place_planes(fig, [p.ax for p in planes], side=side, top=top)
        others = [self.duals.ax, self.objective.ax] + ([] if side_by_side else [self.path_panel.ax])
        if side_by_side:
            for plane in planes:
                plane.ax.set_position(plane.ax.get_subplotspec().get_position(fig))
                live.legend_below(plane.ax, plane.build_legend, drop=LEGEND_DROP, columns=(2, 1))
            rows, crowded, row = room.arrange_side(fig, grid, others, top=top, side=side,
                                                   focus=self.focus)
            where = "below"
        else:
            # large type on a short figure (a projector): the legend's heading (C in Sayed's
            # terms and γ(S), also in the narration) gives its lines to the side panels beside
            # the plane if that shows both their rows
            plane = self.data_plane
            heading = plane._legend_title

            def hang(title):
                plane._legend_title = title
                where, legend = room.hang_legend(plane.ax, self._legend_in,
                                                 drop=LEGEND_DROP)
                return (where, *room.arrange_side(
                    fig, grid, others, top=top, side=side, focus=self.focus,
                    legend=legend if where == "beside" else None))

            where, rows, crowded, row = hang(heading)
            if crowded and where == "beside" and heading:
                where, rows, crowded, row = hang("")
                if crowded:  # one row shown either way: the heading stays
                    where, rows, crowded, row = hang(heading)
            room.place_planes(fig, [plane.ax], side=side, top=top)
        for plane in planes:  # a long title stays over its own column
            live.fit_title(plane.ax, size=S.TITLE_SIZE,
                           width=plane.ax.get_position().width * fig.bbox.width)
        self.room = room.Room(side=side, legend=where, rows=rows, crowded=crowded, row=row)

    def _legend_in(self, where: str, width: float, *, plane=None):
        """The legend of ``plane`` (by default the data plane) ``where`` ("below" or
        "beside" it) in the fewest rows no wider than ``width`` px."""
        renderer = figure_renderer(self.fig)
        plane = self.data_plane if plane is None else plane
        legend = None
        for ncol in (2, 1):
            legend = plane.build_legend(ncol, where)
            if legend.get_window_extent(renderer).width <= width:
                break
        return legend

    def side_rows(self) -> tuple:
        """The names of the side panels' rows (the choice a crowded figure offers)."""
        return (tr("Dual weights"), tr("SGD objective") if self.overlay == "side" else
                tr("SGD, path"))

    def set_focus(self, row: int) -> None:
        """The row of side panels shown when the figure is too crowded for both (0: the dual
        weights, 1: the SGD objective and the support path); laid out again."""
        self.focus = int(row)
        if self.comparison is not None:
            self.set_data(self.X, self.y, self.comparison, path=self.path, sgd=self.sgd,
                          box=self._box)

    # ------------------------------------------------------------------ step
    def step_text(self, k: int) -> str:
        """What the SGD run is doing at step ``k``, in words ("" without a run)."""
        sgd = self.sgd
        if sgd is None:
            return ""
        gap = gap_words(sgd.objective_at(k), sgd.optimum, minus=True)
        return tr("Step {k} of {n}: the SGD objective (Sayed (61.13)) is {gap} (the SVM with "
                  "C = {C}).").format(k=k, n=sgd.traj.n_steps, gap=gap,
                                      C=number_text(sgd.C))

    def show(self, k: int) -> str:
        """Move the SGD line and the objective cursor to step ``k`` (the parts the page draws,
        :func:`explorer.plots.margin_parts.step_parts`); returns a narration."""
        self.apply(self.parts(k))
        return self.step_text(k)

    def dynamic_artists(self) -> list:
        """The artists that move with the step (and, while editing, with the data), in
        drawing order."""
        arts = self.data_plane.dynamic_artists() + self.objective.dynamic_artists()
        if self.editing:
            arts += [a for plane in self._planes() for a in plane.edit_artists()]
        return sorted(arts, key=lambda a: a.get_zorder())

    # ------------------------------------------------------------------ editing
    def set_editing(self, editing: bool) -> None:
        """While ``editing`` the points and the SVM's artists are left out of the cached
        background, so that :meth:`preview` can move them without a full draw."""
        editing = bool(editing)
        if editing == self.editing:
            return
        for plane in (self.plane, self.perc_plane):
            for a in plane.edit_artists():
                a.set_animated(False)
        self.editing = editing
        self.mark_animated()
        self.invalidate()

    def preview(self, X, y, comparison: MarginComparison) -> bool:
        """Show edited data and their new SVM at once: points, line, band, rings and slacks
        move on the live canvas; the legend, the perceptron's line and the side panels wait for
        :meth:`set_data`. Returns False (nothing drawn) when that is not possible: not editing,
        no cached background, a point or slack end outside the plane's box, or the hard margin
        appearing or vanishing; then call :meth:`set_data` and :meth:`render`."""
        if not (self.blit and self.editing) or self._background is None:
            return False
        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=float)
        old = self.comparison
        if old is None or (old.svm is None) != (comparison.svm is None):
            return False
        x0, x1, y0, y1 = self.plane.box
        pts = np.vstack([X, np.asarray(comparison.slack_end, dtype=float).reshape(-1, 2)])
        if np.any(pts[:, 0] < x0) or np.any(pts[:, 0] > x1) or np.any(pts[:, 1] < y0) \
                or np.any(pts[:, 1] > y1):
            return False
        for plane in self._planes():
            plane.place_svm(X, y, comparison)
            for t in plane.labels:  # numbers return with the full layout
                t.set_visible(False)
        self.draw_frame()  # a background is cached (checked above): a blit
        return True

    # ------------------------------------------------------------------ size
    def fit(self, width: int, height: int, *, scale: float = 1.0, base_dpi: float = 80) -> None:
        """Resize to ``width`` × ``height`` CSS pixels with type and markers ``scale`` times their
        designed size (see :func:`explorer.plots.live.resize`), the data plane first
        (:meth:`_lay_out`)."""
        side = self.overlay == "side"
        if self._laid_out is not None and self._laid_out == (width, height, scale, base_dpi):
            return  # laid out at this size since the last change (a scene after set_data)
        self._size = (width, height, scale, base_dpi)
        self._ratios = SIDE_RATIOS if side else WIDTH_RATIOS
        live.resize(self.fig, width, height, scale=scale, base_dpi=base_dpi)
        self.invalidate()
        if self.comparison is not None:  # legend columns, bands and free space follow the size
            self.set_data(self.X, self.y, self.comparison, path=self.path, sgd=self.sgd,
                          box=self._box)
