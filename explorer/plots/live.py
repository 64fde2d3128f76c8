"""What every live figure shares: blitted rendering, sizing in CSS pixels, a legend below a plane.

A figure that mixes in :class:`LiveFigure` defines ``show(k)`` (move its artists to step
``k``) and ``dynamic_artists()`` (the artists that move); it gets :meth:`LiveFigure.render`,
which draws step ``k`` on the live canvas with or without blitting, and
:meth:`LiveFigure.savefig`. :func:`resize` (which keeps legends readable,
:func:`floor_legends`), :func:`margins_in_points` and :func:`legend_below` are the sizing steps
of a figure's ``fit`` (a figure with a data plane shares its room with
:mod:`explorer.plots.room`); :func:`reserve_title` keeps a legend's frame still while its
title's words change.
"""

from __future__ import annotations

import weakref

from matplotlib.legend import Legend
from matplotlib.offsetbox import TextArea
from matplotlib.transforms import Bbox

from . import layers
from . import mpl_adapter as mpl
from . import style as S
from .tracks import css_dpi, figure_renderer


class LiveFigure:
    """Blitted drawing of a figure whose subclass provides ``show(k)`` and ``dynamic_artists()``.

    Call :meth:`_init_live` once ``self.fig`` exists; call :meth:`invalidate` whenever the
    static part changes (new data, new size), so that the next :meth:`render` draws everything.
    """

    fig = None
    blit = False

    def _init_live(self, blit: bool) -> None:
        self.blit = bool(blit)
        self._background = None
        self._saving = False
        if self.blit:
            self.fig.canvas.mpl_connect("draw_event", self._on_draw)

    def show(self, k: int):  # pragma: no cover - provided by the figure
        raise NotImplementedError

    def dynamic_artists(self) -> list:  # pragma: no cover - provided by the figure
        raise NotImplementedError

    def moving_artists(self) -> list:
        """The artists of the figure's tracks (``track_artists()``), each once: the page draws
        them and the still layers leave them out."""
        return distinct(self.track_artists().values())

    def invalidate(self) -> None:
        """Forget the cached background (the next render draws the whole figure)."""
        self._background = None

    def mark_animated(self) -> None:
        """Flag the moving artists so that a full draw leaves them out of the background."""
        for a in self.dynamic_artists():
            a.set_animated(self.blit)

    def render(self, k: int):
        """Show step ``k`` on the live canvas; returns what ``show`` returns.

        With ``blit`` the static part is drawn once into a cached background and only the moving
        artists are drawn per step; otherwise the canvas redraws everything.
        """
        out = self.show(k)
        self.draw_frame()
        return out

    def draw_frame(self) -> None:
        """Put the artists as they are now on the live canvas: the moving ones blitted over the
        cached background, or everything when there is no background (or no blitting)."""
        canvas = self.fig.canvas
        if not self.blit:
            canvas.draw_idle()
        elif self._background is None:
            canvas.draw()  # full draw; _on_draw caches the background and adds the artists
        else:
            canvas.restore_region(self._background)
            self._draw_dynamic()
            canvas.blit(self.fig.bbox)

    def _on_draw(self, event) -> None:
        canvas = self.fig.canvas
        if self._saving or not hasattr(canvas, "copy_from_bbox"):
            return  # savefig draws through another canvas (SVG, PDF): nothing to cache
        self._background = canvas.copy_from_bbox(self.fig.bbox)
        self._draw_dynamic()

    def _draw_dynamic(self) -> None:
        for a in sorted(self.dynamic_artists(), key=lambda a: a.get_zorder()):
            if a.get_visible():
                self.fig.draw_artist(a)

    def _start_scene(self, *, missing: str, width: int, height: int, scale: float,
                     ratio: float, chunk: int) -> None:
        """The first step of every ``scene``: refuse a figure with nothing to describe
        (``missing`` says what, e.g. "a run: call set_run first"; "" when nothing is missing)
        or a bad ``chunk``/``ratio``, then lay the figure out at ``width`` × ``height``."""
        if missing:
            raise ValueError(f"scene needs {missing}")
        if not (int(chunk) >= 1 and float(ratio) > 0):
            raise ValueError(f"scene needs chunk >= 1 and ratio > 0; got {chunk}, {ratio}")
        self.fit(width, height, scale=scale)

    def draw_still_layers(self, moving, *, split: float, ratio: float) -> tuple[bytes, bytes]:
        """``(below, above)``: this figure's still layers for the page without ``moving``
        (:func:`explorer.plots.layers.still_layers`), drawn with the blitting callback off;
        the cached background is dropped, as the drawing left the canvas elsewhere."""
        saving, self._saving = self._saving, True
        floor_legends(self.fig)  # a legend made since the last fit, too
        try:
            return layers.still_layers(self.fig, moving, split=split, ratio=ratio)
        finally:
            self._saving = saving
            self._background = None

    def savefig(self, fname, **kwargs) -> None:
        """Save the figure as shown, moving artists included (PNG, SVG, PDF by extension)."""
        arts = self.dynamic_artists()
        for a in arts:
            a.set_animated(False)
        self._saving = True
        try:
            self.fig.savefig(fname, **kwargs)
        finally:
            self._saving = False
            for a in arts:
                a.set_animated(self.blit)
            self._background = None


