"""Long runs: 10 000 steps shown one after another in the Perceptron view (memory growth and
errors in the log), and the export of a 2 000-step run (progress, bounded memory, Cancel).

The 10 000 steps take about 10 minutes (each frame is drawn and encoded as in the page), so that
test is marked ``soak`` and run by ``make soak``, which CI runs after ``make test``."""

from __future__ import annotations

import gc
import logging
import time

import pytest

from explorer.app import PerceptronView  # noqa: E402

STEPS = 10_000


def _rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


@pytest.fixture
def xor_view():
    view = PerceptronView()
    assert view.load_state(view.save_state() | {"dataset": "xor", "w0": [], "order": "cyclic",
                                                "custom_order": [], "max_epochs": 2600})
    assert view.model.trajectory.n_steps >= STEPS, view.model.trajectory.n_steps
    return view


@pytest.mark.soak
def test_ten_thousand_steps_keep_memory_flat_and_the_log_clean(xor_view, caplog):
    """XOR never converges, so every one of the 10 000 steps is an update the figure draws."""
    view = xor_view
    caplog.set_level(logging.WARNING)
    for k in range(1, 501):  # warm-up: caches, fonts, first frames
        view.timeline.go(k)
    gc.collect()
    before = _rss_mb()
    t0 = time.perf_counter()
    for k in range(501, STEPS + 1):
        view.timeline.go(k)
    took = time.perf_counter() - t0
    gc.collect()
    grown = _rss_mb() - before
    print(f"\nsoak: {STEPS} steps in {took:.0f} s; memory grew {grown:.1f} MB")
    assert view.model.step == STEPS and f"step {STEPS} of" in view.timeline.status_text
    assert not view.messages.refused
    assert grown <= 10.0, f"memory grew {grown:.1f} MB over {STEPS - 500} steps"
    errors = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not errors, [r.getMessage() for r in errors[:3]]


@pytest.mark.slow
def test_exporting_a_two_thousand_step_run_reports_progress_and_can_be_cancelled(xor_view):
    view = xor_view
    assert view.load_state(view.save_state() | {"max_epochs": 500, "step": 0})
    assert view.model.trajectory.n_steps == 2000
    panel = view.export
    seen = []
    panel.progress.observe(lambda ch: seen.append(ch["new"]), names="value")
    before = _rss_mb()
    assert panel.start("gif")
    assert panel.wait(120), "the export did not finish in 2 minutes"
    assert "Export cancelled" not in panel.status.value and panel.links.value, panel.status.value
    assert seen and max(seen) == panel.progress.max > 1
    assert _rss_mb() - before < 200  # frames are encoded as they are drawn, not all kept
    # and a second one, cancelled at once
    assert panel.start("html")
    panel.cancel()
    assert panel.wait(30)
    assert "cancelled" in panel.status.value.lower()
