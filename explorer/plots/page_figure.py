"""The page-figure protocol, written once: a figure declares its panels, tracks and the parts
of step ``k``; :class:`PageFigure` makes the matplotlib figure, the page's :class:`Scene` and
:class:`Chunk` s, and draws step ``k`` with matplotlib from the same parts.

A figure that the page draws (see :mod:`explorer.plots.scene`) subclasses :class:`PageFigure`
and declares

* :meth:`~PageFigure.page_panels` — the panels shown, as the page maps them;
* :meth:`~PageFigure.page_tracks` — its moving parts (:class:`~explorer.plots.scene.Track`),
  and :meth:`~PageFigure.track_artists` — the matplotlib artist that draws each one;
* :meth:`~PageFigure.parts` — step ``k``'s arrays of every track (one step, no step axis), with
  :meth:`~PageFigure.narration` and :meth:`~PageFigure.status` — its words;
* :attr:`~PageFigure.n_steps`, :attr:`~PageFigure.split_z` (the still layers' split: tracks
  under it go "under" the ``above`` layer), :meth:`~PageFigure.page_missing` (what a scene
  still needs, "" when nothing).

It gets :meth:`~PageFigure.scene` and :meth:`~PageFigure.chunk` (the page's description) and
:meth:`~PageFigure.apply` (step ``k``'s parts put on the matplotlib artists, by each track's
kind: the exports draw what the page draws). A track whose artist no kind's applier moves
(e.g. a 3-D plane) is applied by the figure's :meth:`~PageFigure.apply_own`. A figure whose
matplotlib picture of a step is its own, not its tracks on artists (the recursion's table),
overrides :meth:`~PageFigure.show_step` and :meth:`~PageFigure.still_layers`, and its
:meth:`~PageFigure.track_artists` names the artists that draw the tracks shown at the step
shown.

Two more declarations, for a figure that needs them: :meth:`~PageFigure.take_run` (the data a
scene is made with, passed as ``scene(run=...)``: the Cover curves view's run) and
:attr:`~PageFigure.narrated` (False: the chunks carry no narration or status lines, which the
tab adds: the Cover figure's).

One panel, large (issue 33, :mod:`explorer.plots.enlarge`): a figure that declares
:meth:`~PageFigure.enlargeable` (its panels' axes by name; by default none) lets
:meth:`~PageFigure.set_enlarged` show one of them over the whole figure in the next scenes, and
back; :meth:`~PageFigure.enlarged_legend` gives a plane's legend that hangs outside its axes,
and a figure that keeps its layout per size forgets it in :meth:`~PageFigure.forget_layout`.

The page's language (issue 35): a figure's words are made in the language of the moment
(``tr``); a scene made after the language changed first sets them again (:meth:`~PageFigure.relabel`:
the axes' declared words, :func:`explorer.plots.style.say_again`, then the figure's own
:meth:`~PageFigure.own_words`, and the layout is made again), so a tab only sends its scene again
(:meth:`explorer.app.pagerun.PageRun.show`) to have its figure, narration and status lines in
the new language, at the same state and step.

Every subclass that makes a figure (defines ``__init__``) is listed in :data:`FIGURES`: tests
check each one's artists against its chunks.
"""

from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Polygon, Rectangle
from matplotlib.text import Text

from ..shared import i18n
from . import enlarge as E
from . import style as S
from . import tracks as T
from .live import LiveFigure
from .scene import FIGURE, Chunk, Scene

#: Figure class name -> class: every page-drawn figure (filled by subclassing).
FIGURES: dict[str, type] = {}


def new_figure(fig=None, *, figsize, dpi: float = 80, canvas: bool = False) -> Figure:
    """The matplotlib figure of a page-drawn figure: ``fig`` (an empty figure) sized to
    ``figsize`` inches (None: as it is), or a new one not tied to pyplot (on its own Agg
    canvas if ``canvas``)."""
    if fig is not None:
        if figsize is not None:
            fig.set_size_inches(*figsize)
        return fig
    fig = Figure(figsize=figsize, dpi=dpi)
    if canvas:
        FigureCanvasAgg(fig)  # off screen: drawn to pixels (still layers, tests)
    return fig


