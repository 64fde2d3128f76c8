"""Stills and animations of any tab's figure, drawn off screen from the tab's state.

A tab exports a fresh copy of its own figure (a :class:`~explorer.plots.live.LiveFigure`: the
class the page shows, made again from the tab's model) on a figure of its own with a
``FigureCanvasAgg``, sized as on screen; the live figure is never touched, and nothing here
uses pyplot, so an export may run in a background thread. :class:`TabFrames` puts a caption
strip below it (the step, the narration, the parameters, as the Perceptron export's
:class:`~explorer.plots.frames.CaptionedFigure`) and draws its frames with the figure's own
``render``, which blits the moving artists over a cached background as on screen.

:func:`record` is the one recorder of every export, the Perceptron tab's included: frames are
mapped onto one shared palette and written by ``matplotlib.animation`` writers, GIF by
``PillowWriter`` (each frame stored as its change from the previous one) and HTML by
``HTMLWriter`` (each frame transparent where it equals the backdrop, the last frame, which the
page shows behind it), whose ``grab_frame`` takes the canvas as drawn instead of calling
``savefig``. The HTML page plays offline (:func:`explorer.plots.player.offline_page`).

``progress(i, n)`` is called after frame ``i`` of ``n`` (0-based) and ``cancelled()`` before
every frame: when it returns True the export raises :class:`ExportCancelled`.
"""

from __future__ import annotations

import base64
import io
import os
import re
import tempfile
from collections.abc import Callable

import numpy as np
from matplotlib.animation import HTMLWriter, PillowWriter
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from ..shared.validation import check_int, check_positive
from . import mpl_adapter as mpl
from . import style as S
from .frames import NARRATION_LINES, CaptionStrip, narration_lines
from .player import offline_page

__all__ = ["ExportCancelled", "TabFrames", "CaptionStrip", "offscreen_figure", "even_steps",
           "frames_note", "record", "MAX_FRAMES", "FPS"]

#: Most frames of an animation: a longer run is sampled evenly (and the panel says so).
MAX_FRAMES = 120
FPS = 4
LAST_FRAME_MS = 2000  # the GIF holds its last frame this long before it loops
TRANSPARENT = 255  # palette index left free: "same as the backdrop" in HTML frames


class ExportCancelled(Exception):
    """An export stopped because its ``cancelled()`` callback returned True."""


def _stop_if(cancelled, done: int, n: int) -> None:
    if cancelled is not None and cancelled():
        raise ExportCancelled(f"export cancelled after {done} of {n} frames")


def offscreen_figure(*, dpi: float = 80) -> Figure:
    """A new ``Figure`` on its own ``FigureCanvasAgg``, not known to pyplot: what a tab's
    figure class is given to draw an export."""
    fig = Figure(dpi=dpi)
    FigureCanvasAgg(fig)
    return fig


# ---------------------------------------------------------------------------- frames chosen
def even_steps(n_steps: int, *, max_frames: int = MAX_FRAMES) -> np.ndarray:
    """The steps an animation shows: ``0 .. n_steps`` when they are at most ``max_frames``,
    else ``max_frames`` evenly spaced ones, the first and the last included.

    Returns
    -------
    ndarray of int64, increasing
    """
    n = check_int(n_steps, name="n_steps", minimum=0)
    m = check_int(max_frames, name="max_frames", minimum=2)
    if n + 1 <= m:
        return np.arange(n + 1, dtype=np.int64)
    return np.unique(np.floor(np.linspace(0, n, m) + 0.5).astype(np.int64))


def frames_note(n_steps: int, *, what: str = "step", max_frames: int = MAX_FRAMES) -> str:
    """What an animation of ``0 .. n_steps`` shows, for the export panel: every frame, or how a
    long run is sampled (``what`` names the count, e.g. ``"SGD step"``, ``"cells filled"``);
    ``""`` when there is nothing to play."""
    n = check_int(n_steps, name="n_steps", minimum=0)
    if n == 0:
        return ""
    frames = len(even_steps(n, max_frames=max_frames))
    if frames == n + 1:
        return f"GIF and HTML: {frames:,} frames, {what} 0 to {n:,}, every one."
    return (f"GIF and HTML: {frames} frames, {what} 0 to {n:,} evenly spaced (a long run is "
            f"sampled: at most {max_frames} frames).")


