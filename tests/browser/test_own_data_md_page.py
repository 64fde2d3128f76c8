"""End-to-end: a CSV of three features pasted in the Perceptron tab is trained in three
dimensions (issue 34, item 1): the narration's w has three components, the data panel's title
says "3 features, in 3-D: drag to turn" (tests/browser/test_view3d_page.py turns it), a step
works, and the link reopens the run at the same step with the same weights. The run against
:func:`explorer.perceptron.train`, the 5-feature case, saved states and bad input:
tests/test_own_data_md.py."""

from __future__ import annotations

import re

import pytest
from _voila import click_button, panel_heading, wait_for_canvas, wait_for_link, wait_for_step

pytestmark = pytest.mark.browser

FIGURE = ".pe-pagefigure:visible"
CSV = ("x1,x2,x3,label\n0.5,1.2,0.3,1\n-0.3,-0.8,0.9,-1\n1.1,0.4,-0.5,1\n-1.0,0.2,-0.7,-1\n"
       "0.8,-0.6,1.0,1\n-0.4,0.7,-1.2,-1")
# the update's w in the narration: "w ← w + η·y·x = (a, b, c)"
UPDATE_W = re.compile(r"w ← w \+ η·y·x = \(([^)]*)\)")


def _narration(page) -> str:
    return page.locator(".pe-pf-narration >> visible=true").first.inner_text()




def test_a_pasted_3_feature_csv_trains_in_3d_and_its_link_reopens_it(page, dashboard_url):
    page.goto(dashboard_url + "?tab=perceptron")
    wait_for_canvas(page, within=FIGURE, timeout=90)
    wait_for_step(page, 0, timeout=60)
    page.get_by_text("Your own data (CSV)").first.click()
    box = page.locator(".pe-view textarea >> visible=true").first
    box.fill(CSV)
    click_button(page, "Use pasted data")
    page.wait_for_function("() => [...document.querySelectorAll('.pe-pf-narration')]"
                           ".some(n => n.offsetParent && n.textContent.includes('w = (0, 0, 0)'))",
                           timeout=30_000)
    assert "trained in its own 3 dimensions" in page.inner_text(".pe-view")
    page.wait_for_function(
        "() => ([...document.querySelectorAll('.pe-pagefigure')].find(n => n.offsetParent)"
        ".pePanels.find(p => p.name === 'plane') || {}).heading === "
        "'3 features, in 3-D: drag to turn'", timeout=30_000)

    click_button(page, "Step ▶", within=FIGURE)
    wait_for_step(page, 1)
    click_button(page, "Step ▶", within=FIGURE)
    status = wait_for_step(page, 2)
    assert "6 points (edited)" in status
    said = _narration(page)
    w = UPDATE_W.search(said)
    assert w is not None and len(w.group(1).split(", ")) == 3, said  # w has three components

    link = wait_for_link(page, r"step=2")
    points = re.search(r"points=([^&]*)", link).group(1)
    assert all(len(p.split(",")) == 4 for p in points.split(";")), points  # x1, x2, x3, label
    page.goto(link)
    wait_for_canvas(page, within=FIGURE, timeout=90)
    wait_for_step(page, 2, timeout=60)
    assert _narration(page) == said  # the same step, the same weights
    assert panel_heading(page) == "3 features, in 3-D: drag to turn"