def distinct(artists) -> list:
    """``artists`` in order, each once (by identity), None left out."""
    seen, out = set(), []
    for a in artists:
        if a is not None and id(a) not in seen:
            seen.add(id(a))
            out.append(a)
    return out


def resize(fig, width: float, height: float, *, scale: float = 1.0, base_dpi: float = 80) -> None:
    """Make ``fig`` ``width`` × ``height`` CSS pixels with type and markers ``scale`` times their
    designed size.

    Matplotlib sizes text, markers and lines in points, so the dots per inch set their size on
    screen: ``dpi = base_dpi * scale`` and ``inches = pixels / dpi``. On a high-density screen
    the canvas multiplies the dpi by its device pixel ratio, as matplotlib does itself.
    """
    if not (width > 0 and height > 0 and scale > 0):
        raise ValueError(f"fit needs a positive size and scale; got {width}×{height}, {scale}")
    dpi = float(base_dpi) * float(scale)
    ratio = getattr(fig.canvas, "device_pixel_ratio", 1) or 1
    mpl.set_css_dpi(fig, dpi, ratio=ratio)  # no resize message: one is sent below
    fig.set_size_inches(width / dpi, height / dpi, forward=True)
    floor_legends(fig)


#: Legend text -> its type in points as made (floor_legends raises it, never under this).
_MADE_SIZE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def floor_legends(fig) -> None:
    """Raise the type of every legend of ``fig`` to :data:`~explorer.plots.style.LEGEND_MIN_PX`
    CSS px where its size as made is smaller at the figure's size (a figure drawn small);
    where it is not, it gets its size as made back."""
    floor = S.legend_size(css_dpi(fig), 0.0)
    for legend in legends(fig):
        for text in (*legend.get_texts(), legend.get_title()):
            made = _MADE_SIZE.setdefault(text, text.get_fontsize())
            text.set_fontsize(max(made, floor))


def legends(fig) -> list:
    """Every legend of ``fig``: the figure's, each axes' and those an axes keeps as artists
    (a second legend). Where matplotlib keeps them, without walking every artist of the figure
    (``findobj`` took 24 ms a figure, a tenth of a setting's redraw)."""
    found = list(fig.legends)
    for ax in fig.axes:
        found += [a for a in (ax.get_legend(), *ax.artists) if isinstance(a, Legend)]
    return found


def margins_in_points(fig, grid, *, nrows: int, ncols: int, top_extra: float = 0.0) -> None:
    """Set a grid's outer margins and gaps in points, from the shared type sizes.

    Titles, tick labels and axis labels keep their size in points, so margins given as
    fractions of the figure would cut them off when the type grows. ``top_extra`` adds points
    above the top row (e.g. for a two-line title). Every axes on the grid is moved to its cell.
    """
    pt = fig.dpi / 72
    W, H = fig.bbox.width, fig.bbox.height
    left = (S.TICK_SIZE * 2.6 + S.LABEL_SIZE + 12) * pt / W
    bottom = (S.TICK_SIZE + S.LABEL_SIZE + 16) * pt / H
    top = 1 - (S.TITLE_SIZE + 10 + top_extra) * pt / H
    gap_h = (S.TICK_SIZE + S.LABEL_SIZE + S.TITLE_SIZE + 22) * pt
    gap_w = (S.TICK_SIZE * 2.6 + S.LABEL_SIZE + 20) * pt  # half a tick label overhangs
    right = 1 - S.TICK_SIZE * 1.8 * pt / W  # the last x tick label is centred on the edge
    avail_h, avail_w = (top - bottom) * H, (right - left) * W
    grid.update(left=left, right=right, bottom=bottom, top=top,
                hspace=nrows * gap_h / max(avail_h - (nrows - 1) * gap_h, 1),
                wspace=ncols * gap_w / max(avail_w - (ncols - 1) * gap_w, 1))
    for ax in fig.axes:
        spec = ax.get_subplotspec()
        if spec is not None:
            ax.set_position(spec.get_position(fig))


