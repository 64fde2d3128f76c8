"""The language of what a person reads: English, Swedish, German, Spanish, Chinese.

Every string a person reads is written in English in the code and marked for translation:
``tr("Lecture mode")`` where it is shown, ``N_("Margins")`` where it is declared at import (a
module's constant, translated where it is shown: ``tr(TITLE)``). ``scripts/catalogs.py``
gathers the marked strings into the template ``explorer/locale/explorer.pot`` and the
languages' catalogs ``explorer/locale/<code>/LC_MESSAGES/explorer.po`` (gettext's formats).
The catalogs are compiled when first used, in memory, with the standard library (Babel, which
``scripts/catalogs.py`` uses to gather and merge them, is not loaded by a page): nothing is
built on a fresh machine and nothing is fetched.

One kernel serves one page, so the language is the process's (:func:`set_language`); a test or
an export in another language uses :func:`using`. Placeholders are ``str.format``'s: translate
first, then fill in (``tr("{n} points").format(n=n)``), so every catalog keeps them as they are
(a test checks).

The pseudo-language :data:`PSEUDO` (``lang=qps``) is for tests only: every string about 40 %
longer, accented and bracketed, so that a page in it shows at once any text not taken from the
catalogs and any label that does not fit.
"""

from __future__ import annotations

import ast
import functools
import gettext as _gettext
import io
import re
import struct
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qsl

#: The languages offered, by code (BCP 47 primary tags), each in its own words.
LANGUAGES = {"en": "English", "sv": "Svenska", "de": "Deutsch", "es": "Español",
             "zh": "中文（简体）"}
#: The language of the code's strings, and of a page whose browser asks for none offered.
DEFAULT = "en"
#: The pseudo-language (tests only; not in the menu).
PSEUDO = "qps"
DOMAIN = "explorer"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
#: A ``str.format`` placeholder: ``{n}``, ``{w:.2f}``, ``{0}`` (doubled braces are text).
PLACEHOLDER = re.compile(r"(?<!\{)\{[A-Za-z0-9_.\[\]]*(?:![rsa])?(?::[^{}]*)?\}(?!\})")

#: The link's parameter naming the page's language (beside ``tab``; no tab's setting).
LANG_KEY = "lang"
#: The languages that write a decimal comma ("0,5"): numbers are shown with one, and a number
#: typed in them may have one (the pseudo-language too: a test case).
DECIMAL_COMMA = frozenset({"sv", "de", "es", PSEUDO})

_current = DEFAULT


def is_offered(code) -> bool:
    """Whether ``code`` is a language offered (or the pseudo-language)."""
    return code in LANGUAGES or code == PSEUDO


def check_language(code) -> str:
    """``code`` if it is a language offered (or the pseudo-language); else ``ValueError``."""
    if is_offered(code):
        return code
    raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}; got {code!r}")


def language() -> str:
    """The language strings are translated into now."""
    return _current


def set_language(code: str) -> str:
    """Translate into ``code`` from now on (checked by :func:`check_language`); returns it."""
    global _current
    _current = check_language(code)
    return _current


@contextmanager
def using(code: str) -> Iterator[str]:
    """Translate into ``code`` inside the ``with`` block, then back."""
    before = language()
    set_language(code)
    try:
        yield code
    finally:
        set_language(before)


def decimal_comma(code: str | None = None) -> bool:
    """Whether language ``code`` (None: the current one) writes a decimal comma."""
    return (_current if code is None else code) in DECIMAL_COMMA


#: The languages whose sentences follow each other with no space (a full stop "。" ends them).
NO_SPACE = frozenset({"zh"})


def sentences(parts: Iterable[str]) -> str:
    """Whole sentences one after the other, as the current language writes them: with a space
    between them, or none in Chinese."""
    return ("" if _current in NO_SPACE else " ").join(p for p in parts if p)


def tr(message: str) -> str:
    """``message`` (the English text, a catalog's key) in the current language."""
    return catalog(_current).gettext(message)


def tr_n(singular: str, plural: str, n: int) -> str:
    """The singular or plural of a message for ``n`` things, as the current language has it."""
    return catalog(_current).ngettext(singular, plural, n)


def N_(message: str) -> str:  # noqa: N802 - gettext's name for "mark only"
    """Mark ``message`` for the catalogs without translating it (translated where shown)."""
    return message


def accepted(header: str | None) -> list[str]:
    """The language tags of an ``Accept-Language`` header, most wanted first (``q=0`` left
    out); a malformed part is skipped, never raised on."""
    tags = []
    for i, part in enumerate((header or "").split(",")):
        tag, _sep, rest = part.strip().partition(";")
        q = 1.0
        m = re.fullmatch(r"\s*q\s*=\s*([0-9.]+)\s*", rest) if rest else None
        if rest and m is None:
            continue
        if m is not None:
            try:
                q = float(m.group(1))
            except ValueError:
                continue
        if tag and q > 0 and re.fullmatch(r"[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*|\*", tag):
            tags.append((-q, i, tag))
    return [t for _q, _i, t in sorted(tags)]


