"""Margins: the perceptron's separator against the maximum-margin one, slacks, support vectors.

What the *Margins* view shows, computed without drawing (numpy, scipy and scikit-learn only):

* :func:`compare` puts a perceptron's final ``(w, b)`` beside the hard- or soft-margin SVM of
  the same data (Sayed (61.4), (61.11)): both geometric margins, ``gamma(S)``, the slacks with
  their total, and for every point that violates the margin the segment that shows its slack
  in the plane. When the hard margin is asked for on data that no line separates, the answer
  carries the LP's certificate instead: a point in both classes' convex hulls.
* :func:`support_path` follows Sayed's Example 61.3 over a range of ``C``: the training error
  rate never exceeds the fraction of support vectors, ``R_emp <= #SV / N`` (61.29), because every
  misclassified point violates the margin.
* :func:`sgd_objective`, :func:`sgd_optimum` and :func:`sgd_progress` measure the stochastic
  subgradient rule ``svm_sgd`` (Sayed (61.22)) on its own objective (61.13) against the exact
  minimum.
* :func:`example_61_2` repeats Sayed's Example 61.2 (breast cancer, soft-margin SVM by SGD) with
  our own random split.

Notation (``docs/mathematics.md#conventions``): ``f(x) = <w, x> + b`` (Sayed writes ``h'w - theta``, so
``b = -theta``); functional margin ``y_i f(x_i)``, geometric margin ``y_i f(x_i) / ||w||``.
The soft-margin weight is scikit-learn's ``C``; Sayed's slack weight in (61.11) is
``eta = N C`` and his regulariser in (61.13) is ``rho = 1 / (2 eta) = 1 / (2 N C)``. Sayed's
``eta`` is *not* the step size: the step size of ``svm_sgd`` is his ``mu`` (the ``eta``
argument of :func:`explorer.perceptron.train`).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from . import svm as _svm
from ._validation import check_int, check_positive, check_vector, check_X_y, make_rng
from .separability import Certificate, check
from .trajectory import Trajectory

__all__ = [
    "MarginComparison", "SupportPath", "SGDProgress", "compare", "support_path",
    "sgd_objective", "sgd_optimum", "sgd_progress", "gap_words", "example_61_2", "describe_61_2", "sayed_eta",
    "sayed_rho",
    "BOOK_61_2",
]

#: Slacks at or below this count as zero: a point on the margin line has no segment to draw.
SLACK_TOL = 1e-9
#: Most values of ``C`` one :func:`support_path` fits (one libsvm solve each).
MAX_PATH_CS = 200
#: Test errors Sayed reports in Example 61.2 (14 and 6 of 113 test points).
BOOK_61_2 = {"test_error_30d": 14 / 113, "test_error_2d": 6 / 113}
_CHUNK = 2_000_000  # entries of the (points x steps) margin table evaluated at once


def _ro(a) -> np.ndarray:
    a = np.array(a, copy=True)
    a.setflags(write=False)
    return a


def _check_bool(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}: expected True or False; got {value!r}")
    return bool(value)


def _check_real(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value):
        raise TypeError(f"{name}: expected a finite number; got {value!r}")
    return float(value)


def _errors(X, y, w, b) -> int:
    """Misclassified points with the convention ``+1 iff f(x) >= 0``."""
    return int(np.sum(np.where(X @ w + b >= 0, 1.0, -1.0) != y))


def sayed_eta(C: float, N: int) -> float:
    """Sayed's slack weight of (61.11) for scikit-learn's ``C``: ``eta = N C``."""
    return check_positive(C, name="C") * check_int(N, name="N", minimum=1)


def sayed_rho(C: float, N: int) -> float:
    """Sayed's regulariser of the hinge form (61.13) for ``C``: ``rho = 1 / (2 N C)``."""
    return 1.0 / (2.0 * sayed_eta(C, N))


