"""End-to-end: a lecture's playlist in Chromium. Two slides are added from the Playlist group
(Koski's example at step 0 in the Perceptron tab, the XOR tab at step 3), then the keys p and n
step between them: each opens its tab at the step saved (explorer/app/playlist_ui.py)."""

from __future__ import annotations

import re

import pytest
from _voila import press_keys, wait_for_canvas, wait_for_text
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

STATUS = "pe-where:visible"  # "… step k of N …" beside the transport of the tab on screen
SLIDE = "pe-playlist-where"
TITLE = "Title of the next slide (optional)"


def at_step(k: int):
    """Whether a status line ("step 3 of 12 · …", "Cycling · XOR · step 3 of 24") shows step k."""
    return lambda text: (m := re.search(r"\bstep (\d+) of", text)) is not None and int(m[1]) == k


def selected_tab(page) -> str:
    return page.locator(".pe-root [role='tab'][aria-selected='true']").inner_text().strip()


def add_slide(page, title: str) -> None:
    page.get_by_placeholder(TITLE).fill(title)
    page.locator(".pe-pl-plus").click()  # Add slide
    wait_for_text(page, "pe-playlist-out", lambda t: f": {title}." in t)
    page.locator(".pe-brand").click()  # the keys are the page's again, not the title box's


def test_two_slides_step_with_the_keys(page, dashboard_url):
    page.goto(dashboard_url)
    wait_for_canvas(page, within=".pe-pagefigure:visible", timeout=90)
    wait_for_text(page, STATUS, at_step(0), timeout=30)
    page.locator(".pe-playlist-toggle").click()
    wait_for_text(page, SLIDE, "no slides yet")
    add_slide(page, "Koski at step 0")
    wait_for_text(page, SLIDE, "slide 1 of 1")

    page.get_by_role("tab", name="XOR").click()
    wait_for_text(page, STATUS, at_step(0), timeout=60)
    page.wait_for_timeout(1000)  # the page fits the new figure first
    press_keys(page, "ArrowRight", "ArrowRight", "ArrowRight")
    wait_for_text(page, STATUS, at_step(3), timeout=20)
    # the kernel learns the settled step (a slide is what the kernel holds): it writes the link
    page.wait_for_function("() => /[?&]tab=xor(&|$)/.test(location.search)"
                           " && /[?&]step=3(&|$)/.test(location.search)", timeout=30_000)
    add_slide(page, "XOR at step 3")
    wait_for_text(page, SLIDE, "slide 2 of 2")
    expect(page.locator(".pe-pl-chevron-right")).to_be_disabled()  # Next: the last slide

    press_keys(page, "p")
    wait_for_text(page, SLIDE, "slide 1 of 2")
    wait_for_text(page, STATUS, at_step(0), timeout=30)
    assert selected_tab(page) == "Perceptron"
    press_keys(page, "ArrowRight")  # the step keys still step the run on screen
    wait_for_text(page, STATUS, at_step(1), timeout=20)

    press_keys(page, "n")
    wait_for_text(page, SLIDE, "slide 2 of 2")
    wait_for_text(page, STATUS, at_step(3), timeout=30)
    assert selected_tab(page) == "XOR"
    press_keys(page, "p")  # back to the first slide: as saved, not as left
    wait_for_text(page, STATUS, at_step(0), timeout=30)
    assert selected_tab(page) == "Perceptron"


def test_a_playlist_link_opens_its_slide(page, dashboard_url):
    from explorer.app.dashboard import tab_spec
    from explorer.app.playlist import Playlist
    from explorer.app.playlist_ui import course_text

    lecture = Playlist(spec_of=tab_spec)
    assert lecture.load_json(course_text()) == []
    lecture.go(8)  # XOR cycling at step 8
    page.goto(dashboard_url + "?" + lecture.to_link())
    wait_for_text(page, SLIDE, "slide 9 of 10", timeout=90)
    wait_for_text(page, STATUS, at_step(8), timeout=60)
    assert selected_tab(page) == "XOR"
    press_keys(page, "p")  # the slide before: Cover's curves
    wait_for_text(page, SLIDE, "slide 8 of 10", timeout=30)
    assert selected_tab(page) == "Cover"


def test_the_example_lecture_in_lecture_mode_moves_to_every_slide_without_a_refusal(page, dashboard_url):
    """Issue 30, item 7: in lecture mode, n from slide 9 to slide 10 said "Not applied: the
    simulation is already running; Stop it first". Every slide opens without a message, the
    keys work right after the click on Example lecture, and leaving slide 10 stops its
    simulation (the slide before started nothing that refuses the next)."""
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(dashboard_url)
    wait_for_canvas(page, within=".pe-pagefigure:visible", timeout=90)
    wait_for_text(page, STATUS, at_step(0), timeout=30)
    page.locator(".pe-playlist-toggle").click()
    page.locator(".pe-pl-graduation-cap").click()  # Example lecture: the button keeps the focus
    wait_for_text(page, SLIDE, "slide 1 of 10", timeout=30)
    press_keys(page, "l")
    page.wait_for_function("() => document.querySelector('.pe-root.pe-lecture')")
    refusals = ".pe-message:visible"
    for k in range(2, 11):
        press_keys(page, "n")
        wait_for_text(page, SLIDE, f"slide {k} of 10", timeout=90)
    assert selected_tab(page) == "Generalization"
    wait_for_text(page, "pe-sim-note:visible", lambda t: t.startswith("Simulating"), timeout=60)
    page.wait_for_timeout(3000)  # the refusal came about a second after the slide
    shown = [t for t in page.locator(refusals).all_inner_texts() if t.strip()]
    assert shown == [], shown
    press_keys(page, "p")  # back to XOR: the simulation stops, the sizes it finished stay
    wait_for_text(page, SLIDE, "slide 9 of 10", timeout=60)
    press_keys(page, "n")
    wait_for_text(page, SLIDE, "slide 10 of 10", timeout=60)
    # the sizes left run on, or none is left: the whole simulation can take less than the time
    # the slide was away (a quiet machine; or a loaded one, where the key came late)
    wait_for_text(page, "pe-sim-note:visible",
                  lambda t: t.startswith(("Simulating", "Every size is done")), timeout=60)
    page.wait_for_timeout(2000)
    shown = [t for t in page.locator(refusals).all_inner_texts() if t.strip()]
    assert shown == [], shown
