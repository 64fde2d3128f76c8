"""Exported pictures of a run: the four panels over a caption strip, on an off-screen canvas.

A :class:`CaptionedFigure` owns a plain ``matplotlib.figure.Figure`` with its own
``FigureCanvasAgg`` and never touches pyplot, so an export can run in a background thread while
the live widget keeps drawing. Animations use :meth:`CaptionedFigure.blit`: the axes, ticks,
legends and static curves are drawn once into a cached background, and each frame draws only
the moving artists over it, as :meth:`PerceptronFigure.render` does on screen.

The caption strip says which step is shown ("step 12 of 240 · 3 updates"), narrates it (the
text of :func:`explorer.replay.frame`) and names the run's parameters (the caller's ``title``),
so a frame cut out of a slide still says what it shows.
"""

from __future__ import annotations

import textwrap

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from ..replay import RunInfo, StepFrame
from ..trajectory import Trajectory
from . import style as S
from .figure import FIGSIZE, PerceptronFigure

__all__ = ["CaptionedFigure", "step_caption", "wrap_narration", "CAPTION_INCHES"]

CAPTION_INCHES = 1.15  # height of the caption strip below the panels
NARRATION_WIDTH = 140  # characters per line at TEXT_SIZE across the 13-inch figure
NARRATION_LINES = 3
TITLE_WIDTH = 100  # characters of the parameters that fit beside the step line
STRIP_COLOUR = "#F4F8FB"  # as the widget's narration box


def step_caption(f: StepFrame) -> str:
    """First caption line of a frame, e.g. ``"step 12 of 240 · 3 updates"``."""
    return f"step {f.k} of {f.n_steps} · {f.n_updates} update{'' if f.n_updates == 1 else 's'}"


def wrap_narration(text: str, *, width: int = NARRATION_WIDTH, lines: int = NARRATION_LINES) -> str:
    """``text`` wrapped to at most ``lines`` lines of ``width`` characters (cut with "…")."""
    return "\n".join(textwrap.wrap(text, width=width, max_lines=lines, placeholder=" …"))


class CaptionedFigure:
    """A :class:`PerceptronFigure` of one run above a caption strip, on its own Agg canvas.

    Parameters
    ----------
    traj : Trajectory
        The run.
    X, y : array_like
        Its data, shapes ``(n, d)`` and ``(n,)``.
    info : RunInfo, optional
        Bound and proof quantities (computed from the run when omitted: an LP and an SVM fit).
    title : str, default ""
        The run's parameters, shown at the right of the caption's first line (shortened to
        100 characters at a word boundary).
    dpi : float, default 80
        Pixels per inch; 80 gives the live widget's 1040-pixel width.
    hand : bool, default False
        The learner picked every point ("you choose" mode); changes the last narration.

    Attributes
    ----------
    fig : matplotlib.figure.Figure
    canvas : matplotlib.backends.backend_agg.FigureCanvasAgg
    panels : PerceptronFigure
    step_text, narration_text, title_text : matplotlib.text.Text
        The caption's artists.
    """

    def __init__(self, traj: Trajectory, X, y, *, info: RunInfo | None = None, title: str = "",
                 dpi: float = 80, hand: bool = False):
        width, height = FIGSIZE
        total = height + CAPTION_INCHES
        self.fig = Figure(figsize=(width, total), dpi=dpi)
        self.canvas = FigureCanvasAgg(self.fig)
        self.panels = PerceptronFigure(self.fig, figsize=(width, total))
        for ax in self.fig.axes:  # the screen figure's layout, in inches, above the strip
            box = ax.get_position(original=True)
            ax.set_position([box.x0, (CAPTION_INCHES + box.y0 * height) / total, box.width,
                             box.height * height / total])
        self.panels.hand = hand
        self.panels.set_run(traj, X, y, info)

        strip = CAPTION_INCHES / total
        tf = self.fig.transFigure
        self.fig.add_artist(Rectangle((0, 0), 1, strip, transform=tf, facecolor=STRIP_COLOUR,
                                      edgecolor="none", zorder=-10))
        self.fig.add_artist(Line2D([0, 1], [strip, strip], transform=tf, color=S.POS, lw=1.5))
        first = (CAPTION_INCHES - 0.1) / total
        self.step_text = self.fig.text(0.012, first, "", fontsize=S.LABEL_SIZE, fontweight="bold",
                                       ha="left", va="top")
        self.title_text = self.fig.text(0.988, first, textwrap.shorten(title, TITLE_WIDTH, placeholder=" …"),
                                        fontsize=S.TEXT_SIZE, color="#444444", ha="right", va="top")
        self.narration_text = self.fig.text(0.012, (CAPTION_INCHES - 0.38) / total, "",
                                            fontsize=S.TEXT_SIZE, ha="left", va="top",
                                            linespacing=1.25)
        self._background = None

    @property
    def n_steps(self) -> int:
        """Steps in the run (frames are ``0 .. n_steps``)."""
        return self.panels.traj.n_steps

    def dynamic_artists(self) -> list:
        """Every artist that changes with the step: the panels' moving parts and the caption."""
        return [*self.panels.dynamic_artists(), self.step_text, self.narration_text]

    def show(self, k: int) -> StepFrame:
        """Move every artist, caption included, to step ``k`` without drawing."""
        f = self.panels.show(k)
        self.step_text.set_text(step_caption(f))
        self.narration_text.set_text(wrap_narration(f.text))
        return f

    def _set_animated(self, animated: bool) -> None:
        for a in self.dynamic_artists():
            a.set_animated(animated)

    def draw(self, k: int) -> StepFrame:
        """Draw step ``k`` in full (every artist in place), e.g. before a ``savefig``."""
        self._set_animated(False)
        self._background = None
        f = self.show(k)
        self.canvas.draw()
        return f

    def blit(self, k: int) -> StepFrame:
        """Draw step ``k`` by restoring the cached background and drawing the moving artists.

        The first call draws the static parts and caches them; the canvas then holds the frame
        (read it with :meth:`rgba`).
        """
        if self._background is None:
            self._set_animated(True)  # a full draw now skips them: the background is static
            self.canvas.draw()
            self._background = self.canvas.copy_from_bbox(self.fig.bbox)
        f = self.show(k)
        self.canvas.restore_region(self._background)
        for a in self.dynamic_artists():
            if a.get_visible():
                self.fig.draw_artist(a)
        return f

    def rgba(self) -> np.ndarray:
        """The canvas as drawn, an ``(height, width, 4)`` uint8 view (copy it to keep it)."""
        return np.asarray(self.canvas.buffer_rgba())
