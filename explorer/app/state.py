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

What comes from outside (``parse``, ``from_json``, ``from_query``, ``query_tab``) never raises.
One bad value does not throw the good ones away: every setting is read on its own, a valid one
is kept and a refused one takes its default, and a short message names each refused setting
("In the link, n must be a whole number from 1 to 2000; got 'abc'; kept the default (40).");
unknown and malformed parameters are left out and named the same way. Settings are not
grouped: a data set's own settings (its n, seed, points) are kept even when the data set
itself is refused, and the tab then checks the kept settings together, as it checks any state
(a sequence naming point 9 of 6 points refuses the whole state, with the reason). Only what
cannot be read at all (a file that is not JSON, of another app, version or tab; a link too long
or for another tab) is refused whole: the result is then ``None`` with the messages. What
checks the program's own values (``validate``, ``format``, ``to_json``, ``to_query``) is strict
and raises ``ValueError``.

Choices: how one value is read from text and written back is :class:`Field`'s, in
:mod:`explorer.app.state_field` (with the rules for numbers in text). In a link an empty
parameter ("w0=") means an empty text box, not "use the default", and a parameter without "="
is an error. Choices and names are case-sensitive. This module imports no widgets and no
matplotlib.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from urllib.parse import quote_plus, unquote_plus, urlencode

import numpy as np

from explorer.shared.i18n import N_, sentences, tr

from .state_field import _NAME_RE, Control, Field, _Bad, _show

__all__ = ["Field", "Control", "StateSpec", "query_tab", "points_of", "arrays_of", "file_lang",
           "APP", "VERSION",
           "MAX_JSON_BYTES", "MAX_QUERY_CHARS"]

APP = "perceptron-explorer"
VERSION = 1
MAX_JSON_BYTES = 1_000_000
MAX_QUERY_CHARS = 8192
MAX_MESSAGES = 5

#: What could not be used at all, with why, in a sentence (``_refuse``).
#: (Each followed by :data:`SHOWING_DEFAULTS`, which a page that keeps what it showed replaces.)
_LINK = N_("The link's settings were not used: {problem}.")
_FILE = N_("The file was not used: {problem}.")
_SETTINGS = N_("The settings were not used: {problem}.")
SHOWING_DEFAULTS = N_("Showing the defaults.")
#: The entries of a saved state's file beside its ``"state"``: ``"lang"``, the page's language
#: when it was saved, if one was chosen (:meth:`StateSpec.to_json`, :func:`file_lang`).
FILE_KEYS = ("app", "version", "tab", "lang")
#: Where a refused setting was found, as the messages say it ("In the link, η must be ...").
_WHERE_LINK, _WHERE_FILE, _WHERE_SETTINGS = "the link", "the file", "the settings"
#: A problem's sentence, by where it was found.
_IN = {_WHERE_LINK: N_("In the link, {problem}."), _WHERE_FILE: N_("In the file, {problem}."),
       _WHERE_SETTINGS: N_("In the settings, {problem}.")}


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
            problems.append(tr("{part} is not of the form name=value").format(part=_show(part)))
            continue
        key, _, value = part.partition("=")
        try:
            pairs.append((unquote_plus(key, errors="strict"), unquote_plus(value, errors="strict")))
        except UnicodeError:
            problems.append(tr("{part} has a broken %-escape").format(part=_show(part)))
    return pairs, problems


def points_of(X, y) -> list[tuple]:
    """A data set as the value of a ``"points"`` field: ``[(x1, ..., xM, label), ...]``, one
    tuple per row of ``X`` (shape (n, M)), its features then its label."""
    return [(*(float(v) for v in row), int(c))
            for row, c in zip(np.asarray(X, dtype=float), y, strict=True)]


def arrays_of(points) -> tuple[np.ndarray, np.ndarray]:
    """The inverse of :func:`points_of`: ``X`` of shape (n, M) and ``y`` of shape (n,) (the
    field has checked that every point has the same ``M``)."""
    pts = np.asarray(points, dtype=float)
    pts = pts.reshape(len(pts), -1) if len(pts) else np.zeros((0, 3))
    return pts[:, :-1].copy(), pts[:, -1].copy()


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
        raise _Bad(tr("it holds a JSON {type}, not {holds}").format(type=type(doc).__name__,
                                                                   holds=tr(holds)))
    if doc.get("app") != APP:
        raise _Bad(tr(kind))
    version = doc.get("version")
    if type(version) is not int or version != VERSION:
        raise _Bad(tr("it has version {version}; this program reads version {ours}").format(
            version=_show(version), ours=VERSION))
    return doc


