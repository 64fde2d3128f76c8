"""A lecture's playlist: saved states of the dashboard's tabs, stepped through like slides.

A :class:`Playlist` is an ordered list of :class:`Entry` objects (a title, a tab and that
tab's whole state, as its :class:`~explorer.app.state.StateSpec` declares it: settings and
step; and the lecturer's notes, shown only in the presenter view) and the index of the slide
on screen. Entries are added, renamed, moved and deleted;
the playlist is written to and read from

* **a file**: human-readable JSON, ``{"app", "version", "playlist": [{"title", "tab",
  "notes" (only when there are some), "lang" (the page's language, when one was chosen: the
  slide opens in it), "state"}, ...]}``, one entry a block and one setting a
  line, every setting written (so a slide opens as saved even if a default changes);
  settings left out of a hand-written file take their defaults, as in a state file;
* **a link**: the parameter ``playlist=`` holds that JSON without its spaces, compressed with
  zlib and written in URL-safe base64 (the example course of ten slides takes 1 185
  characters), and ``slide=k`` (1-based) says which slide opens; the whole query string is at
  most :data:`~explorer.app.state.MAX_QUERY_CHARS` characters.

What comes from outside (:meth:`Playlist.load_json`, :meth:`Playlist.load_link`) never
raises: a bad or old playlist leaves the current one as it was and gives short messages
saying what was wrong (not JSON, another app or version, an unknown tab, a slide that is not
an object, too many slides, too large a file). A bad setting of slide 3 refuses only that
setting, as in a state file: it keeps its default, the playlist loads and a message names it.
What checks the program's own values (:meth:`Playlist.add`, :meth:`Playlist.rename`, ...)
raises ``ValueError``. Each entry's state is read by its tab's spec (``spec.from_json``), so a
playlist accepts exactly what a saved state of that tab does. The specs come from
``spec_of(tab)`` (None for an unknown tab), so this module imports no tab, no widgets and no
matplotlib.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from explorer.shared.i18n import N_, tr  # absolute: tests load this file alone

from .state import (
    APP,
    MAX_JSON_BYTES,
    MAX_MESSAGES,
    MAX_QUERY_CHARS,
    VERSION,
    _file_header,
    _read_json,
    _split_query,
)
from .state_field import _Bad, _show

__all__ = ["Entry", "Playlist", "clean_title", "clean_notes", "is_playlist_link", "MAX_ENTRIES",
           "MAX_TITLE", "MAX_NOTES",
           "NEXT_KEYS", "PREVIOUS_KEYS", "KEYS_HELP"]

MAX_ENTRIES = 100
#: Keys for the next / previous slide: "n" and "p". A presenter's remote sends PageDown /
#: PageUp (the step keys) and, from its "blank screen" button, "." or "b": those black the
#: screen out and back (:data:`explorer.app.bridge.BLACKOUT_KEYS`).
NEXT_KEYS = ("n", "N")
PREVIOUS_KEYS = ("p", "P")
KEYS_HELP = N_("n next slide, p previous slide (Playlist); b or . blacks the screen out and back")
MAX_TITLE = 80
#: A slide's notes, at most (characters): a page of speaker's notes.
MAX_NOTES = 2000
_KEEP = N_("The current playlist is kept.")
#: A language's code as a slide keeps it (whether it is offered is the page's to judge).
_LANG_RE = re.compile(r"[a-z]{2,8}")
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*={0,2}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def is_playlist_link(query) -> bool:
    """Whether a query string opens a playlist (has a ``playlist=`` parameter, even in a link
    too long or too broken to read: :meth:`Playlist.load_link` says what is wrong); never raises."""
    if not isinstance(query, str):
        return False
    return any(part.startswith("playlist=") for part in query.removeprefix("?").split("&"))


def clean_title(title) -> str:
    """A slide's title with its spaces tidied; ``ValueError`` if empty, too long or not text."""
    if not isinstance(title, str):
        raise ValueError(f"a title must be text; got {type(title).__name__}")
    text = " ".join(_CONTROL.sub(" ", title).split())
    if not text:
        raise ValueError("a title must not be empty")
    if len(text) > MAX_TITLE:
        raise ValueError(f"a title is at most {MAX_TITLE} characters; got {len(text)}")
    return text


