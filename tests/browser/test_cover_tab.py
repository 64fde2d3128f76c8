"""End-to-end: the Cover tab in Chromium, opened by a link; changing M redraws the curves, and a
running Monte Carlo leaves the kernel free to step the Perceptron tab. The page draws the figure
(issue 21): its narration is the page figure's; a click on the plane places a point the page
draws, a dichotomy chosen moves only the tile's outline, and the recursion steps in the page."""

from __future__ import annotations

import time

import pytest
from _voila import (
    SHOWN_CANVAS_SIGNATURE,
    canvas_signature,
    click_button,
    wait_for_canvas,
    wait_for_canvas_change,
    wait_for_step,
    wait_until_quiet,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

VISIBLE = ".pe-view:visible"


def _narration(page, where: str = ".pe-pf-narration") -> str:
    """The visible tab's narration: the page-drawn figure's line (``.pe-pf-narration``)."""
    return page.locator(f"{VISIBLE} {where}").inner_text()


def _wait(page, predicate, timeout=30.0, where: str = ".pe-pf-narration") -> str:
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
    _wait(page, lambda t: "capacity" in t and "P(1000, " in t)
    page.wait_for_timeout(2500)  # the page fits the figure to the window first
    before = canvas_signature(page, within=VISIBLE)
    box = page.get_by_role("textbox", name="M values")
    box.fill("1, 3, 50, 1000")
    box.press("Enter")
    _wait(page, lambda t: "P(50, " in t)
    wait_for_canvas_change(page, before, within=VISIBLE, timeout=20)
    box.fill("1, 2000")
    box.press("Enter")
    alert = page.locator(f"{VISIBLE} .pe-message")
    alert.wait_for(state="visible", timeout=10_000)
    expect(alert).to_contain_text("out of range", timeout=10_000)

    # a long Monte Carlo run (M = 1, 3, 50 at 2000 trials per point) in the background
    click_button(page, "Run Monte Carlo", within=VISIBLE)
    page.locator(f"{VISIBLE} .pe-help:has-text('2000 trials, seed 1')").wait_for(timeout=15_000)
    page.get_by_role("tab", name="Perceptron").click()
    wait_for_canvas(page, within=VISIBLE, timeout=60)
    # the tab is made at the window's size: step 0 drawn (its narration written) and still
    wait_for_step(page, 0)
    wait_until_quiet(page, SHOWN_CANVAS_SIGNATURE, quiet_ms=1000, what="the Perceptron tab's figure")
    shot = canvas_signature(page, within=VISIBLE)
    link = page.evaluate("() => window.location.search")
    t0 = time.monotonic()
    click_button(page, "Step ▶", within=VISIBLE)
    wait_for_canvas_change(page, shot, within=VISIBLE, timeout=15)
    # the page drew and narrated the step; the kernel hears it once settled and writes the
    # link at that step: not blocked by the Monte Carlo run
    wait_for_step(page, 1, timeout=15)
    page.wait_for_function(f"() => window.location.search !== {link!r} && "
                           "window.location.search.includes('step=')", timeout=15_000)
    assert time.monotonic() - t0 < 15
    page.get_by_role("tab", name="Cover").click()
    stop = page.get_by_role("button", name="Stop", exact=True).locator("visible=true")
    expect(stop).to_be_enabled()  # still running after the step elsewhere
    click_button(page, "Stop", within=VISIBLE)
    page.locator(f"{VISIBLE} .pe-help:has-text('Stopped after')").wait_for(timeout=20_000)


FIG = f"{VISIBLE} .pe-pagefigure"
#: The same in the page's own JavaScript (querySelector knows no :visible).
SHOWN = "[...document.querySelectorAll('.pe-pagefigure')].find(e => e.offsetParent !== null)"


def _drawn(page, track):
    """The track as the page drew it last (its vertices in CSS px, whether drawn, its text)."""
    return next(d for d in page.locator(FIG).evaluate("e => e.peDisplayList")
                if d["track"] == track)


def test_cover_tab_points_tiles_and_recursion_in_the_page(page, dashboard_url):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(dashboard_url + "?tab=cover&view=dichotomies&n_points=4&seed=2")
    wait_for_canvas(page, within=VISIBLE, timeout=90)
    _wait(page, lambda t: "4 points in general position" in t)
    page.wait_for_timeout(2500)  # the page fits the figure to the window first
    # a click on the plane places a fifth point, which the page draws with its number
    plane = next(p for p in page.locator(FIG).evaluate("e => e.peDisplayList")
                 if p["track"] == "plane_points")
    assert len(plane["px"]) == 4
    box = page.locator(f"{FIG} canvas.pe-canvas").bounding_box()
    x0 = sum(p[0] for p in plane["px"]) / 4  # inside the plane: among the points
    y0 = sum(p[1] for p in plane["px"]) / 4
    page.mouse.click(box["x"] + x0 + 7, box["y"] + y0 + 11)
    _wait(page, lambda t: "5 points in general position" in t)
    page.wait_for_function(f"""() => {SHOWN}.peDisplayList
        .find(d => d.track === 'plane_points').px.length === 5""", timeout=20_000)
    assert _drawn(page, "plane_number_4")["text"] == "5"
    # a dichotomy chosen from the menu: its tile outlined, every other track still drawn
    before = _drawn(page, "tiles_selected")
    drawn = {d["track"] for d in page.locator(FIG).evaluate("e => e.peDisplayList")
             if d["visible"]}
    menu = page.locator(f"{VISIBLE} .widget-dropdown:has(label:text-is('dichotomy')) select")
    menu.select_option(index=7)
    page.wait_for_function(f"""(old) => {{
        const d = {SHOWN}.peDisplayList.find(t => t.track === 'tiles_selected');
        return d.visible && JSON.stringify(d.px) !== JSON.stringify(old);
    }}""", arg=before["px"], timeout=20_000)
    now = {d["track"] for d in page.locator(FIG).evaluate("e => e.peDisplayList")
           if d["visible"]}
    assert drawn - {"tiles_selected"} <= now
    # the recursion steps in the page; the kernel hears the settled step (the link)
    page.get_by_role("button", name="Recursion").click()
    _wait(page, lambda t: t.startswith("The edges are filled"))
    link = page.evaluate("() => window.location.search")
    click_button(page, "Step ▶", within=VISIBLE)
    _wait(page, lambda t: t.startswith("S(1, 2) = S(1, 1) + S(0, 1) = 2 + 2 = 4"), timeout=10)
    expect(page.locator(f"{FIG} .pe-where")).to_contain_text("1 of 36 cells filled")
    page.wait_for_function(f"() => window.location.search !== {link!r} && "
                           "window.location.search.includes('step=1')", timeout=15_000)
