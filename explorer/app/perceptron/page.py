"""The Perceptron tab's figure in the page: a :class:`~explorer.app.pagerun.PageRun` of its
:class:`~explorer.plots.figure.PerceptronFigure` (see :mod:`explorer.app.pagerun`)."""

from __future__ import annotations

from ...plots import PerceptronFigure
from ..layout import FigureFit
from ..pagerun import CHUNK_STEPS
from ..pagerun import PageRun as _PageRun
from ..timeline import Timeline, Transport

__all__ = ["CHUNK_STEPS", "NAME", "PageRun"]

#: The figure's accessible name.
NAME = "Perceptron tab: the data plane, weight space, updates so far and the convergence proof"


class PageRun(_PageRun):
    """Keeps a :class:`PageFigure` showing the run of a :class:`PerceptronFigure`."""

    def __init__(self, figure: PerceptronFigure, timeline: Transport | Timeline,
                 fitted: FigureFit):
        super().__init__(figure, timeline, fitted, name=NAME,
                         ready=lambda: self.figure.traj is not None)
