"""Exact runs and cycle detection (explorer.perceptron.cycles, explorer.perceptron.repeats) against
hand computation, exact arithmetic and train()."""

from fractions import Fraction

import numpy as np
import pytest

from explorer.perceptron import cycles, train
from explorer.perceptron.repeats import exact_floats, run_cycle
from explorer.shared import datasets


def _first_repeat_bruteforce(traj, L):
    """Oracle: scan the float trajectory for the first (w, b, step mod L) seen before."""
    seen = {}
    for k in range(traj.n_steps + 1):
        w, b = traj.state(k)
        key = (tuple(np.round(w, 9)), round(b, 9), k % L)
        if key in seen:
            return seen[key], k
        seen[key] = k
    return None


def test_xor_pm1_cyclic_cycles_at_step_4_with_length_4():
    ds = datasets.load("xor")
    c = cycles.find_cycle(ds.X, ds.y)
    # by hand: updates (1,1),-1 -> (0,2),0 -> (1,1),1 -> (0,0),0: the start again after step 4
    assert c.found and (c.start_step, c.step, c.length, c.updates) == (0, 4, 4, 4)
    assert c.w == (Fraction(0), Fraction(0)) and c.b == 0 and c.position == 0
    assert "cycle of length 4 found at step 4" in c.message


@pytest.mark.parametrize("encoding,order,eta", [("pm1", "cyclic", 1.0), ("01", "cyclic", 0.5),
                                                 ("pm1", [3, 0, 2, 1], 0.3),
                                                 ("01", [1, 3, 0, 2], 1.0)])
def test_cycle_matches_a_scan_of_the_float_run(encoding, order, eta):
    ds = datasets.load("xor", encoding=encoding)
    run = cycles.exact_run(ds.X, ds.y, order=order, eta=eta, max_steps=400)
    ref = train(ds.X, ds.y, order=order, eta=eta, max_steps=400, max_epochs=1000)
    np.testing.assert_allclose(run.trajectory.weights, ref.weights, atol=1e-9)
    np.testing.assert_array_equal(run.trajectory.update_steps, ref.update_steps)
    s0, t = _first_repeat_bruteforce(ref, 4)
    assert (run.cycle.start_step, run.cycle.step, run.cycle.length) == (s0, t, t - s0)


def test_a_non_dyadic_step_is_exact_not_approximate():
    # eta = 0.1 is not a dyadic rational; the exact run must still find a cycle (and say so)
    ds = datasets.load("xor")
    c = cycles.find_cycle(ds.X, ds.y, eta=0.1, max_steps=2000)
    assert c.found and c.length % 4 == 0


def test_pocket_keeps_three_of_four_and_never_better():
    ds = datasets.load("xor")
    run = cycles.exact_run(ds.X, ds.y, rule="pocket", max_steps=200)
    assert run.trajectory.pocket_error == pytest.approx(0.25)
    assert run.trajectory.errors.min() == pytest.approx(0.25)
    ref = train(ds.X, ds.y, rule="pocket", max_steps=200, max_epochs=100)
    assert ref.pocket_error == pytest.approx(0.25)


def test_separable_data_converge_instead():
    ds = datasets.load("and")
    run = cycles.exact_run(ds.X, ds.y)
    assert run.trajectory.converged and not run.cycle.found and run.cycle.converged
    ref = train(ds.X, ds.y)
    np.testing.assert_allclose(run.trajectory.final_w, ref.final_w)


def test_one_class_is_accepted_and_converges():
    X = np.array([[0.0, 0.0], [1.0, 1.0]])
    run = cycles.exact_run(X, [-1, -1])
    assert run.trajectory.converged
    assert np.all(X @ run.trajectory.final_w + run.trajectory.final_b < 0)


@pytest.mark.parametrize("kw,words", [({"order": "random"}, "no exact cycle"),
                                      ({"max_steps": 10**7}, "max_steps must be <="),
                                      ({"eta": 0}, "eta must be > 0"),
                                      ({"rule": "margin"}, "rule must be")])
def test_bad_arguments_are_refused(kw, words):
    ds = datasets.load("xor")
    with pytest.raises((ValueError, TypeError), match=words):
        cycles.exact_run(ds.X, ds.y, **kw)


def test_limit_reached_says_so():
    ds = datasets.load("xor")
    c = cycles.find_cycle(ds.X, ds.y, max_steps=3)
    assert not c.found and not c.converged and "limit" in c.message


# ---------------------------------------------------------------- cycles of recorded runs
# (issue 19, item 14: the Perceptron tab finds when the weights repeat, on any data)


def _quarters(seed):
    """Overlapping blobs rounded to quarters: floating point adds them exactly."""
    ds = datasets.load("overlapping", dim=2, n=40, seed=seed)
    return np.round(ds.X * 4) / 4, ds.y


