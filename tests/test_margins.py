"""Margins core (Sayed ch. 61): comparison, slack segments, Example 61.3 path, SGD objective."""

import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer import margins
from explorer.perceptron import bounds, train
from explorer.shared import datasets, svm

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
XOR = datasets.load("xor")


def _blobs(seed, n, d=2, separation=1.5):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.normal(size=(n, d)) * 0.7
    X[:, 0] += y * separation / 2
    return X, y


def _P(X, y, w, b, rho):
    """Sayed (61.13), written out by hand."""
    return rho * float(np.dot(w, w)) + float(np.mean(np.maximum(0.0, 1.0 - y * (X @ w + b))))


# --------------------------------------------------------------------------- compare
def test_hard_margin_comparison_on_separable_data():
    ds = datasets.load("separable", n=40, seed=0)
    tr = train(ds.X, ds.y)
    cmp = margins.compare(ds.X, ds.y, perceptron_w=tr.final_w, perceptron_b=tr.final_b)
    ref = svm.fit(ds.X, ds.y)
    assert cmp.hard and cmp.separable and cmp.certificate is None
    np.testing.assert_allclose(cmp.svm.w, ref.w)
    assert cmp.gamma == pytest.approx(svm.dataset_margin(ds.X, ds.y), rel=1e-12)
    assert cmp.svm_margin == pytest.approx(cmp.gamma) == pytest.approx(cmp.svm_min_margin)
    assert cmp.gamma == pytest.approx(1 / np.linalg.norm(ref.w))
    assert cmp.hinge_total == 0.0 and cmp.slack_index.size == 0 and cmp.slack_start.shape == (0, 2)
    assert cmp.svm_errors == 0 and cmp.perceptron_errors == 0
    # the perceptron's margin is the library's, and never beats the maximum margin
    assert cmp.perceptron_margin == pytest.approx(bounds.margin(ds.X, ds.y, tr.final_w, tr.final_b))
    assert 0 < cmp.perceptron_margin <= cmp.gamma
    assert cmp.sayed_eta is None and cmp.sayed_rho is None


def test_perceptron_margin_negative_when_it_misclassifies_and_none_for_zero_w():
    X, y = _blobs(1, 40, separation=0.5)
    w, b = np.array([1.0, 2.0]), 0.3
    cmp = margins.compare(X, y, C=1.0, perceptron_w=w, perceptron_b=b)
    wrong = int(np.sum(np.where(X @ w + b >= 0, 1, -1) != y))
    assert wrong > 0 and cmp.perceptron_errors == wrong
    assert cmp.perceptron_margin == pytest.approx(bounds.margin(X, y, w, b)) and cmp.perceptron_margin < 0
    assert margins.compare(X, y, C=1.0, perceptron_w=[0, 0], perceptron_b=1.0).perceptron_margin is None


def test_slack_segments_by_hand():
    # two points on the x-axis and one +1 point inside the band: w = (1, 0), b = -1 for C large
    X = np.array([[0.0, 0.0], [2.0, 0.0], [1.5, 1.0]])
    y = np.array([-1.0, 1.0, 1.0])
    cmp = margins.compare(X, y, C=0.01, perceptron_w=[1, 0], perceptron_b=-1)
    fit = cmp.svm
    w, b = np.asarray(fit.w), fit.b
    f = X @ w + b
    assert set(cmp.slack_index.tolist()) == set(np.flatnonzero(fit.slack > 1e-9).tolist())
    for i, start, end in zip(cmp.slack_index, cmp.slack_start, cmp.slack_end, strict=True):
        np.testing.assert_allclose(start, X[i])
        want = X[i] + (y[i] - f[i]) * w / (w @ w)
        np.testing.assert_allclose(end, want)
    assert len(cmp.slack_index) >= 1


