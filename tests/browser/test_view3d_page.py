"""The Perceptron tab's 3-D view in Chromium (issue 34, item 2): a CSV of three features pasted in
the page is trained in three dimensions (the narration's w has three components and is
:func:`explorer.perceptron.train`'s on the same array, step by step) and drawn in a 3-D view;
the view turns when dragged and with Shift + arrows (which then do not step), and the key v and
the panel's "reset view" button bring it back to where it opened. The geometry and matplotlib's
drawing: tests/test_data3d.py; the keys' arithmetic: tests/js/view3d.test.mjs."""

from __future__ import annotations

import re

import numpy as np
import pytest
from _voila import click_button, wait_for_canvas, wait_for_step

from explorer.app.perceptron.model import KOSKI_PRESET
from explorer.perceptron import train

pytestmark = pytest.mark.browser

VISIBLE = ".widget-tab-contents > .widget-box:visible"
FIG = f"{VISIBLE} .pe-pagefigure"
HEADING = "3 features, in 3-D: drag to turn"
X = np.array([[0.5, 1.2, 0.3], [-0.3, -0.8, 0.9], [1.1, 0.4, -0.5], [-1.0, 0.2, -0.7],
              [0.8, -0.6, 1.0], [-0.4, 0.7, -1.2]])
Y = np.array([1, -1, 1, -1, 1, -1])
CSV = "x1,x2,x3,label\n" + "\n".join(",".join(f"{v:g}" for v in (*x, c))
                                    for x, c in zip(X, Y, strict=True))
W_SAID = re.compile(r"w ← w \+ η·y·x = \(([^)]*)\)")


def _narration(page) -> str:
    return page.locator(f"{FIG} .pe-pf-narration").inner_text()


def _points(page) -> np.ndarray:
    """Where the page draws the points of both classes now (CSS px), from its display list."""
    shown = {d["track"]: d["px"] for d in page.locator(FIG).evaluate("e => e.peDisplayList")}
    return np.array(shown["pos3d"] + shown["neg3d"], dtype=float)


def _plane(page) -> dict:
    return page.locator(FIG).evaluate("e => e.pePanels.find(p => p.name === 'plane')")


def _numbers(text: str) -> list[float]:
    return [float(v.replace("−", "-")) for v in text.split(", ")]


def test_a_3_feature_csv_trains_in_3d_and_its_view_turns_and_resets(page, dashboard_url):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(dashboard_url + "?tab=perceptron")
    wait_for_canvas(page, timeout=90)
    wait_for_step(page, 0, timeout=60)
    page.get_by_text("Your own data (CSV)").first.click()
    page.locator(f"{VISIBLE} textarea").first.fill(CSV)
    click_button(page, "Use pasted data")
    page.wait_for_function(
        "() => ([...document.querySelectorAll('.pe-pagefigure')].find(n => n.offsetParent)"
        f".pePanels.find(p => p.name === 'plane') || {{}}).heading === '{HEADING}'",
        timeout=30_000)
    page.wait_for_timeout(1500)  # fitted to the window

    # trained in three dimensions: each update's w is train's on the same array, with the
    # settings the tab opened with (Koski's example's: eta 0.2) and w from 0
    ref = train(X, Y.astype(float), eta=KOSKI_PRESET["eta"], max_epochs=50)
    updates = [int(k) for k in ref.update_steps if k > 0][:2]
    for k in updates:
        page.locator(f"{FIG} input.pe-pf-slider-input").fill(str(k))
        wait_for_step(page, k, timeout=30)
        said = W_SAID.search(_narration(page))
        assert said is not None, _narration(page)
        got = _numbers(said.group(1))
        assert len(got) == 3
        np.testing.assert_allclose(got, ref.state(k)[0], rtol=0.01, atol=0.01)
    k = updates[-1]

    # the points are drawn where the view projects the data; the view turns when dragged
    home = _points(page)
    assert home.shape == (6, 2)
    plane = _plane(page)
    box = page.locator(f"{FIG} canvas.pe-canvas").bounding_box()
    cx, cy = box["x"] + plane["x"] + plane["w"] / 2, box["y"] + plane["y"] + plane["h"] / 2
    page.mouse.move(cx, cy)
    page.mouse.down()
    for i in range(1, 11):
        page.mouse.move(cx + 6 * i, cy + 2 * i)
    page.mouse.up()
    page.wait_for_timeout(300)
    dragged = _points(page)
    assert np.abs(dragged - home).max() > 5, "the drag turned the view"
    assert wait_for_step(page, k).startswith(f"step {k} of")  # no step

    # v: back where it opened; Shift + ← turns it and does not step back
    page.mouse.move(cx, cy)  # the pointer over the figure: its keys
    page.keyboard.press("v")
    page.wait_for_timeout(300)
    np.testing.assert_allclose(_points(page), home, atol=0.5)
    page.keyboard.press("Shift+ArrowLeft")
    page.keyboard.press("Shift+ArrowUp")
    page.wait_for_timeout(300)
    keyed = _points(page)
    assert np.abs(keyed - home).max() > 2, "Shift + arrows turned the view"
    assert wait_for_step(page, k).startswith(f"step {k} of")

    # the "reset view" button over the panel brings it back too
    page.locator(f"{FIG} button.pe-pf-view-reset").click()
    page.wait_for_timeout(300)
    np.testing.assert_allclose(_points(page), home, atol=0.5)
    # an arrow alone still steps
    page.mouse.move(cx, cy)
    page.keyboard.press("ArrowRight")
    wait_for_step(page, k + 1, timeout=30)
