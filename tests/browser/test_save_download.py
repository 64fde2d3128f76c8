"""End-to-end: Save state and Save playlist download their JSON file at once (issue 30, item 10).

Before, Save state added a "⬇ perceptron-state.json" link to the top bar, to click, and the
bar reflowed. Now the page downloads the file as the browser downloads any file (a Blob and a
temporary link, nothing from the network), and the top bar keeps its height and its parts.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from _voila import wait_for_canvas, wait_for_text, wait_until_quiet

pytestmark = pytest.mark.browser

LINK = "tab=perceptron&dataset=separable&seed=3&step=7"


def settled(page, quiet_ms: int = 1000, timeout_ms: int = 20_000) -> None:
    """Wait until the top bar and the figure have not changed size for ``quiet_ms``."""
    js = """() => [...document.querySelectorAll('.pe-topbar, .pe-pagefigure')]
      .filter(e => e.offsetParent !== null)
      .map(e => { const b = e.getBoundingClientRect(); return [b.width, b.height].join('x'); })
      .join(' ')"""
    wait_until_quiet(page, js, quiet_ms=quiet_ms, timeout_ms=timeout_ms, what="the page's size")


def top_bar(page) -> dict:
    """The top bar's box and what it shows (its visible parts' texts)."""
    bar = page.locator(".pe-topbar")
    return {"box": bar.bounding_box(),
            "parts": bar.evaluate("(b) => [...b.children].filter(c => c.offsetParent !== null)"
                                  ".map(c => c.innerText.trim())")}


@pytest.mark.parametrize("size", [(1024, 768), (1366, 768), (1920, 1080)])
def test_save_state_downloads_the_json_at_once_and_the_top_bar_stays(page, dashboard_url, size):
    from explorer.app.dashboard import tab_spec

    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{dashboard_url}?{LINK}")
    wait_for_canvas(page, timeout=90)
    wait_for_text(page, "pe-where", lambda t: t.startswith("step 7 of"), timeout=30)
    page.wait_for_timeout(2000)  # the page fits its figure 0.5 s and 2 s after opening
    settled(page)
    before = top_bar(page)
    for attempt in range(2):  # a second save downloads again (no "multiple downloads" block)
        with page.expect_download(timeout=15_000) as info:
            page.locator(".pe-topbar button", has_text="Save state").click()
        download = info.value
        assert download.suggested_filename == "perceptron-state.json"
        assert download.failure() is None
        text = Path(download.path()).read_text(encoding="utf-8")
        saved = json.loads(text)
        values, problems = tab_spec("perceptron").from_json(text.encode("utf-8"))
        assert problems == [], problems
        assert (values["dataset"], values["seed"], values["step"]) == ("separable", 3, 7)
        assert saved["state"]["step"] == 7
        page.wait_for_timeout(700)  # what a link in the bar would have done, it has done now
        assert top_bar(page) == before, attempt
    assert page.locator(".pe-topbar a").count() == 0
    assert not re.search("⬇", page.locator(".pe-root").inner_text())

    # the file opens the same state again (Load state), from another step
    page.keyboard.press("Home")
    wait_for_text(page, "pe-where", lambda t: t.startswith("step 0 of"))
    # the kernel learns the step (or loading step 7 changes nothing): its link drops "step="
    page.wait_for_function("() => !/[?&]step=/.test(location.search)", timeout=30_000)
    with page.expect_file_chooser() as chooser:
        page.locator(".pe-topbar button", has_text="Load state").click()
    chooser.value.set_files(download.path())
    wait_for_text(page, "pe-where", lambda t: t.startswith("step 7 of"), timeout=30)


def test_save_playlist_downloads_the_json_at_once(page, dashboard_url):
    from explorer.app.dashboard import tab_spec
    from explorer.app.playlist import Playlist
    from explorer.app.playlist_ui import course_text

    page.goto(dashboard_url)
    wait_for_canvas(page, timeout=90)
    page.locator(".pe-playlist-toggle").click()
    page.locator(".pe-pl-graduation-cap").click()  # Example lecture
    wait_for_text(page, "pe-playlist-where", "slide 1 of 10", timeout=60)
    with page.expect_download(timeout=15_000) as info:
        page.locator(".pe-pl-download").click()  # Save playlist
    download = info.value
    assert download.suggested_filename == "playlist.json"
    text = Path(download.path()).read_text(encoding="utf-8")
    got, course = Playlist(spec_of=tab_spec), Playlist(spec_of=tab_spec)
    assert got.load_json(text) == [] and course.load_json(course_text()) == []
    assert got.entries == course.entries
    assert page.locator(".pe-playlist a[download]").count() == 0
