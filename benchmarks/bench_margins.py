"""Margins tab, kernel side, N = 500 separable points: re-solve after a point is added, and the
whole path from "point added" to the figure updated (the live figure on an Agg canvas of the
dashboard's size, blitted as in the page)."""

import time

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from explorer import margins, svm
from explorer.app.margins.model import PATH_CS, MarginsModel
from explorer.plots import MarginsFigure


def _median_ms(fn, repeats):
    times = []
    for i in range(repeats):
        t0 = time.perf_counter()
        fn(i)
        times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e3


def run(repeats=9):
    m = MarginsModel(dataset="separable", n=500, seed=1)
    rng = np.random.default_rng(0)
    pts = rng.uniform(-1, 1, size=(repeats, 2))
    X, y = m.X, m.y
    soft = _median_ms(lambda i: svm.fit(X, y, C=1.0), repeats)
    hard = _median_ms(lambda i: svm.fit(X, y), repeats)
    path = _median_ms(lambda i: margins.support_path(X, y, Cs=PATH_CS), 3)
    fig = Figure(figsize=(13, 6.8), dpi=80)
    FigureCanvasAgg(fig)
    mf = MarginsFigure(fig, blit=True)
    mf.set_data(m.X, m.y, m.comparison, path=m.path, sgd=m.sgd)
    mf.render(0)

    def add(i):  # everything at once: perceptron, SVM, SGD run, path, full layout and draw
        m.add_point(*pts[i], 1 if i % 2 else -1)
        mf.set_data(m.X, m.y, m.comparison, path=m.path, sgd=m.sgd)
        mf.render(0)

    full = _median_ms(add, repeats)
    mf.set_editing(True)  # as the view does in an edit mode (Add, Remove, Drag)
    mf.render(0)
    inside = rng.uniform(-0.5, 0.5, size=(repeats, 2))
    shown = []

    def preview(i):  # what the page shows at once: the point and the new max-margin solution
        m.add_point(*inside[i], 1 if i % 2 else -1, defer=True)
        shown.append(mf.preview(m.draft.X, m.draft.y, m.draft.comparison))

    added = _median_ms(preview, repeats)
    if not all(shown):
        raise RuntimeError("the preview declined a point inside the plane")
    m.finish_edit()

    def drag(i):
        m.move_point(0, *inside[i], defer=True)
        mf.preview(m.draft.X, m.draft.y, m.draft.comparison)

    dragged = _median_ms(drag, repeats)
    note = f"N = {len(X)}, soft margin C = 1, SGD {m.n_steps} steps"
    return [
        {"key": "svm_resolve_ms", "name": "margins: soft-margin re-solve (svm.fit, C = 1), N = 500",
         "value": soft,
         "unit": "ms", "target": "<= 20", "note": note},
        {"name": "margins: hard-margin re-solve, N = 500", "value": hard, "unit": "ms",
         "target": "<= 20"},
        {"name": "margins: support path, 12 values of C, N = 500", "value": path, "unit": "ms"},
        {"name": "margins: point added -> figure updated, N = 500", "value": added,
         "unit": "ms", "target": "<= 30",
         "note": "separability check, hard and soft SVM, the plane's points, line, band, rings "
                 "and slacks blitted; the rest follows 0.35 s after the last edit"},
        {"name": "margins: drag move -> figure updated, N = 500", "value": dragged,
         "unit": "ms", "target": "<= 30"},
        {"name": "margins: everything after an edit (perceptron, SGD run, path, full draw)",
         "value": full, "unit": "ms",
         "note": "once, 0.35 s after the last edit, off the pointer's path"},
    ]
