"""Counting separable dichotomies: Cover's theorem, exact enumeration and Boolean functions.

* :func:`cover_count`, :func:`cover_fraction`, :func:`cover_curve`, :func:`capacity`: Cover's
  counting theorem for ``N`` points in general position in ``R^M`` and affine classifiers,
  ``S(M, N) = 2 sum_{m=0}^{M} C(N-1, m)`` for ``N > M + 1`` and ``2^N`` otherwise, and
  ``P(M, N) = S(M, N) / 2^N`` (Sayed, eqs. (60.65), (60.78); Cover 1965).
* :func:`dichotomies`: all ``2^N`` labelings of a small point set, each marked separable or not,
  found by exact enumeration (any point set, in general position or not).
* :func:`monte_carlo_fraction`: the fraction estimated from random Gaussian points.
* :func:`count_threshold_functions`, :data:`MUROGA`: linearly separable Boolean functions
  (Sayed, appendix 60.B).

Argument order is ``(N, M)`` everywhere here (number of points, then dimension), while Sayed
writes ``S(M, N)``. The mathematics: ``docs/mathematics.md#counting-theorem`` and
``docs/mathematics.md#boolean-counts``.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
from scipy.stats import binom

from ..shared.separability import column_scale, design_matrix, separating_direction
from ..shared.validation import as_features, check_bool, check_int, check_positive, make_rng

__all__ = [
    "MUROGA", "MAX_DICHOTOMY_POINTS", "MAX_DICHOTOMY_LPS", "MAX_COVER_N", "MAX_COVER_WORK",
    "MAX_SUBSETS", "MC_MAX_TRIALS", "MC_MAX_WORK", "Dichotomies", "MonteCarloEstimate", "capacity",
    "count_threshold_functions", "cover_count", "cover_curve", "cover_fraction", "dichotomies",
    "in_general_position", "monte_carlo_fraction",
]

#: Numbers of linearly separable Boolean functions of ``M = 1..8`` inputs, as published
#: (Muroga 1971, quoted in Sayed's Table 60.3). Literature values, not computed here; only
#: ``M <= 4`` are reproduced by :func:`count_threshold_functions`. (Sayed's table misprints the
#: total number of functions for ``M = 4`` as 65,356; it is ``2^16 = 65,536``. Its upper bound
#: ``2^(M^2)``, eq. (60.85), holds for ``M >= 2`` only: at ``M = 1`` all 4 functions are separable.)
MUROGA = MappingProxyType({
    1: 4, 2: 14, 3: 104, 4: 1882, 5: 94572, 6: 15028134, 7: 8378070864, 8: 17561539552946,
})

#: Largest point set :func:`dichotomies` accepts (it returns all ``2^N`` labelings).
MAX_DICHOTOMY_POINTS = 16
#: Most linear programs :func:`dichotomies` may need, estimated before it starts as
#: ``sum_{k<N} S(M, k) / 2`` (one LP per separable labeling of the first ``k`` points, half of
#: them by symmetry; general position gives the most). About 1-2 ms each: 16 points in the plane
#: need 575, the 16 vertices of the 4-cube at most 4943, 16 points in 8-D 27823 (refused).
MAX_DICHOTOMY_LPS = 5000
#: Largest ``N`` of :func:`cover_count`, :func:`cover_fraction` (scalars) and :func:`cover_curve`:
#: the exact counts are integers of about ``N`` bits.
MAX_COVER_N = 1_000_000
#: Most bit operations of one exact count or curve, estimated as (loop length) x (bits of the
#: running sum, at most ``min(N, (M + 1)(log2 N + 1))``): about 0.4 s.
MAX_COVER_WORK = 2_000_000_000
#: Most subsets of points :func:`in_general_position` checks (one small SVD each, about 10 µs).
MAX_SUBSETS = 200_000
#: :func:`monte_carlo_fraction`: most trials, and most ``trials x N x (M + 1)`` (the LPs' size).
MC_MAX_TRIALS = 5000
MC_MAX_WORK = 10_000_000


def _nm(N, M) -> tuple[int, int]:
    return (check_int(N, name="N", minimum=0, maximum=MAX_COVER_N),
            check_int(M, name="M", minimum=0))


def _bits(N: int, M: int) -> int:
    """Upper bound on the bits of ``sum_{m<=M} C(N - 1, m)``: at most ``N`` and, since each
    term is at most ``N^m``, at most ``(M + 1)(log2 N + 1)``."""
    return max(1, min(N, (M + 1) * (max(N, 2).bit_length() + 1)))


def _check_cover_work(loops: int, N: int, M: int, what: str) -> None:
    work = loops * _bits(N, M)
    if work > MAX_COVER_WORK:
        raise ValueError(f"{what} may take at most {MAX_COVER_WORK:,} bit operations (loop length "
                         f"x bits of the count); got about {work:,} for N = {N:,}, M = {M:,}")


def cover_count(N: int, M: int) -> int:
    """Number of linearly separable dichotomies of ``N`` points in general position in ``R^M``.

    ``S(M, N) = 2 sum_{m=0}^{M} C(N-1, m)`` when ``N > M + 1``, else ``2^N`` (Sayed, eq. (60.65);
    affine classifiers, the same as Cover's homogeneous count with ``d = M + 1``). Exact integer.
    The formula assumes general position; :func:`dichotomies` counts any given point set.

    Parameters
    ----------
    N : int >= 0
        Number of points.
    M : int >= 0
        Dimension of the feature space.
    """
    N, M = _nm(N, M)
    if N <= M + 1:
        return 2**N
    _check_cover_work(M + 1, N, M, "cover_count")
    total, term = 0, 1  # term = C(N-1, m)
    for m in range(M + 1):
        total += term
        term = term * (N - 1 - m) // (m + 1)
    return 2 * total


def _int_array(v, name):
    a = np.asarray(v)
    if a.dtype.kind == "f" and np.all(np.isfinite(a)) and np.all(a == np.round(a)):
        a = a.astype(np.int64)
    if a.dtype.kind not in "iu" or a.dtype == bool:
        raise TypeError(f"{name} must contain integers; got dtype {a.dtype}")
    if np.any(a < 0):
        raise ValueError(f"{name} must be >= 0; got {int(a.min())}")
    return a.astype(np.int64)


def cover_fraction(N, M):
    """Fraction ``P(M, N) = S(M, N) / 2^N`` of separable dichotomies (Sayed, eq. (60.78)).

    For scalar ``N`` and ``M`` the value is the exact integer ratio, correctly rounded (about a
    millisecond at ``N = 10 000``, ``M = 1000``). For arrays it is computed as a binomial tail,
    ``P(M, N) = P[Binomial(N-1, 1/2) <= M]`` (since ``S = 2 sum_{m <= M} C(N-1, m)`` and
    ``2 / 2^N = 2^-(N-1)``), with ``scipy.stats.binom.cdf`` (regularised incomplete beta):
    vectorised, with relative error below ``1e-10`` for ``M <= 1000``, ``N <= 10 000`` (tested
    against exact rationals). Values below about ``1e-308`` underflow to 0. For a correctly
    rounded curve over ``N`` at one ``M`` see :func:`cover_curve`.

    Parameters
    ----------
    N, M : int or array-like of int, >= 0
        Broadcast against each other.

    Returns
    -------
    float (scalar inputs) or ndarray of float (broadcast shape)
    """
    if np.ndim(N) == 0 and np.ndim(M) == 0:
        N, M = _nm(N, M)
        return cover_count(N, M) / (1 << N)  # exact integers, correctly rounded division
    try:
        Na, Ma = np.broadcast_arrays(_int_array(N, "N"), _int_array(M, "M"))
    except ValueError as exc:
        if "broadcast" not in str(exc) and "shape mismatch" not in str(exc):
            raise
        raise ValueError(f"N and M must broadcast against each other; got shapes {np.shape(N)} "
                         f"and {np.shape(M)}") from None
    out = np.where(Na <= Ma + 1, 1.0, binom.cdf(Ma, np.maximum(Na - 1, 0), 0.5))
    return out


def cover_curve(M: int, N_max: int) -> np.ndarray:
    """Exact ``P(M, N)`` for ``N = 0, 1, ..., N_max``, each correctly rounded to float.

    Runs the exact integer recursion over ``N``: with ``T(N) = sum_{m<=M} C(N-1, m)``,
    ``T(N+1) = 2 T(N) - C(N-1, M)`` (Pascal's rule, Sayed (60.76)), and divides
    ``2 T(N)`` by ``2^N`` with Python's correctly rounded integer division.

    Returns
    -------
    ndarray of shape (N_max + 1,)
    """
    M = check_int(M, name="M", minimum=0)
    N_max = check_int(N_max, name="N_max", minimum=0, maximum=MAX_COVER_N)
    _check_cover_work(max(0, N_max - M), N_max, M, "cover_curve")
    out = np.ones(N_max + 1)
    T, c = 2**M, 1  # T(M + 1) = 2^M and c = C(N - 1, M) = 1 at N = M + 1
    for N in range(M + 1, N_max + 1):
        out[N] = (2 * T) / (1 << N)
        T = 2 * T - c  # T(N + 1)
        c = c * N // (N - M)  # C(N, M) from C(N - 1, M)
    return out


def capacity(M: int) -> int:
    """Capacity ``2 (M + 1)`` of affine classifiers in ``R^M`` (Sayed, eq. (60.81)).

    At ``N = 2 (M + 1)`` exactly half of the dichotomies are separable; for large ``M`` the
    fraction falls sharply from 1 to 0 around this ``N`` (Sayed, (60.79)-(60.80)).
    """
    return 2 * (check_int(M, name="M", minimum=0) + 1)


def in_general_position(X, *, fit_intercept: bool = True, rtol: float = 1e-9) -> bool:
    """Whether the rows of ``X`` are in general position (the assumption of Cover's formula).

    Affine case: no ``M + 1`` of the points lie on one affine hyperplane of ``R^M``, i.e. every
    ``min(N, M + 1)`` augmented points ``(x, 1)`` are linearly independent (Sayed's definition
    before (60.65)). Homogeneous case: every ``min(N, M)`` points are linearly independent.
    Checked by singular values after scaling each column to size about 1 (which changes no
    subset's rank, so data of size ``1e-12`` and ``1e12`` get the same answer), over all subsets: at most
    :data:`MAX_SUBSETS` of them (``C(N, min(N, M + 1))``), refused beforehand otherwise.
    """
    X = as_features(X)
    fit_intercept = check_bool(fit_intercept, name="fit_intercept")
    rtol = check_positive(rtol, name="rtol", allow_zero=True)
    Z = design_matrix(X, fit_intercept)
    Z = Z / column_scale(Z)  # a subset's rank does not change; tiny and huge data alike
    n, p = Z.shape
    k = min(n, p)
    subsets = math.comb(n, k)
    if subsets > MAX_SUBSETS:
        raise ValueError(f"in_general_position checks every subset of {k} points and takes at "
                         f"most {MAX_SUBSETS:,} subsets; got C({n}, {k}) = {subsets:,}")
    scale = max(1.0, float(np.abs(Z).max()))
    for chunk in _chunks(itertools.combinations(range(n), k), 4096):
        sv = np.linalg.svd(Z[np.array(chunk)], compute_uv=False)
        if np.any(sv[:, -1] <= rtol * scale):
            return False
    return True


def _chunks(it, size):
    while chunk := list(itertools.islice(it, size)):
        yield chunk


@dataclass(frozen=True)
class Dichotomies:
    """All labelings of a point set and which are linearly separable. Arrays are read-only.

    Attributes
    ----------
    labelings : ndarray of shape (2^N, N), int8
        Row ``j`` gives point ``i`` the label +1 if bit ``i`` of ``j`` is set, else -1.
    separable : ndarray of shape (2^N,), bool
    count : int
        Number of separable labelings.
    N, M : int
        Number of points and dimension.
    fit_intercept : bool
    general_position : bool
        Whether the points are in general position (:func:`in_general_position`).
    formula : int or None
        Cover's count when it applies (general position), else ``None``.
    note : str
        A sentence for a person about whether the formula applies.
    n_lp : int
        Linear programs solved by the enumeration.
    """

    labelings: np.ndarray
    separable: np.ndarray
    count: int
    N: int
    M: int
    fit_intercept: bool
    general_position: bool
    formula: int | None
    note: str
    n_lp: int


def _sum_patterns(Z: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Cheap certificates of non-separability: ``z_a + z_b = z_c + z_d`` (repeats allowed).

    If ``{a, b}`` carry one label and ``{c, d}`` the other, the common midpoint lies in both
    hulls, so no labeling with that pattern is separable. Returns, for each ``k``, bit masks
    ``(P, Q)`` of the patterns whose largest index is ``k`` (P: points labelled +1, Q: -1),
    in both orientations. On lattice-like data such as hypercube vertices this replaces most of
    the LPs that would answer "no"; on points in general position there are none.
    """
    n = Z.shape[0]
    groups: dict[bytes, list[int]] = {}
    for a in range(n):
        for b in range(a, n):
            key = (Z[a] + Z[b] + 0.0).tobytes()  # exact equality only (+0.0 folds -0.0)
            groups.setdefault(key, []).append((1 << a) | (1 << b))
    found: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for masks in groups.values():
        for p, q in itertools.combinations(masks, 2):
            if p & q:
                continue
            k = (p | q).bit_length() - 1
            found[k] += [(p, q), (q, p)]
    return [
        (np.array([p for p, _ in f], np.int64), np.array([q for _, q in f], np.int64))
        for f in found
    ]


def _enumerate(Z: np.ndarray) -> tuple[np.ndarray, int]:
    """Return (mask over the 2^N labelings, number of LPs) for rows ``Z`` (already augmented).

    A labeling of the first ``k + 1`` points can be separable only if its restriction to the
    first ``k`` is, so separable labelings are grown point by point. Each keeps a separator
    ``v`` with ``y_i <v, z_i> >= 1``; the child that gives the new point the side ``v`` already
    puts it on is separable for free, and only the other child needs an LP. By symmetry under
    ``y -> -y`` only labelings with ``y_0 = +1`` are grown.
    """
    n = Z.shape[0]
    mask = np.zeros(2**n, bool)
    z0 = Z[0]
    if not np.any(z0):
        return mask, 0  # a zero vector (homogeneous case) is on no side of any hyperplane
    level = [(1, np.array([1.0]), z0 / (z0 @ z0))]  # (bits, labels, separator)
    n_lp = 0
    patterns = _sum_patterns(Z)
    for k in range(1, n):
        zk = Z[k]
        P, Q = patterns[k]
        nxt = []
        for bits, lab, v in level:
            s = float(zk @ v)
            for sign in (1.0, -1.0):
                if sign * s > 1e-9:
                    u = v if sign * s >= 1 else v / (sign * s)
                else:
                    child = bits | (1 << k) if sign > 0 else bits
                    if P.size and np.any(((P & child) == P) & ((Q & child) == 0)):
                        continue  # two pairs with equal sums and opposite labels
                    n_lp += 1
                    u = separating_direction(Z[: k + 1], np.r_[lab, sign])
                    if u is None:
                        continue
                nxt.append((bits | (1 << k) if sign > 0 else bits, np.r_[lab, sign], u))
        level = nxt
    full = (1 << n) - 1
    for bits, _, _ in level:
        mask[bits] = True
        mask[full ^ bits] = True
    return mask, n_lp


def dichotomies(X, *, fit_intercept: bool = True) -> Dichotomies:
    """Enumerate all ``2^N`` labelings of ``N <= 16`` points and mark the separable ones.

    Exact for any point set: separable labelings are extended point by point (a labeling whose
    restriction is not separable is never tried), with one LP per extension that no known
    separator already realises (see ``explorer.shared.separability``). Sayed's Fig. 60.12: four points
    in general position in the plane give 14 of 16.

    Parameters
    ----------
    X : array-like of shape (N, M)
        At most :data:`MAX_DICHOTOMY_POINTS` (16) points, and few enough in few enough dimensions
        that the enumeration needs at most :data:`MAX_DICHOTOMY_LPS` linear programs (checked
        before it starts, from Cover's count).
    fit_intercept : bool, default True
        Affine (``True``) or homogeneous classifiers.

    Returns
    -------
    Dichotomies
        Includes whether Cover's formula applies (general position) and its value if so.
    """
    X = as_features(X)
    N, M = X.shape
    if N > MAX_DICHOTOMY_POINTS:
        raise ValueError(
            f"dichotomies lists all 2^N labelings and is limited to N <= {MAX_DICHOTOMY_POINTS} "
            f"points; got N = {N}. For larger N use cover_count (general position) or "
            "monte_carlo_fraction."
        )
    fit_intercept = check_bool(fit_intercept, name="fit_intercept")
    dim = M if fit_intercept else M - 1  # Cover's homogeneous count in R^M = affine in R^(M-1)
    planned = sum(cover_count(k, dim) // 2 for k in range(1, N))
    if planned > MAX_DICHOTOMY_LPS:
        raise ValueError(
            f"dichotomies may solve at most {MAX_DICHOTOMY_LPS:,} linear programs; {N} points in "
            f"{M}-D may need up to {planned:,} (sum over k < N of S({dim}, k) / 2). Use fewer "
            "points or dimensions, or cover_count for points in general position")
    mask, n_lp = _enumerate(design_matrix(X, fit_intercept))
    j = np.arange(2**N)[:, None]
    labelings = np.where((j >> np.arange(N)) & 1, 1, -1).astype(np.int8)
    gp = in_general_position(X, fit_intercept=fit_intercept)
    formula = cover_count(N, dim) if gp else None
    note = (
        f"points in general position: Cover's formula applies and gives {formula}"
        if gp
        else "points not in general position: Cover's formula does not apply; "
        "the count comes from the enumeration only"
    )
    labelings.setflags(write=False)
    mask.setflags(write=False)
    return Dichotomies(labelings, mask, int(mask.sum()), N, M, fit_intercept, gp, formula,
                       note, n_lp)


def count_threshold_functions(M: int) -> int:
    """Exact number of linearly separable Boolean functions of ``M <= 4`` inputs.

    Enumerates the labelings of the ``2^M`` vertices of ``{0, 1}^M`` with :func:`dichotomies`
    (affine classifiers). The vertices are not in general position, so Cover's formula does
    not apply (Sayed, appendix 60.B). Gives 4, 14, 104, 1882 for ``M = 1..4``; larger ``M``
    are in :data:`MUROGA`.
    """
    M = check_int(M, name="M", minimum=1, maximum=4)
    V = np.array(list(itertools.product((0.0, 1.0), repeat=M)))
    return int(_enumerate(design_matrix(V, True))[0].sum())


@dataclass(frozen=True)
class MonteCarloEstimate:
    """Estimated fraction of separable random dichotomies.

    Attributes
    ----------
    estimate : float
        Fraction of trials that were separable.
    stderr : float
        Binomial standard error ``sqrt(p (1 - p) / trials)``.
    trials, N, M : int
    formula : float
        ``cover_fraction(N, M)``, which applies since Gaussian points are in general position
        with probability 1.
    """

    estimate: float
    stderr: float
    trials: int
    N: int
    M: int
    formula: float


def monte_carlo_fraction(N: int, M: int, *, trials: int = 1000, seed=None) -> MonteCarloEstimate:
    """Estimate ``P(M, N)`` from random data, checking each draw by LP.

    Each trial draws ``N`` standard Gaussian points in ``R^M`` and independent uniform labels in
    {-1, +1}, then decides affine separability with the feasibility LP of
    :func:`explorer.shared.separability.check`.

    Parameters
    ----------
    N : int >= 1
    M : int >= 1
    trials : int >= 1, default 1000
    seed : None, int or numpy Generator
    """
    N = check_int(N, name="N", minimum=1)
    M = check_int(M, name="M", minimum=1)
    trials = check_int(trials, name="trials", minimum=1, maximum=MC_MAX_TRIALS)
    if trials * N * (M + 1) > MC_MAX_WORK:
        raise ValueError(f"monte_carlo_fraction takes at most {MC_MAX_WORK:,} trials x N x (M + 1) "
                         f"(the LPs' size); got {trials:,} x {N:,} x {M + 1:,} = "
                         f"{trials * N * (M + 1):,}")
    rng = make_rng(seed)
    hits = 0
    for _ in range(trials):
        Z = np.hstack([rng.standard_normal((N, M)), np.ones((N, 1))])
        y = rng.choice(np.array([-1.0, 1.0]), size=N)
        hits += separating_direction(Z, y) is not None
    p = hits / trials
    return MonteCarloEstimate(p, math.sqrt(p * (1 - p) / trials), trials, N, M,
                              cover_fraction(N, M))