class PageFigure(LiveFigure):
    """A figure the page draws, described once (see the module docstring)."""

    #: Tracks with ``z`` under this go "under" the ``above`` still layer; None: as declared.
    split_z: float | None = None
    #: Whether the chunks carry each step's narration and status line (False: the tab adds them).
    narrated: bool = True
    _page_scene: Scene | None = None
    _declared: tuple = ()  # the last scene's tracks, those of panels left out too
    #: The size (CSS px) of the scene being described.
    page_size: tuple = (0, 0)
    #: The panel the scenes show large over the whole figure ("" : none), :meth:`set_enlarged`.
    enlarged: str = ""
    _laid_large: E.Laid | None = None  # what the last enlargement changed (put back first)
    _language: str | None = None  # the language of the last scene's words

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "__init__" in vars(cls):  # a figure, not one of its mixins
            FIGURES[cls.__name__] = cls
            made = cls.__init__

            @functools.wraps(made)
            def __init__(self, *args, **kw):
                made(self, *args, **kw)
                self._language = i18n.language()  # the language its words were made in

            cls.__init__ = __init__

    # ------------------------------------------------------------------ declared
    def take_run(self, run) -> None:
        """Take the data a scene is made with (``scene(run=...)``), before the figure is laid
        out; by default a figure takes none."""
        if run is not None:
            raise TypeError(f"{type(self).__name__}.scene takes no run")

    def page_missing(self) -> str:
        """What a scene still needs ("a run: call set_run first"), or "" when nothing."""
        return ""

    @property
    def n_steps(self) -> int:  # pragma: no cover - declared by the figure
        raise NotImplementedError

    def page_panels(self, *, width: float, height: float) -> tuple:  # pragma: no cover
        raise NotImplementedError

    def page_tracks(self, pt: float) -> list:  # pragma: no cover - declared by the figure
        raise NotImplementedError

    def track_artists(self) -> dict:  # pragma: no cover - declared by the figure
        raise NotImplementedError

    def parts(self, k: int) -> dict:  # pragma: no cover - declared by the figure
        raise NotImplementedError

    def narration(self, k: int) -> str:  # pragma: no cover - declared by the figure
        raise NotImplementedError

    def status(self, k: int) -> str:
        return f"step {k} of {self.n_steps}"

    def page_status(self, k: int) -> str:
        """The status line under the timeline at step ``k`` (by default :meth:`status`)."""
        return self.status(k)

    def page_step(self, k: int) -> tuple[dict, str]:
        """Step ``k``'s parts and narration (a figure that finds both at once says so here)."""
        return self.parts(k), self.narration(k)

    def still_layers(self, *, ratio: float) -> tuple[bytes, bytes]:
        """``(below, above)``: the still layers without the moving artists, split at
        :attr:`split_z` (a figure with other still parts says so here)."""
        return self.draw_still_layers(self.moving_artists(), split=self.split_z, ratio=ratio)

    def stepped_tracks(self) -> tuple:
        """The scene's tracks that move with the step (the others, if any, are sent apart)."""
        return self._page_scene.tracks

    def apply_own(self, track, part: dict) -> bool:
        """Put ``part`` on ``track``'s artist where no kind's applier does; True if done."""
        return False

    def enlargeable(self) -> dict:
        """Panel name -> axes of the panels shown now that may be shown large (by default
        none)."""
        return {}

    def enlarged_legend(self, name: str):
        """``build(where, width)`` of panel ``name``'s legend when it hangs outside its axes
        (a plane's, :func:`explorer.plots.room.hang_legend`), or None."""
        return None

    def forget_layout(self) -> None:
        """Have the next ``fit`` lay the figure out again, even at the size it has (after an
        enlargement; a figure that keeps its layout per size forgets it here)."""

    def own_words(self) -> None:
        """Set again, in the page's language, the words the figure set itself outside its
        layout (a legend made once, a text set once); by default none. Words set while the
        figure is laid out (``fit``) need nothing here."""

    def relabel(self) -> None:
        """The page's language changed: every axes' declared words set again
        (:func:`explorer.plots.style.say_again`), then :meth:`own_words`; the next ``fit`` lays
        the figure out again (words of other lengths), and the next :meth:`scene` is new."""
        S.say_again(self.fig)
        self.own_words()
        self.forget_layout()
        self.forget_page_scene()
        self._language = i18n.language()

    # ------------------------------------------------------------------ provided
    @property
    def page_scene(self) -> Scene | None:
        """The last :meth:`scene` (None until one, or after the figure changed)."""
        return self._page_scene

    def forget_page_scene(self) -> None:
        self._page_scene = None

    def set_enlarged(self, name) -> bool:
        """Show panel ``name`` large over the whole figure in the next scenes ("" : every
        panel, as the figure lays them out). A name that is not one of :meth:`enlargeable`
        (or not a string) is ignored. Returns whether it changed."""
        if not isinstance(name, str) or (name and name not in self.enlargeable()):
            return False
        changed = name != self.enlarged
        self.enlarged = name
        return changed

    def _lay_large(self):
        """After the figure's own layout: the axes of :attr:`enlarged` laid over the figure
        (None when none is, or when it is no longer a panel shown: then none is)."""
        ax = self.enlargeable().get(self.enlarged) if self.enlarged else None
        if ax is None:
            self.enlarged = ""
            return None
        self._laid_large = E.enlarge(ax, legend=self.enlarged_legend(self.enlarged))
        return ax

    def scene(self, *, width: int, height: int, scale: float = 1.0, ratio: float = 1.0,
              chunk: int = 256, run=None) -> Scene:
        """Lay the figure out at ``width`` × ``height`` CSS px (type ``scale`` times its size)
        and describe it for the page: still layers at ``ratio`` device px per CSS px, the
        panels, the tracks of the panels shown. :meth:`chunk` gives the steps' arrays. ``run``
        is the data a figure's scene is made with, if any (:meth:`take_run`)."""
        self.take_run(run)
        if self._language != i18n.language():  # words in the language now (issue 35)
            self.relabel()
        if self._laid_large is not None:  # the last scene's enlargement: the layout is redone
            E.put_back(self._laid_large)
            self._laid_large = None
            self.forget_layout()
        self._start_scene(missing=self.page_missing(), width=width, height=height,
                          scale=scale, ratio=ratio, chunk=chunk)
        self.page_size = (int(width), int(height))  # CSS px, for the declarations below
        names = tuple(self.enlargeable())
        large = self._lay_large()
        with E.only(self.fig, large):
            below, above = self.still_layers(ratio=ratio)
            panels = tuple(self.page_panels(width=width, height=height))
            self._declared = tuple(self.page_tracks(T.px_per_pt(self.fig)))
        if large is not None:
            panels = tuple(p for p in panels if p.name == self.enlarged)
        shown = {p.name for p in panels} | {FIGURE}  # not the tracks of a panel left out
        found = tuple(t for t in self._declared if t.panel in shown)
        if large is not None:  # the figure's own texts: those of the panel shown
            arts = self.track_artists()
            found = tuple(t for t in found if t.panel != FIGURE
                          or getattr(arts.get(t.name), "axes", None) in (None, large))
        if self.split_z is not None:
            found = tuple(replace(t, layer="under" if t.z < self.split_z else "over")
                          for t in found)
        self._page_scene = Scene(width=int(width), height=int(height), ratio=float(ratio),
                                 panels=panels, tracks=found, below=below, above=above,
                                 n_steps=int(self.n_steps), chunk=int(chunk),
                                 enlarged=self.enlarged,
                                 enlargeable=tuple(n for n in names if n in shown))
        return self._page_scene

    def chunk(self, index: int) -> Chunk:
        """The tracks' arrays for the steps of chunk ``index`` of the last :meth:`scene`, the
        texts they index, and per step the narration and the status line."""
        if self._page_scene is None:
            raise ValueError("chunk needs a scene of this figure and size: call scene first")
        steps = self._page_scene.chunk_range(index)
        if not self.narrated:
            arrays, strings = T.stack([self.parts(k) for k in steps], self.stepped_tracks())
            return Chunk(start=steps.start, count=len(steps), arrays=arrays, strings=strings)
        rows, texts = [], []
        for k in steps:
            parts, text = self.page_step(k)
            rows.append(parts)
            texts.append(text)
        arrays, strings = T.stack(rows, self.stepped_tracks())
        return Chunk(start=steps.start, count=len(steps), arrays=arrays, strings=strings,
                     narration=tuple(texts), status=tuple(self.page_status(k) for k in steps))

    def show_step(self, k: int) -> str:
        """Put step ``k``'s parts on the matplotlib artists; returns its narration."""
        parts, text = self.page_step(k)
        self.apply(parts)
        return text

    def apply(self, parts: dict) -> None:
        """Move each track's artist to its part in ``parts`` by the track's kind
        (:data:`APPLIERS`), or by :meth:`apply_own`. The tracks are the last scene's, or the
        figure's declared ones when ``parts`` names a track that scene does not have."""
        known = {t.name: t for t in self._declared} if self._page_scene is not None else {}
        if set(parts) - set(known):
            known = {t.name: t for t in self.page_tracks(T.px_per_pt(self.fig))}
        arts = self.track_artists()
        for name, part in parts.items():
            track = known.get(name)
            if track is None or not part or self.apply_own(track, part):
                continue  # not a track here, or static arrays only, or the figure's own
            art = arts.get(name)
            if art is not None:
                APPLIERS[track.kind](art, part, track)