def test_xor_hard_margin_gives_the_certificate():
    cmp = margins.compare(XOR.X, XOR.y, perceptron_w=[0.5, -0.2], perceptron_b=0.0)
    assert cmp.svm is None and not cmp.separable
    assert cmp.gamma is None and cmp.svm_margin is None and cmp.hinge_total is None
    np.testing.assert_allclose(cmp.certificate.point, [0.0, 0.0], atol=1e-12)
    assert cmp.slack_index.size == 0
    # the soft margin still answers on XOR, and keeps the certificate for the view
    soft = margins.compare(XOR.X, XOR.y, C=1.0, perceptron_w=[0.5, -0.2], perceptron_b=0.0)
    assert soft.svm is not None and soft.certificate is not None and soft.gamma is None
    # ... with w = 0 (no line beats none on XOR): every slack is 1 and there is no band
    assert np.allclose(soft.svm.w, 0) and soft.hinge_total == pytest.approx(4.0)
    assert soft.svm_margin == np.inf and soft.svm_min_margin is None and soft.slack_index.size == 0


def test_soft_margin_on_separable_data_states_gamma():
    ds = datasets.load("separable", n=30, seed=2, margin=0.05)
    cmp = margins.compare(ds.X, ds.y, C=0.05, perceptron_w=[1, 1], perceptron_b=0)
    assert cmp.separable and cmp.certificate is None
    assert cmp.gamma == pytest.approx(svm.dataset_margin(ds.X, ds.y))
    assert cmp.svm_margin > cmp.gamma  # a softer margin buys a wider band with slack
    assert cmp.hinge_total > 0 and cmp.slack_index.size > 0
    assert cmp.sayed_eta == pytest.approx(0.05 * 30)
    assert cmp.sayed_rho == pytest.approx(1 / (2 * 0.05 * 30))
    # the conversions agree with the ones svm.py exports
    assert svm.C_from_sayed_eta(cmp.sayed_eta, 30) == pytest.approx(0.05)
    assert svm.C_from_rho(cmp.sayed_rho, 30) == pytest.approx(0.05)


@SETTINGS
@given(seed=st.integers(0, 10_000), n=st.integers(4, 60), d=st.integers(1, 3),
       sep=st.floats(0.0, 4.0), C=st.sampled_from([None, 0.01, 0.3, 1.0, 20.0]),
       fit_intercept=st.booleans())
def test_comparison_invariants(seed, n, d, sep, C, fit_intercept):
    X, y = _blobs(seed, n, d, sep)
    rng = np.random.default_rng(seed + 1)
    wp, bp = rng.normal(size=d), float(rng.normal()) if fit_intercept else 0.0
    try:
        cmp = margins.compare(X, y, C=C, perceptron_w=wp, perceptron_b=bp,
                              fit_intercept=fit_intercept)
    except ValueError as exc:  # e.g. the homogeneous SVM with one class only cannot happen here
        pytest.fail(str(exc))
    assert cmp.perceptron_margin == pytest.approx(bounds.margin(X, y, wp, bp))
    if cmp.svm is None:
        assert C is None and not cmp.separable and cmp.certificate is not None
        return
    w, b = np.asarray(cmp.svm.w), cmp.svm.b
    ww = float(w @ w)
    if ww == 0:  # a soft margin with no line at all: nothing to measure slack against
        assert cmp.slack_index.size == 0 and cmp.svm_min_margin is None
        return
    f = X @ w + b
    # every slack segment ends on its own margin line, perpendicular to it, s_i / ||w|| long
    np.testing.assert_allclose(cmp.slack_end @ w + b, y[cmp.slack_index], atol=1e-8)
    np.testing.assert_allclose(cmp.slack_length, np.asarray(cmp.svm.slack)[cmp.slack_index]
                               / math.sqrt(ww), rtol=1e-9)
    d_vec = cmp.slack_end - cmp.slack_start
    cross = d_vec[:, :, None] * w[None, None, :] - d_vec[:, None, :] * w[None, :, None]
    assert np.allclose(cross, 0.0, atol=1e-8 * max(1.0, ww))  # parallel to w
    assert math.isclose(cmp.hinge_total, float(np.maximum(0, 1 - y * f).sum()) if C else 0.0,
                        rel_tol=1e-9, abs_tol=1e-9)
    assert cmp.svm_min_margin <= cmp.svm_margin * (1 + 1e-9)
    assert cmp.svm_errors == int(np.sum(np.where(f >= 0, 1, -1) != y))
    if cmp.gamma is not None:  # no separator has a larger margin than gamma(S)
        assert cmp.perceptron_margin <= cmp.gamma * (1 + 1e-7)
        assert cmp.svm_min_margin <= cmp.gamma * (1 + 1e-7)


