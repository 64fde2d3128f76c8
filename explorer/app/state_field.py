"""One setting of a tab's state: :class:`Field`, and how its values are read from text and written.

A :class:`Field` names a setting and gives its label, kind, default and bounds; it turns what a
user typed into a valid value (:meth:`Field.parse`, with messages in words that use the label)
and writes a value back as text (:meth:`Field.format`, with ``parse(format(v)) == v`` exactly).
The table of a tab's fields, with its files and links, is :class:`explorer.app.state.StateSpec`.

A field may also say how the page shows it, with a :class:`Control`: the kind of control, its
step, description and help, when it applies (its enabling rule) and its phrase in an export's
caption. :func:`explorer.app.controls.field_control` makes the widget from it, and
:class:`explorer.app.controls.FieldControls` binds, shows and enables it and writes the caption,
so that a setting is declared once, here, and laid out in one line of its view.

Whole numbers in text are plain digits ("40", "+40"; "4e1", "40.0" and "2.5" are refused), while
a typed float is accepted if it is whole (a JSON ``40.0``). Numbers in text are ASCII decimal
only (no "nan", "inf", "1_000" or full-width digits) and must stay finite ("1e999" is refused).
``-0.0`` is stored as ``0.0``, so every round trip is exact. Numbers are written in their
shortest exact form ("1", "0.1", "1e-300"). Choices are case-sensitive.

What a person types in the page is read in the page's language (``parse(text, typed=True)``):
where the language writes a decimal comma (:func:`explorer.shared.i18n.decimal_comma`), a
single number may be typed "0,5" as well as "0.5"; a list of numbers or a point takes
semicolons between numbers written "0,5" ("0,5; 1,5"; a point's numbers may be separated by
spaces: "0,5 -1 +1"), and commas between numbers written "0.5", as in English. Links and JSON
files are read the same in every language (written with the decimal point and comma lists).
Messages are in the page's language (:func:`explorer.shared.i18n.tr`), each a whole sentence
with named placeholders. This module imports no widgets, no matplotlib and of the package only
its catalogs (:mod:`explorer.shared.i18n`).
"""

from __future__ import annotations

import math
import numbers
import re
from dataclasses import dataclass

import numpy as np

from explorer.shared.i18n import N_, decimal_comma, tr

__all__ = ["Field", "Control", "KINDS", "CONTROL_KINDS"]

KINDS = ("int", "float", "bool", "choice", "choices", "text", "floats", "ints", "points")
#: The kinds of control, with the field kinds each shows: a text box, a slider over the field's
#: bounds, a slider over 10 ** value (the field holds the exponent), a check box, a drop-down or
#: a row of buttons.
CONTROL_KINDS = {"text": ("int", "float", "ints", "floats", "points", "text"),
                 "slider": ("int", "float"), "log_slider": ("float",), "check": ("bool",),
                 "menu": ("choice", "int"), "buttons": ("choice",)}

_FLOAT_RE = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_INT_RE = re.compile(r"[+-]?[0-9]+")
_NAME_RE = re.compile(r"[a-z][a-z0-9_]{0,39}")
_BOOLS = {"true": True, "1": True, "yes": True, "on": True,
          "false": False, "0": False, "no": False, "off": False}


class _Bad(Exception):
    """A problem with outside input; ``str(exc)`` says which: "not a number", "too large",
    "not a whole number" (:data:`_BAD_ITEM` words it)."""


#: An item of a list that is wrong, in words: (reason, within a point) -> the message's end.
_BAD_ITEM = {
    ("not a number", False): N_(" ({item} is not a number)"),
    ("too large", False): N_(" ({item} is too large)"),
    ("not a whole number", False): N_(" ({item} is not a whole number)"),
    ("out of range", False): N_(" ({item} is out of range)"),
    ("not a number", True): N_(" (point {i}: {item} is not a number)"),
    ("too large", True): N_(" (point {i}: {item} is too large)"),
    ("not a whole number", True): N_(" (point {i}: {item} is not a whole number)"),
    ("out of range", True): N_(" (point {i}: {item} is out of range)"),
}
#: A number typed with a decimal comma ("0,5", "-1,25e3"): read as with a point where the
#: page's language writes a comma.
_COMMA_RE = re.compile(r"[+-]?[0-9]*,[0-9]+(?:[eE][+-]?[0-9]+)?|[+-]?[0-9]+,")
#: A comma between digits: in such a language, the text writes decimal commas.
_DIGIT_COMMA = re.compile(r"[0-9],[0-9]")


