"""The test tiers (README, "Tests"): ``make check`` runs every test that is not marked browser,
server, notebook or soak, on every core; the rest run two test files at a time in ``make test``. The
declaration in tests/tiers.py must stay true: a test module that starts a server process,
builds an environment or executes a notebook is declared there, and every declared module
exists (a renamed file would otherwise fall into the fast tier unnoticed)."""

from __future__ import annotations

import ast
import pathlib
import re

from tiers import NOTEBOOK_MODULES, SERVER_MODULES

TESTS = pathlib.Path(__file__).parent
ROOT = TESTS.parent

#: What puts a module in a tier, read from its code: (tier, names called or imported).
SIGNS = {
    "server": {"Popen", "create_subprocess_exec"},  # a process that lives beside the test
    "notebook": {"NotebookClient", "ExecutePreprocessor", "execute_notebook"},
}


def _names(tree: ast.AST) -> set[str]:
    """Every attribute, name and imported name used in ``tree``."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.ImportFrom):
            out.update(a.name for a in node.names)
    return out


def _signs(path: pathlib.Path) -> set[str]:
    used = _names(ast.parse(path.read_text(), filename=str(path)))
    return {tier for tier, names in SIGNS.items() if used & names}


def test_every_module_that_starts_a_server_or_runs_a_notebook_is_declared():
    declared = {"server": SERVER_MODULES, "notebook": NOTEBOOK_MODULES}
    missing = [(p.stem, tier) for p in sorted(TESTS.glob("test_*.py"))
               for tier in _signs(p) if p.stem not in declared[tier]]
    assert not missing, f"declare these in tests/tiers.py: {missing}"


def test_every_declared_module_exists():
    for name in SERVER_MODULES | NOTEBOOK_MODULES:
        assert (TESTS / f"{name}.py").is_file(), name


def test_the_signs_are_read():
    """The reader finds a Popen call and a notebook client (so the check above can fail)."""
    tree = ast.parse("import subprocess\nfrom nbclient import NotebookClient\n"
                     "p = subprocess.Popen(['x'])\n")
    assert {t for t, n in SIGNS.items() if _names(tree) & n} == {"server", "notebook"}


def test_make_check_and_make_test_select_the_tiers():
    """``make check`` deselects exactly the markers of the slower tier, and ``make test``
    runs that tier after it: together every test but the soak runs."""
    make = (ROOT / "Makefile").read_text()
    unit = re.search(r"^UNIT := (.+)$", make, re.M).group(1)
    assert unit == "not browser and not server and not notebook and not soak"
    assert re.search(r"^check: .*\n(\t.*\n)*\t.*pytest -m \"\$\(UNIT\)\" -n \$\(JOBS\)", make, re.M)
    rest = re.search(r"^test: check\n\t.*pytest -m \"(.+?)\" -n \$\(SERVER_JOBS\) \\\n"
                     r"\t+--dist loadfile", make, re.M).group(1)
    assert rest == "(browser or server or notebook) and not soak"
    markers = "\n".join(ROOT.joinpath("pyproject.toml").read_text().splitlines())
    for name in ("browser", "server", "notebook", "soak"):
        assert f'"{name}: ' in markers, name


def test_no_two_test_modules_share_a_name():
    """pytest imports test modules by their file's name (its default "prepend" mode, the
    folders on ``sys.path``): a second ``test_x.py`` in another folder is refused at collection
    ("import file mismatch") in whichever tier meets both, as CI found once."""
    names: dict[str, list[str]] = {}
    for path in TESTS.rglob("test_*.py"):
        names.setdefault(path.name, []).append(str(path.relative_to(TESTS)))
    assert {k: v for k, v in names.items() if len(v) > 1} == {}
