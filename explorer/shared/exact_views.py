"""Views of data in any dimension that do not lie about a linear classifier (numpy only).

A classifier ``f(x) = <w, x> + b`` on points in ``R^M`` (``M`` any) is drawn without first
projecting the data somewhere else (``docs/mathematics.md#exact-views``):

* :func:`margin_line`: every point at its signed distance ``y (<w, x> + b) / ||w||`` from the
  boundary, on one axis. The boundary is 0, a point right of it is classified correctly, and
  the smallest value is the classifier's margin on the data: the quantity Novikoff's proof is
  about (Sayed, Lemma 60.1). Exact in every dimension.
* :func:`w_plane`: the data projected onto a plane that contains ``w``: its first axis is
  ``w / ||w||``, its second the data's leading direction orthogonal to ``w``. In that plane the
  boundary is the true line ``s = -b / ||w||`` and every point's first coordinate minus that
  line is its exact signed distance to the boundary; the second coordinate is a projection,
  and :attr:`WPlane.off_plane` says how far each point lies from the plane.

Both refuse ``w = 0`` (no boundary): a run's first steps often have it, and a view then says so
in words.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .validation import as_features, as_labels, check_real, read_only

__all__ = ["MarginLine", "WPlane", "margin_line", "plane_axes", "scatter", "w_plane"]


def _weights(w, M: int) -> tuple[np.ndarray, float]:
    """``w`` as a float vector of length ``M`` and its norm; refuses ``w = 0`` and bad values."""
    v = np.asarray(w)
    if v.dtype.kind not in "biuf":
        raise TypeError(f"w must hold numbers; got dtype {v.dtype}")
    v = v.astype(float)
    if v.shape != (M,):
        raise ValueError(f"w must have one weight per feature, shape ({M},); got shape "
                         f"{v.shape}")
    if not np.all(np.isfinite(v)):
        raise ValueError("w must contain only finite numbers; got NaN or infinite values")
    norm = float(np.linalg.norm(v))
    if norm == 0.0 or not np.isfinite(norm):
        raise ValueError("w must not be zero: a zero weight vector draws no boundary")
    return v, norm


@dataclass(frozen=True)
class MarginLine:
    """Each point's signed distance to the boundary, positive on its own class's side.

    Attributes
    ----------
    distance : ndarray of shape (n,)
        ``y_i (<w, x_i> + b) / ||w||``.
    margin : float
        The smallest distance: the classifier's margin on the data (negative when it
        misclassifies a point, 0 for a point on the boundary).
    worst : int
        The index of a point at that margin (the first, when several are).
    """

    distance: np.ndarray
    margin: float
    worst: int

    @property
    def misclassified(self) -> np.ndarray:
        """Indices of the points on the wrong side or on the boundary (``distance <= 0``), the
        points the perceptron would update on."""
        return np.flatnonzero(self.distance <= 0)


def margin_line(X, y, w, b: float = 0.0) -> MarginLine:
    """The points of ``X`` at their signed distances from the boundary ``<w, x> + b = 0``.

    Parameters
    ----------
    X : array-like of shape (n, M)
    y : array-like of shape (n,), values in {-1, +1}
    w : array-like of shape (M,), not zero
    b : float, default 0.0

    Returns
    -------
    MarginLine
        ``distance[i] = y_i (<w, x_i> + b) / ||w||``, the geometric margin of point ``i`` (Sayed
        eq. (60.10); its minimum is the margin of eq. (60.30)), exact for any ``M``.

    Raises
    ------
    ValueError, TypeError
        For bad data, a ``w`` of the wrong length, ``w = 0`` or a non-finite ``b``.
    """
    Xa = as_features(X)
    ya = as_labels(y, require_both=False)
    if ya.shape[0] != Xa.shape[0]:
        raise ValueError(f"X and y must have the same number of points; got {Xa.shape[0]} "
                         f"and {ya.shape[0]}")
    v, norm = _weights(w, Xa.shape[1])
    d = ya * (Xa @ v + check_real(b, name="b")) / norm
    worst = int(np.argmin(d))
    return MarginLine(read_only(d), float(d[worst]), worst)


@dataclass(frozen=True)
class WPlane:
    """Data seen in a plane that contains ``w`` (see the module docstring).

    Attributes
    ----------
    basis : ndarray of shape (2, M)
        Orthonormal rows: ``w / ||w||``, then the data's leading direction orthogonal to it.
    coords : ndarray of shape (n, 2)
        Each point's coordinates ``(s, t) = (<e1, x>, <e2, x>)`` in the plane.
    boundary : float
        The boundary is the line ``s = boundary`` (``-b / ||w||``): a point's ``s - boundary``
        is its exact signed distance to it.
    off_plane : ndarray of shape (n,)
        Each point's distance from the plane through the origin spanned by the basis (0 for
        every point when ``M <= 2``).
    spread : float
        The share of the data's spread about its mean orthogonal to ``w`` that the second
        axis shows (1 when ``M <= 2``, or when the data have no such spread).
    """

    basis: np.ndarray
    coords: np.ndarray
    boundary: float
    off_plane: np.ndarray
    spread: float


def scatter(X) -> np.ndarray:
    """The data's scatter matrix about their mean, ``(X - mean)' (X - mean)`` (shape (M, M)):
    what :func:`plane_axes` needs of the data, computed once for a run's many ``w``."""
    Xa = as_features(X)
    Xc = Xa - Xa.mean(axis=0)
    return Xc.T @ Xc


