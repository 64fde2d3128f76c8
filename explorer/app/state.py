"""Each dashboard tab declares its state once, as a table of fields.

A tab (Perceptron, later Margins, Cover, XOR, Generalization) writes one :class:`StateSpec`:
an ordered table of :class:`Field` objects, each with a name (the key in dicts, JSON and links),
the label users see, a kind, a default and its bounds. Everything else comes from that table:

* **reset**: :meth:`StateSpec.defaults`;
* **text boxes**: :meth:`Field.parse` turns what a user typed into a valid value or raises
  ``ValueError`` with a message that uses the label ("η must be a number > 0; got 'abc'"), and
  :meth:`Field.format` writes a value back as text, with ``parse(format(v)) == v`` exactly;
* **files**: :meth:`StateSpec.to_json` and :meth:`StateSpec.from_json`;
* **links**: :meth:`StateSpec.to_query` and :meth:`StateSpec.from_query`, so a lecturer can hand
  out a link that opens a tab at an exact step; :func:`query_tab` says which tab a link opens.

What comes from outside (``parse``, ``from_json``, ``from_query``, ``query_tab``) never raises:
any problem gives the defaults and short messages for the user. What checks the program's own
values (``validate``, ``format``, ``to_json``, ``to_query``) is strict and raises ``ValueError``.

Choices: whole numbers in text are plain digits ("40", "+40"; "4e1", "40.0" and "2.5" are
refused), while a typed float is accepted if it is whole (a JSON ``40.0``). Numbers in text are
ASCII decimal only (no "nan", "inf", "1_000" or full-width digits) and must stay finite
("1e999" is refused). ``-0.0`` is stored as ``0.0``, so every round trip is exact. Numbers are
written in their shortest exact form ("1", "0.1", "1e-300"). In a link an empty parameter
("w0=") means an empty text box, not "use the default", and a parameter without "=" is an error.
Choices and names are case-sensitive. This module imports no widgets and no matplotlib.
"""

from __future__ import annotations

import json
import math
import numbers
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import quote_plus, unquote_plus, urlencode

import numpy as np

__all__ = ["Field", "StateSpec", "query_tab", "points_of", "arrays_of", "APP", "VERSION",
           "MAX_JSON_BYTES", "MAX_QUERY_CHARS"]

APP = "perceptron-explorer"
VERSION = 1
MAX_JSON_BYTES = 1_000_000
MAX_QUERY_CHARS = 8192
MAX_MESSAGES = 5
KINDS = ("int", "float", "bool", "choice", "text", "floats", "ints", "points")

_FLOAT_RE = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_INT_RE = re.compile(r"[+-]?[0-9]+")
_NAME_RE = re.compile(r"[a-z][a-z0-9_]{0,39}")
_BOOLS = {"true": True, "1": True, "yes": True, "on": True,
          "false": False, "0": False, "no": False, "off": False}
_LINK, _FILE, _SETTINGS = ("The link's settings were not used", "The file was not used",
                           "The settings were not used")


class _Bad(Exception):
    """A problem with outside input; ``str(exc)`` is a phrase for the user."""


def _first_repeat(keys):
    seen = set()
    return next((k for k in keys if k in seen or seen.add(k)), None)


def _show(raw, limit: int = 40) -> str:
    """How a value a user gave appears in a message: quoted text, cut if long."""
    if isinstance(raw, str):
        if not raw.strip():
            return "an empty field"
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


def _to_number(raw, whole: bool):
    """Read one number (typed or text); raise :class:`_Bad` with the reason otherwise."""
    if isinstance(raw, (bool, np.bool_)):
        raise _Bad("not a number")
    if isinstance(raw, str):
        text = raw.strip()
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


def _within(v, lo, hi, lo_open: bool = False) -> bool:
    return (lo is None or (v > lo if lo_open else v >= lo)) and (hi is None or v <= hi)


def _range(lo, hi, lo_open: bool) -> str:
    if lo is not None and hi is not None and not lo_open:
        return f" from {_num(lo)} to {_num(hi)}"
    if lo is not None:
        return f" > {_num(lo)}" if lo_open else f" ≥ {_num(lo)}"
    return f" ≤ {_num(hi)}" if hi is not None else ""


