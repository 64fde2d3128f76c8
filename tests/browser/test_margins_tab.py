"""End-to-end: the Margins tab in Chromium, opened by a link; moving C redraws the figure."""

from __future__ import annotations

import pytest
from _voila import (
    canvas_locator,
    canvas_signature,
    wait_for_canvas,
    wait_for_canvas_change,
    wait_for_text,
    widget_text,
)

pytestmark = pytest.mark.browser


def test_margins_tab_follows_c(page, dashboard_url):
    page.goto(dashboard_url + "?tab=margins&dataset=overlapping")
    wait_for_canvas(page, timeout=90)
    wait_for_text(page, "pe-pf-narration", lambda t: "support vectors" in t, timeout=30)
    page.wait_for_timeout(2500)  # the page fits the figure to the window first
    before = canvas_signature(page)
    readout = page.locator(".widget-slider:has(label:text-is('C')) .widget-readout")
    readout.click()
    page.keyboard.press("Control+A")
    page.keyboard.type("0.01")
    page.keyboard.press("Enter")
    note = wait_for_text(page, "pe-pf-narration", lambda t: "support vectors" in t and "hinge" in t)
    wait_for_canvas_change(page, before, timeout=20)
    assert canvas_locator(page).is_visible()
    assert "Sayed's η = N·C = 0.4" in page.inner_text(".pe-sidebar"), note


FIG = ".pe-pagefigure"


def _drawn(page, track):
    return next(d for d in page.locator(FIG).evaluate("e => e.peDisplayList")
                if d["track"] == track)


def test_margins_tab_drags_a_point_drawn_by_the_page(page, dashboard_url):
    """Drag mode: the page draws the dragged point under the pointer at once (no kernel round
    trip), the max-margin line follows as the kernel re-solves, and on release the whole
    figure follows (a new scene: the points are edited)."""
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(dashboard_url + "?tab=margins&dataset=koski&hard=true")
    wait_for_canvas(page, timeout=90)
    wait_for_text(page, "pe-pf-narration", lambda t: "3 support vectors" in t, timeout=30)
    page.wait_for_timeout(2500)
    page.get_by_role("button", name="Drag").click()
    page.wait_for_function(f"() => document.querySelector('{FIG}').dataset.pointerMode === 'drag'")
    canvas = page.locator(f"{FIG} canvas.pe-canvas")
    box = canvas.bounding_box()
    ring = _drawn(page, "plane_rings")["px"][0]  # a support vector: moving it moves the line
    line = _drawn(page, "plane_line")["px"]
    page.mouse.move(box["x"] + ring[0], box["y"] + ring[1])
    page.mouse.down()
    target = (ring[0] + 25.0, ring[1] + 15.0)
    page.mouse.move(box["x"] + target[0], box["y"] + target[1])
    # within two frames the point is drawn at the pointer, whatever the kernel is doing
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    pts = _drawn(page, "plane_pos")["px"] + _drawn(page, "plane_neg")["px"]
    assert min(abs(p[0] - target[0]) + abs(p[1] - target[1]) for p in pts) < 1.0, pts
    # the kernel re-solves and sends the new solution: the line moves while the button is down
    page.wait_for_function(f"""() => {{
        const d = document.querySelector('{FIG}').peDisplayList.find(t => t.track === 'plane_line');
        const old = {line};
        return d.px.some((p, i) => Math.abs(p[0] - old[i][0]) + Math.abs(p[1] - old[i][1]) > 0.5);
    }}""", timeout=20_000)
    wait_for_text(page, "pe-pf-narration", lambda t: "follow when you pause" in t, timeout=20)
    page.mouse.up()
    for _ in range(80):  # the whole figure follows on release
        if "6 points (edited)" in page.inner_text(f"{FIG} .pe-where"):
            break
        page.wait_for_timeout(250)
    assert "6 points (edited)" in page.inner_text(f"{FIG} .pe-where")
    pts = _drawn(page, "plane_pos")["px"] + _drawn(page, "plane_neg")["px"]
    assert len(pts) == 6


def test_margins_tab_adds_a_point_where_clicked(page, dashboard_url):
    """A click in Add mode reaches the kernel through the page and the solution follows it."""
    page.goto(dashboard_url + "?tab=margins&dataset=koski&hard=true&layout=side")
    wait_for_canvas(page, timeout=90)
    wait_for_text(page, "pe-pf-narration", lambda t: "3 support vectors" in t, timeout=30)
    page.wait_for_timeout(2500)
    page.get_by_role("button", name="Add −1").click()
    page.wait_for_timeout(1500)  # the figure is drawn again without the data in its background
    before = canvas_signature(page)
    box = canvas_locator(page).bounding_box()
    # the SVM's plane is the second of three columns; its middle is inside the data's box
    page.mouse.click(box["x"] + box["width"] * 0.52, box["y"] + box["height"] * 0.35)
    wait_for_text(page, "pe-pf-narration", lambda t: "7 points" in t or "edited" in t, timeout=30)
    wait_for_canvas_change(page, before, timeout=20)
    for _ in range(40):  # the status line follows once the whole solution is in
        if "7 points (edited)" in page.inner_text(".pe-view"):
            break
        page.wait_for_timeout(250)
    assert "7 points (edited)" in page.inner_text(".pe-view"), widget_text(page, "pe-pf-narration")


@pytest.mark.parametrize("tab", ["margins", "xor"])
def test_no_settings_button_is_cut_at_1366(page, dashboard_url, tab):
    """'Open these points in the Perceptron tab' was cut to '…Perceptro…' in the settings
    column of Margins and XOR at every width (1024 to 1920)."""
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(dashboard_url + f"?tab={tab}")
    wait_for_canvas(page, timeout=90)
    page.wait_for_timeout(1500)
    cut = page.evaluate("""() => [...document.querySelectorAll('.pe-sidebar .widget-button')]
        .filter(b => b.offsetParent && b.scrollWidth > b.clientWidth + 1)
        .map(b => [b.innerText, b.scrollWidth, b.clientWidth])""")
    assert cut == [], cut