# ---------------------------------------------------------------------------- a tab's frames
class TabFrames:
    """A tab's figure off screen above a caption strip: the stills and frames of its export.

    Parameters
    ----------
    figure : LiveFigure
        A fresh figure of the tab's class on :func:`offscreen_figure`, sized (``fit``) and
        given the tab's data, made with ``blit=True`` where its steps move few artists. Its
        ``render(k)`` draws step ``k`` and returns the narration (or ``""``).
    n_steps : int
        Frames are the steps ``0 .. n_steps`` (0: a still only).
    caption : callable ``(k) -> str``
        The caption's first line, e.g. ``"SGD step 12 of 1200"``.
    narrate : callable ``(k, text) -> str``, optional
        The narration of step ``k`` from the figure's ``text`` (default: ``text``).
    title : str, default ""
        The parameters, at the right of the caption's first line (wrapped when long, never
        shortened: :class:`~explorer.plots.frames.CaptionStrip`).
    heading : str, default ""
        The HTML page's title.
    """

    def __init__(self, figure, *, n_steps: int, caption: Callable[[int], str],
                 narrate: Callable[[int, str], str] | None = None, title: str = "",
                 heading: str = ""):
        canvas = getattr(getattr(figure, "fig", None), "canvas", None)
        if not (hasattr(canvas, "copy_from_bbox") and hasattr(canvas, "buffer_rgba")):
            raise TypeError("expected a figure drawn on its own Agg canvas (offscreen_figure()); "
                            f"got one on {type(canvas).__name__}")
        self.figure = figure
        self.fig = figure.fig
        self.canvas = canvas
        self.n_steps = check_int(n_steps, name="n_steps", minimum=0)
        self.caption = caption
        self.narrate = narrate
        self.title = title
        self.heading = heading
        self.strip = None  # made by the first still or frame (a still's holds its narration)

    def _text(self, k: int) -> str:
        """Draw step ``k`` of the figure; returns its narration."""
        text = self.figure.render(k)
        text = text if isinstance(text, str) else ""
        return self.narrate(k, text) if self.narrate is not None else text

    def _add_strip(self, lines: int) -> None:
        """The caption strip below the figure, for ``lines`` lines of narration."""
        line = max((self.caption(0), self.caption(self.n_steps)), key=len)
        self.strip = CaptionStrip(self.fig, title=self.title, lines=lines, line=line)
        self.figure.invalidate()  # the size changed: the next render draws everything

    def render(self, k: int) -> str:
        """Draw step ``k`` on the canvas (blitting after the first frame); returns the caption's
        line and narration as one text (the HTML frame's ``alt``)."""
        k = check_int(k, name="k", minimum=0, maximum=self.n_steps)
        if self.strip is None:
            self._add_strip(NARRATION_LINES)
        text = self._text(k)
        line = self.caption(k)
        self.strip.restore()
        self.strip.set(line, text)
        self.strip.draw()
        return f"{line}. {text}" if text else line

    def still(self, k: int, fmt: str = "png", *, dpi: float | None = None) -> bytes:
        """Step ``k`` as PNG or SVG bytes, every artist drawn (default resolution: twice the
        screen's), with its whole narration. The file's title and description metadata are
        the caption's text."""
        if fmt not in ("png", "svg"):
            raise ValueError(f"fmt must be 'png' or 'svg'; got {fmt!r}")
        dpi = 2 * self.fig.dpi if dpi is None else check_positive(dpi, name="dpi")
        k = check_int(k, name="k", minimum=0, maximum=self.n_steps)
        if self.strip is None:  # room for the whole narration of this step
            self._add_strip(max(NARRATION_LINES, narration_lines(
                self._text(k), width=CaptionStrip.chars(self.fig))))
        alt = self.render(k)
        line = self.strip.step_text.get_text()
        meta = {"Title": f"{line} · {self.title}" if self.title else line, "Description": alt}
        for a in self.strip.moving:
            a.set_animated(False)
        buf = io.BytesIO()
        try:
            self.figure.savefig(buf, format=fmt, dpi=dpi, metadata=meta)
        finally:
            for a in self.strip.moving:
                a.set_animated(True)
        return buf.getvalue()

    def animation(self, kind: str, *, steps=None, max_frames: int = MAX_FRAMES, fps: float = FPS,
                  progress: Callable[[int, int], None] | None = None,
                  cancelled: Callable[[], bool] | None = None):
        """The frames as a GIF (``kind="gif"``, bytes) or an offline HTML page (``"html"``, str).

        ``steps`` default to :func:`even_steps` (all, or ``max_frames`` evenly spaced).
        """
        if self.n_steps == 0:
            raise ValueError("nothing plays here: there are no steps to animate (PNG and SVG "
                             "show what is on screen)")
        if steps is None:
            steps = even_steps(self.n_steps, max_frames=max_frames)
        return record(kind, self.fig, self.render, steps, fps=fps, heading=self.heading,
                      max_frames=max_frames, progress=progress, cancelled=cancelled)