@dataclass(frozen=True)
class Field:
    """One setting of a tab: how it is named, shown, bounded, read and written.

    Parameters
    ----------
    name, label : str
        Key in dicts, JSON and links (``"eta"``); what the interface and messages show (``"η"``).
    kind : str
        ``"int"``, ``"float"``, ``"bool"``, ``"choice"``, ``"text"``, ``"floats"``, ``"ints"`` or
        ``"points"`` (a list of ``(x1, x2, label)`` with label -1 or +1).
    default : object
        The value after a reset; it must itself be valid.
    min, max, min_open : float, optional; bool
        Bounds of an ``"int"`` or ``"float"``; inclusive, except ``min`` when ``min_open``.
    choices, max_len : tuple of str; int, optional
        Values of a ``"choice"``; most items of a list kind, or characters of a ``"text"``.
    item_min, item_max, optional : float, optional; bool
        Inclusive bounds of each number (each coordinate of a point); whether a list or text may
        be empty (an empty field gives ``[]`` or ``""``).
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

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"field kind must be one of {', '.join(KINDS)}; got {self.kind!r}")
        if not isinstance(self.name, str) or not _NAME_RE.fullmatch(self.name) or self.name == "tab":
            raise ValueError(f"field name must be lowercase letters, digits, '_' and not 'tab'; "
                             f"got {self.name!r}")
        object.__setattr__(self, "choices", tuple(self.choices))
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"field {self.name!r} of kind 'choice' needs choices")
        try:
            value = self.parse(self.default)
        except ValueError as exc:
            raise ValueError(f"field {self.name!r} has an invalid default: {exc}") from None
        object.__setattr__(self, "default", tuple(value) if isinstance(value, list) else value)

    def expected(self) -> str:
        """What a valid value looks like, in words: ``"a whole number from 1 to 2000"``."""
        k = self.kind
        if k in ("int", "float"):
            return ("a whole number" if k == "int" else "a number") + _range(self.min, self.max,
                                                                            self.min_open)
        if k == "bool":
            return "true or false"
        if k == "choice":
            return "one of " + ", ".join(self.choices)
        if k == "text":
            return "text" + (f" of at most {self.max_len} characters" if self.max_len else "")
        lo, hi = self.item_min, self.item_max
        if lo is not None and hi is not None and lo == -hi:
            bounds = f" (at most {_num(hi)} in size)"
        else:
            bounds = f" (each{_range(lo, hi, False)})" if _range(lo, hi, False) else ""
        if k == "points":
            return f"x1,x2,label triples separated by semicolons, with label -1 or +1{bounds}"
        return ("whole numbers" if k == "ints" else "numbers") + " separated by commas" + bounds

    def _error(self, raw, detail: str = "") -> ValueError:
        return ValueError(f"{self.label} must be {self.expected()}; got {_show(raw)}{detail}")

    def parse(self, raw) -> object:
        """Return the valid value for ``raw`` (a typed value or text), else raise ``ValueError``.

        Values are ``int``, ``float``, ``bool``, ``str``, ``list[float]``, ``list[int]`` or
        ``list[tuple[float, float, int]]``. The message names the label, what was expected and
        what was got, e.g. ``"n must be a whole number from 1 to 2000; got '2.5'"``.
        """
        k = self.kind
        if k in ("int", "float"):
            try:
                v = _to_number(raw, whole=k == "int")
            except _Bad as bad:
                raise self._error(raw, " (too large)" if str(bad) == "too large" else "") from None
            if self.max is not None and v > self.max and self.min is not None and self.min_open:
                # the expected text names only the open lower bound, so say which bound failed
                raise ValueError(f"{self.label} must be at most {_num(self.max)}; got {_show(v)}")
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
        if k == "text":
            if not isinstance(raw, str) or (not raw.strip() and not self.optional):
                raise self._error(raw)
            if self.max_len is not None and len(raw) > self.max_len:
                raise ValueError(f"{self.label} must have at most {self.max_len} characters; "
                                 f"got {len(raw)}")
            return raw
        return self._parse_list(raw)

    def _parse_list(self, raw) -> list:
        points = self.kind == "points"
        if isinstance(raw, str):
            if points:
                items = [re.split(r"[,\s]+", seg.strip()) for seg in raw.split(";") if seg.strip()]
            else:
                items = [p for p in re.split(r"[,;\s]+", raw.strip()) if p]
        elif isinstance(raw, (list, tuple, np.ndarray)):
            items = list(raw)
        else:
            raise self._error(raw)
        if not items:
            if self.optional:
                return []
            raise self._error(raw)
        if self.max_len is not None and len(items) > self.max_len:
            noun = {"floats": "numbers", "ints": "numbers", "points": "points"}[self.kind]
            raise ValueError(f"{self.label} must have at most {self.max_len} {noun}; got {len(items)}")
        out = []
        for i, item in enumerate(items, 1):
            if not points:
                out.append(self._item(raw, item, whole=self.kind == "ints", where=""))
                continue
            if isinstance(item, str) or not isinstance(item, (list, tuple, np.ndarray)):
                raise self._error(raw, f" (point {i} is not three numbers)")
            if len(item) != 3:
                raise self._error(raw, f" (point {i} has {len(item)} numbers, not 3)")
            x1, x2 = (self._item(raw, c, whole=False, where=f"point {i}: ") for c in item[:2])
            try:
                label = _to_number(item[2], whole=False)
            except _Bad:
                label = None
            if label not in (-1.0, 1.0):
                raise self._error(raw, f" (point {i} has label {_show(item[2])}, not -1 or +1)")
            out.append((x1, x2, int(label)))
        return out

    def _item(self, raw, item, *, whole: bool, where: str):
        try:
            v = _to_number(item, whole)
        except _Bad as bad:
            raise self._error(raw, f" ({where}{_show(item)} is {str(bad)})") from None
        if not _within(v, self.item_min, self.item_max):
            raise self._error(raw, f" ({where}{_show(item)} is out of range)")
        return v

    def format(self, value) -> str:
        """The text a text box or a link shows for ``value``; ``parse(format(v)) == v``.

        Raises ``ValueError`` if ``value`` is not valid. Lists read ``"1, 0.5"``; points read
        ``"1.5,-0.5,1;1,1,1"``; numbers are written in their shortest exact form.
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
        if k == "points":
            return ";".join(f"{_fmt_float(a)},{_fmt_float(b)},{c}" for a, b, c in v)
        return str(v)


