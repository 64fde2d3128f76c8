"""Data of more than two features in the Perceptron tab, in Chromium (issue 34): a link opens Iris
with its four measurements, trained in four dimensions (the narration's points and weights have
four components, the run is the core's), drawn in the plane of w: the points are moving tracks
of the page, which move at an update and stay still at a step without one; a click that would
add a point is refused in words, and the data are kept."""

from __future__ import annotations

import re

import numpy as np
import pytest
from _voila import choose_click_mode, panel_heading, wait_for_canvas, wait_for_step

from explorer.perceptron import train
from explorer.plots.figure import VIEW3D_TITLE
from explorer.shared import datasets

pytestmark = pytest.mark.browser

VISIBLE = ".widget-tab-contents > .widget-box:visible"
FIG = f"{VISIBLE} .pe-pagefigure"


def _points(page):
    """The page's drawn points of both classes (CSS px), as its display list has them: the
    points move with the plane, so they come with the step's chunk (waited for: on a loaded
    machine the chunk can arrive after the step's words)."""
    page.wait_for_function(
        "() => { const e = [...document.querySelectorAll('.pe-pagefigure')]"
        ".find(n => n.offsetParent); const d = e && e.peDisplayList; "
        "return !!d && d.some(x => x.track === 'pos') && d.some(x => x.track === 'neg'); }",
        timeout=60_000)
    shown = {d["track"]: d["px"] for d in page.locator(FIG).evaluate("e => e.peDisplayList")}
    return shown["pos"], shown["neg"]


def _narration(page) -> str:
    return page.locator(f"{VISIBLE} .pe-pf-narration").inner_text()


def test_iris_in_four_dimensions_is_drawn_in_the_plane_of_w(page, dashboard_url):
    ds = datasets.load("iris", features="all", classes="versicolor_vs_virginica")
    traj = train(ds.X, ds.y, max_epochs=50, max_steps=5000)
    first = int(traj.update_steps[1])  # the first update: w turns from 0
    second = int(traj.update_steps[2])
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(dashboard_url + f"?tab=perceptron&dataset=iris4_hard&step={first - 1}")
    wait_for_canvas(page, within=VISIBLE, timeout=90)
    assert wait_for_step(page, first - 1, timeout=60).startswith(f"step {first - 1} of")
    page.wait_for_timeout(2000)  # the page fits the figure to the window first
    words = _narration(page)
    x = ds.X[first - 2]  # the point this step visited, with its four measurements
    assert re.search(r"\(" + r", ".join(f"{v:g}" for v in x) + r"\)", words), words
    pos, neg = _points(page)
    assert (len(pos), len(neg)) == (int((ds.y > 0).sum()), int((ds.y < 0).sum()))
    before = np.array(pos + neg)
    page.locator(f"{FIG} canvas.pe-canvas").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowRight")  # the first update: the plane turns to contain w
    wait_for_step(page, first, timeout=60)
    page.wait_for_timeout(500)
    assert "update" in _narration(page).lower()
    w, b = traj.state(first)
    assert len(w) == 4
    moved = np.array(sum(_points(page), []))
    assert np.abs(moved - before).max() > 1.0  # the points moved with the plane
    if second > first + 1:  # a step without an update: the same plane, the points still
        page.keyboard.press("ArrowRight")
        wait_for_step(page, first + 1, timeout=60)
        page.wait_for_timeout(500)
        np.testing.assert_allclose(np.array(sum(_points(page), [])), moved, atol=0.01)
    # a click that would add a point of R^4 is refused in words; the data are kept
    choose_click_mode(page, "Add +1", "add+", within=VISIBLE)
    box = page.locator(f"{FIG} canvas.pe-canvas").bounding_box()
    px, py = pos[0]
    page.mouse.click(box["x"] + px + 20, box["y"] + py + 20)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.pe-message, .pe-refusal, .widget-html')]"
        ".some(e => e.offsetParent !== null && /two features/.test(e.innerText))",
        timeout=30_000)
    assert len(sum(_points(page), [])) == ds.n



def test_the_random_sets_dimension_typed_in_the_page(page, dashboard_url):
    """The random data's "features" box set to 3: the data are trained in R^3 and drawn there
    (the 3-D view), its title says so; a bad dimension is refused in words and the 3-D run kept."""
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(dashboard_url + "?tab=perceptron&dataset=separable")
    wait_for_canvas(page, within=VISIBLE, timeout=90)
    wait_for_step(page, 0, timeout=60)
    box = page.locator(f"{VISIBLE} .widget-text:has(label:text-is('features')) input")
    assert box.input_value() == "2" and box.is_enabled()
    box.fill("3")
    box.press("Enter")
    page.wait_for_function(
        "() => ([...document.querySelectorAll('.pe-pagefigure')].find(n => n.offsetParent)"
        ".pePanels.find(p => p.name === 'plane') || {}).heading === "
        + repr(VIEW3D_TITLE), timeout=30_000)
    ds = datasets.load("separable", n=40, dim=3, margin=0.3, seed=0)
    traj = train(ds.X, ds.y, max_epochs=50)
    first = int(traj.update_steps[0])
    page.goto(page.url.split("?")[0] + f"?tab=perceptron&dataset=separable&dim=3&step={first}")
    wait_for_canvas(page, within=VISIBLE, timeout=90)
    wait_for_step(page, first, timeout=60)
    assert panel_heading(page) == VIEW3D_TITLE
    w = re.search(r"w ← w \+ η·y·x = \(([^)]*)\)", _narration(page))
    assert w is not None, _narration(page)
    np.testing.assert_allclose([float(v) for v in w.group(1).split(", ")],
                               traj.state(first)[0], rtol=1e-2, atol=1e-3)  # three components, the core's
    box = page.locator(f"{VISIBLE} .widget-text:has(label:text-is('features')) input")
    box.fill("1")
    box.press("Enter")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.pe-message, .pe-refusal, .widget-html')]"
        ".some(e => e.offsetParent !== null && "
        "/features must be a whole number from 2 to 64; got 1/.test(e.innerText))",
        timeout=30_000)
    assert panel_heading(page) == VIEW3D_TITLE
    assert wait_for_step(page, first, timeout=10).startswith(f"step {first} of")
