"""Exact runs and cycle detection (explorer.cycles) against hand computation and train()."""

from fractions import Fraction

import numpy as np
import pytest

from explorer import cycles, datasets
from explorer.perceptron import train


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
