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
