"""The plane the Margins figure draws data of more than two features in: the plane that
contains the SVM's ``w`` (``docs/mathematics.md#exact-views``).

With ``M > 2`` features the max-margin solution is computed in ``R^M`` and drawn in the plane
through the data's mean spanned by ``e1 = w / ||w||`` and the data's leading direction ``e2``
orthogonal to ``w`` (:func:`explorer.shared.exact_views.plane_axes`). A point ``x`` is drawn at

``(s, t) = ((<w, x> + b) / ||w||, <e2, x - mean>)``:

``s`` is its exact signed distance to the SVM's hyperplane (the boundary is the line ``s = 0``,
the band ``f(x) = ±1`` the lines ``s = ±1/||w||``, so the slab's half-width is the margin
``1/||w||`` in the plane's units), ``t`` a projection. A slack segment runs along ``w`` and
keeps its length ``s_i/||w||``. Any other hyperplane ``<v, x> + d = 0`` (the perceptron's, the
SGD iterate's) is drawn where it cuts this plane, ``<B v, p> + <v, x0> + d = 0`` for the point
``x = x0 + B' p`` of the plane: a true line of the plane, but distances to it in the plane are
not the points' distances to that hyperplane (only the SVM's ``w`` lies in the plane).

Without an SVM line (the hard margin does not exist, or a soft margin ends at ``w = 0``) the
plane is that of the perceptron's final ``w`` (its line exact) or, when that is 0 too, the
data's first two principal directions.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..margins import MarginComparison
from ..shared.exact_views import plane_axes, scatter
from ..shared.i18n import tr, tr_n

__all__ = ["MarginView"]


class MarginView:
    """The plane of a comparison's ``w`` for data ``X`` of shape (n, M), M > 2.

    Attributes
    ----------
    kind : {"svm", "perceptron", "pca"}
        Whose ``w`` spans the plane (see the module docstring).
    basis : ndarray (2, M)
        Orthonormal rows ``e1``, ``e2``.
    share : float
        The share of the data's spread across ``w`` that the second axis shows.
    """

    def __init__(self, X, cmp: MarginComparison):
        X = np.asarray(X, dtype=float)
        self.M = X.shape[1]
        self.mean = X.mean(axis=0)
        C = scatter(X)
        w, b, kind = None, 0.0, "pca"
        if cmp.svm is not None and np.any(cmp.svm.w):
            w, b, kind = np.asarray(cmp.svm.w, dtype=float), float(cmp.svm.b), "svm"
        elif np.any(cmp.perceptron_w):
            w, b, kind = np.asarray(cmp.perceptron_w, float), float(cmp.perceptron_b), "perceptron"
        self.kind = kind
        if w is None:  # the data's first two principal directions, centred on the mean
            vecs = np.linalg.eigh(C)[1][:, ::-1][:, :2].T
            big = np.argmax(np.abs(vecs), axis=1)
            self.basis = vecs * np.where(vecs[[0, 1], big] < 0, -1.0, 1.0)[:, None]
            self.share = 1.0
            shift = -self.basis @ self.mean
        else:
            self.basis, self.share = plane_axes(w, scatter=C)
            norm = float(np.linalg.norm(w))
            shift = np.array([b / norm, -self.basis[1] @ self.mean])
        self.shift = shift
        # the point of R^M drawn at the plane's (0, 0), in the plane through the mean
        self.x0 = self.mean - self.basis.T @ (self.basis @ self.mean + shift)

    def points(self, P) -> np.ndarray:
        """Points of ``R^M`` (shape (m, M)) in the plane's coordinates (shape (m, 2))."""
        P = np.asarray(P, dtype=float).reshape(-1, self.M)
        return P @ self.basis.T + self.shift

    def hyperplane(self, w, b) -> tuple[np.ndarray, float]:
        """The hyperplane ``<w, x> + b = 0`` cut with the plane, as ``(w', b')`` of the plane's
        coordinates (``w' = 0``: parallel to the plane, no line)."""
        w = np.asarray(w, dtype=float)
        return self.basis @ w, float(w @ self.x0 + float(b))

    def comparison(self, cmp: MarginComparison) -> MarginComparison:
        """``cmp`` as the plane draws it: the SVM's and the perceptron's ``(w, b)`` cut with
        the plane, the slack segments' ends and the certificate's point projected (margins,
        slacks, dual weights and counts unchanged)."""
        svm = cmp.svm
        if svm is not None:
            w, b = self.hyperplane(svm.w, svm.b)
            svm = dataclasses.replace(svm, w=w, b=b)
        wp, bp = self.hyperplane(cmp.perceptron_w, cmp.perceptron_b)
        cert = cmp.certificate
        if cert is not None:
            cert = dataclasses.replace(cert, point=self.points(cert.point)[0])
        return dataclasses.replace(
            cmp, svm=svm, perceptron_w=wp, perceptron_b=bp, certificate=cert,
            slack_start=self.points(cmp.slack_start), slack_end=self.points(cmp.slack_end))

    def words(self) -> tuple[str, str, str]:
        """The plane's title and its axes' labels (in the current language)."""
        M = self.M
        if self.kind == "pca":
            return (tr_n("{M} feature, first two principal directions",
                         "{M} features, first two principal directions", M).format(M=M),
                    tr("principal direction 1"), tr("principal direction 2"))
        title = (tr_n("{M} feature, in the plane of w", "{M} features, in the plane of w", M)
                 if self.kind == "svm" else
                 tr_n("{M} feature, in the plane of the perceptron's w",
                      "{M} features, in the plane of the perceptron's w", M))
        return title.format(M=M), tr("along w (exact distance)"), tr("across w")

    def legend_words(self, *, parts: str = "both") -> str:
        """What the plane's distances are, for a plane legend's heading: a plane showing
        ``parts`` "both" separators (whose title says what the plane is), or one of them side
        by side ("svm", "perceptron"; their narrow titles do not)."""
        M = self.M
        if self.kind == "pca":
            return (tr_n("{M} feature: a projection, no distance exact",
                         "{M} features: a projection, no distance exact", M).format(M=M)
                    if parts != "both" else
                    tr("a projection of the data: no distance in it is exact"))
        if parts == "both":
            return (tr("along w: exact distances to the max-margin line;\nother lines: where "
                       "their hyperplanes cut this plane") if self.kind == "svm" else
                    tr("along w: exact distances to the perceptron's line;\nother lines: where "
                       "their hyperplanes cut this plane"))
        if parts == "svm" or self.kind == "perceptron":
            return (tr_n("{M} feature, in the plane of w:\nexact distances along w",
                         "{M} features, in the plane of w:\nexact distances along w", M)
                    if self.kind == "svm" else
                    tr_n("{M} feature, in the plane of the perceptron's w:\nexact distances "
                         "along w", "{M} features, in the plane of the perceptron's w:\nexact "
                         "distances along w", M)).format(M=M)
        return tr_n("{M} feature, in the SVM's plane of w:\nthe perceptron's hyperplane where "
                    "it cuts it", "{M} features, in the SVM's plane of w:\nthe perceptron's "
                    "hyperplane where it cuts it", M).format(M=M)
