"""Smoke test of the browser harness itself, on a tiny self-contained notebook: the dashboard's
page-drawn figure (explorer.app.pagefigure) with one panel and a moving line, a kernel-side
"Step" button that moves it, and an HTML label with class "pe-narration"."""

from __future__ import annotations

import json
import statistics
import sys
import time

import pytest
from _voila import (
    canvas_png,
    click_and_time_canvas,
    click_button,
    press_keys,
    wait_for_canvas,
    wait_for_canvas_change,
    wait_for_text,
    widget_text,
)

pytestmark = pytest.mark.browser

SMOKE_SOURCE = r"""
import io
import sys

import ipywidgets as W
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from explorer.app.pagefigure import PageFigure
from explorer.plots.scene import Chunk, Panel, Scene, Track

N = 100
still = Figure(figsize=(5, 3.5), dpi=100)
FigureCanvasAgg(still)
ax = still.add_axes((0.1, 0.1, 0.85, 0.85))
ax.set_xlim(0, 1)
ax.set_ylim(-1, 1)
ax.grid(True)
png = io.BytesIO()
still.savefig(png, format="png")
x = np.linspace(0, 1, 50)
scene = Scene(width=500, height=350, ratio=1.0,
              panels=(Panel("plane", x=50, y=17.5, w=425, h=297.5, xlim=(0, 1), ylim=(-1, 1)),),
              tracks=(Track("line", "plane", "polyline", style={"color": "#0072B2", "width": 3}),),
              below=png.getvalue(), above=b"", n_steps=N, chunk=N + 1)


def chunk(i):
    k = np.arange(N + 1)[:, None]
    y = 0.8 * np.sin(2 * np.pi * (x[None, :] + 0.1 * k))
    xy = np.stack([np.broadcast_to(x, y.shape), y], -1)
    return Chunk(start=0, count=N + 1, arrays={"line": {"xy": xy}},
                 narration=tuple(f"step {s}" for s in range(N + 1)))


fig = PageFigure(name="smoke figure")
fig.show_scene(scene, run=1, chunks=chunk)
state = {"k": 0}
narration = W.HTML("step 0")
narration.add_class("pe-narration")
kernel_python = W.HTML(sys.executable)
kernel_python.add_class("pe-kernel-python")
step = W.Button(description="Step")


def on_step(_):
    state["k"] += 1
    fig.go(state["k"])
    narration.value = f"step {state['k']}"


step.on_click(on_step)
W.VBox([step, narration, fig, kernel_python])
""".strip()


def write_notebook(path, source: str) -> None:
    nb = {
        "cells": [{"cell_type": "code", "execution_count": None, "id": "smoke",
                   "metadata": {}, "outputs": [], "source": source}],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                    "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(nb, indent=1))


@pytest.fixture(scope="module")
def smoke_url(voila, tmp_path_factory):
    nb = tmp_path_factory.mktemp("smoke") / "smoke.ipynb"
    write_notebook(nb, SMOKE_SOURCE)
    return voila(nb).url


def test_canvas_step_and_narration(page, smoke_url, tmp_path):
    t0 = time.perf_counter()
    page.goto(smoke_url)
    first = wait_for_canvas(page)
    drawn_s = time.perf_counter() - t0
    print(f"\n[smoke] page open -> canvas drawn: {drawn_s:.2f} s")

    # The kernel is this environment's Python.
    assert widget_text(page, "pe-kernel-python") == sys.executable
    assert widget_text(page, "pe-narration") == "step 0"
    (tmp_path / "before.png").write_bytes(canvas_png(page))

    # A real mouse click changes the pixels and the narration.
    click_button(page, "Step")
    second = wait_for_canvas_change(page, first)
    assert second != first
    wait_for_text(page, "pe-narration", "step 1")

    # Click -> pixels changed latency, timed in the page.
    latencies = [click_and_time_canvas(page, "Step") for _ in range(10)]
    wait_for_text(page, "pe-narration", "step 11")
    med = statistics.median(latencies)
    print(f"[smoke] click -> canvas change: median {med * 1000:.0f} ms, "
          f"min {min(latencies) * 1000:.0f}, max {max(latencies) * 1000:.0f} ms (n=10)")
    assert med < 2.0, latencies

    # Keys reach the page (Enter on a focused ipywidgets button clicks it; Space is the page
    # figure's Play key).
    before = wait_for_canvas(page)
    press_keys(page, "Enter", focus=".jupyter-button:text-is('Step')")
    wait_for_canvas_change(page, before)
    wait_for_text(page, "pe-narration", "step 12")
    page.screenshot(path=str(tmp_path / "smoke.png"))