def plane_axes(w, *, scatter) -> tuple[np.ndarray, float]:
    """The plane that contains ``w``: its orthonormal basis ``(2, M)`` (``w / ||w||``, then the
    leading direction of the data orthogonal to ``w``) and the share of the data's orthogonal
    spread that second axis shows (see :class:`WPlane`).

    ``scatter`` is :func:`scatter` of the data (M >= 2). When the data have no spread
    orthogonal to ``w``, the second axis is the coordinate axis least along ``w``, made
    orthogonal to it (share 1). Its sign makes its largest component positive, so that the
    view does not flip with the LAPACK build.
    """
    C = np.asarray(scatter, dtype=float)
    M = C.shape[0]
    v, norm = _weights(w, M)
    e1 = v / norm
    P = np.eye(M) - np.outer(e1, e1)
    R = P @ C @ P
    vals, vecs = np.linalg.eigh((R + R.T) / 2)
    total = float(np.trace(R))
    if vals[-1] > 1e-12 * max(1.0, float(np.trace(C))) and total > 0:
        e2, share = vecs[:, -1], min(1.0, float(vals[-1] / total))
    else:  # the data lie on a line along w
        axis = np.zeros(M)
        axis[int(np.argmin(np.abs(e1)))] = 1.0
        e2, share = axis, 1.0
    e2 = e2 - (e2 @ e1) * e1
    e2 /= np.linalg.norm(e2)
    big = int(np.argmax(np.abs(e2)))
    return np.vstack([e1, e2 if e2[big] > 0 else -e2]), share


def w_plane(X, w, b: float = 0.0) -> WPlane:
    """The data in the plane spanned by ``w`` and their leading direction orthogonal to ``w``.

    Parameters
    ----------
    X : array-like of shape (n, M), ``M >= 2``
    w : array-like of shape (M,), not zero
    b : float, default 0.0

    Returns
    -------
    WPlane
        For ``M = 2`` the plane is the data's own plane, rotated so that ``w`` points along the
        first axis.

    Raises
    ------
    ValueError, TypeError
        For bad data, ``M < 2`` (one feature has no plane: use :func:`margin_line`), a ``w``
        of the wrong length, ``w = 0`` or a non-finite ``b``.
    """
    Xa = as_features(X)
    M = Xa.shape[1]
    if M < 2:
        raise ValueError(f"a plane needs at least 2 features; got {M} (the margin line shows "
                         "one)")
    _, norm = _weights(w, M)
    basis, share = plane_axes(w, scatter=scatter(Xa))
    coords = Xa @ basis.T
    off = np.linalg.norm(Xa - coords @ basis, axis=1)
    return WPlane(read_only(basis), read_only(coords), -check_real(b, name="b") / norm,
                  read_only(off), share)
