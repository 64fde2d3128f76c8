"""The exact views of data in any dimension (issue 34, item 3): the margin line and the plane
that contains w, checked against closed forms, the hard-margin SVM, a PCA by scikit-learn and
invariants over random data."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.decomposition import PCA

from explorer.perceptron import train
from explorer.shared import datasets, svm
from explorer.shared.exact_views import margin_line, w_plane


def _random(seed, n=40, M=6):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, M)) * rng.uniform(0.2, 3.0, size=M)
    w = rng.normal(size=M)
    return X, np.where(X @ w + 0.3 > 0, 1.0, -1.0), rng.normal(size=M), float(rng.normal())


def test_the_margin_line_is_each_points_signed_distance_by_a_loop():
    X, y, w, b = _random(0)
    line = margin_line(X, y, w, b)
    naive = [yi * (sum(wj * xj for wj, xj in zip(w, x, strict=True)) + b)
             / np.sqrt(sum(wj * wj for wj in w)) for x, yi in zip(X, y, strict=True)]
    np.testing.assert_allclose(line.distance, naive, rtol=1e-12, atol=1e-12)
    assert line.margin == min(naive) and line.worst == int(np.argmin(naive))
    assert not line.distance.flags.writeable


def test_the_max_margin_hyperplanes_margin_line_starts_at_gamma_of_s_in_30_dimensions():
    data = datasets.load("separable", n=80, dim=30, margin=0.2, seed=4)
    fit = svm.fit(data.X, data.y)
    line = margin_line(data.X, data.y, fit.w, fit.b)
    assert line.margin == pytest.approx(svm.dataset_margin(data.X, data.y), rel=1e-6)
    assert line.margin >= 0.2 * (1 - 1e-9)  # the generator's guaranteed gap
    # the support vectors are the points at the margin
    at_margin = np.flatnonzero(np.isclose(line.distance, line.margin, rtol=1e-5))
    assert set(at_margin) <= set(fit.support.tolist()) and line.worst in at_margin


def test_the_points_left_of_zero_are_the_ones_a_perceptron_step_updates_on():
    data = datasets.load("overlapping", n=50, dim=5, seed=2)
    traj = train(X=data.X, y=data.y, rule="classic", max_epochs=2, seed=0)
    for k in range(1, traj.n_steps + 1, 7):
        w, b = traj.state(k)
        if not np.any(w):
            continue
        wrong = set(margin_line(data.X, data.y, w, b).misclassified.tolist())
        assert wrong == {i for i in range(data.n) if data.y[i] * (data.X[i] @ w + b) <= 0}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), M=st.integers(2, 12), n=st.integers(1, 30))
def test_the_plane_contains_w_and_distances_along_it_are_exact(seed, M, n):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, M)) * 10.0 ** rng.uniform(-2, 2)
    w, b = rng.normal(size=M), float(rng.normal())
    p = w_plane(X, w, b)
    np.testing.assert_allclose(p.basis @ p.basis.T, np.eye(2), atol=1e-12)
    np.testing.assert_allclose(p.basis[0], w / np.linalg.norm(w), atol=1e-12)
    scale = max(1.0, float(np.abs(X).max()))
    np.testing.assert_allclose(p.coords[:, 0] - p.boundary, (X @ w + b) / np.linalg.norm(w),
                               atol=1e-10 * scale)
    # what the plane does not show is exactly the distance from it (Pythagoras)
    np.testing.assert_allclose(p.off_plane ** 2 + (p.coords ** 2).sum(axis=1),
                               (X ** 2).sum(axis=1), atol=1e-9 * scale ** 2)
    assert 0.0 <= p.spread <= 1.0 + 1e-12


def test_the_second_axis_is_scikit_learns_first_component_of_what_w_does_not_see():
    X, _, w, b = _random(3, n=60, M=8)
    p = w_plane(X, w, b)
    e1 = w / np.linalg.norm(w)
    R = X - np.outer(X @ e1, e1)
    pca = PCA(n_components=1).fit(R)
    assert abs(float(pca.components_[0] @ p.basis[1])) == pytest.approx(1.0, abs=1e-9)
    assert p.spread == pytest.approx(float(PCA().fit(R).explained_variance_ratio_[0]), rel=1e-9)


def test_in_two_dimensions_the_plane_is_the_data_plane_turned():
    X, y, w, b = _random(5, M=2)
    p = w_plane(X, w, b)
    np.testing.assert_allclose(p.off_plane, 0.0, atol=1e-12)
    d = lambda P: np.linalg.norm(P[:, None] - P[None], axis=2)  # noqa: E731
    np.testing.assert_allclose(d(p.coords), d(X), atol=1e-12)
    assert p.spread == 1.0


def test_the_view_does_not_depend_on_the_order_of_the_points_or_flip_its_sign():
    X, _, w, b = _random(7, n=30, M=5)
    order = np.random.default_rng(1).permutation(len(X))
    a, c = w_plane(X, w, b), w_plane(X[order], w, b)
    np.testing.assert_allclose(a.basis, c.basis, atol=1e-12)
    np.testing.assert_allclose(a.coords[order], c.coords, atol=1e-12)
    assert a.basis[1][np.argmax(np.abs(a.basis[1]))] > 0


def test_data_on_a_line_along_w_get_a_fixed_second_axis():
    X = np.outer(np.linspace(-1, 1, 5), [1.0, 2.0, 0.5])
    p = w_plane(X, [1.0, 2.0, 0.5], 0.25)
    assert p.spread == 1.0 and abs(float(p.basis[1] @ [1.0, 2.0, 0.5])) < 1e-12
    np.testing.assert_allclose(p.coords[:, 1], 0.0, atol=1e-12)


@pytest.mark.parametrize(("call", "error", "words"), [
    (lambda: margin_line([[1.0, 2.0]], [1], [0.0, 0.0]), ValueError, "must not be zero"),
    (lambda: margin_line([[1.0, 2.0]], [1], [1.0]), ValueError, "shape (2,)"),
    (lambda: margin_line([[1.0, 2.0]], [1, -1], [1.0, 1.0]), ValueError, "same number"),
    (lambda: margin_line([[1.0, 2.0]], [2], [1.0, 1.0]), ValueError, "-1 and +1"),
    (lambda: margin_line([[1.0, 2.0]], [1], ["a", "b"]), TypeError, "must hold numbers"),
    (lambda: margin_line([[1.0, 2.0]], [1], [1.0, np.nan]), ValueError, "finite"),
    (lambda: margin_line([[1.0, 2.0]], [1], [1.0, 1.0], b=float("inf")), TypeError, "finite"),
    (lambda: w_plane([[1.0], [2.0]], [1.0]), ValueError, "at least 2 features"),
    (lambda: w_plane([[1.0, 2.0]], [0, 0]), ValueError, "must not be zero"),
])
def test_bad_input_is_refused_with_what_was_expected(call, error, words):
    with pytest.raises(error, match=None) as info:
        call()
    assert words in str(info.value)