# --------------------------------------------------------------------------- comparison
@dataclass(frozen=True)
class MarginComparison:
    """A perceptron's separator beside the maximum-margin one, for :func:`compare`.

    Attributes
    ----------
    C : float or None
        ``None`` for the hard margin (Sayed (61.4)), else the soft-margin weight of (61.11) in
        scikit-learn's scaling.
    fit_intercept : bool
    n : int
        Number of points ``N``.
    svm : explorer.svm.SVMFit or None
        The fitted SVM; ``None`` when the hard margin was asked for and the data are not
        linearly separable.
    separable : bool
        Whether some line separates the data (the LP of :func:`explorer.separability.check`).
    certificate : explorer.separability.Certificate or None
        When ``separable`` is False: a point in both classes' convex hulls (cones without an
        offset), the reason no separator and no hard margin exist.
    gamma : float or None
        ``gamma(S) = 1 / ||w*||`` of the hard-margin SVM when the data are separable (Sayed
        (61.3)); None otherwise.
    svm_margin : float or None
        ``1 / ||w||`` of the fitted SVM: the distance from its hyperplane to each line of the
        band ``f(x) = +-1``. Equals ``gamma`` for the hard margin; ``inf`` when a soft margin
        ends at ``w = 0`` (e.g. XOR: no line is worth its cost, every point has slack 1).
    svm_min_margin : float or None
        ``min_i y_i f(x_i) / ||w||`` of the fitted SVM (for a soft margin it may be smaller than
        ``svm_margin``, or negative when the SVM misclassifies a training point); None when
        ``w = 0``.
    svm_errors : int or None
        Training points the SVM misclassifies (predict +1 iff ``f >= 0``).
    perceptron_w : ndarray of shape (d,)
    perceptron_b : float
    perceptron_margin : float or None
        The perceptron's geometric margin ``min_i y_i f(x_i) / ||w||`` (Sayed (61.1)); negative
        when it misclassifies a point, None when ``w = 0`` (no hyperplane).
    perceptron_errors : int
        Training points the perceptron misclassifies.
    hinge_total : float or None
        ``sum_i s_i`` with ``s_i = max(0, 1 - y_i f(x_i))`` (Sayed (61.12)); 0 for the hard
        margin, None without an SVM.
    slack_index : ndarray of int
        Points with ``s_i > SLACK_TOL``: inside the band or on the wrong side (none when
        ``w = 0``: then there are no margin lines to measure to).
    slack_start, slack_end : ndarray of shape (m, d)
        Each such point ``x_i`` and the foot of the perpendicular from it onto its own margin
        line ``f(x) = y_i``: ``x_i + (y_i - f(x_i)) w / ||w||^2``. The segment's length is
        ``|y_i - f(x_i)| / ||w|| = s_i / ||w||`` (since ``y_i^2 = 1``), the slack measured in
        the plane's own units.
    """

    C: float | None
    fit_intercept: bool
    n: int
    svm: _svm.SVMFit | None
    separable: bool
    certificate: Certificate | None
    gamma: float | None
    svm_margin: float | None
    svm_min_margin: float | None
    svm_errors: int | None
    perceptron_w: np.ndarray
    perceptron_b: float
    perceptron_margin: float | None
    perceptron_errors: int
    hinge_total: float | None
    slack_index: np.ndarray
    slack_start: np.ndarray
    slack_end: np.ndarray

    @property
    def hard(self) -> bool:
        """Whether this is the hard margin (``C is None``)."""
        return self.C is None

    @property
    def slack_length(self) -> np.ndarray:
        """Length of each slack segment, ``s_i / ||w||``."""
        return np.linalg.norm(self.slack_end - self.slack_start, axis=1)

    @property
    def sayed_eta(self) -> float | None:
        """Sayed's slack weight ``eta = N C`` of (61.11); None for the hard margin."""
        return None if self.C is None else self.C * self.n

    @property
    def sayed_rho(self) -> float | None:
        """Sayed's ``rho = 1 / (2 eta)`` of the hinge form (61.13); None for the hard margin."""
        return None if self.C is None else 1.0 / (2.0 * self.C * self.n)


