"""The XOR figure as the page draws it: a view's scene (still layers, panels, tracks) and its
chunks of steps (see :mod:`explorer.plots.scene`).

:class:`XorPage` is mixed into :class:`explorer.plots.xor.XorFigure`, as
:class:`explorer.plots.figure.PerceptronFigure` describes itself: :meth:`XorPage.scene` lays the
figure out at a size and describes the view shown, :meth:`XorPage.chunk` gives its tracks'
arrays for a chunk of steps, with the narration and the status line of each step. A view
without a run (proof, 16 functions) is all still layer: one step, no tracks; its panels (the
16 tiles) are there for clicks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from . import layers
from .scene import FIGURE, Chunk
from .scene import Scene as PageScene
from .tracks import px_per_pt, stack
from .xor_parts import SPLIT_Z, STEPPED, artists, tracks

__all__ = ["XorPage"]


class XorPage:
    """The page-drawn side of :class:`explorer.plots.xor.XorFigure` (a mixin)."""

    def _init_page(self) -> None:
        self._page = None
        #: The status line of step ``k`` (the tab sets it; by default "step k of n").
        self.status_of: Callable[[int], str] | None = None

    @property
    def ready(self) -> bool:
        """Whether there is something to describe (a scene was laid out)."""
        return self.xor_scene is not None

    @property
    def n_steps(self) -> int:
        return 0 if self.xor_scene is None else int(self.xor_scene.steps(self.view))

    def track_artists(self) -> dict:
        """Track name -> the matplotlib artist that draws it, in the view shown."""
        return artists(self)

    def moving_artists(self) -> list:
        """The artists of the tracks (the page draws them; the still layers leave them out)."""
        out = list(self.track_artists().values())
        if self.view == "feature":
            out += self.lifted.texts  # drawn by the page's "axes3d" track
        return out

    def page_panels(self, *, width: float, height: float) -> tuple:
        """The panels of the view shown, as the page maps them."""
        def p(ax, name):
            return layers.panel(ax, name, width=width, height=height)

        out = [p(self.ax, "plane")]
        v = self.view
        if v == "cycling":
            out += [p(ax, name) for ax, name in ((self.ax_upd, "updates"), (self.ax_err, "wrong"))
                    if ax.get_visible()]  # a crowded figure shows one of them
        elif v == "feature":
            out.append(self.lifted.panel(p(self.lifted.ax, "lift")))
        elif v == "layers":
            out.append(p(self.hidden.ax, "hidden"))
        elif v == "kernel":
            out += [p(ax, name) for ax, name in ((self.duals.ax, "duals"),
                                                 (self.ax_kupd, "kernel_updates"))
                    if ax.get_visible()]
        elif v == "grid":
            out += [p(ax, f"tile{c}") for c, ax in enumerate(self.tiles)]
        return tuple(out)

    def scene(self, *, width: int, height: int, scale: float = 1.0, ratio: float = 1.0,
              chunk: int = 256) -> PageScene:
        """Lay the figure out at ``width`` × ``height`` CSS px (type ``scale`` times its size)
        and describe the view shown for the page: the still layers at ``ratio`` device px per
        CSS px, the panels, the tracks (layer "under" below :data:`SPLIT_Z`)."""
        missing = "a function laid out: call set_scene first" if self.xor_scene is None else ""
        self._start_scene(missing=missing, width=width, height=height, scale=scale, ratio=ratio, chunk=chunk)
        self.show(0)  # what stays still in the view (the proof, the tiles, the hidden lines)
        below, above = self.draw_still_layers(self.moving_artists(), split=SPLIT_Z, ratio=ratio)
        pt = px_per_pt(self.fig)
        panels = self.page_panels(width=width, height=height)
        shown = {p.name for p in panels} | {FIGURE}  # not the tracks of a panel left out
        found = tuple(replace(t, layer="under" if t.z < SPLIT_Z else "over")
                      for t in tracks(self, pt) if t.panel in shown)
        self._page = PageScene(width=int(width), height=int(height), ratio=float(ratio),
                               panels=panels,
                               tracks=found, below=below, above=above, n_steps=self.n_steps,
                               chunk=int(chunk))
        return self._page

    def status(self, k: int) -> str:
        """The status line at step ``k``."""
        return self.status_of(k) if self.status_of is not None else f"step {k} of {self.n_steps}"

    def chunk(self, index: int) -> Chunk:
        """The tracks' arrays for the steps of chunk ``index`` of the last :meth:`scene`, the
        texts they index, and per step the narration and the status line."""
        if self._page is None:
            raise ValueError("chunk needs a scene of this view and size: call scene first")
        steps = self._page.chunk_range(index)
        if self.view in STEPPED:
            rows, texts = zip(*(self.step_parts(k) for k in steps), strict=True)
        else:
            text = self.show(0)
            rows, texts = [{}] * len(steps), [text] * len(steps)
        arrays, strings = stack(list(rows), self._page.tracks)
        return Chunk(start=steps.start, count=len(steps), arrays=arrays, strings=strings,
                     narration=tuple(texts), status=tuple(self.status(k) for k in steps))
