"""End-to-end: "Where will the boundary move?" alone (issue 33, item 1). At step 0 of Koski's
example, q three times asks the place question; a click on the data plane answers (a dot on
the plane), a second click moves it; Reveal takes the step, says right (the boundary swept over
the place) and draws the old boundary dashed. Without a browser: tests/test_point_question.py."""

from __future__ import annotations

import pytest
from _voila import wait_for_canvas, wait_for_step, wait_for_text
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

STATUS = "pe-where"
CARD = ".pe-pagefigure .pe-q-card"
DOTS = ".pe-pagefigure canvas.pe-q-places"


def click_at(page, x, y):
    """Click the data plane at data (x, y), through the scene's own mapping."""
    at = page.evaluate("""([x, y]) => {
        const root = document.querySelector('.pe-pagefigure');
        const p = root.pePanels.find((q) => q.name === 'plane');
        const r = root.querySelector('canvas.pe-canvas').getBoundingClientRect();
        const s = r.width / root.peFigureWidth;
        return [r.left + (p.map[0] * x + p.map[1]) * s, r.top + (p.map[2] * y + p.map[3]) * s];
    }""", [x, y])
    page.mouse.click(*at)


def test_q_asks_where_the_boundary_moves_a_click_answers_and_reveal_takes_the_step(
        page, dashboard_url):
    page.goto(dashboard_url + "?tab=perceptron&step=0")
    wait_for_canvas(page, timeout=90)
    wait_for_text(page, STATUS, lambda t: t.startswith("step 0 of"), timeout=30)
    page.locator(".pe-pagefigure canvas.pe-canvas").first.hover()
    card = page.locator(CARD)
    words = card.locator(".pe-q-words")
    for expected in ("Will the next point trigger an update?", "Will this rule converge?",
                     "Where will the boundary move?"):
        page.keyboard.press("q")  # q again, unanswered: the tab's next question
        expect(words).to_have_text(expected, timeout=20_000)
    expect(card.locator(".pe-q-detail")).to_contain_text("Step 1 visits point 5")
    expect(card.locator("button.pe-q-choice")).to_have_count(0)
    expect(card.locator(".pe-q-prompt")).to_have_text("Click a place on the data plane, then Reveal.")
    click_at(page, 1.5, 1.5)  # not swept: then moved before the reveal
    expect(page.locator(DOTS)).to_have_attribute("data-dots", "1", timeout=10_000)
    expect(card.locator(".pe-q-prompt")).to_contain_text("click elsewhere to move it")
    click_at(page, 0.1, 0.0)  # between the line x + 0.5 y = 0 and the next one: swept over
    page.wait_for_timeout(800)
    card.locator("button.pe-q-reveal").click()
    wait_for_step(page, 1, timeout=20)
    wait_for_text(page, STATUS, lambda t: t.startswith("step 1 of"), timeout=20)
    expect(card.locator(".pe-q-verdict")).to_have_text(
        "Right: the boundary swept over your place.", timeout=10_000)
    expect(card.locator(".pe-q-explain")).to_contain_text("changed sides")
    expect(card.locator("button.pe-q-choice.pe-q-truth")).to_have_text("Swept over · 1")
    expect(page.locator(DOTS)).to_have_attribute("data-dots", "1")
    assert page.locator(".pe-pagefigure").get_attribute("data-question") == "revealed"
    page.keyboard.press("Escape")
    expect(card).to_have_count(0, timeout=10_000)
    expect(page.locator(DOTS)).to_have_count(0)


#: The dots' canvas and the plane as drawn on screen: (dots top, plane top, dots left, plane
#: left) in CSS px.
DOTS_AND_PLANE = """() => {
    const root = document.querySelector('.pe-pagefigure');
    const p = root.pePanels.find((q) => q.name === 'plane');
    const r = root.querySelector('canvas.pe-canvas').getBoundingClientRect();
    const s = r.width / root.peFigureWidth;
    const d = root.querySelector('canvas.pe-q-places').getBoundingClientRect();
    return [d.top, r.top + p.y * s, d.left, r.left + p.x * s];
}"""


def test_in_lecture_mode_at_1024_the_dots_stay_on_the_plane_and_close_in_view(page, dashboard_url):
    """The reveal's longer narration wraps and moves the figure down: the dots and the old
    boundary move with it, and the card's Close stays in view while its words scroll."""
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(dashboard_url + "?tab=perceptron&step=0")
    wait_for_canvas(page, timeout=90)
    page.locator(".pe-pf-narration").first.click()
    page.keyboard.press("l")
    page.wait_for_function("() => document.querySelector('.pe-root.pe-lecture') !== null")
    page.wait_for_timeout(2500)  # the figure fitted to lecture mode
    page.locator(".pe-pagefigure canvas.pe-canvas").first.hover()
    card = page.locator(CARD)
    for _ in range(3):
        page.keyboard.press("q")
        page.wait_for_timeout(300)
    expect(card.locator(".pe-q-words")).to_have_text("Where will the boundary move?",
                                                     timeout=20_000)
    click_at(page, 0.1, 0.0)
    expect(page.locator(DOTS)).to_have_attribute("data-dots", "1", timeout=10_000)
    before = page.evaluate("() => document.querySelector('.pe-pf-narration').offsetHeight")
    card.locator("button.pe-q-reveal").click()
    wait_for_step(page, 1, timeout=20)
    expect(card.locator(".pe-q-verdict")).to_contain_text("Right", timeout=10_000)
    page.wait_for_timeout(500)
    assert page.evaluate("() => document.querySelector('.pe-pf-narration').offsetHeight") > before
    top, plane_top, left, plane_left = page.evaluate(DOTS_AND_PLANE)
    assert abs(top - plane_top) <= 2 and abs(left - plane_left) <= 2, (top, plane_top)
    close = card.locator("button.pe-q-close")
    expect(close).to_be_in_viewport()
    box, inside = close.bounding_box(), card.bounding_box()
    assert box["y"] + box["height"] <= inside["y"] + inside["height"] + 1  # not cut by the card
