"""One panel, large (issue 33, item 3) in Chromium: in lecture mode at 1024, 1366 and 1920 px,
z (after a click on the figure) shows the data plane alone over the figure, the step and its
narration go on, Esc goes back; a click on a panel's title shows that panel, a click on it
again goes back. A follower of the room draws what the presenter's page draws."""

from __future__ import annotations

import pytest
from _voila import (
    FOLLOWER_AT,
    start_presenter_hall,
    wait_for_canvas,
    wait_for_step,
    wait_until_quiet,
)

pytestmark = pytest.mark.browser

SHOWN = "[...document.querySelectorAll('.pe-pagefigure')].find(f => f.offsetParent !== null)"
def _panels_are(page, names, *, figure=SHOWN):
    page.wait_for_function(
        f"(names) => {{ const f = {figure}; return !!f && f.peStep >= 0 && "
        "JSON.stringify(f.pePanels.map(p => p.name)) === JSON.stringify(names); }",
        arg=names, timeout=60_000)


def _click_title(page, name):
    box = page.locator(".pe-pagefigure:visible canvas").first.bounding_box()
    x, y, w, h = page.evaluate(f"(n) => {SHOWN}.pePanels.find(p => p.name === n).title", name)
    page.mouse.click(box["x"] + x + w / 2, box["y"] + y + h / 2)


@pytest.mark.parametrize("width,height", [(1024, 768), (1366, 768), (1920, 1080)])
def test_a_panel_large_and_back_in_lecture_mode(page, dashboard_url, width, height):
    page.set_viewport_size({"width": width, "height": height})
    page.goto(dashboard_url)
    wait_for_canvas(page, within=".pe-pagefigure:visible", timeout=90)
    page.locator(".pe-pf-narration:visible").first.click()
    page.keyboard.press("l")
    page.wait_for_function("() => document.querySelector('.pe-root.pe-lecture') !== null")
    wait_until_quiet(page, f"() => {{ const f = {SHOWN}; return JSON.stringify([f.peRun, "
                     "f.peStep, f.pePanels]); }", quiet_ms=2500, timeout_ms=60_000,
                     what="the lecture layout")
    whole = page.evaluate(f"() => {SHOWN}.pePanels")
    names = [p["name"] for p in whole]
    assert names[:2] == ["plane", "weights"], names
    canvas = page.locator(".pe-pagefigure:visible canvas").first
    canvas.click(position={"x": 5, "y": 5})  # the keys work after a click on the figure
    page.keyboard.press("z")
    _panels_are(page, ["plane"])
    assert page.evaluate(f"() => {SHOWN}.dataset.enlarged") == "plane"
    # the rows of controls above the figure give it their room: where the window's height
    # bounds the figure (not at 1024 px, where its width does), it grows, and the plane too
    tall = canvas.bounding_box()["height"]
    page.wait_for_function("() => ![...document.querySelectorAll('.pe-above-figure')]"
                           ".some(e => e.offsetParent !== null)", timeout=30_000)
    if width > 1024:
        page.wait_for_function(
            f"(h) => {SHOWN}.querySelector('canvas.pe-canvas').getBoundingClientRect()"
            ".height >= h + 30", arg=tall, timeout=60_000)
    wait_until_quiet(page, f"() => JSON.stringify({SHOWN}.pePanels)", quiet_ms=1500,
                     timeout_ms=60_000, what="the figure refitted")
    (plane,) = page.evaluate(f"() => {SHOWN}.pePanels")
    assert plane["legend"][0] > plane["x"] + plane["w"]
    assert plane["h"] >= whole[0]["h"] + (30 if width > 1024 else -1), (plane, whole[0])
    box = canvas.bounding_box()  # the figure is on screen, the panel inside it
    assert box["y"] + box["height"] <= height + 1 and plane["y"] + plane["h"] <= box["height"]
    page.keyboard.press("ArrowRight")  # the step goes on while large, with its words
    assert wait_for_step(page, 1, timeout=60).startswith("step 1 of")
    assert page.locator(".pe-pf-narration:visible").first.inner_text().startswith("Step 1")
    assert page.evaluate(f"() => {SHOWN}.dataset.enlarged") == "plane"
    page.keyboard.press("Escape")
    _panels_are(page, names)
    page.locator(".pe-above-figure:visible").first.wait_for(timeout=30_000)  # the rows are back
    _click_title(page, "weights")
    _panels_are(page, ["weights"])
    (weights,) = page.evaluate(f"() => {SHOWN}.pePanels")
    assert weights["w"] * weights["h"] > 1.5 * whole[1]["w"] * whole[1]["h"]
    _click_title(page, "weights")
    _panels_are(page, names)
    assert page.evaluate(f"() => {SHOWN}.peStep") == 1


KEY = "a-lecture-key-for-the-test-0002"
FOLLOWED = "document.querySelector('.pe-follow-figure .pe-pagefigure')"


@pytest.fixture(scope="module")
def hall(_browser_prereqs, tmp_path_factory):
    server = start_presenter_hall(tmp_path_factory.mktemp("lecture") / "hall.log", key=KEY,
                                  max_pages=3)
    yield server
    server.stop()


def test_a_follower_follows_the_panel_large_and_back(chromium_browser, hall):
    contexts = [chromium_browser.new_context(viewport={"width": 1366, "height": 768})
                for _ in range(2)]
    for c in contexts:
        c.set_default_timeout(120_000)
    presenter, follower = (c.new_page() for c in contexts)
    presenter.goto(hall.url + f"present?key={KEY}")
    wait_for_canvas(presenter, timeout=120)
    follower.goto(hall.url + "follow")
    follower.wait_for_function(FOLLOWER_AT, arg=0, timeout=60_000)
    wait_until_quiet(presenter, f"() => {{ const f = {SHOWN}; return JSON.stringify([f.peRun, "
                     "f.pePanels]); }", quiet_ms=2500, timeout_ms=60_000, what="the layout")
    names = presenter.evaluate(f"() => {SHOWN}.pePanels.map(p => p.name)")
    assert len(names) > 1 and names[0] == "plane", names
    _panels_are(follower, names, figure=FOLLOWED)
    presenter.locator(".pe-pagefigure canvas").first.click(position={"x": 5, "y": 5})
    presenter.keyboard.press("z")
    _panels_are(presenter, ["plane"])
    _panels_are(follower, ["plane"], figure=FOLLOWED)
    follower.keyboard.press("Escape")  # a follower's keys drive nothing
    follower.locator(".pe-follow-figure canvas").first.click(position={"x": 5, "y": 5})
    follower.keyboard.press("z")
    presenter.keyboard.press("Escape")
    _panels_are(follower, names, figure=FOLLOWED)
    assert presenter.evaluate(f"() => {SHOWN}.dataset.enlarged") == ""
    for c in contexts:
        c.close()
