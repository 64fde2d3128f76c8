"""Cover's counting theorem, enumeration of dichotomies and Boolean functions (Sayed 60.A, 60.B)."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.cover.counting import (
    MUROGA,
    capacity,
    count_threshold_functions,
    cover_count,
    cover_curve,
    cover_fraction,
    dichotomies,
    in_general_position,
    monte_carlo_fraction,
)
from explorer.shared.separability import check


def _exact_fraction(N, M):
    return Fraction(cover_count(N, M), 2**N)


# ------------------------------------------------------------------------- formula identities


@given(N=st.integers(1, 300))
def test_one_dimension_gives_2N(N):
    assert cover_count(N, 1) == 2 * N


@given(M=st.integers(0, 60), data=st.data())
def test_all_dichotomies_when_few_points(M, data):
    N = data.draw(st.integers(0, M + 1))
    assert cover_count(N, M) == 2**N
    assert cover_fraction(N, M) == 1.0


@given(N=st.integers(0, 400), M=st.integers(1, 60))
def test_recursion(N, M):
    # Sayed (60.73): S(M, N + 1) = S(M, N) + S(M - 1, N)
    assert cover_count(N + 1, M) == cover_count(N, M) + cover_count(N, M - 1)


def test_half_at_capacity():
    for M in range(0, 501):
        N = capacity(M)
        assert N == 2 * (M + 1)
        assert 2 * cover_count(N, M) == 2**N  # exactly one half
        assert cover_fraction(N, M) == 0.5
    assert cover_curve(500, 1002)[1002] == 0.5
    Ms = np.arange(501)
    assert np.allclose(cover_fraction(2 * (Ms + 1), Ms), 0.5, rtol=1e-12, atol=0)


def test_fraction_grows_with_M_and_falls_with_N():
    P = cover_fraction(np.arange(1, 200)[:, None], np.arange(0, 20)[None, :])
    assert P.shape == (199, 20)
    assert np.all(np.diff(P, axis=1) >= 0) and np.all(np.diff(P, axis=0) <= 0)


@settings(max_examples=60, deadline=None)
@given(N=st.integers(0, 10_000), M=st.integers(0, 1000))
def test_cover_fraction_accuracy(N, M):
    exact = _exact_fraction(N, M)
    assert cover_fraction(N, M) == float(exact)  # scalars: correctly rounded
    got = float(cover_fraction(np.array([N]), M)[0])  # arrays: the binomial tail
    if exact > Fraction(1, 10**300):
        assert abs(Fraction(got) - exact) <= exact * Fraction(1, 10**10)
    else:
        assert got <= 1e-299


def test_cover_curve_is_correctly_rounded():
    for M in (0, 1, 7, 250, 1000):
        curve = cover_curve(M, 3000)
        for N in (0, 1, M, M + 1, M + 2, 2 * M + 2, 2 * M + 3, 3 * M + 10, 3000):
            if N <= 3000:
                assert curve[N] == float(_exact_fraction(N, M)), (M, N)
    curve = cover_curve(1000, 10_000)
    Ns = np.arange(10_001)
    fast = cover_fraction(Ns, 1000)
    ok = curve > 1e-300
    assert np.allclose(fast[ok], curve[ok], rtol=1e-10, atol=0)


# -------------------------------------------------------------- enumeration against the formula


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), N=st.integers(1, 10), M=st.integers(1, 3))
def test_enumeration_equals_cover_on_random_points(seed, N, M):
    X = np.random.default_rng(seed).normal(size=(N, M))
    d = dichotomies(X)
    assert d.general_position
    assert d.count == cover_count(N, M) == d.formula


def test_enumeration_matches_one_lp_per_labeling():
    X = np.random.default_rng(5).normal(size=(7, 2))
    for fit_intercept in (True, False):
        d = dichotomies(X, fit_intercept=fit_intercept)
        brute = [check(X, lab, fit_intercept=fit_intercept).separable for lab in d.labelings]
        assert d.separable.tolist() == brute
    # homogeneous in R^2 is Cover's C(N, 2) = 2N = affine count in R^1
    assert dichotomies(X, fit_intercept=False).count == 14 == cover_count(7, 1)


def test_sayed_fig_60_12_four_points_in_the_plane():
    for seed in range(3):
        X = np.random.default_rng(seed).normal(size=(4, 2))
        assert dichotomies(X).count == 14
    square = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    d = dichotomies(square)
    assert d.count == 14 and d.separable.size == 16
    bad = {tuple(r) for r in d.labelings[~d.separable].tolist()}
    assert bad == {(-1, 1, 1, -1), (1, -1, -1, 1)}  # XOR and XNOR


def test_not_in_general_position():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [0.0, 3.0]])  # three on a line
    assert not in_general_position(X)
    d = dichotomies(X)
    assert not d.general_position and d.formula is None
    assert "does not apply" in d.note
    assert d.count == 12 < cover_count(4, 2)  # enumeration still answers
    assert in_general_position(X[[0, 1, 3]])
    assert in_general_position([[1.0, 0.0], [0.0, 1.0]], fit_intercept=False)
    assert not in_general_position([[1.0, 1.0], [2.0, 2.0]], fit_intercept=False)


# ------------------------------------------------------------------------------ Boolean functions


def test_boolean_counts():
    assert [count_threshold_functions(M) for M in (1, 2, 3, 4)] == [4, 14, 104, 1882]
    assert [MUROGA[M] for M in (1, 2, 3, 4)] == [4, 14, 104, 1882]
    for M in range(2, 9):  # Sayed's bound (60.85) 2^(M^2); it fails at M = 1 (4 > 2)
        assert MUROGA[M] <= 2 ** (M * M)
    assert all(MUROGA[M] <= 2 ** (2**M) for M in MUROGA)
    with pytest.raises(TypeError):
        MUROGA[9] = 1


def test_boolean_m3_agrees_with_one_lp_per_function():
    V = np.array(list(itertools.product((0.0, 1.0), repeat=3)))
    d = dichotomies(V)
    assert d.count == 104 and not d.general_position
    rng = np.random.default_rng(0)
    for j in rng.choice(256, size=40, replace=False):
        assert d.separable[j] == check(V, d.labelings[j]).separable


# ------------------------------------------------------------------------------- Monte Carlo


@pytest.mark.parametrize("N,M,trials", [(8, 2, 200), (22, 10, 100), (5, 1, 150)])
def test_monte_carlo_within_four_standard_errors(N, M, trials):
    r = monte_carlo_fraction(N, M, trials=trials, seed=11)
    assert r.formula == cover_fraction(N, M)
    se = max(r.stderr, math.sqrt(r.formula * (1 - r.formula) / trials))
    assert abs(r.estimate - r.formula) <= 4 * se
    assert r == monte_carlo_fraction(N, M, trials=trials, seed=11)


# ------------------------------------------------------------------------------------ bad input


def test_bad_input():
    with pytest.raises(ValueError, match="N must be >= 0"):
        cover_count(-1, 2)
    with pytest.raises(ValueError, match="M must be >= 0"):
        cover_fraction(3, -2)
    with pytest.raises(TypeError, match="N must be an integer"):
        cover_count(2.5, 1)
    with pytest.raises(TypeError):
        cover_fraction(np.array([1.5, 2.0]), 1)
    with pytest.raises(ValueError, match="N <= 16"):
        dichotomies(np.zeros((17, 2)))
    with pytest.raises(ValueError, match="M must be <= 4"):
        count_threshold_functions(5)
    with pytest.raises(ValueError, match="trials must be >= 1"):
        monte_carlo_fraction(5, 2, trials=0)
    with pytest.raises(ValueError, match="finite"):
        dichotomies([[np.inf, 0.0]])
    assert cover_count(4.0, 2) == 14  # an integral float is accepted
