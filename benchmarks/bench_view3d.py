"""The Perceptron tab's 3-D view (issue 34, item 2: data of three features), in Chromium.

Voila serves the dashboard at ``?tab=perceptron&dataset=iris3`` (Iris, petal length, petal
width, sepal length; 1366x768, device pixel ratio 1). Timed inside the page with
``performance.now()``, as :mod:`bench_drag` and :mod:`bench_browser` do:

* ``view3d_drag_fps``: the 3-D view is pressed at its centre and dragged for :data:`SECONDS` s
  by pointer events dispatched on the figure's canvas at every animation frame (one move a
  frame, as a browser delivers a real pointer's moves), around a loop of :data:`RADIUS_PX`;
  frames per second = animation frames in which the canvas was drawn (``drawImage`` onto it),
  over the drag's duration (:func:`bench_drag.measure`). The page turns the view itself; the
  kernel hears the view once, when the drag ends.
* ``margin3d_drag_fps``: the same drag in the Margins tab's 3-D view
  (``?tab=margins&dataset=iris3&hard=true``: the SVM's plane, the margin planes and the slab,
  the support vectors ringed; :mod:`explorer.plots.margin3d`).
* ``view3d_step_click_to_pixels_{median,p95}_ms``: "Step ▶" clicked :data:`CLICKS` times, each
  from the click to the first ``drawImage`` that changes the canvas's pixels
  (:func:`bench_browser._click_latencies`), the canvas quiet between clicks.

Chromium, the kernel and Voila share the machine's cores; the note says the load average.
"""

from __future__ import annotations

import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _voila as V  # noqa: E402
from bench_browser import _click_latencies, _quiet  # noqa: E402
from bench_drag import DRAG_JS, WS_JS, measure  # noqa: E402

QUERY = "?tab=perceptron&dataset=iris3"
MARGINS_QUERY = "?tab=margins&dataset=iris3&hard=true"
FIGURE = ".pe-pagefigure"
SECONDS = 4.0
RADIUS_PX = 60.0
TURNS = 2
CLICKS = 40


def _load() -> str:
    return ", ".join(f"{v:.2f}" for v in os.getloadavg())


def run(seconds: float = SECONDS, clicks: int = CLICKS) -> list[dict]:
    import numpy as np

    if not V.chromium_available():
        return [{"name": "3-D view benchmark skipped", "value": float("nan"), "unit": "",
                 "note": f"{V.CHROMIUM} not found"}]
    load0 = _load()
    with V.served_chromium("bench-view3d-") as (server, browser):
        ctx = browser.new_context(viewport={"width": 1366, "height": 768})
        ctx.set_default_timeout(60_000)
        ctx.add_init_script(WS_JS)
        page = ctx.new_page()
        page.goto(server.url + QUERY)
        V.wait_for_canvas(page, timeout=120)
        page.wait_for_function(
            f"() => ([...document.querySelectorAll('{FIGURE}')].find(n => n.offsetParent)"
            ".pePanels.find(p => p.name === 'plane') || {}).heading?.startsWith('3 features')",
            timeout=90_000)
        page.wait_for_timeout(2500)  # fitted to the window
        _quiet(page)
        plane = page.locator(FIGURE).evaluate(
            "e => e.pePanels.find(p => p.name === 'plane')")
        cx, cy = plane["x"] + plane["w"] / 2, plane["y"] + plane["h"] / 2
        canvas = page.locator(f"{FIGURE} canvas.pe-canvas")
        rec = canvas.evaluate(DRAG_JS, [cx, cy, RADIUS_PX, TURNS, seconds])
        m = measure(rec)
        _quiet(page)
        lat, shown = _click_latencies(page, clicks)
        ctx.close()
        margin_fps, margin_frames = _margins_drag(server, browser, seconds)
    load1 = _load()
    med, p95 = float(np.median(lat)), float(np.percentile(lat, 95))
    drag_note = (f"{m['frames']} frames in {seconds:.1f} s of dragging (Iris 3-D, 100 points); "
                 f"load average before {load0}, after {load1}")
    click_note = (f"{len(lat)} clicks, min {min(lat):.0f}, max {max(lat):.0f} ms, from the click "
                  f"to the drawImage of the new image; to the next animation frame: median "
                  f"{np.median(shown):.0f}, p95 {np.percentile(shown, 95):.0f} ms; load average "
                  f"before {load0}, after {load1}")
    return [
        {"key": "view3d_drag_fps", "name": "3-D view: page frames per second while dragging",
         "value": m["fps"], "unit": "frames/s", "target": ">= 50", "note": drag_note},
        {"key": "margin3d_drag_fps",
         "name": "Margins 3-D view: page frames per second while dragging",
         "value": margin_fps, "unit": "frames/s", "target": ">= 50",
         "note": f"{margin_frames} frames in {seconds:.1f} s of dragging (Iris 3-D, hard "
                 f"margin, 105 points, slab and rings); load average before {load0}, after "
                 f"{load1}"},
        {"key": "view3d_step_click_to_pixels_median_ms",
         "name": "3-D view: click Step -> canvas changed, median", "value": med, "unit": "ms",
         "target": "<= 20", "note": click_note},
        {"key": "view3d_step_click_to_pixels_p95_ms",
         "name": "3-D view: click Step -> canvas changed, p95", "value": p95, "unit": "ms",
         "target": "<= 33", "note": click_note},
    ]


def _margins_drag(server, browser, seconds: float) -> tuple[float, int]:
    """Frames per second (and frames) while the Margins tab's 3-D view is dragged."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    ctx.set_default_timeout(60_000)
    ctx.add_init_script(WS_JS)
    page = ctx.new_page()
    page.goto(server.url + MARGINS_QUERY)
    V.wait_for_canvas(page, timeout=120)
    page.wait_for_function(
        f"() => ([...document.querySelectorAll('{FIGURE}')].find(n => n.offsetParent)"
        ".pePanels.find(p => p.name === 'plane') || {}).view3d", timeout=90_000)
    page.wait_for_timeout(2500)  # fitted to the window
    _quiet(page)
    fig = f"{FIGURE}:visible"
    plane = page.locator(fig).evaluate("e => e.pePanels.find(p => p.name === 'plane')")
    cx, cy = plane["x"] + plane["w"] / 2, plane["y"] + plane["h"] / 2
    rec = page.locator(f"{fig} canvas.pe-canvas").evaluate(
        DRAG_JS, [cx, cy, RADIUS_PX, TURNS, seconds])
    m = measure(rec)
    ctx.close()
    return m["fps"], m["frames"]


if __name__ == "__main__":
    for fig in run():
        print(fig)