def _show(raw, limit: int = 40) -> str:
    """How a value a user gave appears in a message: quoted text, cut if long."""
    if isinstance(raw, str):
        if not raw.strip():
            return tr("an empty field")
        return repr(raw if len(raw) <= limit else raw[:limit] + "…")
    try:
        plain = isinstance(raw, numbers.Real) and not isinstance(raw, (bool, np.bool_))
        text = _num(raw) if plain else repr(raw)
    except Exception:
        text = f"a {type(raw).__name__}"
    return text if len(text) <= limit else text[:limit] + "…"


def _num(v) -> str:
    """A number as messages write it: 2000, 0.5, 1e+06, 1234567.891."""
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if float(v).is_integer() and abs(v) < 1e6:
        return str(int(v))
    return f"{v:g}" if float(f"{v:g}") == v else repr(float(v))


def _fmt_float(v: float) -> str:
    """The shortest text that parses back to exactly ``v``."""
    return str(int(v)) if v.is_integer() and abs(v) < 1e16 else repr(v)


def _to_number(raw, whole: bool, comma: bool = False):
    """Read one number (typed or text); raise :class:`_Bad` with the reason otherwise.
    ``comma``: a decimal comma is read as a point ("0,5" is 0.5)."""
    if isinstance(raw, (bool, np.bool_)):
        raise _Bad("not a number")
    if isinstance(raw, str):
        text = raw.strip()
        if comma and _COMMA_RE.fullmatch(text):
            text = text.replace(",", ".")
        if whole and _INT_RE.fullmatch(text):
            try:
                return int(text)
            except ValueError:  # more digits than Python converts
                raise _Bad("too large") from None
        if not _FLOAT_RE.fullmatch(text):
            raise _Bad("not a number")
        if whole:
            raise _Bad("not a whole number")
        v = float(text)
    elif isinstance(raw, numbers.Real):
        if whole and isinstance(raw, numbers.Integral):
            return int(raw)
        try:
            v = float(raw)
        except OverflowError:  # an int beyond the float range
            raise _Bad("too large") from None
    else:
        raise _Bad("not a number")
    if not math.isfinite(v):
        raise _Bad("not a number" if math.isnan(v) else "too large")
    if whole:
        if not v.is_integer():
            raise _Bad("not a whole number")
        return int(v)
    return v + 0.0  # -0.0 becomes 0.0


def _point_numbers(segment: str, comma: bool) -> list[str]:
    """The numbers of one point as typed: separated by commas or spaces; in a language that
    writes a decimal comma (``comma``), by spaces when a comma stands between digits
    ("0,5 -1 +1")."""
    if comma and _DIGIT_COMMA.search(segment) and len(segment.split()) > 1:
        return segment.split()
    return re.split(r"[,\s]+", segment)


def _within(v, lo, hi, lo_open: bool = False) -> bool:
    return (lo is None or (v > lo if lo_open else v >= lo)) and (hi is None or v <= hi)


def _range_key(lo, hi, lo_open: bool) -> str:
    """Which bounds a number has, in words: "from-to", ">", "≥", "≤" or "" (none)."""
    if lo is not None and hi is not None and not lo_open:
        return "from-to"
    if lo is not None:
        return ">" if lo_open else "≥"
    return "≤" if hi is not None else ""


#: What a number must be, by kind and bounds (:func:`_range_key`).
_NUMBER = {
    ("int", ""): N_("a whole number"),
    ("int", "from-to"): N_("a whole number from {lo} to {hi}"),
    ("int", ">"): N_("a whole number > {lo}"),
    ("int", "≥"): N_("a whole number ≥ {lo}"),
    ("int", "≤"): N_("a whole number ≤ {hi}"),
    ("float", ""): N_("a number"),
    ("float", "from-to"): N_("a number from {lo} to {hi}"),
    ("float", ">"): N_("a number > {lo}"),
    ("float", "≥"): N_("a number ≥ {lo}"),
    ("float", "≤"): N_("a number ≤ {hi}"),
}
#: The bounds of each number of a list or point, by :func:`_range_key` ("size": -h to h).
_EACH = {
    "": "",
    "size": N_(" (at most {hi} in size)"),
    "from-to": N_(" (each from {lo} to {hi})"),
    "≥": N_(" (each ≥ {lo})"),
    "≤": N_(" (each ≤ {hi})"),
}


