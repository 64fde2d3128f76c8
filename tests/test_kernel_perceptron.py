"""The kernel perceptron (explorer.xor.kernel_perceptron) against its primal form and closed forms."""

import numpy as np
import pytest

from explorer.perceptron import train
from explorer.shared import datasets
from explorer.xor import kernel_perceptron as kp


def test_kernel_matches_the_explicit_monomials():
    rng = np.random.default_rng(0)
    A, B = rng.normal(size=(5, 2)), rng.normal(size=(3, 2))

    def phi(P):  # the degree-2 map with (<a, b> + 1)^2 = <phi(a), phi(b)>
        x, y = P[:, 0], P[:, 1]
        r2 = np.sqrt(2)
        return np.column_stack([x * x, y * y, r2 * x * y, r2 * x, r2 * y, np.ones_like(x)])

    np.testing.assert_allclose(kp.polynomial_kernel(A, B, degree=2, c=1.0), phi(A) @ phi(B).T)


def test_linear_kernel_without_constant_is_the_primal_perceptron_without_offset():
    ds = datasets.load("separable", n=30, seed=2)
    run = kp.train_kernel(ds.X, ds.y, degree=1, c=0.0, max_epochs=100)
    ref = train(ds.X, ds.y, fit_intercept=False, max_epochs=100)
    assert run.converged == ref.converged
    np.testing.assert_array_equal(run.update_steps, ref.update_steps)
    w = (run.alpha(run.n_steps) * ds.y) @ ds.X
    np.testing.assert_allclose(w, ref.final_w, atol=1e-9)


@pytest.mark.parametrize("encoding", ["pm1", "01"])
def test_degree_two_classifies_xor(encoding):
    ds = datasets.load("xor", encoding=encoding)
    run = kp.train_kernel(ds.X, ds.y, degree=2)
    assert run.converged
    np.testing.assert_array_equal(run.predict(run.n_steps, ds.X), ds.y)
    assert run.alpha(0).sum() == 0 and run.alpha(run.n_steps).sum() == run.n_updates


def test_degree_one_cannot():
    ds = datasets.load("xor")
    run = kp.train_kernel(ds.X, ds.y, degree=1, max_epochs=20)
    assert not run.converged and run.n_updates == 80


def test_decision_grid_matches_pointwise():
    ds = datasets.load("xor")
    run = kp.train_kernel(ds.X, ds.y, degree=2)
    xs, ys, F = kp.decision_grid(run, run.n_steps, (-2, 2, -1, 3), resolution=7)
    assert F.shape == (7, 7)
    assert F[2, 5] == pytest.approx(run.decision(run.n_steps, [[xs[5], ys[2]]])[0])


@pytest.mark.parametrize("degree,words", [("abc", "kernel degree must be an integer"),
                                          (0, "kernel degree must be >= 1"),
                                          (7, "kernel degree must be <= 6"),
                                          (2.5, "kernel degree must be an integer")])
def test_bad_degree_is_refused(degree, words):
    ds = datasets.load("xor")
    with pytest.raises((ValueError, TypeError), match=words):
        kp.train_kernel(ds.X, ds.y, degree=degree)


def test_work_is_bounded():
    ds = datasets.load("xor")
    with pytest.raises(ValueError, match="max_epochs"):
        kp.train_kernel(ds.X, ds.y, max_epochs=10**6)
