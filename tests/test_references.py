"""Every document a file of the project cites is in the repository (issue 19, item 10).

The project's mathematics is in ``docs/mathematics.md``; code and notebooks cite its sections as
``docs/mathematics.md#section``. A citation of a file outside the repository (a private note, a
sibling directory) or of a section that does not exist leaves the reader with nothing, so every
tracked text file is scanned for

* Markdown links ``[text](target)`` in Markdown and notebooks: a relative target must exist, and
  its ``#anchor`` must be a heading (or an explicit ``id``) of the target;
* file names ending in ``.md`` anywhere: the file must be in the repository;
* paths under ``docs/``: they must exist;
* ``docs/mathematics.md#anchor``: the anchor must be one of its headings.

Paths are resolved against the citing file's folder and the repository root, and must stay
inside the repository.
"""

from __future__ import annotations

import functools
import json
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
MATHS = ROOT / "docs" / "mathematics.md"
SUFFIXES = {".py", ".ipynb", ".md", ".js", ".css", ".yaml", ".yml", ".toml", ".txt", ".cfg", ".ini"}
SKIP_DIRS = {".git", ".venv", "build", "dist", "node_modules", "__pycache__", ".ipynb_checkpoints"}

MD_LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)\)")
MD_FILE = re.compile(r"(?<![\w/.-])((?:\.\.?/)*[\w./-]*\w\.md)(#[\w-]+)?\b")
DOCS_PATH = re.compile(r"(?<![\w/.-])(docs/[\w./-]*[\w/])(#[\w-]+)?")


def _tracked() -> list[pathlib.Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True,
                             timeout=30).stdout.decode()
        files = [ROOT / p for p in out.split("\0") if p]
    except (OSError, subprocess.SubprocessError):  # not a git checkout: every file but the tools'
        files = [p for p in ROOT.rglob("*") if not SKIP_DIRS & set(p.relative_to(ROOT).parts)]
    return sorted(p for p in files if p.suffix in SUFFIXES and p.is_file())


FILES = _tracked()
BASENAMES = {p.name for p in FILES}


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"[`*_]|\$[^$]*\$", lambda m: "" if m.group(0) in "`*_" else m.group(0), heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


@functools.cache
def anchors(path: pathlib.Path) -> frozenset:
    """Anchors of a Markdown file: its headings' slugs (GitHub numbers repeats) and explicit ids."""
    text = path.read_text(encoding="utf-8")
    seen: dict[str, int] = {}
    out = set(re.findall(r"""\bid=["']([\w-]+)["']""", text))
    in_code = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m and not in_code:
            base = slug(m.group(1))
            k = seen.get(base, 0)
            seen[base] = k + 1
            out.add(base if k == 0 else f"{base}-{k}")
    return frozenset(out)


def _text(path: pathlib.Path) -> str:
    """A file's text; for a notebook, the source of every cell (outputs are never committed)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".ipynb":
        cells = json.loads(text)["cells"]
        return "\n".join("".join(c["source"]) for c in cells)
    return text


def _resolve(path: pathlib.Path, target: str) -> pathlib.Path | None:
    """The file or folder ``target`` names, from the citing file's folder or the root, or None.

    A bare file name (``README.md``) may also name a tracked file anywhere in the repository."""
    for base in (path.parent, ROOT):
        cand = (base / target).resolve()
        if cand.exists() and cand.is_relative_to(ROOT):
            return cand
    if "/" not in target and target in BASENAMES:
        return next(p for p in FILES if p.name == target)
    return None


def _problems(path: pathlib.Path, text: str | None = None) -> list[str]:
    """What ``path`` (with ``text``, by default its own) cites that is not in the repository."""
    text = _text(path) if text is None else text
    rel = path.relative_to(ROOT)
    found, seen = [], set()

    def check(target: str, anchor: str | None, what: str) -> None:
        if "{" in target or "*" in target or (target, anchor) in seen:  # a template, a glob
            return
        seen.add((target, anchor))
        where = path if not target else _resolve(path, target)
        if where is None:
            found.append(f"{rel}: {what} {target!r} is not in the repository")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            found.append(f"{rel}: {what} {target}#{anchor}: no such section in "
                         f"{where.relative_to(ROOT)}")

    if path.suffix in (".md", ".ipynb"):
        for target in MD_LINK.findall(text):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto: ...
                continue
            file, _, anchor = target.partition("#")
            check(file, anchor or None, "link")
    for m in MD_FILE.finditer(text):
        check(m.group(1), (m.group(2) or "#")[1:] or None, "document")
    for m in DOCS_PATH.finditer(text):
        check(m.group(1).rstrip("."), (m.group(2) or "#")[1:] or None, "path")
    return found


def test_files_found():
    names = {p.relative_to(ROOT).as_posix() for p in FILES}
    assert {"README.md", "docs/mathematics.md", "explorer/perceptron/bounds.py"} <= names
    assert any(n.endswith(".ipynb") for n in names)


@pytest.mark.parametrize("path", [p for p in FILES if p != pathlib.Path(__file__).resolve()],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_cited_documents_are_in_the_repository(path):
    problems = _problems(path)
    assert not problems, "\n".join(problems)


def test_the_scan_finds_what_it_should():
    """The checks themselves: a missing file, a file outside the repository, a missing anchor."""
    probe = ROOT / "docs" / "probe.md"  # never written: the text is passed in
    text = ("See [the notes](../../shared/NOTES.md), REFERENCE" ".md, [gone](gone.md) and\n"
            "docs/mathematics.md#no-such-section, docs/no-such-dir/x.png; but "
            "docs/mathematics.md#mistake-bounds is fine, and so are [the README](../README.md), "
            "[a section](mathematics.md#support-path) and docs/screenshots/{key}.\n")
    problems = "\n".join(_problems(probe, text))
    assert "link '../../shared/NOTES.md' is not in the repository" in problems
    assert "'REFERENCE" ".md' is not in the repository" in problems
    assert "link 'gone.md' is not" in problems
    assert "docs/mathematics.md#no-such-section: no such section" in problems
    assert "'docs/no-such-dir/x.png' is not" in problems
    assert len(problems.splitlines()) == 5, problems  # each citation once


def test_headings_give_github_anchors():
    assert slug("Koski worked example") == "koski-worked-example"
    assert slug("Example 61.2") == "example-612"
    assert slug("Soft-margin SVM by SGD") == "soft-margin-svm-by-sgd"
    assert slug("Cover's counting theorem") == "covers-counting-theorem"
    assert {"mistake-bounds", "novikoff-bound", "support-path"} <= anchors(MATHS)
