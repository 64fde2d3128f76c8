"""A perceptron's separator beside the maximum-margin one: margins, slacks and their segments.

:func:`compare` puts a perceptron's final ``(w, b)`` beside the hard- or soft-margin SVM of the
same data (Sayed (61.4), (61.11)); :func:`sayed_eta` and :func:`sayed_rho` convert
scikit-learn's ``C`` into Sayed's slack weight and regulariser. Also the small checks the other
``margins_*`` modules share. Notation and the overview: :mod:`explorer.margins`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..perceptron.engine import mistakes
from ..shared import svm as _svm
from ..shared.separability import Certificate, check
from ..shared.validation import (
    check_bool,
    check_int,
    check_positive,
    check_real,
    check_vector,
    check_X_y,
    read_only,
)

__all__ = ["MarginComparison", "compare", "sayed_eta", "sayed_rho", "SLACK_TOL"]

#: Slacks at or below this count as zero: a point on the margin line has no segment to draw.
SLACK_TOL = 1e-9


def sayed_eta(C: float, N: int) -> float:
    """Sayed's slack weight of (61.11) for scikit-learn's ``C``: ``eta = N C``."""
    return check_positive(C, name="C") * check_int(N, name="N", minimum=1)


def sayed_rho(C: float, N: int) -> float:
    """Sayed's regulariser of the hinge form (61.13) for ``C``: ``rho = 1 / (2 N C)``."""
    return 1.0 / (2.0 * sayed_eta(C, N))


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
    svm : explorer.shared.svm.SVMFit or None
        The fitted SVM; ``None`` when the hard margin was asked for and the data are not
        linearly separable.
    separable : bool
        Whether some line separates the data (the LP of :func:`explorer.shared.separability.check`).
    certificate : explorer.shared.separability.Certificate or None
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

    The SVM is :func:`explorer.shared.svm.fit`: with ``C=None`` the hard margin, minimise
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
    :func:`explorer.perceptron.bounds.margin`), negative when it misclassifies a point.

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
    X, y, C, fit_intercept, wp, bp = _compare_inputs(
        X, y, C=C, perceptron_w=perceptron_w, perceptron_b=perceptron_b,
        fit_intercept=fit_intercept)
    sep = check(X, y, fit_intercept=fit_intercept)
    hard = _svm.fit(X, y, C=None, fit_intercept=fit_intercept) if sep.separable else None
    fit = hard if C is None else _svm.fit(X, y, C=C, fit_intercept=fit_intercept)
    common = dict(C=C, fit_intercept=fit_intercept, n=X.shape[0], certificate=sep.certificate,
                  **_perceptron_fields(X, y, wp, bp))
    if fit is None:
        empty = np.zeros((0, X.shape[1]))
        return MarginComparison(
            svm=None, separable=False, gamma=None, svm_margin=None, svm_min_margin=None,
            svm_errors=None, hinge_total=None, slack_index=read_only(np.zeros(0, dtype=np.int64)),
            slack_start=read_only(empty), slack_end=read_only(empty), **common)
    w = np.asarray(fit.w)
    ww = float(w @ w)
    idx, start, end = _slack_segments(X, y, fit)
    return MarginComparison(
        svm=fit, separable=bool(sep.separable),
        gamma=None if hard is None else float(hard.margin), svm_margin=float(fit.margin),
        svm_min_margin=float(np.min(fit.yf) / np.sqrt(ww)) if ww > 0 else None,
        svm_errors=mistakes(X, y, w, fit.b), hinge_total=float(np.asarray(fit.slack).sum()),
        slack_index=read_only(idx), slack_start=read_only(start), slack_end=read_only(end),
        **common)


def _compare_inputs(X, y, *, C, perceptron_w, perceptron_b, fit_intercept):
    """Check :func:`compare`'s arguments once: data, ``fit_intercept``, ``C``, the perceptron."""
    X, y = check_X_y(X, y)
    fit_intercept = check_bool(fit_intercept, name="fit_intercept")
    if C is not None:
        C = check_positive(C, name="C")
    wp = check_vector(perceptron_w, name="perceptron_w", length=X.shape[1])
    bp = check_real(perceptron_b, name="perceptron_b")
    return X, y, C, fit_intercept, wp, bp


def _perceptron_fields(X, y, wp, bp) -> dict:
    """The perceptron's side of the comparison: its separator, geometric margin and mistakes.

    The margin is ``min_i y_i f_p(x_i) / ||w_p||``, None for ``w_p = 0``.
    """
    norm_p = float(np.linalg.norm(wp))
    return dict(perceptron_w=read_only(wp), perceptron_b=bp,
                perceptron_margin=float(np.min(y * (X @ wp + bp)) / norm_p) if norm_p > 0 else None,
                perceptron_errors=mistakes(X, y, wp, bp))


def _slack_segments(X, y, fit):
    """The points with slack (indices) and their segments' starts and ends.

    Each segment runs from ``x_i`` to the foot of the perpendicular on its own side's margin
    line ``f(x) = y_i``. With ``w = 0`` (a soft margin so loose that no line pays off) there
    are no margin lines, and no segments.
    """
    w, b = np.asarray(fit.w), fit.b
    ww = float(w @ w)
    f = X @ w + b
    s = np.asarray(fit.slack)
    idx = np.flatnonzero(s > SLACK_TOL) if ww > 0 else np.zeros(0, dtype=np.int64)
    start = X[idx]
    end = start + ((y[idx] - f[idx]) / (ww if ww > 0 else 1.0))[:, None] * w[None, :]
    return idx, start, end