def _split_query(query) -> tuple[list[tuple[str, str]], list[str]]:
    """Split a query string into decoded (key, value) pairs and problems; :class:`_Bad` if unusable."""
    if not isinstance(query, str):
        raise _Bad(f"it is not text (got a {type(query).__name__})")
    if len(query) > MAX_QUERY_CHARS or len(query.encode("utf-8", "surrogatepass")) > MAX_QUERY_CHARS:
        raise _Bad(f"it is longer than {MAX_QUERY_CHARS} characters")
    pairs, problems = [], []
    for part in query.removeprefix("?").split("&"):
        if not part:
            continue
        if "=" not in part:
            problems.append(f"{_show(part)} is not of the form name=value")
            continue
        key, _, value = part.partition("=")
        try:
            pairs.append((unquote_plus(key, errors="strict"), unquote_plus(value, errors="strict")))
        except UnicodeError:
            problems.append(f"{_show(part)} has a broken %-escape")
    return pairs, problems


def points_of(X, y) -> list[tuple[float, float, int]]:
    """A 2-D data set as the value of a ``"points"`` field: ``[(x1, x2, label), ...]``."""
    return [(float(a), float(b), int(c)) for (a, b), c in zip(X, y, strict=True)]


def arrays_of(points) -> tuple[np.ndarray, np.ndarray]:
    """The inverse of :func:`points_of`: ``X`` of shape (n, 2) and ``y`` of shape (n,)."""
    pts = np.asarray(points, dtype=float).reshape(-1, 3)
    return pts[:, :2].copy(), pts[:, 2].copy()


def query_tab(query: str) -> str | None:
    """The tab a query string names (``"tab=margins&..."`` gives ``"margins"``), else None.

    None when there is no ``tab`` parameter, more than one, or a garbled one; never raises.
    Other problems of the link are left to :meth:`StateSpec.from_query` of that tab.
    """
    try:
        tabs = [v for k, v in _split_query(query)[0] if k == "tab"]
    except Exception:
        return None
    return tabs[0] if len(tabs) == 1 and _NAME_RE.fullmatch(tabs[0]) else None


