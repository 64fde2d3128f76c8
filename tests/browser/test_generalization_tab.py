"""End-to-end: the Generalization tab in Chromium, opened by a link; the background simulation
finishes and its points are drawn by the page as each size finishes, and a step of the
timeline moves the loss markers in the page (issue 21: the page draws the figure; its narration
is the page figure's)."""

from __future__ import annotations

import pytest
from _voila import (
    canvas_locator,
    canvas_signature,
    click_button,
    wait_for_canvas,
    wait_for_canvas_change,
    wait_for_text,
    wait_until_quiet,
    widget_text,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

NARRATION = "pe-pf-narration:visible"  # the page figure's narration (explorer.app.pagefigure)
FIGURE = ".pe-pagefigure:visible"


def _drawn(page, track):
    return next(d for d in page.evaluate(
        "() => [...document.querySelectorAll('.pe-pagefigure')].find(n => n.offsetParent)"
        ".peDisplayList") if d["track"] == track)


def test_generalization_tab_simulates_and_steps(page, dashboard_url):
    page.goto(dashboard_url + "?tab=generalization&ns=5,10,20&trials=20&dim=3")
    wait_for_canvas(page, within=FIGURE, timeout=90)
    # the simulation runs by itself in a thread; the narration reports its last size
    wait_for_text(page, NARRATION, lambda t: "n = 20:" in t and "Hardt" in t, timeout=60)
    # the simulation's note and the narration's summary come in separate messages
    expect(page.locator(".pe-view").first).to_contain_text("Done: 3 sizes × 20 trials")
    page.wait_for_timeout(2500)  # the page fits the figure to the window first
    # the three sizes' points are the page's (static tracks), one marker a size
    page.wait_for_function(
        "() => [...document.querySelectorAll('.pe-pagefigure')].find(n => n.offsetParent)"
        ".peDisplayList.find(d => d.track === 'sim_bound_marks').px.length === 3",
        timeout=30_000)
    assert _drawn(page, "sim_bound")["visible"]
    before = canvas_signature(page, within=FIGURE)
    hinge = _drawn(page, "loss_hinge")["px"]
    click_button(page, "Step ▶", within=FIGURE)
    wait_for_text(page, NARRATION, lambda t: t.startswith("Step 1 of"), timeout=20)
    wait_for_canvas_change(page, before, within=FIGURE, timeout=20)
    assert _drawn(page, "loss_hinge")["px"] != hinge  # the markers moved with the step
    assert canvas_locator(page, within=FIGURE).is_visible()
    assert "Stop" in page.inner_text(".pe-view"), widget_text(page, NARRATION)


def _overlap(a, b) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def test_a_refusal_covers_no_control_nor_the_figure_and_goes_at_the_next_valid_change(page,
                                                                                        dashboard_url):
    """Issue 19, item 4: the refusal floated over Run, Stop and the progress bar and took their
    clicks (Stop could not be pressed), and it survived valid changes."""
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(dashboard_url + "?tab=generalization&trials=500")  # a run of a minute or more
    wait_for_canvas(page, within=FIGURE, timeout=90)
    view = ".pe-view"
    stop = page.locator(f"{view} .pe-sim-row button", has_text="Stop")
    page.wait_for_function("(b) => !b.disabled", arg=stop.element_handle(), timeout=60_000)
    seed = page.locator(f"{view} .pe-sidebar input[type=text]").nth(5)  # seed
    assert seed.input_value() == "0"
    seed.fill("abc")
    seed.press("Enter")
    refusal = page.locator(f"{view} .pe-message")
    wait_for_text(page, "pe-message", lambda t: "seed must be" in t, timeout=20)
    # the dashboard fits the figure under the new line: wait until the boxes are still
    wait_until_quiet(page, """() => JSON.stringify(['.pe-view .pe-message', '.pe-view .pe-sim-row',
        '.pe-view .pe-sim-progress', 'canvas.pe-canvas'].map(s => [...document.querySelectorAll(s)]
        .filter(e => e.offsetParent !== null).map(e => e.getBoundingClientRect())))""",
                     quiet_ms=1000, timeout_ms=30_000, what="the refusal and the figure")
    box = refusal.bounding_box()
    assert box is not None and box["height"] > 0
    covered = {"Run": page.locator(f"{view} .pe-sim-row button", has_text="Run simulation"),
               "Stop": stop, "progress": page.locator(f"{view} .pe-sim-progress"),
               "figure": canvas_locator(page, within=FIGURE)}
    for name, loc in covered.items():
        other = loc.bounding_box()
        assert other is not None and not _overlap(box, other), (name, box, other)
    # Stop takes a real click (Playwright fails if another element would receive it)
    stop.click(timeout=10_000)
    wait_for_text(page, "pe-sim-note", lambda t: t.startswith("Stopped"), timeout=30)
    assert "seed must be" in refusal.inner_text()  # stopping is no answer to the refusal
    seed.fill("1")
    seed.press("Enter")
    page.wait_for_function("(e) => e.offsetParent === null || e.innerText.trim() === ''",
                           arg=refusal.element_handle(), timeout=20_000)