def test_compare_rejects_bad_input():
    X, y = _blobs(0, 10)
    with pytest.raises(ValueError, match="C must be > 0"):
        margins.compare(X, y, C=0.0, perceptron_w=[1, 0], perceptron_b=0)
    with pytest.raises(ValueError, match="perceptron_w must have length 2"):
        margins.compare(X, y, perceptron_w=[1, 0, 0], perceptron_b=0)
    with pytest.raises(TypeError, match="perceptron_b must be a finite number; got nan"):
        margins.compare(X, y, C=1.0, perceptron_w=[1, 0], perceptron_b=float("nan"))
    with pytest.raises(TypeError, match="fit_intercept must be True or False; got 1"):
        margins.compare(X, y, C=1.0, perceptron_w=[1, 0], perceptron_b=0, fit_intercept=1)
    with pytest.raises(ValueError, match="both classes"):
        margins.compare(X, np.ones(10), C=1.0, perceptron_w=[1, 0], perceptron_b=0)
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument"):
        margins.compare(X, y, perceptron_w=[1, 0])


def test_results_are_read_only():
    X, y = _blobs(3, 20, separation=0.5)
    cmp = margins.compare(X, y, C=1.0, perceptron_w=[1, 0], perceptron_b=0)
    for a in (cmp.perceptron_w, cmp.slack_index, cmp.slack_start, cmp.slack_end):
        with pytest.raises(ValueError):
            a[0] = 1
    with pytest.raises(AttributeError):
        cmp.C = 2.0


# --------------------------------------------------------------------------- support path
def test_support_path_matches_the_solver():
    X, y = _blobs(4, 80, separation=1.0)
    Cs = [10.0, 0.01, 1.0, 0.1, 1.0]
    path = margins.support_path(X, y, Cs=Cs)
    np.testing.assert_array_equal(path.Cs, [0.01, 0.1, 1.0, 10.0])  # sorted, no repeats
    for j, C in enumerate(path.Cs):
        r = svm.fit(X, y, C=C)
        assert path.n_support[j] == r.support.size
        assert path.sv_fraction[j] == r.support.size / 80
        wrong = int(np.sum(np.where(X @ r.w + r.b >= 0, 1, -1) != y))
        assert path.n_errors[j] == wrong and path.error_rate[j] == wrong / 80
        assert path.w_norm[j] == pytest.approx(np.linalg.norm(r.w))
        assert path.hinge_total[j] == pytest.approx(np.sum(r.slack))
    np.testing.assert_allclose(path.sayed_eta, path.Cs * 80)
    np.testing.assert_allclose(path.sayed_rho, 1 / (2 * path.Cs * 80))


@SETTINGS
@given(seed=st.integers(0, 10_000), n=st.integers(6, 80), sep=st.floats(0.0, 4.0),
       fit_intercept=st.booleans())
def test_support_path_facts(seed, n, sep, fit_intercept):
    X, y = _blobs(seed, n, 2, sep)
    path = margins.support_path(X, y, Cs=np.logspace(-2, 1.5, 7), fit_intercept=fit_intercept)
    # Sayed (61.29): every misclassified point is a support vector
    assert np.all(path.error_rate <= path.sv_fraction)
    assert np.all(path.n_errors <= path.n_support)
    # the trade-off of (61.11): a larger C never shrinks ||w|| nor grows the total slack
    # (solver round-off: relative, and absolute where w is zero, e.g. one class drowned out)
    assert np.all(np.diff(path.w_norm) >= -1e-6 * path.w_norm[1:] - 1e-9)
    assert np.all(np.diff(path.hinge_total) <= 1e-6 * np.maximum(path.hinge_total[:-1], 1))


