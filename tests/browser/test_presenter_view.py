"""End-to-end: speaker notes and the presenter view (issue 33, item 2). Notes typed for a slide
show in the presenter view, a window of its own, with the slide, the clock and the next slide;
the next slide's key on the dashboard moves the view along, with the next slide's picture;
lecture mode (the projected screen) shows no notes, and the page never shows the picture. The
kernel's side: tests/test_playlist_app.py, tests/test_preview.py; the window's logic:
tests/js/presenter.test.mjs."""

from __future__ import annotations

import re

import pytest
from _voila import wait_for_canvas

pytestmark = pytest.mark.browser

NOTES = "Ask the room first: how many updates?\nThen press Step."


def test_notes_show_only_in_the_presenter_view_which_follows_the_slides(page, dashboard_url):
    page.goto(dashboard_url + "?tab=perceptron")
    wait_for_canvas(page, timeout=90)
    page.locator(".pe-playlist-toggle").click()
    page.locator(".pe-playlist button", has_text="Example lecture").click()
    page.locator(".pe-playlist-where", has_text="slide 1 of 10").wait_for()
    box = page.locator(".pe-playlist-notes textarea")
    box.fill(NOTES)
    page.locator(".pe-playlist-where").click()  # the box applies its text when it loses focus
    with page.expect_popup() as opened:
        page.locator(".pe-playlist button", has_text="Presenter view").click()
    view = opened.value
    view.locator(".pe-pv-notes").wait_for()
    assert view.locator(".pe-pv-notes").inner_text() == NOTES
    assert view.locator(".pe-pv-where").inner_text() == "Slide 1 of 10"
    first = view.locator(".pe-pv-title").inner_text()
    assert first and view.locator(".pe-pv-next-title").inner_text()
    assert re.fullmatch(r"\d+:\d\d", view.locator(".pe-pv-clock").inner_text())
    assert NOTES.splitlines()[0] not in view.locator(".pe-pv-next").inner_text()
    # the next slide's picture, drawn by the kernel: in the presenter view only
    picture = view.locator("img.pe-pv-next-image")
    picture.wait_for(state="visible", timeout=90_000)
    src = picture.get_attribute("src")
    assert src.startswith("data:image/png;base64,")
    view.wait_for_function("() => document.querySelector('img.pe-pv-next-image').naturalWidth "
                           "=== 480")
    assert page.locator(".pe-pv-next-image").count() == 0
    assert src[22:2000] not in page.content() and src[22:2000] not in page.url

    page.bring_to_front()
    page.locator(".pe-playlist-where").click()  # the focus on the page, on no control
    page.keyboard.press("n")
    view.locator(".pe-pv-where", has_text="Slide 2 of 10").wait_for(timeout=30_000)
    assert view.locator(".pe-pv-title").inner_text() != first
    assert view.locator(".pe-pv-notes").inner_text() == ""  # slide 2 has none
    view.wait_for_function("(old) => { const i = document.querySelector('img.pe-pv-next-image');"
                           " return !i.hidden && i.getAttribute('src') && "
                           "i.getAttribute('src') !== old; }", arg=src, timeout=90_000)
    page.keyboard.press("p")
    view.locator(".pe-pv-where", has_text="Slide 1 of 10").wait_for(timeout=30_000)
    assert view.locator(".pe-pv-notes").inner_text() == NOTES

    page.keyboard.press("l")  # lecture mode: the projected screen shows no notes
    page.wait_for_function("() => document.querySelector('.pe-root.pe-lecture') !== null")
    # (the root's class and the playlist's rows are updates of their own: wait for the box)
    box.wait_for(state="hidden", timeout=30_000)
    assert NOTES.splitlines()[0] not in page.locator(".pe-root").inner_text()
    view.wait_for_timeout(1200)  # the clock runs in the page, with no kernel
    assert re.fullmatch(r"\d+:\d\d", view.locator(".pe-pv-clock").inner_text())
    assert "Traceback" not in page.content()
