"""Smoke test of the browser harness itself, on a tiny self-contained notebook: an ipympl figure,
a "Step" button that moves the line, and an HTML label with class "pe-narration"."""

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
%matplotlib widget
import sys

import ipywidgets as W
import matplotlib.pyplot as plt
import numpy as np

plt.ioff()  # show the figure only where we place fig.canvas, not also as a cell output
fig, ax = plt.subplots(figsize=(5, 3.5))
fig.canvas.header_visible = False
fig.canvas.footer_visible = False
fig.canvas.toolbar_visible = False
fig.canvas.resizable = False
x = np.linspace(0, 1, 50)
(line,) = ax.plot(x, 0.1 * x, lw=3)
ax.set_xlim(0, 1)
ax.set_ylim(-1, 1)

state = {"k": 0}
narration = W.HTML("step 0")
narration.add_class("pe-narration")
kernel_python = W.HTML(sys.executable)
kernel_python.add_class("pe-kernel-python")
step = W.Button(description="Step")


def on_step(_):
    state["k"] += 1
    k = state["k"]
    line.set_ydata(0.8 * np.sin(2 * np.pi * (x + 0.1 * k)))
    fig.canvas.draw_idle()
    narration.value = f"step {k}"


step.on_click(on_step)
W.VBox([step, narration, fig.canvas, kernel_python])
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

    # Keys reach the page (Space on a focused ipywidgets button clicks it).
    before = wait_for_canvas(page)
    press_keys(page, "Space", focus=".jupyter-button:text-is('Step')")
    wait_for_canvas_change(page, before)
    wait_for_text(page, "pe-narration", "step 12")
    page.screenshot(path=str(tmp_path / "smoke.png"))
