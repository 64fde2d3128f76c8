"""Generalization of the perceptron: Hardt & Recht's stability bound measured, and risk tables.

The mathematics: ``docs/mathematics.md#generalization``.

Three things, all plain functions returning frozen dataclasses (no plotting here):

* :func:`sample_margin`: a seeded distribution with a margin. ``x`` lies on the unit sphere of
  ``R^d`` (so ``D = max ||x|| = 1``), its first coordinate is ``y t`` with ``t`` uniform on
  ``[gamma, 1]`` and ``y = ±1`` equally likely, the other coordinates uniform on the sphere of
  radius ``sqrt(1 - t^2)``. Hence ``e_1`` separates every sample with margin at least
  ``gamma``: ``gamma(S) >= gamma`` for every sample ``S``.
* :func:`stability_curve`: Monte Carlo over many training sets ``S_n``. Each trial draws
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
* :func:`risk_table`: training and test error (empirical risk and its held-out estimate) of
  the classic perceptron's last iterate and of the pocket iterate (Gallant; Sayed (60.45)) on
  iris and breast cancer with a seeded stratified split.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import datasets
from ._validation import check_int, check_positive, check_X_y, make_rng
from .perceptron import train, training_error

__all__ = ["MarginSample", "sample_margin", "StabilityCurve", "stability_curve", "vc_bound",
           "stability_bound_worst", "leave_one_out", "LeaveOneOut", "RiskRow", "RiskTable",
           "risk_table", "margin_run", "plan_work", "join_curves", "RISK_DATASETS",
           "MAX_POINT_WORK", "MAX_FITS", "DEFAULT_NS"]

#: Most points drawn by one :func:`stability_curve` call, ``trials * sum(n + 1)``.
MAX_POINT_WORK = 1_500_000
#: Most training sets (each with one margin computation) of one call, ``trials * len(ns)``.
MAX_FITS = 6_000
MAX_N = 20_000
MAX_DIM = 50
GAMMA_RANGE = (0.05, 0.95)
DEFAULT_NS = (5, 10, 20, 50, 100, 200, 500, 1000)
#: Trials between two progress reports (and stop checks).
CHUNK = 10


# --------------------------------------------------------------------------- the distribution
@dataclass(frozen=True)
class MarginSample:
    """``n`` points of :func:`sample_margin`: ``X`` (n, d) unit vectors, ``y`` (n,) in ±1,
    separated by ``u = e_1`` with margin at least ``gamma``."""

    X: np.ndarray
    y: np.ndarray
    gamma: float


def _check_gamma(gamma) -> float:
    g = check_positive(gamma, name="gamma")
    lo, hi = GAMMA_RANGE
    if not lo <= g <= hi:
        raise ValueError(f"gamma must be in [{lo}, {hi}] (the bound grows like 1/gamma^2); got {g}")
    return g


def _draw(rng: np.random.Generator, n: int, dim: int, gamma: float):
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    t = rng.uniform(gamma, 1.0, size=n)
    rest = rng.standard_normal((n, dim - 1))
    norms = np.linalg.norm(rest, axis=1)
    norms[norms == 0] = 1.0
    rest *= (np.sqrt(np.maximum(0.0, 1.0 - t * t)) / norms)[:, None]
    X = np.empty((n, dim))
    X[:, 0] = y * t
    X[:, 1:] = rest
    return X, y


def sample_margin(*, n: int, dim: int = 2, gamma: float = 0.2, seed=0) -> MarginSample:
    """Draw ``n`` i.i.d. points of the margin distribution described in the module docstring.

    Parameters
    ----------
    n : int >= 1
    dim : int in [2, 50], default 2
    gamma : float in [0.05, 0.95], default 0.2
        Guaranteed margin of ``u = e_1``: ``y_i x_i1 >= gamma``; ``||x_i|| = 1``.
    seed : None, int or Generator

    Returns
    -------
    MarginSample
    """
    n = check_int(n, name="n", minimum=1, maximum=MAX_N)
    dim = check_int(dim, name="dim", minimum=2, maximum=MAX_DIM)
    g = _check_gamma(gamma)
    X, y = _draw(make_rng(seed), n, dim, g)
    X.setflags(write=False)
    y.setflags(write=False)
    return MarginSample(X, y, g)


# --------------------------------------------------------------------------- bounds
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


def _gamma_S(X, y) -> float:
    """``gamma(S)`` for separators through the origin (hard-margin SVM, no offset)."""
    from .svm import dataset_margin

    return dataset_margin(X, y, fit_intercept=False)


@dataclass(frozen=True)
class _Run:
    w: np.ndarray
    updates: np.ndarray  # index of the point of each update, in order
    converged: bool

    @property
    def n_updates(self) -> int:
        return int(len(self.updates))


def margin_run(X, y, *, max_epochs: int) -> _Run:
    """Hardt & Recht's perceptron to convergence: from ``w = 0``, cyclic passes over the points,
    ``w <- w + y_i x_i`` whenever ``y_i <w, x_i> < 1``, until a pass without margin mistakes.

    The same steps as ``explorer.perceptron.train(X, y, rule="margin", fit_intercept=False,
    order="cyclic")`` (the tests check it against that), written here because a small random
    training set may hold one class only, which ``train`` refuses and this rule handles.
    Each pass scans the points after the last update with one matrix-vector product.
    """
    Z = y[:, None] * X
    n = len(Z)
    w = np.zeros(X.shape[1])
    updates = []
    for _ in range(max_epochs):
        pos, changed = 0, False
        while pos < n:
            hit = np.flatnonzero(Z[pos:] @ w < 1.0)
            if hit.size == 0:
                break
            i = pos + int(hit[0])
            w = w + Z[i]
            updates.append(i)
            changed = True
            pos = i + 1
        if not changed:
            return _Run(w, np.asarray(updates, dtype=np.int64), True)
    return _Run(w, np.asarray(updates, dtype=np.int64), bool(np.all(Z @ w >= 1.0)))


def _run(X, y, max_epochs):
    return margin_run(X, y, max_epochs=max_epochs)


# --------------------------------------------------------------------------- the simulation
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


# --------------------------------------------------------------------------- leave-one-out
@dataclass(frozen=True)
class LeaveOneOut:
    """The proof's exchange of training and test points on one sample ``S`` of ``N`` points.

    ``loo[k]`` is 1 when the run on ``S`` without point ``k`` makes a margin mistake on it;
    ``mistakes`` is ``m(S)``, the run on all of ``S``; ``bound`` is ``(2 + D^2) / gamma(S)^2``.
    Hardt & Recht show ``loo.sum() <= mistakes <= bound`` for every sample.
    """

    loo: np.ndarray
    mistakes: int
    bound: float
    updated: np.ndarray


def leave_one_out(X, y, *, max_epochs: int = 10_000) -> LeaveOneOut:
    """Leave each point out in turn, retrain (margin rule, cyclic, to convergence), test it.

    Only points that caused an update in the run on all of ``S`` are retrained: removing any
    other point leaves the cyclic run unchanged, which is the heart of the proof (and is checked
    by the tests by retraining every point). ``N <= 2000``.
    """
    X, y = check_X_y(X, y, require_both=False)
    if len(X) > 2000:
        raise ValueError(f"leave_one_out retrains once per point; expected at most 2000; "
                         f"got {len(X)}")
    full = _run(X, y, max_epochs)
    if not full.converged:
        raise ValueError("the perceptron did not converge on S: expected separable data "
                         "(through the origin)")
    updated = np.unique(full.updates)
    loo = np.zeros(len(X))
    for k in updated:
        keep = np.arange(len(X)) != k
        run = _run(X[keep], y[keep], max_epochs)
        loo[k] = float(y[k] * (X[k] @ run.w) < 1.0)
    D2 = float(np.max(np.einsum("ij,ij->i", X, X)))
    g = _gamma_S(X, y)
    return LeaveOneOut(loo=loo, mistakes=full.n_updates, bound=(2.0 + D2) / g**2,
                       updated=updated)


# --------------------------------------------------------------------------- risk table
RISK_DATASETS = {
    "iris": ("Iris, versicolor vs virginica (PCA 2-D)", "iris",
             {"classes": "versicolor_vs_virginica"}, "Sayed Example 60.2"),
    "iris_setosa": ("Iris, setosa vs rest (PCA 2-D)", "iris", {"classes": "setosa_vs_rest"},
                    "Sayed Example 60.1"),
    "breast_cancer": ("Breast cancer, 30 standardised features", "breast_cancer", {},
                      "Sayed Example 61.2"),
}


@dataclass(frozen=True)
class RiskRow:
    """One data set: training and test error of the last iterate and of the pocket iterate."""

    key: str
    title: str
    source: str
    n_train: int
    n_test: int
    dim: int
    train_last: float
    test_last: float
    train_pocket: float
    test_pocket: float
    updates: int
    converged: bool


@dataclass(frozen=True)
class RiskTable:
    """Rows of :func:`risk_table` with the settings that made them."""

    rows: tuple
    epochs: int
    test_fraction: float
    seed: int


def risk_table(*, keys=("iris", "breast_cancer"), epochs: int = 30, test_fraction: float = 0.3,
               seed: int = 0) -> RiskTable:
    """Training and test error of the perceptron and the pocket rule on real data.

    Each data set is split (stratified, ``test_fraction`` held out, ``random_state=seed``); the
    pocket rule (Gallant; Sayed (60.45)) runs ``epochs`` reshuffled passes (seeded) from
    ``w = 0, b = 0`` with an offset. Its updates are the classic rule's, so the same run gives
    the classic perceptron's last iterate and the pocket iterate (lowest training error seen).

    Parameters
    ----------
    keys : sequence of str, default ("iris", "breast_cancer")
        Keys of :data:`RISK_DATASETS` (``"iris_setosa"`` is the separable case).
    epochs : int in [1, 200], default 30
    test_fraction : float in [0.1, 0.5], default 0.3
    seed : int >= 0

    Returns
    -------
    RiskTable
    """
    from sklearn.model_selection import train_test_split

    keys = tuple(keys)
    bad = [k for k in keys if k not in RISK_DATASETS]
    if bad or not keys:
        raise ValueError(f"keys must be some of {list(RISK_DATASETS)}; got {list(keys)}")
    epochs = check_int(epochs, name="epochs", minimum=1, maximum=200)
    test_fraction = check_positive(test_fraction, name="test_fraction")
    if not 0.1 <= test_fraction <= 0.5:
        raise ValueError(f"test_fraction must be in [0.1, 0.5]; got {test_fraction}")
    seed = check_int(seed, name="seed", minimum=0)
    rows = []
    for key in keys:
        title, name, params, source = RISK_DATASETS[key]
        ds = datasets.load(name, **params)
        X, Xt, y, yt = train_test_split(np.asarray(ds.X), np.asarray(ds.y), test_size=test_fraction,
                                        random_state=seed, stratify=ds.y)
        rows.append(risk_row(X, y, Xt, yt, key=key, title=title, source=source, epochs=epochs,
                             seed=seed))
    return RiskTable(rows=tuple(rows), epochs=epochs, test_fraction=test_fraction, seed=seed)


def risk_row(X, y, Xt, yt, *, key: str, title: str, source: str, epochs: int,
             seed: int) -> RiskRow:
    """One row of :func:`risk_table` from a split already made: the pocket rule's ``epochs``
    reshuffled passes (seeded by ``seed``) on the training part ``X (k, d), y (k,)`` from
    ``w = 0, b = 0`` with an offset, its last and pocket iterates' errors on both parts
    (``Xt (m, d), yt (m,)`` held out)."""
    run = train(X, y, rule="pocket", order="shuffle", max_epochs=epochs, seed=seed)
    w, b = run.final_w, run.final_b
    return RiskRow(
        key=key, title=title, source=source, n_train=len(X), n_test=len(Xt), dim=X.shape[1],
        train_last=training_error(X, y, w, b), test_last=training_error(Xt, yt, w, b),
        train_pocket=training_error(X, y, run.pocket_w, run.pocket_b),
        test_pocket=training_error(Xt, yt, run.pocket_w, run.pocket_b),
        updates=run.n_updates, converged=run.converged)


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
