"""End-to-end: the Margins tab in Chromium, opened by a link; moving C redraws the figure."""

from __future__ import annotations

import pytest
from _voila import (
    canvas_locator,
    canvas_signature,
    wait_for_canvas,
    wait_for_canvas_change,
    wait_for_text,
    wait_until_quiet,
)
from playwright.sync_api import expect

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
    wait_for_text(page, "pe-pf-narration", lambda t: "support vectors" in t and "hinge" in t)
    wait_for_canvas_change(page, before, timeout=20)
    assert canvas_locator(page).is_visible()
    # the settings column's text follows C in a message of its own
    expect(page.locator(".pe-sidebar").first).to_contain_text("Sayed's η = N·C = 0.4")


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
    # the whole figure follows on release (a new scene): its status and its points
    expect(page.locator(f"{FIG} .pe-where")).to_contain_text("6 points (edited)")
    page.wait_for_function(f"""() => {{
        const f = document.querySelector('{FIG}');
        return f.dataset.waiting === 'false' && f.peDisplayList.filter(
            d => d.track === 'plane_pos' || d.track === 'plane_neg')
          .reduce((n, d) => n + d.px.length, 0) === 6; }}""", timeout=30_000)
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
    # the status line follows once the whole solution is in
    expect(page.locator(".pe-view").first).to_contain_text("7 points (edited)")


@pytest.mark.parametrize("tab", ["margins", "xor"])
def test_no_settings_button_is_cut_at_1366(page, dashboard_url, tab):
    """'Open these points in the Perceptron tab' was cut to '…Perceptro…' in the settings
    column of Margins and XOR at every width (1024 to 1920)."""
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(dashboard_url + f"?tab={tab}")
    wait_for_canvas(page, timeout=90)
    wait_until_quiet(page, """() => JSON.stringify([...document.querySelectorAll(
        '.pe-sidebar .widget-button')].map(b => [b.scrollWidth, b.clientWidth]))""",
                     quiet_ms=1500, timeout_ms=30_000, what="the settings column's buttons")
    cut = page.evaluate("""() => [...document.querySelectorAll('.pe-sidebar .widget-button')]
        .filter(b => b.offsetParent && b.scrollWidth > b.clientWidth + 1)
        .map(b => [b.innerText, b.scrollWidth, b.clientWidth])""")
    assert cut == [], cut
