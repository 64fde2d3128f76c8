"""One panel, large (issue 33): a panel of a page-drawn figure laid over the whole figure, the
other panels left out, and back.

A lecturer shows one panel large for the back row (the data plane most of all). The figure is
laid out as usual first, then :func:`enlarge` moves the panel's axes over the figure's room (its
margins in points, as :func:`explorer.plots.live.margins_in_points` keeps them, so that ticks,
labels and title stay inside) and :func:`only` leaves the other axes out while the scene is made
(:meth:`explorer.plots.page_figure.PageFigure.scene`). The page gets a scene like any other,
drawn by matplotlib at the page's size and pixel ratio: crisp, never a crop blown up; a
follower of the room draws the scenes its presenter's page gets, so it follows.

An axes with an equal aspect (a data plane) becomes a square as tall as the room; when the
figure gives its legend's builder (a plane's legend hangs below or beside it,
:func:`explorer.plots.room.hang_legend`), the legend goes beside the square and the two are
centred in the figure. Going back is the figure's own layout again: :func:`put_back` returns
the axes' place and title size, and the figure lays itself out (its legend too) at the next
scene.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

from . import mpl_adapter as mpl
from . import room
from . import style as S
from .tracks import figure_renderer


@dataclass(frozen=True)
class Laid:
    """What :func:`enlarge` changed, for :func:`put_back`: the axes, its place before (figure
    fractions) and its titles' type sizes (points) before."""

    ax: object
    position: tuple
    title_sizes: tuple


def room_box(fig) -> tuple[float, float, float, float]:
    """``(left, bottom, width, height)`` in figure px of the room an axes may fill: the figure
    less the margins its tick labels, axis labels and title need (in points, as
    :func:`explorer.plots.live.margins_in_points` sets a grid's)."""
    pt = fig.dpi / 72
    W, H = fig.bbox.width, fig.bbox.height
    left = (S.TICK_SIZE * 2.6 + S.LABEL_SIZE + 12) * pt
    bottom = (S.TICK_SIZE + S.LABEL_SIZE + 16) * pt
    top = (S.TITLE_SIZE + 10) * pt
    right = S.TICK_SIZE * 1.8 * pt
    return left, bottom, max(W - left - right, 1.0), max(H - bottom - top, 1.0)


def _titles(ax) -> tuple:
    return (mpl.left_title(ax), ax.title)


def enlarge(ax, *, legend: Callable[[str, float], object] | None = None) -> Laid:
    """Lay ``ax`` over its figure's room (:func:`room_box`): a square as tall as the room if
    its aspect is equal, else the whole room; ``legend(where, width)`` (a plane's legend
    builder, or None) hangs its legend ``"beside"`` the square, the two centred. Its titles
    get their designed type size back (a narrow column had shrunk them). Returns what it
    changed (:func:`put_back`)."""
    fig = ax.figure
    laid = Laid(ax, tuple(ax.get_position(original=True).bounds),
                tuple(t.get_fontsize() for t in _titles(ax)))
    W, H = fig.bbox.width, fig.bbox.height
    left, bottom, width, height = room_box(fig)
    for title in _titles(ax):
        title.set_fontsize(max(title.get_fontsize(), S.TITLE_SIZE))
    if ax.get_aspect() == "auto":
        ax.set_position([left / W, bottom / H, width / W, height / H])
        return laid
    side = min(width, height)
    x0 = left + (width - side) / 2
    ax.set_position([left / W, bottom / H, side / W, side / H])
    if legend is not None:
        gap = room.beside_gap(fig)
        built = legend("beside", max(width - side - gap, 1.0))
        wide = built.get_window_extent(figure_renderer(fig)).width if built is not None else 0
        x0 = left + max((width - side - gap - wide) / 2, 0.0)
    ax.set_position([x0 / W, bottom / H, side / W, side / H])
    return laid


def put_back(laid: Laid | None) -> None:
    """Return what :func:`enlarge` changed (None: nothing was): the axes' place and its titles'
    type sizes (the figure's own layout, which follows, places its legend again)."""
    if laid is None:
        return
    laid.ax.set_position(laid.position)
    for title, size in zip(_titles(laid.ax), laid.title_sizes, strict=True):
        title.set_fontsize(size)


@contextmanager
def only(fig, ax):
    """Inside ``with``, ``fig``'s axes but ``ax`` are hidden (their visibility comes back after;
    ``ax`` None hides nothing)."""
    hidden = [] if ax is None else [a for a in fig.axes if a is not ax and a.get_visible()]
    for a in hidden:
        a.set_visible(False)
    try:
        yield
    finally:
        for a in hidden:
            a.set_visible(True)

