"""Colours, markers and sizes shared by every figure: colour-blind safe, readable on a projector.

The palette is Okabe & Ito's (2008), distinguishable under the common colour-vision
deficiencies; the two classes also differ by marker shape, so nothing depends on colour alone.
Everything must also read in greyscale (a printed handout, a washed-out projector): the two
half-planes differ by hatch direction, lines by dash pattern, curves by marker shape.

An axes' title and labels are declared in English (marked with ``N_``) and shown in the page's
language (:func:`style_axes`, :func:`set_words`); :func:`say_again` sets them again after the
language changed.
"""

import weakref

from ..shared.i18n import N_, tr

#: Axes -> the English words declared for it ({"title": ..., "xlabel": ..., "ylabel": ...}).
_WORDS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()

POS = "#0072B2"  # blue, class +1, circles
NEG = "#D55E00"  # vermillion, class -1, squares
POS_MARKER, NEG_MARKER = "o", "s"
POS_SHADE, NEG_SHADE = "#0072B2", "#D55E00"
SHADE_ALPHA = 0.10
POS_HATCH, NEG_HATCH = "//", "\\\\"  # half-plane hatching: rising vs falling diagonals
HATCH_ALPHA = 0.35  # hatch lines are drawn in the class colour at this opacity
LINE = "#000000"  # current hyperplane and normal
GHOST = "#7F7F7F"  # previous hyperplane
UPDATE = "#009E73"  # bluish green: the update vector
PICKED = "#000000"  # ring around the point visited
TRIGGER = "#CC79A7"  # reddish purple: the visited point triggered an update
BOUND = "#E69F00"  # orange: bound lines
ACCENT = "#56B4E9"  # sky blue: secondary series
KEPT = "#E69F00"  # orange, dash-dot: the pocket or averaged classifier beside the current one
KEPT_STYLE = "-."
POS_HULL_STYLE, NEG_HULL_STYLE = "--", ":"  # dashed / dotted hull outlines
CERT = "#F0E442"  # yellow star with a black edge: the point in both hulls
CERT_MARKER = "*"

#: The rule of every panel titled "so far", said in its legend: it draws steps 0 to k (the step
#: shown) and nothing of the later steps, not even faint; a panel that shows a whole run for
#: reference says "whole run" in its title or legend instead.
SO_FAR = N_("steps 0 to k only")

#: The smallest type (CSS px) read from the back of a lecture hall: a figure whose full-size
#: type is larger than this never shrinks a legend under it (lecture mode on a large screen).
READABLE_PX = 20


def readable_share(size: float, dpi: float) -> float:
    """How far type of ``size`` points on a figure of ``dpi`` CSS px per inch may shrink (a
    share of its size) to fit: down to :data:`READABLE_PX`, or not at all if it is under that
    already."""
    full_px = size * dpi / 72
    return min(READABLE_PX, full_px) / full_px

#: The smallest type of a legend, in CSS px: a figure drawn small (a 1024 px screen) keeps its
#: legends at this size while the rest of its type shrinks.
LEGEND_MIN_PX = 11


def legend_size(css_dpi: float, size: float | None = None) -> float:
    """A legend's type in points (``size``, by default ``TICK_SIZE - 1``) on a figure of
    ``css_dpi`` CSS px per inch, raised to :data:`LEGEND_MIN_PX` if it is smaller."""
    size = TICK_SIZE - 1 if size is None else size
    return max(float(size), LEGEND_MIN_PX * 72 / float(css_dpi))


TITLE_SIZE = 15
LABEL_SIZE = 13
TICK_SIZE = 11
TEXT_SIZE = 12
POINT_SIZE = 70


def _tr(text: str) -> str:
    return tr(text) if text else text  # gettext's "" is the catalog's header


def set_words(ax, **words) -> None:
    """Set ``ax``'s ``title``, ``xlabel`` and/or ``ylabel`` (English, the catalogs' keys) in the
    page's language, and remember them for :func:`say_again`."""
    setters = {"title": lambda t: ax.set_title(t, fontsize=TITLE_SIZE, loc="left"),
               "xlabel": lambda t: ax.set_xlabel(t, fontsize=LABEL_SIZE),
               "ylabel": lambda t: ax.set_ylabel(t, fontsize=LABEL_SIZE)}
    for name, text in words.items():
        setters[name](_tr(text))
    _WORDS.setdefault(ax, {}).update(words)


def say_again(fig) -> None:
    """Set the declared words of every axes of ``fig`` again, in the page's language now."""
    for ax in fig.axes:
        words = _WORDS.get(ax)
        if words:
            set_words(ax, **words)


def style_axes(ax, *, title: str, xlabel: str = "", ylabel: str = "") -> None:
    """Apply the shared look to an axes: large title and labels (:func:`set_words`), light
    grid."""
    set_words(ax, title=title, xlabel=xlabel, ylabel=ylabel)
    ax.tick_params(labelsize=TICK_SIZE)
    ax.grid(True, color="#E5E5E5", linewidth=0.8, zorder=0)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
