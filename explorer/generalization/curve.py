"""Hardt & Recht's stability bound measured by simulation, beside the VC bound.

:func:`stability_curve` runs Monte Carlo over many training sets ``S_n``. Each trial draws
``n + 1`` i.i.d. points, runs Hardt & Recht's perceptron (margin rule, ``eta = 1``, no
offset, ``w_0 = 0``, cyclic passes) on the first ``n`` until a pass without margin mistakes,
and tests the ``(n+1)``-th point. Hardt & Recht (2022), ch. 3, "From mistake bounds to
generalization" bound the probability of a margin mistake on that fresh point,

    P[Y <w(S_n), X> < 1] <= E[(2 + D(S_{n+1})^2) / gamma(S_{n+1})^2] / (n + 1),

where the expectation is over the same ``n + 1`` points. Their proof goes through the number
``m(S_{n+1})`` of margin mistakes of the run on all ``n + 1`` points:
``P <= E[m] / (n + 1)``. Both expectations are estimated on the same draws as the rate. With
``||x|| = 1`` the perceptron lecture notes state the worst case ``3 / (gamma^2 (n + 1))``.
For comparison the uniform (VC) bound of the lecture notes (``docs/mathematics.md#vc-bound``):
with probability at least ``1 - exp(-n delta^2 / 2)`` the test error of any separator with
zero training error is at most ``sqrt((d + 1) log(n + 1) / n) + delta``. As the error is at
most 1, its expectation is at most ``sqrt((d + 1) log(n + 1) / n) + delta + exp(-n delta^2 / 2)``;
with ``delta = sqrt(2 log(n) / n)`` the last term is ``1 / n``. That expectation bound is
what :func:`vc_bound` returns (our one-line step from the notes' statement).

:func:`join_curves` puts together curves finished one ``n`` at a time; :func:`plan_work` checks
a call's size before it starts. The mathematics: ``docs/mathematics.md#generalization``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..shared.validation import check_int, check_positive
from .run import _gamma_S, _run
from .sample import MAX_DIM, MAX_N, _check_gamma, _draw

__all__ = ["StabilityCurve", "stability_curve", "vc_bound", "stability_bound_worst", "plan_work",
           "join_curves", "MAX_POINT_WORK", "MAX_FITS", "DEFAULT_NS", "CHUNK"]

#: Most points drawn by one :func:`stability_curve` call, ``trials * sum(n + 1)``.
MAX_POINT_WORK = 1_500_000
#: Most training sets (each with one margin computation) of one call, ``trials * len(ns)``.
MAX_FITS = 6_000
DEFAULT_NS = (5, 10, 20, 50, 100, 200, 500, 1000)
#: Trials between two progress reports (and stop checks).
CHUNK = 10


def vc_bound(ns, *, dim: int) -> np.ndarray:
    """Expected test error bound from the uniform (VC) bound of the lecture notes.

    ``sqrt((d + 1) log(n + 1) / n) + delta + exp(-n delta^2 / 2)`` with
    ``delta = sqrt(2 log(n) / n)``, i.e. ``sqrt((d + 1) log(n + 1) / n) + sqrt(2 log(n) / n) + 1/n``
    (VC dimension ``d + 1`` as the notes state for linear separators in ``R^d``; through the
    origin it is ``d``, so ``d + 1`` only loosens the bound). Shape of ``ns``.
    """
    dim = check_int(dim, name="dim", minimum=1)
    n = np.asarray(ns, dtype=float)
    if np.any(n < 1):
        raise ValueError(f"ns must be >= 1; got {n.min():g}")
    return np.sqrt((dim + 1) * np.log(n + 1) / n) + np.sqrt(2 * np.log(n) / n) + 1.0 / n


def stability_bound_worst(ns, *, gamma: float, D: float = 1.0) -> np.ndarray:
    """``(2 + D^2) / (gamma^2 (n + 1))``: Hardt & Recht's bound when every sample has
    ``gamma(S) >= gamma`` and ``D(S) <= D``; with ``D = 1`` the lecture notes' ``3/(gamma^2 (N+1))``."""
    g = check_positive(gamma, name="gamma")
    D = check_positive(D, name="D")
    n = np.asarray(ns, dtype=float)
    return (2.0 + D * D) / (g * g * (n + 1.0))