def test_support_path_where_no_line_pays_off():
    # Found by hypothesis (test_support_path_facts, seed=15, n=15, sep=0.09375, intercept): the
    # blobs overlap so much that w = 0, b = 1 is optimal at every C. With w = 0 the 8 points of
    # +1 all lie on the margin y f(x) = 1 (more than d + 1 = 3), so their dual variables are
    # not unique; the least-norm solution of the KKT equations left the box [0, C] at
    # C = 2.154, the polish was refused and libsvm's ||w|| = 1.6e-7 came back. The exact
    # answer: w = 0 (margin inf), every -1 point has slack 2, hinge total 7 x 2 = 14, and all
    # 15 points are support vectors while the 7 of -1 are misclassified (f = 1 >= 0).
    X, y = _blobs(15, 15, 2, 0.09375)
    Cs = np.logspace(-2, 1.5, 7)
    path = margins.support_path(X, y, Cs=Cs)
    assert np.all(path.w_norm == 0.0)
    np.testing.assert_allclose(path.hinge_total, 14.0, rtol=1e-12)
    np.testing.assert_array_equal(path.n_support, 15)
    np.testing.assert_array_equal(path.n_errors, 7)
    for C in Cs:
        r = svm.fit(X, y, C=C)
        assert r.polished and r.margin == np.inf and r.b == pytest.approx(1.0, abs=1e-12)
        # the certificate that w = 0 is optimal: dual variables in [0, C] with
        # sum a_i y_i x_i = 0 and sum a_i y_i = 0 (Sayed (61.44), (61.51)), each -1 point at C
        a = np.asarray(r.alpha)
        assert np.all((a >= 0) & (a <= C)) and np.all(a[y < 0] == C)
        np.testing.assert_allclose((a * y) @ X, 0.0, atol=1e-12 * C)
        assert abs(a @ y) <= 1e-12 * C * 15
        assert r.objective == pytest.approx(14 * C, rel=1e-12)
    # hand-checked alternatives do worse: the best w = 0 offset is b = 1, and small lines cost
    rng = np.random.default_rng(0)
    C = float(Cs[4])
    for _ in range(200):
        w, b = rng.normal(size=2) * 0.05, 1 + float(rng.normal()) * 0.05
        assert 0.5 * w @ w + C * np.maximum(0, 1 - y * (X @ w + b)).sum() >= 14 * C - 1e-12


def test_support_path_bad_cs():
    X, y = _blobs(0, 10)
    for bad in ([], [[1.0, 2.0]]):
        with pytest.raises(ValueError, match="Cs: expected a non-empty 1-D sequence"):
            margins.support_path(X, y, Cs=bad)
    with pytest.raises(ValueError, match=r"Cs: expected finite numbers > 0; got \[0.0, -1.0\]"):
        margins.support_path(X, y, Cs=[1.0, 0.0, -1.0])
    with pytest.raises(TypeError, match="Cs: expected numbers > 0"):
        margins.support_path(X, y, Cs=["a"])


# --------------------------------------------------------------------------- SGD (61.22)
@pytest.fixture(scope="module")
def sgd_run():
    X, y = _blobs(5, 80, separation=1.5)
    rho = 0.02
    run = train(X, y, rule="svm_sgd", eta=0.01, rho=rho, order="shuffle", max_epochs=200, seed=1)
    return X, y, rho, run


def test_sgd_objective_by_hand(sgd_run):
    X, y, rho, run = sgd_run
    ks = [0, 1, 7, 500, run.n_steps]
    got = margins.sgd_objective(run, X, y, steps=ks)  # rho taken from the run
    want = [_P(X, y, *run.state(k), rho) for k in ks]
    np.testing.assert_allclose(got, want, rtol=1e-12)
    assert got[0] == pytest.approx(1.0)  # from w = 0, b = 0 every hinge is 1
    every = margins.sgd_objective(run, X, y, rho=0.5)
    assert every.shape == (run.n_steps + 1,)
    assert every[500] == pytest.approx(_P(X, y, *run.state(500), 0.5))