def clean_notes(notes) -> str:
    """A slide's notes with their lines kept and their ends tidied (other control characters
    become spaces); ``ValueError`` if not text or longer than :data:`MAX_NOTES`."""
    if not isinstance(notes, str):
        raise ValueError(f"notes must be text; got {type(notes).__name__}")
    lines = notes.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    text = "\n".join(_CONTROL.sub(" ", line).rstrip() for line in lines).strip("\n")
    if len(text) > MAX_NOTES:
        raise ValueError(f"notes are at most {MAX_NOTES} characters; got {len(text)}")
    return text


@dataclass(frozen=True)
class Entry:
    """One slide: its ``title``, the ``tab`` it opens, that tab's whole ``state`` (the dict its
    spec's ``validate`` returns: every setting and the step) and the lecturer's ``notes``
    (shown only in the presenter view; "" for none); ``lang``: the page's language when it was
    added, if one was chosen (the slide opens in it, if it is offered), else None."""

    title: str
    tab: str
    state: dict
    notes: str = ""
    lang: str | None = None


class Playlist:
    """Slides of saved states (see module docstring).

    Parameters
    ----------
    spec_of : callable
        ``spec_of(tab)`` is the tab's spec (``validate``, ``to_json``, ``from_json``), or None
        for a tab the dashboard does not have.
    """

    def __init__(self, *, spec_of: Callable[[str], object]):
        self.spec_of = spec_of
        self.entries: list[Entry] = []
        #: Index of the slide on screen, or None before the first is opened.
        self.current: int | None = None

    def __len__(self) -> int:
        return len(self.entries)

    # ------------------------------------------------------------------ editing
    def _spec(self, tab):
        spec = self.spec_of(tab) if isinstance(tab, str) else None
        if spec is None:
            raise ValueError(f"unknown tab {_show(tab)}")
        return spec

    def _index(self, i) -> int:
        if type(i) is not int or not 0 <= i < len(self.entries):
            raise ValueError(f"slide index must be 0 to {len(self.entries) - 1}; got {i!r}")
        return i

    def add(self, *, title: str, tab: str, state: Mapping, notes: str = "",
            lang: str | None = None) -> Entry:
        """Append a slide (the state is validated by the tab's spec; ``lang``: the page's
        language, if one was chosen); it becomes the current one."""
        if len(self.entries) >= MAX_ENTRIES:
            raise ValueError(f"a playlist holds at most {MAX_ENTRIES} slides")
        if lang is not None and not (isinstance(lang, str) and _LANG_RE.fullmatch(lang)):
            raise ValueError(f"lang must be a language's code; got {lang!r}")
        entry = Entry(clean_title(title), tab, self._spec(tab).validate(state), clean_notes(notes),
                      lang)
        self.entries.append(entry)
        self.current = len(self.entries) - 1
        return entry

    def rename(self, i: int, title: str) -> None:
        """Give slide ``i`` a new title."""
        old = self.entries[self._index(i)]
        self.entries[i] = replace(old, title=clean_title(title))

    def set_notes(self, i: int, notes: str) -> None:
        """Give slide ``i`` new notes ("" for none)."""
        old = self.entries[self._index(i)]
        self.entries[i] = replace(old, notes=clean_notes(notes))

    def move(self, i: int, delta: int) -> int:
        """Move slide ``i`` by ``delta`` places (clipped to the ends); returns its new index.
        The current slide stays the same slide."""
        self._index(i)
        j = max(0, min(len(self.entries) - 1, i + delta))
        shown = self.entries[self.current] if self.current is not None else None
        self.entries.insert(j, self.entries.pop(i))
        if shown is not None:
            self.current = next(k for k, e in enumerate(self.entries) if e is shown)
        return j

    def delete(self, i: int) -> None:
        """Remove slide ``i``; the current index follows the slide shown (None if it was ``i``)."""
        self._index(i)
        del self.entries[i]
        if self.current is not None:
            self.current = None if self.current == i else self.current - (self.current > i)

    # ------------------------------------------------------------------ slides
    def go(self, i: int) -> Entry:
        """Make slide ``i`` the current one and return it."""
        self.current = self._index(i)
        return self.entries[i]

    def step(self, delta: int) -> Entry | None:
        """The slide ``delta`` places from the current one (the first if none is current), or
        None past either end or when the playlist is empty (the current one stays)."""
        if not self.entries:
            return None
        i = 0 if self.current is None else self.current + delta
        return self.go(i) if 0 <= i < len(self.entries) else None

    # ------------------------------------------------------------------ files
    def to_json(self) -> str:
        """The playlist file's text (see module docstring); raises ``ValueError`` on bad values."""
        blocks = []
        for e in self.entries:
            state = json.loads(self._spec(e.tab).to_json(e.state))["state"]
            lines = ",\n".join(f"    {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
                               for k, v in state.items())
            head = json.dumps({"title": e.title, "tab": e.tab}
                              | ({"notes": e.notes} if e.notes else {})
                              | ({"lang": e.lang} if e.lang else {}),
                              ensure_ascii=False)[:-1]
            blocks.append(f'  {head}, "state": {{\n{lines}\n  }}}}')
        top = json.dumps({"app": APP, "version": VERSION})[:-1]
        return top + ', "playlist": [\n' + ",\n".join(blocks) + "\n]}\n"

    def load_json(self, text) -> list[str]:
        """Replace the slides by those of a playlist file; never raises. The current slide
        becomes None (none opened yet). Returns ``[]``; or, when a slide's setting was refused
        (it keeps its default, the rest of the slide is used), a message for each; or, when the
        file cannot be used at all, messages ending in "The current playlist is kept." and the
        playlist as it was."""
        entries, messages = self.read_json(text)
        if entries is None:
            return _capped([tr("The playlist was not used: {problem}.").format(problem=p)
                            for p in messages]) + [tr(_KEEP)]
        self.entries, self.current = entries, None
        return _capped(messages)

    def read_json(self, text) -> tuple[list[Entry] | None, list[str]]:
        """The slides of a playlist file and a message for each setting refused in them (see
        :meth:`load_json`), or None and the problems that refuse it all; never raises."""
        try:
            return self._read(_read_json(text))
        except _Bad as bad:
            return None, [str(bad)]
        except Exception:
            return None, ["it could not be read"]

    def _read(self, doc) -> tuple[list[Entry] | None, list[str]]:
        doc = _file_header(doc, holds=N_("a playlist"),
                           kind=N_("it is not a Perceptron Explorer file"))
        if "playlist" not in doc and "state" in doc:
            raise _Bad(tr("it is one tab's saved state, not a playlist (use Load state)"))
        extra = [k for k in doc if k not in ("app", "version", "playlist")]
        if extra:
            raise _Bad(tr("unknown entry {key}").format(key=_show(extra[0])))
        items = doc.get("playlist")
        if not isinstance(items, list):
            raise _Bad(tr('it has no "playlist" list of slides'))
        if len(items) > MAX_ENTRIES:
            raise _Bad(tr("it has {n} slides; a playlist holds at most {most}").format(
                n=len(items), most=MAX_ENTRIES))
        entries, problems, notes = [], [], []
        for n, item in enumerate(items, start=1):
            try:
                entry, said = self._entry(item, n)
                entries.append(entry)
                notes += said
            except _Bad as bad:
                problems.append(str(bad))
        return (None, problems) if problems else (entries, notes)

    def _entry(self, item, n: int) -> tuple[Entry, list[str]]:
        """Slide ``n`` (from 1) and the messages of its settings refused (each keeps its
        default)."""
        if not isinstance(item, dict):
            raise _Bad(tr("slide {n} is a JSON {type}, not an object with a title, a tab and a "
                          "state").format(n=n, type=type(item).__name__))
        extra = [k for k in item if k not in ("title", "tab", "notes", "lang", "state")]
        if extra:
            raise _Bad(tr("slide {n} has an unknown entry {key}").format(n=n,
                                                                          key=_show(extra[0])))
        try:
            title = clean_title(item.get("title"))
        except ValueError as exc:
            raise _Bad(tr("slide {n}: {problem}").format(n=n, problem=exc)) from None
        where = tr("slide {n} ({title})").format(n=n, title=_show(title))
        tab = item.get("tab")
        spec = self.spec_of(tab) if isinstance(tab, str) else None
        if spec is None:
            raise _Bad(tr("{where} names an unknown tab {tab}").format(where=where,
                                                                         tab=_show(tab)))
        state = item.get("state", {})
        if not isinstance(state, dict):
            raise _Bad(tr("{where}: its state is not an object of settings").format(where=where))
        doc = {"app": APP, "version": VERSION, "tab": tab, "state": state}
        said = tr("In {where}, {{problem}}.").format(where=where)
        try:
            values, problems = spec.read_doc(doc, where=said)
        except _Bad as why:
            raise _Bad(tr("{where}: {problem}").format(where=where,
                                                       problem=str(why).rstrip("."))) from None
        except Exception:
            raise _Bad(tr("{where}: it could not be read").format(where=where)) from None
        try:
            notes = clean_notes(item.get("notes", ""))
        except ValueError as exc:  # the slide is used without them
            notes, problems = "", [*problems, tr("In {where}, the notes were left out: "
                                                 "{problem}.").format(where=where, problem=exc)]
        lang = item.get("lang")
        if lang is not None and not (isinstance(lang, str) and _LANG_RE.fullmatch(lang)):
            problems = [*problems, tr("In {where}, the language was left out: {lang} is not a "
                                      "language's code.").format(where=where, lang=_show(lang))]
            lang = None
        return Entry(title, tab, values, notes, lang), problems

    # ------------------------------------------------------------------ links
    def to_link(self) -> str:
        """The query string of a link that opens this playlist at its current slide:
        ``"playlist=<zlib + base64url of the JSON>&slide=k"``. Raises ``ValueError`` if longer
        than ``MAX_QUERY_CHARS`` (then save a file instead)."""
        compact = json.dumps(json.loads(self.to_json()), ensure_ascii=False, separators=(",", ":"))
        blob = base64.urlsafe_b64encode(zlib.compress(compact.encode("utf-8"), 9)).decode("ascii")
        query = f"playlist={blob.rstrip('=')}&slide={(self.current or 0) + 1}"
        if len(query) > MAX_QUERY_CHARS:
            raise ValueError(f"this playlist is too long for a link ({len(query)} characters; at "
                             f"most {MAX_QUERY_CHARS}); save it as a file instead")
        return query

    def load_link(self, query) -> tuple[list[str], int]:
        """Read a link's ``playlist=`` and ``slide=``: ``([], index)`` of the slide to open
        (with messages if some settings kept their defaults, see :meth:`load_json`), or
        (messages, 0) and the current playlist kept. Never raises."""
        try:
            pairs, problems = _split_query(query)
            blobs = [v for k, v in pairs if k == "playlist"]
            slides = [v for k, v in pairs if k == "slide"]
            extra = [k for k, _ in pairs if k not in ("playlist", "slide")]
            if problems or extra or len(blobs) != 1 or len(slides) > 1:
                raise _Bad(problems[0] if problems else
                           tr("unknown parameter {key}").format(key=_show(extra[0])) if extra
                           else tr("it must have one playlist= and at most one slide="))
            text = _inflate(blobs[0])
        except _Bad as bad:
            return [tr("The link's playlist was not used: {problem}.").format(problem=bad),
                    tr(_KEEP)], 0
        except Exception:
            return [tr("The link's playlist was not used: it could not be read."), tr(_KEEP)], 0
        before = self.entries
        notes = self.load_json(text)
        if self.entries is before:  # refused: the messages say why
            return notes, 0
        slide = slides[0] if slides else "1"
        if not self.entries:
            return notes, 0
        if not (slide.isascii() and slide.isdigit() and 1 <= int(slide) <= len(self.entries)):
            return notes + [tr("The link's slide {slide} is not one of 1 to {n}; showing "
                               "slide 1.").format(slide=_show(slide), n=len(self.entries))], 0
        return notes, int(slide) - 1


