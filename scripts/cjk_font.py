"""Make the Chinese font the package ships: a subset of Noto Sans CJK SC (SIL OFL 1.1).

A fresh machine (``make dashboard``: Python and make, no root) may have no font with Chinese
glyphs, so matplotlib's figures and Chromium's page would draw the Chinese catalog as empty
boxes. The package ships the glyphs it needs (``explorer/fonts/``): every character of the
Chinese catalog's translations, plus a margin (:func:`wanted`). Both matplotlib
(:mod:`explorer.plots.fonts`) and the page (an ``@font-face``, :mod:`explorer.shared.cjk_font`)
use it after their own fonts, for the characters those lack.

Run it again whenever the Chinese catalog gains characters (tests/test_cjk_font.py fails and
names them)::

    python scripts/cjk_font.py [--source PATH] [--index N]

The source is Noto Sans CJK (Debian's ``fonts-noto-cjk``:
``/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc``, its Simplified Chinese face by
default) or Noto Sans SC's OTF. Needs fontTools (the ``test`` extra; matplotlib depends on it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from explorer.shared import cjk_font  # noqa: E402
from explorer.shared.i18n import LANGUAGES, _po_entries, catalog_path  # noqa: E402

DEBIAN_TTC = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
#: The face of the collection whose family is this (its Simplified Chinese face).
SOURCE_FAMILY = "Noto Sans CJK SC"

#: The margin: the 500 most frequent characters of Chinese text, most frequent first (the
#: character-frequency order of GB2312 used by Mozilla's universal charset detector, as chardet
#: ships it in ``gb2312freq.py``), so a small edit of a translation rarely needs a new font.
FREQUENT = (
    "的一国在人了有中是年和大业不为发会工经上地市要个产这出行作生家以成到日民来我部对进多全建他公开们场展"
    "时理新方主企资实学报制政济用同于法高长现本月定化加动合品重关机分力自外者区能设后就等体下万元社过前面农"
    "也得与说之员而务利电文事可种总改三各好金第司其从平代当天水省提商十管内小技位目起海所立已通入量子问度北"
    "保心还科委都术使明着次将增基名向门应里美由规今题记点计去强两些表系办教正条最达特革收二期并程厂如道际及"
    "西口京华任调性导组东路活广意比投决交统党南安此领结营项情解议义山先车然价放世间因共院步物界集把持无但城"
    "相书村求治取原处府研质信四运县军件育局干队团又造形级标联专少费效据手施权江近深更认果格几看没职服台式益"
    "想数单样只被亿老受优常销志战流很接乡头给至难观指创证织论别五协变风批见究支那查张精每林转划准做需传争税"
    "构具百或才积势举必型易视快李参回引镇首推思完消值该走装众责备州供包副极整确知贸己环话反身选亚么带采王策"
    "真女谈严斯况色打德告仅它气料神率识劳境源青护列兴许户马港则节款拉直案股光较河花根布线土克再群医清速律她"
    "族历非感占续师何影功负验望财类货约艺售连纪按讯史示象养获石食抓富模始住赛客越闻央席坚"
)

#: Punctuation and symbols Chinese text is set with: CJK Symbols and Punctuation
#: (U+3000-U+303F), the fullwidth ASCII forms (U+FF01-U+FF5E), the fullwidth signs
#: (U+FFE0-U+FFE6), and the quotes, dashes and dots of General Punctuation Chinese uses.
PUNCTUATION = (
    "".join(map(chr, range(0x3000, 0x3040)))
    + "".join(map(chr, range(0xFF01, 0xFF5F)))
    + "".join(map(chr, range(0xFFE0, 0xFFE7)))
    + "‘’“”…‥—–·•※"
)
#: Printable ASCII: the font then also draws whole strings on its own (digits and Latin
#: letters inside a Chinese sentence, when a page names it first); a few kB.
ASCII = "".join(map(chr, range(0x20, 0x7F)))


def catalog_chars(code: str = "zh") -> set[str]:
    """Every character of the translations in the catalog of language ``code``."""
    entries = _po_entries(catalog_path(code).read_text(encoding="utf-8"))
    return {c for key, value in entries.items() if key for c in value if c.isprintable()}


def wanted() -> set[str]:
    """The characters the shipped font should draw: the Chinese catalog's, the languages' own
    names (the language menu's "中文（简体）"), the margin (:data:`FREQUENT`), Chinese
    punctuation (:data:`PUNCTUATION`) and :data:`ASCII`."""
    return (catalog_chars("zh") | set("".join(LANGUAGES.values())) | set(FREQUENT)
            | set(PUNCTUATION) | set(ASCII))


def open_source(path: Path, index: int | None):
    """The source font: ``path``'s face ``index`` (a collection's :data:`SOURCE_FAMILY` face
    when None) or the font file itself."""
    from fontTools.ttLib import TTCollection, TTFont

    if path.suffix.lower() != ".ttc":
        return TTFont(path)
    faces = TTCollection(path).fonts
    if index is None:
        index = next(i for i, f in enumerate(faces)
                     if f["name"].getDebugName(1) == SOURCE_FAMILY)
    return faces[index]


def rename(font, family: str) -> None:
    """Give the subset its own family name (a Modified Version under the OFL, and a name no
    installed Noto font has, so matplotlib and the page pick this file, not a system one)."""
    postscript = family.replace(" ", "") + "-Regular"
    names = {1: family, 2: "Regular", 3: f"{postscript};subset", 4: f"{family} Regular",
             6: postscript, 16: family, 17: "Regular"}
    table = font["name"]
    table.names = [r for r in table.names if r.nameID not in names]
    for name_id, text in names.items():
        table.setName(text, name_id, 3, 1, 0x409)
        table.setName(text, name_id, 1, 0, 0)
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [postscript]
        top = cff.topDictIndex[0]
        top.FullName, top.FamilyName = f"{family} Regular", family


def subset(font, chars: set[str]):
    """``font`` cut down to ``chars`` (those it has), without hinting."""
    from fontTools import subset as fs

    options = fs.Options()
    options.hinting = False
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.layout_features = ["kern", "palt", "locl", "ccmp"]
    sub = fs.Subsetter(options=options)
    sub.populate(unicodes=sorted(map(ord, chars)))
    sub.subset(font)
    return font


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEBIAN_TTC,
                        help=f"Noto Sans CJK (.ttc) or Noto Sans SC (.otf); default {DEBIAN_TTC}")
    parser.add_argument("--index", type=int, default=None,
                        help="the face of a collection (default: its Noto Sans CJK SC)")
    args = parser.parse_args(argv)
    if not args.source.is_file():
        parser.error(f"no font at {args.source}: install Debian's fonts-noto-cjk "
                     "(or download Noto Sans SC's OTF) and name it with --source")
    font = open_source(args.source, args.index)
    chars = wanted()
    have = set(map(chr, font.getBestCmap()))
    lacking = sorted(c for c in chars - have if c.strip() and c not in PUNCTUATION)
    subset(font, chars)
    rename(font, cjk_font.FAMILY)
    cjk_font.PATH.parent.mkdir(parents=True, exist_ok=True)
    font.save(cjk_font.PATH)
    size = cjk_font.PATH.stat().st_size
    print(f"{cjk_font.PATH.relative_to(ROOT)}: {len(font.getBestCmap())} characters, "
          f"{size / 1024:.0f} KiB")
    if lacking:
        print("not in the source font (drawn by the page's and matplotlib's own fonts): "
              + " ".join(lacking))
    if not cjk_font.LICENSE.is_file():
        print(f"missing {cjk_font.LICENSE}: the SIL OFL 1.1 text must ship with the font")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