def test_sgd_optimum_is_the_svm_objective_converted(sgd_run):
    X, y, rho, _ = sgd_run
    N = len(y)
    C = 1 / (2 * rho * N)
    fit = svm.fit(X, y, C=C)
    opt = margins.sgd_optimum(X, y, rho=rho)
    # J = ||w||^2/2 + C sum s = P / (2 rho): the two objectives differ by the factor 2 rho
    assert opt == pytest.approx(2 * rho * fit.objective, rel=1e-12)
    assert opt == pytest.approx(_P(X, y, np.asarray(fit.w), fit.b, rho), rel=1e-9)
    # and it is a minimum: no perturbation does better
    rng = np.random.default_rng(0)
    for _ in range(200):
        dw, db = rng.normal(size=2) * 0.05, float(rng.normal()) * 0.05
        assert _P(X, y, np.asarray(fit.w) + dw, fit.b + db, rho) >= opt - 1e-12


def test_long_sgd_run_approaches_the_optimum(sgd_run):
    X, y, rho, run = sgd_run
    opt = margins.sgd_optimum(X, y, rho=rho)
    every = margins.sgd_objective(run, X, y)
    assert np.all(every >= opt * (1 - 1e-9))  # the optimum is a lower bound at every step
    tail = every[-len(y) * 20:]  # the last 20 passes
    assert tail.mean() <= opt * 1.03
    assert every[-1] <= opt * 1.05


def test_sgd_optimum_without_offset():
    X, y = _blobs(6, 40, separation=2.0)
    run = train(X, y, rule="svm_sgd", eta=0.01, rho=0.05, order="shuffle", max_epochs=100,
                seed=0, fit_intercept=False)
    opt = margins.sgd_optimum(X, y, rho=0.05, fit_intercept=False)
    assert opt >= margins.sgd_optimum(X, y, rho=0.05) - 1e-12  # b = 0 is a constraint
    prog = margins.sgd_progress(run, X, y)
    assert prog.target.fit_intercept is False and prog.target.b == 0.0
    assert prog.optimum == pytest.approx(opt)
    assert np.all(prog.objective >= opt * (1 - 1e-9))


def test_sgd_progress(sgd_run):
    X, y, rho, run = sgd_run
    prog = margins.sgd_progress(run, X, y, max_points=300)
    assert prog.steps[0] == 0 and prog.steps[-1] == run.n_steps and len(prog.steps) <= 300
    assert np.all(np.diff(prog.steps) > 0)
    np.testing.assert_allclose(prog.objective, margins.sgd_objective(run, X, y, steps=prog.steps))
    assert prog.C == pytest.approx(1 / (2 * rho * len(y)))
    assert prog.optimum == pytest.approx(margins.sgd_optimum(X, y, rho=rho))
    for k in (0, 3, 1234):
        assert prog.objective_at(k) == pytest.approx(_P(X, y, *run.state(k), rho))


def test_sgd_bad_input(sgd_run):
    X, y, _, run = sgd_run
    with pytest.raises(ValueError, match="X: expected 2 features, as in the run; got 3"):
        margins.sgd_objective(run, np.c_[X, X[:, 0]], y)
    with pytest.raises(TypeError, match="traj: expected a Trajectory"):
        margins.sgd_objective("run", X, y)
    with pytest.raises(ValueError, match=r"steps must be in \[0,"):
        margins.sgd_objective(run, X, y, steps=[run.n_steps + 1])
    with pytest.raises(ValueError, match="rho must be > 0"):
        margins.sgd_optimum(X, y, rho=0.0)
    classic = train(X, y, max_epochs=2)
    with pytest.raises(ValueError, match="rho: expected > 0"):
        margins.sgd_progress(classic, X, y)


