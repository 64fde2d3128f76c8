"""A tab's figure in the page: a run's scene and chunks, and the settled step.

The page (:class:`explorer.app.pagefigure.PageFigure`) draws every step and runs the transport
itself; the kernel builds, once per run and per size, the scene of a figure (its still layers
drawn by matplotlib at the page's pixel ratio, its panels, its tracks) and answers the page's
requests for chunks of steps. The kernel's own figure follows the settled step
(:meth:`PageRun.go` and the figure's ``show``): its artists are what exports draw and what tests
read, and they cost no drawing.

A figure the page draws has ``scene(width=, height=, scale=, ratio=, chunk=)`` returning an
:class:`~explorer.plots.scene.Scene`, ``chunk(index)`` returning a
:class:`~explorer.plots.scene.Chunk` of that scene, ``show(k)``, and optionally
``statics()``: the arrays of its static tracks (the same at every step), sent with the scene.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

from .jobs import kernel_loop
from .layout import FigureFit
from .pagefigure import PageFigure
from .timeline import Timeline, Transport

#: Steps per chunk sent to the page (a Perceptron step is about 0.5 kB: a chunk about 130 kB).
CHUNK_STEPS = 256

#: Seconds a new size waits before the figure is drawn again at it (in a kernel). A page that
#: opens on a preheated kernel already has a scene, drawn at the size guessed before it came,
#: and asks for its first chunk as it renders; the window's size arrives at the same moment.
#: Answered first, the chunk lets the page draw (and step) at once, instead of waiting for the
#: still layers at the new size (about 0.3 s of matplotlib), which follow. Resizes a dragged
#: window makes in the meantime are drawn once.
RESIZE_DELAY_S = 0.15


class PageRun:
    """Keeps a :class:`PageFigure` showing the run of a figure (see the module docstring).

    Parameters
    ----------
    figure
        The kernel's figure (a plain matplotlib figure, never on screen).
    timeline : Transport or Timeline
        The kernel's transport: its step is the settled step; the page's transport mirrors it.
    fitted : FigureFit
        The size to draw at until the dashboard measures the window.
    name : str
        The figure's accessible name.
    ready : callable, optional
        ``ready()`` is False while the figure has nothing to show (no run yet).
    """

    def __init__(self, figure, timeline: Transport | Timeline, fitted: FigureFit, *, name: str,
                 ready: Callable[[], bool] | None = None, chunk: int = CHUNK_STEPS):
        self.figure = figure
        self.timeline = timeline
        self.fitted = fitted
        self.ready = ready
        self.chunk_steps = int(chunk)
        self.page = PageFigure(name=name, layout={"width": "100%"})
        self.page.add_class("pe-pagefigure-box")
        self._run = 0
        self._loading = False
        self._resize = None  # a pending redraw at a new size
        #: Called with no argument after each scene is sent (the figure was laid out again).
        self.after_show: list[Callable[[], object]] = []
        self.page.observe(self._page_step, names="step")
        self.page.observe(self._page_playing, names="playing")
        self.page.observe(lambda ch: self.show(keep=True), names="ratio")
        self.page.on_enlarge(self.enlarge)

    def show(self, *, step: int | None = None, keep: bool = False) -> None:
        """Describe the figure's run at the current size and pixel ratio and send it (held
        while a :class:`HeldShows` is, and drawn when it is released). ``keep``: the same run
        drawn again, the page keeps the step it shows (see :meth:`PageFigure.show_scene`)."""
        hold = HeldShows.active()
        if hold is not None:
            hold.held[self] = step
            # kept only if every show held was the same run drawn again (none a new run)
            hold.keep[self] = keep and hold.keep.get(self, True)
            return
        if self._resize is not None:  # drawn now, at the new size
            self._resize.cancel()
            self._resize = None
        f, fit = self.figure, self.fitted
        if self.ready is not None and not self.ready():
            return
        k = self.timeline.step if step is None else int(step)
        ratio = max(1.0, min(float(self.page.ratio or 1.0), 3.0))
        scene = f.scene(width=fit.width, height=fit.height, scale=fit.scale, ratio=ratio,
                        chunk=self.chunk_steps)
        self.send_scene(scene, step=k, keep=keep)
        for call in self.after_show:
            call()

    def enlarge(self, panel: str) -> None:
        """Show ``panel`` of the figure large over the whole figure ("" : every panel again,
        issue 33), drawn again at once at the step the page shows (Play plays on). A name that
        is not a panel the figure may show large is ignored
        (:meth:`explorer.plots.page_figure.PageFigure.set_enlarged`)."""
        if self.figure.set_enlarged(panel):
            self.show(keep=True)

    def send_scene(self, scene, *, step: int, keep: bool = False) -> None:
        """Send a scene the figure has made (:meth:`show`, or e.g. a run grown over the same
        still layers) as a new run at ``step``, with the figure's statics and first chunks."""
        f, k = self.figure, int(step)
        statics = getattr(f, "statics", None)
        tl = self.timeline
        self._run += 1
        self._loading = True
        try:
            self.page.show_scene(scene, run=self._run, chunks=f.chunk, step=k, transport={
                "updates": [int(u) for u in np.asarray(tl.updates)], "epoch": int(tl.epoch),
                "cycle_start": tl.cycle_start}, static=statics() if statics else None,
                keep_step=keep)
        finally:
            self._loading = False
        f.show(self.page.step)

    def resize(self, fitted: FigureFit) -> None:
        """Draw the figure at ``fitted`` (after :data:`RESIZE_DELAY_S` in a kernel)."""
        if fitted == self.fitted:
            return
        self.fitted = fitted
        loop = kernel_loop()
        if loop is None:
            self.show(keep=True)
            return
        if self._resize is not None:
            self._resize.cancel()
        self._resize = loop.call_later(RESIZE_DELAY_S, self._resized)

    def _resized(self) -> None:
        self._resize = None
        self.show(keep=True)

    def go(self, k: int) -> None:
        """The kernel moved the step (a link, a reset, a key forwarded by the dashboard)."""
        hold = HeldShows.active()
        if hold is not None and self in hold.held:
            hold.held[self] = int(k)  # the run is drawn at it when released
            return
        if self.page.step != k:
            self.page.go(k)

    def _page_step(self, change) -> None:
        if not self._loading:
            self.timeline.go(change["new"])  # the model follows, then the figure

    def _page_playing(self, change) -> None:
        self.timeline.play.playing = bool(change["new"])


