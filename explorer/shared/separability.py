"""Linear separability by linear programming, with a certificate when the answer is no.

A labelled set is (strictly) linearly separable when some ``(w, b)`` puts every point on its own
side: ``y_i (<w, x_i> + b) > 0``. Scaling ``(w, b)`` turns this into the feasibility problem
``y_i (<w, x_i> + b) >= 1`` for all ``i`` (Sayed, Probs. P60.4-P60.6), which
``scipy.optimize.linprog(method="highs")`` decides.

When that system has no solution, Farkas' lemma gives non-negative weights ``l_i`` with
``sum_i l_i y_i x_i = 0`` and ``sum_i l_i y_i = 0`` (affine case). Split by class, they say that
one convex combination of the +1 points equals one convex combination of the -1 points: the two
convex hulls meet (``docs/mathematics.md#certificate-of-non-separability``). That common point, with the two
sets of weights, is the certificate returned here. For XOR in +-1 coding it is the origin, where
the two diagonals of the square cross.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog

from .validation import check_bool, check_X_y, read_only

__all__ = ["Certificate", "NotSeparableError", "Separability", "check", "is_separable",
           "design_matrix", "column_scale", "separating_direction"]

_WEIGHT_TOL = 1e-10


@dataclass(frozen=True)
class Certificate:
    """A point shared by the convex hulls (or convex cones) of the two classes.

    Attributes
    ----------
    point : ndarray of shape (d,)
        The shared point, ``pos_weights @ X[pos_index] == neg_weights @ X[neg_index]``.
    pos_weights : ndarray of shape (n_pos,)
        Non-negative weights over the +1 points, in the order of ``pos_index``.
    neg_weights : ndarray of shape (n_neg,)
        Non-negative weights over the -1 points, in the order of ``neg_index``.
    pos_index, neg_index : ndarray of int
        Row indices in ``X`` of the +1 and of the -1 points.
    conic : bool
        ``False`` (affine case): each weight vector sums to 1, so ``point`` lies in both convex
        hulls. ``True`` (homogeneous case, ``fit_intercept=False``): the weights are only
        non-negative and together sum to 1, so ``point`` lies in both convex *cones*
        ``{sum_i c_i x_i : c_i >= 0}``; one class may carry zero weight, and then ``point`` is the
        origin reached by a non-trivial combination of the other class.
    """

    point: np.ndarray
    pos_weights: np.ndarray
    neg_weights: np.ndarray
    pos_index: np.ndarray
    neg_index: np.ndarray
    conic: bool = False


@dataclass(frozen=True)
class Separability:
    """Answer of :func:`check`.

    Attributes
    ----------
    separable : bool
    w : ndarray of shape (d,) or None
        A separating normal with ``y_i (<w, x_i> + b) >= 1`` (any feasible point of the LP, not
        the maximum-margin one: for that see :func:`explorer.shared.svm.fit`). ``None`` if not separable.
    b : float or None
        Its offset (0.0 when ``fit_intercept=False``); ``None`` if not separable.
    certificate : Certificate or None
        ``None`` when separable, else a point in both hulls (cones if homogeneous).
    fit_intercept : bool
    """

    separable: bool
    w: np.ndarray | None
    b: float | None
    certificate: Certificate | None
    fit_intercept: bool = True


class NotSeparableError(ValueError):
    """Raised where linearly separable data are required; carries the certificate.

    Attributes
    ----------
    certificate : Certificate
        The point in both classes' hulls (or cones), for a view to draw.
    """

    def __init__(self, message: str, certificate: Certificate | None):
        super().__init__(message)
        self.certificate = certificate




def design_matrix(X: np.ndarray, fit_intercept: bool) -> np.ndarray:
    """The rows ``z_i`` the LPs see: ``(x_i, 1)`` with an offset, ``x_i`` through the origin.

    No validation: for callers that checked ``X`` once and solve many LPs on it (Cover's counts).
    """
    return np.hstack([X, np.ones((X.shape[0], 1))]) if fit_intercept else X


def column_scale(Z: np.ndarray) -> np.ndarray:
    """Powers of two near each column's largest size (1 for a zero column).

    Feasibility of ``y_i <v, z_i> >= 1`` and the Farkas system ``sum_i l_i y_i z_i = 0`` do not
    change when a column of ``Z`` is multiplied by a positive number (``v_j`` is divided by it),
    so each LP is solved on columns of size about 1: HiGHS's absolute tolerances then mean the
    same at every scale (data of size ``1e-12`` or ``1e12`` alike). Powers of two keep the
    scaling exact.
    """
    top = np.abs(Z).max(axis=0)
    exp = np.frexp(np.where(top > 0, top, 1.0))[1]
    return np.ldexp(1.0, exp)


def separating_direction(Z: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """A ``v`` with ``y_i <v, z_i> >= 1`` for every row, or None when there is none.

    The LP behind :func:`check`, on rows from :func:`design_matrix` (``v = (w, b)`` with an
    offset), each column scaled by :func:`column_scale`. No validation: for callers that checked
    their data once and solve many LPs (Cover's counts, the Monte Carlo check of the Cover tab).
    Raises ValueError when a separator exists but cannot be written in floating point.
    """
    n, p = Z.shape
    s = column_scale(Z)
    res = linprog(
        np.zeros(p), A_ub=-(y[:, None] * (Z / s)), b_ub=-np.ones(n), bounds=(None, None),
        method="highs",
    )
    if res.status == 0:
        with np.errstate(over="ignore"):
            v = res.x / s
        if not np.all(np.isfinite(v)):
            raise ValueError("the data are too small for a separator with y (<w, x> + b) >= 1 "
                             f"to be written in floating point; got columns of size down to "
                             f"{np.abs(Z).max(axis=0).min():.3g}: rescale the data")
        return v
    if res.status == 2:
        return None
    raise RuntimeError(f"the separability LP failed: {res.message} (status {res.status})")


def _certificate(X: np.ndarray, y: np.ndarray, fit_intercept: bool) -> Certificate:
    """Find ``l >= 0`` with ``sum l_i y_i z_i = 0`` and a normalisation (Farkas' alternative)."""
    n = X.shape[0]
    Z = design_matrix(X, fit_intercept)
    Z = Z / column_scale(Z)  # the same weights l solve the scaled system
    A_eq = np.vstack([(y[:, None] * Z).T, np.ones((1, n))])
    b_eq = np.r_[np.zeros(Z.shape[1]), 1.0]
    res = linprog(np.zeros(n), A_eq=A_eq, b_eq=b_eq, bounds=(0, None), method="highs")
    if res.status != 0:
        raise RuntimeError(f"the certificate LP failed: {res.message} (status {res.status})")
    lam = np.where(res.x > _WEIGHT_TOL, res.x, 0.0)
    pos_index = np.flatnonzero(y > 0)
    neg_index = np.flatnonzero(y < 0)
    lp, ln = lam[pos_index], lam[neg_index]
    if fit_intercept:
        lp, ln = lp / lp.sum(), ln / ln.sum()
        point = 0.5 * (lp @ X[pos_index] + ln @ X[neg_index])
    else:
        total = lp.sum() + ln.sum()
        lp, ln = lp / total, ln / total
        point = 0.5 * (lp @ X[pos_index] + ln @ X[neg_index])
    return Certificate(
        point=read_only(point), pos_weights=read_only(lp), neg_weights=read_only(ln),
        pos_index=read_only(pos_index), neg_index=read_only(neg_index), conic=not fit_intercept,
    )


def check(X, y, *, fit_intercept: bool = True) -> Separability:
    """Decide whether a labelled set is linearly separable, by linear programming.

    Solves the feasibility LP ``y_i (<w, x_i> + b) >= 1`` for ``i = 1..n`` with
    ``scipy.optimize.linprog(method="highs")`` (Sayed, Probs. P60.4-P60.6;
    ``docs/mathematics.md#separability-lp``). The constant 1 only fixes the scale, so feasibility
    is the same as strict separability. If infeasible, a second LP finds the Farkas certificate: weights
    ``l >= 0`` with ``sum_i l_i y_i (x_i, 1) = 0``, read as a point in both convex hulls.

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : array-like of shape (n,)
        Labels in {-1, +1}; one class only is allowed (then the answer is trivially yes in the
        affine case).
    fit_intercept : bool, default True
        ``True`` for affine classifiers ``<w, x> + b``. ``False`` for homogeneous ones
        ``<w, x>`` (hyperplanes through the origin, Hardt & Recht's setting): the LP drops ``b``
        and the certificate becomes *conic*, a point in both convex cones spanned by the
        classes (see :class:`Certificate`).

    Returns
    -------
    Separability
        ``separable``, a separating ``(w, b)`` (when separable) and the ``certificate`` (when not).

    Examples
    --------
    >>> r = check([[1, 1], [-1, -1], [1, -1], [-1, 1]], [1, 1, -1, -1])   # XOR
    >>> r.separable, r.certificate.point.round(12).tolist()
    (False, [0.0, 0.0])
    """
    X, y = check_X_y(X, y, require_both=False)
    fit_intercept = check_bool(fit_intercept, name="fit_intercept")
    v = separating_direction(design_matrix(X, fit_intercept), y)
    if v is not None:
        w = read_only(v[: X.shape[1]])
        b = float(v[-1]) if fit_intercept else 0.0
        return Separability(True, w, b, None, fit_intercept)
    return Separability(False, None, None, _certificate(X, y, fit_intercept), fit_intercept)


def is_separable(X: np.ndarray, y: np.ndarray, *, fit_intercept: bool = True) -> bool:
    """Fast yes/no answer of :func:`check` without the certificate (inputs are validated)."""
    X, y = check_X_y(X, y, require_both=False)
    fit_intercept = check_bool(fit_intercept, name="fit_intercept")
    return separating_direction(design_matrix(X, fit_intercept), y) is not None