@dataclass(frozen=True)
class StabilityCurve:
    """Result of :func:`stability_curve`; arrays have one entry per *completed* ``n``.

    Attributes
    ----------
    ns : ndarray of int, shape (k,)
    margin_rate, margin_se : ndarray (k,)
        Fraction of trials whose fresh point was a margin mistake, ``Y <w(S_n), X> < 1``, and
        its standard error ``sqrt(p (1 - p) / trials)``.
    error_rate, error_se : ndarray (k,)
        Same for a classification mistake ``Y <w(S_n), X> <= 0`` (the zero-one loss).
    mistakes_bound, mistakes_se : ndarray (k,)
        Mean of ``m(S_{n+1}) / (n + 1)``: margin mistakes of the run on all ``n + 1`` points.
    stability_bound, stability_se : ndarray (k,)
        Mean of ``(2 + D(S_{n+1})^2) / gamma(S_{n+1})^2 / (n + 1)``: Hardt & Recht's bound.
    worst_bound : ndarray (k,)
        ``3 / (gamma^2 (n + 1))``, the bound with the distribution's guaranteed margin.
    vc : ndarray (k,)
        :func:`vc_bound`.
    trials, dim, gamma, seed : the settings
    planned : tuple of int
        Every ``n`` asked for; ``stopped`` is True if a stop request cut the run short.
    seconds : float
    """

    ns: np.ndarray
    margin_rate: np.ndarray
    margin_se: np.ndarray
    error_rate: np.ndarray
    error_se: np.ndarray
    mistakes_bound: np.ndarray
    mistakes_se: np.ndarray
    stability_bound: np.ndarray
    stability_se: np.ndarray
    worst_bound: np.ndarray
    vc: np.ndarray
    trials: int
    dim: int
    gamma: float
    seed: int
    planned: tuple
    stopped: bool
    seconds: float

    def __post_init__(self):
        for name in ("ns", "margin_rate", "margin_se", "error_rate", "error_se", "mistakes_bound",
                     "mistakes_se", "stability_bound", "stability_se", "worst_bound", "vc"):
            getattr(self, name).setflags(write=False)

    @property
    def complete(self) -> bool:
        """Every planned ``n`` was run."""
        return len(self.ns) == len(self.planned)


def _check_ns(ns) -> tuple:
    try:
        arr = np.asarray(ns)
    except Exception:  # pragma: no cover - defensive
        arr = None
    if arr is None or arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"ns must be a non-empty list of sample sizes; got {ns!r}")
    out = tuple(check_int(v, name="each n", minimum=1, maximum=MAX_N) for v in arr.tolist())
    if len(set(out)) != len(out) or list(out) != sorted(out):
        raise ValueError(f"ns must be increasing without repeats; got {list(out)}")
    return out


def plan_work(ns, *, trials: int) -> tuple[int, int]:
    """``(points drawn, training sets)`` of a :func:`stability_curve` call; raises ValueError
    naming the limit when either is too large."""
    ns = _check_ns(ns)
    trials = check_int(trials, name="trials", minimum=2)
    points = trials * sum(n + 1 for n in ns)
    fits = trials * len(ns)
    if points > MAX_POINT_WORK:
        raise ValueError(f"trials × Σ(n + 1) = {points:,} points is more than the limit "
                         f"{MAX_POINT_WORK:,}; use fewer trials or smaller n")
    if fits > MAX_FITS:
        raise ValueError(f"trials × (number of n) = {fits:,} training sets is more than the limit "
                         f"{MAX_FITS:,}; use fewer trials or fewer sizes n")
    return points, fits


def _trial(rng, n, dim, gamma, max_epochs):
    X, y = _draw(rng, n + 1, dim, gamma)
    run = _run(X[:n], y[:n], max_epochs)
    if not run.converged:  # cannot happen within the bound; say so rather than mislead
        raise RuntimeError(f"the perceptron did not converge within {max_epochs} passes on n={n}")
    z = float(y[n] * (X[n] @ run.w))
    full = _run(X, y, max_epochs)
    D2 = float(np.max(np.einsum("ij,ij->i", X, X)))
    g = _gamma_S(X, y)
    return z < 1.0, z <= 0.0, full.n_updates, (2.0 + D2) / (g * g)


def _mean_se(values) -> tuple[float, float]:
    v = np.asarray(values, dtype=float)
    return float(v.mean()), float(v.std(ddof=1) / math.sqrt(len(v))) if len(v) > 1 else 0.0


