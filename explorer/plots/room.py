"""The data plane first: how a figure of a data plane and side panels shares its room (issue 30).

The Perceptron, Margins and XOR figures have their data plane in the first column of a grid of
two rows, spanning both, and side panels (weight space, mistakes, proof; dual weights, SGD
objective, support path; ...) in the other columns. At a lecture hall's 1024 × 768 the side
panels kept their share of the width while the plane, squeezed by its legend below it, fell to
about 100 px. Laid out here, at every size:

1. :func:`split`: the plane is a square as tall as the grid (its title above, its axis labels
   below), at most :data:`PLANE_SHARE` of the grid's width; the side panels share the rest.
2. :func:`hang_legend`: the plane's legend goes below the plane when the room left there holds
   it (a figure taller than the plane needs), else beside it: over the side panels, at the top
   of their columns. The legend never shrinks the plane, and its type never shrinks.
3. :func:`arrange_side`: the side panels start under a legend beside the plane; when their
   rows would then be shorter than :data:`MIN_ROW_PT`, one row is shown (the figure's
   ``focus``) and the figure is *crowded*: its tab offers the choice of row.

Sizes are in figure pixels (matplotlib's display units) unless they say points.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from . import live
from . import style as S
from .tracks import css_dpi, figure_renderer

#: The data plane takes at most this share of the grid's width (its columns' widths, the gaps
#: between columns left out); the side panels get the rest.
PLANE_SHARE = 0.6
#: The shortest a row of side panels may be (the axes' height, in points): under it only one
#: row is shown and the others go behind a choice.
MIN_ROW_PT = 90
#: Points between a legend beside the plane and the titles of the side panels under it.
LEGEND_GAP_PT = 6


@dataclass(frozen=True)
class Room:
    """How a figure's room was shared.

    side : the plane's side in px; legend : where its legend went ("below", "beside", or ""
    without one); rows : the rows of side panels shown; crowded : a row is left out (the
    figure's ``focus`` names the one shown); row : the height in px each row of side panels
    would have with every row shown.
    """

    side: float
    legend: str
    rows: tuple
    crowded: bool
    row: float = 0.0


def split(fig, grid, *, ratios: Sequence[float], planes: int = 1,
          share: float = PLANE_SHARE) -> float:
    """Set ``grid``'s margins in points (:func:`~explorer.plots.live.margins_in_points`) and
    its width ratios so that each of its first ``planes`` columns is a square as tall as the
    grid, together at most ``share`` of the columns' width; the other columns share the rest in
    the proportions of ``ratios``. Every axes is moved to its cell. Returns the square's side."""
    live.margins_in_points(fig, grid, nrows=grid.nrows, ncols=grid.ncols)
    W, H = fig.bbox.width, fig.bbox.height
    bottoms, tops, lefts, rights = grid.get_grid_positions(fig)
    columns = float(sum(rights - lefts)) * W
    tall = float(tops[0] - bottoms[-1]) * H
    side = float(max(min(tall, share * columns / planes), 1.0))
    rest = ratios[planes:]
    others = max(columns - planes * side, 1.0)
    grid.set_width_ratios([side] * planes + [others * r / sum(rest) for r in rest])
    _to_cells(fig)
    return side


def hang_legend(plane_ax, build: Callable[[str, float], object], *,
                drop: float) -> tuple[str, object]:
    """Place the legend of ``plane_ax`` (the rightmost plane, placed by :func:`place_planes`):
    below the
    plane if it fits in the grid's room under the square, else beside it at the top of the
    side panels' columns. ``build(where, width)`` makes the legend ``"below"`` or ``"beside"``
    (anchored with :func:`anchor`) in at most ``width`` px if it can, and returns it; ``drop``:
    points from the plane's bottom to a legend below. Returns ``(where, legend)``."""
    fig = plane_ax.figure
    W, H = fig.bbox.width, fig.bbox.height
    renderer = figure_renderer(fig)
    cell = plane_ax.get_subplotspec().get_position(fig)
    box = plane_ax.get_position()
    pt = fig.dpi / 72
    left_room = cell.x0 * W  # the figure's margin left of the plane (its y labels)
    room_below = (box.y0 - cell.y0) * H
    if room_below > (drop + 2 * S.legend_size(css_dpi(fig))) * pt:  # two rows of it, at least
        legend = build("below", box.width * W + left_room)
        ext = legend.get_window_extent(renderer)
        if ext.height + drop * pt + 4 <= room_below and ext.width <= box.width * W + left_room:
            return "below", legend
    x0 = box.x1 * W + beside_gap(fig)
    return "beside", build("beside", max(W - x0 - 2, 1.0))


def beside_gap(fig) -> float:
    """Px between the plane's right edge and a legend beside it."""
    return S.TICK_SIZE * 1.2 * fig.dpi / 72


def anchor(ax, where: str, *, drop: float, shift: float = 0.0) -> dict:
    """``loc``, ``bbox_to_anchor`` and ``bbox_transform`` of a legend of ``ax`` ``"below"`` it
    (its top ``drop`` points under the axes, centred, ``shift`` px to the left) or
    ``"beside"`` it (its top left corner level with the top of ``ax``'s title, just right of
    ``ax``)."""
    from matplotlib.transforms import ScaledTranslation

    fig = ax.figure
    if where == "below":
        move = ScaledTranslation(-shift / fig.dpi, -drop / 72, fig.dpi_scale_trans)
        return {"loc": "upper center", "bbox_to_anchor": (0.5, 0.0),
                "bbox_transform": ax.transAxes + move}
    up = (S.TITLE_SIZE + 6) / 72  # inches: the title's row above the axes
    move = ScaledTranslation(beside_gap(fig) / fig.dpi, up, fig.dpi_scale_trans)
    return {"loc": "upper left", "bbox_to_anchor": (1.0, 1.0), "bbox_transform": ax.transAxes + move,
            "borderaxespad": 0.0}


def arrange_side(fig, grid, side_axes: Sequence, *, top: float, side: float,
                 legend=None, focus: int = 0,
                 min_row: float = MIN_ROW_PT) -> tuple[tuple, bool, float]:
    """Move the side panels (``side_axes``, on ``grid``'s rows) under ``legend`` (a legend
    beside the plane; None: none there), or up to ``top`` (the grid's top as :func:`split`
    set it, a figure fraction), and show their rows if each is at least ``min_row``
    points tall, else only row ``focus`` (an axes spanning every row stays), at the bottom of
    the side panels' room and no larger than the plane (a ``side`` px square). Returns
    ``(rows shown, crowded, the rows' height in px with every row shown)``. The planes keep
    their place (call :func:`place_planes` after)."""
    H = fig.bbox.height
    pt = fig.dpi / 72
    title = (S.TITLE_SIZE + 10) * pt  # as in margins_in_points
    top = top * H
    if legend is not None:
        ext = legend.get_window_extent(figure_renderer(fig))
        top = min(top, ext.y0 - LEGEND_GAP_PT * pt - title)
    bottom = grid.get_subplot_params(fig).bottom * H
    nrows = grid.nrows
    gap = (S.TICK_SIZE + S.LABEL_SIZE + S.TITLE_SIZE + 22) * pt  # as in margins_in_points
    row = (top - bottom - (nrows - 1) * gap) / nrows
    rowed = [ax for ax in side_axes if len(ax.get_subplotspec().rowspan) < nrows]
    crowded = bool(rowed) and row < min_row * pt  # an axes of every row's height stays whole
    shown = (min(max(int(focus), 0), nrows - 1),) if crowded else tuple(range(nrows))
    height = max(top - bottom, 1.0)
    if crowded:
        grid.update(top=top / H, hspace=0.0)
    else:
        grid.update(top=top / H,
                    hspace=nrows * gap / max(height - (nrows - 1) * gap, 1.0))
    W = fig.bbox.width
    if crowded:  # the row shown takes the side panels' height, no panel larger than the plane
        wide = [ax.get_subplotspec().get_position(fig).width * W for ax in side_axes
                if shown[0] in ax.get_subplotspec().rowspan]
        height = min([height] + [side * side / w for w in wide if w > 0])
    for ax in side_axes:
        spec = ax.get_subplotspec()
        visible = not crowded or shown[0] in spec.rowspan
        ax.set_visible(visible)
        pos = spec.get_position(fig)
        if crowded and visible:
            pos = [pos.x0, bottom / H, pos.width, height / H]
        ax.set_position(pos)
    _fit_titles(fig, [ax for ax in side_axes if ax.get_visible()])
    return shown, bool(crowded), float(row)


def _fit_titles(fig, axes) -> None:
    """Each axes' left title no wider than the room to the next axes on its right (or the
    figure's edge): a narrow side panel's title would run into its neighbour or off the
    figure."""
    W = fig.bbox.width
    boxes = [(ax, ax.get_position()) for ax in axes]
    for ax, box in boxes:
        if not ax.get_title(loc="left"):
            continue
        right = min([b.x0 for other, b in boxes if other is not ax and b.x0 > box.x0 + 1e-6
                     and b.y0 < box.y1 and box.y0 < b.y1] + [1.0])
        live.fit_title(ax, size=S.TITLE_SIZE, width=(right - box.x0) * W - 4)


def place_planes(fig, plane_axes: Sequence, *, side: float, top: float) -> None:
    """Put each plane axes as a ``side`` px square at the top (``top``, a figure fraction) of
    its column."""
    W, H = fig.bbox.width, fig.bbox.height
    for ax in plane_axes:
        cell = ax.get_subplotspec().get_position(fig)
        ax.set_position([cell.x0, top - side / H, side / W, side / H])


def _to_cells(fig) -> None:
    for ax in fig.axes:
        spec = ax.get_subplotspec()
        if spec is not None:
            ax.set_position(spec.get_position(fig))
