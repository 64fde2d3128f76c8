"""Exported pictures: a figure over a caption strip, on an off-screen canvas.

:class:`CaptionStrip` is the caption every export shares (every tab's stills and animations,
:mod:`explorer.plots.animation`, and the Perceptron run's :class:`CaptionedFigure`): the step
shown ("step 12 of 240 · 3 updates"), its narration and the settings (the caller's ``title``),
so a frame cut out of a slide still says what it shows. The strip goes below everything the
figure draws: when a legend or a label reaches below the figure's bottom edge, the strip moves
down by as much, so it never covers or cuts it. The settings are never shortened: they wrap,
beside the step line or, when they need the width, below it, and the strip grows to hold them.
A still's narration is whole too; an animation's keeps ``lines`` lines (its frames share one
size), and the HTML frame's text has it whole.

A :class:`CaptionedFigure` owns a plain ``matplotlib.figure.Figure`` with its own
``FigureCanvasAgg`` and never touches pyplot, so an export can run in a background thread while
the live widget keeps drawing. Animations use :meth:`CaptionedFigure.blit`: the axes, ticks,
legends and static curves are drawn once into a cached background, and each frame draws only
the moving artists over it, as :meth:`PerceptronFigure.render` does on screen.
"""

from __future__ import annotations

import textwrap

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.textpath import TextPath
from matplotlib.transforms import Bbox

from ..perceptron.replay import RunInfo, StepFrame
from ..perceptron.trajectory import Trajectory
from ..shared.i18n import tr_n
from . import style as S
from .figure import FIGSIZE, PerceptronFigure
from .tracks import figure_renderer

__all__ = ["CaptionedFigure", "CaptionStrip", "step_caption", "wrap_narration",
           "narration_lines", "wrap_settings", "settings_rows"]

NARRATION_WIDTH = 140  # characters per line at TEXT_SIZE across the 13-inch figure
NARRATION_LINES = 3  # an animation's narration lines (a still shows all of its narration)
STRIP_COLOUR = "#F4F8FB"  # as the widget's narration box
FIGURE_INCHES = 13.0  # the width NARRATION_WIDTH characters fill
#: The strip's rows, in inches: above the first row, the first row (step line and settings,
#: with the gap under it), a line of TEXT_SIZE type, below the last line (with one row and
#: three lines of narration the strip is 1.15 inches high), and the least room between the
#: lowest thing the figure draws (a legend, a label) and the strip.
PAD_TOP, FIRST_ROW, TEXT_LINE, PAD_BOTTOM = 0.1, 0.28, S.TEXT_SIZE * 1.25 / 72, 0.15
CLEARANCE = 4 / 72
GUTTER = 0.3  # inches between the step line and the settings beside it


def step_caption(f: StepFrame) -> str:
    """First caption line of a frame, e.g. ``"step 12 of 240 · 3 updates"``."""
    return tr_n("step {k} of {n} · {u} update", "step {k} of {n} · {u} updates",
                f.n_updates).format(k=f.k, n=f.n_steps, u=f.n_updates)


def wrap_narration(text: str, *, width: int = NARRATION_WIDTH, lines: int = NARRATION_LINES) -> str:
    """``text`` wrapped to at most ``lines`` lines of ``width`` characters (cut with "…")."""
    return "\n".join(textwrap.wrap(text, width=width, max_lines=lines, placeholder=" …"))


def narration_lines(text: str, *, width: int = NARRATION_WIDTH) -> int:
    """How many lines of ``width`` characters ``text`` takes."""
    return len(textwrap.wrap(text, width=width))


#: Type drawn at a given resolution is up to this much wider than its outline (hinting: at
#: 160 dpi a 12-point line is about 3 % wider than at 320 dpi).
HINTING = 1.05


def _text_inches(text: str, size: float, *, bold: bool = False) -> float:
    """Width in inches of one line of ``text`` in the figure's type at ``size`` points, at
    any resolution (its outline's width, with room for hinting)."""
    if not text:
        return 0.0
    prop = FontProperties(size=size, weight="bold" if bold else "normal")
    return TextPath((0, 0), text, size=size, prop=prop).get_extents().width * HINTING / 72


