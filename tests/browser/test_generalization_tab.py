"""End-to-end: the Generalization tab in Chromium, opened by a link; the background simulation
finishes and draws, and a step of the timeline moves the loss markers."""

from __future__ import annotations

import pytest
from _voila import (
    canvas_locator,
    canvas_signature,
    wait_for_canvas,
    wait_for_canvas_change,
    wait_for_text,
    widget_text,
)

pytestmark = pytest.mark.browser


def test_generalization_tab_simulates_and_steps(page, dashboard_url):
    page.goto(dashboard_url + "?tab=generalization&ns=5,10,20&trials=20&dim=3")
    wait_for_canvas(page, timeout=90)
    # the simulation runs by itself in a thread; the narration reports its last size
    note = wait_for_text(page, "pe-narration", lambda t: "n = 20:" in t and "Hardt" in t,
                         timeout=60)
    assert "Done: 3 sizes × 20 trials" in page.inner_text(".pe-view"), note
    page.wait_for_timeout(2500)  # the page fits the figure to the window first
    before = canvas_signature(page)
    page.get_by_role("button", name="Step ▶").click()
    wait_for_text(page, "pe-narration", lambda t: t.startswith("Step 1 of"), timeout=20)
    wait_for_canvas_change(page, before, timeout=20)
    assert canvas_locator(page).is_visible()
    assert "Stop" in page.inner_text(".pe-view"), widget_text(page, "pe-narration")
