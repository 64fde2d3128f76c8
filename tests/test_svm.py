"""Hard- and soft-margin SVM against scikit-learn, KKT conditions and closed forms (Sayed 61)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize
from sklearn.svm import SVC

from explorer.perceptron.bounds import augment
from explorer.shared import datasets, svm
from explorer.shared.separability import NotSeparableError
from explorer.shared.svm import C_from_rho, C_from_sayed_eta, dataset_margin, fit


def _separable(seed, n, d, gap=0.1, through_origin=False):
    rng = np.random.default_rng(seed)
    u = rng.normal(size=d)
    u /= np.linalg.norm(u)
    c = 0.0 if through_origin else rng.uniform(-0.5, 0.5)
    X = rng.normal(size=(n, d))
    f = X @ u + c
    y = np.where(f >= 0, 1.0, -1.0)
    X += (gap * y)[:, None] * u  # push each point away from the hyperplane
    return X, y


def _check_kkt(r, X, y, C, atol=1e-7):
    """Sayed (61.43)-(61.52): stationarity, dual feasibility, complementary slackness."""
    a = r.alpha
    assert np.allclose(r.w, (a * y) @ X, atol=atol * max(1, np.abs(r.w).max()))
    if r.fit_intercept:
        assert abs(a @ y) <= atol * max(1.0, a.sum())
    else:
        assert r.b == 0.0
    yf = y * (X @ r.w + r.b)
    assert np.allclose(yf, r.yf)
    upper = np.inf if C is None else C
    assert np.all(a >= 0) and np.all(a <= upper)
    zero, at_c = a == 0, a >= upper
    free = ~zero & ~at_c
    assert np.all(yf[zero] >= 1 - atol)
    assert np.allclose(yf[free], 1.0, atol=atol)
    assert np.all(yf[at_c] <= 1 + atol)
    assert np.allclose(r.slack, 0.0 if C is None else np.maximum(0, 1 - yf))
    assert math.isclose(r.objective, r.dual_objective, rel_tol=1e-7, abs_tol=1e-9)
    # support vectors per (61.10) contain every point with a non-zero dual variable
    assert set(np.flatnonzero(a > 0).tolist()) <= set(r.support.tolist())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(4, 60), d=st.integers(1, 4))
def test_hard_margin_matches_sklearn(seed, n, d):
    X, y = _separable(seed, n, d)
    if np.unique(y).size < 2:
        return
    r = fit(X, y)
    ref = SVC(kernel="linear", C=1e10, tol=1e-8).fit(X, y)
    assert np.allclose(r.w, ref.coef_[0], rtol=1e-4, atol=1e-5)
    assert math.isclose(r.b, ref.intercept_[0], rel_tol=1e-4, abs_tol=1e-5)
    assert set(ref.support_.tolist()) <= set(r.support.tolist())
    assert np.all(r.yf >= 1 - 1e-9)  # every constraint holds
    assert np.allclose(r.yf[r.on_margin], 1.0, atol=1e-6)  # with equality on the margin
    assert np.array_equal(r.support, r.on_margin)  # hard margin: support vectors meet it
    assert math.isclose(r.margin, 1 / np.linalg.norm(r.w))
    _check_kkt(r, X, y, None)


def test_hard_margin_near_degenerate_is_really_hard():
    X, y = _separable(7, 500, 2, gap=1e-4)
    r = fit(X, y)
    assert r.polished
    assert np.all(r.yf >= 1 - 1e-9)
    assert np.all(r.slack == 0)
    _check_kkt(r, X, y, None)


def test_closed_forms():
    # two points: the bisector, margin half the distance
    assert math.isclose(dataset_margin([[0.0, 0.0], [2.0, 0.0]], [-1, 1]), 1.0, rel_tol=1e-9)
    r = fit([[0.0, 0.0], [2.0, 0.0]], [-1, 1])
    assert np.allclose(r.w, [1.0, 0.0]) and math.isclose(r.b, -1.0, abs_tol=1e-9)
    assert np.allclose(r.alpha, [0.5, 0.5])
    # homogeneous: (2, 1) vs (2, -1): the best line through the origin is the x-axis
    X, y = [[2.0, 1.0], [2.0, -1.0]], [1, -1]
    assert math.isclose(dataset_margin(X, y, fit_intercept=False), 1.0, rel_tol=1e-9)
    # homogeneous: (1, 0) vs (3, 0) is only affinely separable
    with pytest.raises(NotSeparableError):
        dataset_margin([[1.0, 0.0], [3.0, 0.0]], [-1, 1], fit_intercept=False)


def _homogeneous_slsqp(X, y):
    cons = {"type": "ineq", "fun": lambda w: y * (X @ w) - 1, "jac": lambda w: y[:, None] * X}
    w0 = np.linalg.lstsq(X, y * 10, rcond=None)[0]
    res = minimize(lambda w: 0.5 * w @ w, w0, jac=lambda w: w, constraints=[cons],
                   method="SLSQP", options={"ftol": 1e-14, "maxiter": 500})
    return res.x


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(3, 40), d=st.integers(2, 4))
def test_homogeneous_hard_margin_matches_slsqp(seed, n, d):
    X, y = _separable(seed, n, d, gap=0.2, through_origin=True)
    r = fit(X, y, fit_intercept=False)
    assert np.allclose(r.w, _homogeneous_slsqp(X, y), rtol=1e-4, atol=1e-5)
    _check_kkt(r, X, y, None)
    if np.unique(y).size == 2:
        assert dataset_margin(X, y) >= r.margin * (1 - 1e-9)  # more freedom, larger margin


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(4, 80), d=st.integers(1, 3),
       C=st.sampled_from([0.01, 0.3, 1.0, 10.0]), fit_intercept=st.booleans())
def test_soft_margin_kkt_and_sklearn(seed, n, d, C, fit_intercept):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.7 * rng.normal(size=n) > 0, 1.0, -1.0)
    if np.unique(y).size < 2:
        y[0] = -y[0]
    r = fit(X, y, C=C, fit_intercept=fit_intercept)
    _check_kkt(r, X, y, C, atol=1e-6)
    if fit_intercept:
        ref = SVC(kernel="linear", C=C, tol=1e-9).fit(X, y)
        assert np.allclose(r.w, ref.coef_[0], rtol=1e-4, atol=1e-5)


def _soft_slsqp(X, y, C, fit_intercept):
    """The soft-margin primal (Sayed (61.11)) in ``(w, b, s)`` by SLSQP: an independent oracle."""
    n, d = X.shape
    k = d + 1
    eye, unit_b = np.eye(n), np.eye(1, k + n, d)
    cons = [{"type": "ineq", "fun": lambda v: v[k:], "jac": lambda v: np.c_[np.zeros((n, k)), eye]},
            {"type": "ineq", "fun": lambda v: v[k:] - 1 + y * (X @ v[:d] + v[d]),
             "jac": lambda v: np.c_[y[:, None] * X, y, eye]}]
    if not fit_intercept:
        cons.append({"type": "eq", "fun": lambda v: v[d:k], "jac": lambda v: unit_b})
    res = minimize(lambda v: 0.5 * v[:d] @ v[:d] + C * v[k:].sum(), np.r_[np.zeros(k), np.ones(n)],
                   jac=lambda v: np.r_[v[:d], 0.0, np.full(n, C)], constraints=cons,
                   method="SLSQP", options={"ftol": 1e-14, "maxiter": 1000})
    assert res.success, res.message
    return res.x[:d], res.fun


def test_soft_margin_without_intercept_and_no_free_dual_variable():
    # Found by hypothesis (test_soft_margin_kkt_and_sklearn, seed=160, n=35, d=3, C=0.3, no
    # intercept). At the optimum every dual variable is 0 or C, none is free. libsvm left
    # alpha ~ 1e-17 (round-off) on point 0, which has y f(x) = 1.074: counted as a free
    # (margin) point, it made the polish force y f(x) = 1 there, which failed the KKT check, and
    # libsvm's answer with alpha > 0 off the margin came back.
    n, d, C = 35, 3, 0.3
    rng = np.random.default_rng(160)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.7 * rng.normal(size=n) > 0, 1.0, -1.0)
    r = fit(X, y, C=C, fit_intercept=False)
    assert r.polished
    _check_kkt(r, X, y, C, atol=1e-9)
    assert r.yf[0] == pytest.approx(1.0742443730147, abs=1e-9) and r.alpha[0] == 0.0
    # no free point: the 22 points inside the band carry C, all others exactly 0, and
    # w = C sum y_i x_i over the former (Sayed (61.44)); no point lies on the margin
    at_c = r.alpha == C
    assert np.all(at_c | (r.alpha == 0)) and np.array_equal(at_c, r.yf < 1) and at_c.sum() == 22
    np.testing.assert_allclose(r.w, C * (y[at_c] @ X[at_c]), rtol=0, atol=1e-13)
    assert r.on_margin.size == 0
    w_ref, obj_ref = _soft_slsqp(X, y, C, fit_intercept=False)
    np.testing.assert_allclose(r.w, w_ref, atol=1e-6)  # SLSQP's own accuracy
    assert math.isclose(r.objective, obj_ref, rel_tol=1e-9)


def test_not_separable_hard_margin_carries_certificate():
    X = [[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]
    with pytest.raises(NotSeparableError, match="not") as info:
        fit(X, [1, 1, -1, -1])
    assert isinstance(info.value, ValueError)
    assert np.allclose(info.value.certificate.point, [0.0, 0.0])
    r = fit(X, [1, 1, -1, -1], C=1.0)  # the soft margin still answers
    assert np.allclose(r.w, 0.0, atol=1e-9)


def test_arrays_read_only():
    r = fit([[0.0], [1.0]], [-1, 1])
    for a in (r.w, r.alpha, r.support, r.on_margin, r.slack, r.yf):
        with pytest.raises(ValueError):
            a[0] = 1


def test_bad_input():
    X, y = [[0.0], [1.0]], [-1, 1]
    for C in (0, -1.0, np.inf):
        with pytest.raises(ValueError, match="C must"):
            fit(X, y, C=C)
    with pytest.raises(TypeError, match="C must be a real number"):
        fit(X, y, C="1")
    with pytest.raises(ValueError, match=r"got \{0, 1\}"):
        fit(X, [0, 1])
    with pytest.raises(ValueError, match="both classes"):
        fit([[0.0]], [1])
    # homogeneous margin is defined for one class
    assert math.isclose(dataset_margin([[2.0]], [1], fit_intercept=False), 2.0)


def test_sayed_parameter_conversions():
    assert C_from_sayed_eta(2.0, 4) == 0.5
    for eta in (0.1, 1.0, 7.0):
        assert math.isclose(C_from_rho(1 / (2 * eta), 25), C_from_sayed_eta(eta, 25))
    with pytest.raises(ValueError):
        C_from_rho(0.0, 10)
    with pytest.raises(ValueError):
        C_from_sayed_eta(1.0, 0)
    # the fit with C = C_from_rho minimises Sayed's hinge form (61.13)
    rng = np.random.default_rng(3)
    X = rng.normal(size=(20, 2))
    y = np.where(X[:, 0] - X[:, 1] + 0.5 * rng.normal(size=20) > 0, 1.0, -1.0)
    rho, N = 0.05, 20
    r = fit(X, y, C=C_from_rho(rho, N))
    # (61.13) as a smooth program in (w, b, s): rho ||w||^2 + mean(s), s >= 0, s >= 1 - y f
    def obj(v):
        return rho * v[:2] @ v[:2] + v[3:].mean()
    cons = [{"type": "ineq", "fun": lambda v: v[3:]},
            {"type": "ineq", "fun": lambda v: v[3:] - 1 + y * (X @ v[:2] + v[2])}]
    res = minimize(obj, np.r_[0, 0, 0, np.ones(N)], constraints=cons, method="SLSQP",
                   options={"ftol": 1e-14, "maxiter": 1000})
    assert np.allclose(r.w, res.x[:2], atol=1e-5)
    # b may not be unique (no free support vector); the objective value is
    hinge = np.maximum(0, 1 - y * (X @ r.w + r.b)).mean()
    assert math.isclose(rho * r.w @ r.w + hinge, res.fun, rel_tol=1e-7)


#: gamma(S) of the 569 x 30 standardised breast cancer data, as the libsvm solver (SVC at
#: C = 1e10, polished on its active set) found it before the hard margin was solved by NNLS
#: (8-18 s each): the points augmented with 1 through the origin (describe_run's), and affine.
BREAST_CANCER_GAMMA = {False: 0.001392517268324677, True: 0.00139984680641321}


@pytest.mark.parametrize("fit_intercept", [False, True], ids=["augmented, through 0", "affine"])
def test_breast_cancer_30d_hard_margin_is_certified_optimal_without_libsvm(fit_intercept,
                                                                            monkeypatch):
    """The 30-D hard margin behind the Perceptron tab's bound (describe_run solves it on the
    points augmented with 1, without an intercept) is found by NNLS and polished, libsvm
    unused; it is certified optimal independently of the solver: w = sum a_i y_i x_i with
    a >= 0 (and sum a_i y_i = 0), every y f(x) >= 1, and the primal objective equals the dual
    one (no duality gap), and gamma equals the libsvm solver's."""
    def no_libsvm(*args):
        raise AssertionError("libsvm was called")

    monkeypatch.setattr(svm, "_libsvm", no_libsvm)
    ds = datasets.load("breast_cancer")
    X, y = (ds.X, ds.y) if fit_intercept else (augment(ds.X), ds.y)
    r = fit(X, y, fit_intercept=fit_intercept)
    a = np.asarray(r.alpha)
    assert r.polished and np.all(a >= 0)
    w = (a * y) @ X
    np.testing.assert_allclose(r.w, w, rtol=0, atol=1e-9 * np.abs(w).max())
    if fit_intercept:
        assert abs(a @ y) <= 1e-10 * a.sum()
    yf = y * (X @ w + r.b)
    assert yf.min() >= 1 - 1e-8
    primal, dual = 0.5 * w @ w, a.sum() - 0.5 * w @ w
    assert math.isclose(primal, dual, rel_tol=1e-9)
    assert math.isclose(r.margin, BREAST_CANCER_GAMMA[fit_intercept], rel_tol=1e-9)
    assert r.on_margin.size == 29 and np.array_equal(r.support, r.on_margin)
    _check_kkt(r, X, y, None)


def test_hard_margin_with_an_offset_far_from_the_origin_is_exact():
    """With an intercept, NNLS solves a nearby problem (a constant column stands for b); data
    whose offset is large against that column still end at the exact hard margin: the one of
    the same data about the origin, moved (w the same, b = b0 - <w, shift>)."""
    X, y = _separable(11, 200, 3, gap=0.05)
    near = fit(X, y)
    shift = np.full(3, 100.0)
    r = fit(X + shift, y)  # b = -1906 beside the constant column 1 that stands for it
    assert r.polished and near.polished
    np.testing.assert_allclose(r.w, near.w, rtol=0, atol=1e-10 * np.abs(near.w).max())
    assert math.isclose(r.b, near.b - near.w @ shift, rel_tol=1e-9)
    np.testing.assert_array_equal(r.on_margin, near.on_margin)
    _check_kkt(r, X + shift, y, None)