def compare(X, y, *, C: float | None = None, perceptron_w, perceptron_b: float,
            fit_intercept: bool = True) -> MarginComparison:
    """Compare a perceptron's separator with the maximum-margin (or soft-margin) SVM.

    The SVM is :func:`explorer.svm.fit`: with ``C=None`` the hard margin, minimise
    ``||w||^2 / 2`` subject to ``y_i f(x_i) >= 1`` (Sayed (61.4)), whose margin
    ``1 / ||w*||`` is ``gamma(S)`` (61.3); with ``C > 0`` the soft margin
    ``||w||^2 / 2 + C sum_i s_i`` subject to ``y_i f(x_i) >= 1 - s_i``, ``s_i >= 0``
    (Sayed (61.11) with ``eta = N C``), whose optimal slacks are the hinge values
    ``s_i = max(0, 1 - y_i f(x_i))`` (61.12).

    For each point with ``s_i > 0`` the comparison gives a *slack segment*: from ``x_i`` to the
    foot of the perpendicular on the line ``f(x) = y_i`` (its own side's margin line),

    ``end_i = x_i + (y_i - f(x_i)) w / ||w||^2``,

    so that ``f(end_i) = y_i`` and the segment's length is
    ``|y_i - f(x_i)| / ||w|| = |1 - y_i f(x_i)| / ||w|| = s_i / ||w||``: the slack in the plane's
    units (a point on the wrong side of ``f = 0`` has ``s_i > 1`` and a segment longer than the
    margin ``1 / ||w||``).

    The perceptron's geometric margin is ``min_i y_i f_p(x_i) / ||w_p||`` (Sayed (61.1);
    :func:`explorer.bounds.margin`), negative when it misclassifies a point.

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : array-like of shape (n,), values in {-1, +1}, both classes present
    C : float > 0 or None, default None
        ``None`` for the hard margin.
    perceptron_w : array-like of shape (d,)
        The perceptron's final weights (e.g. ``Trajectory.final_w``).
    perceptron_b : float
        Its offset.
    fit_intercept : bool, default True
        ``False`` fixes the SVM's offset at 0 (hyperplanes through the origin).

    Returns
    -------
    MarginComparison
        With ``svm=None`` and the ``certificate`` when ``C is None`` and the data are not
        linearly separable (hard margin infeasible).

    Raises
    ------
    ValueError, TypeError
        On invalid data (one class only included), ``C <= 0``, or a ``perceptron_w`` of the
        wrong length.
    """
    X, y = check_X_y(X, y)
    n, d = X.shape
    fit_intercept = _check_bool(fit_intercept, "fit_intercept")
    if C is not None:
        C = check_positive(C, name="C")
    wp = check_vector(perceptron_w, name="perceptron_w", length=d)
    bp = _check_real(perceptron_b, "perceptron_b")

    sep = check(X, y, fit_intercept=fit_intercept)
    hard = _svm.fit(X, y, C=None, fit_intercept=fit_intercept) if sep.separable else None
    fit = hard if C is None else _svm.fit(X, y, C=C, fit_intercept=fit_intercept)

    norm_p = float(np.linalg.norm(wp))
    p_margin = float(np.min(y * (X @ wp + bp)) / norm_p) if norm_p > 0 else None
    empty = np.zeros((0, d))
    if fit is None:
        return MarginComparison(
            C=C, fit_intercept=fit_intercept, n=n, svm=None, separable=False,
            certificate=sep.certificate, gamma=None, svm_margin=None, svm_min_margin=None,
            svm_errors=None, perceptron_w=_ro(wp), perceptron_b=bp, perceptron_margin=p_margin,
            perceptron_errors=_errors(X, y, wp, bp), hinge_total=None,
            slack_index=_ro(np.zeros(0, dtype=np.int64)), slack_start=_ro(empty),
            slack_end=_ro(empty),
        )
    w, b = np.asarray(fit.w), fit.b
    ww = float(w @ w)
    f = X @ w + b
    s = np.asarray(fit.slack)
    # with w = 0 (a soft margin so loose that no line pays off) there are no margin lines
    idx = np.flatnonzero(s > SLACK_TOL) if ww > 0 else np.zeros(0, dtype=np.int64)
    start = X[idx]
    end = start + ((y[idx] - f[idx]) / (ww if ww > 0 else 1.0))[:, None] * w[None, :]
    return MarginComparison(
        C=C, fit_intercept=fit_intercept, n=n, svm=fit, separable=bool(sep.separable),
        certificate=sep.certificate, gamma=None if hard is None else float(hard.margin),
        svm_margin=float(fit.margin),
        svm_min_margin=float(np.min(fit.yf) / np.sqrt(ww)) if ww > 0 else None,
        svm_errors=_errors(X, y, w, b), perceptron_w=_ro(wp), perceptron_b=bp,
        perceptron_margin=p_margin, perceptron_errors=_errors(X, y, wp, bp),
        hinge_total=float(s.sum()), slack_index=_ro(idx), slack_start=_ro(start),
        slack_end=_ro(end),
    )


