"""A race on data of four features in Chromium (issue 34): a link opens Iris with its four
measurements and one other rule; the page draws two planes, each titled as the plane of its
racer's own w ("Classic perceptron (plane of its w)"), whose points are moving tracks, at the
link's step; a click that would add a point of R^4 is refused in words."""

from __future__ import annotations

import os

import pytest
from _voila import choose_click_mode, wait_for_canvas, wait_for_step

from explorer.shared import datasets

pytestmark = pytest.mark.browser

VISIBLE = ".widget-tab-contents > .widget-box:visible"
FIG = f"{VISIBLE} .pe-pagefigure"
ABOUT = "plane of its w"


def test_a_race_on_iris4_shows_two_planes_of_their_own_w(page, dashboard_url):
    ds = datasets.load("iris", features="all")
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(dashboard_url + "?tab=perceptron&dataset=iris4&race=svm_sgd&step=12")
    wait_for_canvas(page, within=VISIBLE, timeout=90)
    assert wait_for_step(page, 12, timeout=60).startswith("step 12 of")
    page.wait_for_timeout(2000)  # the page fits the figure to the window first
    page.wait_for_function(  # the step's chunk has come: its moving points are drawn
        "() => [...document.querySelectorAll('.pe-pagefigure')].filter(n => n.offsetParent)"
        ".some(n => (n.peDisplayList || []).some(d => d.track === 'r1_pos'))",
        timeout=60_000)
    if os.environ.get("PE_SHOTS"):
        page.screenshot(path=os.path.join(os.environ["PE_SHOTS"], "race_iris4_1366.png"))
    panels = page.locator(FIG).evaluate("e => e.pePanels.map(p => [p.name, p.heading])")
    headings = dict(panels)
    assert [n for n, _ in panels] == ["plane", "plane2", "mistakes"], panels
    assert headings["plane"] == f"Classic perceptron ({ABOUT})", panels
    assert headings["plane2"] == f"Soft-margin SVM by SGD ({ABOUT})", panels
    shown = {d["track"]: d["px"] for d in page.locator(FIG).evaluate("e => e.peDisplayList")}
    for i in (0, 1):  # each racer's points, moving tracks of its own plane
        assert len(shown[f"r{i}_pos"]) + len(shown[f"r{i}_neg"]) == ds.n
    choose_click_mode(page, "Add +1", "add+", within=VISIBLE)
    box = page.locator(f"{FIG} canvas.pe-canvas").bounding_box()
    px, py = shown["r0_pos"][0]
    page.mouse.click(box["x"] + px + 20, box["y"] + py + 20)
    if os.environ.get("PE_SHOTS"):
        page.wait_for_timeout(3000)
        page.screenshot(path=os.path.join(os.environ["PE_SHOTS"], "race_iris4_click.png"))
    page.wait_for_function(
        "() => [...document.querySelectorAll('.pe-message, .pe-refusal, .widget-html')]"
        ".some(e => e.offsetParent !== null && /two features/.test(e.innerText))",
        timeout=30_000)
    if os.environ.get("PE_SHOTS"):  # later: the racers' planes have turned apart
        page.goto(dashboard_url + "?tab=perceptron&dataset=iris4_hard&race=svm_sgd,pocket"
                  "&max_epochs=5&step=400")
        wait_for_canvas(page, within=VISIBLE, timeout=90)
        wait_for_step(page, 400, timeout=60)
        page.wait_for_timeout(4000)
        page.screenshot(path=os.path.join(os.environ["PE_SHOTS"], "race_iris4_hard_400.png"))
