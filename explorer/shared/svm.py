"""Maximum-margin linear classifiers: hard- and soft-margin support vector machines.

A solver finds the active set, then it is *polished*. The hard margin is first solved as a
least-distance program (minimise ``||w||`` subject to ``G w >= 1``, rows ``y_i x_i``) by
Lawson & Hanson's active-set NNLS (:func:`scipy.optimize.nnls`, :func:`_ldp`): it ends with the
exact support set in a few milliseconds where libsvm's SMO crawls at a huge ``C`` (8-18 s on the
569 x 30 breast cancer data). The offset is not in that objective, so with an intercept a
constant column (:data:`_OFFSET_COLUMNS`) stands for it, which adds a small penalty on ``b``; the
polish below then solves the true problem exactly on the support set found. The soft margin,
and a hard margin whose NNLS answer does not pass the polish, use scikit-learn's libsvm
(``SVC(kernel="linear")``), polished the same way: with the set of margin points and of points at
the upper bound ``C`` read off the solver's dual variables, the KKT equations of Sayed
(61.43)-(61.52) are linear, and solving them directly removes the solver's stopping tolerance.
The polished solution is kept only if it passes the full KKT check (primal and dual
feasibility); otherwise libsvm's own answer is returned. Two pitfalls are
handled on the way: dual variables of size ``~1e-17`` are libsvm's round-off, not support
vectors (a point with one and ``y f(x) = 1.07`` would otherwise be forced onto the margin); and
when more points lie on the margin than ``d + 1`` (degenerate, e.g. a soft margin whose optimum
is ``w = 0``) the dual variables are not unique, and one set inside the box ``[0, C]`` is found
(:func:`_dual_in_box`). A polished ``w`` that is only round-off of ``w = 0`` is returned as
exactly ``0`` (margin ``inf``) when ``w = 0`` passes the KKT check.

Problems solved (``docs/mathematics.md#support-vector-machines``; Sayed ch. 61):

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
from scipy.optimize import nnls
from sklearn.svm import SVC

from .separability import NotSeparableError, check
from .validation import check_bool, check_int, check_positive, check_X_y, read_only

__all__ = ["SVMFit", "fit", "dataset_margin", "C_from_sayed_eta", "C_from_rho", "MAX_POINTS",
           "MAX_SCALED_C"]

#: Most points :func:`fit` accepts: libsvm's work and kernel cache grow with ``n^2``.
MAX_POINTS = 5000
#: Largest soft-margin weight in the units libsvm works in, ``C x s^2`` with ``s`` the data's
#: largest coordinate (rounded to a power of two; the data are divided by ``s`` first). libsvm's
#: iterations grow with it on overlapping data: about 0.2 s at ``C s^2 = 1.6e4`` and 15 s at
#: ``1.6e6`` for 1000 points of two overlapping blobs.
MAX_SCALED_C = 1e5

#: ``C`` handed to libsvm for the hard margin. Any ``C`` above the largest dual variable gives
#: exactly the hard-margin solution; the KKT check below confirms it.
HARD_C = 1e10
_KKT_TOL = 1e-7
#: Constant columns standing for the offset in :func:`_hard_by_nnls` (units of the scaled data),
#: tried in turn: a larger one penalises ``b`` less and is nearer the true problem, a smaller one
#: keeps the least-distance program well conditioned.
_OFFSET_COLUMNS = (1.0, 1e2, 1e4)
#: Dual variables below this fraction of the largest are libsvm's round-off, not support.
_ALPHA_ROUNDOFF = 1e-10
#: A polished ``w`` below this fraction of its terms' size is round-off of ``w = 0``.
_ZERO_W = 1e-12


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


def _scale(X) -> float:
    """A power of two near the data's largest coordinate (1 for all-zero data).

    libsvm is solved on ``X / s``: with ``w' = s w``, ``b' = b``, ``alpha' = s^2 alpha`` and
    ``C' = s^2 C`` it is the same problem (divide the primal objective by ``s^2``), and its
    absolute tolerances then mean the same for data of size ``1e-12`` and ``1e12``. A power of
    two keeps the scaling exact; data of size ``2^-10`` to ``2^10`` are not scaled.
    """
    top = float(np.abs(X).max())
    if top == 0 or 2.0**-10 <= top <= 2.0**10:
        return 1.0  # unit-scale data are solved as given
    return float(np.ldexp(1.0, np.frexp(top)[1]))


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


def _ldp(G):
    """Return ``(alpha, w)`` minimising ``||w||`` subject to ``G w >= 1``, or None.

    Lawson & Hanson's least-distance program (*Solving Least Squares Problems*, ch. 23): with
    ``u >= 0`` the NNLS solution of ``[G'; 1'] u = e`` and its residual ``r``, the optimum is
    ``w = -r[:d] / r[d] = G' alpha`` with the dual variables ``alpha = u / -r[d]`` (Sayed
    (61.44) with rows ``y_i x_i``). None when NNLS stops early or ``r[d] >= 0`` (infeasible).
    """
    n, d = G.shape
    E = np.vstack([G.T, np.ones((1, n))])
    e = np.zeros(d + 1)
    e[d] = 1.0
    try:
        u = nnls(E, e, maxiter=max(3 * n, 100))[0]
    except RuntimeError:  # "Maximum number of iterations reached."
        return None
    r = E @ u - e
    if not r[d] < 0:
        return None
    return u / -r[d], -r[:d] / r[d]


def _hard_by_nnls(X, y, fit_intercept):
    """The polished hard margin from :func:`_ldp`'s support set; (alpha, w, b) or None.

    Without an intercept the least-distance program is the problem itself. With one, the offset
    is the weight of a constant column ``c`` (``b = c v[d]``), which adds ``(b / c)^2 / 2`` to
    the objective; each ``c`` of :data:`_OFFSET_COLUMNS` is tried until the polish on the
    support set found passes the KKT check of the true problem.
    """
    G = y[:, None] * X
    for c in (_OFFSET_COLUMNS if fit_intercept else (None,)):
        found = _ldp(G if c is None else np.hstack([G, c * y[:, None]]))
        if found is None:
            return None
        alpha, v = found
        w, b = (v, 0.0) if c is None else (v[:-1], float(c * v[-1]))
        polished = _polish(X, y, alpha, w, b, None, fit_intercept)
        if polished is not None:
            return polished
    return None


def _active_sets(alpha, C, yf, delta):
    """Split the points into (free, upper) index sets; the rest have ``alpha = 0``.

    ``delta=None`` reads the sets off libsvm's dual variables: at ``C`` (to ``1e-9``
    relative), free, or zero; values below ``_ALPHA_ROUNDOFF`` times the largest are libsvm's
    round-off and count as zero (a point with ``alpha ~ 1e-17`` and ``y f(x) = 1.07`` is not on
    the margin). Otherwise they are read off libsvm's functional margins ``yf``: points with
    ``|yf - 1| <= delta`` are on the margin (free), those below it at ``C``.
    """
    if delta is None:
        upper = np.zeros(alpha.shape, bool) if C is None else alpha >= C * (1 - 1e-9)
        free = (alpha > _ALPHA_ROUNDOFF * alpha.max(initial=0.0)) & ~upper
    else:
        free = np.abs(yf - 1) <= delta
        upper = np.zeros(alpha.shape, bool) if C is None else yf < 1 - delta
        if C is None:
            free |= yf < 1 - delta  # no point may violate the hard margin: try them on it
    return np.flatnonzero(free), np.flatnonzero(upper)


def _dual_in_box(G, yF, target_w, target_sum, start, upper, fit_intercept):
    """Find ``lam`` in ``[0, upper]`` with ``G' lam = target_w`` (and ``yF' lam = target_sum``).

    When the margin points are linearly dependent (more of them than ``d + 1``, e.g. a soft
    margin whose optimum is ``w = 0``, where every point of one class lies on the margin) the
    dual variables are not unique and the least-norm ones of :func:`numpy.linalg.lstsq` may
    leave the box. Starting from libsvm's (nearly feasible) values, the residual is projected
    out over the variables still inside the box; those that leave it are clamped to the bound
    they crossed and the projection repeats over the rest (at most ``len(lam)`` rounds).
    """
    M, t = G.T, target_w
    if fit_intercept:
        M, t = np.vstack([M, yF]), np.r_[t, target_sum]
    lam = np.clip(start, 0.0, upper)
    inside = np.ones(lam.shape, bool)
    for _ in range(lam.size):
        step = np.linalg.lstsq(M[:, inside], t - M @ lam, rcond=None)[0]
        lam[inside] += step
        out = inside & ((lam < 0) | (lam > upper))
        if not out.any():
            break
        lam = np.clip(lam, 0.0, upper)
        inside &= ~out
        if not inside.any():
            break
    return lam


def _solve_on(X, y, C, F, U, fit_intercept, b_libsvm, alpha):
    """Solve the KKT equations with ``F`` free and ``U`` at ``C``; return (alpha, w, b) or None.

    Free points lie on the margin, ``y_i f(x_i) = 1`` (Sayed (61.52)), and with Sayed (61.44)
    and the equality ``sum_i alpha_i y_i = 0`` this is a linear system in ``(alpha_F, b)``.
    Without a free point, ``w`` is fixed by the bound ones and any ``b`` in an interval is
    optimal; libsvm's ``b`` is kept, clipped into that interval.
    """
    Cv = 0.0 if C is None else C
    upper = np.inf if C is None else C
    wU, cU = Cv * (y[U] @ X[U]), Cv * y[U].sum()
    yF = y[F]
    G = yF[:, None] * X[F]  # rows y_i x_i
    if F.size == 0:
        lam, w, b = np.zeros(0), wU, b_libsvm
        if fit_intercept:
            if cU != 0:  # sum_i alpha_i y_i = 0 cannot hold
                return None
            rest = np.ones(y.shape, bool)
            rest[U] = False
            g = X @ w  # y (g + b) >= 1 off the bound, <= 1 at it
            lo = np.max(np.r_[-np.inf, (1 - g)[rest & (y > 0)], (-1 - g)[~rest & (y < 0)]])
            hi = np.min(np.r_[np.inf, (-1 - g)[rest & (y < 0)], (1 - g)[~rest & (y > 0)]])
            b = float(np.clip(b_libsvm, lo, hi)) if lo <= hi else b_libsvm
    else:
        rhs = 1.0 - yF * (X[F] @ wU)
        K = G @ G.T
        if fit_intercept:
            m = F.size
            A = np.zeros((m + 1, m + 1))
            A[:m, :m], A[:m, m], A[m, :m] = K, yF, yF
            rhs = np.r_[rhs, -cU]
        else:
            A = K
        sol = np.linalg.lstsq(A, rhs, rcond=None)[0]
        lam = sol[: F.size]
        b = float(sol[-1]) if fit_intercept else 0.0
        w = lam @ G + wU
        slack = _KKT_TOL * max(1.0, float(np.abs(lam).max()))
        if np.any(lam < -slack) or np.any(lam > upper + slack):  # not unique: find one in the box
            lam = _dual_in_box(G, yF, w - wU, -cU, alpha[F], upper, fit_intercept)
    out = np.zeros_like(alpha)
    out[F] = np.clip(lam, 0.0, upper)
    out[U] = Cv
    return out, out[F] @ G + wU, b


def _is_kkt(X, y, alpha, w, b, C, fit_intercept):
    """Whether ``(alpha, w, b)`` meets the KKT conditions (61.43)-(61.52) to ``_KKT_TOL``."""
    yf = y * (X @ w + b)
    zero, at_c = alpha == 0, (alpha >= C if C is not None else np.zeros(alpha.shape, bool))
    free = ~zero & ~at_c
    return bool(
        np.all(yf[zero] >= 1 - _KKT_TOL)
        and np.all(np.abs(yf[free] - 1) <= _KKT_TOL)
        and np.all(yf[at_c] <= 1 + _KKT_TOL)
        and (not fit_intercept or abs(alpha @ y) <= _KKT_TOL * max(1.0, float(alpha.sum())))
    )


def _polish(X, y, alpha, w, b, C, fit_intercept):
    """Solve the KKT equations on libsvm's active set; return (alpha, w, b) or None.

    The active set is read first off libsvm's dual variables, then, if that fails the check,
    off its functional margins at two widths (:func:`_active_sets`). The first candidate that
    passes the full KKT check is returned: it is then the exact optimum (the problem is
    convex), up to round-off.
    """
    yf = y * (X @ w + b)
    for delta in (None, 1e-5, 1e-3):
        F, U = _active_sets(alpha, C, yf, delta)
        cand = _solve_on(X, y, C, F, U, fit_intercept, b, alpha)
        if cand is not None and _is_kkt(X, y, *cand, C, fit_intercept):
            return _exact_zero(X, y, *cand, C, fit_intercept)
    return None


def _exact_zero(X, y, alpha, w, b, C, fit_intercept):
    """Return ``w = 0`` exactly when the polished ``w`` is round-off and ``w = 0`` passes KKT.

    A soft margin can be so loose that no line pays off: then some ``alpha`` in the box has
    ``sum_i alpha_i y_i x_i = 0`` and the optimum is ``w = 0`` (e.g. XOR, or two heavily
    overlapping classes). ``w = sum_i alpha_i y_i x_i`` then comes out as the round-off of the
    sum, ``~1e-16`` of its terms' size ``sum_i alpha_i ||x_i||``, which would report a margin
    ``1 / ||w|| ~ 1e15`` instead of the exact ``inf``.
    """
    size = float(alpha @ np.sqrt(np.einsum("ij,ij->i", X, X)))
    if 0 < float(np.linalg.norm(w)) <= _ZERO_W * size:
        zero = np.zeros_like(w)
        if _is_kkt(X, y, alpha, zero, b, C, fit_intercept):
            return alpha, zero, b
    return alpha, w, b


def fit(X, y, *, C: float | None = None, fit_intercept: bool = True, tol: float = 1e-6) -> SVMFit:
    """Fit a hard-margin (``C=None``) or soft-margin (``C > 0``) linear SVM.

    Solves the dual quadratic program of Sayed (61.42) (hard) or (61.51) (soft):
    maximise ``sum_i a_i - a' A a / 2`` with ``A_ij = y_i y_j <x_i, x_j>``, ``0 <= a_i <= C``
    and ``sum_i a_i y_i = 0`` (the last constraint only with an intercept), then polishes the
    result on its active set: the hard margin by NNLS as a least-distance program, the soft one
    (and a hard one NNLS does not settle) by libsvm (see the module docstring). The weights follow from
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
        (:class:`explorer.shared.separability.Certificate`).
    ValueError
        On invalid input, ``C <= 0``, or one class only with ``fit_intercept=True``.
    """
    X, y, C, fit_intercept, tol = _fit_inputs(X, y, C=C, fit_intercept=fit_intercept, tol=tol)
    s = _scale(X)
    Xs, Cs = X / s, (None if C is None else C * s * s)  # exact: s is a power of two
    polished = _hard_by_nnls(Xs, y, fit_intercept) if C is None else None
    if polished is None:
        alpha, w, b = _libsvm(Xs, y, HARD_C if C is None else Cs, fit_intercept)
        polished = _polish(Xs, y, alpha, w, b, Cs, fit_intercept)
    if polished is not None:
        alpha, w, b = polished
    alpha, w = alpha / (s * s), w / s  # back to the units of X (see _scale)
    return _fit_result(X, y, alpha, w, b, C=C, fit_intercept=fit_intercept, tol=tol,
                       polished=polished is not None)


def _fit_inputs(X, y, *, C, fit_intercept, tol):
    """Check :func:`fit`'s arguments once; a hard margin also needs separable data.

    Raises :class:`NotSeparableError` with the certificate when ``C is None`` and the classes'
    hulls (cones without an intercept) meet.
    """
    X, y = check_X_y(X, y, require_both=False)
    fit_intercept = check_bool(fit_intercept, name="fit_intercept")
    if X.shape[0] > MAX_POINTS:
        raise ValueError(f"the SVM takes at most {MAX_POINTS:,} points (libsvm's work grows with "
                         f"n^2); got {X.shape[0]:,}")
    if C is not None:
        C = check_positive(C, name="C")
        if C * float(np.abs(X).max()) ** 2 > MAX_SCALED_C:
            raise ValueError(
                f"C x max|x|^2 must be at most {MAX_SCALED_C:g} (libsvm's work grows with it); got "
                f"C = {C:g} with data of size up to {np.abs(X).max():.3g}. At this scale the soft "
                "margin is the hard one for practical purposes: use C=None, a smaller C or "
                "rescaled data")
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
    return X, y, C, fit_intercept, tol


def _fit_result(X, y, alpha, w, b, *, C, fit_intercept, tol, polished) -> SVMFit:
    """The :class:`SVMFit` of a solution in the units of ``X``: margins, slacks, objectives.

    A hard margin that does not reach ``y f(x) >= 1`` (to 1e-4) is refused in words.
    """
    yf = y * (X @ w + b)
    if C is None and not np.all(yf >= 1 - 1e-4):
        top = np.abs(X).max(axis=0)
        raise ValueError(
            "the hard-margin solver did not reach a separator with y f(x) >= 1 (it got "
            f"{float(yf.min()):.3g}); expected coordinates of comparable size, got columns of "
            f"size {float(top.min()):.3g} to {float(top.max()):.3g}: rescale the features")
    slack = np.maximum(0.0, 1.0 - yf)
    if C is None:
        slack = np.zeros_like(slack)
    ww = float(w @ w)
    objective = 0.5 * ww + (0.0 if C is None else C * float(slack.sum()))
    dual_objective = float(alpha.sum()) - 0.5 * ww
    return SVMFit(
        w=read_only(w), b=float(b), margin=1.0 / np.sqrt(ww) if ww > 0 else np.inf,
        alpha=read_only(alpha), support=read_only(np.flatnonzero(yf <= 1 + tol)),
        on_margin=read_only(np.flatnonzero(np.abs(yf - 1) <= tol)), slack=read_only(slack),
        yf=read_only(yf),
        C=C, fit_intercept=fit_intercept, objective=objective, dual_objective=dual_objective,
        polished=polished,
    )


def dataset_margin(X, y, *, fit_intercept: bool = True) -> float:
    """Return ``gamma(S)``, the largest geometric margin of any separator of the data.

    ``gamma(S) = 1 / ||w*||`` with ``w*`` the hard-margin SVM solution (``docs/mathematics.md#hard-margin``;
    Sayed (61.4)). With ``fit_intercept=False`` only hyperplanes through the
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
    C = 1.0 / (2.0 * rho * N)
    if not np.isfinite(C):
        raise ValueError(f"C = 1 / (2 rho N) overflows for rho = {rho:g}, N = {N}; expected a "
                         "larger rho")
    return C