@dataclass(frozen=True)
class Control:
    """How the page shows a field, when it applies, and what an export's caption says of it.

    Parameters
    ----------
    kind : str
        One of :data:`CONTROL_KINDS`: ``"text"``, ``"slider"``, ``"log_slider"``, ``"check"``,
        ``"menu"`` or ``"buttons"``.
    step : float, optional
        A slider's step (a log slider's, in the exponent).
    description : str, optional
        What the control says, if not the field's label (messages always use the label).
    help : str
        The control's tooltip.
    titles : tuple of (key, title) pairs
        How a menu or buttons show each choice (every choice needs one; a menu of a whole number
        lists every number of its bounds, in the order given).
    tips : tuple of (key, tip) pairs
        Buttons' tooltips, one per choice (or none).
    placeholder : str
        What an empty text box shows.
    enabled : callable, optional
        ``enabled(model) -> bool``: whether the setting applies (e.g. C only for the soft
        margin); a control whose rule is false is greyed out. None: always.
    off_shows : callable, optional
        ``off_shows(model)``: what the control shows while its rule is false, in place of the
        field's value (e.g. how many points are shown, for a greyed-out n).
    caption : str or callable, optional
        The field's phrase in an export's caption: a format string of the value (``"seed {}"``)
        or ``caption(value) -> str`` ("" says nothing). Left out while the rule is false.
    caption_rank : int
        Phrases are written by rank, then in declared order.
    stem : str or callable, optional
        The field's part of an exported file's name, as ``caption`` (left out while the rule
        is false).
    """

    kind: str
    step: float | None = None
    description: str | None = None
    help: str = ""
    titles: tuple = ()
    tips: tuple = ()
    placeholder: str = ""
    enabled: object = None
    off_shows: object = None
    caption: object = None
    caption_rank: int = 0
    stem: object = None

    def __post_init__(self):
        if self.kind not in CONTROL_KINDS:
            raise ValueError(f"control kind must be one of {', '.join(CONTROL_KINDS)}; "
                             f"got {self.kind!r}")
        if "slider" in self.kind and not self.step:
            raise ValueError(f"a {self.kind} needs a step")
        object.__setattr__(self, "titles", tuple(self.titles))
        object.__setattr__(self, "tips", tuple(self.tips))
        if self.tips and self.kind != "buttons":
            raise ValueError(f"only buttons have a tooltip per choice; got tips for a {self.kind}")

    def phrase(self, value, *, stem: bool = False) -> str:
        """The caption's phrase for ``value``, or with ``stem`` its part of a file name ("" when
        it has none)."""
        how = self.stem if stem else self.caption
        if how is None:
            return ""
        return how(value) if callable(how) else how.format(value)


