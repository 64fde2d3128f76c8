"""The kinds of moving part and their style keys: Python's table (explorer.plots.scene.KIND_STYLES)
and the page's (``KINDS`` of explorer/app/static/kinds.js, each kind's ``style``) agree. The
JavaScript is read by Node itself (tests/js/kinds_json.mjs prints the modules' table as JSON),
not by patterns over its text. tests/js/style.test.mjs checks that each kind paints with exactly
the keys it declares."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from explorer.plots.scene import KIND_STYLES, KINDS, STYLE_KEYS, Track

ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="module")
def page_kinds() -> dict:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI", "").strip().lower() in ("1", "true", "yes"):
            pytest.fail("node not found (CI=true: the JavaScript must be checked in CI)")
        pytest.skip("node not found: apt-get install nodejs")
    out = subprocess.run([node, "tests/js/kinds_json.mjs"], capture_output=True, text=True,
                         timeout=60, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


def test_python_and_the_page_know_the_same_kinds_of_moving_part(page_kinds):
    assert list(page_kinds["kinds"]) == list(KINDS)


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_has_the_same_style_keys_in_python_and_on_the_page(page_kinds, kind):
    assert sorted(page_kinds["kinds"][kind]) == sorted(KIND_STYLES[kind])


def test_the_style_keys_a_track_may_set_are_the_pages(page_kinds):
    assert sorted(page_kinds["style_keys"]) == sorted(STYLE_KEYS)
    assert len(set(STYLE_KEYS)) == len(STYLE_KEYS)


def test_a_track_takes_the_declared_kinds_and_style_keys_only():
    for kind, keys in KIND_STYLES.items():
        Track("t", "plane", kind, style=dict.fromkeys(keys, 1))
    with pytest.raises(ValueError, match="track kind must be one of"):
        Track("t", "plane", "spiral")
    with pytest.raises(ValueError, match=r"unknown style keys \['glow'\]"):
        Track("t", "plane", "points", style={"glow": 1})


def test_matplotlib_has_a_way_to_apply_every_kind():
    """Each kind declared in explorer/plots/scene.py has its applier in page_figure.APPLIERS (a
    figure's own, for the kinds matplotlib draws otherwise): a new kind without one fails here,
    not when an export first meets it."""
    from explorer.plots.page_figure import APPLIERS

    assert sorted(APPLIERS) == sorted(KINDS)