def stability_curve(*, ns=DEFAULT_NS, trials: int = 100, dim: int = 2, gamma: float = 0.2,
                    seed: int = 0, stop: Callable[[], bool] | None = None,
                    progress: Callable[[int, int], None] | None = None) -> StabilityCurve:
    """Measure the perceptron's rate of margin mistakes on a fresh point against its bounds.

    For each ``n`` in ``ns`` and each of ``trials`` trials: draw ``n + 1`` points of
    :func:`sample_margin`, train on the first ``n`` to convergence (Hardt & Recht's rule, see the
    module docstring), test the last one, run again on all ``n + 1`` to count ``m(S_{n+1})`` and
    compute ``(2 + D^2) / gamma(S_{n+1})^2`` (``gamma`` from the hard-margin SVM, no offset).

    Parameters
    ----------
    ns : increasing sequence of int in [1, 20000], default (5, 10, ..., 1000)
    trials : int >= 2, default 100
    dim : int in [2, 50], default 2
    gamma : float in [0.05, 0.95], default 0.2
    seed : int >= 0
        Each ``n`` draws from its own stream seeded by ``(seed, n)``, so a completed ``n`` has the
        same numbers whatever else is run or stopped.
    stop : callable returning bool, optional
        Checked every :data:`CHUNK` trials (e.g. ``threading.Event().is_set``); when it returns
        True the run ends and only the ``n`` already completed are returned.
    progress : callable ``(done, total)``, optional
        Called after every chunk with trials done and planned (over all ``n``).

    Returns
    -------
    StabilityCurve

    Raises
    ------
    ValueError
        Bad settings, or more work than :data:`MAX_POINT_WORK` / :data:`MAX_FITS` (checked
        before any work starts).
    """
    ns = _check_ns(ns)
    trials = check_int(trials, name="trials", minimum=2, maximum=MAX_FITS)
    dim = check_int(dim, name="dim", minimum=2, maximum=MAX_DIM)
    g = _check_gamma(gamma)
    seed = check_int(seed, name="seed", minimum=0)
    plan_work(ns, trials=trials)
    max_epochs = int(math.ceil(3.0 / g**2)) + 2  # passes <= updates + 1 <= 3/gamma^2 + 1
    t0 = time.perf_counter()
    total, done = trials * len(ns), 0
    rows, stopped = [], False
    for n in ns:
        rng = np.random.default_rng([seed, n])
        results = []
        for _ in range(trials):
            results.append(_trial(rng, n, dim, g, max_epochs))
            done += 1
            if len(results) % CHUNK == 0 or len(results) == trials:
                if progress is not None:
                    progress(done, total)
                if stop is not None and len(results) < trials and stop():
                    stopped = True
                    break
        if stopped:
            break
        margin, error, m, bound = (np.array(c, dtype=float) for c in zip(*results, strict=True))
        rows.append((n, *_mean_se(margin), *_mean_se(error), *_mean_se(m / (n + 1)),
                     *_mean_se(bound / (n + 1))))
        if stop is not None and n != ns[-1] and stop():
            stopped = True
            break
    cols = list(zip(*rows, strict=True)) if rows else [()] * 9
    arr = [np.array(c, dtype=float) for c in cols]
    done_ns = np.array(cols[0], dtype=np.int64)
    return StabilityCurve(
        ns=done_ns, margin_rate=arr[1], margin_se=arr[2], error_rate=arr[3], error_se=arr[4],
        mistakes_bound=arr[5], mistakes_se=arr[6], stability_bound=arr[7], stability_se=arr[8],
        worst_bound=stability_bound_worst(done_ns, gamma=g),
        vc=vc_bound(done_ns, dim=dim) if len(done_ns) else np.zeros(0),
        trials=trials, dim=dim, gamma=g, seed=seed, planned=ns, stopped=stopped,
        seconds=time.perf_counter() - t0,
    )


def join_curves(parts, *, planned=None, stopped: bool = False) -> StabilityCurve:
    """One :class:`StabilityCurve` from curves of the same settings over different ``n``
    (e.g. one per ``n``, as a background run finishes them), sorted by ``n``."""
    parts = [p for p in parts if len(p.ns)]
    if not parts:
        raise ValueError("join_curves needs at least one curve with a completed n")
    keys = {(p.trials, p.dim, p.gamma, p.seed) for p in parts}
    if len(keys) != 1:
        raise ValueError(f"join_curves needs curves with the same trials, dim, gamma and seed; "
                         f"got {sorted(keys)}")
    names = ("ns", "margin_rate", "margin_se", "error_rate", "error_se", "mistakes_bound",
             "mistakes_se", "stability_bound", "stability_se", "worst_bound", "vc")
    cat = {k: np.concatenate([getattr(p, k) for p in parts]) for k in names}
    order = np.argsort(cat["ns"], kind="stable")
    if len(np.unique(cat["ns"])) != len(order):
        raise ValueError(f"join_curves got the same n twice: {cat['ns'].tolist()}")
    first = parts[0]
    return StabilityCurve(
        **{k: v[order] for k, v in cat.items()}, trials=first.trials, dim=first.dim,
        gamma=first.gamma, seed=first.seed,
        planned=tuple(planned) if planned is not None else tuple(int(n) for n in cat["ns"][order]),
        stopped=bool(stopped), seconds=float(sum(p.seconds for p in parts)))
