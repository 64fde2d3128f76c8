"""End-to-end: the Margins tab in Chromium, opened by a link; moving C redraws the figure."""

from __future__ import annotations

import pytest
from _voila import canvas_locator, canvas_signature, wait_for_canvas, wait_for_canvas_change, wait_for_text

pytestmark = pytest.mark.browser


def test_margins_tab_follows_c(page, dashboard_url):
    page.goto(dashboard_url + "?tab=margins&dataset=overlapping")
    wait_for_canvas(page, timeout=90)
    wait_for_text(page, "pe-narration", lambda t: "support vectors" in t, timeout=30)
    page.wait_for_timeout(2500)  # the page fits the figure to the window first
    before = canvas_signature(page)
    readout = page.locator(".widget-slider:has(label:text-is('C')) .widget-readout")
    readout.click()
    page.keyboard.press("Control+A")
    page.keyboard.type("0.01")
    page.keyboard.press("Enter")
    note = wait_for_text(page, "pe-narration", lambda t: "support vectors" in t and "hinge" in t)
    wait_for_canvas_change(page, before, timeout=20)
    assert canvas_locator(page).is_visible()
    assert "Sayed's η = N·C = 0.4" in page.inner_text(".pe-sidebar"), note
