"""The lecture's room in Chromium (issue 32): the presenter's dashboard and followers' pages
with no kernel, stepping in sync, on the hall's server (explorer/serving/lecture_web.py)."""

from __future__ import annotations

import json
import urllib.request

import pytest
from _voila import (
    FOLLOWER_AT,
    FOLLOWER_SAYS,
    click_button,
    start_presenter_hall,
    wait_for_canvas,
    wait_for_text,
)

pytestmark = pytest.mark.browser

KEY = "a-lecture-key-for-the-test-0001"
STEP = "Step ▶"


@pytest.fixture(scope="module")
def hall(_browser_prereqs, tmp_path_factory):
    server = start_presenter_hall(tmp_path_factory.mktemp("lecture") / "hall.log", key=KEY,
                                  max_pages=4)
    yield server
    server.stop()


#: Records in ``window.__peSaid`` each narration a follower's figure shows from now on.
RECORD_WORDS = """() => { window.__peSaid = [];
  new MutationObserver(() => {
    const n = document.querySelector('.pe-follow-figure .pe-pf-narration');
    if (n && n.textContent !== window.__peSaid[window.__peSaid.length - 1])
      window.__peSaid.push(n.textContent);
  }).observe(document.querySelector('.pe-follow-figure'),
             {subtree: true, childList: true, characterData: true}); }"""


def status(server) -> dict:
    with urllib.request.urlopen(server.url + "hall/status", timeout=10) as r:
        return json.load(r)


def lecture_status(server) -> dict:
    with urllib.request.urlopen(server.url + "lecture/status", timeout=10) as r:
        return json.load(r)


def follower_text(page, css: str) -> str:
    return page.locator(f".pe-follow-figure .{css}").first.inner_text()


def test_followers_draw_the_presenters_steps_and_start_no_kernel(chromium_browser, hall):
    contexts = [chromium_browser.new_context(viewport={"width": 1280, "height": 800})
                for _ in range(3)]
    for c in contexts:
        c.set_default_timeout(120_000)
    presenter, *followers = (c.new_page() for c in contexts)
    presenter.goto(hall.url + f"present?key={KEY}")
    assert presenter.url == hall.url  # the key went into a cookie; the address shows none
    wait_for_canvas(presenter, timeout=120)
    wait_for_text(presenter, "pe-where", lambda t: t.startswith("step 0 of"), timeout=60)
    pages_before = status(hall)["pages"]
    for f in followers:
        f.goto(hall.url + "follow")
    for f in followers:
        f.wait_for_function("() => document.querySelector('.pe-follow-figure canvas')")
        f.wait_for_function(FOLLOWER_AT, arg=0, timeout=60_000)
    assert status(hall)["pages"] == pages_before  # followers start no kernel
    assert lecture_status(hall)["followers"] == 2 and lecture_status(hall)["presenting"]

    for f in followers:  # every narration the follower shows from now on
        f.evaluate(RECORD_WORDS)
    for k in (1, 2, 3):
        click_button(presenter, STEP)
        said = wait_for_text(presenter, "pe-pf-narration", lambda t, k=k: t.startswith(f"Step {k},"),
                             timeout=30)
        for f in followers:
            f.wait_for_function(FOLLOWER_AT, arg=k, timeout=30_000)
            f.wait_for_function(FOLLOWER_SAYS, arg=said, timeout=30_000)
            assert follower_text(f, "pe-where").startswith(f"step {k} of")
    for f in followers:  # never blank, also while a new scene of the run (the bound) decodes
        said = f.evaluate("window.__peSaid")
        assert said and "" not in said, said
    assert "Perceptron" in followers[0].locator(".pe-follow-title").inner_text()
    presenter.wait_for_function("() => (document.querySelector('.pe-presenting') || {})"
                                ".textContent === '● Presenting · 2 following'")
    # A (or a click on the badge): the students' address, large, with its QR code
    presenter.locator(".pe-pagefigure canvas").first.click()  # keys after a click on the figure
    presenter.keyboard.press("a")
    address = presenter.locator(".pe-address")
    address.wait_for(state="visible")
    assert address.locator(".pe-address-url").inner_text() == hall.url + "follow"
    assert "this computer only" in address.locator(".pe-address-note").inner_text()
    presenter.wait_for_function("() => document.querySelector('.pe-address img').naturalWidth > 100")
    presenter.keyboard.press("a")
    address.wait_for(state="hidden")
    # the presenter blacks out, and back; then changes tab: the followers follow
    presenter.keyboard.press("b")
    for f in followers:
        f.locator(".pe-follow-dark").wait_for(state="visible", timeout=10_000)
    presenter.keyboard.press("b")
    for f in followers:
        f.locator(".pe-follow-dark").wait_for(state="hidden", timeout=10_000)
    presenter.get_by_role("tab", name="Margins").click()
    for f in followers:
        f.wait_for_function("() => /Margins/.test(document.querySelector('.pe-follow-title')"
                            ".textContent) && (document.querySelector('.pe-follow-figure "
                            ".pe-pagefigure') || {}).peStep >= 0", timeout=60_000)
    presenter.get_by_role("tab", name="Perceptron").click()
    for f in followers:
        f.wait_for_function("() => /Perceptron/.test(document.querySelector('.pe-follow-title')"
                            ".textContent) && (document.querySelector('.pe-follow-figure "
                            ".pe-pagefigure') || {}).peStep === 3", timeout=60_000)
    # the presenter's key is in no follower's page and in no link the presenter shares
    for f in followers:
        assert KEY not in f.content()
    assert KEY not in presenter.locator(".pe-share input").input_value()
    log = hall.log_path.read_text(errors="replace")
    assert log.count(KEY) == 1, "the key is printed once, at start, and never logged again"

    # "Explore from here": the dashboard at the presenter's state, a place of the hall's; and back
    student = followers[0]
    explore = student.locator(".pe-follow-explore")
    student.wait_for_function("() => /step=3/.test(document.querySelector('.pe-follow-explore')"
                              ".getAttribute('href'))", timeout=30_000)
    assert "places free" in student.locator(".pe-follow-places").inner_text()
    explore.click()
    wait_for_canvas(student, timeout=120)
    wait_for_text(student, "pe-where", lambda t: t.startswith("step 3 of"), timeout=60)
    assert status(hall)["pages"] == pages_before + 1
    student.locator(".pe-follow-again").click()
    student.wait_for_url(hall.url + "follow")
    student.wait_for_function(FOLLOWER_AT, arg=3, timeout=30_000)
    for c in contexts:
        c.close()


def test_a_wrong_key_gets_a_refusal_that_points_to_the_follow_page(chromium_browser, hall):
    context = chromium_browser.new_context()
    page = context.new_page()
    answer = page.goto(hall.url + "present?key=guess")
    assert answer.status == 403
    text = page.locator("main").inner_text()
    assert "Not the presenter's address" in text and 'href="/follow"' in page.content()
    assert not [c for c in context.cookies(hall.url) if c["name"] == "pe_lecture"]
    context.close()
