"""The perceptron trainer against Koski's worked example, scikit-learn and a naive replay."""

import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import naive_run
from sklearn.linear_model import Perceptron

from explorer.perceptron import RULES, train, training_error
from explorer.shared import datasets

ROOT = pathlib.Path(__file__).resolve().parent.parent

KOSKI = datasets.load("koski")


def test_koski_worked_example_exactly():
    """docs/mathematics.md#koski-worked-example (Koski 2017): points 5, 3, 1 first, eta 0.2, w0 (1, 0.5)."""
    tr = train(KOSKI.X, KOSKI.y, eta=0.2, w0=[1, 0.5], order=[4, 2, 0, 1, 3, 5])
    expected = [((1.0, 0.5), 0.0), ((0.6, 0.9), -0.2), ((0.2, 1.1), 0.0), ((0.5, 1.0), 0.2)]
    for k, (w, b) in enumerate(expected):
        got_w, got_b = tr.state(k)
        np.testing.assert_allclose(got_w, w, atol=1e-12)
        assert got_b == pytest.approx(b, abs=1e-12)
    assert tr.n_updates == 3 and tr.converged and tr.stop_reason == "converged"
    assert tr.update_steps.tolist() == [1, 2, 3]
    assert tr.picked[:3].tolist() == [4, 2, 0]
    np.testing.assert_allclose(tr.final_w, [0.5, 1.0], atol=1e-12)
    assert tr.final_b == pytest.approx(0.2, abs=1e-12)
    # every point is now correct
    assert np.all(KOSKI.y * (KOSKI.X @ tr.final_w + tr.final_b) > 0)


@pytest.mark.parametrize("name", ["separable", "overlapping"])
@pytest.mark.parametrize("epochs", [1, 2, 7, 25])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_classic_equals_sklearn(name, epochs, seed):
    ds = datasets.load(name, n=120, dim=3, seed=seed)
    sk = Perceptron(shuffle=False, eta0=1.0, tol=None, max_iter=epochs).fit(ds.X, ds.y)
    tr = train(ds.X, ds.y, max_epochs=epochs)
    np.testing.assert_allclose(tr.final_w, sk.coef_[0], rtol=1e-10, atol=1e-10)
    assert tr.final_b == pytest.approx(sk.intercept_[0], abs=1e-10)


def _sequence(tr, n):
    return tr.picked.reshape(-1)[tr.picked.reshape(-1) >= 0].tolist()


RULE_KW = {
    "classic": {}, "margin": {"forget": 0.9, "eta": 0.5}, "rosenblatt_r2": {"eta": 0.3},
    "regularized": {"rho": 0.05, "eta": 0.5}, "svm_sgd": {"rho": 0.02, "eta": 0.3},
    "relaxation": {"eta": 1.5}, "pocket": {}, "averaged": {"eta": 2.0},
}


@pytest.mark.parametrize("rule", sorted(RULES))
@pytest.mark.parametrize("order", ["cyclic", "shuffle", "random"])
@pytest.mark.parametrize("batch", [1, 3])
def test_state_agrees_with_naive_replay(rule, order, batch):
    ds = datasets.load("overlapping", n=30, seed=4)
    kw = RULE_KW[rule]
    tr = train(ds.X, ds.y, rule=rule, order=order, batch_size=batch, max_epochs=6, seed=11,
               w0=[0.3, -0.2], b0=0.1, **kw)
    seq = _sequence(tr, ds.n)
    naive_kw = {"eta": kw.get("eta", 1.0), "forget": kw.get("forget", 1.0), "rho": kw.get("rho", 0.0)}
    states, flags = naive_run(ds.X, ds.y, seq, rule=rule, w0=[0.3, -0.2], b0=0.1, batch=batch,
                              **naive_kw)
    assert len(flags) == tr.n_steps
    assert tr.updated.tolist() == flags
    W, Bv = tr.states(np.arange(tr.n_steps + 1))
    for k in range(tr.n_steps + 1):
        w, b = tr.state(k)
        np.testing.assert_allclose(w, states[k][0], rtol=1e-9, atol=1e-9)
        assert b == pytest.approx(states[k][1], abs=1e-9)
        np.testing.assert_allclose(W[k], w, rtol=1e-12, atol=1e-12)
    # memory: one stored weight vector per update, not per step
    assert tr.weights.shape == (tr.n_updates + 1, ds.d)
    assert tr.picked.dtype == np.int32


