"""The shipped Chinese font (explorer/fonts/, scripts/cjk_font.py): it covers the Chinese catalog,
ships with its licence, and matplotlib draws Chinese with it and Latin as before."""

from __future__ import annotations

import base64
import io
import re
import unicodedata
import warnings
from pathlib import Path

import matplotlib
import numpy as np
from fontTools.ttLib import TTFont
from matplotlib import font_manager
from matplotlib.figure import Figure

import explorer.plots  # noqa: F401  (registers the shipped font)
from explorer.shared import cjk_font
from explorer.shared.i18n import LANGUAGES, _po_entries, catalog_path, tr, using

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def _zh_chars() -> set[str]:
    """The characters of the Chinese catalog's translations and of the language menu."""
    entries = _po_entries(catalog_path("zh").read_text(encoding="utf-8"))
    return ({c for key, value in entries.items() if key for c in value if c.isprintable()}
            | set("".join(LANGUAGES.values())))


def _cmap(path) -> set[str]:
    return set(map(chr, TTFont(path).getBestCmap()))


def _is_wide(c: str) -> bool:
    return unicodedata.east_asian_width(c) in ("W", "F")


def test_every_character_of_the_chinese_catalog_has_a_glyph():
    """Each character of a Chinese translation is in the shipped font, or (a symbol such as
    ⇤ or ⟨, which Noto Sans CJK lacks) in DejaVu Sans, the font matplotlib ships; every wide
    (CJK) character is in the shipped font itself, since a fresh machine has no other."""
    shipped = _cmap(cjk_font.PATH)
    dejavu = _cmap(font_manager.findfont("DejaVu Sans", fallback_to_default=False))
    missing = sorted(c for c in _zh_chars() if c not in shipped
                     and (_is_wide(c) or c not in dejavu))
    assert not missing, (
        f"{len(missing)} character(s) of the Chinese catalog have no glyph in "
        f"{cjk_font.PATH.name}: {' '.join(missing)} "
        f"({', '.join(f'U+{ord(c):04X}' for c in missing)}); run python scripts/cjk_font.py")


def test_the_font_is_the_subset_under_its_own_name_small_and_licensed():
    font = TTFont(cjk_font.PATH)
    assert font["name"].getDebugName(1) == cjk_font.FAMILY
    assert cjk_font.PATH.stat().st_size < 1_000_000
    # the subset: the catalog and its margin, not the ~44 000 glyphs of Noto Sans CJK SC
    assert 500 < len(font.getBestCmap()) < 5000
    text = cjk_font.LICENSE.read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in text
    assert "Copyright 2014-2021 Adobe" in text


def test_the_package_data_ships_the_font_and_its_licence():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = data["package-data"]["explorer"]
    shipped = {p for pattern in patterns for p in (ROOT / "explorer").glob(pattern)}
    assert {cjk_font.PATH, cjk_font.LICENSE} <= shipped


def test_the_page_font_list_names_the_shipped_font_for_chinese_only_and_its_face_is_the_file():
    assert cjk_font.stack("system-ui", "sans-serif") == '"Noto Sans SC PE", system-ui, sans-serif'
    css = cjk_font.font_face_css()
    m = re.search(r'font-family: "([^"]+)".*src: url\("data:font/otf;base64,([A-Za-z0-9+/=]+)"\)',
                  css)
    assert m and m.group(1) == cjk_font.FAMILY
    # no Latin letter, digit or sign in its range: Latin text keeps the fonts it had
    ranges = re.search(r"unicode-range: ([^;]+);", css).group(1)
    spans = [[int(x, 16) for x in r.strip()[2:].split("-")] for r in ranges.split(",")]
    assert all(lo >= 0x3000 for lo, _hi in spans) and any(lo <= 0x4E2D <= hi for lo, hi in spans)
    assert base64.b64decode(m.group(2)) == cjk_font.PATH.read_bytes()


def test_matplotlib_has_the_shipped_font_last_of_its_families():
    families = list(matplotlib.rcParams["font.family"])
    assert families[-1] == cjk_font.FAMILY and families[:-1] == ["sans-serif"]
    found = font_manager.findfont(font_manager.FontProperties(family=cjk_font.FAMILY),
                                  fallback_to_default=False)
    assert Path(found) == cjk_font.PATH


def _draw(text: str, families, fmt: str = "png") -> tuple[bytes | np.ndarray, list[str]]:
    """``text`` drawn by matplotlib with ``families`` (a PNG's pixels, or an SVG's text), and
    the warnings it gave."""
    with matplotlib.rc_context({"font.family": families}), \
            warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig = Figure(figsize=(6, 1), dpi=100)
        fig.text(0.02, 0.4, text, fontsize=14)
        ax = fig.add_axes((0.6, 0.2, 0.3, 0.6))
        ax.set_title(text, fontsize=9)
        buf = io.BytesIO()
        fig.savefig(buf, format=fmt)
    out = buf.getvalue() if fmt == "svg" else np.asarray(
        __import__("PIL.Image", fromlist=["Image"]).open(io.BytesIO(buf.getvalue())))
    return out, [str(w.message) for w in caught]


def test_matplotlib_draws_chinese_with_the_shipped_font_and_latin_as_before():
    with using("zh"):
        chinese = f"{tr('Margins')}：{tr('Max margin')}（{tr('Averaged perceptron')}）"
    assert chinese and all(_is_wide(c) for c in chinese), chinese  # the catalog's, not English
    families = list(matplotlib.rcParams["font.family"])
    _pixels, said = _draw(chinese, families)
    assert not [w for w in said if "missing from font" in w], said
    svg, said = _draw(chinese, families, "svg")
    assert not [w for w in said if "missing from font" in w], said
    # the SVG defines each glyph once, named by its font's PostScript name and glyph index:
    # one glyph of the shipped font for each character, none of them its .notdef (index 0)
    postscript = TTFont(cjk_font.PATH)["name"].getDebugName(6)
    glyphs = set(re.findall(rf'id="{re.escape(postscript)}-([0-9a-f]+)"'.encode(), svg))
    assert len(glyphs) == len(set(chinese)) and b"0" not in glyphs
    # without it, the same text is boxes and matplotlib says so (the test can fail)
    _boxes, said = _draw(chinese, ["sans-serif"])
    assert any("missing from font" in w for w in said)
    # Latin text: pixel for pixel what matplotlib's own font draws
    latin = "Margins: w = (0.50, -1.25), step 12 of 40"
    drawn, said = _draw(latin, families)
    assert not said
    assert np.array_equal(drawn, _draw(latin, ["sans-serif"])[0])


def test_bold_chinese_is_drawn_regular_without_a_warning_and_other_warnings_stay(caplog):
    """The shipped subset has one weight: matplotlib's warning about bold for it is filtered,
    the same warning about another family is not."""
    import logging

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure


    fig = Figure(figsize=(2, 1))
    FigureCanvasAgg(fig)
    fig.text(0.1, 0.5, "感知机 权重", fontweight="bold", fontsize=13.37)  # a size not looked up yet
    with caplog.at_level(logging.WARNING, logger="matplotlib.font_manager"):
        fig.canvas.draw()
        logging.getLogger("matplotlib.font_manager").warning(
            "findfont: Failed to find font weight %s for %s, now using %s.", "bold", "Other", 400)
    said = [r.getMessage() for r in caplog.records]
    assert not any("Noto Sans SC PE" in m for m in said), said
    assert any("for Other" in m for m in said), said