def wrap_settings(text: str, width: float, measure) -> list[str]:
    """The settings ``"a · b · c"`` in lines no wider than ``width`` (``measure(s)`` gives a
    line's width): broken between settings, and inside one only when it alone is too wide.
    Nothing is left out."""
    lines, line = [], ""
    for part in [p for p in text.split(" · ") if p]:
        joined = f"{line} · {part}" if line else part
        if measure(joined) <= width:
            line = joined
            continue
        if line:
            lines.append(line)
        line = ""
        for word in part.split(" "):  # a setting wider than the line: by words
            joined = f"{line} {word}" if line else word
            if measure(joined) <= width or not line:
                line = joined
            else:
                lines.append(line)
                line = word
    return lines + ([line] if line else [])


def settings_rows(title: str, *, width: float, line: str) -> tuple[list[str], bool]:
    """The settings' rows in a strip ``width`` inches wide whose step line is at most ``line``,
    and whether they go below the step line: beside it when they fit there in one row, or
    wrapped in the room beside it when that is at least 45 % of the width; else wrapped across
    the whole width, under it."""
    step_w = _text_inches(line or "step 000 of 000", S.LABEL_SIZE, bold=True)

    def measure(text: str) -> float:
        return _text_inches(text, S.TEXT_SIZE)

    beside = width - step_w - GUTTER
    if measure(title) <= beside:
        return ([title] if title else []), False
    if beside >= 0.45 * width:
        return wrap_settings(title, beside, measure), False
    return wrap_settings(title, width, measure), True