HAND_STEPS = [
    # rule, kwargs, x, y, w0, b0, expected w, expected b
    ("classic", {"eta": 0.5}, [2.0, 1.0], 1, [-1.0, 0.0], 0.0, [0.0, 0.5], 0.5),
    ("margin", {"eta": 1.0, "forget": 0.5}, [2.0, 1.0], 1, [0.2, 0.0], 0.0, [2.1, 1.0], 1.0),
    ("rosenblatt_r2", {"eta": 1.0}, [3.0, 4.0], -1, [1.0, 0.0], 0.0, [-2.0, -4.0], -25.0),
    ("regularized", {"eta": 0.5, "rho": 0.2}, [2.0, 1.0], 1, [-1.0, 0.0], 0.0, [0.2, 0.5], 0.5),
    ("svm_sgd", {"eta": 0.5, "rho": 0.2}, [2.0, 1.0], 1, [0.2, 0.0], 0.0, [1.16, 0.5], 0.5),
    # relaxation, t = 1: z = 1*(0*2 + 0*1 + 0) = 0, ||x~||^2 = 4 + 1 + 1 = 6, step = 1 * 1/6
    ("relaxation", {"eta": 1.0}, [2.0, 1.0], 1, [0.0, 0.0], 0.0, [1 / 3, 1 / 6], 1 / 6),
    ("pocket", {"eta": 1.0}, [2.0, 1.0], -1, [1.0, 0.0], 0.0, [-1.0, -1.0], -1.0),
    ("averaged", {"eta": 1.0}, [2.0, 1.0], -1, [1.0, 0.0], 0.0, [-1.0, -1.0], -1.0),
]


@pytest.mark.parametrize("rule,kw,x,lab,w0,b0,w1,b1", HAND_STEPS, ids=[h[0] for h in HAND_STEPS])
def test_one_hand_checked_step(rule, kw, x, lab, w0, b0, w1, b1):
    X = np.array([x, [-1.0, -1.0]])  # the second point is never visited
    y = np.array([lab, -lab], dtype=float)
    tr = train(X, y, rule=rule, w0=w0, b0=b0, order=[0], max_steps=1, **kw)
    assert tr.n_steps == 1 and tr.updated.tolist() == [True]
    w, b = tr.state(1)
    np.testing.assert_allclose(w, w1, atol=1e-12)
    assert b == pytest.approx(b1, abs=1e-12)


def test_classic_condition_is_not_strict():
    """From w = 0 a point with y f = 0 must update (Sayed, after (60.25))."""
    tr = train([[1.0, 1.0], [-1.0, -1.0]], [1, -1], max_epochs=3)
    assert tr.updated[0] and tr.converged


def test_pocket_error_is_minimum_of_iterates():
    ds = datasets.load("overlapping", n=80, seed=3)
    tr = train(ds.X, ds.y, rule="pocket", order="shuffle", seed=5, max_epochs=10)
    errs = [training_error(ds.X, ds.y, tr.weights[u], tr.biases[u]) for u in range(tr.n_updates + 1)]
    assert tr.pocket_error == pytest.approx(min(errs))
    np.testing.assert_allclose(tr.errors, errs)
    assert training_error(ds.X, ds.y, tr.pocket_w, tr.pocket_b) == pytest.approx(min(errs))
    assert tr.pocket_error < training_error(ds.X, ds.y, tr.weights[0], tr.biases[0])


def test_averaged_is_mean_over_steps():
    ds = datasets.load("overlapping", n=25, seed=8)
    tr = train(ds.X, ds.y, rule="averaged", max_epochs=4, w0=[0.5, 0.5])
    W, Bv = tr.states(np.arange(1, tr.n_steps + 1))
    np.testing.assert_allclose(tr.averaged_w, W.mean(axis=0), rtol=1e-10)
    assert tr.averaged_b == pytest.approx(Bv.mean())
    for k in (1, 7, 30):
        aw, ab = tr.averaged_state(k)
        np.testing.assert_allclose(aw, W[:k].mean(axis=0), rtol=1e-10)
    with pytest.raises(ValueError, match="averaged"):
        train(ds.X, ds.y, max_epochs=1).averaged_state(1)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 40), dim=st.integers(1, 4),
       order=st.sampled_from(["cyclic", "shuffle", "random"]))
