"""The page-drawn Perceptron figure (issue 20): a scene per run and size, chunks of steps.

``scene()`` lays the figure out and draws its two still layers at a device pixel ratio of 2
(1040 × 544 CSS px, the dashboard's default); ``chunk(i)`` describes 256 steps of every
moving part. Sizes are what travels to the page: the scene's JSON header (the prefix tracks'
polylines included) and, per step, a chunk's binary arrays plus its JSON (strings, narration
and status line included).
"""

import json
import time

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from explorer.perceptron import train
from explorer.plots import PerceptronFigure
from explorer.shared import datasets

WIDTH, HEIGHT, RATIO, CHUNK = 1040, 544, 2.0, 256


def _cases():
    koski = datasets.load("koski")
    blobs = datasets.load("overlapping", n=40)
    cancer = datasets.load("breast_cancer", k=2)
    return {
        "Koski": (koski, train(koski.X, koski.y, eta=0.2, w0=[1, 0.5],
                               order=[4, 2, 0, 1, 3, 5])),
        "overlapping blobs, 40 points": (blobs, train(blobs.X, blobs.y, max_epochs=50)),
        "breast cancer (2-D), 50 epochs": (cancer, train(cancer.X, cancer.y, max_epochs=50)),
    }


def _ms(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e3, out


def run():
    figures = []
    for name, (ds, tr) in _cases().items():
        fig = Figure()
        FigureCanvasAgg(fig)
        pf = PerceptronFigure(fig)
        pf.set_run(tr, ds.X, ds.y)
        scene_ms, scene = _ms(lambda pf=pf: pf.scene(width=WIDTH, height=HEIGHT, ratio=RATIO,
                                                     chunk=CHUNK), 3)
        header = len(json.dumps(scene.header(), allow_nan=False))
        last = scene.n_steps // CHUNK
        index = min(last, max(last // 2, 0))
        chunk_ms, chunk = _ms(lambda pf=pf, i=index: pf.chunk(i), 3)
        content, buffers = chunk.message(run=1, index=index)
        arrays = sum(map(len, buffers)) / chunk.count
        total = (sum(map(len, buffers)) + len(json.dumps(content).encode())) / chunk.count
        note = f"{tr.n_steps} steps, {tr.n_updates} updates, {len(ds.X)} points"
        figures += [
            {"name": f"scene(), {name}", "value": scene_ms, "unit": "ms", "note": note},
            {"name": f"still layers, {name}", "value": (len(scene.below) + len(scene.above))
             / 1e3, "unit": "kB"},
            {"name": f"scene header (JSON), {name}", "value": header / 1e3, "unit": "kB"},
            {"name": f"chunk of {chunk.count} steps, {name}", "value": chunk_ms, "unit": "ms"},
            {"name": f"chunk arrays per step, {name}", "value": arrays, "unit": "bytes"},
            {"name": f"chunk message per step (arrays + JSON), {name}", "value": total,
             "unit": "bytes"},
        ]
    return figures


if __name__ == "__main__":
    for f in run():
        print(f"{f['name']}: {f['value']:.4g} {f['unit']}" + (f"   [{f['note']}]"
                                                              if f.get("note") else ""))
