"""XOR tab: building a scene (every view's exact runs) and drawing step k of each view on an
Agg canvas of the dashboard's size, blitted as in the page (the 3-D view is drawn whole)."""

import time

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from explorer import xor
from explorer.plots.xor import XorFigure


def _median_ms(fn, repeats):
    times = []
    for i in range(repeats):
        t0 = time.perf_counter()
        fn(i)
        times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e3


def run(repeats=7):
    build = _median_ms(lambda i: xor.build_scene(xor.XOR, coding=("pm1", "01")[i % 2]), repeats)
    fig = Figure(figsize=(13, 6.8), dpi=80)
    FigureCanvasAgg(fig)
    xf = XorFigure(fig, blit=True)
    xf.fit(1040, 560)
    scene = xor.build_scene(xor.XOR, coding="01")
    out = [{"name": "xor: build a scene (16 exact runs, lifted, two-layer, kernel)",
            "value": build, "unit": "ms", "target": "<= 300"}]
    for view in ("cycling", "kernel", "feature"):
        xf.set_scene(scene, view)
        n = max(scene.steps(view), 1)

        xf.render(0)

        def step(i, n=n):
            xf.render(1 + i % n)

        kind = "full draw" if view == "feature" else "blitted"
        out.append({"name": f"xor: render step k, {view} view ({kind})",
                    "value": _median_ms(step, repeats), "unit": "ms",
                    "target": "<= 250" if view == "feature" else "<= 50"})
    return out


if __name__ == "__main__":
    for row in run():
        print(row)