def test_converged_runs_separate_the_data(seed, n, dim, order):
    ds = datasets.load("separable", n=n, dim=dim, margin=0.05, seed=seed)
    tr = train(ds.X, ds.y, order=order, seed=seed, max_epochs=2000)
    assert tr.converged
    z = ds.y * (ds.X @ tr.final_w + tr.final_b)
    assert np.all(z > 0)


def test_random_order_stops_after_n_quiet_steps():
    ds = datasets.load("separable", n=30, seed=1, margin=0.2)
    tr = train(ds.X, ds.y, order="random", seed=3, max_epochs=500)
    assert tr.converged
    last = tr.update_steps[-1] if tr.n_updates else 0
    assert tr.n_steps - last == ds.n
    assert not tr.updated[last:].any()


def test_stops_at_max_steps_and_max_epochs():
    ds = datasets.load("xor")
    tr = train(ds.X, ds.y, max_epochs=10)
    assert not tr.converged and tr.stop_reason == "max_epochs" and tr.n_steps == 40
    tr = train(ds.X, ds.y, max_epochs=10, max_steps=7)
    assert tr.n_steps == 7 and tr.stop_reason == "max_steps"


def test_label_flip_mirrors_the_run():
    """Sayed P60.8: flipping every label from w = 0 flips every iterate."""
    ds = datasets.load("separable", n=40, seed=9)
    a = train(ds.X, ds.y, max_epochs=50)
    b = train(ds.X, -ds.y, max_epochs=50)
    # from w = 0, point 0 with y f = 0 updates in both runs, so the runs mirror each other
    np.testing.assert_allclose(a.final_w, -b.final_w)
    assert a.update_steps.tolist() == b.update_steps.tolist()


def test_one_point_and_duplicate_opposite_points_are_valid():
    tr = train([[1.0, 2.0]], [1], max_epochs=5)
    assert tr.converged
    tr = train([[1.0, 1.0], [1.0, 1.0]], [1, -1], max_epochs=5)
    assert not tr.converged and tr.n_updates > 0


@pytest.mark.parametrize("kwargs,exc,match", [
    ({"eta": 0}, ValueError, "eta must be > 0; got 0"),
    ({"eta": -1.0}, ValueError, "eta must be > 0"),
    ({"rule": "nope"}, ValueError, "unknown rule 'nope'"),
    ({"order": "sideways"}, ValueError, "unknown order 'sideways'"),
    ({"order": [0, 9]}, ValueError, r"order indices must be in \[0, 3\]"),
    ({"order": [0.5]}, TypeError, "order indices must be integers"),
    ({"w0": [1.0, 2.0, 3.0]}, ValueError, "w0 must have length 2"),
    ({"max_epochs": 0}, ValueError, "max_epochs must be >= 1"),
    ({"forget": 1.5}, ValueError, "forget must be in"),
    ({"rule": "regularized", "rho": 1.0}, ValueError, "eta \\* rho must be < 0.5"),
    ({"batch_size": 9}, ValueError, "batch_size must be <= 4"),
])
def test_train_rejects_bad_parameters(kwargs, exc, match):
    ds = datasets.load("and")
    with pytest.raises(exc, match=match):
        train(ds.X, ds.y, **kwargs)