# ---------------------------------------------------------------------------- recording
def _rgb(canvas) -> Image.Image:
    """A copy of the canvas as drawn, in RGB."""
    w, h = canvas.get_width_height(physical=True)
    return Image.frombuffer("RGBA", (w, h), canvas.buffer_rgba(), "raw", "RGBA", 0, 1).convert("RGB")


def _indexed(canvas, palette: Image.Image) -> Image.Image:
    """The canvas as drawn, mapped onto ``palette`` (nearest colour, no dithering)."""
    return _rgb(canvas).quantize(palette=palette, dither=Image.Dither.NONE)


def _named_colours() -> list[str]:
    """The colours :mod:`explorer.plots.style` names (``POS``, ``TRIGGER``, …), once each."""
    found = [v for k, v in vars(S).items()
             if k.isupper() and isinstance(v, str) and re.fullmatch(r"#[0-9A-Fa-f]{6}", v)]
    return list(dict.fromkeys(v.upper() for v in found))


def make_palette(canvas, render, keys) -> tuple[Image.Image, np.ndarray]:
    """One 255-colour palette from the frames ``keys`` (drawn by ``render``), and the last of
    them in that palette as an array of indices (the HTML frames' backdrop)."""
    tiles = []
    for k in keys:
        render(int(k))
        tiles.append(_rgb(canvas))
    w, h = tiles[0].size
    # the plots' named colours in swatches of their own: a mark that covers few pixels (the
    # ring of a point that triggered an update) keeps its colour in every frame
    named = _named_colours()
    band = max(h // 40, 1)
    sheet = Image.new("RGB", (w, h * len(tiles) + band * len(named)))
    for i, tile in enumerate(tiles):
        sheet.paste(tile, (0, i * h))
    for i, colour in enumerate(named):
        sheet.paste(colour, (0, h * len(tiles) + i * band, w, h * len(tiles) + (i + 1) * band))
    palette = sheet.quantize(colors=TRANSPARENT, method=Image.Quantize.MEDIANCUT)
    return palette, np.asarray(tiles[-1].quantize(palette=palette, dither=Image.Dither.NONE))


def _no_savefig_args(kwargs) -> None:
    if kwargs:
        raise TypeError(f"expected no savefig arguments (frames are blitted); got {sorted(kwargs)}")


class BlitPillowWriter(PillowWriter):
    """``PillowWriter`` whose frames are the canvas as drawn, on one shared palette."""

    def __init__(self, *, fps: float, palette: Image.Image, backdrop: np.ndarray | None = None):
        super().__init__(fps=fps)  # no backdrop: GIF frames already store only what changed
        self.palette = palette

    def setup(self, fig, outfile, dpi=None):
        super().setup(fig, outfile, dpi=dpi)
        self.frames = []

    def grab_frame(self, **savefig_kwargs):
        _no_savefig_args(savefig_kwargs)
        self.frames.append(_indexed(self.fig.canvas, self.palette))

    def finish(self):
        if not self.frames:
            return
        ms = round(1000 / self.fps)
        durations = [ms] * (len(self.frames) - 1) + [max(ms, LAST_FRAME_MS)]
        self.frames[0].save(self.outfile, format="GIF", save_all=True,
                            append_images=self.frames[1:], duration=durations, loop=0)


class BlitHTMLWriter(HTMLWriter):
    """``HTMLWriter`` with embedded frames taken from the canvas as drawn: palette PNGs,
    transparent where they equal ``backdrop`` (the page shows it behind the player's image)."""

    def __init__(self, *, fps: float, palette: Image.Image, backdrop: np.ndarray):
        super().__init__(fps=fps, embed_frames=True, default_mode="once")
        self.frame_format = "png"
        self.palette = palette
        self.backdrop = backdrop
        self.colours = (palette.getpalette() + [255] * 768)[:768]  # index 255: white, unused

    def _adjust_frame_size(self):
        """Keep the figure's size: matplotlib rounds it to even pixels for video codecs, which
        would resize the canvas under its cached background (PNG frames need no rounding)."""
        w, h = self.frame_size
        return w / self.dpi, h / self.dpi

    def grab_frame(self, **savefig_kwargs):
        _no_savefig_args(savefig_kwargs)
        index = np.asarray(_indexed(self.fig.canvas, self.palette))
        index = np.where(index == self.backdrop, TRANSPARENT, index).astype(np.uint8)
        im = Image.frombytes("P", (index.shape[1], index.shape[0]), index.tobytes())
        im.putpalette(self.colours)
        buf = io.BytesIO()
        im.save(buf, format="png", transparency=TRANSPARENT)
        # the list HTMLWriter.finish embeds, as its own grab_frame fills it
        mpl.html_frames(self).append(base64.encodebytes(buf.getvalue()).decode("ascii"))

    def backdrop_png(self) -> bytes:
        """The backdrop as an opaque PNG."""
        im = Image.frombytes("P", (self.backdrop.shape[1], self.backdrop.shape[0]),
                             self.backdrop.astype(np.uint8).tobytes())
        im.putpalette(self.colours)
        buf = io.BytesIO()
        im.save(buf, format="png")
        return buf.getvalue()


def _check_steps(steps, max_frames: int) -> np.ndarray:
    s = np.asarray(steps)
    if s.ndim != 1 or s.size == 0 or s.dtype.kind not in "iu":
        raise TypeError(f"expected steps to be a non-empty 1-D sequence of integers; got {steps!r}")
    if len(s) > max_frames:
        raise ValueError(f"expected at most max_frames = {max_frames} steps; got {len(s)}")
    return s.astype(np.int64)


def record(kind: str, fig, render: Callable[[int], str], steps, *, fps: float = FPS,
           heading: str = "", palette_steps=None, max_frames: int = MAX_FRAMES,
           progress: Callable[[int, int], None] | None = None,
           cancelled: Callable[[], bool] | None = None):
    """Draw ``steps`` one by one with ``render`` and write them as a GIF or an HTML page.

    Parameters
    ----------
    kind : {"gif", "html"}
    fig : matplotlib Figure
        On a ``FigureCanvasAgg``; ``render(k)`` leaves frame ``k`` drawn on its canvas and
        returns its text (the HTML image's ``alt``).
    steps : sequence of int
        The frames, at most ``max_frames``.
    fps : float, default 4
        Frames per second; a GIF holds its last frame 2 s before it loops.
    heading : str
        The HTML page's title.
    palette_steps : sequence of int, optional
        Frames whose colours make the shared palette, the last of them the HTML backdrop
        (default: the first, middle and last step).
    progress, cancelled : callables, optional
        See the module docstring.

    Returns
    -------
    bytes (GIF) or str (the HTML page)
    """
    if kind not in ("gif", "html"):
        raise ValueError(f"expected kind 'gif' or 'html'; got {kind!r}")
    m = check_int(max_frames, name="max_frames", minimum=2)
    steps = _check_steps(steps, m)
    fps = check_positive(fps, name="fps")
    n = len(steps)
    _stop_if(cancelled, 0, n)
    if palette_steps is None:
        palette_steps = sorted({int(steps[0]), int(steps[n // 2]), int(steps[-1])})
    palette, last = make_palette(fig.canvas, render, palette_steps)
    writer_class = BlitPillowWriter if kind == "gif" else BlitHTMLWriter
    writer = writer_class(fps=fps, palette=palette, backdrop=last)
    texts = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "run." + kind)
        writer.setup(fig, path, dpi=fig.dpi)
        for i, k in enumerate(steps):
            _stop_if(cancelled, i, n)
            texts.append(render(int(k)))
            writer.grab_frame()
            if progress is not None:
                progress(i, n)
        writer.finish()
        with open(path, "rb") as fh:
            data = fh.read()
    if kind == "gif":
        return data
    return offline_page(data.decode("utf-8"), title=heading, texts=texts,
                        backdrop=writer.backdrop_png())