def _tenths(seed):
    """The same rounded to tenths, which are not dyadic: the arithmetic rounds."""
    ds = datasets.load("overlapping", dim=2, n=40, seed=seed)
    return np.round(ds.X * 10) / 10, ds.y


def _decimal_cycle(X, y, max_steps):
    """Oracle: the classic rule in cyclic order from 0, eta = 1, on the decimals as written
    (Fraction of each number's shortest repr), exactly; the first repeated state."""
    rows = [[Fraction(repr(float(v))) for v in r] for r in X]
    w, b, n = [Fraction(0)] * len(rows[0]), Fraction(0), len(rows)
    seen = {(tuple(w), b, 0): 0}
    for s in range(1, max_steps + 1):
        i, lab = (s - 1) % n, int(y[(s - 1) % n])
        if lab * (sum(a * c for a, c in zip(w, rows[i], strict=True)) + b) <= 0:
            w, b = [a + lab * c for a, c in zip(w, rows[i], strict=True)], b + lab
        key = (tuple(w), b, s % n)
        if key in seen:
            return seen[key], s - seen[key]
        seen[key] = s
    return None


@pytest.mark.parametrize("case", ["xor", "xor01", "xor-order", "xor-half", "q0", "q1", "q2"])
def test_run_cycle_is_the_exact_runs_cycle(case):
    """Where the float run is exact, run_cycle finds exactly the cycle of the Fraction run."""
    order, eta = "cyclic", 1.0
    if case.startswith("q"):
        X, y = _quarters(int(case[1]))
    else:
        ds = datasets.load("xor", encoding="01" if case == "xor01" else "pm1")
        X, y = ds.X, ds.y
        order = [3, 0, 2, 1] if case == "xor-order" else order
        eta = 0.5 if case == "xor-half" else eta
    tr = train(X, y, eta=eta, order=order, max_epochs=100)
    ref = cycles.exact_run(X, y, eta=eta, order=order, max_steps=tr.n_steps)
    np.testing.assert_array_equal(tr.weights, ref.trajectory.weights)  # no rounding at all
    assert exact_floats(tr, X)
    c = run_cycle(tr, X, y)
    assert c.found and c.exact and c.tolerance is None
    assert (c.start_step, c.length, c.step) == (ref.cycle.start_step, ref.cycle.length,
                                                ref.cycle.step)
    assert (c.w, c.b, c.updates) == (ref.cycle.w, ref.cycle.b, ref.cycle.updates)
    assert f"period {c.length} from step {c.start_step}, exactly" in c.message


def test_quarter_data_cycle_late_and_long():
    X, y = _quarters(0)
    c = run_cycle(train(X, y, max_epochs=100), X, y)
    assert (c.start_step, c.length) == (178, 80)  # found by the Fraction run above too


@pytest.mark.parametrize("seed", [0, 4, 5])
def test_tolerance_finds_the_cycle_of_the_decimals(seed):
    """Tenths round in binary, so the float states come back only nearly (seed 0: never
    exactly within 200 000 steps); within the tolerance the cycle is the one exact arithmetic
    on the decimals gives (these seeds meet no tie that round-off breaks the other way)."""
    X, y = _tenths(seed)
    tr = train(X, y, max_epochs=500)
    assert not exact_floats(tr, X)
    c = run_cycle(tr, X, y)
    top = max(np.abs(tr.weights).max(), np.abs(tr.biases).max())
    assert c.found and not c.exact and c.tolerance == pytest.approx(1e-9 * top)
    assert (c.start_step, c.length) == _decimal_cycle(X, y, 20_000)
    assert f"period {c.length} from step {c.start_step}, to within" in c.message


@pytest.mark.parametrize("seed", range(6))
def test_tolerance_cycle_holds_to_the_end_and_starts_where_it_says(seed):
    X, y = _tenths(seed)
    tr = train(X, y, max_epochs=200)
    c = run_cycle(tr, X, y)
    s, k, tol = c.start_step, c.length, c.tolerance
    W, B = tr.states(np.arange(tr.n_steps + 1))
    S = np.column_stack([W, B])
    gap = np.abs(S[k:] - S[:-k]).max(axis=1)  # state j+k against state j
    assert gap[s:].max() <= tol and (s == 0 or gap[s - 1] > tol)
    assert np.array_equal(tr.updated[s: tr.n_steps - k], tr.updated[s + k:])
    assert c.updates == tr.updates_until(s + k) - tr.updates_until(s) > 0


def test_first_repeat_is_the_brute_force_one_on_every_step():
    ds = datasets.load("xor", encoding="01")
    for order in ([1, 3, 0, 2], [0, 0, 3, 1, 2], "cyclic"):
        tr = train(ds.X, ds.y, order=order, max_epochs=50)
        L = 4 if order == "cyclic" else len(order)
        s0, t = _first_repeat_bruteforce(tr, L)
        c = run_cycle(tr, ds.X, ds.y)
        assert (c.start_step, c.length, c.position) == (s0, t - s0, s0 % L)


