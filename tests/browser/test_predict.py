"""End-to-end: predict, then reveal, alone (issue 33, item 1). After a click on the figure, the
key q asks "Will the next point trigger an update?" over it; the student answers No, changes
to Yes, and reveals: the figure takes the step and the card says right, with the truth in
words; while the question is open the transport waits (→ does not step). The Cover tab's
question veils the tiles until the reveal. Without a browser: tests/test_asking.py."""

from __future__ import annotations

import pytest
from _voila import wait_for_canvas, wait_for_step, wait_for_text
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

STATUS = "pe-where"
CARD = ".pe-pagefigure .pe-q-card"


def test_q_after_a_click_asks_the_answer_changes_and_reveal_takes_the_step(page, dashboard_url):
    page.goto(dashboard_url + "?tab=perceptron&step=2")
    wait_for_canvas(page, timeout=90)
    wait_for_text(page, STATUS, lambda t: t.startswith("step 2 of"), timeout=30)
    page.locator(".pe-pagefigure canvas.pe-canvas").first.click()
    page.keyboard.press("q")
    card = page.locator(CARD)
    expect(card).to_be_visible(timeout=20_000)
    expect(card.locator(".pe-q-words")).to_have_text("Will the next point trigger an update?")
    expect(card.locator(".pe-q-detail")).to_contain_text("Step 3 visits point 1")
    # the transport waits for the reveal
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(600)
    wait_for_text(page, STATUS, lambda t: t.startswith("step 2 of"), timeout=5)

    no, yes = card.locator("button[data-choice='no']"), card.locator("button[data-choice='yes']")
    no.click()
    expect(no).to_have_attribute("aria-pressed", "true", timeout=10_000)
    yes.click()  # changed before the reveal
    expect(yes).to_have_attribute("aria-pressed", "true", timeout=10_000)
    expect(no).to_have_attribute("aria-pressed", "false")
    card.locator("button.pe-q-reveal").click()

    wait_for_step(page, 3, timeout=20)
    wait_for_text(page, STATUS, lambda t: t.startswith("step 3 of"), timeout=20)
    expect(card.locator(".pe-q-verdict")).to_have_text("Right: Yes.", timeout=10_000)
    expect(card.locator(".pe-q-explain")).to_contain_text("step 3 updates w")
    expect(card.locator("button[data-choice='yes']")).to_be_disabled()
    assert "question" not in page.locator(".pe-share input").input_value()
    page.keyboard.press("Escape")
    expect(card).to_have_count(0, timeout=10_000)
    page.keyboard.press("ArrowRight")  # the transport is the page's again
    wait_for_text(page, STATUS, lambda t: t.startswith("step 4 of"), timeout=20)


def test_the_cover_question_veils_the_tiles_until_the_reveal(page, dashboard_url):
    from explorer.app.cover.model import CoverModel

    separable = bool(CoverModel().dich.separable[5])  # the default points' dichotomy #5
    page.goto(dashboard_url + "?tab=cover&view=dichotomies")
    wait_for_canvas(page, timeout=90)
    page.locator(".widget-dropdown:has(label:text-is('dichotomy')) select").select_option(index=5)
    page.wait_for_timeout(1000)
    page.locator(".pe-pagefigure canvas.pe-canvas").first.hover()
    page.keyboard.press("q")
    card = page.locator(CARD)
    expect(card).to_be_visible(timeout=20_000)
    expect(card.locator(".pe-q-words")).to_have_text("Is this labelling separable?")
    expect(card.locator(".pe-q-detail")).to_contain_text("dichotomy #5")
    expect(page.locator(".pe-pagefigure .pe-q-veil")).to_be_visible()
    expect(card.locator("canvas.pe-q-sketch")).to_be_visible()
    card.locator("button[data-choice='yes']").click()
    card.locator("button.pe-q-reveal").click()
    verdict = "Right: Yes." if separable else "Not this time: the answer is No."
    expect(card.locator(".pe-q-verdict")).to_have_text(verdict, timeout=10_000)
    expect(page.locator(".pe-pagefigure .pe-q-veil")).to_have_count(0)