# --------------------------------------------------------------------------- Example 61.3
@dataclass(frozen=True)
class SupportPath:
    """Training error and support vectors of the soft-margin SVM over a range of ``C``.

    Attributes
    ----------
    Cs : ndarray of shape (k,)
        The values of ``C``, increasing, without repeats.
    error_rate : ndarray of shape (k,)
        Training error rate ``R_emp`` of the SVM fitted with each ``C``.
    sv_fraction : ndarray of shape (k,)
        ``#support vectors / N``, support vectors being the points with ``y_i f(x_i) <= 1``
        (Sayed (61.10)). ``error_rate <= sv_fraction`` at every ``C`` (Sayed (61.29)).
    n_support, n_errors : ndarray of int, shape (k,)
    w_norm : ndarray of shape (k,)
        ``||w||``; it never decreases as ``C`` grows.
    hinge_total : ndarray of shape (k,)
        ``sum_i s_i``; it never increases as ``C`` grows.
    n : int
    fit_intercept : bool
    """

    Cs: np.ndarray
    error_rate: np.ndarray
    sv_fraction: np.ndarray
    n_support: np.ndarray
    n_errors: np.ndarray
    w_norm: np.ndarray
    hinge_total: np.ndarray
    n: int
    fit_intercept: bool

    @property
    def sayed_eta(self) -> np.ndarray:
        """Sayed's ``eta = N C`` for each ``C``."""
        return self.Cs * self.n

    @property
    def sayed_rho(self) -> np.ndarray:
        """Sayed's ``rho = 1 / (2 N C)`` for each ``C``."""
        return 1.0 / (2.0 * self.Cs * self.n)


def _check_Cs(Cs) -> np.ndarray:
    arr = np.asarray(Cs)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"Cs: expected a non-empty 1-D sequence of numbers > 0; got shape "
                         f"{np.shape(Cs)}")
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"Cs: expected numbers > 0; got dtype {arr.dtype}")
    arr = arr.astype(float)
    bad = arr[~(np.isfinite(arr) & (arr > 0))]
    if bad.size:
        raise ValueError(f"Cs: expected finite numbers > 0; got {bad[:5].tolist()}")
    arr = np.unique(arr)
    if arr.size > MAX_PATH_CS:
        raise ValueError(f"Cs: expected at most {MAX_PATH_CS} values of C (one SVM fit each); got "
                         f"{arr.size:,}")
    return arr