# --------------------------------------------------------------------------- Example 61.2
def test_example_61_2_reproduces_the_setting():
    out = margins.example_61_2(seed=0)
    assert out["n_train"] == 456 and out["n_test"] == 113  # as in the book
    assert out["book"] == {"test_error_30d": 14 / 113, "test_error_2d": 6 / 113}
    for tag in ("30d", "2d"):
        assert out[f"test_error_{tag}"] == out[f"test_mistakes_{tag}"] / 113
        assert 0 <= out[f"test_error_{tag}"] < 0.2 and 0 <= out[f"train_error_{tag}"] < 0.2
        assert 0 <= out[f"svm_test_error_{tag}"] < 0.2
    assert out["w_30d"].shape == (30,) and out["w_2d"].shape == (2,)
    assert out["X_train_2d"].shape == (456, 2) and out["X_test_2d"].shape == (113, 2)
    again = margins.example_61_2(seed=0)
    assert again["test_mistakes_30d"] == out["test_mistakes_30d"]
    np.testing.assert_array_equal(again["w_2d"], out["w_2d"])
    other = margins.example_61_2(seed=1)
    assert not np.array_equal(other["w_2d"], out["w_2d"])
    text = margins.describe_61_2(out)
    assert "Example 61.2" in text and f"{out['test_mistakes_30d']} of 113" in text


def test_example_61_2_without_standardisation():
    """Notebook 01, section 5: the book's run on the measurements in their own units (the
    30-D test error then scatters widely, over a range that holds the book's 14 of 113); the
    exact SVM is not fitted."""
    raw = margins.example_61_2(seed=0, standardize=False)
    std = margins.example_61_2(seed=0)
    assert raw["standardize"] is False and std["standardize"] is True
    assert raw["svm_test_error_30d"] is None and raw["svm_test_error_2d"] is None
    assert not np.allclose(raw["w_30d"], std["w_30d"])
    assert raw["test_mistakes_30d"] > std["test_mistakes_30d"]
    text = margins.describe_61_2(raw)
    assert "features not standardised" in text and "exact SVM with the same rho: not fitted" in text
    assert "not standardised" not in margins.describe_61_2(std)
    with pytest.raises(TypeError, match="standardize must be True or False; got 'no'"):
        margins.example_61_2(standardize="no")


def test_example_61_2_2d_line_is_the_books_up_to_the_signs_of_the_axes():
    """Notebook 01, section 5: a principal direction's sign is a convention; with both axes
    reversed our 2-D line points within a few degrees of the book's eq. (61.26), and the book's
    line (w* = (-1.1022, 0.6507), theta* = -0.07, so b = 0.07) misclassifies 30 of the 569
    projected tumours, 5.3 %, the book's test error."""
    from explorer.perceptron.engine import mistakes

    book_w, book_b = np.array([-1.1022, 0.6507]), 0.07
    w = -margins.example_61_2(seed=0)["w_2d"]
    angle = np.degrees(np.arccos(w @ book_w / np.linalg.norm(w) / np.linalg.norm(book_w)))
    assert angle < 5
    two = datasets.load("breast_cancer", k=2)
    assert mistakes(-two.X, two.y, book_w, book_b) == 30
    assert mistakes(two.X, two.y, book_w, book_b) > 500  # the axes as they are: the other way


def test_example_61_2_bad_input():
    with pytest.raises(ValueError, match=r"test_fraction: expected a number in \(0, 1\); got 1.5"):
        margins.example_61_2(test_fraction=1.5)
    with pytest.raises(ValueError, match="epochs must be >= 1"):
        margins.example_61_2(epochs=0)


# --------------------------------------------------------------------------- layering
def test_core_module_loads_no_plotting():
    code = ("import sys, explorer.margins\n"
            "print(','.join(sorted(k for k in sys.modules if k.split('.')[0] in "
            "('matplotlib', 'ipywidgets'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
