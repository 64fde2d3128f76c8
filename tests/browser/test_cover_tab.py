"""End-to-end: the Cover tab in Chromium, opened by a link; changing M redraws the curves, and a
running Monte Carlo leaves the kernel free to step the Perceptron tab."""

from __future__ import annotations

import time

import pytest
from _voila import canvas_signature, click_button, wait_for_canvas, wait_for_canvas_change

pytestmark = pytest.mark.browser

VISIBLE = ".pe-view:visible"


def _narration(page, where: str = ".pe-narration") -> str:
    """The visible tab's narration: the Cover tab's message area (``.pe-narration``), or the
    page-drawn figure's line (``.pe-pf-narration``, the Perceptron tab)."""
    return page.locator(f"{VISIBLE} {where}").inner_text()


def _wait(page, predicate, timeout=30.0, where: str = ".pe-narration") -> str:
    deadline = time.monotonic() + timeout
    while True:
        text = _narration(page, where)
        if predicate(text):
            return text
        if time.monotonic() > deadline:
            raise AssertionError(f"narration is {text!r} after {timeout} s")
        page.wait_for_timeout(50)


def test_cover_tab_follows_m_and_monte_carlo_does_not_block(page, dashboard_url):
    page.goto(dashboard_url + "?tab=cover&ms=1,2,1000&trials=2000&seed=1")
    wait_for_canvas(page, within=VISIBLE, timeout=90)
    _wait(page, lambda t: "capacity" in t and "(M = 1000)" in t)
    page.wait_for_timeout(2500)  # the page fits the figure to the window first
    before = canvas_signature(page, within=VISIBLE)
    box = page.get_by_role("textbox", name="M values")
    box.fill("1, 3, 50, 1000")
    box.press("Enter")
    _wait(page, lambda t: "(M = 50)" in t)
    wait_for_canvas_change(page, before, within=VISIBLE, timeout=20)
    box.fill("1, 2000")
    box.press("Enter")
    alert = page.locator(f"{VISIBLE} .pe-message")
    alert.wait_for(state="visible", timeout=10_000)
    assert "out of range" in alert.inner_text()

    # a long Monte Carlo run (M = 1, 3, 50 at 2000 trials per point) in the background
    click_button(page, "Run Monte Carlo", within=VISIBLE)
    page.locator(f"{VISIBLE} .pe-help:has-text('2000 trials, seed 1')").wait_for(timeout=15_000)
    page.get_by_role("tab", name="Perceptron").click()
    wait_for_canvas(page, within=VISIBLE, timeout=60)
    page.wait_for_timeout(1500)
    step_before = _narration(page, ".pe-pf-narration")
    shot = canvas_signature(page, within=VISIBLE)
    link = page.evaluate("() => window.location.search")
    t0 = time.monotonic()
    click_button(page, "Step ▶", within=VISIBLE)
    wait_for_canvas_change(page, shot, within=VISIBLE, timeout=15)
    # the page drew and narrated the step; the kernel hears it once settled and writes the
    # link at that step: not blocked by the Monte Carlo run
    _wait(page, lambda t: t != step_before, timeout=15, where=".pe-pf-narration")
    page.wait_for_function(f"() => window.location.search !== {link!r} && "
                           "window.location.search.includes('step=')", timeout=15_000)
    assert time.monotonic() - t0 < 15
    page.get_by_role("tab", name="Cover").click()
    stop = page.get_by_role("button", name="Stop", exact=True).locator("visible=true")
    assert stop.is_enabled()  # still running after the step elsewhere
    click_button(page, "Stop", within=VISIBLE)
    page.locator(f"{VISIBLE} .pe-help:has-text('Stopped after')").wait_for(timeout=20_000)
