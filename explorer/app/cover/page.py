"""The Cover tab's figure as the page draws it (:mod:`explorer.app.pagerun`): one figure for
the page whatever the view, made of the kernel's two matplotlib figures.

* ``"recursion"``: the :class:`~explorer.plots.recursion.RecursionFigure`'s scene, its steps
  the cells Sayed's (60.73) fills, with their narration and status;
* ``"curves"``: the :class:`~explorer.plots.cover.CoverFigure`'s curves, its steps the Monte
  Carlo points in the order they came (step ``i`` shows the first ``i``); the page shows the
  last step, and a run that goes on is a scene grown over the same still layers (:meth:`grow`);
* ``"dichotomies"``, ``"boolean"``: no steps; the tiles and the placed points are static
  tracks (the data :func:`~explorer.app.cover.scenes.fill` put into the figure).

No widgets here: the view (:mod:`explorer.app.cover.view`) decides when to send what.
"""

from __future__ import annotations

from dataclasses import replace

from ...plots.cover import CoverFigure
from ...plots.recursion import RecursionFigure
from ...plots.scene import Chunk, Scene
from ...shared.i18n import tr, tr_n
from .model import VIEWS
from .scenes import curves_text, shown_mc

__all__ = ["CoverPage", "mc_status"]


def mc_status(k: int, n: int) -> str:
    """The status line of step ``k`` of a Monte Carlo run of ``n`` points."""
    if not n:
        return tr("Monte Carlo: no points yet")
    return tr_n("Monte Carlo: {k} of {n} point", "Monte Carlo: {k} of {n} points", n).format(
        k=k, n=n)


class CoverPage:
    """The figure :class:`~explorer.app.pagerun.PageRun` sends (``scene``, ``chunk``,
    ``statics``, ``show``), for the view the model ``model`` shows.

    Parameters
    ----------
    model : CoverModel
    figure : CoverFigure
        The kernel's figure of the curves, dichotomies and Boolean views, its data set by the
        view (:func:`explorer.app.cover.scenes.fill`).
    recursion : RecursionFigure
    """

    def __init__(self, model, figure: CoverFigure, recursion: RecursionFigure):
        self.model, self.figure, self.recursion = model, figure, recursion
        self.view = None  # the view of the last scene
        self.mc = ()  # the Monte Carlo points of the curves view's scene
        self.text = ""  # the narration of a view with no steps

    def scene(self, *, width: int, height: int, scale: float = 1.0, ratio: float = 1.0,
              chunk: int = 256) -> Scene:
        """The view shown, laid out at ``width`` × ``height`` CSS px (see the module
        docstring)."""
        m = self.model
        self.view = m.view
        size = {"width": width, "height": height, "scale": scale, "ratio": ratio,
                "chunk": chunk}
        if m.view == "recursion":
            if self.recursion.table is not m.table:
                self.recursion.set_table(m.table)
            return self.recursion.scene(**size)
        f = self.figure
        if f.view != m.view:
            f.set_view(m.view)
        if m.view == "curves":
            self.mc = tuple(shown_mc(m))
            return f.scene(**size, run=(m.curves, m.xaxis, self.mc))
        return f.scene(**size)

    def grow(self) -> Scene | None:
        """The curves view's scene with the Monte Carlo points come since (None: make a new
        scene, see :meth:`CoverFigure.grow`)."""
        m = self.model
        if self.view != "curves" or m.view != "curves":
            return None
        mc = tuple(shown_mc(m))
        scene = self.figure.grow(mc)
        if scene is not None:
            self.mc = mc
        return scene

    def chunk(self, index: int) -> Chunk:
        """Chunk ``index`` of the last scene, with each step's narration and status."""
        if self.view == "recursion":
            return self.recursion.chunk(index)
        c = self.figure.chunk(index)
        steps = range(c.start, c.start + c.count)
        if self.view == "curves":
            m, n = self.model, len(self.mc)
            return replace(c, narration=tuple(curves_text(m, self.mc[:k]) for k in steps),
                           status=tuple(mc_status(k, n) for k in steps))
        return replace(c, narration=(self.text,) * c.count,
                       status=(VIEWS[self.view],) * c.count)

    def statics(self) -> Chunk | None:
        """The static tracks of the dichotomies or Boolean view (None in the others)."""
        if self.view in ("dichotomies", "boolean"):
            return self.figure.statics()
        return None

    def show(self, k: int) -> None:
        """The kernel's figure at the settled step ``k`` (exports and tests read it)."""
        if self.view == "recursion":
            self.recursion.show(k)
        elif self.view == "curves":
            self.figure.show_step(k)
