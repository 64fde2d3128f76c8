"""End-to-end: the XOR tab in Chromium, opened by a link; stepping plays the cycling run until
the narration reports the cycle, and the Kernel view redraws the figure. The page draws the
figure (issue 21): its narration is the page figure's, and the lifted 3-D view turns in the
page as it is dragged."""

from __future__ import annotations

import re

import numpy as np
import pytest
from _voila import (
    canvas_locator,
    canvas_signature,
    click_button,
    wait_for_canvas,
    wait_for_canvas_change,
    wait_for_step,
    wait_for_text,
    wait_until_quiet,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

NARRATION = "pe-pf-narration:visible"  # the page figure's narration (explorer.app.pagefigure)
FIGURE = ".pe-pagefigure:visible"


def test_xor_tab_plays_to_the_cycle(page, dashboard_url):
    page.goto(dashboard_url + "?tab=xor&step=3")
    wait_for_canvas(page, within=FIGURE, timeout=90)
    wait_for_text(page, NARRATION, lambda t: t.startswith("Step 3"), timeout=30)
    page.wait_for_timeout(2500)  # the page fits the figure to the window first
    before = canvas_signature(page, within=FIGURE)
    click_button(page, "Step ▶", within=FIGURE)
    note = wait_for_text(page, NARRATION, lambda t: "cycle of length 4 found at step 4" in t)
    wait_for_canvas_change(page, before, within=FIGURE, timeout=20)
    drawn = page.evaluate("() => document.querySelector('.pe-pagefigure').peDisplayList"
                          ".filter(d => d.visible).map(d => d.track)")
    # step 4 is back at w = 0 (no line): the cycle's span and note appear
    assert {"region", "cycle_span", "cycle_note", "updates", "ring"} <= set(drawn), drawn
    before = canvas_signature(page, within=FIGURE)
    click_button(page, "Kernel")
    wait_for_text(page, NARRATION, lambda t: "Kernel perceptron" in t, timeout=30)
    wait_for_canvas_change(page, before, within=FIGURE, timeout=20)
    assert canvas_locator(page, within=FIGURE).is_visible(), note
    # a hatched bar's hatch stays inside the bar: the page stroked the hatch lines again,
    # unclipped, as the bar's edge (they filled the plot beside each bar)
    # "Cycling · XOR · step k of n · …"
    n = int(re.search(r"\bstep \d+ of (\d+)", page.locator(f"{FIGURE} .pe-where").inner_text())[1])
    click_button(page, "End", within=FIGURE)
    wait_for_step(page, n)  # the last step drawn: its bars are on the canvas
    beside = page.evaluate("""() => {
        const f = [...document.querySelectorAll('.pe-pagefigure')].find(n => n.offsetParent);
        const bars = f.peDisplayList.filter(d => /^alpha_[0-9]$/.test(d.track));
        const c = f.querySelector('canvas.pe-canvas'), r = c.width / c.getBoundingClientRect().width;
        const ctx = c.getContext('2d'), out = [];
        const ys = bars.flatMap(b => b.px.map(p => p[1]));
        const y = (Math.min(...ys) + Math.max(...ys)) / 2;  // half the tallest bar's height
        for (const b of bars) {
          const xs = b.px.map(p => p[0]);
          const gap = 0.2 * (Math.max(...xs) - Math.min(...xs));  // between two bars
          const x = Math.max(...xs) + gap / 2;
          const px = ctx.getImageData(Math.round(x * r), Math.round(y * r), 1, 1).data;
          out.push([b.track, Math.min(px[0], px[1], px[2])]);
        }
        return out; }""")
    assert len(beside) == 4 and all(v > 200 for _, v in beside), beside


def test_xor_tab_exports_its_figure_and_its_cycle(page, dashboard_url):
    """The Export section of a tab other than Perceptron: PNG at once, then the cycling run as
    a GIF made in the background, each a download named after the tab and its state."""
    page.goto(dashboard_url + "?tab=xor&step=5")
    wait_for_canvas(page, within=FIGURE, timeout=90)
    wait_for_text(page, NARRATION, lambda t: t.startswith("Step 5"), timeout=30)
    # closed at open: the section makes its panel when opened
    page.locator("text=PNG · SVG · GIF · HTML >> visible=true").click()
    panel = page.locator(".pe-export:visible")
    panel.get_by_role("button", name="PNG", exact=True).wait_for(timeout=30_000)
    # the note is written after the panel's parts are made, in a message of its own
    expect(panel).to_contain_text("25 frames, step 0 to 24, every one")
    panel.get_by_role("button", name="PNG", exact=True).click()
    link = panel.locator(".pe-export-link a")
    link.wait_for(timeout=30_000)
    assert link.get_attribute("download") == "xor-cycling-xor-pm1-step5.png"
    with page.expect_download(timeout=30_000) as got:
        link.click()
    assert got.value.suggested_filename == "xor-cycling-xor-pm1-step5.png"
    panel.get_by_role("button", name="GIF", exact=True).click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.pe-export:not([hidden]) .pe-export-status')]"
        ".some(s => s.innerText.includes('GIF ready.'))", timeout=60_000)
    link.wait_for(timeout=10_000)
    assert link.get_attribute("download") == "xor-cycling-xor-pm1.gif"
    href = link.get_attribute("href")
    assert href.startswith("data:image/gif;base64,R0lGOD")  # "GIF8"