class CaptionStrip:
    """A caption strip added below a laid-out figure: the figure grows, and every axes keeps
    its place and size in inches above the strip.

    Parameters
    ----------
    fig : matplotlib Figure
        Laid out, on a canvas with a renderer (Agg).
    title : str
        The settings, ``" · "`` between them; wrapped, never shortened.
    lines : int
        Lines of narration the strip holds.
    line : str
        The longest step line the strip will show (the settings keep clear of it).

    The step line and the narration are animated artists (a blitted background leaves them
    out): :meth:`set` changes them and :meth:`draw` draws them over the canvas.
    """

    def __init__(self, fig, *, title: str = "", lines: int = NARRATION_LINES, line: str = ""):
        width, height = fig.get_size_inches()
        dpi = fig.dpi
        # the lowest thing drawn (a legend below its axes, a label) stays above the strip
        low = fig.get_tightbbox(figure_renderer(fig)).y0  # inches; below 0: out of the figure
        lift = max(0.0, CLEARANCE - low)
        pad = 0.012 * width
        rows, below = settings_rows(title, width=width - 2 * pad, line=line)
        if below:
            header = FIRST_ROW + len(rows) * TEXT_LINE + 0.04
        else:
            header = max(FIRST_ROW, len(rows) * TEXT_LINE + 0.07)
        inches = PAD_TOP + header + lines * TEXT_LINE + PAD_BOTTOM
        # whole pixels (at twice the resolution too): the figure above keeps its pixel grid, so
        # an export draws it exactly as a figure without the strip
        inches = round(inches * dpi) / dpi
        lift = np.ceil(lift * dpi - 1e-9) / dpi
        total = height + lift + inches
        fig.set_size_inches(width, total)
        for ax in fig.axes:
            box = ax.get_position(original=True)
            ax.set_position([box.x0, (inches + lift + box.y0 * height) / total, box.width,
                             box.height * height / total])
        strip = inches / total
        tf = fig.transFigure
        fig.add_artist(Rectangle((0, 0), 1, strip, transform=tf, facecolor=STRIP_COLOUR,
                                 edgecolor="none", zorder=-10))
        fig.add_artist(Line2D([0, 1], [strip, strip], transform=tf, color=S.POS, lw=1.5))
        first = (inches - PAD_TOP) / total
        x_pad = pad / width
        if below:
            self.title_text = fig.text(x_pad, (inches - PAD_TOP - FIRST_ROW) / total,
                                       "\n".join(rows), fontsize=S.TEXT_SIZE, color="#444444",
                                       ha="left", va="top", linespacing=1.25)
        else:
            self.title_text = fig.text(1 - x_pad, first, "\n".join(rows), fontsize=S.TEXT_SIZE,
                                       color="#444444", ha="right", va="top", linespacing=1.25,
                                       multialignment="right")
        self.step_text = fig.text(x_pad, first, "", fontsize=S.LABEL_SIZE, fontweight="bold",
                                  ha="left", va="top", animated=True)
        self.narration_text = fig.text(x_pad, (inches - PAD_TOP - header) / total, "",
                                       fontsize=S.TEXT_SIZE, ha="left", va="top",
                                       linespacing=1.25, animated=True)
        self.title = title
        self.lines = lines
        self.width = self.chars(fig)
        self.fig = fig
        self.fraction = strip
        self._background = None

    @staticmethod
    def chars(fig) -> int:
        """Characters of narration per line across ``fig``'s width."""
        return max(int(NARRATION_WIDTH * fig.get_size_inches()[0] / FIGURE_INCHES), 40)

    def restore(self) -> None:
        """Put back the strip as drawn without its moving text (cached at the first call, just
        after a full draw), so that a figure which redraws only part of itself each step
        leaves no old caption behind."""
        canvas = self.fig.canvas
        if self._background is None:
            W, H = self.fig.bbox.width, self.fig.bbox.height
            self._background = canvas.copy_from_bbox(Bbox([[0, 0], [W, self.fraction * H]]))
        else:
            canvas.restore_region(self._background)

    @property
    def moving(self) -> list:
        return [self.step_text, self.narration_text]

    def set(self, line: str, narration: str) -> None:
        """The step line and the narration (wrapped; cut with "…" past :attr:`lines`)."""
        self.step_text.set_text(line)
        self.narration_text.set_text(wrap_narration(narration, width=self.width,
                                                    lines=self.lines))

    def draw(self) -> None:
        for a in self.moving:
            self.fig.draw_artist(a)


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
        The run's parameters, at the right of the caption's first line (wrapped when long,
        :class:`CaptionStrip`).
    dpi : float, default 80
        Pixels per inch; 80 gives the live widget's 1040-pixel width.
    hand : bool, default False
        The learner picked every point ("you choose" mode); changes the last narration.
    still : int, optional
        The step of a still: the strip then holds that step's whole narration (an animation's
        holds :data:`NARRATION_LINES` lines).
    view : tuple of float, optional
        ``(azimuth, elevation)`` in degrees of the 3-D view of data of three features (as the
        page turned it); by default the view it opens with.

    Attributes
    ----------
    fig : matplotlib.figure.Figure
    canvas : matplotlib.backends.backend_agg.FigureCanvasAgg
    panels : PerceptronFigure
    strip : CaptionStrip
    step_text, narration_text, title_text : matplotlib.text.Text
        The caption's artists.
    """

    def __init__(self, traj: Trajectory, X, y, *, info: RunInfo | None = None, title: str = "",
                 dpi: float = 80, hand: bool = False, still: int | None = None, view=None):
        self.fig = Figure(figsize=FIGSIZE, dpi=dpi)
        self.canvas = FigureCanvasAgg(self.fig)
        self.panels = PerceptronFigure(self.fig, figsize=FIGSIZE)  # the screen figure's layout
        self.panels.hand = hand
        self.panels.set_run(traj, X, y, info)
        if view is not None and self.panels.plane is self.panels.solid:
            self.panels.solid.set_view(*view)
        lines = NARRATION_LINES
        if still is not None:  # a still shows its whole narration
            lines = max(lines, narration_lines(self.panels.frame(still).text,
                                               width=CaptionStrip.chars(self.fig)))
        n = traj.n_steps
        self.strip = CaptionStrip(self.fig, title=title, lines=lines,
                                  line=tr_n("step {k} of {n} · {u} update",
                                            "step {k} of {n} · {u} updates",
                                            traj.n_updates).format(k=n, n=n,
                                                                   u=traj.n_updates))
        self.step_text = self.strip.step_text
        self.title_text = self.strip.title_text
        self.narration_text = self.strip.narration_text
        self._background = None
        self._set_animated(False)  # a still's savefig draws every artist; blit() flags them

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
        self.strip.set(step_caption(f), f.text)
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
