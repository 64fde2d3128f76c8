"""Mistake bounds hold over many random separable datasets; margins and radii by hand."""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from explorer.perceptron import bounds, train
from explorer.shared import datasets

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _data(seed, n, dim, margin):
    return datasets.load("separable", n=n, dim=dim, margin=margin, seed=seed)


def test_radius_margin_by_hand():
    X = np.array([[3.0, 4.0], [0.0, -1.0]])
    y = np.array([1.0, -1.0])
    assert bounds.radius(X) == 5.0
    assert bounds.radius(X, augmented=True) == pytest.approx(np.sqrt(26))
    # w = (0, 1), b = 0: margins 4 and 1
    assert bounds.margin(X, y, [0.0, 2.0]) == pytest.approx(1.0)
    np.testing.assert_allclose(bounds.functional_margins(X, y, [0, 1], 0.5), [4.5, 0.5])
    with pytest.raises(ValueError, match="w != 0"):
        bounds.margin(X, y, [0, 0])


def test_dataset_margin_closed_form():
    # two points: the max margin is half their distance
    X = np.array([[0.0, 0.0], [3.0, 4.0]])
    y = np.array([-1.0, 1.0])
    assert bounds.dataset_margin(X, y) == pytest.approx(2.5, rel=1e-6)
    # homogeneous: points (1, 0) and (0, 1) of classes +1/-1: best w ∝ (1, -1), margin 1/sqrt 2
    assert bounds.dataset_margin([[1.0, 0.0], [0.0, 1.0]], [1, -1], fit_intercept=False) == \
        pytest.approx(1 / np.sqrt(2), rel=1e-6)


@SETTINGS
@given(seed=st.integers(0, 100_000), n=st.integers(2, 40), dim=st.integers(1, 4),
       margin=st.floats(0.02, 0.5), eta=st.floats(0.05, 5.0),
       order=st.sampled_from(["cyclic", "shuffle", "random"]))
def test_classic_updates_within_novikoff(seed, n, dim, margin, eta, order):
    ds = _data(seed, n, dim, margin)
    for fit in (True, False):
        if not fit:
            ds = datasets.from_arrays(ds.X, ds.y)
            try:
                bound = bounds.novikoff_bound(ds.X, ds.y, fit_intercept=False)
            except ValueError:
                continue  # not separable through the origin
        else:
            bound = bounds.novikoff_bound(ds.X, ds.y)
        assume(bound < 50_000)
        tr = train(ds.X, ds.y, eta=eta, order=order, seed=seed, fit_intercept=fit,
                   max_epochs=int(bound) + 2)
        # passes over every point (cyclic, shuffled): at most `bound` of them update, so a pass
        # without an update, convergence, comes within bound + 1 passes. I.i.d. random visits
        # (order "random") carry no such promise: a "pass" of n draws can miss a point still
        # wrong (Hypothesis found seed=4, n=2, dim=2, margin=0.5), so only the bound is asserted there.
        if order != "random":
            assert tr.converged
        assert tr.n_updates <= bound + 1e-9
        # Cornwell's (RB)^2 is the same number for the best separator
        cb = bounds.cornwell_bound(ds.X, ds.y, fit_intercept=fit)
        assert cb == pytest.approx(bound, rel=1e-4)


@SETTINGS
@given(seed=st.integers(0, 100_000), n=st.integers(2, 40), dim=st.integers(1, 3),
       margin=st.floats(0.05, 0.5), order=st.sampled_from(["cyclic", "shuffle", "random"]))
def test_margin_rule_within_hardt_recht(seed, n, dim, margin, order):
    ds = _data(seed, n, dim, margin)
    for fit in (False, True):
        try:
            bound = bounds.hardt_recht_bound(ds.X, ds.y, fit_intercept=fit)
        except ValueError:
            continue
        assume(bound < 50_000)
        tr = train(ds.X, ds.y, rule="margin", fit_intercept=fit, order=order, seed=seed,
                   max_epochs=int(bound) + 2)
        assert tr.converged and tr.n_updates <= bound + 1e-9


