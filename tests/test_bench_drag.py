"""benchmarks/bench_drag.py's arithmetic on a made-up record of one drag (no browser): frames
are animation frames with a draw, and the band's lag runs from when the pointer reached the
position sent to the first drawing after the kernel's answer."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_drag  # noqa: E402

FRAME = 1000 / 60


def _record(*, answer_ms: float, draw_every: int = 1, frames: int = 120) -> dict:
    """A 2 s drag: a move at every frame, two draws in every drawn frame, a move sent every
    second frame (2 ms after the move), answered ``answer_ms`` later."""
    moves = [100 + i * FRAME for i in range(frames)]
    draws = sorted([m + 1 for m in moves[::draw_every]] + [m + 1.5 for m in moves[::draw_every]])
    sent = [m + 2 for m in moves[::2]]
    return {"t0": 100, "t1": 100 + frames * FRAME, "moves": moves, "draws": draws, "sent": sent,
            "answers": [s + answer_ms for s in sent]}


def test_frames_count_once_however_many_draws_they_hold():
    assert bench_drag.measure(_record(answer_ms=5))["fps"] == pytest.approx(60, abs=0.6)
    assert bench_drag.measure(_record(answer_ms=5, draw_every=3))["fps"] == pytest.approx(20, abs=0.6)


def test_the_lag_runs_from_the_pointer_to_the_drawing_after_the_answer():
    m = bench_drag.measure(_record(answer_ms=5))
    # sent 2 ms after the move, answered 5 ms later (7), drawn at the next frame's draw (+1)
    assert m["sent"] == m["answered"] == 60
    assert m["lags"] == pytest.approx([FRAME + 1] * 60)
    slow = bench_drag.measure(_record(answer_ms=40))["lags"]
    # 42 ms: drawn at the third frame after; the last answer comes after the last drawing
    assert slow == pytest.approx([3 * FRAME + 1] * 59)


def test_unanswered_moves_are_counted_not_timed():
    rec = _record(answer_ms=5)
    rec["answers"] = rec["answers"][:10]
    m = bench_drag.measure(rec)
    assert (m["sent"], m["answered"], len(m["lags"])) == (60, 10, 10)
    figs = {f["key"]: f for f in bench_drag._figures(m, 2.0)}
    assert "60 moves sent to the kernel, 10 answered" in figs["margins_drag_fps"]["note"]
    assert figs["margins_drag_band_lag_median_ms"]["target"] == "<= 50"