def pick(requested: str | None = None, wanted: Iterable[str] = ()) -> str:
    """The page's language: ``requested`` (a link's ``lang=``) if offered, else the first of
    the browser's ``wanted`` tags whose language is offered (``sv-SE`` is Swedish; every
    ``zh`` is the simplified Chinese offered), else English."""
    if is_offered(requested):
        return requested
    for tag in wanted:
        primary = str(tag).split("-")[0].lower()
        if primary in LANGUAGES:
            return primary
    return DEFAULT


def query_lang(query: str) -> str | None:
    """The ``lang=`` of a query string if there is exactly one, else None; never raises (an
    unknown code is returned as it is: :func:`pick` judges it)."""
    try:
        found = [v for k, v in parse_qsl(query.lstrip("?"), keep_blank_values=True)
                 if k == LANG_KEY]
    except Exception:
        return None
    return found[0] if len(found) == 1 else None


def pseudo(message: str) -> str:
    """The pseudo-language's text for ``message``: letters accented, about 40 % longer,
    between ``⟦`` and ``⟧``; placeholders and markup (``<...>``, ``&...;``) kept as they are."""
    accents = str.maketrans("aeiouyAEIOUYcnsCNS", "àéîõüýÀÉÎÕÜÝçñšÇÑŠ")
    keep = re.compile(PLACEHOLDER.pattern + r"|<[^<>]*>|&[#A-Za-z0-9]+;")
    out, last = [], 0
    for m in keep.finditer(message):
        out += [message[last:m.start()].translate(accents), m.group(0)]
        last = m.end()
    out.append(message[last:].translate(accents))
    text = "".join(out)
    letters = sum(c.isalpha() for c in message)
    pad = "~" * max(1, round(0.4 * len(message)))
    return f"⟦{text}{pad}⟧" if letters else text


class _Pseudo(_gettext.NullTranslations):
    def gettext(self, message):
        return pseudo(message)

    def ngettext(self, singular, plural, n):
        return pseudo(singular if n == 1 else plural)


def catalog_path(code: str) -> Path:
    """Where the catalog of language ``code`` is kept (``.po``, gettext's text format)."""
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def _po_entries(text: str) -> dict[str, str]:
    """The translated messages of a ``.po`` file's text, as a ``.mo`` file keys them
    (``msgid``, or ``msgid NUL msgid_plural``; the forms of a plural joined by NUL); untranslated
    and fuzzy ones left out. Its header (the empty ``msgid``) is kept: it gives the plural rule."""
    entries: dict[str, str] = {}
    fields: dict[str, list[str]] = {}
    key, fuzzy = None, False

    def flush():
        nonlocal fields, fuzzy
        if "msgid" in fields:
            mid = "".join(fields["msgid"])
            if "msgid_plural" in fields:
                mid += "\0" + "".join(fields["msgid_plural"])
                forms = ["".join(v) for k, v in sorted(fields.items()) if k.startswith("msgstr[")]
                value = "\0".join(forms)
                done = all(forms)
            else:
                value = "".join(fields.get("msgstr", []))
                done = bool(value)
            if done and (not fuzzy or not mid):
                entries[mid] = value
        fields, fuzzy = {}, False

    for line in text.splitlines():
        line = line.strip()
        if line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        if not line or line.startswith("#"):
            continue
        if line.startswith('"'):
            fields[key].append(ast.literal_eval(line))
            continue
        word, _sep, rest = line.partition(" ")
        if word == "msgid" and "msgid" in fields:
            flush()
        key = word
        fields[key] = [ast.literal_eval(rest.strip())]
    flush()
    return entries


def _mo_bytes(entries: dict[str, str]) -> bytes:
    """A ``.mo`` file (GNU gettext's binary format, little-endian) holding ``entries``."""
    keys = sorted(entries)
    ids = [k.encode("utf-8") for k in keys]
    strs = [entries[k].encode("utf-8") for k in keys]
    n = len(keys)
    start = 7 * 4 + 16 * n
    offsets, data = [], b""
    for blob in ids + strs:
        offsets.append((len(blob), start + len(data)))
        data += blob + b"\0"
    table = b"".join(struct.pack("<2I", length, at) for length, at in offsets)
    head = struct.pack("<7I", 0x950412DE, 0, n, 7 * 4, 7 * 4 + 8 * n, 0, 0)
    return head + table + data


@functools.cache
def catalog(code: str) -> _gettext.NullTranslations:
    """The translations of language ``code``: English is the code's own text; a language's
    ``.po`` is compiled in memory on first use (to gettext's ``.mo`` format, read by Python's
    own :class:`gettext.GNUTranslations`), then kept."""
    check_language(code)
    if code == DEFAULT:
        return _gettext.NullTranslations()
    if code == PSEUDO:
        return _Pseudo()
    text = catalog_path(code).read_text(encoding="utf-8")
    return _gettext.GNUTranslations(io.BytesIO(_mo_bytes(_po_entries(text))))