@pytest.mark.parametrize("X,y,exc,match", [
    ([[0.0, np.nan]], [1], ValueError, "NaN"),
    ([[0.0, np.inf], [1, 1]], [1, -1], ValueError, "finite"),
    ([["a", 1.0], [1, 1]], [1, -1], TypeError, "only numbers"),
    ([[0.0, 1.0], [1, 1]], [0, 1], ValueError, r"only -1 and \+1; got \{0, 1\}"),
    ([[0.0, 1.0], [1, 1]], [1, 2], ValueError, r"got \{1, 2\}"),
    ([[0.0, 1.0], [1, 1]], [1, 1], ValueError, "both classes"),
    (np.zeros((0, 2)), [], ValueError, "empty"),
    ([[0.0, 1.0], [1, 1]], [1, -1, 1], ValueError, "same number of points"),
])
def test_train_rejects_bad_data(X, y, exc, match):
    with pytest.raises(exc, match=match):
        train(X, y)


def test_state_rejects_out_of_range_step():
    tr = train(KOSKI.X, KOSKI.y, max_epochs=2)
    with pytest.raises(ValueError, match=r"step k must be in \[0, "):
        tr.state(tr.n_steps + 1)
    with pytest.raises(TypeError):
        tr.state(1.5)


def test_mini_batch_by_hand():
    """Sayed (60.23): a step adds up the corrections of the batch's mistakes, all computed at
    the same w (a sum, not an average). Koski's six points from 0 in batches of 2, by hand:
    step 1 visits (1.5, −0.5, +1) and (1, 1, +1), both with margin 0: w = (2.5, 0.5), b = 2;
    step 2 visits (−2, 1, +1) with f = −2.5 (a mistake) and (−1, −1.5, −1) with f = −1.25
    (right): w = (0.5, 1.5), b = 3; step 3 adds (−2, 2) for (2, −2, −1): w = (−1.5, 3.5), b = 2;
    step 4 adds (1.5, −0.5) for the first point again: w = (0, 3), b = 3."""
    tr = train(KOSKI.X, KOSKI.y, batch_size=2, max_epochs=2)
    expected = [((0, 0), 0), ((2.5, 0.5), 2), ((0.5, 1.5), 3), ((-1.5, 3.5), 2), ((0, 3), 3),
                ((0, 3), 3), ((0, 3), 3)]
    assert tr.n_steps == len(expected) - 1
    for k, (w, b) in enumerate(expected):
        got_w, got_b = tr.state(k)
        np.testing.assert_allclose(got_w, w, atol=1e-12)
        assert got_b == pytest.approx(b, abs=1e-12)
    assert tr.picked.tolist() == [[0, 1], [2, 3], [4, 5]] * 2
    assert tr.update_steps.tolist() == [1, 2, 3, 4]
    # regularized, η = 0.5, ρ = 0.1: the decay 1 − 2ηρ = 0.9 acts once per step, then the sum
    reg = train(KOSKI.X, KOSKI.y, rule="regularized", eta=0.5, rho=0.1, batch_size=3,
                max_epochs=1)
    w1, b1 = reg.state(1)  # points 1-3 all at margin 0: 0.5 (1.5 + 1 − 2, −0.5 + 1 + 1)
    np.testing.assert_allclose(w1, [0.25, 0.75])
    assert b1 == pytest.approx(1.5)
    w2, b2 = reg.state(2)  # points 4-6 at w1, b1: y·f = −0.125, −0.5, 0.5, so 4 and 5 (y = −1)
    np.testing.assert_allclose(w2, 0.9 * w1 + 0.5 * (-(np.array([-1, -1.5]) + [2, -2])))
    assert b2 == pytest.approx(b1 - 1.0)