def fit_title(ax, *, size: float, width: float) -> None:
    """Give ``ax``'s left title type ``size`` (points), smaller if it would be wider than
    ``width`` CSS px (its column), but never under :data:`~explorer.plots.style.READABLE_PX`
    when it was over it: a long title at a large type scale would run into the next panel's."""
    title = mpl.left_title(ax)
    title.set_fontsize(size)
    fig = ax.figure
    renderer = figure_renderer(fig)
    wide = title.get_window_extent(renderer).width
    if wide > width > 0:
        share = S.readable_share(size, fig.dpi)
        title.set_fontsize(size * max(width / wide, share))
        text = title.get_text()
        if width / wide < share and " (" in text:
            # still too wide at the smallest readable size: the source in brackets goes (the
            # panel's narration and legend cite it) rather than run into the next panel
            title.set_text(text[: text.index(" (")])


def legend_below(ax, rebuild, *, drop: float, columns=(3, 2, 1)):
    """Fit a legend hung ``drop`` points below a square, top-anchored axes; return the legend.

    ``rebuild(ncols)`` makes the legend in ``ncols`` columns and returns it. The fewest rows
    that stay within the axes' column (and the figure) are chosen; then, if the legend would
    leave the figure at the bottom, the axes shrink (keeping their top) until it fits, but not
    below 30 % of their cell's height.
    """
    fig = ax.figure
    spec = ax.get_subplotspec()
    legend = None
    if spec is None:
        return rebuild(columns[0])
    cell = spec.get_position(fig)
    W, H = fig.bbox.width, fig.bbox.height
    renderer = figure_renderer(fig)
    top = cell.y1 * H
    center = (cell.x0 + cell.width / 2) * W  # the square is centred in its column
    half_room = min(center - 2, cell.width * W / 2)  # within its column, inside the figure
    for ncols in columns:
        legend = rebuild(ncols)
        box = legend.get_window_extent(renderer)
        if box.width / 2 <= half_room:
            break
    need = box.height + drop * fig.dpi / 72 + 4  # px below the axes
    side = min(cell.width * W, cell.height * H)
    if top - side >= need:
        ax.set_position(cell)
        return legend
    side = max(top - need, 0.3 * cell.height * H)
    ax.set_position([cell.x0, (top - side) / H, cell.width, side / H])
    return legend


def reserve_title(legend, templates) -> None:
    """Lay ``legend``'s title out as if it were the widest and the tallest of the strings
    ``templates``, whatever it says: its frame, a still layer of a page-drawn figure, then stays
    as the title's words change (the page draws them, each line a text track,
    :func:`explorer.plots.tracks.text_lines`). The title keeps its top left corner; the room
    it does not fill is left blank below and to its right.

    The title's box is measured again at each layout (the renderer's dpi), for the templates
    and then for the title itself, which sets where its lines are drawn.
    """
    text = legend.get_title()
    area = text_area(legend, text)
    measure = area.get_bbox

    def get_bbox(renderer):
        boxes = mpl.measure_as(text, templates, measure, renderer)
        own = measure(renderer)  # last: a multi-line title's baseline is its own
        w = max(b.width for b in (*boxes, own))
        h = max(b.height for b in (*boxes, own))
        return Bbox.from_bounds(own.x0, own.y1 - h, w, h)

    mpl.replace_bbox(area, get_bbox)


def text_area(legend, text):
    """The ``TextArea`` of ``legend`` that holds ``text`` (an entry's label or the title)."""
    return next(a for a in legend.findobj(TextArea) if any(c is text for c in a.get_children()))
