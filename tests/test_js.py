"""The page's JavaScript: its unit tests (tests/js/*.test.mjs), run with Node's own test runner
(``node --test``; no build step, no packages), and every module of explorer/app/static parsed by
``node --check`` (as the ES module it is: static/package.json says so). Without Node.js they are
skipped, except in CI (CI=true), where that is a failure (.ci/run installs Node.js)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from explorer.app.pagefigure import STATIC

JS_TESTS = Path(__file__).parent / "js"
ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="module")
def node() -> str:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI", "").strip().lower() in ("1", "true", "yes"):
            pytest.fail("node not found (CI=true: the JavaScript tests must run in CI)")
        pytest.skip("node not found: apt-get install nodejs")
    return node


def test_the_pages_javascript_passes_its_node_tests(node):
    files = sorted(JS_TESTS.glob("*.test.mjs"))
    assert files, f"no JavaScript tests in {JS_TESTS}"
    out = subprocess.run([node, "--test", *map(str, files)], capture_output=True, text=True,
                         timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-2000:]
    assert "# fail 0" in out.stdout and "# pass 0" not in out.stdout, out.stdout[-2000:]
    # every test file ran (a file that fails to load counts as one failed test, not as none)
    assert f"# tests {out.stdout.count(chr(10) + 'ok ')}" in out.stdout, out.stdout[-2000:]


@pytest.mark.parametrize("name", sorted(p.name for p in STATIC.glob("*.js")))
def test_every_module_of_the_page_parses(node, name):
    out = subprocess.run([node, "--check", str(STATIC / name)], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr[-3000:]


def test_node_reads_the_pages_files_as_es_modules(node, tmp_path):
    """Without static/package.json ("type": "module") Node would read them as CommonJS, and
    the check above would refuse every ``export``."""
    bad = tmp_path / "package.json"
    bad.write_text('{"type": "commonjs"}')
    copy = tmp_path / "keys.js"
    copy.write_text((STATIC / "keys.js").read_text())
    assert subprocess.run([node, "--check", str(copy)], capture_output=True).returncode != 0
    broken = tmp_path / "esm" / "broken.js"
    broken.parent.mkdir()
    (broken.parent / "package.json").write_text((STATIC / "package.json").read_text())
    broken.write_text("export function f( {\n")
    assert subprocess.run([node, "--check", str(broken)], capture_output=True).returncode != 0