# ---------------------------------------------------------------------- kinds -> matplotlib
def _polyline(art, part, track) -> None:
    if isinstance(art, LineCollection):
        art.set_segments(T.pieces(part["xy"]))
    else:
        T.set_polyline(art, part["xy"])


def _polygon(art, part, track) -> None:
    if isinstance(art, Rectangle):
        pts = T.finite_rows(part["xy"])
        if len(pts):
            lo, hi = pts.min(axis=0), pts.max(axis=0)
            art.set_bounds(lo[0], lo[1], hi[0] - lo[0], hi[1] - lo[1])
        art.set_visible(len(pts) > 0)
    else:
        assert isinstance(art, Polygon), type(art)
        T.set_polygon(art, part["xy"])


def _points(art, part, track) -> None:
    xy = np.asarray(part["xy"], dtype=float).reshape(-1, 2)
    ok = np.isfinite(xy).all(axis=1)
    if isinstance(art, Line2D):
        T.set_polyline(art, xy)
        return
    assert isinstance(art, PathCollection), type(art)
    art.set_offsets(xy[ok] if ok.any() else T.EMPTY)
    colors = track.style.get("colors")
    if "c" in part and colors:
        codes = np.asarray(part["c"], dtype=int)[ok]
        rgba = [to_rgba(colors[c]) for c in codes]
        if track.style.get("fill") == "none":  # rings: the code picks the edge colour
            art.set_edgecolors(rgba)
            widths = track.style.get("width")
            if isinstance(widths, list):
                pt = T.px_per_pt(art.figure)
                art.set_linewidths([widths[c] / pt for c in codes])
        else:
            art.set_facecolors(rgba)