@SETTINGS
@given(seed=st.integers(0, 100_000), n=st.integers(2, 30), margin=st.floats(0.05, 0.5))
def test_unit_norm_three_over_gamma_squared(seed, n, margin):
    ds = _data(seed, n, 3, margin)
    X = ds.X / np.linalg.norm(ds.X, axis=1, keepdims=True)
    try:
        bound = bounds.unit_norm_bound(X, ds.y)
    except ValueError:
        return  # normalising can make the set inseparable through the origin
    assume(bound < 50_000)
    tr = train(X, ds.y, rule="margin", fit_intercept=False, max_epochs=int(bound) + 2)
    assert tr.converged and tr.n_updates <= bound + 1e-9


@SETTINGS
@given(seed=st.integers(0, 100_000), n=st.integers(2, 40), dim=st.integers(1, 4),
       margin=st.floats(0.02, 0.5), eta=st.floats(0.05, 5.0))
def test_rosenblatt_r2_within_koski(seed, n, dim, margin, eta):
    ds = _data(seed, n, dim, margin)
    bound = bounds.koski_bound(ds.X, ds.y)
    assume(bound < 50_000)
    tr = train(ds.X, ds.y, rule="rosenblatt_r2", eta=eta, max_epochs=int(bound) + 2)
    assert tr.converged and tr.n_updates <= bound + 1e-9


def test_unit_norm_bound_needs_unit_points():
    with pytest.raises(ValueError, match="unit-norm"):
        bounds.unit_norm_bound([[2.0, 0.0], [0.0, 1.0]], [1, -1], gamma=0.5)


def test_mistake_bound_picks_the_rule_and_says_why_not():
    ds = datasets.load("koski")
    b = bounds.mistake_bound("classic", ds.X, ds.y)
    assert b.value == pytest.approx(bounds.novikoff_bound(ds.X, ds.y)) and "Sayed" in b.source
    assert "Koski" in bounds.mistake_bound("rosenblatt_r2", ds.X, ds.y).source
    assert "Hardt" in bounds.mistake_bound("margin", ds.X, ds.y).source
    assert bounds.mistake_bound("margin", ds.X, ds.y, forget=0.9).value is None
    shifted = bounds.mistake_bound("classic", ds.X, ds.y, w0=[1, 0.5], eta=0.2)
    assert shifted.value == pytest.approx(bounds.shifted_bound(ds.X, ds.y, w0=[1, 0.5], eta=0.2))
    assert shifted.source == "Sayed, Lemma 60.1, from w₀"
    assert shifted.formula == "from w₀: root of (a + uηγ)² = c + uη²H²"
    assert bounds.mistake_bound("relaxation", ds.X, ds.y, w0=[1, 0.5]).value is None
    assert bounds.mistake_bound("margin", ds.X, ds.y, w0=[1, 0.5], forget=0.9).value is None
    xor = datasets.load("xor")
    nb = bounds.mistake_bound("classic", xor.X, xor.y)
    assert nb.value is None and "not linearly separable" in nb.note
    assert bounds.mistake_bound("relaxation", ds.X, ds.y).value is None


@pytest.mark.parametrize("rule", ["classic", "pocket", "averaged"])
def test_cornwell_bound_is_shown_where_it_applies(rule):
    """Issue 19, item 12: Cornwell's (RB)^2 is the bound of the classic rule (and of the pocket
    and averaged rules, which run its updates) with an offset, from 0; the panel names it."""
    ds = datasets.load("separable", n=40, margin=0.2, seed=5)
    b = bounds.mistake_bound(rule, ds.X, ds.y, eta=0.3)
    assert b.formula == "H² / γ² = (RB)²" and b.source == "Sayed, Lemma 60.1 (Novikoff); Cornwell (2025)"
    assert b.value == pytest.approx(bounds.cornwell_bound(ds.X, ds.y), rel=1e-9)
    # B = min ||V|| with y_i <V, (x_i, 1)> >= 1 is 1 / gamma of the augmented points
    assert b.value == pytest.approx((b.radius / b.gamma) ** 2, rel=1e-12)
    tr = train(ds.X, ds.y, rule=rule, eta=0.3, order="shuffle", seed=1, max_epochs=200)
    assert tr.n_updates <= b.value
    # where Cornwell's theorem says nothing (no offset, another start, other rules): not named
    others = [bounds.mistake_bound(rule, ds.X, ds.y, fit_intercept=False),
              bounds.mistake_bound(rule, ds.X, ds.y, w0=[0.5, -1.0]),
              bounds.mistake_bound(rule, ds.X, ds.y, b0=0.5),
              bounds.mistake_bound("margin", ds.X, ds.y),
              bounds.mistake_bound("rosenblatt_r2", ds.X, ds.y)]
    for other in others:
        assert "Cornwell" not in other.source and "RB" not in other.formula


