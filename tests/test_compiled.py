"""The compiled scan (explorer.shared.compiled, numba) takes exactly the steps of the numpy block scan
and of the plain reference loop in tests/naive.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import naive_run

from explorer.perceptron import train
from explorer.shared import compiled


def test_numba_is_there():
    assert compiled.available(), "numba is a dependency: the compiled scan must be available"


def _data(seed, n, d, gap):
    rng = np.random.default_rng(seed)
    u = rng.standard_normal(d)
    u /= np.linalg.norm(u)
    X = rng.standard_normal((n, d))
    y = np.where(X @ u >= 0, 1.0, -1.0)
    return X + gap * y[:, None] * u, y


def _both(monkeypatch, X, y, **kw):
    monkeypatch.setattr(compiled, "MIN_WORK", 0)
    fast = train(X, y, **kw)
    monkeypatch.setattr(compiled, "MIN_WORK", 10**18)
    slow = train(X, y, **kw)
    return fast, slow


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 300), d=st.integers(1, 6),
       gap=st.sampled_from([0.0, 0.01, 0.3]), eta=st.sampled_from([1.0, 0.25]),
       intercept=st.booleans(), order=st.sampled_from(["cyclic", "shuffle"]))
def test_compiled_matches_the_numpy_scan(seed, n, d, gap, eta, intercept, order):
    X, y = _data(seed, n, d, gap)
    if len(np.unique(y)) < 2:
        y[0] = -y[0]
    mp = pytest.MonkeyPatch()
    try:
        fast, slow = _both(mp, X, y, eta=eta, fit_intercept=intercept, order=order, seed=seed,
                           max_epochs=4)
    finally:
        mp.undo()
    np.testing.assert_array_equal(fast.update_steps, slow.update_steps)
    np.testing.assert_allclose(fast.final_w, slow.final_w, rtol=1e-9, atol=1e-9)
    assert fast.stop_reason == slow.stop_reason and fast.n_steps == slow.n_steps


@pytest.mark.parametrize("rule", ["classic", "margin", "rosenblatt_r2"])
def test_compiled_matches_the_reference_loop(monkeypatch, rule):
    X, y = _data(3, 120, 3, 0.05)
    monkeypatch.setattr(compiled, "MIN_WORK", 0)
    run = train(X, y, rule=rule, eta=0.5, max_epochs=3)
    seq = list(range(len(y))) * 3
    states, flags = naive_run(X, y, seq[: run.n_steps], rule=rule, eta=0.5)
    assert np.flatnonzero(flags).tolist() == (np.asarray(run.update_steps) - 1).tolist()
    w, b = states[-1]
    np.testing.assert_allclose(run.final_w, w, rtol=1e-9, atol=1e-9)
    assert run.final_b == pytest.approx(b, abs=1e-9)


def test_pocket_and_random_order_keep_the_numpy_scan(monkeypatch):
    """Runs that watch the training error or a quiet stretch are not compiled."""
    calls = []
    monkeypatch.setattr(compiled, "MIN_WORK", 0)
    monkeypatch.setattr(compiled, "scan_updates", lambda *a: calls.append(1) or (_ for _ in ()).throw(
        AssertionError("compiled scan used")))
    X, y = _data(1, 50, 2, 0.1)
    train(X, y, rule="pocket", max_epochs=2)
    train(X, y, order="random", seed=0, max_epochs=2)
    assert calls == []