def _capped(messages: list[str]) -> list[str]:
    """At most ``MAX_MESSAGES`` messages and a count of the rest."""
    more = len(messages) - MAX_MESSAGES
    return messages[:MAX_MESSAGES] + ([tr("… and {n} more problems.").format(n=more)]
                                      if more > 0 else [])


def _inflate(blob: str) -> bytes:
    """The bytes of a link's ``playlist=`` value, at most ``MAX_JSON_BYTES`` (a small link
    cannot unpack into a huge text)."""
    if not _BASE64URL.fullmatch(blob):
        raise _Bad("its playlist= is not URL-safe base64 (letters, digits, - and _)")
    try:
        packed = base64.urlsafe_b64decode(blob.rstrip("=") + "=" * (-len(blob.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise _Bad("its playlist= is not URL-safe base64") from None
    unpack = zlib.decompressobj()
    try:
        text = unpack.decompress(packed, MAX_JSON_BYTES + 1)
    except zlib.error:
        raise _Bad("its playlist= is not a compressed playlist") from None
    if len(text) > MAX_JSON_BYTES or unpack.unconsumed_tail:
        raise _Bad(f"its playlist unpacks to more than {MAX_JSON_BYTES // 1_000_000} MB")
    if not unpack.eof:
        raise _Bad("its playlist= is cut short")
    return text

