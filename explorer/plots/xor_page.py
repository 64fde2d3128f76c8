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

from ..shared.i18n import tr
from . import layers
from .page_figure import PageFigure
from .xor_parts import SPLIT_Z, STEPPED, artists, set_raster, tracks

__all__ = ["XorPage"]


class XorPage(PageFigure):
    """What the page draws of :class:`explorer.plots.xor.XorFigure`: its declarations for
    :class:`~explorer.plots.page_figure.PageFigure` (scene, chunks and matplotlib's steps)."""

    split_z = SPLIT_Z

    def _init_page(self) -> None:
        self.forget_page_scene()
        #: The status line of step ``k`` (the tab sets it; by default "step k of n").
        self.status_of: Callable[[int], str] | None = None

    @property
    def ready(self) -> bool:
        """Whether there is something to describe (a scene was laid out)."""
        return self.xor_scene is not None

    @property
    def n_steps(self) -> int:
        return 0 if self.xor_scene is None else int(self.xor_scene.steps(self.view))

    def page_missing(self) -> str:
        return "a function laid out: call set_scene first" if self.xor_scene is None else ""

    def track_artists(self) -> dict:
        """Track name -> the matplotlib artist that draws it, in the view shown."""
        return artists(self)

    def page_tracks(self, pt: float) -> list:
        return tracks(self, pt)

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

    def enlargeable(self) -> dict:
        """The plane and the view's panels shown beside it (not the 16 functions' tiles)."""
        out = {"plane": self.ax, **{
            "cycling": {"updates": self.ax_upd, "wrong": self.ax_err},
            "feature": {"lift": self.lifted.ax}, "layers": {"hidden": self.hidden.ax},
            "kernel": {"duals": self.duals.ax, "kernel_updates": self.ax_kupd},
        }.get(self.view, {})}
        return {name: ax for name, ax in out.items() if ax.get_visible()}

    def enlarged_legend(self, name: str):
        """The data plane's legend hangs below or beside it (``_legend_in``)."""
        return self._legend_in if name == "plane" and self._entries else None

    def still_layers(self, *, ratio: float) -> tuple[bytes, bytes]:
        self.show(0)  # what stays still in the view (the proof, the tiles, the hidden lines)
        return super().still_layers(ratio=ratio)

    def page_step(self, k: int) -> tuple[dict, str]:
        """The view's parts at step ``k`` and its narration; a view without a run (proof, 16
        functions) is all still layer: no parts, its one text."""
        if self.view in STEPPED:
            return self.step_parts(k)
        return {}, self.show(0)

    def status(self, k: int) -> str:
        """The status line at step ``k``."""
        return self.status_of(k) if self.status_of is not None else tr("step {k} of {n}").format(
            k=k, n=self.n_steps)

    def apply_own(self, track, part: dict) -> bool:
        """The regions (rasters) and the lifted plane (3-D), which no kind's applier moves."""
        if track.kind == "raster":
            image = self.image if track.name == "region" else self.hidden.image
            set_raster(image, part["bits"], int(track.data["data"][2][0]))
            return True
        if track.name == "lift_plane":
            self.lifted.show_plane(part["xyz"])
            return True
        return False
