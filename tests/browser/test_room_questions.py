"""Predict, then reveal in the lecture's room, in Chromium (issue 33, item 1, the room): the
presenter asks (q), three followers' pages (no kernel) show the question and answer with a
click, one changes its answer; the presenter's card counts them as they come; Reveal takes the
step and shows the room's tally beside the truth on the presenter's card and the revealed card,
each with its own verdict, on the followers'. Without a browser: tests/test_room_answers.py,
tests/test_asking.py, tests/js/question.test.mjs and tests/js/lecture.test.mjs."""

from __future__ import annotations

import pytest
from _voila import (
    FOLLOWER_AT,
    start_presenter_hall,
    wait_for_canvas,
    wait_for_step,
    wait_for_text,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

KEY = "a-lecture-key-for-the-test-0033"
CARD = ".pe-pagefigure .pe-q-card"
FOLLOWER_CARD = ".pe-follow-figure .pe-q-card"


@pytest.fixture(scope="module")
def hall(_browser_prereqs, tmp_path_factory):
    server = start_presenter_hall(tmp_path_factory.mktemp("room-q") / "hall.log", key=KEY,
                                  max_pages=2)
    yield server
    server.stop()


def answer(follower, choice):
    button = follower.locator(f"{FOLLOWER_CARD} button[data-choice='{choice}']")
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true", timeout=10_000)


def test_three_followers_answer_the_presenter_sees_the_tally_and_reveals(chromium_browser, hall):
    contexts = [chromium_browser.new_context(viewport={"width": 1280, "height": 800})
                for _ in range(3)]
    contexts.append(chromium_browser.new_context(viewport={"width": 390, "height": 844},
                                                 is_mobile=True, has_touch=True))  # a phone
    for c in contexts:
        c.set_default_timeout(120_000)
    presenter, *followers = (c.new_page() for c in contexts)
    presenter.goto(hall.url + f"present?key={KEY}")
    wait_for_canvas(presenter, timeout=120)
    wait_for_text(presenter, "pe-where", lambda t: t.startswith("step 0 of"), timeout=60)
    for f in followers:
        f.goto(hall.url + "follow")
    for f in followers:
        f.wait_for_function(FOLLOWER_AT, arg=0, timeout=60_000)

    presenter.locator(".pe-pagefigure canvas.pe-canvas").first.click()
    presenter.keyboard.press("q")
    card = presenter.locator(CARD)
    expect(card).to_be_visible(timeout=20_000)
    expect(card.locator(".pe-q-count")).to_have_count(0)  # no answers yet
    for f in followers:  # the same card, in the follower's role: no Reveal, no Withdraw
        fcard = f.locator(FOLLOWER_CARD)
        expect(fcard).to_be_visible(timeout=10_000)
        expect(fcard.locator(".pe-q-words")).to_have_text("Will the next point trigger an update?")
        expect(fcard.locator(".pe-q-prompt")).to_have_text("Tap your answer; the lecturer reveals.")
        expect(fcard.locator(".pe-q-reveal")).to_have_count(0)
        expect(fcard.locator(".pe-q-close")).to_have_count(0)

    first, second, phone = followers
    count = card.locator(".pe-q-count")
    answer(first, "no")
    expect(count).to_have_text("1 answer", timeout=10_000)
    answer(second, "yes")
    expect(count).to_have_text("2 answers", timeout=10_000)
    phone.locator(f"{FOLLOWER_CARD} button[data-choice='no']").tap()
    expect(count).to_have_text("3 answers", timeout=10_000)
    answer(phone, "yes")  # a wrong tap, changed before the reveal: still three answers
    expect(phone.locator(f"{FOLLOWER_CARD} button[data-choice='no']")).to_have_attribute(
        "aria-pressed", "false")
    expect(first.locator(f"{FOLLOWER_CARD} .pe-q-count")).to_have_text("3 answers",
                                                                        timeout=10_000)
    presenter.wait_for_timeout(1000)  # the change's tally has come by now
    expect(count).to_have_text("3 answers")
    # the presenter's own card keeps its own answer: none
    expect(card.locator("button[aria-pressed='true']")).to_have_count(0)

    card.locator("button.pe-q-reveal").click()
    wait_for_step(presenter, 1, timeout=20)
    expect(card.locator(".pe-q-verdict")).to_have_text("The answer: Yes.", timeout=10_000)
    expect(card.locator("button[data-choice='yes']")).to_have_text("Yes · 2")
    expect(card.locator("button[data-choice='no']")).to_have_text("No · 1")
    expect(card.locator("button.pe-q-truth")).to_have_attribute("data-choice", "yes")
    for f, verdict in ((first, "Not this time: the answer is Yes."), (second, "Right: Yes."),
                       (phone, "Right: Yes.")):
        fcard = f.locator(FOLLOWER_CARD)
        expect(fcard).to_have_attribute("data-phase", "revealed", timeout=10_000)
        expect(fcard.locator(".pe-q-verdict")).to_have_text(verdict)
        expect(fcard.locator("button[data-choice='yes']")).to_have_text("Yes · 2")
        expect(fcard.locator("button[data-choice='yes']")).to_be_disabled()
        f.wait_for_function(FOLLOWER_AT, arg=1, timeout=30_000)
    presenter.keyboard.press("Escape")
    expect(card).to_have_count(0, timeout=10_000)
    for f in followers:
        expect(f.locator(FOLLOWER_CARD)).to_have_count(0, timeout=10_000)
    for c in contexts:
        c.close()