@dataclass(frozen=True)
class Field:
    """One setting of a tab: how it is named, shown, bounded, read and written.

    Parameters
    ----------
    name, label : str
        Key in dicts, JSON and links (``"eta"``); what the interface and messages show (``"η"``).
    kind : str
        ``"int"``, ``"float"``, ``"bool"``, ``"choice"``, ``"choices"`` (a list of distinct
        choices, in the declared order), ``"text"``, ``"floats"``, ``"ints"`` or ``"points"``
        (a list of ``(x1, ..., xM, label)`` with label -1 or +1, the same ``M`` for every
        point, from 2 to ``max_features``).
    default : object
        The value after a reset; it must itself be valid.
    min, max, min_open : float, optional; bool
        Bounds of an ``"int"`` or ``"float"``; inclusive, except ``min`` when ``min_open``.
    choices, max_len : tuple of str; int, optional
        Values of a ``"choice"`` or ``"choices"``; most items of a list kind, or characters of
        a ``"text"``.
    item_min, item_max, optional : float, optional; bool
        Inclusive bounds of each number (each coordinate of a point); whether a list or text may
        be empty (an empty field gives ``[]`` or ``""``).
    max_features : int
        Most features of each point of a ``"points"`` field (2: points of the plane; more: the
        tab trains on data in their own dimension, e.g. a CSV of three features).
    control : Control, optional
        How the page shows the field (None: the view makes its control by hand).
    """

    name: str
    label: str
    kind: str
    default: object
    min: float | None = None
    max: float | None = None
    min_open: bool = False
    choices: tuple = ()
    max_len: int | None = None
    item_min: float | None = None
    item_max: float | None = None
    optional: bool = False
    max_features: int = 2
    control: Control | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"field kind must be one of {', '.join(KINDS)}; got {self.kind!r}")
        if not isinstance(self.name, str) or not _NAME_RE.fullmatch(self.name) or self.name == "tab":
            raise ValueError(f"field name must be lowercase letters, digits, '_' and not 'tab'; "
                             f"got {self.name!r}")
        object.__setattr__(self, "choices", tuple(self.choices))
        if type(self.max_features) is not int or self.max_features < 2:
            raise ValueError(f"field {self.name!r}: max_features must be a whole number >= 2")
        if self.kind in ("choice", "choices") and not self.choices:
            raise ValueError(f"field {self.name!r} of kind 'choice' needs choices")
        try:
            value = self.parse(self.default)
        except ValueError as exc:
            raise ValueError(f"field {self.name!r} has an invalid default: {exc}") from None
        object.__setattr__(self, "default", tuple(value) if isinstance(value, list) else value)
        c = self.control
        if c is not None:
            if self.kind not in CONTROL_KINDS[c.kind]:
                raise ValueError(f"field {self.name!r} of kind {self.kind!r} cannot have a "
                                 f"{c.kind} control")
            if "slider" in c.kind and (self.min is None or self.max is None):
                raise ValueError(f"field {self.name!r} needs min and max for a {c.kind}")
            keys = [k for k, _ in c.titles]
            choices = self.menu_values()
            if c.kind in ("menu", "buttons") and (set(keys) != set(choices)
                                                  or len(keys) != len(choices)):
                raise ValueError(f"field {self.name!r}: the control needs a title per choice")
            if c.tips and [k for k, _ in c.tips] != list(self.choices):
                raise ValueError(f"field {self.name!r}: the buttons need a tip per choice, "
                                 "in the declared order")

    def menu_values(self):
        """What a menu of this field lists: its choices, or every whole number of its bounds."""
        return range(self.min, self.max + 1) if self.kind == "int" else self.choices

    def expected(self, *, typed: bool = False) -> str:
        """What a valid value looks like, in words, in the current language: ``"a whole number
        from 1 to 2000"``. ``typed``: as a person types it in the page (a list of numbers or
        points says which separators go with a decimal comma, in a language that writes one)."""
        k = self.kind
        if k in ("int", "float"):
            key = _range_key(self.min, self.max, self.min_open)
            return tr(_NUMBER[k, key]).format(lo=_num(self.min) if self.min is not None else "",
                                              hi=_num(self.max) if self.max is not None else "")
        if k == "bool":
            return tr("true or false")
        if k == "choice":
            return tr("one of {choices}").format(choices=", ".join(self.choices))
        if k == "choices":
            names = ", ".join(self.choices)
            if self.max_len:
                return tr("at most {n} different names from {names}, separated by "
                          "commas").format(n=self.max_len, names=names)
            return tr("different names from {names}, separated by commas").format(names=names)
        if k == "text":
            if self.max_len:
                return tr("text of at most {n} characters").format(n=self.max_len)
            return tr("text")
        lo, hi = self.item_min, self.item_max
        key = "size" if lo is not None and hi is not None and lo == -hi else \
            _range_key(lo, hi, False)
        bounds = tr(_EACH[key]).format(lo=_num(lo) if lo is not None else "",
                                       hi=_num(hi) if hi is not None else "") if key else ""
        comma = typed and decimal_comma()
        if k == "points" and self.max_features == 2:
            if comma:
                return tr("x1 x2 label triples separated by semicolons, with label -1 or +1 (the "
                          "numbers of a point separated by spaces with a decimal comma, as "
                          "0,5 -1,5 +1; or by commas with a decimal point, as "
                          "0.5,-1.5,1)") + bounds
            return tr("x1,x2,label triples separated by semicolons, with label -1 or "
                      "+1") + bounds
        if k == "points":
            return tr("points x1,…,xM,label separated by semicolons (M features, from 2 to "
                      "{most}, the same for every point), with label -1 or "
                      "+1").format(most=self.max_features) + bounds
        if comma:
            words = (tr("whole numbers separated by commas or semicolons") if k == "ints" else
                     tr("numbers separated by semicolons with a decimal comma (0,5; 1,5), or "
                        "by commas with a decimal point (0.5, 1.5)"))
            return words + bounds
        words = tr("whole numbers separated by commas") if k == "ints" else \
            tr("numbers separated by commas")
        return words + bounds

    def _error(self, raw, detail: str = "", *, typed: bool = False) -> ValueError:
        return ValueError(tr("{label} must be {expected}; got {got}").format(
            label=tr(self.label), expected=self.expected(typed=typed), got=_show(raw)) + detail)

    def parse(self, raw, *, typed: bool = False) -> object:
        """Return the valid value for ``raw`` (a typed value or text), else raise ``ValueError``.

        Values are ``int``, ``float``, ``bool``, ``str``, ``list[float]``, ``list[int]`` or
        ``list[tuple[float, ..., int]]`` (points: their features, then the label). The message
        names the label, what was expected and what was got, e.g. ``"n must be a whole number
        from 1 to 2000; got '2.5'"``. ``typed``: text a person typed in the page, read in the
        page's language (a decimal comma where it writes one; links and files are not).
        """
        k = self.kind
        comma = typed and decimal_comma()
        if k in ("int", "float"):
            try:
                v = _to_number(raw, whole=k == "int", comma=comma)
            except _Bad as bad:
                raise self._error(raw, tr(" (too large)") if str(bad) == "too large" else "",
                                  typed=typed) from None
            if self.max is not None and v > self.max and self.min is not None and self.min_open:
                # the expected text names only the open lower bound, so say which bound failed
                raise ValueError(tr("{label} must be at most {max}; got {got}").format(
                    label=tr(self.label), max=_num(self.max), got=_show(v)))
            if not _within(v, self.min, self.max, self.min_open):
                raise self._error(v)
            return v
        if k == "bool":
            if isinstance(raw, (bool, np.bool_)):
                return bool(raw)
            if isinstance(raw, str) and raw.strip().lower() in _BOOLS:
                return _BOOLS[raw.strip().lower()]
            raise self._error(raw)
        if k == "choice":
            if isinstance(raw, str) and raw.strip() in self.choices:
                return raw.strip()
            raise self._error(raw)
        if k == "choices":
            return self._parse_choices(raw)
        if k == "text":
            if not isinstance(raw, str) or (not raw.strip() and not self.optional):
                raise self._error(raw)
            if self.max_len is not None and len(raw) > self.max_len:
                raise ValueError(tr("{label} must have at most {n} characters; got {got}").format(
                    label=tr(self.label), n=self.max_len, got=len(raw)))
            return raw
        return self._parse_list(raw, comma=comma)

    def _parse_choices(self, raw) -> list:
        """Distinct choices, put in the declared order (so each set has one text)."""
        if isinstance(raw, str):
            items = [p for p in re.split(r"[,;\s]+", raw.strip()) if p]
        elif isinstance(raw, (list, tuple)):
            items = list(raw)
        else:
            raise self._error(raw)
        if not items and not self.optional:
            raise self._error(raw)
        for item in items:
            if not isinstance(item, str) or item not in self.choices:
                raise self._error(raw, tr(" ({item} is not one of them)").format(
                    item=_show(item)))
        if len(set(items)) != len(items):
            raise self._error(raw, tr(" (a name is repeated)"))
        if self.max_len is not None and len(items) > self.max_len:
            raise ValueError(tr("{label} must have at most {n} names; got {got}").format(
                label=tr(self.label), n=self.max_len, got=len(items)))
        return [c for c in self.choices if c in items]

    def _parse_list(self, raw, *, comma: bool = False) -> list:
        """A list kind's value; ``comma``: typed in a language that writes a decimal comma
        (numbers written "0,5" are then separated by semicolons, or a point's by spaces)."""
        points = self.kind == "points"
        if isinstance(raw, str):
            if points:
                items = [_point_numbers(seg.strip(), comma) for seg in raw.split(";")
                         if seg.strip()]
            elif comma and (";" in raw or _DIGIT_COMMA.search(raw)):
                items = [p for p in re.split(r"[;\s]+", raw.strip()) if p]
            else:
                items = [p for p in re.split(r"[,;\s]+", raw.strip()) if p]
        elif isinstance(raw, (list, tuple, np.ndarray)):
            items = list(raw)
        else:
            raise self._error(raw, typed=comma)
        if not items:
            if self.optional:
                return []
            raise self._error(raw, typed=comma)
        if self.max_len is not None and len(items) > self.max_len:
            most = (tr("{label} must have at most {n} points; got {got}") if points else
                    tr("{label} must have at most {n} numbers; got {got}"))
            raise ValueError(most.format(label=tr(self.label), n=self.max_len, got=len(items)))
        if points:
            return [self._point(raw, i, item, len(items[0]) if i > 1 else None, comma=comma)
                    for i, item in enumerate(items, 1)]
        return [self._item(raw, item, whole=self.kind == "ints", where=None, comma=comma)
                for item in items]

    def _point(self, raw, i: int, item, width: int | None, *, comma: bool = False) -> tuple:
        """Point ``i`` (from 1) of a ``"points"`` value: ``(x1, ..., xM, label)``, each
        coordinate within the bounds, the label -1 or +1; ``width``: how many numbers point 1
        has (every point the same), None for point 1 itself."""
        most = self.max_features

        def bad(detail: str, **values):
            return self._error(raw, tr(detail).format(i=i, **values), typed=comma)

        if isinstance(item, str) or not isinstance(item, (list, tuple, np.ndarray)):
            raise bad(N_(" (point {i} is not three numbers)") if most == 2 else
                      N_(" (point {i} is not a list of numbers)"))
        n = len(item)
        if most == 2 and n != 3:
            raise bad(N_(" (point {i} has {n} numbers, not 3)"), n=n)
        if width is not None and n != width:
            raise bad(N_(" (point {i} has {n} numbers, point 1 has {width}: every point needs "
                         "the same number of features)"), n=n, width=width)
        if not 3 <= n <= most + 1:
            raise bad(N_(" (point {i} has 1 feature and a label; a point needs 2 to {most} "
                         "features)") if n == 2 else
                      N_(" (point {i} has {k} features and a label; a point needs 2 to {most} "
                         "features)"), k=n - 1, most=most)
        xs = [self._item(raw, c, whole=False, where=i, comma=comma) for c in item[:-1]]
        try:
            label = _to_number(item[-1], whole=False, comma=comma)
        except _Bad:
            label = None
        if label not in (-1.0, 1.0):
            raise bad(N_(" (point {i} has label {label}, not -1 or +1)"), label=_show(item[-1]))
        return (*xs, int(label))

    def _item(self, raw, item, *, whole: bool, where: int | None, comma: bool = False):
        """One number of a list, or a coordinate of point ``where`` (None: a list's)."""
        try:
            v = _to_number(item, whole, comma=comma)
        except _Bad as bad:
            raise self._error(raw, tr(_BAD_ITEM[str(bad), where is not None]).format(
                i=where, item=_show(item)), typed=comma) from None
        if not _within(v, self.item_min, self.item_max):
            raise self._error(raw, tr(_BAD_ITEM["out of range", where is not None]).format(
                i=where, item=_show(item)), typed=comma)
        return v

    def format(self, value) -> str:
        """The text a text box or a link shows for ``value``; ``parse(format(v)) == v``.

        Raises ``ValueError`` if ``value`` is not valid. Lists read ``"1, 0.5"``; points read
        ``"1.5,-0.5,1;1,1,1"`` (points of three features ``"1,2,3,-1;…"``); numbers are
        written in their shortest exact form.
        """
        v = self.parse(value)
        k = self.kind
        if k == "float":
            return _fmt_float(v)
        if k == "bool":
            return "true" if v else "false"
        if k == "floats":
            return ", ".join(_fmt_float(x) for x in v)
        if k == "ints":
            return ", ".join(str(x) for x in v)
        if k == "choices":  # names need no space: "margin,pocket" in a link
            return ",".join(v)
        if k == "points":
            return ";".join(",".join([*map(_fmt_float, p[:-1]), str(p[-1])]) for p in v)
        return str(v)