def _text(art, part, track) -> None:
    assert isinstance(art, Text), type(art)
    art.set_text(part["text"])  # "" while hidden
    if track.panel != FIGURE:  # in CSS px, a text's place is matplotlib's layout's: words only
        T.set_text(art, part)


def _vline(art, part, track) -> None:
    x = float(part["x"])
    if np.isfinite(x):
        art.set_xdata([x, x])
    art.set_visible(bool(np.isfinite(x)))


def _prefix(art, part, track) -> None:
    data = np.asarray(track.data["data"], dtype=float)
    lo, hi = int(part.get("start", 0)), int(part["n"])
    pts = data[lo:hi]
    if "tail" in part:
        pts = np.vstack([pts, np.asarray(part["tail"], dtype=float).reshape(1, 2)])
    _polyline(art, {"xy": pts}, track)


def _arrow(art, part, track) -> None:
    assert isinstance(art, FancyArrowPatch), type(art)
    T.set_arrow(art, part["xy"])


def _unapplied(art, part, track) -> None:
    raise TypeError(f"track {track.name!r} of kind {track.kind!r}: its figure applies it "
                    "(apply_own)")


#: Track kind -> ``applier(artist, part, track)``: one step's part put on the artist.
APPLIERS = {"polyline": _polyline, "polygon": _polygon, "points": _points, "text": _text,
            "vline": _vline, "prefix": _prefix, "arrow": _arrow, "raster": _unapplied,
            "points3d": _unapplied, "polyline3d": _unapplied, "polygon3d": _unapplied,
            "axes3d": _unapplied, "hull3d": _unapplied, "arrow3d": _unapplied}