def test_the_mistakes_panel_shows_cornwell_beside_novikoff():
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from explorer.plots import PerceptronFigure

    ds = datasets.load("koski")
    fig = Figure(figsize=(13, 6.8), dpi=50)
    FigureCanvasAgg(fig)
    pf = PerceptronFigure(fig, dpi=50)
    pf.set_run(train(ds.X, ds.y), ds.X, ds.y)
    text = pf.mistakes.bound_text.get_text().replace("\n", " ")
    assert "H² / γ² = (RB)²" in text and "Cornwell (2025)" in text
    pf.set_run(train(ds.X, ds.y, eta=0.2, w0=[1, 0.5]), ds.X, ds.y)  # Koski's start: shifted
    assert "Cornwell" not in pf.mistakes.bound_text.get_text()


@pytest.mark.parametrize("rule", ["classic", "margin", "rosenblatt_r2"])
def test_proof_quantities_respect_their_lines(rule):
    from explorer.shared.svm import fit

    ds = datasets.load("separable", n=40, margin=0.1, seed=3)
    svm = fit(ds.X, ds.y)
    tr = train(ds.X, ds.y, rule=rule, eta=0.7, max_epochs=500)
    pq = bounds.proof_quantities(tr, ds.X, ds.y, w_star=svm.w, b_star=svm.b)
    assert pq.gamma > 0
    assert np.all(pq.dot >= pq.dot_lower - 1e-9)
    assert np.all(pq.norm_sq <= pq.norm_sq_upper + 1e-9)
    # the two lines together give the bound: u * eta * gamma <= ||w_u|| <= sqrt(u * per-step)
    assert len(pq.dot) == tr.n_updates + 1


# ---------------------------------------------------------------- the bound from a start w0
def test_shifted_root_by_hand():
    # from 0: (u s)^2 = u p  ->  u = p / s^2
    assert bounds.shifted_root(0.0, 0.0, step=0.5, per_step=2.0) == pytest.approx(8.0)
    # a = 1, c = 1, s = 1, p = 1: (1 + u)^2 = 1 + u  ->  u^2 + u = 0  ->  u+ = 0
    assert bounds.shifted_root(1.0, 1.0, step=1.0, per_step=1.0) == pytest.approx(0.0, abs=1e-12)
    # a = -1, c = 1, s = 1, p = 1: (u - 1)^2 = 1 + u  ->  u^2 - 3u = 0  ->  u+ = 3
    assert bounds.shifted_root(-1.0, 1.0, step=1.0, per_step=1.0) == pytest.approx(3.0)
    # a = 0, c = 4, s = 1, p = 0: u^2 = 4  ->  u+ = 2
    assert bounds.shifted_root(0.0, 4.0, step=1.0, per_step=0.0) == pytest.approx(2.0)
    # well aligned start (2 a s > p): the stable branch agrees with the textbook formula
    a, c, s_, p = 3.0, 10.0, 0.5, 0.2
    B = p - 2 * a * s_
    textbook = (B + np.sqrt(B * B + 4 * s_ * s_ * (c - a * a))) / (2 * s_ * s_)
    assert bounds.shifted_root(a, c, step=s_, per_step=p) == pytest.approx(textbook, rel=1e-12)
    with pytest.raises(ValueError, match="positive"):
        bounds.shifted_root(0.0, 0.0, step=0.0, per_step=1.0)