def test_rounding_arithmetic_is_not_called_exact():
    ds = datasets.load("xor")
    assert exact_floats(train(ds.X, ds.y, max_epochs=5), ds.X)
    assert not exact_floats(train(ds.X, ds.y, eta=0.1, max_epochs=5), ds.X)  # 0.1 is not dyadic
    assert not exact_floats(train(ds.X, ds.y, rule="regularized", rho=0.1, max_epochs=5), ds.X)
    over = datasets.load("overlapping", dim=2, n=40)
    assert not exact_floats(train(over.X, over.y, max_epochs=5), over.X)
    # the XOR tab's eta = 0.1 run: the floats repeat bit for bit, yet the claim is a tolerance
    c = run_cycle(train(ds.X, ds.y, eta=0.1, max_epochs=20), ds.X, ds.y)
    assert c.found and not c.exact and "bit for bit" in c.message
    assert (c.start_step, c.length) == (0, 4)


@pytest.mark.parametrize("order,words", [("shuffle", "reshuffled each pass"),
                                         ("random", "drawn i.i.d.")])
def test_random_orders_report_no_cycle(order, words):
    ds = datasets.load("xor")
    c = run_cycle(train(ds.X, ds.y, order=order, seed=1, max_epochs=50), ds.X, ds.y)
    assert not c.found and words in c.message and "no cycle is looked for" in c.message


def test_converged_and_short_runs_have_no_cycle():
    ds = datasets.load("koski")
    c = run_cycle(train(ds.X, ds.y), ds.X, ds.y)
    assert not c.found and c.converged and "no cycle" in c.message
    xo = datasets.load("xor")
    c = run_cycle(train(xo.X, xo.y, max_steps=6), xo.X, xo.y)
    assert not c.found and "shorter than two passes" in c.message
    over = datasets.load("overlapping", dim=2, n=40)
    c = run_cycle(train(over.X, over.y, max_epochs=50), over.X, over.y)
    assert not c.found and "no repeated state within the run's 2,000 steps" in c.message


def test_run_cycle_on_a_long_run_is_cheap():
    import time

    X, y = _quarters(1)
    tr = train(X, y, max_steps=200_000, max_epochs=10_000)
    t0 = time.process_time()  # CPU seconds: the machine may be shared
    c = run_cycle(tr, X, y)
    assert c.found and time.process_time() - t0 < 1.0


@pytest.mark.parametrize("call,kind,words", [
    (lambda tr, X, y: run_cycle("run", X, y), TypeError, "expected a Trajectory"),
    (lambda tr, X, y: run_cycle(tr, X[:2], y), ValueError, "must be the run's data"),
    (lambda tr, X, y: run_cycle(tr, X, y, rtol=0.5), ValueError, "rtol must be at most 0.01"),
    (lambda tr, X, y: run_cycle(tr, X, y, rtol=0), ValueError, "rtol must be > 0"),
])
def test_run_cycle_refuses_in_words(call, kind, words):
    ds = datasets.load("xor")
    tr = train(ds.X, ds.y, max_epochs=5)
    with pytest.raises(kind, match=words):
        call(tr, ds.X, ds.y)


def test_a_search_too_big_is_declined_in_words(monkeypatch):
    from explorer.perceptron import repeats

    ds = datasets.load("xor")
    tr = train(ds.X, ds.y, max_epochs=400)  # 401 pass boundaries x 3 numbers
    assert run_cycle(tr, ds.X, ds.y).found
    monkeypatch.setattr(repeats, "MAX_NUMBERS", 1200)
    c = run_cycle(tr, ds.X, ds.y)
    assert not c.found and c.message == ("no cycle is looked for: the run's 401 pass boundaries "
                                         "x 3 numbers exceed 1,200")


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_a_quiet_pass_of_a_partial_order_stops_the_exact_run_as_train_does(fit_intercept):
    # point 1 is never visited: after one update a pass of the order [0] makes none, so the
    # state is fixed for ever; there is no cycle to look for, and "run longer" would be wrong
    X, y = [[1.0], [1.0]], [1, -1]
    run = cycles.exact_run(X, y, order=[0], fit_intercept=fit_intercept)
    ref = train(X=X, y=y, order=[0], fit_intercept=fit_intercept)
    assert run.trajectory.stop_reason == ref.stop_reason == "no_update_pass"
    assert run.trajectory.n_steps == ref.n_steps
    np.testing.assert_array_equal(run.trajectory.weights, ref.weights)
    found = cycles.find_cycle(X, y, order=[0], fit_intercept=fit_intercept)
    assert not found.found and not found.converged
    assert "stopped after a pass without an update" in found.message
    assert "run longer" not in found.message
    assert found.message == run_cycle(ref, X=X, y=y).message
