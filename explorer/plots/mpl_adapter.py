"""Every private matplotlib name the package reaches, in one place (issue 31).

The figures use matplotlib's public API everywhere else; what it does not offer is here, one
function per need, each saying which private name it reaches and why no public one does the
same. :data:`CHECKED` is the range of matplotlib versions these were checked on
(``tests/test_adapters.py`` fails when the installed version leaves it: re-check each function
here against that version's source, then widen the range). The floor in ``pyproject.toml``
(matplotlib 3.10: ``Artist.get_figure(root=True)``) is the bottom of this range.

CI does not run the unit tests at the lowest versions ``pyproject.toml`` allows yet; to run
some at a library's floor without touching the venv::

    .venv/bin/python scripts/test_at_floors.py --only matplotlib tests/test_adapters.py
"""

from __future__ import annotations

#: matplotlib versions every function below was checked on (lowest included, highest not).
CHECKED = {"matplotlib": (">=3.10", "<3.12")}


# ---------------------------------------------------------------------- figure dpi
def css_dpi(fig) -> float:
    """A figure's dpi without the device pixel ratio: ``Figure._original_dpi``, which
    matplotlib's own canvases multiply by the screen's ratio (``_set_device_pixel_ratio``);
    ``Figure.dpi`` is the product, and no public getter returns the factor before it."""
    return float(getattr(fig, "_original_dpi", None) or fig.dpi)


def set_css_dpi(fig, dpi: float, *, ratio: float) -> None:
    """Give ``fig`` ``dpi`` CSS px per inch on a screen of device pixel ``ratio``: sets
    ``Figure._original_dpi`` (read back by :func:`css_dpi` and by matplotlib's canvases) and
    calls ``Figure._set_dpi(dpi * ratio, forward=False)``. The public ``Figure.set_dpi`` and
    the ``dpi`` property forward a resize to the canvas at once; the caller sends one resize
    after setting the size as well."""
    fig._original_dpi = dpi
    fig._set_dpi(dpi * ratio, forward=False)


def renderer(fig):
    """The renderer that lays ``fig`` out at its dpi: its canvas's ``get_renderer()`` (Agg's,
    public), else ``Figure._get_renderer()`` (matplotlib's own layout renderer): a bare
    ``FigureCanvasBase`` has no public renderer, and ``Figure.draw_without_rendering`` draws
    without returning one."""
    return getattr(fig.canvas, "get_renderer", fig._get_renderer)()


# ---------------------------------------------------------------------- lines and text
def dash_pattern(line) -> tuple:
    """``(offset, dashes)`` of a ``Line2D``, scaled by its width, in points (``dashes`` None
    for a solid line): ``Line2D._dash_pattern``. The public ``get_linestyle()`` names only the
    style ("--"), not a custom pattern's lengths, nor their scaling by the line width."""
    return line._dash_pattern


def line_offsets(text, renderer) -> list:
    """``[(line, (dx, dy)), ...]``: each line of a ``Text`` laid out by ``renderer`` and where
    its baseline starts, in display px from the text's position (where ``Text.draw`` draws
    it): ``Text._get_layout``, whose lines are ``(line, (w, h), x, y)`` up to matplotlib 3.10
    and ``(line, (w, ascent, descent), (x, y))`` from 3.11. Public ``get_window_extent``
    gives the whole box only, not where each line's baseline starts."""
    _, info, _ = text._get_layout(renderer)
    return [(item[0], (item[2], item[3]) if len(item) == 4 else tuple(item[2])) for item in info]


def left_title(ax):
    """The ``Text`` of ``ax``'s left title: ``Axes._left_title``. ``get_title(loc="left")``
    returns its string only, and ``set_title(..., loc="left")`` (which returns the artist)
    resets its size and weight to the rc defaults."""
    return ax._left_title


def measure_as(text, strings, measure, renderer) -> list:
    """``[measure(renderer), ...]`` with ``text`` saying each of ``strings`` in turn, then its
    own words back. Swaps ``Text._text``: the public ``set_text`` marks the text stale, and
    this runs while a legend is being laid out (a figure's still layer must not redraw)."""
    shown = text._text
    boxes = []
    try:
        for s in strings:
            text._text = s
            boxes.append(measure(renderer))
    finally:
        text._text = shown
    return boxes


def replace_bbox(area, get_bbox) -> None:
    """Make a legend's ``TextArea`` report ``get_bbox(renderer)`` as its size: matplotlib's
    legend packs its boxes by calling each one's ``get_bbox``, and offers no public way to
    give an entry or a title a fixed size (the instance's method is replaced)."""
    area.get_bbox = get_bbox


# ---------------------------------------------------------------------- animation
def html_frames(writer) -> list:
    """The list of base64 PNG frames an embedding ``HTMLWriter`` writes out at ``finish``:
    ``HTMLWriter._saved_frames``. Its own ``grab_frame`` renders the figure again; a writer
    that makes its frames itself has no public way to hand them over."""
    return writer._saved_frames