def test_a_three_line_narration_is_not_cut_at_1024(page, dashboard_url):
    """The narration holds all its lines at 1024 × 768 (XOR, step 11: three lines); before the
    page drew the figure, ipywidgets' box lost the last line behind a scroll bar."""
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(dashboard_url + "?tab=xor&step=11")
    wait_for_canvas(page, within=FIGURE, timeout=90)
    wait_for_text(page, NARRATION, lambda t: t.startswith("Step 11"), timeout=30)
    measure = """() => {
        const e = [...document.querySelectorAll('.pe-pf-narration')].find(n => n.offsetParent);
        return {shown: e.clientHeight, needed: e.scrollHeight, text: e.innerText}; }"""
    # the page fits the figure to the window (0.5 s and 2 s after opening): wait until still
    wait_until_quiet(page, measure, quiet_ms=1500, timeout_ms=30_000, what="the narration's box")
    box = page.evaluate(measure)
    assert box["needed"] <= box["shown"] + 1, box


#: The lifted view's positive points as the shown figure drew them last, and its step.
POINTS = """() => {
    const f = [...document.querySelectorAll('.pe-pagefigure')].find(n => n.offsetParent);
    const d = f.peDisplayList.find(t => t.track === 'lift_pos');
    return {px: d.px, visible: d.visible, step: f.peStep}; }"""


def test_the_lifted_view_turns_in_the_page(page, dashboard_url):
    """Dragging in the lifted 3-D view turns it in the page (the points move at once, the step
    stays); the kernel hears the view where the drag ends, so a new size keeps it."""
    page.goto(dashboard_url + "?tab=xor&view=feature&step=2")
    wait_for_canvas(page, within=FIGURE, timeout=90)
    wait_for_text(page, NARRATION, lambda t: t.startswith("Step 2 of"), timeout=30)
    page.wait_for_timeout(2000)

    def points():
        return page.evaluate(POINTS)

    before = points()
    assert before["visible"] and before["step"] == 2
    box = canvas_locator(page, within=FIGURE).bounding_box()
    x, y = (box["x"] + before["px"][0][0], box["y"] + before["px"][0][1])
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 40, y + 10, steps=4)
    page.mouse.move(x + 80, y + 20, steps=4)
    page.mouse.up()
    # the page turns the view as the pointer moves (no kernel round trip): wait until still
    wait_until_quiet(page, POINTS, quiet_ms=300, what="the lifted view")
    after = points()
    assert after["step"] == 2 and after["visible"]
    moved = max(abs(a - b) for p, q in zip(after["px"], before["px"], strict=True)
                for a, b in zip(p, q, strict=True))
    assert moved > 10, (before, after)
    page.set_viewport_size({"width": 1024, "height": 768})  # a new scene from the kernel
    page.wait_for_function(
        "(w) => { const c = [...document.querySelectorAll('canvas.pe-canvas')].find(n => "
        "n.offsetParent); return c && Math.abs(c.getBoundingClientRect().width - w) > 20; }",
        arg=box["width"], timeout=30_000)
    # the canvas takes its new size before the kernel's new scene is in: wait for step 2 drawn
    # in it and for the points to stay still
    wait_for_step(page, 2)
    wait_until_quiet(page, POINTS, quiet_ms=500, timeout_ms=30_000, what="the lifted view")
    again = points()
    first = np.asarray(again["px"][0]) - np.asarray(after["px"][0])
    # the turned view (not the opening one): the points keep their places relative to one
    # another as turned, up to the new size's scale
    rel_after = np.asarray(after["px"]) - np.asarray(after["px"][0])
    rel_again = np.asarray(again["px"]) - np.asarray(again["px"][0])
    rel_before = np.asarray(before["px"]) - np.asarray(before["px"][0])
    scale = np.linalg.norm(rel_again) / max(np.linalg.norm(rel_after), 1e-9)
    assert np.allclose(rel_again, rel_after * scale, atol=3), (rel_again, rel_after, first)
    assert not np.allclose(rel_again, rel_before * scale, atol=3)
