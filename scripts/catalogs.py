"""The message catalogs (``explorer/locale``): gather the marked strings, merge them into each
language's catalog, and check that every catalog is whole.

    python scripts/catalogs.py update    # the template from the code, then each .po from it
    python scripts/catalogs.py check     # exit 1 naming each missing or broken translation

The marked strings are the arguments of ``tr(...)``, ``N_(...)`` and ``tr_n(..., ...)``
(:mod:`explorer.shared.i18n`) in the package's Python files. A new string gets an empty
translation in every catalog, which ``check`` (and ``tests/test_i18n.py``) then names: a
language is added by copying a catalog to ``explorer/locale/<code>/LC_MESSAGES/explorer.po``,
translating it and adding the code to ``LANGUAGES``.
"""

from __future__ import annotations

import datetime
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from explorer.shared import i18n

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = i18n.LOCALE_DIR / f"{i18n.DOMAIN}.pot"
KEYWORDS = {"tr": None, "N_": None, "tr_n": (1, 2)}
#: The catalogs' dates, fixed: a catalog changes only when its messages do.
STAMP = datetime.datetime(2026, 11, 28, tzinfo=datetime.timezone.utc)


def template() -> Catalog:
    """Every marked string of the package, with where it is used."""
    cat = Catalog(project="Perceptron Explorer", domain=i18n.DOMAIN, fuzzy=False,
                  creation_date=STAMP, revision_date=STAMP, version="0.1")
    package = ROOT / "explorer"
    for path, line, message, comments, context in extract_from_dir(
            package, method_map=[("**.py", "python")], keywords=KEYWORDS,
            comment_tags=("translators:",), strip_comment_tags=True):
        cat.add(message, locations=[(f"explorer/{path}", line)], auto_comments=comments,
                context=context)
    return cat


def _write(cat: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        write_po(f, cat, width=100, sort_output=True, omit_header=False,
                 include_previous=False, include_lineno=False)


def update() -> None:
    """Write the template, then merge it into each language's catalog (kept translations
    stay; new strings come in untranslated, strings no longer used go)."""
    tpl = template()
    _write(tpl, TEMPLATE)
    for code in i18n.LANGUAGES:
        if code == i18n.DEFAULT:
            continue
        path = i18n.catalog_path(code)
        if path.exists():
            with open(path, "rb") as f:
                cat = read_po(f, locale=code, domain=i18n.DOMAIN)
        else:
            cat = Catalog(locale=code, domain=i18n.DOMAIN, project="Perceptron Explorer",
                          version="0.1", creation_date=STAMP, revision_date=STAMP)
        cat.update(tpl, no_fuzzy_matching=True)
        cat.fuzzy = False
        cat.revision_date = STAMP
        cat.obsolete.clear()
        _write(cat, path)


def problems(code: str, tpl: Catalog | None = None) -> list[str]:
    """What is missing or wrong in language ``code``'s catalog, one line each."""
    tpl = template() if tpl is None else tpl
    with open(i18n.catalog_path(code), "rb") as f:
        cat = read_po(f, locale=code, domain=i18n.DOMAIN)
    out = []
    for msg in tpl:
        if not msg.id:
            continue
        got = cat.get(msg.id)
        ids = msg.id if isinstance(msg.id, tuple) else (msg.id,)
        if got is None or not got.string or got.fuzzy or (
                isinstance(got.string, tuple) and not all(got.string)):
            out.append(f"{code}: no translation of {ids[0]!r}")
            continue
        strings = got.string if isinstance(got.string, tuple) else (got.string,)
        want = sorted(i18n.PLACEHOLDER.findall(ids[-1]))
        for s in strings:
            if sorted(i18n.PLACEHOLDER.findall(s)) != want:
                out.append(f"{code}: the placeholders of {ids[0]!r} are {want}, "
                           f"its translation has {sorted(i18n.PLACEHOLDER.findall(s))}")
    return out


def main(argv) -> int:
    if argv[1:] == ["update"]:
        update()
        return 0
    if argv[1:] == ["check"]:
        tpl = template()
        found = [p for code in i18n.LANGUAGES if code != i18n.DEFAULT
                 for p in problems(code, tpl)]
        print("\n".join(found) or "every catalog is whole")
        return 1 if found else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
