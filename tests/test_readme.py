"""The README shows what it says: every picture it embeds exists (made by ``make screenshots``),
every tab of the dashboard has one, and every notebook it lists is there."""

from __future__ import annotations

import pathlib
import re

from explorer.app.dashboard import TABS

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def test_every_picture_exists_and_is_a_png():
    pictures = re.findall(r"!\[[^\]]*\]\((docs/[^)\s]+)\)", README)
    assert pictures, "the README shows no picture"
    for rel in pictures:
        path = ROOT / rel
        assert path.is_file(), f"{rel} is missing: run make screenshots"
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", rel


def test_every_tab_has_a_picture():
    for key, _, _ in TABS:
        assert f"docs/screenshots/{key}" in README, f"no screenshot of the {key} tab"


def test_the_notebooks_listed_exist_in_order():
    listed = re.findall(r"`notebooks/(\d\d_[a-z_]+\.ipynb)`", README)
    assert listed == sorted(listed) and len(listed) >= 5, listed
    for name in listed:
        assert (ROOT / "notebooks" / name).is_file(), name
