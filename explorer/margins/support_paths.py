"""Sayed's Example 61.3: training error and support vectors of the soft-margin SVM against ``C``.

:func:`support_path` fits the soft-margin SVM exactly for each ``C`` of a range and records
the training error rate beside the fraction of support vectors, which bounds it:
``R_emp <= #SV / N`` (Sayed (61.29)), because every misclassified point violates the margin.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..perceptron.engine import mistakes
from ..shared import svm as _svm
from ..shared.validation import check_bool, check_X_y, read_only

__all__ = ["SupportPath", "support_path", "MAX_PATH_CS"]

#: Most values of ``C`` one :func:`support_path` fits (one libsvm solve each).
MAX_PATH_CS = 200


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
    (:func:`explorer.shared.svm.fit`). Every misclassified training point has ``y_i f(x_i) <= 0 <= 1``,
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
    fit_intercept = check_bool(fit_intercept, name="fit_intercept")
    Cs = _check_Cs(Cs)
    n = X.shape[0]
    k = Cs.size
    n_sv, n_err = np.zeros(k, dtype=np.int64), np.zeros(k, dtype=np.int64)
    w_norm, hinge = np.zeros(k), np.zeros(k)
    for j, C in enumerate(Cs):
        r = _svm.fit(X, y, C=float(C), fit_intercept=fit_intercept)
        n_sv[j] = r.support.size
        n_err[j] = mistakes(X, y, np.asarray(r.w), r.b)
        w_norm[j] = float(np.linalg.norm(r.w))
        hinge[j] = float(np.sum(r.slack))
    return SupportPath(
        Cs=read_only(Cs), error_rate=read_only(n_err / n), sv_fraction=read_only(n_sv / n),
        n_support=read_only(n_sv), n_errors=read_only(n_err), w_norm=read_only(w_norm),
        hinge_total=read_only(hinge), n=n,
        fit_intercept=fit_intercept,
    )
