"""Cover tab, kernel side: redrawing the curves when the set of M changes (a set including
M = 1000, the figure on an Agg canvas of the dashboard's size, blitted as in the page),
and Monte Carlo LP checks per second.

Run alone (``python benchmarks/bench_cover.py``) it prints one JSON line per figure; through
``benchmarks/run.py`` it returns them like the other benchmark modules.
"""

import json
import time

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from explorer import cover
from explorer.app.cover.model import CoverModel
from explorer.cover import theorem
from explorer.plots.cover import CoverFigure

SETS = ([1, 2, 5, 20, 100, 1000], [1, 3, 5, 20, 100, 1000], [2, 7, 50, 1000])


def _median_ms(fn, repeats):
    times = []
    for i in range(repeats):
        t0 = time.perf_counter()
        fn(i)
        times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e3


def run(repeats=9):
    m = CoverModel()
    fig = Figure()
    FigureCanvasAgg(fig)
    cf = CoverFigure(fig, blit=True)
    cf.fit(1040, 547)

    def redraw(i, *, cold):
        if cold:
            theorem._curve.cache_clear()  # the M = 1000 curve is computed again each time
        m.update(ms=SETS[i % len(SETS)])
        cf.curves.set_data(m.curves, mode=m.xaxis)
        cf.redraw(static_key=(m.xaxis, cf.curves.ax.get_xlim()))  # as the view does

    redraw(0, cold=False)
    full = _median_ms(lambda i: (cf.invalidate(), cf.render(0)), 5)
    cold = _median_ms(lambda i: redraw(i + 1, cold=True), repeats)
    warm = _median_ms(lambda i: redraw(i + 1, cold=False), repeats)
    compute = _median_ms(lambda i: (theorem._curve.cache_clear(),
                                    cover.cover_curves(SETS[i % 3])), repeats)

    plan = cover.monte_carlo_plan([2, 5], trials=100)
    t0 = time.perf_counter()
    mc = cover.monte_carlo_points(plan, trials=100, seed=0)
    small = mc.checks / (time.perf_counter() - t0)
    plan20 = cover.monte_carlo_plan([20], trials=30)
    t0 = time.perf_counter()
    mc20 = cover.monte_carlo_points(plan20, trials=30, seed=0)
    rate20 = mc20.checks / (time.perf_counter() - t0)
    return [
        {"name": "cover_curve_ms", "value": cold, "unit": "ms", "target": "<= 50",
         "note": "M set changed, sets include M = 1000 (curve recomputed, N up to 3003): "
                 "model update + set_data + blitted Agg render at 1040x547"},
        {"name": "cover_curve_cached_ms", "value": warm, "unit": "ms", "target": "<= 50",
         "note": "the same with the curves already cached (only new M computed)"},
        {"name": "cover_curve_full_draw_ms", "value": full, "unit": "ms",
         "note": "a full draw of the curves view (new x-axis mode or window size)"},
        {"name": "cover_curves_compute_ms", "value": compute, "unit": "ms",
         "note": "cover_curves alone for the set, cache cleared"},
        {"name": "monte_carlo_checks_per_s", "value": small, "unit": "checks/s",
         "note": f"M = 2 and 5, {len(plan)} points x 100 trials, one HiGHS LP per check"},
        {"name": "monte_carlo_checks_per_s_m20", "value": rate20, "unit": "checks/s",
         "note": f"M = 20, N = 10..63, {len(plan20)} points x 30 trials"},
    ]


if __name__ == "__main__":
    for fig in run():
        print(json.dumps({"bench": "cover", **fig}))
