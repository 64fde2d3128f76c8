"""The Data box of a tab whose points can be other than a named data set, and the count boxes
that must say how many points are shown.

Points sent from another tab, read from a CSV, edited by clicks or loaded with a link are no
named data set: while they are on screen the Data box reads what they are, briefly enough for
the box ("Perceptron tab (6)", "Edited points (41)"; its tooltip says it in full), instead of
the data set chosen before them (issue 19: it read "Overlapping blobs, n 40" with Koski's six
points on screen). Choosing a named data set there loads it, the one chosen before included.

A box that sets how many points to draw (n, points N) and is disabled because the points shown
were not drawn shows how many there are, not the number that would be drawn.

An export's caption and file name say the same (issue 30: a pasted CSV was exported as
"Overlapping blobs (edited)", ``perceptron-overlapping-edited-…``): :func:`shown_data` gives
"your CSV (6 points)" and ``csv``; points edited by clicks say what was edited ("Overlapping
blobs, edited (41 points)", "your CSV, edited (7 points)"), which :func:`edit_base` keeps.
"""

from __future__ import annotations

import re

#: The Data box's value for "the points on screen", which are no named data set.
POINTS = "points"
#: What the points on screen are, by where they came from (the word before their count).
EDITED = "Edited points"
CSV = "Your CSV"
LOADED = "Points loaded"


def from_tab(title: str) -> str:
    """What points sent from the tab titled ``title`` are called."""
    return f"{title} tab"


def from_source(source: str) -> str:
    """What points loaded with a link or a saved state (``source``: "link", "file") are."""
    return "From the link" if source == "link" else "Saved state"


def data_options(names: dict[str, str], points: str | None) -> list[tuple[str, str]]:
    """The Data box's options: the named data sets (key -> label), then, when ``points`` is
    given, the points on screen under that label."""
    options = [(label, key) for key, label in names.items()]
    return options + [(points, POINTS)] if points else options


def show_data(box, names: dict[str, str], *, dataset: str, points: str | None) -> None:
    """Make the Data box ``box`` (an ipywidgets Dropdown) read the data on screen: the data set
    ``dataset``, or ``points`` (their label with the count) when the points are no data set.
    Its observers see the intermediate values; the view ignores them while it syncs."""
    options = data_options(names, points)
    if list(box.options) != options:
        box.options = options
    value = POINTS if points else dataset
    if box.value != value:
        box.value = value
    box.tooltip = (f"The points shown: {points}. They are no data set; choosing one here "
                   "replaces them" if points else "The data set shown")


def chosen_already(value: str, *, dataset: str, edited: bool) -> bool:
    """Whether choosing ``value`` in the Data box changes nothing: it is the points on screen,
    or the data set shown while its points are not edited (a data set chosen over edited points
    is loaded, the one chosen before included)."""
    return value == POINTS or (value == dataset and not edited)


def points_label(origin: str, n: int) -> str:
    """``"Perceptron tab (6)"``: where the points are from and how many."""
    return f"{origin} ({n})"


#: What points that are no data set are called in an export's caption and its file name, by
#: their origin (the Data box's word); "edited points" only when what was edited is unknown.
CAPTION_WORDS = {EDITED: ("edited points", "edited"), CSV: ("your CSV", "csv"),
                 LOADED: ("points loaded", "loaded"), from_source("link"): ("points from a link",
                                                                           "link"),
                 from_source("file"): ("points of a saved state", "saved-state")}


def described(origin: str) -> tuple[str, str]:
    """``(caption words, file-name part)`` of points from ``origin``, e.g. ``("your CSV",
    "csv")``, ``("points from the Margins tab", "from-margins")``."""
    if origin in CAPTION_WORDS:
        return CAPTION_WORDS[origin]
    if origin.endswith(" tab"):
        return f"points from the {origin}", "from-" + origin[: -len(" tab")].lower()
    return origin, origin.lower()


def _bare(label: str) -> str:
    """A data set's label without its count: "Koski's worked example (6 points)" -> "Koski's
    worked example" (the caption gives the count of the points shown)."""
    return re.sub(r"\s*\(\d+ points?\)$", "", label)


def edit_base(origin: str, base: tuple[str, str] | None, *, edited: bool,
              dataset: tuple[str, str]) -> tuple[str, str] | None:
    """What a click or drag edits, for :func:`shown_data`: the data set shown (its ``(label,
    key)``) when its points were not edited yet; the points' own words when they came from
    elsewhere (a CSV, a link, a tab); ``base`` again when they were edited already."""
    if not edited:
        return _bare(dataset[0]), dataset[1]
    if origin == EDITED:
        return base
    return described(origin)


def shown_data(*, edited: bool, origin: str, n: int, dataset: tuple[str, str],
               base: tuple[str, str] | None = None) -> tuple[str, str]:
    """``(caption words, file-name part)`` of the data shown, for an export: the data set's
    ``(label, key)`` when its points are shown as loaded; else what the points are and how
    many, e.g. ``("your CSV (6 points)", "csv")`` (a CSV just read is not "edited"), or, after
    clicks, ``("Overlapping blobs, edited (41 points)", "overlapping-edited")`` (``base`` from
    :func:`edit_base`)."""
    if not edited:
        return dataset
    words, slug = described(origin)
    if origin == EDITED and base is not None:
        words, slug = f"{base[0]}, edited", f"{base[1]}-edited"
    return f"{words} ({n} point{'' if n == 1 else 's'})", slug