class HeldShows:
    """Hold the :meth:`PageRun.show` (and the :meth:`PageRun.go` that follow it) made inside
    ``with``; :meth:`release` then draws each held figure once, at its last step.

    The dashboard holds them while it makes a tab (``explorer.app.dashboard.Dashboard._open``):
    the tab's widgets go to the page first, and the page makes and lays them out while the
    kernel draws the figure's still layers, instead of after (a tab switch's two halves run on
    the two cores at once).
    """

    _local = threading.local()  # the hold in force, per thread (a worker's shows are not held)

    def __init__(self):
        #: PageRun -> the step to show it at (None: its timeline's step), in the order held.
        self.held: dict[PageRun, int | None] = {}
        #: PageRun -> whether the page keeps its own step (:meth:`PageRun.show`'s ``keep``).
        self.keep: dict[PageRun, bool] = {}
        self._outer: HeldShows | None = None

    @classmethod
    def active(cls) -> HeldShows | None:
        """The hold in force on this thread (the innermost), or None."""
        return getattr(cls._local, "hold", None)

    def __enter__(self) -> HeldShows:
        self._outer, HeldShows._local.hold = HeldShows.active(), self
        return self

    def __exit__(self, *exc) -> None:
        HeldShows._local.hold = self._outer

    def release(self) -> list[Exception]:
        """Draw and send each held figure (after ``with``); returns the errors of those that
        could not be drawn (ValueError, OverflowError, FloatingPointError), for the tab to
        say."""
        held, keep, self.held, self.keep = self.held, self.keep, {}, {}
        errors = []
        for run, step in held.items():
            try:
                run.show(step=step, keep=keep.get(run, False))
            except (ValueError, OverflowError, FloatingPointError) as exc:
                errors.append(exc)
        return errors
