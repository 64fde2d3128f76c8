"""The Margins figure as the page draws it (see :mod:`explorer.plots.scene`): still layers,
panels, the SGD step's tracks in chunks, and the edit parts sent once with the scene and again
while the data are edited.

:class:`MarginsScene` is mixed into :class:`explorer.plots.MarginsFigure`; the parts themselves
are :mod:`explorer.plots.margin_parts`.
"""

from __future__ import annotations

import numpy as np

from ..shared.i18n import tr_n
from . import layers
from . import margin_parts as P
from .page_figure import PageFigure
from .scene import Chunk
from .tracks import px_per_pt, stack

#: The still layers split at this z order: the points, the SVM's line, rings, slacks and
#: numbers (z <= 4) are tracks under the ``above`` layer, which holds the perceptron's line
#: (4.2), the SGD's limit (4.4), the legends (5) and the certificate's star (6.5); the SGD
#: iterate (7) and the objective's cursor and dot are drawn over it.
SPLIT_Z = 4.1




class MarginsScene(PageFigure):
    """What the page draws of :class:`~explorer.plots.MarginsFigure`: its declarations for
    :class:`~explorer.plots.page_figure.PageFigure`, and the edit parts."""

    split_z = SPLIT_Z

    def _init_scene(self) -> None:
        self.forget_page_scene()
        #: What the figure shows in numbers, said before each step's narration (the view's).
        self.summary = ""
        #: The points were edited (the status line says so).
        self.edited = False

    @property
    def described(self) -> bool:
        """Whether a scene describes the data and size shown (:meth:`scene` since the last
        :meth:`set_data`)."""
        return self.page_scene is not None

    @property
    def n_steps(self) -> int:
        return 0 if self.sgd is None else int(self.sgd.traj.n_steps)

    def page_missing(self) -> str:
        return "data: call set_data first" if self.comparison is None else ""

    # ------------------------------------------------------------------ what is where
    def panel_axes(self) -> dict:
        """Panel name -> axes, for the panels shown in this layout (a crowded figure shows one
        row of its side panels, see :meth:`~explorer.plots.MarginsFigure.set_focus`)."""
        side = self.overlay == "side"
        out = {"plane": self.plane.ax}
        if side:
            out["perc_plane"] = self.perc_plane.ax
        out.update(duals=self.duals.ax, objective=self.objective.ax)
        if not side:
            out["path"] = self.path_panel.ax
        return {name: ax for name, ax in out.items() if ax.get_visible()}

    def page_panels(self, *, width: float, height: float) -> tuple:
        return tuple(layers.panel(ax, name, width=width, height=height, log10="xy")
                     for name, ax in self.panel_axes().items())

    def enlargeable(self) -> dict:
        """Every panel shown may be shown large."""
        return self.panel_axes()

    def enlarged_legend(self, name: str):
        """A plane's legend hangs below or beside it."""
        plane = self._edit_planes().get(name)
        if plane is None or self.comparison is None:
            return None
        return lambda where, width: self._legend_in(where, width, plane=plane)

    def forget_layout(self) -> None:
        self._laid_out = None  # laid out again at the same size (MarginsFigure.fit)

    def _edit_planes(self) -> dict:
        out = {"plane": self.plane}
        if self.overlay == "side":
            out["perc_plane"] = self.perc_plane
        return out

    def track_artists(self) -> dict:
        """Track name -> the matplotlib artist that draws it."""
        out = P.step_artists(self)
        for name, plane in self._edit_planes().items():
            out.update(P.plane_artists(plane, name))
        return out

    def page_tracks(self, pt: float) -> list:
        """The SGD step's tracks (:meth:`chunk`), then the edit parts' (:meth:`statics`)."""
        tracks = P.step_tracks(self, pt)
        for name, plane in self._edit_planes().items():
            tracks += P.plane_tracks(plane, name, pt)
        return tracks

    def stepped_tracks(self) -> tuple:
        return tuple(self._tracks(True))

    def _tracks(self, step: bool) -> list:
        names = set(P.step_artists(self))
        return [t for t in self.page_scene.tracks if (t.name in names) == step]

    def status(self, k: int) -> str:
        """The status line at step ``k``."""
        n = 0 if self.sgd is None else self.sgd.traj.n_steps
        N = len(self.X)
        if self.edited:
            return tr_n("SGD step {k} of {n} · {N} point (edited)",
                        "SGD step {k} of {n} · {N} points (edited)", N).format(k=k, n=n, N=N)
        return tr_n("SGD step {k} of {n} · {N} point", "SGD step {k} of {n} · {N} points",
                    N).format(k=k, n=n, N=N)

    def narration(self, k: int) -> str:
        """The figure's description at step ``k``: :attr:`summary`, then the SGD run's step."""
        text = self.step_text(k)
        return f"{self.summary}. {text}" if text else f"{self.summary}."

    def parts(self, k: int) -> dict:
        """The SGD step's parts (:func:`explorer.plots.margin_parts.step_parts`)."""
        return P.step_parts(self, k)

    def page_step(self, k: int) -> tuple[dict, str]:
        """Step ``k``'s parts as the page maps them (the objective's dot in log10 units on a
        log axis) and its narration."""
        p = self.parts(k)
        if self.objective.ax.get_yscale() == "log":
            xy = np.array(p["dot"]["xy"], dtype=float)
            if len(xy):
                xy[:, 1] = np.log10(np.maximum(xy[:, 1], 1e-300))
            p["dot"]["xy"] = xy
        return p, self.narration(k)

    def _edit_chunk(self, X, y, cmp, *, numbers: bool) -> Chunk:
        pt = px_per_pt(self.fig)
        parts = {}
        for name, plane in self._edit_planes().items():
            Xd, cmpd = plane.drawn(X, cmp)  # in the plane of w for more than two features
            p = P.plane_parts(plane, Xd, y, cmpd, pt=pt)
            p.update(P.number_parts(plane, hidden=not numbers))
            P.apply_plane(plane, p, pt=pt)
            P.apply_numbers(plane, p)
            parts.update({f"{name}_{key}": value for key, value in p.items()})
        arrays, strings = stack([parts], self._tracks(False))
        return Chunk(start=0, count=1, arrays=arrays, strings=strings)

    def statics(self) -> Chunk:
        """The edit parts of the data shown (one row, the same at every step): sent with the
        scene (:meth:`explorer.app.pagefigure.PageFigure.show_scene`)."""
        if self.page_scene is None:
            raise ValueError("statics needs a scene: call scene first")
        return self._edit_chunk(self.X, self.y, self.comparison, numbers=True)

    def draft(self, X, y, comparison) -> Chunk | None:
        """Edited data and their new SVM as edit parts (the points' numbers hidden until the
        edit is finished), also moved on the kernel's artists; None when that is not possible
        (then lay the figure out again with :meth:`set_data`): the hard margin appears or
        vanishes, or a point or slack end leaves the plane's box."""
        if self.page_scene is None or self.comparison is None:
            return None
        X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        if X.shape[1] != 2 or self.plane.view is not None:  # edits are of two features
            return None
        if (self.comparison.svm is None) != (comparison.svm is None):
            return None
        x0, x1, y0, y1 = self.plane.box
        pts = np.vstack([X, np.asarray(comparison.slack_end, dtype=float).reshape(-1, 2)])
        if np.any(pts[:, 0] < x0) or np.any(pts[:, 0] > x1) or np.any(pts[:, 1] < y0) \
                or np.any(pts[:, 1] > y1):
            return None
        return self._edit_chunk(X, y, comparison, numbers=False)
