"""The Perceptron tab's figure in the page: a run's scene and chunks, and the settled step.

The page (:class:`explorer.app.pagefigure.PageFigure`) draws every step and runs the transport
itself; the kernel builds, once per run and per size, the scene of a
:class:`~explorer.plots.figure.PerceptronFigure` (its still layers drawn by matplotlib at the
page's pixel ratio, its panels, its tracks) and answers the page's requests for chunks of
steps. The kernel's own figure follows the settled step (:meth:`PageRun.settle`): its
artists are what exports draw and what tests read, and they cost no drawing.
"""

from __future__ import annotations

import numpy as np

from ...plots import PerceptronFigure
from ..layout import FigureFit
from ..pagefigure import PageFigure
from ..timeline import Timeline, Transport

#: Steps per chunk sent to the page (about 0.5 kB a step: a chunk is about 130 kB).
CHUNK_STEPS = 256
#: The figure's accessible name.
NAME = "Perceptron tab: the data plane, weight space, mistakes so far and the convergence proof"


class PageRun:
    """Keeps a :class:`PageFigure` showing the run of a :class:`PerceptronFigure` (or of any
    figure with the same ``scene``/``chunk``/``show`` and a ``ready`` property saying it has
    something to describe, e.g. :class:`explorer.plots.xor.XorFigure`).

    Parameters
    ----------
    figure : PerceptronFigure
        The kernel's figure (a plain matplotlib figure, never on screen).
    timeline : Transport or Timeline
        The kernel's transport: its step is the settled step; the page's transport mirrors it.
    fitted : FigureFit
        The size to draw at until the dashboard measures the window.
    name : str
        The figure's accessible name.
    """

    def __init__(self, figure: PerceptronFigure, timeline: Transport | Timeline,
                 fitted: FigureFit, *, name: str = NAME):
        self.figure = figure
        self.timeline = timeline
        self.fitted = fitted
        self.page = PageFigure(name=name, layout={"width": "100%"})
        self.page.add_class("pe-pagefigure-box")
        self._run = 0
        self._loading = False
        self.page.observe(self._page_step, names="step")
        self.page.observe(self._page_playing, names="playing")
        self.page.observe(lambda ch: self.show(), names="ratio")

    def show(self, *, step: int | None = None) -> None:
        """Describe the figure's run at the current size and pixel ratio and send it."""
        f, fit = self.figure, self.fitted
        if not (f.ready if hasattr(f, "ready") else f.traj is not None):
            return
        k = self.timeline.step if step is None else int(step)
        ratio = max(1.0, min(float(self.page.ratio or 1.0), 3.0))
        scene = f.scene(width=fit.width, height=fit.height, scale=fit.scale, ratio=ratio,
                        chunk=CHUNK_STEPS)
        tl = self.timeline
        self._run += 1
        self._loading = True
        try:
            self.page.show_scene(scene, run=self._run, chunks=f.chunk, step=k, transport={
                "updates": [int(u) for u in np.asarray(tl.updates)], "epoch": int(tl.epoch),
                "cycle_start": tl.cycle_start})
        finally:
            self._loading = False
        f.show(self.page.step)

    def resize(self, fitted: FigureFit) -> None:
        if fitted != self.fitted:
            self.fitted = fitted
            self.show()

    def go(self, k: int) -> None:
        """The kernel moved the step (a link, a reset, a key forwarded by the dashboard)."""
        if self.page.step != k:
            self.page.go(k)

    def _page_step(self, change) -> None:
        if not self._loading:
            self.timeline.go(change["new"])  # the model follows, then the figure (settle)

    def _page_playing(self, change) -> None:
        self.timeline.play.playing = bool(change["new"])
