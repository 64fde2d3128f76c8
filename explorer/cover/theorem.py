"""What the Cover tab computes, on top of :mod:`explorer.cover.counting`.

* :func:`cover_curves`: exact ``P(M, N) = S(M, N) / 2^N`` for several ``M`` at once, over
  ``N = 0 .. x_max (M + 1)`` (Sayed, eqs. (60.65), (60.78); Cover 1965).
* :func:`recursion_table`: ``S(M, N)`` filled in by Sayed's recursion (60.73),
  ``S(M, N + 1) = S(M, N) + S(M - 1, N)``, from the edges ``S(M, 1) = 2`` and ``S(0, N) = 2``,
  with the order in which the cells fill.
* :func:`monte_carlo_plan` and :func:`monte_carlo_points`: the fraction estimated from random
  Gaussian points with random labels, checked by LP, one point ``(M, N)`` at a time, stoppable
  between trials; each point draws from its own seed, ``SeedSequence(seed, spawn_key=(M, N))``,
  so a point's estimate does not depend on which other points ran or where a run was stopped.
* :func:`separators`: a separating line (the maximum-margin one) for chosen dichotomies of a
  small point set, for drawing.
* :func:`boolean_table`, :func:`boolean_functions_2`: linearly separable Boolean functions
  (Sayed, appendix 60.B; Muroga 1971) beside the bound ``2^(M^2)`` (Sayed (60.85)).

Argument order follows :mod:`explorer.cover.counting`: ``(N, M)``, points then dimension. The
mathematics: ``docs/mathematics.md#counting-theorem`` (the count, the capacity, the recursion,
the Monte Carlo check).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog

from ..shared import svm
from ..shared.separability import separating_direction
from ..shared.validation import as_features, check_int
from .counting import MUROGA, count_threshold_functions, cover_count, cover_curve, dichotomies

__all__ = [
    "BOOLEAN_NAMES_2", "MAX_CURVES", "MAX_M", "MC_MAX_CHECKS", "MC_MAX_M", "MC_MAX_TRIALS",
    "MC_RATIOS", "BooleanRow", "CoverCurve", "MCPoint", "MCRun", "RecursionTable",
    "boolean_functions_2", "boolean_table", "check_m_values", "cover_curves",
    "describe_boolean_table", "describe_curves", "describe_monte_carlo", "mc_rng",
    "monte_carlo_plan", "monte_carlo_point", "monte_carlo_points", "past_capacity",
    "random_points",
    "recursion_matches_formula", "recursion_table", "separators",
]

#: Largest dimension drawn, and most curves at once.
MAX_M = 1000
MAX_CURVES = 8
#: Curves run to ``N = X_MAX (M + 1)``, past the capacity ``2 (M + 1)``.
X_MAX = 3.0
#: Monte Carlo: largest M (one LP at M = 1000, N = 2000 takes over a minute), most trials per
#: point, most LP checks per run, and the values of N / (M + 1) tried on each curve.
MC_MAX_M = 100
MC_MAX_TRIALS = 2000
MC_MAX_CHECKS = 60_000
MC_RATIOS = tuple(np.round(np.arange(0.5, 3.01, 0.25), 2))
#: Recursion table bounds.
REC_MAX_M = 10
REC_MAX_N = 24


def check_m_values(Ms) -> tuple[int, ...]:
    """Validate a set of dimensions: 1 to ``MAX_CURVES`` distinct integers in ``1..MAX_M``.

    Returns them sorted. Raises ``TypeError``/``ValueError`` ("expected ...; got ...").
    """
    if isinstance(Ms, (str, bytes)) or not isinstance(Ms, (Sequence, np.ndarray)):
        raise TypeError(f"expected a list of integers M; got {type(Ms).__name__}")
    vals = [check_int(m, name="M", minimum=1, maximum=MAX_M) for m in Ms]
    if not vals:
        raise ValueError("expected at least one value of M; got none")
    if len(vals) > MAX_CURVES:
        raise ValueError(f"expected at most {MAX_CURVES} values of M; got {len(vals)}")
    if len(set(vals)) != len(vals):
        raise ValueError(f"expected distinct values of M; got {vals}")
    return tuple(sorted(vals))


@dataclass(frozen=True)
class CoverCurve:
    """``P(M, N)`` for ``N = 0 .. N_max`` (exact, correctly rounded).

    Attributes
    ----------
    M : int
    N : ndarray of shape (N_max + 1,), int
    P : ndarray of shape (N_max + 1,), float
    capacity : int
        ``2 (M + 1)``, where ``P = 1/2`` exactly (Sayed (60.81)).
    """

    M: int
    N: np.ndarray
    P: np.ndarray
    capacity: int

    @property
    def past(self) -> int | None:
        """The count of points the curves view quotes past the capacity,
        :func:`past_capacity` ``(M)``; None when the curve stops before it."""
        N = past_capacity(self.M)
        return N if N < len(self.N) else None


#: Past the capacity the curves view quotes ``P`` a quarter of the capacity further on, at
#: ``N / (M + 1) = 2.5``, rounded up to a whole number of points (:func:`past_capacity`).
PAST_RATIO = 2.5


def past_capacity(M: int) -> int:
    """The first whole number of points at or beyond ``2.5 (M + 1)``: the ``N`` at which the
    curves view quotes ``P(M, N)`` and marks it on each curve. ``2.5 (M + 1)`` itself is no
    count of points for even ``M``: ``M = 2`` gives 7.5, so ``N = 8``; ``M = 20`` gives
    ``N = 53``."""
    M = check_int(M, name="M", minimum=0)
    return math.ceil(PAST_RATIO * (M + 1))


@functools.lru_cache(maxsize=64)
def _curve(M: int, N_max: int) -> CoverCurve:
    P = cover_curve(M, N_max)
    N = np.arange(N_max + 1)
    P.setflags(write=False)
    N.setflags(write=False)
    return CoverCurve(M, N, P, 2 * (M + 1))


def cover_curves(Ms, *, x_max: float = X_MAX) -> tuple[CoverCurve, ...]:
    """Exact curves ``P(M, N)``, ``N = 0 .. ceil(x_max (M + 1))``, one per ``M`` (sorted).

    Values equal :func:`explorer.cover.counting.cover_fraction` (computed by
    :func:`explorer.cover.counting.cover_curve`, exact integers then one rounding). Curves are cached:
    changing the set of ``M`` recomputes only the new ones (about 5 ms at ``M = 1000``).

    Parameters
    ----------
    Ms : sequence of int
        1 to 8 distinct dimensions in 1..1000.
    x_max : float in [1, 10], default 3
    """
    Ms = check_m_values(Ms)
    if isinstance(x_max, bool) or not isinstance(x_max, (int, float, np.integer, np.floating)):
        raise TypeError(f"x_max must be a real number from 1 to 10; got {x_max!r}")
    if not 1.0 <= float(x_max) <= 10.0:
        raise ValueError(f"expected x_max from 1 to 10; got {x_max!r}")
    return tuple(_curve(M, int(math.ceil(float(x_max) * (M + 1)))) for M in Ms)


# --------------------------------------------------------------------------- recursion
@dataclass(frozen=True)
class RecursionTable:
    """``S(m, N)`` for ``m = 0..M_max`` (rows) and ``N = 1..N_max`` (columns).

    Attributes
    ----------
    S : ndarray of shape (M_max + 1, N_max), int64
        ``S[m, N - 1] = S(m, N)``.
    order : tuple of (m, N)
        The cells in the order they fill: the edges first (``N = 1`` and ``m = 0``, value 2),
        then column after column, each cell from the two cells of the column before it.
    """

    S: np.ndarray
    M_max: int
    N_max: int
    order: tuple

    def is_edge(self, m: int, N: int) -> bool:
        return N == 1 or m == 0


def recursion_table(M_max: int, N_max: int) -> RecursionTable:
    """Fill ``S(m, N)`` by Sayed's recursion (60.73), not by the closed form.

    ``S(m, N + 1) = S(m, N) + S(m - 1, N)`` with ``S(m, 1) = 2`` (one point: two labels) and
    ``S(0, N) = 2`` (in ``R^0`` an affine classifier is a constant sign). The result equals
    :func:`explorer.cover.counting.cover_count` everywhere (tested).

    Parameters
    ----------
    M_max : int in 1..10
    N_max : int in 1..24
    """
    M_max = check_int(M_max, name="M_max", minimum=1, maximum=REC_MAX_M)
    N_max = check_int(N_max, name="N_max", minimum=1, maximum=REC_MAX_N)
    S = np.zeros((M_max + 1, N_max), dtype=np.int64)
    order = [(m, 1) for m in range(M_max + 1)] + [(0, N) for N in range(2, N_max + 1)]
    S[:, 0] = 2
    S[0, :] = 2
    for N in range(1, N_max):  # column N + 1 from column N
        for m in range(1, M_max + 1):
            S[m, N] = S[m, N - 1] + S[m - 1, N - 1]
            order.append((m, N + 1))
    S.setflags(write=False)
    return RecursionTable(S, M_max, N_max, tuple(order))


# --------------------------------------------------------------------------- Monte Carlo
@dataclass(frozen=True)
class MCPoint:
    """One Monte Carlo estimate of ``P(M, N)``.

    Attributes
    ----------
    N, M, trials, hits : int
    estimate : float
        ``hits / trials``.
    stderr : float
        ``sqrt(p (1 - p) / trials)``.
    formula : float
        ``cover_fraction(N, M)`` (Gaussian points are in general position with probability 1).
    """

    N: int
    M: int
    trials: int
    hits: int
    estimate: float
    stderr: float
    formula: float


@dataclass(frozen=True)
class MCRun:
    """The points a Monte Carlo run finished, and whether it was stopped before the end."""

    points: tuple
    stopped: bool
    checks: int
    planned: int


def mc_rng(seed: int, M: int, N: int) -> np.random.Generator:
    """The generator of point ``(M, N)``: ``SeedSequence(seed, spawn_key=(M, N))``."""
    seed = check_int(seed, name="seed", minimum=0)
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(int(M), int(N))))


def monte_carlo_plan(Ms, *, trials: int) -> tuple[tuple[int, int], ...]:
    """The ``(M, N)`` points a run estimates: ``N = round(r (M + 1))`` for ``r`` in
    :data:`MC_RATIOS`, for each ``M <= MC_MAX_M`` of ``Ms``.

    Raises ``ValueError`` when no ``M`` is small enough or the run would need more than
    :data:`MC_MAX_CHECKS` LP checks (the message names the limit).
    """
    Ms = check_m_values(Ms)
    trials = check_int(trials, name="trials", minimum=1, maximum=MC_MAX_TRIALS)
    small = [M for M in Ms if M <= MC_MAX_M]
    if not small:
        raise ValueError(f"Monte Carlo runs for M <= {MC_MAX_M} only (one LP at M = 1000 takes "
                         f"over a minute); got M = {', '.join(map(str, Ms))}")
    plan = []
    for M in small:
        Ns = sorted({max(1, int(round(r * (M + 1)))) for r in MC_RATIOS})
        plan += [(M, N) for N in Ns]
    if len(plan) * trials > MC_MAX_CHECKS:
        raise ValueError(f"expected at most {MC_MAX_CHECKS} LP checks per run; got "
                         f"{len(plan)} points × {trials} trials = {len(plan) * trials}: "
                         "use fewer trials or fewer values of M")
    return tuple(plan)


def _slack_separable(Z: np.ndarray, y: np.ndarray) -> bool:
    """Fallback when HiGHS cannot classify the feasibility LP: minimise the total slack of
    ``y_i <v, z_i> >= 1 - s_i`` (always feasible and bounded); separable iff it is 0."""
    n, p = Z.shape
    res = linprog(np.r_[np.zeros(p), np.ones(n)], A_ub=np.hstack([-(y[:, None] * Z), -np.eye(n)]),
                  b_ub=-np.ones(n), bounds=[(None, None)] * p + [(0, None)] * n, method="highs")
    if res.status != 0:
        raise RuntimeError(f"the slack LP failed: {res.message} (status {res.status})")
    return bool(res.fun <= 1e-7 * n)


def _check(Z, y) -> bool:
    if np.all(y == y[0]):
        return True
    try:
        return separating_direction(Z, y) is not None
    except RuntimeError:  # e.g. HiGHS "model status unknown" near the capacity at M = 100
        return _slack_separable(Z, y)


def monte_carlo_point(N: int, M: int, *, trials: int, seed: int,
                      stop: Callable[[], bool] | None = None) -> MCPoint | None:
    """Estimate ``P(M, N)``: ``trials`` draws of ``N`` standard Gaussian points in ``R^M`` with
    independent uniform labels, each checked for affine separability by LP (Sayed P60.4).

    Returns None if ``stop()`` became true before the last trial (checked before each one).
    """
    N = check_int(N, name="N", minimum=1, maximum=10 * (MC_MAX_M + 1))
    M = check_int(M, name="M", minimum=1, maximum=MC_MAX_M)
    trials = check_int(trials, name="trials", minimum=1, maximum=MC_MAX_TRIALS)
    rng = mc_rng(seed, M, N)
    ones = np.ones((N, 1))
    hits = 0
    for _ in range(trials):
        if stop is not None and stop():
            return None
        Z = np.hstack([rng.standard_normal((N, M)), ones])
        y = np.where(rng.random(N) < 0.5, -1.0, 1.0)
        hits += _check(Z, y)
    p = hits / trials
    return MCPoint(N, M, trials, hits, p, math.sqrt(p * (1 - p) / trials),
                   cover_count(N, M) / 2**N)


def monte_carlo_points(plan, *, trials: int, seed: int, stop: Callable[[], bool] | None = None,
                       progress: Callable[[MCPoint, int, int], None] | None = None) -> MCRun:
    """Run :func:`monte_carlo_point` over ``plan`` (from :func:`monte_carlo_plan`) in order.

    ``progress(point, checks_done, checks_planned)`` is called after each finished point. A
    point cut by ``stop`` is dropped, so every point returned is exactly what a full run gives.
    """
    trials = check_int(trials, name="trials", minimum=1, maximum=MC_MAX_TRIALS)
    done, planned = [], len(plan) * trials
    for M, N in plan:
        pt = monte_carlo_point(N, M, trials=trials, seed=seed, stop=stop)
        if pt is None:
            return MCRun(tuple(done), True, len(done) * trials, planned)
        done.append(pt)
        if progress is not None:
            progress(pt, len(done) * trials, planned)
    return MCRun(tuple(done), False, len(done) * trials, planned)


# --------------------------------------------------------------------------- small sets
def random_points(n: int, *, seed: int) -> np.ndarray:
    """``n`` points uniform in ``[-1, 1]^2`` (shape (n, 2)); in general position with
    probability 1."""
    n = check_int(n, name="number of points", minimum=1, maximum=16)
    seed = check_int(seed, name="seed", minimum=0)
    return np.random.default_rng(seed).uniform(-1.0, 1.0, size=(n, 2))


def separators(X, labelings, indices) -> tuple[np.ndarray, np.ndarray]:
    """A separating line for each chosen separable dichotomy: the maximum-margin one.

    Parameters
    ----------
    X : array-like of shape (N, d)
    labelings : ndarray of shape (2^N, N), from :func:`explorer.cover.counting.dichotomies`
    indices : sequence of int
        Dichotomies to solve (the caller passes only separable ones; a constant labeling has
        no line, every point being on one side of any line far away).

    Returns
    -------
    w : ndarray of shape (len(indices), d), NaN where there is no line
    b : ndarray of shape (len(indices),), NaN where there is no line
    """
    X = as_features(X)
    labelings = np.asarray(labelings)
    if labelings.ndim != 2 or labelings.shape[1] != X.shape[0]:
        raise ValueError(f"labelings must have shape (m, {X.shape[0]}), one label per point; got "
                         f"shape {labelings.shape}")
    idx = []
    for i in indices:
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"indices must be integers; got {i!r}")
        if not 0 <= int(i) < labelings.shape[0]:
            raise ValueError(f"indices must be in [0, {labelings.shape[0] - 1}]; got {int(i)}")
        idx.append(int(i))
    w = np.full((len(idx), X.shape[1]), np.nan)
    b = np.full(len(idx), np.nan)
    for k, j in enumerate(idx):
        y = np.asarray(labelings[j], dtype=float)
        if np.all(y == y[0]):
            continue
        try:
            fit = svm.fit(X, y)
        except ValueError:  # not separable: nothing to draw
            continue
        w[k], b[k] = fit.w, fit.b
    return w, b


# --------------------------------------------------------------------------- Boolean
#: Names of the 16 Boolean functions of two inputs, indexed as the labelings of
#: :func:`boolean_functions_2` (bit ``i`` = value at vertex ``i`` of (0,0), (0,1), (1,0), (1,1)).
BOOLEAN_NAMES_2 = ("FALSE", "NOR", "¬a₁∧a₂", "¬a₁", "a₁∧¬a₂", "¬a₂", "XOR", "NAND", "AND",
                   "XNOR", "a₂", "¬a₁∨a₂", "a₁", "a₁∨¬a₂", "OR", "TRUE")


def boolean_functions_2():
    """The 16 Boolean functions of two inputs as dichotomies of the square's vertices.

    Returns
    -------
    V : ndarray of shape (4, 2)
        Vertices (0,0), (0,1), (1,0), (1,1) (Sayed's 0/1 inputs).
    d : explorer.cover.counting.Dichotomies
        Function ``j`` takes value 1 (label +1) at vertex ``i`` when bit ``i`` of ``j`` is set;
        14 are separable, XOR (6) and XNOR (9) are not.
    """
    V = np.array(list(itertools.product((0.0, 1.0), repeat=2)))
    return V, dichotomies(V)


@dataclass(frozen=True)
class BooleanRow:
    """One line of Sayed's Table 60.3 with its source.

    Attributes
    ----------
    M : int
    functions : int
        ``2^(2^M)``.
    separable : int
    counted : bool
        True: enumerated here (:func:`explorer.cover.counting.count_threshold_functions`);
        False: literature value (Muroga 1971).
    fraction : float
        ``separable / functions``.
    bound : int
        ``2^(M^2)`` (Sayed (60.85)).
    bound_holds : bool
        ``separable <= bound``; false at ``M = 1`` (4 > 2).
    """

    M: int
    functions: int
    separable: int
    counted: bool
    fraction: float
    bound: int
    bound_holds: bool


@functools.lru_cache(maxsize=8)
def _counted(M: int) -> int:
    return count_threshold_functions(M)


def boolean_table(*, count_up_to: int = 4) -> tuple[BooleanRow, ...]:
    """Rows for ``M = 1..8``: counted here for ``M <= count_up_to`` (at most 4; M = 4 takes
    about 2 s the first time, then it is cached), the published values beyond.
    """
    count_up_to = check_int(count_up_to, name="count_up_to", minimum=0, maximum=4)
    rows = []
    for M in range(1, 9):
        counted = M <= count_up_to
        s = _counted(M) if counted else MUROGA[M]
        total, bound = 2 ** (2**M), 2 ** (M * M)
        rows.append(BooleanRow(M, total, s, counted, s / total, bound, s <= bound))
    return tuple(rows)


# --------------------------------------------------------------------------- words
def describe_curves(curves) -> str:
    """One line per curve: ``P`` at the capacity ``2(M + 1)`` (exactly 1/2) and a quarter of the
    capacity further on, at ``N =`` :func:`past_capacity` ``(M)`` (the first whole ``N`` at or
    past ``2.5(M + 1)``), where the large-M curves are already near 0."""
    return "\n".join(f"M = {c.M:4d}: P at 2(M+1) = {c.P[c.capacity]}, "
                      + (f"P({c.M}, {c.past}) = {c.P[c.past]:.3g}" if c.past is not None else "")
                      for c in curves)


def describe_monte_carlo(run: MCRun, *, every: int = 1) -> str:
    """One line per estimated point (every ``every``-th): estimate ± 2 standard errors against
    the formula."""
    return "\n".join(f"M = {p.M}, N = {p.N:2d}: estimate {p.estimate:.3f} ± {2 * p.stderr:.3f}, "
                     f"formula {p.formula:.3f}" for p in run.points[::every])


def recursion_matches_formula(table: RecursionTable) -> bool:
    """Whether every cell of the filled table equals the closed form ``S(m, N)`` (Sayed (60.65))."""
    return all(int(table.S[m, N - 1]) == cover_count(N, m)
               for m in range(table.M_max + 1) for N in range(1, table.N_max + 1))


def describe_boolean_table(rows) -> str:
    """Sayed's Table 60.3 as text, each count with its source and the bound ``2^(M^2)``."""
    return "\n".join(f"M = {r.M}: {r.separable} of 2^{2 ** r.M} "
                     f"({'counted here' if r.counted else 'Muroga (1971)'}), fraction "
                     f"{r.fraction:.3g}, bound 2^{r.M * r.M} holds: {r.bound_holds}" for r in rows)