@pytest.mark.parametrize("rule", ["classic", "regularized", "relaxation", "margin"])
@pytest.mark.parametrize("order", ["cyclic", "shuffle", [4, 2, 0, 6, 1]])
def test_mini_batches_stop_at_the_end_of_a_pass(rule, order):
    """With n = 7 points in batches of 3 a pass is 3, 3 and 1 points (no batch spans two
    passes); every step agrees with the naive replay of its own batch."""
    ds = datasets.load("overlapping", n=7, seed=3)
    kw = RULE_KW[rule]
    tr = train(ds.X, ds.y, rule=rule, order=order, batch_size=3, max_epochs=5, seed=2,
               w0=[0.3, -0.2], b0=0.1, **kw)
    pass_len = 7 if isinstance(order, str) else len(order)
    steps = -(-pass_len // 3)
    assert tr.epoch_steps == steps and tr.epochs == pytest.approx(tr.n_steps / steps)
    naive_kw = {"eta": kw.get("eta", 1.0), "forget": kw.get("forget", 1.0),
                "rho": kw.get("rho", 0.0)}
    w, b = np.array([0.3, -0.2]), 0.1
    for k in range(1, tr.n_steps + 1):
        batch = [int(i) for i in tr.picked[k - 1] if i >= 0]
        assert len(batch) == (3 if (k - 1) % steps < steps - 1 else pass_len - 3 * (steps - 1))
        states, flags = naive_run(ds.X, ds.y, batch, rule=rule, w0=w, b0=b, batch=3, **naive_kw)
        w, b = states[-1]
        assert tr.updated[k - 1] == flags[0]
        got_w, got_b = tr.state(k)
        np.testing.assert_allclose(got_w, w, rtol=1e-9, atol=1e-9)
        assert got_b == pytest.approx(b, abs=1e-9)


@pytest.mark.parametrize("order,batch,expected", [
    ("cyclic", 1, 6), ("shuffle", 1, 6), ("random", 1, 6), ("cyclic", 4, 2), ("random", 5, 2),
    ([0, 1, 2, 3, 4, 5, 0, 1, 2], 1, 9), ([0, 1, 2, 3, 4, 5, 0, 1, 2], 2, 5), ([4, 2], 1, 2),
])
def test_epoch_steps_is_one_pass_of_the_order(order, batch, expected):
    """An epoch is one pass of the visiting order in steps: n points, or the sequence's length,
    in batches (the timeline's "Epoch end" jumps by it)."""
    tr = train(KOSKI.X, KOSKI.y, order=order, batch_size=batch, max_epochs=3, seed=1)
    assert tr.epoch_steps == expected
    assert tr.epochs == pytest.approx(tr.n_steps / expected)



def test_the_margin_rule_shrinks_only_on_a_margin_mistake_and_the_sgd_step_is_svm_sgd():
    # Hardt & Recht's w <- gamma w + eta y x replaces the perceptron's update (on a margin
    # mistake); the SGD step on hinge + lambda/2 ||w||^2 shrinks at every step. They part at
    # the first step that passes a point, and agree at gamma = 1 (docs/mathematics.md).
    X, y, gamma, eta = [[2.0, 0.0]], [1], 0.5, 1.0
    margin = train(X=X, y=y, rule="margin", forget=gamma, eta=eta, fit_intercept=False,
                   max_steps=2)
    np.testing.assert_allclose(margin.state(2)[0], [2.0, 0.0])  # step 2 passes: w stays
    lam = (1 - gamma) / eta
    w = np.zeros(2)
    for _ in range(2):  # the SGD step written out: shrink, then the hinge's subgradient
        hinge = eta * np.asarray(X[0]) if float(np.dot(w, X[0])) < 1 else 0.0
        w = (1 - eta * lam) * w + hinge
    np.testing.assert_allclose(w, [1.0, 0.0])
    sgd = train(X=X, y=y, rule="svm_sgd", rho=lam / 2, eta=eta, fit_intercept=False, max_steps=2)
    np.testing.assert_allclose(sgd.state(2)[0], w)
    # at gamma = 1 both are the margin perceptron (no point at y f(x) = 1 exactly here)
    rng = np.random.default_rng(0)
    Xr = rng.normal(size=(20, 2))
    yr = np.where(Xr @ [1.0, -0.5] > 0, 1, -1)
    a = train(X=Xr, y=yr, rule="margin", forget=1.0, eta=0.3, fit_intercept=False, max_epochs=5)
    b = train(X=Xr, y=yr, rule="svm_sgd", rho=0.0, eta=0.3, fit_intercept=False, max_epochs=5)
    assert a.n_steps == b.n_steps
    np.testing.assert_allclose(a.state(a.n_steps)[0], b.state(b.n_steps)[0])


def test_the_mathematics_page_says_where_the_margin_rule_is_a_gradient_step():
    text = (ROOT / "docs" / "mathematics.md").read_text()
    assert "only on a margin mistake" in text
    assert "The rule is a stochastic subgradient step on the hinge loss" not in text
