"""The stochastic subgradient rule ``svm_sgd`` measured on its own objective.

:func:`sgd_objective`, :func:`sgd_optimum` and :func:`sgd_progress` evaluate Sayed's hinge
objective (61.13) along a run of the rule ``svm_sgd`` (Sayed (61.22)) against its exact minimum,
from the soft-margin SVM with ``C = 1 / (2 rho N)``; :func:`gap_words` says how far above that
minimum a value is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..perceptron.trajectory import Trajectory
from ..shared import svm as _svm
from ..shared.i18n import tr
from ..shared.number_format import number_text
from ..shared.validation import check_bool, check_int, check_positive, check_X_y, read_only

__all__ = ["SGDProgress", "sgd_objective", "sgd_optimum", "sgd_progress", "gap_words"]

_CHUNK = 2_000_000  # entries of the (points x steps) margin table evaluated at once


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

    With ``C = 1 / (2 rho N)`` (:func:`explorer.shared.svm.C_from_rho`) the SVM objective is
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
                   fit_intercept=check_bool(fit_intercept, name="fit_intercept"))
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
    target : explorer.shared.svm.SVMFit
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


def gap_words(value: float, optimum: float, *, minus: bool = False) -> str:
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
    minus : bool, default False
        Write the numbers with :func:`~explorer.shared.number_format.number_text` (a true
        minus sign, as a narration writes them).

    Returns
    -------
    str
    """
    value, optimum = float(value), float(optimum)

    def num(x, digits):
        return number_text(x, digits=digits) if minus else format(x, f".{digits}g")

    v, o = num(value, 4), num(optimum, 4)
    if not optimum > 0:
        return tr("{value}, its minimum {optimum}").format(value=v, optimum=o)
    gap = (value - optimum) / optimum
    if gap <= 1e-6:
        return tr("{value}, at its minimum {optimum}").format(value=v, optimum=o)
    if gap < 1.0:
        return tr("{value}, {percent} % above its minimum {optimum}").format(
            value=v, percent=num(100 * gap, 2), optimum=o)
    return tr("{value}, {ratio} times its minimum {optimum}").format(
        value=v, ratio=num(value / optimum, 3), optimum=o)


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
    return SGDProgress(traj=traj, rho=rho, steps=read_only(steps),
                       objective=read_only(sgd_objective(traj, X, y, rho=rho, steps=steps)),
                       optimum=2.0 * rho * target.objective, target=target, X=read_only(X), y=read_only(y))