def _json_constant(name):
    raise _Bad(f"it contains {name}, which is not a number")


def _json_object(pairs):
    repeat = _first_repeat(k for k, _ in pairs)
    if repeat is not None:
        raise _Bad(f"the key {_show(repeat)} appears twice")
    return dict(pairs)


class StateSpec:
    """The state of one tab, declared once as a table of :class:`Field` objects.

    Parameters
    ----------
    tab : str
        The tab's name in files and links, e.g. ``"perceptron"``.
    fields : sequence of Field
        The settings, in the order links write them; duplicate names raise ``ValueError``.
    """

    def __init__(self, tab: str, fields: Sequence[Field]):
        if not isinstance(tab, str) or not _NAME_RE.fullmatch(tab):
            raise ValueError(f"tab must be a lowercase name; got {tab!r}")
        self.tab = tab
        self.fields = tuple(fields)
        self.names = tuple(f.name for f in self.fields)
        dupes = sorted({n for n in self.names if self.names.count(n) > 1})
        if dupes:
            raise ValueError(f"field names must be unique; got duplicates {dupes}")
        self._by_name = {f.name: f for f in self.fields}

    def field(self, name: str) -> Field:
        """The field called ``name`` (``KeyError`` if there is none)."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"{self.tab} has no setting {name!r}; expected one of {self.names}") from None

    def defaults(self) -> dict:
        """A fresh dict of every field's default (the reset state)."""
        return {f.name: f.parse(f.default) for f in self.fields}

    def validate(self, values: Mapping) -> dict:
        """Strictly check ``values``: return the full state, missing keys taking their defaults.

        Raises ``ValueError`` on an unknown key or a bad value (the message names the label).
        """
        if not isinstance(values, Mapping):
            raise ValueError(f"settings must be a mapping; got {type(values).__name__}")
        state = self.defaults()
        for key, raw in values.items():
            if key not in self._by_name:
                raise ValueError(f"unknown setting {_show(key)}")
            state[key] = self._by_name[key].parse(raw)
        return state

    def _apply(self, pairs, intro: str, problems: list[str] | None = None) -> tuple[dict, list[str]]:
        problems = list(problems or [])
        state = self.defaults()
        for key, raw in pairs:
            field = self._by_name.get(key) if isinstance(key, str) else None
            if field is None:
                problems.append(f"unknown setting {_show(key)}")
                continue
            try:
                state[key] = field.parse(raw)
            except ValueError as exc:
                problems.append(str(exc))
            except Exception:
                problems.append(f"{field.label} could not be read; got {_show(raw)}")
        return self._refuse(intro, problems) if problems else (state, [])

    def _refuse(self, intro: str, problems: list[str]) -> tuple[dict, list[str]]:
        shown = [f"{intro}: {p}. Showing the defaults." for p in problems[:MAX_MESSAGES]]
        if len(problems) > MAX_MESSAGES:
            shown.append(f"… and {len(problems) - MAX_MESSAGES} more problems.")
        return self.defaults(), shown

    def parse(self, raw: Mapping) -> tuple[dict, list[str]]:
        """Read outside settings: ``(state, [])``, or ``(defaults, messages)``; never raises."""
        if not isinstance(raw, Mapping):
            return self._refuse(_SETTINGS, [f"they are not a mapping (got a {type(raw).__name__})"])
        try:
            return self._apply(list(raw.items()), _SETTINGS)
        except Exception:
            return self._refuse(_SETTINGS, ["they could not be read"])

    def to_json(self, values: Mapping) -> str:
        """The text of a saved file: ``{"app", "version", "tab", "state"}`` with every field.

        Values are JSON-native (points as ``[x1, x2, label]`` lists), one setting a line.
        """
        lines = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False, allow_nan=False)}"
                 for k, v in self.validate(values).items()]
        head = json.dumps({"app": APP, "version": VERSION, "tab": self.tab})[:-1]
        return head + ', "state": {\n' + ",\n".join(lines) + "\n}}\n"

    def from_json(self, text: str | bytes) -> tuple[dict, list[str]]:
        """Read a saved file: ``(state, [])``, or ``(defaults, messages)``; never raises.

        Refused: more than ``MAX_JSON_BYTES`` (checked before parsing), bytes that are not UTF-8,
        invalid JSON (NaN, Infinity and repeated keys included), anything but an object, another
        app, version or tab, a missing ``"state"`` object, and unknown keys.
        """
        try:
            if not isinstance(text, (str, bytes, bytearray, memoryview)):
                raise _Bad(f"it is not text (got a {type(text).__name__})")
            if len(text) > MAX_JSON_BYTES or (isinstance(text, str) and len(
                    text.encode("utf-8", "surrogatepass")) > MAX_JSON_BYTES):
                raise _Bad(f"it is larger than {MAX_JSON_BYTES // 1_000_000} MB")
            try:
                text = text if isinstance(text, str) else bytes(text).decode("utf-8")
                doc = json.loads(text.removeprefix("\ufeff"), parse_constant=_json_constant,
                                 object_pairs_hook=_json_object)
            except UnicodeDecodeError:
                raise _Bad("it is not UTF-8 text") from None
            except json.JSONDecodeError as exc:
                raise _Bad(f"it is not valid JSON (line {exc.lineno}, column {exc.colno})") from None
            except RecursionError:
                raise _Bad("it is nested too deeply") from None
            if not isinstance(doc, dict):
                raise _Bad(f"it holds a JSON {type(doc).__name__}, not an object of settings")
            if doc.get("app") != APP:
                raise _Bad("it is not a Perceptron Explorer settings file")
            version = doc.get("version")
            if type(version) is not int or version != VERSION:
                raise _Bad(f"it has version {_show(version)}; this program reads version {VERSION}")
            if doc.get("tab") != self.tab:
                raise _Bad(f"it is for the {_show(doc.get('tab'))} tab, not {self.tab!r}")
            extra = [k for k in doc if k not in ("app", "version", "tab", "state")]
            if extra:
                raise _Bad(f"unknown entry {_show(extra[0])}")
            if not isinstance(doc.get("state"), dict):
                raise _Bad('it has no "state" object')
            return self._apply(list(doc["state"].items()), _FILE)
        except _Bad as bad:
            return self._refuse(_FILE, [str(bad)])
        except Exception:
            return self._refuse(_FILE, ["it could not be read"])

    def to_query(self, values: Mapping) -> str:
        """A link's query string: ``"tab=perceptron&eta=0.5&step=3"``.

        Only fields that differ from their default, in the declared order, URL-encoded (commas
        and semicolons kept). Raises ``ValueError`` on bad values or if the result would be longer
        than ``MAX_QUERY_CHARS`` (then save a file instead).
        """
        state = self.validate(values)
        pairs = [("tab", self.tab)] + [(f.name, f.format(state[f.name])) for f in self.fields
                                       if state[f.name] != f.parse(f.default)]
        query = urlencode(pairs, safe=",;", quote_via=quote_plus)
        if len(query) > MAX_QUERY_CHARS:
            raise ValueError(f"these settings are too long for a link ({len(query)} characters; at "
                             f"most {MAX_QUERY_CHARS}); save them to a file instead")
        return query

    def from_query(self, query: str) -> tuple[dict, list[str]]:
        """Read a link's query string: ``(state, [])``, or ``(defaults, messages)``; never raises.

        A leading ``"?"`` and empty ``&&`` segments are ignored; ``"w0="`` means an empty field.
        Refused: more than ``MAX_QUERY_CHARS`` (checked before parsing), a parameter without
        ``=``, a broken %-escape, a repeated key, a ``tab`` naming another tab, unknown keys.
        """
        try:
            pairs, problems = _split_query(query)
            repeat = _first_repeat(k for k, _ in pairs)
            if repeat is not None:
                problems.append(f"{_show(repeat)} appears more than once")
            problems += [f"it opens the {_show(v)} tab, not {self.tab!r}" for k, v in pairs
                         if k == "tab" and v != self.tab]
            return self._apply([(k, v) for k, v in pairs if k != "tab"], _LINK, problems)
        except _Bad as bad:
            return self._refuse(_LINK, [str(bad)])
        except Exception:
            return self._refuse(_LINK, ["it could not be read"])
