"""The animator's figure: data plane, weight space, mistakes with their bound, proof quantities."""

from __future__ import annotations

import numpy as np

from ..perceptron.replay import RunInfo, StepFrame, describe_run, frame, status_text
from ..perceptron.trajectory import Trajectory
from ..shared.i18n import N_, language, tr
from . import layers, live, room
from . import style as S
from .data3d import Data3D
from .margin_line import MarginLinePanel, weights_note
from .overlays import LEGEND_DROP
from .page_figure import PageFigure, new_figure
from .plane import DataPlane
from .plane_of_w import PlaneOfW
from .progress import MistakeProgress, ProofProgress
from .tracks import css_dpi, figure_renderer
from .weights import WeightSpace

FIGSIZE = (13.0, 6.8)
#: Columns: the data plane, then the side panels, in these proportions (the plane's column is
#: made as wide as the plane, :func:`explorer.plots.room.split`; the side columns share the rest).
WIDTH_RATIOS = (2.2, 1.1, 1.1)
#: The page's two still layers split at this z order: the points, their numbers and the hulls
#: (z >= 2.5) are drawn over the half-plane shading and the lines under them.
SPLIT_Z = 2.5
#: The data plane's title for two features (more are drawn in the plane of w: set_run).
PLANE_TITLE = N_("Data plane")
#: The data panel's title for three features (a 3-D view, :mod:`explorer.plots.data3d`).
VIEW3D_TITLE = N_("3 features, in 3-D: drag to turn")


