"""The Chinese font the package ships, for the figures (matplotlib) and the page (Chromium).

``explorer/fonts/NotoSansSC-subset.otf`` is a subset of Noto Sans CJK SC (SIL Open Font
License 1.1, ``explorer/fonts/OFL.txt``) made by ``scripts/cjk_font.py``: the characters of the
Chinese catalog, Chinese punctuation and a margin of frequent characters. Its family,
:data:`FAMILY`, is its own, so no installed font of the same name can stand in for it.

Latin text keeps the fonts it had; only Chinese comes from it. matplotlib registers it as the
last of its families (:mod:`explorer.plots.fonts`: a character the others lack is drawn with
it); the page names it first of its font lists, for the Chinese characters of
:data:`UNICODE_RANGE` only (:func:`stack`), and gets :func:`font_face_css` (an ``@font-face`` whose
source is the file itself, as a ``data:`` URL: nothing is fetched, whichever server serves the
page; the hall's and the lecture's own pages name the file where their server serves it,
:data:`ROUTE`, which the browser keeps) and :func:`stack` for its font lists.
"""

from __future__ import annotations

import base64
from pathlib import Path

FOLDER = Path(__file__).resolve().parent.parent / "fonts"
PATH = FOLDER / "NotoSansSC-subset.otf"
LICENSE = FOLDER / "OFL.txt"
#: The subset's family name (its name table's and the page's ``@font-face``).
FAMILY = "Noto Sans SC PE"
#: Where the hall and the lecture serve the file, under their server's base URL
#: (:func:`explorer.serving.lecture_web.lecture_handlers`).
ROUTE = "lecture/font/" + PATH.name
#: The characters the page takes from it (CSS ``unicode-range``): CJK punctuation, the
#: ideographs, the fullwidth forms. The page names it first in its font lists, limited to these
#: (as web fonts for Chinese are served): named last, as a fallback for what the other fonts
#: lack, Chromium drew some texts of the page with boxes though the font had loaded (texts laid
#: out again after it had loaded kept them, or got them).
UNICODE_RANGE = "U+3000-303F, U+3400-4DBF, U+4E00-9FFF, U+F900-FAFF, U+FE30-FE4F, U+FF00-FFEF"


def stack(*families: str) -> str:
    """A CSS font list: the shipped font, then ``families``
    (``stack("system-ui", "sans-serif")`` is ``"Noto Sans SC PE", system-ui, sans-serif``).
    Its ``@font-face`` covers only the characters of :data:`UNICODE_RANGE`, so every other
    character (Latin text) is drawn by ``families`` as before; only Chinese comes from it."""
    return ", ".join([f'"{FAMILY}"', *families])


def font_face_css(url: str | None = None) -> str:
    """An ``@font-face`` rule declaring :data:`FAMILY` from the shipped file, for every weight
    (the page's bold is drawn from the regular face): at ``url`` (a path on the page's server,
    no quotes in it), or, by default, the file itself as a ``data:`` URL."""
    if url is None:
        url = "data:font/otf;base64," + base64.b64encode(PATH.read_bytes()).decode("ascii")
    elif any(c in url for c in "\"'()<>\n"):
        raise ValueError(f"a font's URL without quotes, brackets or newlines; got {url!r}")
    return (f'@font-face {{ font-family: "{FAMILY}"; font-style: normal; font-weight: 100 900; '
            f'font-display: block; src: url("{url}") format("opentype"); '
            f'unicode-range: {UNICODE_RANGE}; }}')
