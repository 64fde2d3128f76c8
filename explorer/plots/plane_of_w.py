"""The data plane of a run on data with more than two features: at every step, the plane that
contains that step's ``w`` (``docs/mathematics.md#exact-views``).

The data plane draws two coordinates. With ``M > 2`` features a run is drawn, step by step, in
the plane spanned by the step's ``w`` and the data's leading direction orthogonal to it
(:func:`explorer.shared.exact_views.plane_axes`): the boundary is then a true line, every
point's distance across it is exact, and the points move when ``w`` turns (at an update).
Before the first update (``w = 0``: no boundary yet) the plane is the data's first two
principal directions. Coordinates are measured from the data's mean, so that the points stay
in view when the data lie far from the origin; the origin of ``R^M``, where the update arrow
``eta y x`` starts, is at ``-B mean`` (``B`` the step's basis), and may be out of view.

:class:`PlaneOfW` gives each step's basis and the points' coordinates in it, and maps a
:class:`~explorer.perceptron.replay.StepFrame`'s vectors into the plane, so that the data
plane draws the step as it draws two-dimensional data.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..perceptron.replay import StepFrame
from ..perceptron.trajectory import Trajectory
from ..shared.exact_views import plane_axes, scatter

#: Distinct weight vectors whose planes are all measured for the axes' box; a longer run's
#: box is measured on this many, evenly spread (and the last), then padded.
BOX_STATES = 400


class PlaneOfW:
    """Each step's plane for a run on ``X`` (shape (n, M), M > 2).

    Parameters
    ----------
    traj : Trajectory
    X : ndarray of shape (n, M)
    """

    def __init__(self, traj: Trajectory, X):
        self.traj = traj
        self.X = np.asarray(X, dtype=float)
        self.M = self.X.shape[1]
        self._scatter = scatter(self.X)
        self.mean = self.X.mean(axis=0)
        vals, vecs = np.linalg.eigh(self._scatter)
        first = vecs[:, ::-1][:, :2].T
        signs = np.where(first[np.arange(2), np.argmax(np.abs(first), axis=1)] < 0, -1.0, 1.0)
        self._start = first * signs[:, None]  # the plane while w = 0
        self._bases: dict[bytes, tuple[np.ndarray, float]] = {}
        self.box = self._box()

    def basis(self, k: int) -> np.ndarray:
        """The basis ``(2, M)`` of step ``k``'s plane (rows: ``w / ||w||``, then across)."""
        return self._basis_of(self.traj.state(int(k))[0])[0]

    def share(self, k: int) -> float:
        """The share of the data's spread across ``w`` that step ``k``'s second axis shows."""
        return self._basis_of(self.traj.state(int(k))[0])[1]

    def _basis_of(self, w) -> tuple[np.ndarray, float]:
        w = np.asarray(w, dtype=float)
        key = w.tobytes()
        if key not in self._bases:
            if not np.any(w):
                self._bases[key] = (self._start, 1.0)
            else:
                self._bases[key] = plane_axes(w, scatter=self._scatter)
        return self._bases[key]

    def _shift(self, B) -> np.ndarray:
        """Where the plane's coordinates start: the data's mean, ``B mean``."""
        return B @ self.mean

    def coords(self, k: int) -> np.ndarray:
        """The points' coordinates ``(n, 2)`` in step ``k``'s plane, ``B (x - mean)``."""
        B = self.basis(k)
        return self.X @ B.T - self._shift(B)

    def origin(self, k: int) -> np.ndarray:
        """The origin of ``R^M`` in step ``k``'s plane coordinates."""
        return -self._shift(self.basis(k))

    def map_frame(self, f: StepFrame) -> StepFrame:
        """``f`` in the coordinates of step ``f.k``'s plane (the plane through the data's mean
        spanned by the basis): its vectors (``w``, ``w_prev``, the update, the kept classifier)
        projected, and each hyperplane cut with the plane, ``<w', p> + b' = <w, x> + b`` for
        the point ``x = mean + B' p`` of the plane (``w' = B w``, ``b' = b + <w, mean>``): the
        data plane draws the step as it draws two-dimensional data. The step's own ``w`` lies
        in its plane, so its boundary's distances are every point's true ones."""
        B = self.basis(f.k)

        def inner(v):
            return None if v is None else B @ np.asarray(v, dtype=float)

        def offset(w, b):
            return None if w is None or b is None else float(b) + float(np.asarray(w) @ self.mean)

        return dataclasses.replace(
            f, w=inner(f.w), b=offset(f.w, f.b), w_prev=inner(f.w_prev),
            b_prev=offset(f.w_prev, f.b_prev), update_vector=inner(f.update_vector),
            kept_w=inner(f.kept_w), kept_b=offset(f.kept_w, f.kept_b))

    def _box(self) -> tuple[float, float, float, float]:
        """Axes limits holding the points in every step's plane (measured on at most
        :data:`BOX_STATES` distinct states, padded when there are more)."""
        W = self.traj.weights  # one row per distinct state: the start, then each update
        _, first = np.unique(W, axis=0, return_index=True)
        order = np.sort(first)
        many = len(order) > BOX_STATES
        if many:
            order = order[np.linspace(0, len(order) - 1, BOX_STATES).round().astype(int)]
        pts = np.vstack([self.X @ B.T - self._shift(B)
                         for B in (self._basis_of(W[i])[0] for i in order)])
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        center, half = (lo + hi) / 2, max(float((hi - lo).max()), 1e-9) / 2
        half *= 1.3 if not many else 1.45
        return (center[0] - half, center[0] + half, center[1] - half, center[1] + half)
