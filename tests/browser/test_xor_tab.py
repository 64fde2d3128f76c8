"""End-to-end: the XOR tab in Chromium, opened by a link; stepping plays the cycling run until
the narration reports the cycle, and the Kernel view redraws the figure."""

from __future__ import annotations

import pytest
from _voila import (
    canvas_locator,
    canvas_signature,
    click_button,
    wait_for_canvas,
    wait_for_canvas_change,
    wait_for_text,
)

pytestmark = pytest.mark.browser


def test_xor_tab_plays_to_the_cycle(page, dashboard_url):
    page.goto(dashboard_url + "?tab=xor&step=3")
    wait_for_canvas(page, timeout=90)
    wait_for_text(page, "pe-narration", lambda t: t.startswith("Step 3"), timeout=30)
    page.wait_for_timeout(2500)  # the page fits the figure to the window first
    before = canvas_signature(page)
    click_button(page, "Step ▶")
    note = wait_for_text(page, "pe-narration", lambda t: "cycle of length 4 found at step 4" in t)
    wait_for_canvas_change(page, before, timeout=20)
    before = canvas_signature(page)
    click_button(page, "Kernel")
    wait_for_text(page, "pe-narration", lambda t: "Kernel perceptron" in t)
    wait_for_canvas_change(page, before, timeout=20)
    assert canvas_locator(page).is_visible(), note


def test_xor_tab_exports_its_figure_and_its_cycle(page, dashboard_url):
    """The Export section of a tab other than Perceptron: PNG at once, then the cycling run as
    a GIF made in the background, each a download named after the tab and its state."""
    page.goto(dashboard_url + "?tab=xor&step=5")
    wait_for_canvas(page, timeout=90)
    wait_for_text(page, "pe-narration", lambda t: t.startswith("Step 5"), timeout=30)
    panel = page.locator(".pe-export:visible")
    assert "25 frames, step 0 to 24, every one" in panel.inner_text()
    panel.get_by_role("button", name="PNG", exact=True).click()
    link = panel.locator(".pe-export-link a")
    link.wait_for(timeout=30_000)
    assert link.get_attribute("download") == "xor-cycling-xor-pm1-step5.png"
    with page.expect_download(timeout=30_000) as got:
        link.click()
    assert got.value.suggested_filename == "xor-cycling-xor-pm1-step5.png"
    panel.get_by_role("button", name="GIF", exact=True).click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.pe-export:not([hidden]) .pe-export-status')]"
        ".some(s => s.innerText.includes('GIF ready.'))", timeout=60_000)
    link.wait_for(timeout=10_000)
    assert link.get_attribute("download") == "xor-cycling-xor-pm1.gif"
    href = link.get_attribute("href")
    assert href.startswith("data:image/gif;base64,R0lGOD")  # "GIF8"


def test_a_three_line_narration_is_not_cut_at_1024(page, dashboard_url):
    """The narration box holds three lines of its own type; ipywidgets gave the text inside
    28 px lines and the page's smaller type, so at 1024 × 768 a three-line narration (XOR,
    step 11) lost its last line behind a scroll bar."""
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(dashboard_url + "?tab=xor&step=11")
    wait_for_canvas(page, timeout=90)
    wait_for_text(page, "pe-narration", lambda t: t.startswith("Step 11"), timeout=30)
    page.wait_for_timeout(1500)
    box = page.evaluate("""() => {
        const e = [...document.querySelectorAll('.pe-narration')].find(n => n.offsetParent);
        const c = e.querySelector('.widget-html-content');
        return {shown: e.clientHeight, needed: e.scrollHeight,
                outer: getComputedStyle(e).fontSize, inner: getComputedStyle(c).fontSize,
                text: e.innerText}; }""")
    assert box["inner"] == box["outer"], box
    assert box["needed"] <= box["shown"] + 1, box
