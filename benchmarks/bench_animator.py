"""Kernel-side render of "the state at step k" with 500 points, as the live widget does it.

The live figure caches the axes, ticks and legends once and per step draws only the moving
artists (blitting); the comparison is a full redraw of the same figure. Both on an Agg canvas
of the widget's size (1040 x 576 px), which is what ipympl renders before sending the image.
"""

import time

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from explorer.perceptron import train
from explorer.plots import PerceptronFigure
from explorer.plots.figure import FIGSIZE
from explorer.shared import datasets


def _figure(blit):
    fig = Figure(figsize=FIGSIZE, dpi=80)
    FigureCanvasAgg(fig)
    return PerceptronFigure(fig, blit=blit)


def _median_ms(fn, steps):
    times = []
    for k in steps:
        t0 = time.perf_counter()
        fn(int(k))
        times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e3, float(np.percentile(times, 95)) * 1e3


def run():
    ds = datasets.load("separable", n=500, seed=1, margin=0.02)
    tr = train(ds.X, ds.y, max_epochs=50)
    steps = np.random.default_rng(0).integers(0, tr.n_steps + 1, size=120)
    live = _figure(True)
    live.set_run(tr, ds.X, ds.y)
    live.render(0)
    blit_med, blit_p95 = _median_ms(live.render, steps)
    full = _figure(False)
    full.set_run(tr, ds.X, ds.y, live.info)

    def full_draw(k):
        full.show(k)
        full.fig.canvas.draw()

    full_med, _ = _median_ms(full_draw, steps[:40])
    t0 = time.perf_counter()
    live.set_run(tr, ds.X, ds.y)
    setup_ms = (time.perf_counter() - t0) * 1e3
    note = f"{tr.n_steps} steps, {tr.n_updates} updates, 500 points"
    return [
        {"key": "render_state_ms", "name": "render step k, 500 points (blitted, median)",
         "value": blit_med, "unit": "ms",
         "target": "<= 15", "note": note},
        {"name": "render step k, 500 points (blitted, p95)", "value": blit_p95, "unit": "ms"},
        {"name": "render step k, 500 points (full redraw, median)", "value": full_med, "unit": "ms"},
        {"name": "ratio full redraw / blitted", "value": full_med / blit_med, "unit": "x"},
        {"name": "load a new run into the figure (set_run incl. LP + SVM)", "value": setup_ms,
         "unit": "ms"},
    ]
