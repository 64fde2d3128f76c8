"""The page's JavaScript unit tests (tests/js/*.test.mjs), run with Node's own test runner
(``node --test``; no build step, no packages). Without Node.js they are skipped, except in CI
(CI=true), where that is a failure (.ci/run installs Node.js)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

JS_TESTS = Path(__file__).parent / "js"


def test_the_pages_javascript_passes_its_node_tests():
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI", "").strip().lower() in ("1", "true", "yes"):
            pytest.fail("node not found (CI=true: the JavaScript tests must run in CI)")
        pytest.skip("node not found: apt-get install nodejs")
    files = sorted(JS_TESTS.glob("*.test.mjs"))
    assert files, f"no JavaScript tests in {JS_TESTS}"
    out = subprocess.run([node, "--test", *map(str, files)], capture_output=True, text=True,
                         timeout=120, cwd=JS_TESTS.parent.parent)
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-2000:]
    assert "# fail 0" in out.stdout and "# pass 0" not in out.stdout, out.stdout[-2000:]