class PerceptronFigure(PageFigure):
    """Four panels drawn from one run; :meth:`show` draws step ``k`` by moving artists.

    Parameters
    ----------
    fig : matplotlib Figure, optional
        An existing empty figure (the tab passes its off-screen one); by default a new
        ``matplotlib.figure.Figure`` not tied to pyplot, for static images and animations.
    """

    split_z = SPLIT_Z

    def __init__(self, fig=None, *, figsize=FIGSIZE, dpi: float = 80, blit: bool = False):
        self.fig = new_figure(fig, figsize=figsize, dpi=dpi, canvas=True)
        gs = self.fig.add_gridspec(2, 3, width_ratios=WIDTH_RATIOS, hspace=0.42,
                                   wspace=0.32, left=0.065, right=0.985, top=0.94, bottom=0.08)
        self.grid = gs
        self.plane = self.flat = DataPlane(self.fig.add_subplot(gs[:, 0]), title=PLANE_TITLE)
        self.solid = None  # the 3-D view, made for the first data of three features
        self.weights = WeightSpace(self.fig.add_subplot(gs[0, 1]))
        self.mistakes = MistakeProgress(self.fig.add_subplot(gs[0, 2]))
        self.proof = ProofProgress(self.fig.add_subplot(gs[1, 1:]))
        self.traj = None
        self.info = None
        self._legend_layouts = {}  # (size, where, legend entries) -> (columns, shift)
        self.focus = 0  # the row of side panels shown when only one fits (set_focus)
        self.room = None  # how the last layout shared the room (explorer.plots.room.Room)
        self.hand = False  # the learner picks the points ("you choose" mode)
        self.edited = False  # the points were edited (the status line says so)
        self.X = np.zeros((0, 2))
        self.y = np.zeros(0)
        self.planes = None  # each step's plane, for data of more than two features
        self.margin = None  # the margin line, in weight space's place for more (_pick_side)
        self.side = self.weights  # the panel beside the plane: weight space or the margin line
        self._init_live(blit)

    def set_run(self, traj: Trajectory, X, y, info: RunInfo | None = None, *, box=None) -> None:
        """Load a new run (new data or parameters): the only place artists are re-laid out."""
        self.traj, self.X, self.y = traj, np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        self.info = describe_run(traj, X, y) if info is None else info
        self._set_data(box)
        self._pick_side()
        kept = traj.rule if traj.rule in ("pocket", "averaged") else None
        flat = self.X.shape[1] <= 2  # hulls of points that move would not stay still
        self.plane.set_overlays(self.X, self.y, band=self.info.band, kept_kind=kept,
                                certificate=getattr(self.info, "certificate", None) if flat
                                else None,
                                hand=self.hand, batch=traj.params.get("batch_size", 1) > 1)
        self._lay_out()  # the side panels fit their texts to where they are
        info = self.info
        fit = traj.params["fit_intercept"]
        if self.side is self.weights:
            self.weights.set_run(traj, self.X, self.y, separable=(
                None if info.pending else info.separable if fit else True))
        else:
            self.margin.set_run(traj, self.X, self.y, separable=(
                None if info.pending else info.separable), note=weights_note(
                self.X.shape[1], fit=fit))
        self.mistakes.set_run(traj, self.info.bound, getattr(self.info, "cycle", None))
        self.proof.set_run(self.info.proof, note=self.info.note)
        self.proof.fit_label()
        self.plane.measure()  # the update label's room, once the plane's size is known
        self._scene = None  # a scene describes one run at one size
        for a in self.dynamic_artists():
            a.set_animated(self.blit)
        self._background = None

    def _set_data(self, box) -> None:
        """Place the points: in their own plane (two features), in a 3-D view (three:
        :mod:`explorer.plots.data3d`), or in each step's plane that contains ``w`` (more:
        :mod:`explorer.plots.plane_of_w`)."""
        M = self._data_panel(self.X.shape[1])
        if M == 3:  # a rotatable 3-D view (explorer.plots.data3d)
            self.planes = None
            self.plane.set_data(self.X, self.y, box=box)
            return
        ax = self.plane.ax
        if M <= 2:
            self.planes = None
            self.plane.set_data(self.X, self.y, box=box)
            S.set_words(ax, title=PLANE_TITLE, xlabel="x₁", ylabel="x₂")
            return
        pl = self.planes  # the same run laid out again (a new size) keeps its planes
        if pl is None or pl.traj is not self.traj or not np.array_equal(pl.X, self.X):
            self.planes = PlaneOfW(self.traj, self.X)
        self.plane.set_data(self.planes.coords(0), self.y, box=self.planes.box, moving=True)
        S.set_words(ax, xlabel=N_("along w (exact distance)"), ylabel=N_("across w"))
        ax.set_title(tr("{m} features, in the plane of w").format(m=M), fontsize=S.TITLE_SIZE,
                     loc="left")

    def _data_panel(self, M: int) -> int:
        """Show the data panel for ``M`` features (the 3-D view for three, the data plane
        else) in the plane's place; returns ``M``."""
        if M == 3 and self.solid is None:
            self.solid = Data3D(self.fig.add_subplot(self.grid[:, 0]), title=VIEW3D_TITLE)
        shown = self.solid if M == 3 else self.flat
        if shown is not self.plane:
            self.plane.ax.set_visible(False)
            shown.ax.set_visible(True)
            self.plane = shown
        return M

    def _pick_side(self) -> None:
        """The panel beside the plane: weight space for two features or fewer, else the margin
        line (:mod:`explorer.plots.margin_line`: weight space has more dimensions than a
        picture), made the first time it is needed, in the same place."""
        many = self.X.shape[1] > 2
        if many and self.margin is None:
            self.margin = MarginLinePanel(self.fig.add_subplot(self.grid[0, 1]))
        self.side = self.margin if many else self.weights
        for p in (self.weights, self.margin):
            if p is not None and p is not self.side:
                p.ax.set_visible(False)

    @property
    def panels(self) -> tuple:
        """The panels shown: the data panel (:meth:`_data_panel`), the one beside it
        (:meth:`_pick_side`), the mistakes and the proof."""
        return (self.plane, self.side, self.mistakes, self.proof)

    def _lay_out(self) -> None:
        """Share the figure's room, the data plane first (:mod:`explorer.plots.room`): the plane
        a square as tall as the figure allows, its legend below it if there is room there, else
        beside it over the side panels, which take what is left (one row of them, the
        :attr:`focus`, when both would be too short)."""
        fig, plane = self.fig, self.plane
        side = room.split(fig, self.grid, ratios=WIDTH_RATIOS)
        top = self.grid.get_subplot_params(fig).top
        room.place_planes(fig, [plane.ax], side=side, top=top)
        where, legend = "", None
        if self.traj is not None:
            where, legend = room.hang_legend(plane.ax, self._legend_in, drop=LEGEND_DROP)
        rows, crowded, row = room.arrange_side(
            fig, self.grid, [p.ax for p in self.panels[1:]], top=top, side=side,
            focus=self.focus, legend=legend if where == "beside" else None)
        room.place_planes(fig, [plane.ax], side=side, top=top)
        self.room = room.Room(side=side, legend=where, rows=rows, crowded=crowded, row=row)
        self._fit_titles()

    def _fit_titles(self) -> None:
        """Each side panel's heading within its column, up to the next panel on its right or
        the figure's edge (:func:`explorer.plots.live.fit_title`): a heading that is longer in
        another language, or at lecture mode's type scale, never runs out of the figure."""
        shown = [p.ax for p in self.panels[1:] if p.ax.get_visible()]
        boxes = [ax.get_position() for ax in shown]
        width = self.fig.bbox.width
        for ax, pos in zip(shown, boxes, strict=True):
            right = min([b.x0 for b in boxes if b.x0 > pos.x0 + 1e-6 and b.y0 < pos.y1
                         and b.y1 > pos.y0] + [1.0])
            live.fit_title(ax, size=S.TITLE_SIZE, width=(right - pos.x0) * width - 4)

    def _legend_in(self, where: str, width: float):
        """The plane's legend ``where`` ("below" or "beside" the plane) in the fewest rows
        whose width is at most ``width`` px (one column if none is); the choice is kept per
        size and entries."""
        fig, plane = self.fig, self.plane
        args = plane._legend_args
        key = (fig.bbox.width, fig.bbox.height, fig.dpi, where, round(width), args["kept_kind"],
               args["band"] is None, args["hand"], args["batch"],
               None if args["certificate"] is None else args["certificate"].conic,
               plane is self.solid, language())  # the words' widths: the language's
        if key not in self._legend_layouts:
            renderer = figure_renderer(fig)
            choice = (1, 0.0)
            for ncol in ((4, 3, 2) if where == "beside" else (3, 2)):
                plane.set_legend_columns(ncol, where=where)
                wide = plane.legend.get_window_extent(renderer).width
                if wide <= width:
                    # below: its right end no further right than the plane's
                    half = wide / 2 - plane.ax.get_position().width * fig.bbox.width / 2
                    choice = (ncol, max(0.0, half) if where == "below" else 0.0)
                    break
            self._legend_layouts[key] = choice
        ncol, shift = self._legend_layouts[key]
        plane.set_legend_columns(ncol, where=where, shift=shift)
        return plane.legend

    def side_rows(self) -> tuple:
        """The names of the side panels' rows (the choice a crowded figure offers)."""
        return (tr("Margin line, mistakes") if self.side is self.margin else
                tr("Weight space, mistakes"), tr("Proof"))

    def set_focus(self, row: int) -> None:
        """The row of side panels shown when the figure is too crowded for both (0: weight
        space and mistakes, 1: the convergence proof); laid out again."""
        self.focus = int(row)
        if self.traj is not None:  # the panels fit their texts to their new places
            self.set_run(self.traj, self.X, self.y, self.info, box=self.plane.box)
        else:
            self._lay_out()
        self.forget_page_scene()
        self._background = None

    def frame(self, k: int) -> StepFrame:
        """The run's :class:`StepFrame` at step ``k`` (its ``text`` is the narration)."""
        return frame(self.traj, self.X, self.y, k, hand=self.hand, info=self.info)

    def show(self, k: int) -> StepFrame:
        """Move every artist to step ``k``: each panel applies its parts at this step (the
        description the page draws, :meth:`parts`; the weight space's walk and its arrows
        are one path and a quiver, which no kind's applier moves). Returns the frame."""
        f = self.frame(k)
        for p in self.panels:
            if p is self.plane and self.planes is not None:
                p.show(**self._in_plane(f))
            else:
                p.show(f)
        return f

    def _in_plane(self, f: StepFrame) -> dict:
        """The data plane's arguments for frame ``f`` when the data have more than two
        features: the frame, the points and the origin in step ``f.k``'s plane."""
        pl = self.planes
        return {"f": pl.map_frame(f), "coords": pl.coords(f.k), "origin": pl.origin(f.k)}

    # ------------------------------------------------------------------ page-drawn figure
    def parts(self, f: StepFrame) -> dict:
        """Every moving part at frame ``f``: ``{track name: {array name: value}}``, numpy only."""
        out = {}
        for p in self.panels:
            if p is self.plane and self.planes is not None:
                out.update(p.parts(**self._in_plane(f)))
            else:
                out.update(p.parts(f))
        return out

    def track_artists(self) -> dict:
        """Track name -> the matplotlib artist that draws it."""
        out = {}
        for p in self.panels:
            out.update(p.artists())
        return out

    def page_missing(self) -> str:
        return "a run: call set_run first" if self.traj is None else ""

    @property
    def n_steps(self) -> int:
        return 0 if self.traj is None else int(self.traj.n_steps)

    def _named(self) -> dict:
        return {"plane": self.plane, "margin" if self.side is self.margin else "weights":
                self.side, "mistakes": self.mistakes, "proof": self.proof}

    def page_panels(self, *, width: float, height: float) -> tuple:
        """The panels shown (a crowded figure shows one row of side panels, see focus)."""
        out = tuple(layers.panel(p.ax, name, width=width, height=height)
                    for name, p in self._named().items() if p.ax.get_visible())
        if self.plane is self.solid:  # the 3-D view: its angles, box and axes' labels
            out = tuple(self.solid.panel(p) if p.name == "plane" else p for p in out)
        return out

    def page_tracks(self, pt: float) -> list:
        return [t for p in self.panels for t in p.tracks(pt)]

    def enlargeable(self) -> dict:
        """Every panel shown may be shown large (a crowded figure's other row is not shown)."""
        return {name: p.ax for name, p in self._named().items() if p.ax.get_visible()}

    def enlarged_legend(self, name: str):
        """The data plane's legend hangs below or beside it (:meth:`_legend_in`)."""
        return self._legend_in if name == "plane" and self.traj is not None else None

    def still_layers(self, *, ratio: float) -> tuple[bytes, bytes]:
        """The still layers, and where the legend just drawn put the kept rule's words."""
        below, above = super().still_layers(ratio=ratio)
        if self.plane.kept_text is not None:  # placed by the legend just drawn, at dpi
            x, y = self.plane.kept_text.get_transform().transform((0, 0))
            css = css_dpi(self.fig) / layers.layer_dpi(self.fig, ratio)
            self.plane.kept_anchor = (x * css, self.page_size[1] - y * css)
        return below, above

    def apply_own(self, track, part: dict) -> bool:
        """The 3-D view's tracks (projected with the view's angles, :mod:`.data3d`)."""
        return self.plane is self.solid and self.solid.apply_part(track.name, part)

    def moving_artists(self) -> list:
        """The tracks' artists, and the 3-D view's axes' names and values (its box track)."""
        extra = self.solid.label_texts() if self.plane is self.solid else []
        return [*super().moving_artists(), *extra]

    def page_step(self, k: int) -> tuple[dict, str]:
        f = self.frame(k)
        return self.parts(f), f.text

    def status(self, k: int) -> str:
        """The status line at step ``k`` (as the tab's timeline writes it)."""
        return status_text(self.traj, k, n_points=len(self.X), cycle=self.info.cycle,
                           edited=self.edited)

    # ------------------------------------------------------------------ live drawing
    def dynamic_artists(self) -> list:
        """Every artist that changes with the step, in drawing order."""
        arts = [a for p in self.panels if p.ax.get_visible() for a in p.dynamic_artists()]
        return sorted(arts, key=lambda a: a.get_zorder())

    # ------------------------------------------------------------------ size
    def fit(self, width: int, height: int, *, scale: float = 1.0, base_dpi: float = 80) -> None:
        """Resize to ``width`` × ``height`` CSS pixels with type and markers ``scale`` times their
        designed size (lecture mode uses a larger scale).

        Matplotlib sizes text, markers and lines in points, so the figure's dots per inch set
        their size on screen: ``dpi = base_dpi * scale`` and ``inches = pixels / dpi``. On a
        high-density screen the canvas multiplies the dpi by its device pixel ratio, as
        matplotlib does itself when the ratio changes.
        """
        live.resize(self.fig, width, height, scale=scale, base_dpi=base_dpi)
        self._background = None
        if self.traj is not None:  # text wrapping and label bands follow the axes' size
            self.set_run(self.traj, self.X, self.y, self.info, box=self.plane.box)
        else:
            self._lay_out()
