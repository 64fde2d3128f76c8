"""The Margins figure as the page draws it, with the 3-D view for data of three features.

:class:`Margins3DScene` is :class:`~explorer.plots.margin_scene.MarginsScene` (panels, tracks,
the SGD step's parts, the edit parts) with :class:`~explorer.plots.margin3d.Margin3D` in the
data plane's place when the data have three features and both lines are overlaid: its panel
carries the view's angles (``view3d``), its tracks are 3-D kinds sent once with the scene
(:meth:`Margins3DScene.statics`), and the SGD iterate's track ``sgd`` is its plane's outline
in 3-D. Data of other dimensions, or side by side, are the plane's as before.
"""

from __future__ import annotations

from . import tracks as T
from .margin3d import Margin3D
from .margin_scene import MarginsScene
from .scene import Chunk

__all__ = ["Margins3DScene"]


class Margins3DScene(MarginsScene):
    """:class:`~explorer.plots.margin_scene.MarginsScene` with the 3-D panel
    (:class:`Margin3D`) in the data plane's place for three features, overlaid."""

    solid = None  # made for the first data of three features

    @property
    def data_plane(self):
        """The data panel shown: the 3-D view (three features, overlaid) or the plane."""
        solid = self.solid
        return solid if solid is not None and solid.ax.get_visible() else self.plane

    @property
    def in_3d(self) -> bool:
        return self.data_plane is not self.plane

    def _show_solid(self, X, y, comparison, sgd) -> None:
        """Show the 3-D view for three features overlaid (else the plane); place its data."""
        three = X.shape[1] == 3 and self.overlay == "overlaid"
        if three and self.solid is None:
            self.solid = Margin3D(self.fig.add_subplot(self.grid[:, 0]))
            self.solid.ax.set_visible(False)
        if self.solid is None:
            return
        self.solid.ax.set_visible(three)
        self.plane.ax.set_visible(not three)
        if three:
            self.solid.ax.set_subplotspec(self.grid[:, 0])
            self.solid.ax.set_position(self.plane.ax.get_position())
            self.solid.set_data(X, y, comparison, sgd)
            self.solid.apply({"sgd": self._sgd_part(0)})

    def _sgd_part(self, k: int) -> dict:
        sgd = self.sgd
        if sgd is None:
            return self.solid.sgd_part(None, 0.0)
        w, b = sgd.traj.state(k)
        return self.solid.sgd_part(w, b)

    # ------------------------------------------------------------------ the page
    def panel_axes(self) -> dict:
        out = super().panel_axes()
        if self.in_3d:
            out = {"plane": self.solid.ax, **{k: v for k, v in out.items() if k != "plane"}}
        return out

    def page_panels(self, *, width: float, height: float) -> tuple:
        out = super().page_panels(width=width, height=height)
        if self.in_3d:
            out = tuple(self.solid.panel(p) if p.name == "plane" else p for p in out)
        return out

    def enlarged_legend(self, name: str):
        if self.in_3d and name == "plane":
            return self._legend_in if self.comparison is not None else None
        return super().enlarged_legend(name)

    def track_artists(self) -> dict:
        if not self.in_3d:
            return super().track_artists()
        return {"sgd": self.solid.sgd, "cursor": self.objective.cursor,
                "dot": self.objective.dot, **self.solid.artists()}

    def page_tracks(self, pt: float) -> list:
        if not self.in_3d:
            return super().page_tracks(pt)
        steps = [t for t in super().page_tracks(pt) if t.name in ("cursor", "dot")]
        return [self.solid.sgd_track(pt), *steps, *self.solid.tracks(pt)]

    def parts(self, k: int) -> dict:
        out = super().parts(k)
        if self.in_3d:
            out["sgd"] = self._sgd_part(k)
        return out

    def apply_own(self, track, part: dict) -> bool:
        return self.in_3d and self.solid.apply_part(track.name, part)

    def moving_artists(self) -> list:
        extra = self.solid.label_texts() if self.in_3d else []
        return [*super().moving_artists(), *extra]

    def _edit_chunk(self, X, y, cmp, *, numbers: bool):
        if not self.in_3d:
            return super()._edit_chunk(X, y, cmp, numbers=numbers)
        parts = self.solid.still_parts(cmp, self.sgd)
        arrays, strings = T.stack([parts], self._tracks(False))
        return Chunk(start=0, count=1, arrays=arrays, strings=strings)

    def draft(self, X, y, comparison):
        return None if self.in_3d else super().draft(X, y, comparison)
