"""The Margins tab's 3-D view in Chromium (issue 34, item 2): a link to the hard margin on Iris'
three features (?tab=margins&dataset=iris3) opens a 3-D panel in which the SVM's plane and both
margin planes are drawn, the support vectors are ringed where the points are (and where the
panel's view projects the kernel's support vectors), and the view turns when dragged and with
Shift + arrows and comes back with v and the "reset view" button, the rings turning with the
points; a CSV of three features pasted in the tab is solved and drawn in the same view. The
geometry against scikit-learn: tests/test_margin3d.py."""

from __future__ import annotations

import numpy as np
import pytest
from _voila import click_button, wait_for_canvas, wait_for_text

from explorer.app.margins.model import MarginsModel
from explorer.app.state import points_of
from explorer.plots.view3d import project

pytestmark = pytest.mark.browser

VISIBLE = ".widget-tab-contents > .widget-box:visible"
FIG = f"{VISIBLE} .pe-pagefigure"


def _shown(page) -> dict:
    return {d["track"]: np.array(d["px"], dtype=float).reshape(-1, 2)
            for d in page.locator(FIG).evaluate("e => e.peDisplayList")}


def _plane(page) -> dict:
    return page.locator(FIG).evaluate("e => e.pePanels.find(p => p.name === 'plane')")


def _projected(panel: dict, xyz) -> np.ndarray:
    """Where the panel's view (its angles and box, as the page holds them) draws ``xyz``."""
    v = panel["view3d"]
    uv = project(xyz, azim=v["azim"], elev=v["elev"], lo=v["lo"], hi=v["hi"])
    ax, bx, ay, by = panel["map"]
    return np.column_stack([uv[:, 0] * ax + bx, uv[:, 1] * ay + by])


def _at_points(d: dict) -> np.ndarray:
    """Each ring's distance (px) to the nearest point drawn."""
    pts = np.vstack([d["m3_pos"], d["m3_neg"]])
    return np.array([np.linalg.norm(pts - r, axis=1).min() for r in d["m3_rings"]])


def test_iris3_margins_in_3d_rings_at_support_vectors_and_the_view_turns(page, dashboard_url):
    m = MarginsModel(dataset="iris3", hard=True)
    fit = m.comparison.svm
    sv = m.X[np.asarray(fit.support)]
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(dashboard_url + "?tab=margins&dataset=iris3&hard=true")
    wait_for_canvas(page, within=VISIBLE, timeout=90)
    wait_for_text(page, "pe-pf-narration", lambda t: "support vectors" in t, timeout=60)
    page.wait_for_function(
        "() => ([...document.querySelectorAll('.pe-pagefigure')].find(n => n.offsetParent)"
        ".pePanels.find(p => p.name === 'plane') || {}).view3d", timeout=30_000)
    page.wait_for_timeout(2000)  # the page fits the figure to the window first
    plane = _plane(page)
    assert "in 3-D" in plane["heading"]
    d = _shown(page)
    assert len(d["m3_pos"]) + len(d["m3_neg"]) == len(m.X) == 105
    # the SVM's plane and the two margin planes are drawn (clipped to the box)
    for name in ("m3_line", "m3_band_lo", "m3_band_hi", "m3_slab"):
        assert len(d[name]) >= 3, name
    # the rings: one a support vector, on a point, where the view projects the kernel's SVs
    assert len(d["m3_rings"]) == len(sv)
    assert _at_points(d).max() < 0.6
    np.testing.assert_allclose(d["m3_rings"], _projected(plane, sv), atol=0.6)
    home = d["m3_rings"]

    # dragged: the view turns (no step), the rings stay on their points
    box = page.locator(f"{FIG} canvas.pe-canvas").bounding_box()
    cx, cy = box["x"] + plane["x"] + plane["w"] / 2, box["y"] + plane["y"] + plane["h"] / 2
    page.mouse.move(cx, cy)
    page.mouse.down()
    for i in range(1, 11):
        page.mouse.move(cx + 8 * i, cy + 3 * i)
    page.mouse.up()
    page.wait_for_timeout(300)
    d = _shown(page)
    assert np.abs(d["m3_rings"] - home).max() > 5, "the drag turned the view"
    assert _at_points(d).max() < 0.6
    turned = _plane(page)
    assert turned["view3d"]["azim"] != plane["view3d"]["azim"]
    np.testing.assert_allclose(d["m3_rings"], _projected(turned, sv), atol=0.6)

    # v: back where it opened; Shift + arrows turn it; the "reset view" button brings it back
    page.mouse.move(cx, cy)  # the pointer over the figure: its keys
    page.keyboard.press("v")
    page.wait_for_timeout(300)
    np.testing.assert_allclose(_shown(page)["m3_rings"], home, atol=0.5)
    page.keyboard.press("Shift+ArrowLeft")
    page.keyboard.press("Shift+ArrowUp")
    page.wait_for_timeout(300)
    d = _shown(page)
    assert np.abs(d["m3_rings"] - home).max() > 2, "Shift + arrows turned the view"
    assert _at_points(d).max() < 0.6
    page.locator(f"{FIG} button.pe-pf-view-reset").click()
    page.wait_for_timeout(300)
    np.testing.assert_allclose(_shown(page)["m3_rings"], home, atol=0.5)


def test_a_3_feature_csv_is_solved_and_drawn_in_3d(page, dashboard_url):
    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal(1.5, 0.4, (8, 3)), rng.normal(-1.5, 0.4, (8, 3))])
    y = np.r_[np.ones(8), -np.ones(8)].astype(int)
    csv = "x1,x2,x3,label\n" + "\n".join(",".join(f"{v:.4f}" for v in x) + f",{c}"
                                        for x, c in zip(X, y, strict=True))
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(dashboard_url + "?tab=margins")
    wait_for_canvas(page, within=VISIBLE, timeout=90)
    page.get_by_text("Your own data (CSV)").first.click()
    page.locator(f"{VISIBLE} textarea").first.fill(csv)
    click_button(page, "Use pasted data")
    page.wait_for_function(
        "() => ([...document.querySelectorAll('.pe-pagefigure')].find(n => n.offsetParent)"
        ".pePanels.find(p => p.name === 'plane') || {}).view3d", timeout=60_000)
    page.wait_for_timeout(1500)
    d = _shown(page)
    assert len(d["m3_pos"]) == 8 and len(d["m3_neg"]) == 8
    m = MarginsModel()
    assert m.set_state(m.get_state() | {"points": points_of(np.round(X, 4), y), "step": 0})
    assert len(d["m3_rings"]) == len(m.comparison.svm.support)
    assert _at_points(d).max() < 0.6
    np.testing.assert_allclose(d["m3_rings"], _projected(
        _plane(page), np.round(X, 4)[np.asarray(m.comparison.svm.support)]), atol=0.6)
