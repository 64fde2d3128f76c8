"""Maximum-margin linear classifiers: hard- and soft-margin support vector machines.

The solver is scikit-learn's libsvm (``SVC(kernel="linear")``); its answer is then *polished*:
with the set of margin points and of points at the upper bound ``C`` read off libsvm's dual
variables, the KKT equations of Sayed (61.43)-(61.52) are linear, and solving them directly
removes libsvm's stopping tolerance. The polished solution is kept only if it passes the full KKT
check (primal and dual feasibility); otherwise libsvm's own answer is returned.

Problems solved (REFERENCE.md, "Support vector machines"; Sayed ch. 61):

* hard margin, ``C=None``: minimise ``||w||^2 / 2`` subject to ``y_i (<w, x_i> + b) >= 1``
  (Sayed (61.4)); margin ``1 / ||w||``;
* soft margin, ``C > 0``: minimise ``||w||^2 / 2 + C sum_i s_i`` subject to
  ``y_i (<w, x_i> + b) >= 1 - s_i``, ``s_i >= 0``. This is Sayed (61.11) with ``C = eta / N``,
  and the hinge form (61.13) with ``C = 1 / (2 rho N)``: see :func:`C_from_sayed_eta`,
  :func:`C_from_rho`.

With ``fit_intercept=False`` the offset is fixed at ``b = 0`` (hyperplanes through the origin,
as in Hardt & Recht). libsvm always fits an offset, so the homogeneous problem is solved on the
data together with their mirror images ``(-x_i, -y_i)``: that set is symmetric under
``b -> -b``, so its optimal ``w`` is the homogeneous one and ``b = 0`` is optimal (the weight of
each slack doubles, hence libsvm is given ``C / 2``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.svm import SVC

from ._validation import check_int, check_positive, check_X_y
from .separability import NotSeparableError, check

__all__ = ["SVMFit", "fit", "dataset_margin", "C_from_sayed_eta", "C_from_rho"]

#: ``C`` handed to libsvm for the hard margin. Any ``C`` above the largest dual variable gives
#: exactly the hard-margin solution; the KKT check below confirms it.
HARD_C = 1e10
_KKT_TOL = 1e-7


@dataclass(frozen=True)
class SVMFit:
    """A fitted linear SVM. All arrays are read-only.

    Attributes
    ----------
    w : ndarray of shape (d,)
        Normal vector, ``w = sum_i alpha_i y_i x_i`` (Sayed (61.44)).
    b : float
        Offset (``b = -theta`` in Sayed's notation); 0.0 when ``fit_intercept=False``.
    margin : float
        Geometric margin ``1 / ||w||`` (for the hard margin this is ``gamma(S)``).
    alpha : ndarray of shape (n,)
        Dual variables (Sayed's ``lambda``), ``0 <= alpha_i <= C`` (Sayed (61.42), (61.51)).
    support : ndarray of int
        Indices of the support vectors: points with ``y_i f(x_i) <= 1 + tol`` (Sayed (61.10)).
    on_margin : ndarray of int
        Indices with ``|y_i f(x_i) - 1| <= tol``, the points that fix ``b`` (Sayed (61.52)).
    slack : ndarray of shape (n,)
        ``s_i = max(0, 1 - y_i f(x_i))`` (Sayed (61.12)); all zero for the hard margin.
    yf : ndarray of shape (n,)
        Functional margins ``y_i f(x_i)``.
    C : float or None
        ``None`` for the hard margin.
    fit_intercept : bool
    objective : float
        Primal objective ``||w||^2 / 2 + C sum_i s_i``.
    dual_objective : float
        ``sum_i alpha_i - ||w||^2 / 2``; equals ``objective`` at the optimum.
    polished : bool
        Whether the KKT polish was accepted (else the answer is libsvm's, to its tolerance).
    """

    w: np.ndarray
    b: float
    margin: float
    alpha: np.ndarray
    support: np.ndarray
    on_margin: np.ndarray
    slack: np.ndarray
    yf: np.ndarray
    C: float | None
    fit_intercept: bool
    objective: float
    dual_objective: float
    polished: bool


def _ro(a) -> np.ndarray:
    a = np.array(a, copy=True)
    a.setflags(write=False)
    return a


def _libsvm(X, y, C, fit_intercept):
    """Return (alpha, w, b) from libsvm; mirrored data when there is no intercept."""
    n = X.shape[0]
    if fit_intercept:
        Xs, ys, Cs = X, y, C
    else:
        Xs, ys, Cs = np.vstack([X, -X]), np.r_[y, -y], C / 2.0
    svc = SVC(kernel="linear", C=Cs, tol=1e-6, shrinking=True).fit(Xs, ys)
    a = np.zeros(Xs.shape[0])
    a[svc.support_] = np.abs(svc.dual_coef_[0])
    w = svc.coef_[0].copy()
    if fit_intercept:
        return a, w, float(svc.intercept_[0])
    return a[:n] + a[n:], w, 0.0


def _polish(X, y, alpha, C, fit_intercept, b_libsvm):
    """Solve the KKT equations on libsvm's active set; return (alpha, w, b) or None.

    Without a free dual variable (all at 0 or ``C``), ``w`` is fixed by the bound ones and any
    ``b`` in an interval is optimal; libsvm's choice of ``b`` is kept.
    """
    upper = np.zeros(alpha.shape, bool) if C is None else alpha >= C * (1 - 1e-9)
    free = (alpha > 0) & ~upper
    F, U = np.flatnonzero(free), np.flatnonzero(upper)
    Cv = 0.0 if C is None else C
    wU = Cv * (y[U] @ X[U])
    yF, XF = y[F], X[F]
    K = (yF[:, None] * XF) @ (yF[:, None] * XF).T
    rhs = 1.0 - yF * (XF @ wU)
    if fit_intercept:
        m = F.size
        A = np.zeros((m + 1, m + 1))
        A[:m, :m], A[:m, m], A[m, :m] = K, yF, yF
        rhs = np.r_[rhs, -Cv * y[U].sum()]
    else:
        A = K
    if F.size == 0:
        lam, b = np.zeros(0), b_libsvm
    else:
        sol = np.linalg.lstsq(A, rhs, rcond=None)[0]
        lam = sol[: F.size]
        b = float(sol[-1]) if fit_intercept else 0.0
    w = (lam * yF) @ XF + wU
    yf = y * (X @ w + b)
    scale = max(1.0, float(np.abs(lam).max(initial=0.0)))
    ok = (
        np.all(lam >= -_KKT_TOL * scale)
        and (C is None or np.all(lam <= C + _KKT_TOL * scale))
        and np.all(yf[~free & ~upper] >= 1 - _KKT_TOL)
        and np.all(np.abs(yf[F] - 1) <= _KKT_TOL)
        and np.all(yf[U] <= 1 + _KKT_TOL)
        and (not fit_intercept or abs(lam @ yF + Cv * y[U].sum()) <= _KKT_TOL * max(1, Cv) * y.size)
    )
    if not ok:
        return None
    out = np.zeros_like(alpha)
    out[F] = np.clip(lam, 0.0, np.inf if C is None else C)
    out[U] = Cv
    return out, w, b


def fit(X, y, *, C: float | None = None, fit_intercept: bool = True, tol: float = 1e-6) -> SVMFit:
    """Fit a hard-margin (``C=None``) or soft-margin (``C > 0``) linear SVM.

    Solves the dual quadratic program of Sayed (61.42) (hard) or (61.51) (soft):
    maximise ``sum_i a_i - a' A a / 2`` with ``A_ij = y_i y_j <x_i, x_j>``, ``0 <= a_i <= C``
    and ``sum_i a_i y_i = 0`` (the last constraint only with an intercept), with libsvm, then
    polishes the result on its active set (see the module docstring). The weights follow from
    Sayed (61.44), ``w = sum_i a_i y_i x_i``, and the offset from the margin points,
    ``b = y_s - <w, x_s>`` (Sayed (61.46)-(61.47), (61.52), with ``b = -theta``).

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : array-like of shape (n,)
        Labels in {-1, +1}. Both classes are needed when ``fit_intercept=True``.
    C : float or None, default None
        ``None`` gives the hard margin, which requires separable data. Otherwise the soft-margin
        weight ``C > 0`` (scikit-learn's ``C``; Sayed's ``eta / N``).
    fit_intercept : bool, default True
        ``False`` fixes ``b = 0`` (homogeneous classifier).
    tol : float, default 1e-6
        Tolerance on ``y_i f(x_i)`` for ``support`` (``<= 1 + tol``) and ``on_margin``
        (``|y_i f(x_i) - 1| <= tol``).

    Returns
    -------
    SVMFit

    Raises
    ------
    NotSeparableError
        (a ``ValueError``) when ``C is None`` and the data are not linearly separable; its
        ``certificate`` attribute holds the point in both classes' hulls
        (:class:`explorer.separability.Certificate`).
    ValueError
        On invalid input, ``C <= 0``, or one class only with ``fit_intercept=True``.
    """
    X, y = check_X_y(X, y, require_both=False)
    if not isinstance(fit_intercept, (bool, np.bool_)):
        raise TypeError(f"fit_intercept must be True or False; got {fit_intercept!r}")
    fit_intercept = bool(fit_intercept)
    if C is not None:
        C = check_positive(C, name="C")
    tol = check_positive(tol, name="tol")
    if fit_intercept and np.unique(y).size < 2:
        raise ValueError(
            "an SVM with an intercept needs both classes -1 and +1; got only "
            f"{'+1' if y[0] > 0 else '-1'} ({y.size} point(s)); the margin would be unbounded"
        )
    if C is None:
        sep = check(X, y, fit_intercept=fit_intercept)
        if not sep.separable:
            kind = "cones" if not fit_intercept else "convex hulls"
            raise NotSeparableError(
                "the hard-margin SVM needs linearly separable data; these are not: the "
                f"{kind} of the two classes meet at {np.round(sep.certificate.point, 6).tolist()}"
                " (see the error's .certificate). Use a soft margin (C > 0) instead.",
                sep.certificate,
            )
    alpha, w, b = _libsvm(X, y, HARD_C if C is None else C, fit_intercept)
    polished = _polish(X, y, alpha, C, fit_intercept, b)
    if polished is not None:
        alpha, w, b = polished
    yf = y * (X @ w + b)
    slack = np.maximum(0.0, 1.0 - yf)
    if C is None:
        slack = np.zeros_like(slack)
    ww = float(w @ w)
    objective = 0.5 * ww + (0.0 if C is None else C * float(slack.sum()))
    dual_objective = float(alpha.sum()) - 0.5 * ww
    return SVMFit(
        w=_ro(w), b=float(b), margin=1.0 / np.sqrt(ww) if ww > 0 else np.inf, alpha=_ro(alpha),
        support=_ro(np.flatnonzero(yf <= 1 + tol)),
        on_margin=_ro(np.flatnonzero(np.abs(yf - 1) <= tol)), slack=_ro(slack), yf=_ro(yf),
        C=C, fit_intercept=fit_intercept, objective=objective, dual_objective=dual_objective,
        polished=polished is not None,
    )


def dataset_margin(X, y, *, fit_intercept: bool = True) -> float:
    """Return ``gamma(S)``, the largest geometric margin of any separator of the data.

    ``gamma(S) = 1 / ||w*||`` with ``w*`` the hard-margin SVM solution (REFERENCE.md,
    Conventions; Sayed (61.4)). With ``fit_intercept=False`` only hyperplanes through the
    origin count, as in Hardt & Recht's mistake bound ``(2 + D^2) / gamma^2``.

    Raises
    ------
    NotSeparableError
        (a ``ValueError``) if the data are not separable; ``.certificate`` shows why.
    """
    return float(fit(X, y, C=None, fit_intercept=fit_intercept).margin)


def C_from_sayed_eta(eta: float, N: int) -> float:
    """Convert Sayed's slack weight ``eta`` of (61.11) to scikit-learn's ``C = eta / N``.

    Sayed minimises ``||w||^2 / 2 + (eta / N) sum_n s(n)``, which is scikit-learn's objective
    ``||w||^2 / 2 + C sum_n s(n)`` with ``C = eta / N`` (Sayed, eq. (61.11a)).
    """
    eta = check_positive(eta, name="eta")
    N = check_int(N, name="N", minimum=1)
    return eta / N


def C_from_rho(rho: float, N: int) -> float:
    """Convert Sayed's regulariser ``rho`` of the hinge form (61.13) to ``C = 1 / (2 rho N)``.

    Dividing ``rho ||w||^2 + (1/N) sum_n hinge_n`` by ``2 rho`` gives
    ``||w||^2 / 2 + (1 / (2 rho N)) sum_n hinge_n``, and each hinge term is the optimal slack
    of (61.11) (Sayed, eqs. (61.12)-(61.13)); equivalently ``rho = 1 / (2 eta)``.
    """
    rho = check_positive(rho, name="rho")
    N = check_int(N, name="N", minimum=1)
    return 1.0 / (2.0 * rho * N)
