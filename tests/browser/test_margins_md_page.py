"""The Margins tab on the 30 breast-cancer features, in Chromium (issue 34, item 1): a link opens
the hard margin solved in R^30, drawn in the plane of the SVM's w: the panel's heading says
so, every point is drawn, the slab is the band between f = -1 and f = +1 around the boundary
(its half-width along w is the margin 1/||w||, drawn to the plane's scale), the support vectors
are ringed on its edges; a click that would add a point of R^30 is refused in words and the data
are kept. The numbers against scikit-learn: tests/test_margins_md.py."""

from __future__ import annotations

import numpy as np
import pytest
from _voila import choose_click_mode, wait_for_canvas, wait_for_text

from explorer.app.margins.model import MarginsModel

pytestmark = pytest.mark.browser

VISIBLE = ".widget-tab-contents > .widget-box:visible"
FIG = f"{VISIBLE} .pe-pagefigure"


def _shown(page) -> dict:
    return {d["track"]: np.array(d["px"], dtype=float).reshape(-1, 2)
            for d in page.locator(FIG).evaluate("e => e.peDisplayList")}


def test_30_features_are_drawn_in_the_plane_of_w_and_a_click_is_refused(page, dashboard_url):
    m = MarginsModel(dataset="breast_cancer30", hard=True)
    fit = m.comparison.svm
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(dashboard_url + "?tab=margins&dataset=breast_cancer30&hard=true")
    wait_for_canvas(page, within=VISIBLE, timeout=90)
    wait_for_text(page, "pe-pf-narration", lambda t: "support vectors" in t, timeout=60)
    page.wait_for_function(
        "() => ([...document.querySelectorAll('.pe-pagefigure')].find(n => n.offsetParent)"
        ".pePanels.find(p => p.name === 'plane') || {}).heading"
        "?.includes('30 features, in the plane of w')", timeout=30_000)
    page.wait_for_timeout(2000)  # the page fits the figure to the window first
    d = _shown(page)
    assert len(d["plane_pos"]) + len(d["plane_neg"]) == len(m.X) == 398
    # the boundary and the band's edges are vertical lines (w is the plane's first axis)
    line, hi, lo = d["plane_line"], d["plane_band_hi"], d["plane_band_lo"]
    for seg in (line, hi, lo):
        assert np.ptp(seg[:, 0]) < 0.5 and np.ptp(seg[:, 1]) > 100
    half = (hi[0, 0] - lo[0, 0]) / 2  # px for 1/||w||
    assert half > 0 and abs(hi[0, 0] - line[0, 0] - half) < 0.5
    # the page's scale along w (px per unit of R^30): the half-width is the margin 1/||w||
    panel = page.evaluate("() => [...document.querySelectorAll('.pe-pagefigure')]"
                          ".find(n => n.offsetParent).pePanels.find(p => p.name === 'plane')")
    scale = panel["map"][0]  # data -> px: x * scale + offset
    assert half == pytest.approx(scale / np.linalg.norm(fit.w), rel=0.01)
    assert line[0, 0] == pytest.approx(panel["map"][1], abs=0.5)  # the boundary at s = 0
    slab = d["plane_slab"]
    assert slab[:, 0].min() == pytest.approx(lo[0, 0], abs=0.6)
    assert slab[:, 0].max() == pytest.approx(hi[0, 0], abs=0.6)
    rings = d["plane_rings"]
    assert len(rings) == len(fit.support)
    edge = np.minimum(np.abs(rings[:, 0] - hi[0, 0]), np.abs(rings[:, 0] - lo[0, 0]))
    assert edge.max() < 0.6, edge  # every support vector on an edge of the slab

    # a click that would add a point of R^30 is refused in words; the data are kept
    choose_click_mode(page, "Add +1", "add+", within=VISIBLE)
    box = page.locator(f"{FIG} canvas.pe-canvas").bounding_box()
    page.mouse.click(box["x"] + line[0, 0] + 30, box["y"] + line[:, 1].mean())
    page.wait_for_function(
        "() => [...document.querySelectorAll('.pe-message, .pe-refusal, .widget-html')]"
        ".some(e => e.offsetParent !== null && /two features; these have 30/.test(e.innerText))",
        timeout=30_000)
    page.wait_for_timeout(500)
    d = _shown(page)
    assert len(d["plane_pos"]) + len(d["plane_neg"]) == 398
