"""Separability LP and its certificate (docs/mathematics.md#linear-separability)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.shared.separability import Certificate, NotSeparableError, check, is_separable

XOR_X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
XOR_Y = np.array([1.0, 1.0, -1.0, -1.0])


def _random_set(seed, n, d, scale=1.0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)) * scale, rng.choice([-1.0, 1.0], size=n)


def _assert_certificate(cert: Certificate, X, y):
    assert set(cert.pos_index.tolist()) == set(np.flatnonzero(y > 0).tolist())
    assert set(cert.neg_index.tolist()) == set(np.flatnonzero(y < 0).tolist())
    assert np.all(cert.pos_weights >= 0) and np.all(cert.neg_weights >= 0)
    p = cert.pos_weights @ X[cert.pos_index]
    q = cert.neg_weights @ X[cert.neg_index]
    scale = max(1.0, np.abs(X).max())
    assert np.allclose(p, cert.point, atol=1e-7 * scale)
    assert np.allclose(q, cert.point, atol=1e-7 * scale)
    if cert.conic:
        assert math.isclose(cert.pos_weights.sum() + cert.neg_weights.sum(), 1.0, rel_tol=1e-9)
    else:
        assert math.isclose(cert.pos_weights.sum(), 1.0, rel_tol=1e-9)
        assert math.isclose(cert.neg_weights.sum(), 1.0, rel_tol=1e-9)


def test_xor_certificate_is_origin():
    r = check(XOR_X, XOR_Y)
    assert not r.separable and r.w is None and r.b is None
    assert np.allclose(r.certificate.point, [0.0, 0.0], atol=1e-12)
    assert np.allclose(r.certificate.pos_weights, [0.5, 0.5])
    assert np.allclose(r.certificate.neg_weights, [0.5, 0.5])
    _assert_certificate(r.certificate, XOR_X, XOR_Y)
    assert not r.certificate.conic
    with pytest.raises(ValueError):
        r.certificate.point[0] = 1.0  # read-only


def test_and_is_separable_with_valid_separator():
    y = np.array([1.0, -1.0, -1.0, -1.0])  # AND in +-1 coding (Sayed P60.2)
    r = check(XOR_X, y)
    assert r.separable and r.certificate is None
    assert np.all(y * (XOR_X @ r.w + r.b) >= 1 - 1e-7)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 12), d=st.integers(1, 3),
       fit_intercept=st.booleans())
def test_answer_is_backed_by_separator_or_certificate(seed, n, d, fit_intercept):
    X, y = _random_set(seed, n, d)
    r = check(X, y, fit_intercept=fit_intercept)
    if r.separable:
        assert np.all(y * (X @ r.w + r.b) >= 1 - 1e-6)
        if not fit_intercept:
            assert r.b == 0.0
    else:
        _assert_certificate(r.certificate, X, y)
        assert r.certificate.conic is (not fit_intercept)
    assert is_separable(X, y, fit_intercept=fit_intercept) is r.separable


def test_homogeneous_conic_certificate():
    # separable by an affine line x = 1.5 but not by any line through the origin
    X = np.array([[1.0, 0.0], [2.0, 0.0]])
    y = np.array([-1.0, 1.0])
    assert check(X, y).separable
    r = check(X, y, fit_intercept=False)
    assert not r.separable and r.certificate.conic
    _assert_certificate(r.certificate, X, y)


def test_one_class_and_single_point():
    assert check([[0.0, 1.0]], [1.0]).separable
    assert check([[1.0], [2.0]], [-1, -1], fit_intercept=True).separable
    # a zero vector is never strictly on one side of a hyperplane through the origin
    r = check([[0.0, 0.0], [1.0, 1.0]], [1, 1], fit_intercept=False)
    assert not r.separable
    assert np.allclose(r.certificate.point, 0.0)


def test_duplicate_point_with_both_labels():
    X = np.array([[0.5, 0.5], [0.5, 0.5], [3.0, 1.0]])
    r = check(X, [1, -1, 1])
    assert not r.separable
    assert np.allclose(r.certificate.point, [0.5, 0.5])


def test_bad_input():
    with pytest.raises(ValueError, match=r"y must contain only -1 and \+1; got \{0, 1\}"):
        check(XOR_X, [0, 1, 0, 1])
    with pytest.raises(ValueError, match="same number of points"):
        check(XOR_X, [1, -1])
    with pytest.raises(ValueError, match="finite"):
        check([[np.nan, 0.0]], [1])
    with pytest.raises(TypeError, match="fit_intercept"):
        check(XOR_X, XOR_Y, fit_intercept="yes")


def test_not_separable_error_is_value_error():
    err = NotSeparableError("no", None)
    assert isinstance(err, ValueError) and err.certificate is None


# -------------------------------------------------- agreement with the perceptron (both ways)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(3, 8))
def test_separable_iff_perceptron_converges(seed, n):
    perceptron = pytest.importorskip("explorer.perceptron")
    from explorer.shared.svm import dataset_margin

    X, y = _random_set(seed, n, 2)
    if np.unique(y).size < 2:
        y[0] = -y[1]
    r = check(X, y)
    if r.separable:
        # Novikoff (Sayed Lemma 60.1): at most H^2 / gamma^2 updates, H = max ||(x, 1)||,
        # gamma = the best margin of the augmented data through the origin.
        H = np.hstack([X, np.ones((n, 1))])
        gamma = dataset_margin(H, y, fit_intercept=False)
        bound = np.max(np.sum(H**2, axis=1)) / gamma**2
        if bound > 20_000:
            return  # legitimately slow; the bound says how slow, not whether
        traj = perceptron.train(X, y, rule="classic", max_epochs=int(bound) + 2)
        assert traj.converged
        assert np.all(y * (X @ traj.final_w + traj.final_b) > 0)
    else:
        traj = perceptron.train(X, y, rule="classic", max_epochs=500)
        assert not traj.converged