def support_path(X, y, *, Cs, fit_intercept: bool = True) -> SupportPath:
    """Sayed's Example 61.3 on one data set: training error rate and ``#SV / N`` against ``C``.

    For each ``C`` the soft-margin SVM (Sayed (61.11), ``eta = N C``) is fitted exactly
    (:func:`explorer.svm.fit`). Every misclassified training point has ``y_i f(x_i) <= 0 <= 1``,
    so it is a support vector (61.10), and the training error rate is at most the fraction of
    support vectors (Sayed (61.28)-(61.29)); averaged over data sets this is (61.27),
    ``E R_emp <= E[#SV] / N``.

    Also recorded, as checks of the trade-off in (61.11): as ``C`` grows, ``||w||`` never
    decreases and ``sum_i s_i`` never increases (compare the optimality of each solution at
    the other's ``C``).

    Parameters
    ----------
    X, y : the data (both classes present)
    Cs : sequence of float > 0
        Values of ``C``; they are sorted and repeats dropped.
    fit_intercept : bool, default True

    Returns
    -------
    SupportPath

    Notes
    -----
    Each value costs one libsvm solve: about 2-6 ms at ``N = 500`` in 2-D for ``C`` up to about
    100 on unit-scale data. libsvm slows down sharply for very large ``C`` on heavily
    overlapping data (seconds at ``C = 1000`` for two blobs whose means are 1 apart).
    """
    X, y = check_X_y(X, y)
    fit_intercept = _check_bool(fit_intercept, "fit_intercept")
    Cs = _check_Cs(Cs)
    n = X.shape[0]
    k = Cs.size
    n_sv, n_err = np.zeros(k, dtype=np.int64), np.zeros(k, dtype=np.int64)
    w_norm, hinge = np.zeros(k), np.zeros(k)
    for j, C in enumerate(Cs):
        r = _svm.fit(X, y, C=float(C), fit_intercept=fit_intercept)
        n_sv[j] = r.support.size
        n_err[j] = _errors(X, y, np.asarray(r.w), r.b)
        w_norm[j] = float(np.linalg.norm(r.w))
        hinge[j] = float(np.sum(r.slack))
    return SupportPath(
        Cs=_ro(Cs), error_rate=_ro(n_err / n), sv_fraction=_ro(n_sv / n), n_support=_ro(n_sv),
        n_errors=_ro(n_err), w_norm=_ro(w_norm), hinge_total=_ro(hinge), n=n,
        fit_intercept=fit_intercept,
    )


# --------------------------------------------------------------------------- SGD (61.22)
def _rho_of(traj: Trajectory, rho) -> float:
    if rho is None:
        rho = traj.params.get("rho", 0.0)
    return check_positive(rho, name="rho", allow_zero=True)


def _check_run_data(traj: Trajectory, X, y):
    if not isinstance(traj, Trajectory):
        raise TypeError(f"traj: expected a Trajectory from explorer.perceptron.train; got "
                        f"{type(traj).__name__}")
    X, y = check_X_y(X, y, require_both=False)
    if X.shape[1] != traj.dim:
        raise ValueError(f"X: expected {traj.dim} features, as in the run; got {X.shape[1]}")
    return X, y