@pytest.mark.parametrize("fit", [True, False])
def test_shifted_bound_is_novikoff_from_zero(fit):
    ds = datasets.load("separable", n=30, seed=5, margin=0.2)
    for eta in (0.1, 1.0, 3.0):
        assert bounds.shifted_bound(ds.X, ds.y, eta=eta, fit_intercept=fit) == pytest.approx(
            bounds.novikoff_bound(ds.X, ds.y, fit_intercept=fit), rel=1e-6)
        assert bounds.shifted_bound(ds.X, ds.y, eta=eta, rule="margin", fit_intercept=fit) == \
            pytest.approx(bounds.hardt_recht_bound(ds.X, ds.y, eta=eta, fit_intercept=fit), rel=1e-6)


def test_koski_default_run_has_a_finite_bound():
    ds = datasets.load("koski")
    run = train(ds.X, ds.y, eta=0.2, w0=[1, 0.5], order=[4, 2, 0, 1, 3, 5], rule="classic",
                fit_intercept=True)
    b = bounds.mistake_bound("classic", ds.X, ds.y, eta=0.2, w0=[1, 0.5])
    assert np.isfinite(b.value) and b.value >= 3 == run.n_updates
    assert b.gamma > 0 and b.radius == pytest.approx(3.0)  # H = ||(-2, -2, 1)|| = 3


@SETTINGS
@given(seed=st.integers(0, 100_000), n=st.integers(2, 30), dim=st.integers(1, 3),
       margin=st.floats(0.05, 0.5), eta=st.floats(0.05, 5.0),
       start=st.lists(st.floats(-3, 3), min_size=4, max_size=4),
       order=st.sampled_from(["cyclic", "shuffle", "random"]), fit=st.booleans(),
       rule=st.sampled_from(["classic", "margin"]))
def test_runs_from_any_start_stay_within_the_shifted_bound(seed, n, dim, margin, eta, start,
                                                             order, fit, rule):
    from explorer.shared.svm import fit as svm_fit

    ds = _data(seed, n, dim, margin)
    w0, b0 = np.array(start[:dim]), (start[3] if fit else 0.0)  # without an offset b stays b0
    Xh = bounds.augment(ds.X) if fit else ds.X
    try:
        best = svm_fit(Xh, ds.y, fit_intercept=False)
    except ValueError:
        return  # not separable through the origin
    w_star, b_star = best.w[:dim], (best.w[dim] if fit else 0.0)
    bound = bounds.shifted_bound(ds.X, ds.y, w0=w0, b0=b0, eta=eta, rule=rule, fit_intercept=fit,
                                 w_star=w_star, b_star=b_star)
    assume(bound < 20_000)
    tr = train(ds.X, ds.y, rule=rule, eta=eta, order=order, seed=seed, fit_intercept=fit, w0=w0,
               b0=b0, max_epochs=int(bound) + 2)
    # An i.i.d. random order stops after n quiet picks, which may all have missed a point that
    # still fails (e.g. seed 387, n = 2): the run then ends unconverged, and says so. The bound
    # on the updates holds for every order.
    assert tr.converged or (order == "random" and tr.stop_reason == "no_update_pass")
    assert tr.n_updates <= bound + 1e-9
    # the proof's two inequalities hold after every update, starting from the run's start
    pq = bounds.proof_quantities(tr, ds.X, ds.y, w_star=w_star, b_star=b_star)
    tol = 1e-9 * (1 + np.abs(pq.dot).max() + pq.norm_sq.max())
    assert np.all(pq.dot >= pq.dot_lower - tol)
    assert np.all(pq.norm_sq <= pq.norm_sq_upper + tol)
    assert pq.dot_lower[0] == pytest.approx(pq.dot[0]) and pq.norm_sq_upper[0] == pytest.approx(
        pq.norm_sq[0])
    assert pq.crossing == pytest.approx(bound, rel=1e-9)