def file_lang(text) -> str | None:
    """The ``"lang"`` of a saved file's text (a state's, or a playlist's slide's object), if it
    has one that is text; None otherwise (no language, or a file that cannot be read: its
    reader says why). Never raises."""
    try:
        doc = _read_json(text) if not isinstance(text, dict) else text
    except Exception:
        return None
    lang = doc.get("lang") if isinstance(doc, dict) else None
    return lang if isinstance(lang, str) and lang else None


def _read_json(text):
    """The JSON document of a file's text (str or bytes), read strictly; :class:`_Bad` if not:
    more than ``MAX_JSON_BYTES`` (checked first), not UTF-8, not JSON, NaN or Infinity, a
    repeated key, nesting too deep. A UTF-8 byte order mark is allowed."""
    if not isinstance(text, (str, bytes, bytearray, memoryview)):
        raise _Bad(f"it is not text (got a {type(text).__name__})")
    if len(text) > MAX_JSON_BYTES or (isinstance(text, str) and len(
            text.encode("utf-8", "surrogatepass")) > MAX_JSON_BYTES):
        raise _Bad(tr("it is larger than {mb} MB").format(mb=MAX_JSON_BYTES // 1_000_000))
    try:
        text = text if isinstance(text, str) else bytes(text).decode("utf-8")
        return json.loads(text.removeprefix("\ufeff"), parse_constant=_json_constant,
                          object_pairs_hook=_json_object)
    except UnicodeDecodeError:
        raise _Bad(tr("it is not UTF-8 text")) from None
    except json.JSONDecodeError as exc:
        raise _Bad(tr("it is not valid JSON (line {line}, column {column})").format(
            line=exc.lineno, column=exc.colno)) from None
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

    def _kept_default(self, field: Field) -> str:
        """"kept the default (40)": what a refused setting became, as messages say it."""
        text = field.format(field.default)
        text = text if len(text) <= 40 else text[:40] + "…"
        return tr("kept the default ({value})").format(value=text) if text else \
            tr("kept the default (empty)")

    def _named(self, field: Field, problem: str) -> str:
        """A field's message naming it as the link or file does, and as the page labels it:
        "eta (η) must be a number > 0; got 'abc'" (just "n must be ..." where both agree)."""
        label = tr(field.label)
        if label == field.name:
            return problem
        if problem.startswith(label + " "):
            return f"{field.name} ({label}){problem[len(label):]}"
        return f"{field.name} ({label}): {problem}"

    def _apply(self, pairs, where: str, problems: list[str] | None = None
               ) -> tuple[dict, list[str]]:
        """The state of ``pairs`` read one setting at a time: each valid one kept, each refused,
        repeated or unknown one left at its default and named in a message ("In {where}, ...")."""
        problems = list(problems or [])
        state = self.defaults()
        repeats = {k for k, count in Counter(k for k, _ in pairs).items() if count > 1}
        said = set()
        for key, raw in pairs:
            field = self._by_name.get(key) if isinstance(key, str) else None
            if field is None:
                problems.append(tr("{key} is not a setting of this tab; it was left "
                                   "out").format(key=_show(key)))
                continue
            if key in repeats:
                if key not in said:  # say it once
                    said.add(key)
                    problems.append(tr("{key} appears more than once; {kept}").format(
                        key=_show(key), kept=self._kept_default(field)))
                continue
            try:
                state[key] = field.parse(raw)
            except ValueError as exc:
                problems.append(tr("{problem}; {kept}").format(
                    problem=self._named(field, str(exc)), kept=self._kept_default(field)))
            except Exception:
                unread = tr("{label} could not be read").format(label=tr(field.label))
                problems.append(tr("{problem} ({got}); {kept}").format(
                    problem=self._named(field, unread), got=_show(raw),
                    kept=self._kept_default(field)))
        return state, self._said(tr(_IN[where]) if where in _IN else where, problems)

    @staticmethod
    def _said(sentence: str, problems: list[str]) -> list[str]:
        """Each problem in ``sentence`` (translated; its ``{problem}`` filled), at most
        ``MAX_MESSAGES`` and a count of the rest."""
        shown = [sentence.replace("{problem}", p) for p in problems[:MAX_MESSAGES]]
        if len(problems) > MAX_MESSAGES:
            shown.append(tr("… and {n} more problems.").format(n=len(problems) - MAX_MESSAGES))
        return shown

    @staticmethod
    def _refuse(sentence: str, problem: str) -> tuple[None, list[str]]:
        """Nothing of it could be used: ``None`` and the message (``sentence``'s
        ``{problem}``)."""
        return None, [sentences([tr(sentence).format(problem=problem), tr(SHOWING_DEFAULTS)])]

    def parse(self, raw: Mapping) -> tuple[dict | None, list[str]]:
        """Read outside settings: the state (every valid setting kept, the rest at their
        defaults) and a message for each refused one; ``(None, messages)`` if ``raw`` is no
        mapping. Never raises."""
        if not isinstance(raw, Mapping):
            return self._refuse(_SETTINGS, tr("they are not a mapping (got a {type})").format(
                type=type(raw).__name__))
        try:
            return self._apply(list(raw.items()), _WHERE_SETTINGS)
        except Exception:
            return self._refuse(_SETTINGS, tr("they could not be read"))

    def to_json(self, values: Mapping, *, lang: str | None = None) -> str:
        """The text of a saved file: ``{"app", "version", "tab", "state"}`` with every field,
        and ``"lang"`` after ``"tab"`` when ``lang`` is given (the page's language, if one was
        chosen: a file opened later switches the page to it).

        Values are JSON-native (points as ``[x1, ..., xM, label]`` lists), one setting a line.
        """
        lines = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False, allow_nan=False)}"
                 for k, v in self.validate(values).items()]
        head = {"app": APP, "version": VERSION, "tab": self.tab}
        if lang is not None:
            if not isinstance(lang, str) or not _NAME_RE.fullmatch(lang):
                raise ValueError(f"lang must be a language's code; got {lang!r}")
            head["lang"] = lang
        head = json.dumps(head)[:-1]
        return head + ', "state": {\n' + ",\n".join(lines) + "\n}}\n"

    def from_json(self, text: str | bytes, *, where: str = _WHERE_FILE
                  ) -> tuple[dict | None, list[str]]:
        """Read a saved file: the state, and a message for each setting refused (it keeps its
        default; ``where`` names the file in them, "In the file, ..."). Never raises.

        Refused whole, ``(None, messages)``: more than ``MAX_JSON_BYTES`` (checked before
        parsing), bytes that are not UTF-8, invalid JSON (NaN, Infinity and repeated keys
        included), anything but an object, another app, version or tab, a missing ``"state"``
        object, an unknown entry beside it. Unknown settings inside it are left out.
        """
        try:
            return self.read_doc(_read_json(text), where=where)
        except _Bad as bad:
            return self._refuse(_FILE, str(bad))
        except Exception:
            return self._refuse(_FILE, tr("it could not be read"))

    def read_doc(self, doc, *, where: str = _WHERE_FILE) -> tuple[dict, list[str]]:
        """The state of a saved file's JSON document ``doc``, and a message for each setting
        refused (``where``: "the file", "the link", "the settings", or a sentence of its own
        with ``{problem}``); :class:`_Bad` saying why when nothing of it can be used."""
        doc = _file_header(doc, holds=N_("an object of settings"),
                           kind=N_("it is not a Perceptron Explorer settings file"))
        if doc.get("tab") != self.tab:
            raise _Bad(tr("it is for the {tab} tab, not {ours}").format(
                tab=_show(doc.get("tab")), ours=repr(self.tab)))
        extra = [k for k in doc if k not in (*FILE_KEYS, "state")]
        if extra:
            raise _Bad(tr("unknown entry {key}").format(key=_show(extra[0])))
        if not isinstance(doc.get("state"), dict):
            raise _Bad(tr('it has no "state" object'))
        return self._apply(list(doc["state"].items()), where)

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

    def from_query(self, query: str) -> tuple[dict | None, list[str]]:
        """Read a link's query string: the state, and a message for each setting refused (it
        keeps its default) or parameter left out. Never raises.

        A leading ``"?"`` and empty ``&&`` segments are ignored; ``"w0="`` means an empty field.
        Left out and named: a parameter without ``=``, a broken %-escape, an unknown key; a
        repeated key keeps its default. Refused whole, ``(None, messages)``: more than
        ``MAX_QUERY_CHARS`` (checked before parsing), a ``tab`` naming another tab or repeated.
        """
        try:
            pairs, problems = _split_query(query)
            tabs = [v for k, v in pairs if k == "tab"]
            if len(tabs) > 1:
                raise _Bad(tr("'tab' appears more than once"))
            if tabs and tabs[0] != self.tab:
                raise _Bad(tr("it opens the {tab} tab, not {ours}").format(
                    tab=_show(tabs[0]), ours=repr(self.tab)))
            left_out = [tr("{problem}; it was left out").format(problem=p) for p in problems]
            return self._apply([(k, v) for k, v in pairs if k != "tab"], _WHERE_LINK, left_out)
        except _Bad as bad:
            return self._refuse(_LINK, str(bad))
        except Exception:
            return self._refuse(_LINK, tr("it could not be read"))
