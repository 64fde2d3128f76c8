"""The animator's figure: data plane, weight space, mistakes with their bound, proof quantities."""

from __future__ import annotations

import time

import numpy as np
from matplotlib.figure import Figure

from ..replay import RunInfo, StepFrame, describe_run, frame
from ..trajectory import Trajectory
from . import style as S
from .overlays import LEGEND_DROP
from .plane import DataPlane
from .progress import MistakeProgress, ProofProgress
from .weights import WeightSpace

FIGSIZE = (13.0, 6.8)
#: Columns: the data plane, then the side panels; for figures wider than FIGSIZE's aspect the
#: side panels take the extra width (the data plane is square and limited by the height).
WIDTH_RATIOS = (2.2, 1.1, 1.1)
BURST_SECONDS = 0.25


def _force_full_frame(canvas) -> None:
    if hasattr(canvas, "_force_full"):  # web canvases (ipympl, webagg)
        canvas._force_full = True


class PerceptronFigure:
    """Four panels drawn from one run; :meth:`show` draws step ``k`` by moving artists.

    Parameters
    ----------
    fig : matplotlib Figure, optional
        An existing empty figure (the widget passes its ipympl figure); by default a new
        ``matplotlib.figure.Figure`` not tied to pyplot, for static images and animations.
    """

    def __init__(self, fig=None, *, figsize=FIGSIZE, dpi: float = 80, blit: bool = False):
        self.fig = fig if fig is not None else Figure(figsize=figsize, dpi=dpi)
        self.blit = blit
        self._last_render = -1.0
        self._background = None
        self._saving = False
        if fig is not None:
            self.fig.set_size_inches(*figsize)
        gs = self.fig.add_gridspec(2, 3, width_ratios=WIDTH_RATIOS, hspace=0.42,
                                   wspace=0.32, left=0.065, right=0.985, top=0.94, bottom=0.08)
        self.grid = gs
        self.plane = DataPlane(self.fig.add_subplot(gs[:, 0]))
        self.weights = WeightSpace(self.fig.add_subplot(gs[0, 1]))
        self.mistakes = MistakeProgress(self.fig.add_subplot(gs[0, 2]))
        self.proof = ProofProgress(self.fig.add_subplot(gs[1, 1:]))
        self.traj = None
        self.info = None
        self._legend_layouts = {}  # (size, legend entries) -> (plane side, columns, type size)
        self.hand = False  # the learner picks the points ("you choose" mode)
        self.X = np.zeros((0, 2))
        self.y = np.zeros(0)
        self.panels = (self.plane, self.weights, self.mistakes, self.proof)
        if blit:
            self.fig.canvas.mpl_connect("draw_event", self._on_draw)

    def set_run(self, traj: Trajectory, X, y, info: RunInfo | None = None, *, box=None) -> None:
        """Load a new run (new data or parameters): the only place artists are re-laid out."""
        self.traj, self.X, self.y = traj, np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        self.info = describe_run(traj, X, y) if info is None else info
        self.plane.set_data(self.X, self.y, box=box)
        kept = traj.rule if traj.rule in ("pocket", "averaged") else None
        self.plane.set_overlays(self.X, self.y, band=self.info.band, kept_kind=kept,
                                certificate=getattr(self.info, "certificate", None),
                                hand=self.hand)
        self.weights.set_run(traj, self.X, self.y)
        self.mistakes.set_run(traj, self.info.bound)
        self.proof.set_run(self.info.proof, note=self.info.note)
        self._room_for_legend()
        for a in self.dynamic_artists():
            a.set_animated(self.blit)
        self._background = None

    def _room_for_legend(self) -> None:
        """Shrink the data plane when its legend (below it) would leave the figure: the plane
        is square and pinned to the top of its column, so on a short, wide figure its side is
        the column's height and nothing would be left below it."""
        ax, legend = self.plane.ax, self.plane.legend
        spec = ax.get_subplotspec()
        if spec is None or legend is None:
            return
        cell = spec.get_position(self.fig)
        W, H = self.fig.bbox.width, self.fig.bbox.height
        renderer = getattr(self.fig.canvas, "get_renderer", self.fig._get_renderer)()
        top = cell.y1 * H
        center = (cell.x0 + cell.width / 2) * W  # the square is centred in its column
        half_room = min(center - 2, cell.width * W / 2)  # within its column, inside the figure
        full = min(cell.width * W, cell.height * H)
        drop = LEGEND_DROP * self.fig.dpi / 72 + 4  # px from the axes to the legend, labels in it
        args = self.plane._legend_args
        key = (W, H, self.fig.dpi, args["kept_kind"], args["band"] is None, args["hand"],
               None if args["certificate"] is None else args["certificate"].conic)
        if key in self._legend_layouts:  # the same entries at the same size: no search
            best = self._legend_layouts[key]
            candidates = ()
        else:
            best = None
            # Few rows and full-size type first; a smaller legend only when the plane would shrink.
            candidates = ((3, 1.0), (2, 1.0), (3, 0.85), (2, 0.85), (2, 0.72), (1, 0.72))
        for ncol, size in candidates:
            self.plane.set_legend_columns(ncol, size=size)
            box = self.plane.legend.get_window_extent(renderer)
            if box.width / 2 > half_room:
                continue
            side = min(full, top - box.height - drop)
            if best is None or side > best[0] + 1:
                best = (side, ncol, size)
            if side >= 0.8 * full:
                break
        side, ncol, size = best if best is not None else (0.0, 1, 0.72)
        self._legend_layouts[key] = (side, ncol, size)
        if self.plane.legend_layout != (ncol, size):
            self.plane.set_legend_columns(ncol, size=size)
        if side >= full:
            ax.set_position(cell)
            return
        side = max(side, 0.3 * cell.height * H)
        ax.set_position([cell.x0, (top - side) / H, cell.width, side / H])

    def show(self, k: int) -> StepFrame:
        """Move every artist to step ``k``; returns the frame (its ``text`` is the narration)."""
        f = frame(self.traj, self.X, self.y, k, hand=self.hand, info=self.info)
        self.plane.show(f, band=self.info.band, hand=self.hand)
        self.weights.show(f)
        self.mistakes.show(f)
        self.proof.show(f)
        return f

    # ------------------------------------------------------------------ live drawing
    def dynamic_artists(self) -> list:
        """Every artist that changes with the step, in drawing order."""
        arts = [a for p in self.panels for a in p.dynamic_artists()]
        return sorted(arts, key=lambda a: a.get_zorder())

    def render(self, k: int) -> StepFrame:
        """Show step ``k`` on the live canvas.

        With ``blit`` the axes, ticks, legends and static curves are drawn once into a cached
        background and only the moving artists are drawn per step; otherwise the canvas
        redraws everything.
        """
        f = self.show(k)
        canvas = self.fig.canvas
        now = time.monotonic()
        if self._background is None or now - self._last_render < BURST_SECONDS:
            # ipympl sends each frame as a diff against the previous one, and its front end
            # drops a frame that arrives while the previous image is still loading; frames
            # sent close together (or after a new run) therefore go out whole, so a dropped
            # one cannot leave a stale picture behind.
            _force_full_frame(canvas)
        self._last_render = now
        if not self.blit:
            canvas.draw_idle()
        elif self._background is None:
            canvas.draw()  # full draw; _on_draw caches the background and adds the artists
        else:
            canvas.restore_region(self._background)
            self._draw_dynamic()
            canvas.blit(self.fig.bbox)
        return f

    def _on_draw(self, event) -> None:
        canvas = self.fig.canvas
        if self._saving or not hasattr(canvas, "copy_from_bbox"):
            return  # savefig draws through another canvas (SVG, PDF): nothing to cache
        self._background = canvas.copy_from_bbox(self.fig.bbox)
        self._draw_dynamic()

    def _draw_dynamic(self) -> None:
        for a in self.dynamic_artists():
            if a.get_visible():
                self.fig.draw_artist(a)

    def savefig(self, fname, **kwargs) -> None:
        """Save the figure as shown, moving artists included (PNG, SVG, PDF by extension)."""
        arts = self.dynamic_artists()
        for a in arts:
            a.set_animated(False)
        self._saving = True
        try:
            self.fig.savefig(fname, **kwargs)
        finally:
            self._saving = False
            for a in arts:
                a.set_animated(self.blit)
            self._background = None

    # ------------------------------------------------------------------ size
    def fit(self, width: int, height: int, *, scale: float = 1.0, base_dpi: float = 80) -> None:
        """Resize to ``width`` × ``height`` CSS pixels with type and markers ``scale`` times their
        designed size (lecture mode uses a larger scale).

        Matplotlib sizes text, markers and lines in points, so the figure's dots per inch set
        their size on screen: ``dpi = base_dpi * scale`` and ``inches = pixels / dpi``. On a
        high-density screen the canvas multiplies the dpi by its device pixel ratio, as
        matplotlib does itself when the ratio changes.
        """
        if width <= 0 or height <= 0 or not scale > 0:
            raise ValueError(f"fit needs a positive size and scale; got {width}×{height}, {scale}")
        dpi = float(base_dpi) * float(scale)
        ratio = getattr(self.fig.canvas, "device_pixel_ratio", 1) or 1
        self.fig._original_dpi = dpi  # what matplotlib multiplies by the device pixel ratio
        self.fig._set_dpi(dpi * ratio, forward=False)  # one resize message, sent below
        self.fig.set_size_inches(width / dpi, height / dpi, forward=True)
        wide = max(width / height / (FIGSIZE[0] / FIGSIZE[1]), 1.0)
        extra = sum(WIDTH_RATIOS) * (wide - 1.0) / 2
        self.grid.set_width_ratios([WIDTH_RATIOS[0], WIDTH_RATIOS[1] + extra,
                                    WIDTH_RATIOS[2] + extra])
        # margins and gaps in points (titles, tick labels, axis labels keep their size in
        # points, so fractions of the figure would cut them off when the type grows)
        pt = self.fig.dpi / 72
        W, H = self.fig.bbox.width, self.fig.bbox.height
        left = (S.TICK_SIZE * 2.6 + S.LABEL_SIZE + 12) * pt / W
        bottom = (S.TICK_SIZE + S.LABEL_SIZE + 16) * pt / H
        top = 1 - (S.TITLE_SIZE + 10) * pt / H
        gap_h = (S.TICK_SIZE + S.LABEL_SIZE + S.TITLE_SIZE + 22) * pt
        gap_w = (S.TICK_SIZE * 2.6 + S.LABEL_SIZE + 16) * pt
        right = 1 - S.TICK_SIZE * 1.8 * pt / W  # the last x tick label is centred on the edge
        avail_h, avail_w = (top - bottom) * H, (right - left) * W
        self.grid.update(left=left, right=right, bottom=bottom, top=top,
                         hspace=2 * gap_h / max(avail_h - gap_h, 1),
                         wspace=3 * gap_w / max(avail_w - 2 * gap_w, 1))
        for ax in self.fig.axes:
            spec = ax.get_subplotspec()
            if spec is not None:
                ax.set_position(spec.get_position(self.fig))
        self._background = None
        if self.traj is not None:  # text wrapping and label bands follow the axes' size
            self.set_run(self.traj, self.X, self.y, self.info, box=self.plane.box)
