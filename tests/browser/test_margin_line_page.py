"""The margin line in Chromium (issue 34, items 3 a and 4): the 30-feature breast cancer set in the
Perceptron tab shows the plane of w and, in weight space's place, the margin line, whose points the
page draws at y·f(x)/‖w‖ of the step shown (the run is the model's own); the points move at an
update, and the page's link reopens the run at the same step with the same margin line. The numbers
against numpy, the band, w = 0 and two features: tests/test_margin_line.py."""

from __future__ import annotations

import numpy as np
import pytest
from _voila import wait_for_canvas, wait_for_link, wait_for_step

from explorer.app.perceptron.model import PerceptronModel

pytestmark = pytest.mark.browser

VISIBLE = ".widget-tab-contents > .widget-box:visible"
FIG = f"{VISIBLE} .pe-pagefigure"
SHOWN = "[...document.querySelectorAll('.pe-pagefigure')].find(n => n.offsetParent)"


def _panels(page) -> dict:
    return {p["name"]: p for p in page.locator(FIG).evaluate("e => e.pePanels")}


def _margin_line(page, step: int) -> tuple[dict, dict]:
    """The margin line's tracks as drawn at ``step`` (track -> vertices in CSS px) and the
    margin panel they were drawn in, read together in one call: the page may fit the figure
    again when the narration's height changes (a new scene, its chunk fetched), and a map read
    apart from the drawing could be the next layout's. Read once it has drawn the step with its
    chunk and two reads agree."""
    read = "e => ({list: e.peDisplayList, panels: e.pePanels})"
    last = None
    for _ in range(200):
        wait_for_step(page, step, timeout=90)
        got = page.locator(FIG).evaluate(read)
        shown = {d["track"]: np.array(d["px"], dtype=float).reshape(-1, 2)
                 for d in got["list"] if d["track"].startswith("margin_")}
        panel = next((p for p in got["panels"] if p["name"] == "margin"), None)
        if "margin_pos" in shown and panel is not None:
            if last is not None and last[1]["map"] == panel["map"]:
                return shown, panel
            last = (shown, panel)
        page.wait_for_timeout(300)
    raise AssertionError(f"step {step}: the margin line was not drawn")


def _to_data(panel, px):
    """CSS px of the panel back to data x (the page maps x * ax + bx)."""
    ax, bx = panel["map"][0], panel["map"][1]
    return (px[:, 0] - bx) / ax



def _narration(page) -> str:
    return page.locator(f"{VISIBLE} .pe-pf-narration").inner_text()


def test_breast_cancer_shows_the_margin_line_and_its_link_reopens_the_same_step(page,
                                                                               dashboard_url):
    model = PerceptronModel()
    assert model.update(dataset="breast_cancer30"), model.message
    traj, X, y = model.trajectory, model.X, model.y
    ups = set(traj.update_steps.tolist())
    k = next(s - 1 for s in sorted(ups)[5:] if s - 1 not in ups)  # a step before an update
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(dashboard_url + f"?tab=perceptron&dataset=breast_cancer30&step={k}")
    wait_for_canvas(page, within=VISIBLE, timeout=120)
    wait_for_step(page, k, timeout=90)
    page.wait_for_timeout(2000)  # the page fits the figure to the window first
    wait_for_step(page, k, timeout=90)  # and has the chunk of that size
    panels = _panels(page)
    assert "weights" not in panels
    assert panels["plane"]["heading"] == "30 features, in the plane of w"
    assert panels["margin"]["heading"].startswith("Margin line")

    def check(step):
        drawn, panel = _margin_line(page, step)
        w, b = traj.state(step)
        ref = y * (X @ w + b) / np.linalg.norm(w)
        px_per_unit = abs(panel["map"][0])
        for name, side in (("margin_pos", y > 0), ("margin_neg", y < 0)):
            assert len(drawn[name]) == int(side.sum())
            np.testing.assert_allclose(_to_data(panel, drawn[name]), ref[side],
                                       atol=0.6 / px_per_unit)  # within a CSS px
        np.testing.assert_allclose(_to_data(panel, drawn["margin_now"]), ref.min(),
                                   atol=0.6 / px_per_unit)
        return drawn  # (check: the distances are the run's at this step, within a px)

    before = check(k)
    # shown large (a click on its title) with the same distances, and back
    box = page.locator(f"{FIG} canvas.pe-canvas").bounding_box()

    def click_title():
        x, y0, w, h = _panels(page)["margin"]["title"]
        page.mouse.click(box["x"] + x + w / 2, box["y"] + y0 + h / 2)

    click_title()
    page.wait_for_function(f"() => {SHOWN}.pePanels.length === 1", timeout=60_000)
    assert list(_panels(page)) == ["margin"]
    large = check(k)
    assert np.ptp(large["margin_pos"][:, 0]) > 1.5 * np.ptp(before["margin_pos"][:, 0])
    click_title()
    page.wait_for_function(f"() => {SHOWN}.pePanels.length > 1", timeout=60_000)
    before = check(k)
    page.locator(f"{FIG} canvas.pe-canvas").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowRight")  # an update: w turns, every distance changes
    wait_for_step(page, k + 1, timeout=60)
    page.wait_for_timeout(500)
    assert "update" in _narration(page).lower()
    after = check(k + 1)
    assert np.abs(after["margin_pos"][:, 0] - before["margin_pos"][:, 0]).max() > 1.0
    # each point keeps its place across the axis (the figure may be laid out again between
    # the steps, when the narration's height changes: the order of heights stays)
    np.testing.assert_array_equal(np.argsort(after["margin_pos"][:, 1]),
                                  np.argsort(before["margin_pos"][:, 1]))
    said = _narration(page)

    link = wait_for_link(page, rf"step={k + 1}\b")
    assert "dataset=breast_cancer30" in link
    page.goto(link)
    wait_for_canvas(page, within=VISIBLE, timeout=120)
    wait_for_step(page, k + 1, timeout=90)
    page.wait_for_timeout(2000)
    wait_for_step(page, k + 1, timeout=90)
    assert _narration(page) == said  # the same step
    again = check(k + 1)  # the same margin line: every point at the same distance, in order
    for name in ("margin_pos", "margin_neg"):
        np.testing.assert_array_equal(np.argsort(again[name][:, 1]),
                                      np.argsort(after[name][:, 1]))
