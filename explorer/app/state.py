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
* **the model's traits** and its whole state read, written and reset:
  :func:`explorer.app.tab_model.state_model`; **the settings controls**, one maker per kind:
  :mod:`explorer.app.controls`.

What comes from outside (``parse``, ``from_json``, ``from_query``, ``query_tab``) never raises:
any problem gives the defaults and short messages for the user. What checks the program's own
values (``validate``, ``format``, ``to_json``, ``to_query``) is strict and raises ``ValueError``.

Choices: how one value is read from text and written back is :class:`Field`'s, in
:mod:`explorer.app.state_field` (with the rules for numbers in text). In a link an empty
parameter ("w0=") means an empty text box, not "use the default", and a parameter without "="
is an error. Choices and names are case-sensitive. This module imports no widgets and no
matplotlib.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from urllib.parse import quote_plus, unquote_plus, urlencode

import numpy as np

from .state_field import _NAME_RE, Field, _Bad, _show

__all__ = ["Field", "StateSpec", "query_tab", "points_of", "arrays_of", "APP", "VERSION",
           "MAX_JSON_BYTES", "MAX_QUERY_CHARS"]

APP = "perceptron-explorer"
VERSION = 1
MAX_JSON_BYTES = 1_000_000
MAX_QUERY_CHARS = 8192
MAX_MESSAGES = 5

_LINK, _FILE, _SETTINGS = ("The link's settings were not used", "The file was not used",
                           "The settings were not used")


def _first_repeat(keys):
    seen = set()
    return next((k for k in keys if k in seen or seen.add(k)), None)


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


def _file_header(doc, *, holds: str, kind: str) -> dict:
    """``doc`` if it is one of our files of this version: a JSON object with our ``"app"`` and
    :data:`VERSION`; else :class:`_Bad` saying what it is ("it holds a JSON list, not
    {holds}", "it is not a Perceptron Explorer {kind}", "it has version 2; ...")."""
    if not isinstance(doc, dict):
        raise _Bad(f"it holds a JSON {type(doc).__name__}, not {holds}")
    if doc.get("app") != APP:
        raise _Bad(f"it is not a Perceptron Explorer {kind}")
    version = doc.get("version")
    if type(version) is not int or version != VERSION:
        raise _Bad(f"it has version {_show(version)}; this program reads version {VERSION}")
    return doc


def _read_json(text):
    """The JSON document of a file's text (str or bytes), read strictly; :class:`_Bad` if not:
    more than ``MAX_JSON_BYTES`` (checked first), not UTF-8, not JSON, NaN or Infinity, a
    repeated key, nesting too deep. A UTF-8 byte order mark is allowed."""
    if not isinstance(text, (str, bytes, bytearray, memoryview)):
        raise _Bad(f"it is not text (got a {type(text).__name__})")
    if len(text) > MAX_JSON_BYTES or (isinstance(text, str) and len(
            text.encode("utf-8", "surrogatepass")) > MAX_JSON_BYTES):
        raise _Bad(f"it is larger than {MAX_JSON_BYTES // 1_000_000} MB")
    try:
        text = text if isinstance(text, str) else bytes(text).decode("utf-8")
        return json.loads(text.removeprefix("\ufeff"), parse_constant=_json_constant,
                          object_pairs_hook=_json_object)
    except UnicodeDecodeError:
        raise _Bad("it is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise _Bad(f"it is not valid JSON (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise _Bad("it is nested too deeply") from None


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
            doc = _file_header(_read_json(text), holds="an object of settings",
                               kind="settings file")
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