def _objective(X, y, W, B, rho) -> np.ndarray:
    """``rho ||w_k||^2 + mean_i max(0, 1 - y_i f_k(x_i))`` for rows ``(W[k], B[k])``."""
    n = X.shape[0]
    out = np.empty(W.shape[0])
    step = max(1, _CHUNK // max(n, 1))
    for lo in range(0, W.shape[0], step):
        Wc, Bc = W[lo:lo + step], B[lo:lo + step]
        z = (X @ Wc.T + Bc[None, :]) * y[:, None]
        hinge = np.maximum(0.0, 1.0 - z).mean(axis=0)
        out[lo:lo + step] = rho * np.einsum("ij,ij->i", Wc, Wc) + hinge
    return out


def sgd_objective(traj: Trajectory, X, y, *, rho: float | None = None, steps=None) -> np.ndarray:
    """The hinge objective of Sayed (61.13) at the states of a run.

    ``P(w, b) = rho ||w||^2 + (1/N) sum_i max(0, 1 - y_i (<w, x_i> + b))``, evaluated at
    ``traj.state(k)`` for each ``k`` in ``steps``. The rule ``svm_sgd`` (Sayed (61.22)) is a
    stochastic subgradient method on ``P``; its offset is not regularised.

    Parameters
    ----------
    traj : Trajectory
        Usually a ``rule="svm_sgd"`` run on ``(X, y)``; any run can be evaluated.
    X, y : the data the run was trained on
    rho : float >= 0, optional
        Defaults to the run's own ``rho`` (``traj.params["rho"]``).
    steps : sequence of int, optional
        Steps in ``[0, traj.n_steps]``; default every step.

    Returns
    -------
    ndarray of shape (len(steps),)
    """
    X, y = _check_run_data(traj, X, y)
    rho = _rho_of(traj, rho)
    ks = np.arange(traj.n_steps + 1) if steps is None else np.asarray(steps)
    if ks.ndim != 1 or (ks.size and ks.dtype.kind not in "iu"):
        raise TypeError(f"steps: expected a 1-D sequence of integers; got {np.shape(steps)} "
                        f"of dtype {ks.dtype}")
    W, B = traj.states(ks.astype(np.int64))
    return _objective(X, y, W, B, rho)


def sgd_optimum(X, y, *, rho: float, fit_intercept: bool = True) -> float:
    """The minimum of Sayed's objective (61.13), from the exact soft-margin SVM.

    With ``C = 1 / (2 rho N)`` (:func:`explorer.svm.C_from_rho`) the SVM objective is
    ``J(w, b) = ||w||^2 / 2 + C sum_i s_i = (1 / (2 rho)) [rho ||w||^2 + (1/N) sum_i s_i]
    = P(w, b) / (2 rho)`` once the slacks take their optimal values ``s_i = max(0, 1 - y_i
    f(x_i))`` (Sayed (61.12)). Both have the same minimiser, and ``min P = 2 rho min J``.

    Parameters
    ----------
    X, y : the data (both classes present when ``fit_intercept``)
    rho : float > 0
    fit_intercept : bool, default True
        Match the run: ``svm_sgd`` with ``fit_intercept=False`` keeps ``b = 0``.

    Returns
    -------
    float
    """
    X, y = check_X_y(X, y)
    rho = check_positive(rho, name="rho")
    fit = _svm.fit(X, y, C=_svm.C_from_rho(rho, X.shape[0]),
                   fit_intercept=_check_bool(fit_intercept, "fit_intercept"))
    return 2.0 * rho * fit.objective


@dataclass(frozen=True)
class SGDProgress:
    """A run of ``svm_sgd`` measured against the exact solution it approaches.

    Attributes
    ----------
    traj : Trajectory
    rho : float
    steps : ndarray of int
        Steps at which ``objective`` was evaluated (0 and the last step always included).
    objective : ndarray
        Sayed's (61.13) at those steps (:func:`sgd_objective`).
    optimum : float
        Its minimum (:func:`sgd_optimum`).
    target : explorer.svm.SVMFit
        The exact minimiser: the soft-margin SVM with ``C = 1 / (2 rho N)``.
    X, y : ndarray
        The data (for :meth:`objective_at`).
    """

    traj: Trajectory
    rho: float
    steps: np.ndarray
    objective: np.ndarray
    optimum: float
    target: _svm.SVMFit
    X: np.ndarray
    y: np.ndarray

    @property
    def C(self) -> float:
        """The SVM weight the run approaches, ``1 / (2 rho N)``."""
        return float(self.target.C)

    def objective_at(self, k: int) -> float:
        """Sayed's objective (61.13) after step ``k``."""
        w, b = self.traj.state(k)
        return float(_objective(self.X, self.y, w[None, :], np.array([b]), self.rho)[0])


def gap_words(value: float, optimum: float) -> str:
    """How far an objective value is above its minimum, in words that read at every size.

    Below twice the minimum the gap is a percentage ("1, 69 % above its minimum 0.5933"),
    beyond it a ratio ("1, 586 times its minimum 0.001707": a percentage such as 58 478.6 %
    says nothing at a glance), and within a millionth "at its minimum". Used for Sayed's
    objective (61.13) along an ``svm_sgd`` run, whose minimum is positive on data with both
    labels.

    Parameters
    ----------
    value : float
        The objective at some step.
    optimum : float
        Its minimum; when it is not positive, both numbers are given without a gap.

    Returns
    -------
    str
    """
    value, optimum = float(value), float(optimum)
    if not optimum > 0:
        return f"{value:.4g}, its minimum {optimum:.4g}"
    gap = (value - optimum) / optimum
    if gap <= 1e-6:
        return f"{value:.4g}, at its minimum {optimum:.4g}"
    if gap < 1.0:
        return f"{value:.4g}, {100 * gap:.2g} % above its minimum {optimum:.4g}"
    return f"{value:.4g}, {value / optimum:.3g} times its minimum {optimum:.4g}"


def sgd_progress(traj: Trajectory, X, y, *, rho: float | None = None,
                 max_points: int = 600) -> SGDProgress:
    """Objective of an ``svm_sgd`` run at up to ``max_points`` steps, with the exact optimum.

    Parameters
    ----------
    traj : Trajectory
        A run of ``rule="svm_sgd"`` (Sayed (61.22)) on ``(X, y)`` with ``rho > 0``.
    X, y : its data
    rho : float > 0, optional
        Defaults to the run's ``rho``.
    max_points : int >= 2, default 600
        Steps evaluated, evenly spaced from 0 to the end (a panel a few hundred pixels wide
        needs no more).

    Returns
    -------
    SGDProgress
    """
    X, y = _check_run_data(traj, X, y)
    rho = _rho_of(traj, rho)
    if rho == 0:
        raise ValueError("rho: expected > 0 (with rho = 0 the objective (61.13) has no "
                         "minimiser on separable data); got 0")
    max_points = check_int(max_points, name="max_points", minimum=2)
    steps = np.unique(np.linspace(0, traj.n_steps, min(max_points, traj.n_steps + 1))
                      .round().astype(np.int64))
    fit_b = bool(traj.params.get("fit_intercept", True))
    target = _svm.fit(X, y, C=_svm.C_from_rho(rho, X.shape[0]), fit_intercept=fit_b)
    return SGDProgress(traj=traj, rho=rho, steps=_ro(steps),
                       objective=_ro(sgd_objective(traj, X, y, rho=rho, steps=steps)),
                       optimum=2.0 * rho * target.objective, target=target, X=_ro(X), y=_ro(y))


# --------------------------------------------------------------------------- Example 61.2
def example_61_2(*, seed=0, rho: float = 0.01, eta: float = 0.01, epochs: int = 20,
                 test_fraction: float = 0.2) -> dict:
    """Sayed's Example 61.2 with our own random split: breast cancer by soft-margin SVM SGD.

    As in the book: the 569 tumours (30 features, +1 malignant) are standardised (every
    feature centred and scaled to unit variance over all samples); a random fifth (113) is
    held out for testing and the rest (456) trains the rule ``svm_sgd`` (Sayed (61.22)) with
    ``rho = 0.01`` and step ``mu = 0.01`` for 20 passes, reshuffled every pass, from ``w = 0``.
    The same is repeated on the first two principal components of the standardised data (the
    projection computed from all samples, as :func:`explorer.datasets.load` does with
    ``k=2``), with the same split. Sayed reports 12.39 % test error in 30-D and 5.31 % in 2-D
    (:data:`BOOK_61_2`); this function returns what *our* split and shuffles give, and, for
    comparison, the exact soft-margin SVM with the same ``rho`` (``C = 1 / (2 rho N)``).

    Parameters
    ----------
    seed : None, int or numpy Generator, default 0
        Fixes the split and the shuffles.
    rho : float > 0, default 0.01
    eta : float > 0, default 0.01
        The step size (Sayed's ``mu``).
    epochs : int >= 1, default 20
    test_fraction : float in (0, 1), default 0.2
        Test points: ``floor(test_fraction * 569)`` (113 for 0.2).

    Returns
    -------
    dict
        ``n_train``, ``n_test``; for ``"30d"`` and ``"2d"``: ``test_error_*``,
        ``test_mistakes_*``, ``train_error_*``, ``svm_test_error_*`` (exact SVM), and the
        final ``w_*``, ``b_*``; the 2-D data ``X_train_2d``, ``y_train``, ``X_test_2d``,
        ``y_test``; the settings; and ``book`` (Sayed's two test errors).
    """
    from .datasets import load
    from .perceptron import train

    rho = check_positive(rho, name="rho")
    eta = check_positive(eta, name="eta")
    epochs = check_int(epochs, name="epochs", minimum=1)
    test_fraction = check_positive(test_fraction, name="test_fraction")
    if test_fraction >= 1:
        raise ValueError(f"test_fraction: expected a number in (0, 1); got {test_fraction}")
    rng = make_rng(seed)
    full, two = load("breast_cancer"), load("breast_cancer", k=2)
    N = full.n
    n_test = int(np.floor(test_fraction * N))
    if not 1 <= n_test <= N - 2:
        raise ValueError(f"test_fraction: expected a split leaving both sets non-empty; got "
                         f"{n_test} test points of {N}")
    perm = rng.permutation(N)
    test, tr = np.sort(perm[:n_test]), np.sort(perm[n_test:])
    run_seed = int(rng.integers(2**31))
    out = {"n_train": int(tr.size), "n_test": n_test, "rho": rho, "eta": eta, "epochs": epochs,
           "seed": seed if not isinstance(seed, np.random.Generator) else "generator",
           "book": dict(BOOK_61_2)}
    C = _svm.C_from_rho(rho, int(tr.size))
    for tag, ds in (("30d", full), ("2d", two)):
        Xtr, ytr, Xte, yte = ds.X[tr], ds.y[tr], ds.X[test], ds.y[test]
        run = train(Xtr, ytr, rule="svm_sgd", eta=eta, rho=rho, order="shuffle",
                    max_epochs=epochs, seed=run_seed)
        w, b = run.final_w, run.final_b
        exact = _svm.fit(Xtr, ytr, C=C)
        mistakes = _errors(Xte, yte, w, b)
        out.update({
            f"test_mistakes_{tag}": mistakes, f"test_error_{tag}": mistakes / n_test,
            f"train_error_{tag}": _errors(Xtr, ytr, w, b) / tr.size,
            f"svm_test_error_{tag}": _errors(Xte, yte, np.asarray(exact.w), exact.b) / n_test,
            f"w_{tag}": w, f"b_{tag}": b,
        })
    out.update(X_train_2d=two.X[tr], y_train=two.y[tr], X_test_2d=two.X[test],
               y_test=two.y[test])
    return out


def describe_61_2(result: dict) -> str:
    """Example 61.2's outcome in words, from a result of :func:`example_61_2`.

    Returns
    -------
    str
        Three lines: the setting, then the 30-D and the 2-D test errors beside the exact SVM's
        and the book's.
    """
    need = ("n_train", "n_test", "rho", "eta", "epochs", "test_mistakes_30d", "test_mistakes_2d",
            "svm_test_error_30d", "svm_test_error_2d", "book")
    missing = [k for k in need if k not in result]
    if missing:
        raise ValueError(f"result: expected the dict example_61_2 returns; missing {missing}")
    n = result["n_test"]
    lines = [f"Sayed's Example 61.2 with our split (seed {result.get('seed')}): "
             f"{result['n_train']} training and {n} test tumours, svm_sgd with "
             f"rho = {result['rho']:g}, step mu = {result['eta']:g}, {result['epochs']} passes."]
    for tag, what in (("30d", "30 features"), ("2d", "2 principal components")):
        m = result[f"test_mistakes_{tag}"]
        lines.append(f"{what}: {m} of {n} test tumours misclassified ({m / n:.1%}); exact SVM "
                     f"with the same rho: {result[f'svm_test_error_{tag}']:.1%}; the book: "
                     f"{result['book'][f'test_error_{tag}']:.1%}.")
    return "\n".join(lines)
