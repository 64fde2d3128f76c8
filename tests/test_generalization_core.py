"""explorer.generalization: the margin distribution, Hardt & Recht's stability bound measured on
its own runs, the leave-one-out argument, the VC comparison and the risk table."""

import math

import numpy as np
import pytest

from explorer import generalization as G
from explorer.perceptron import train
from explorer.shared import svm


def test_samples_have_unit_norm_and_the_margin():
    s = G.sample_margin(n=500, dim=4, gamma=0.3, seed=7)
    np.testing.assert_allclose(np.linalg.norm(s.X, axis=1), 1.0, atol=1e-12)
    assert np.all(s.y * s.X[:, 0] >= 0.3)
    assert 0.4 < np.mean(s.y > 0) < 0.6
    # gamma(S) >= gamma, checked by the hard-margin SVM through the origin
    assert svm.dataset_margin(s.X[:60], s.y[:60], fit_intercept=False) >= 0.3 - 1e-9
    again = G.sample_margin(n=500, dim=4, gamma=0.3, seed=7)
    np.testing.assert_array_equal(s.X, again.X)


@pytest.mark.parametrize("kw, words", [
    (dict(n=0), "n must be >= 1"), (dict(n=5, gamma=0.01), "gamma must be in"),
    (dict(n=5, dim=1), "dim must be >= 2"), (dict(n=5, seed="a"), "seed must be"),
])
def test_sampler_refuses_bad_settings(kw, words):
    with pytest.raises((ValueError, TypeError), match=words):
        G.sample_margin(**kw)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_margin_run_is_the_trainers_margin_rule(seed):
    s = G.sample_margin(n=60, dim=3, gamma=0.15, seed=seed)
    mine = G.margin_run(np.array(s.X), np.array(s.y), max_epochs=500)
    ref = train(s.X, s.y, rule="margin", fit_intercept=False, order="cyclic", max_epochs=500)
    assert mine.converged and ref.converged
    assert mine.n_updates == ref.n_updates
    np.testing.assert_allclose(mine.w, ref.final_w, atol=1e-12)
    np.testing.assert_array_equal(mine.updates, np.asarray(ref.picked)[np.asarray(ref.updated)])


def test_margin_run_handles_one_class():
    X = np.array([[1.0, 0.2], [0.8, -0.1]])
    run = G.margin_run(X, np.array([1.0, 1.0]), max_epochs=50)
    assert run.converged and np.all(X @ run.w >= 1)


@pytest.mark.parametrize("seed", [0, 5, 11])
def test_leave_one_out_is_bounded_by_the_mistakes_and_the_mistake_bound(seed):
    s = G.sample_margin(n=25, dim=2, gamma=0.1, seed=seed)
    X, y = np.array(s.X), np.array(s.y)
    out = G.leave_one_out(X, y)
    # brute force: retrain without every point, not only those that updated
    brute = np.zeros(len(X))
    for k in range(len(X)):
        keep = np.arange(len(X)) != k
        w = G.margin_run(X[keep], y[keep], max_epochs=5000).w
        brute[k] = float(y[k] * (X[k] @ w) < 1)
    np.testing.assert_array_equal(out.loo, brute)
    assert out.loo.sum() <= out.mistakes <= out.bound
    assert out.bound == pytest.approx(3.0 / svm.dataset_margin(X, y, fit_intercept=False) ** 2)


def test_stability_bound_holds_on_its_own_runs():
    c = G.stability_curve(ns=(4, 16, 64), trials=150, dim=3, gamma=0.15, seed=1)
    assert c.complete and not c.stopped
    # exact orderings, trial by trial: errors are margin mistakes; m <= (2 + D^2)/gamma(S)^2;
    # gamma(S) >= gamma and D = 1
    assert np.all(c.error_rate <= c.margin_rate)
    assert np.all(c.mistakes_bound <= c.stability_bound + 1e-12)
    assert np.all(c.stability_bound <= c.worst_bound + 1e-12)
    # the theorem, up to Monte Carlo error: P[margin mistake] <= E[m]/(n+1) <= E[bound]/(n+1)
    slack = 3 * np.hypot(c.margin_se, c.mistakes_se)
    assert np.all(c.margin_rate <= c.mistakes_bound + slack)
    # the experiment measures something: at n = 4 fresh points are often margin mistakes, and
    # the rate falls with n
    assert c.margin_rate[0] > 0.2 and c.margin_rate[-1] < c.margin_rate[0]
    np.testing.assert_allclose(c.worst_bound, 3 / (0.15**2 * (c.ns + 1)))


def test_same_seed_same_numbers_and_stop_keeps_completed_sizes():
    full = G.stability_curve(ns=(5, 10, 20), trials=30, seed=4)
    again = G.stability_curve(ns=(5, 10, 20), trials=30, seed=4)
    np.testing.assert_array_equal(full.margin_rate, again.margin_rate)
    np.testing.assert_array_equal(full.stability_bound, again.stability_bound)
    calls = []

    def progress(done, total):
        calls.append((done, total))

    stopped = G.stability_curve(ns=(5, 10, 20), trials=30, seed=4, progress=progress,
                                stop=lambda: len(calls) >= 4)
    assert stopped.stopped and list(stopped.ns) == [5]
    assert stopped.margin_rate[0] == full.margin_rate[0]
    assert calls[0] == (G.CHUNK, 90) and calls == sorted(calls)
    parts = [G.stability_curve(ns=(n,), trials=30, seed=4) for n in (20, 5, 10)]
    joined = G.join_curves(parts, planned=(5, 10, 20))
    for name in ("ns", "margin_rate", "mistakes_bound", "stability_bound", "vc"):
        np.testing.assert_array_equal(getattr(joined, name), getattr(full, name))


def test_work_is_bounded_before_starting():
    with pytest.raises(ValueError, match="more than the limit 1,500,000"):
        G.stability_curve(ns=(10_000, 20_000), trials=100)
    with pytest.raises(ValueError, match="training sets is more than the limit"):
        G.stability_curve(ns=tuple(range(1, 13)), trials=600)
    with pytest.raises(ValueError, match="increasing"):
        G.stability_curve(ns=(10, 5), trials=10)


def test_vc_bound_closed_form():
    n, d = 100, 2
    expected = math.sqrt(3 * math.log(101) / 100) + math.sqrt(2 * math.log(100) / 100) + 0.01
    assert G.vc_bound([n], dim=d)[0] == pytest.approx(expected)
    v = G.vc_bound(np.array([10, 100, 1000]), dim=5)
    assert np.all(np.diff(v) < 0)


def test_risk_table_pocket_never_worse_on_training_data():
    t = G.risk_table(keys=("iris", "iris_setosa", "breast_cancer"), seed=0)
    rows = {r.key: r for r in t.rows}
    assert (rows["iris"].n_train, rows["iris"].n_test) == (70, 30)
    assert (rows["breast_cancer"].n_train, rows["breast_cancer"].dim) == (398, 30)
    for r in t.rows:  # the pocket is the best iterate seen, the last one among them
        assert r.train_pocket <= r.train_last
    assert rows["iris_setosa"].converged and rows["iris_setosa"].train_last == 0.0
    assert not rows["iris"].converged  # versicolor vs virginica is not separable
    assert rows["iris"].train_pocket < rows["iris"].train_last
    again = G.risk_table(keys=("iris",), seed=0)
    assert again.rows[0] == rows["iris"]
    with pytest.raises(ValueError, match="keys must be some of"):
        G.risk_table(keys=("mnist",))
