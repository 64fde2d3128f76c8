"""The still layers and panels of a page-drawn figure (see :mod:`explorer.plots.scene`).

Matplotlib draws what stays still within a run twice, at the device's pixel ratio: ``below``,
every still artist under the split in z order, on the figure's background; ``above``, the still
artists at or over the split, on a transparent background. The moving artists are hidden in
both: the page draws them from their tracks, between and over the two layers.
"""

from __future__ import annotations

import io

import numpy as np

from . import mpl_adapter as mpl
from .scene import Panel
from .tracks import css_dpi, figure_renderer, px_per_pt

#: PNG compression of the still layers: fast (they are made once per run and size).
PNG_KWARGS = {"compress_level": 1}


def panel(ax, name: str, *, width: float, height: float, log10: str = "") -> Panel:
    """``ax`` as the page maps it: its box in CSS px after its aspect is applied, from the top
    left of a ``width`` × ``height`` figure, and its data limits. ``log10`` names the axes
    ("x", "y", "xy") whose log scale the page maps in log10 units (their tracks send
    logarithms)."""
    ax.apply_aspect()
    pos = ax.get_position()
    xlim, ylim = tuple(map(float, ax.get_xlim())), tuple(map(float, ax.get_ylim()))
    if "x" in log10 and ax.get_xscale() == "log":
        xlim = tuple(float(np.log10(v)) for v in xlim)
    if "y" in log10 and ax.get_yscale() == "log":
        ylim = tuple(float(np.log10(v)) for v in ylim)
    return Panel(name, float(pos.x0 * width), float((1.0 - pos.y1) * height),
                 float(pos.width * width), float(pos.height * height), xlim, ylim,
                 legend=legend_box(ax, height=height), title=title_box(ax, height=height),
                 heading=" ".join(t.get_text().strip() for t in (mpl.left_title(ax), ax.title)
                                  if t.get_visible() and t.get_text().strip()))


def legend_box(ax, *, height: float) -> tuple:
    """``ax``'s legend as drawn: ``(x, y, w, h, type_px)``, its box in CSS px from the top
    left of a figure ``height`` CSS px tall and its smallest type in CSS px; ``()`` when
    ``ax`` has no visible legend with words."""
    legend = ax.get_legend()
    if legend is None or not legend.get_visible():
        return ()
    texts = [t for t in (*legend.get_texts(), legend.get_title())
             if t.get_visible() and t.get_text().strip()]
    if not texts:
        return ()
    fig = ax.figure
    box = legend.get_window_extent(figure_renderer(fig))
    css = css_dpi(fig) / fig.dpi
    type_px = min(t.get_fontsize() for t in texts) * px_per_pt(fig)
    return (box.x0 * css, height - box.y1 * css, box.width * css, box.height * css, type_px)


def title_box(ax, *, height: float) -> tuple:
    """``ax``'s title as drawn: ``(x, y, w, h)``, the box around its left and centre titles
    that have words, in CSS px from the top left of a figure ``height`` CSS px tall; ``()``
    when it has none (a click there shows the panel large, :mod:`explorer.plots.enlarge`)."""
    renderer = figure_renderer(ax.figure)
    boxes = [t.get_window_extent(renderer) for t in (mpl.left_title(ax), ax.title)
             if t.get_visible() and t.get_text().strip()]
    if not boxes:
        return ()
    css = css_dpi(ax.figure) / ax.figure.dpi
    x0, x1 = min(b.x0 for b in boxes), max(b.x1 for b in boxes)
    y0, y1 = min(b.y0 for b in boxes), max(b.y1 for b in boxes)
    return tuple(round(float(v), 2) for v in (x0 * css, height - y1 * css, (x1 - x0) * css,
                                              (y1 - y0) * css))


def still_artists(fig) -> list:
    """The artists a figure draws itself, at the level where z order decides: each axes'
    children but its background patch, and the figure's own artists."""
    out = []
    for ax in fig.axes:
        out += [a for a in ax.get_children() if a is not ax.patch]
    out += [*fig.lines, *fig.patches, *fig.texts, *fig.artists, *fig.legends, *fig.images]
    return out


def render(fig, *, hide, dpi: float, transparent: bool, fmt: str = "png") -> bytes:
    """The figure drawn at ``dpi`` with the artists ``hide`` left out (PNG bytes, or raw
    RGBA with ``fmt="rgba"``); their visibility is restored."""
    saved = [(a, a.get_visible()) for a in hide]
    for a, _ in saved:
        a.set_visible(False)
    buf = io.BytesIO()
    try:
        kw = {"pil_kwargs": PNG_KWARGS} if fmt == "png" else {}
        fig.savefig(buf, format=fmt, dpi=dpi, transparent=transparent, **kw)
    finally:
        for a, visible in saved:
            a.set_visible(visible)
    return buf.getvalue()


def layer_dpi(fig, ratio: float) -> float:
    """Dots per inch that draw the figure at ``ratio`` device px per CSS px (nudged up so
    that matplotlib's truncation to whole pixels keeps the last one)."""
    return css_dpi(fig) * float(ratio) * (1 + 1e-9)


def still_layers(fig, moving, *, split: float, ratio: float, fmt: str = "png"):
    """``(below, above)``: the still artists under ``split`` (z order) on the figure's
    background, and those at or over it on a transparent one, at ``ratio`` device px per
    CSS px; the ``moving`` artists are in neither."""
    skip = {id(a) for a in moving}
    still = [a for a in still_artists(fig) if id(a) not in skip]
    low = [a for a in still if a.get_zorder() < split]
    high = [a for a in still if a.get_zorder() >= split]
    dpi = layer_dpi(fig, ratio)
    below = render(fig, hide=[*moving, *high], dpi=dpi, transparent=False, fmt=fmt)
    above = render(fig, hide=[*moving, *low], dpi=dpi, transparent=True, fmt=fmt) if high \
        else b""
    return below, above
