"""The updates of a run against its mistake bound (explorer.plots.bound_gap; notebook 01,
section 5): the count is the run's, the bound line is the data's own H²/γ², the axis turns
logarithmic when the bound is out of the count's scale (30 features of breast cancer: 2.2e8
against about a hundred updates), and a run with no bound draws the count and says why."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.perceptron import bounds, train
from explorer.perceptron.replay import describe_run
from explorer.plots.bound_gap import LOG_RATIO, updates_against_bound
from explorer.shared import datasets


def _lines(fig):
    ax = fig.axes[0]
    return ax, {ln.get_label(): ln for ln in ax.get_lines()}


def _legend(fig) -> str:
    return "\n".join(t.get_text() for t in fig.legends[0].get_texts())


def test_thirty_features_the_count_and_the_datas_own_bound_on_a_log_axis():
    ds = datasets.load("breast_cancer")
    run = train(ds.X, ds.y, order="shuffle", max_epochs=5, seed=0)
    bound = describe_run(run, ds.X, ds.y).bound
    Xa = bounds.augment(ds.X)  # the 30 features and the offset's 1
    H = np.max(np.linalg.norm(Xa, axis=1))
    gamma = bounds.dataset_margin(Xa, ds.y, fit_intercept=False)
    assert bound.value == pytest.approx(H**2 / gamma**2, rel=1e-6)
    fig = updates_against_bound(run, bound)
    ax, lines = _lines(fig)
    assert ax.get_yscale() == "log" and bound.value > LOG_RATIO * run.n_updates
    count = next(ln for label, ln in lines.items() if label.startswith("updates so far"))
    x, u = count.get_data()
    # the staircase: from the first update (no 0 on a log axis) to the run's last step
    assert u[0] == 1 and u[-1] == run.n_updates and x[-1] == run.n_steps
    for k in (int(run.update_steps[9]), run.n_steps // 2):  # the count at a step is the run's
        assert u[np.flatnonzero(x <= k)[-1]] == run.updates_until(k)
    line = next(ln for label, ln in lines.items() if label.startswith("mistake bound"))
    assert np.allclose(line.get_ydata(), bound.value)
    assert ax.get_ylim()[1] > bound.value  # on the axis, not off it
    words = _legend(fig)
    assert f"H = {bound.radius:.4g}" in words and f"γ = {bound.gamma:.4g}" in words
    assert "Sayed, Lemma 60.1" in words and f"{run.n_updates:,} in {run.n_steps:,} steps" in words


def test_a_bound_near_the_count_keeps_a_linear_axis():
    ds = datasets.load("koski")
    run = train(ds.X, ds.y, eta=0.2, w0=[1, 0.5], order=[4, 2, 0, 1, 3, 5])
    bound = describe_run(run, ds.X, ds.y).bound
    fig = updates_against_bound(run, bound)
    ax, lines = _lines(fig)
    assert ax.get_yscale() == "linear"
    x, u = next(ln for lb, ln in lines.items() if lb.startswith("updates so far")).get_data()
    assert (x[0], u[0]) == (0, 0) and u[-1] == 3
    assert "= 20.28" in _legend(fig)


def test_no_bound_draws_the_count_and_says_why():
    ds = datasets.load("xor")
    run = train(ds.X, ds.y, max_epochs=10)
    bound = describe_run(run, ds.X, ds.y).bound
    assert bound.value is None
    fig = updates_against_bound(run, bound)
    ax, lines = _lines(fig)
    assert ax.get_yscale() == "linear"
    assert not any(lb.startswith("mistake bound") for lb in lines)
    assert f"no mistake bound: {bound.note}" in _legend(fig)
    assert "no mistake bound" in _legend(updates_against_bound(run, None))


@pytest.mark.parametrize("traj,bound,words", [
    ("a run", None, "traj: expected a Trajectory"),
    (None, "a bound", "bound: expected a Bound or None; got str"),
])
def test_wrong_arguments_are_named(traj, bound, words):
    ds = datasets.load("koski")
    run = train(ds.X, ds.y, max_epochs=1) if traj is None else traj
    with pytest.raises(TypeError, match=words):
        updates_against_bound(run, bound)
