"""The kernel perceptron: the classic perceptron written in dual form, with a polynomial kernel.

Started from ``w = 0``, the classic perceptron's weights are always a sum of the points it
updated on, ``w = sum_j alpha_j y_j x_j`` where ``alpha_j`` counts the updates made on point
``j`` (Sayed's dual form of the SVM, eq. (61.44), has the same shape). The score
``f(x) = sum_j alpha_j y_j <x_j, x>`` needs only inner products, so replacing ``<x, x'>`` by a
kernel ``K(x, x') = (<x, x'> + c)^d`` runs the perceptron on all monomials of degree at most
``d`` without ever forming them (Aizerman, Braverman and Rozonoer, 1964; beyond the sources,
which add the product feature by hand: Hardt & Recht (2022), ch. 3). For ``d = 2, c > 0`` the
features include ``x1 x2``, in which XOR is separable, so the run converges; ``c > 0`` also
plays the role of the offset ``b`` (a constant feature), so no separate ``b`` is learned.

Update: visit ``i``; if ``y_i f(x_i) <= 0`` then ``alpha_i += 1`` (a step size would only scale
``f`` and changes nothing). See ``docs/mathematics.md#kernel-perceptron``.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from ..shared.validation import check_int, check_X_y

__all__ = ["KernelRun", "polynomial_kernel", "train_kernel", "decision_grid", "MAX_DEGREE",
           "MAX_POINTS", "MAX_KERNEL_STEPS", "MAX_GRID"]

MAX_DEGREE = 6
MAX_POINTS = 2000
MAX_KERNEL_STEPS = 200_000
MAX_GRID = 400
MAX_C = 100.0
#: Largest size of a kernel value times the number of steps: the scores ``f`` are sums of
#: kernel values, one per update, and must stay finite.
MAX_SCORE = 1e300


def _check_degree(degree) -> int:
    if isinstance(degree, str):
        raise TypeError(f"kernel degree must be an integer from 1 to {MAX_DEGREE}; got text "
                        f"{degree!r}")
    return check_int(degree, name="kernel degree", minimum=1, maximum=MAX_DEGREE)


def _check_c(c) -> float:
    if isinstance(c, bool) or not isinstance(c, numbers.Real) or not np.isfinite(c):
        raise TypeError(f"kernel constant c must be a finite number; got {c!r}")
    if not 0.0 <= float(c) <= MAX_C:
        raise ValueError(f"kernel constant c must be in [0, {MAX_C:g}]; got {c}")
    return float(c)


def polynomial_kernel(A, B, *, degree: int = 2, c: float = 1.0) -> np.ndarray:
    """``K[i, j] = (<a_i, b_j> + c)^degree``, shape ``(len(A), len(B))``.

    Parameters
    ----------
    A : array-like of shape (m, d); B : array-like of shape (p, d)
    degree : int in [1, 6], default 2
    c : float in [0, 100], default 1.0
    """
    degree, c = _check_degree(degree), _check_c(c)
    A = np.atleast_2d(np.asarray(A, dtype=float))
    B = np.atleast_2d(np.asarray(B, dtype=float))
    if A.shape[1] != B.shape[1]:
        raise ValueError(f"kernel arguments must have the same number of features; got "
                         f"{A.shape[1]} and {B.shape[1]}")
    with np.errstate(over="ignore", invalid="ignore"):
        K = (A @ B.T + c) ** degree
    if not np.all(np.isfinite(K)):
        raise ValueError(f"kernel values overflow: (<a, b> + c)^{degree} is not finite for these "
                         f"points (sizes up to {max(np.abs(A).max(), np.abs(B).max()):.3g}); "
                         "expected smaller points or a lower degree")
    return K


@dataclass(frozen=True)
class KernelRun:
    """A whole kernel-perceptron run: the dual weights after every update.

    Attributes
    ----------
    X : ndarray (n, d); y : ndarray (n,)
    degree : int; c : float
    picked : ndarray (n_steps,), int
        Point visited at each step (cyclic passes).
    updated : ndarray (n_steps,), bool
    update_steps : ndarray (n_updates,), int
        1-based steps that updated.
    alphas : ndarray (n_updates + 1, n), int
        Row ``u``: the dual weights (update counts per point) after update ``u``.
    converged : bool
        A full pass made no update.
    """

    X: np.ndarray
    y: np.ndarray
    degree: int
    c: float
    picked: np.ndarray
    updated: np.ndarray
    update_steps: np.ndarray
    alphas: np.ndarray
    converged: bool

    @property
    def n_steps(self) -> int:
        return int(self.updated.shape[0])

    @property
    def n_updates(self) -> int:
        return int(self.update_steps.shape[0])

    def _check_step(self, k) -> int:
        if isinstance(k, bool) or not isinstance(k, numbers.Integral):
            raise TypeError(f"step k must be an integer; got {type(k).__name__}")
        if not 0 <= int(k) <= self.n_steps:
            raise ValueError(f"step k must be in [0, {self.n_steps}]; got {k}")
        return int(k)

    def updates_until(self, k: int) -> int:
        """Updates made in steps ``1..k``."""
        return int(np.searchsorted(self.update_steps, self._check_step(k), side="right"))

    def alpha(self, k: int) -> np.ndarray:
        """Dual weights after step ``k``, shape (n,)."""
        return self.alphas[self.updates_until(k)].copy()

    def decision(self, k: int, points) -> np.ndarray:
        """``f(x) = sum_j alpha_j y_j K(x_j, x)`` after step ``k`` at ``points`` (m, d)."""
        a = self.alpha(k) * self.y
        P = np.atleast_2d(np.asarray(points, dtype=float))
        keep = a != 0
        if not keep.any():
            return np.zeros(P.shape[0])
        return polynomial_kernel(P, self.X[keep], degree=self.degree, c=self.c) @ a[keep]

    def predict(self, k: int, points) -> np.ndarray:
        """Labels after step ``k``: +1 where ``f >= 0``, else -1."""
        return np.where(self.decision(k, points) >= 0, 1.0, -1.0)


def train_kernel(X, y, *, degree: int = 2, c: float = 1.0, max_epochs: int = 50) -> KernelRun:
    """Run the kernel perceptron in cyclic passes from ``alpha = 0``; record every update.

    Parameters
    ----------
    X : array-like (n, d); y : array-like (n,) in {-1, +1} (one class allowed)
    degree : int in [1, 6]; c : float in [0, 100]
        The polynomial kernel ``(<x, x'> + c)^degree``.
    max_epochs : int in [1, 10000]
        Passes at most; the run stops earlier after a pass without an update. At most
        ``MAX_KERNEL_STEPS`` steps in all.
    """
    degree, c = _check_degree(degree), _check_c(c)
    Xa, ya = check_X_y(X, y, require_both=False)
    n = Xa.shape[0]
    if n > MAX_POINTS:
        raise ValueError(f"the kernel perceptron takes at most {MAX_POINTS} points; got {n}")
    max_epochs = check_int(max_epochs, name="max_epochs", minimum=1, maximum=10_000)
    if max_epochs * n > MAX_KERNEL_STEPS:
        raise ValueError(f"max_epochs x points must be at most {MAX_KERNEL_STEPS}; "
                         f"got {max_epochs} x {n}")
    K = polynomial_kernel(Xa, Xa, degree=degree, c=c)
    top = float(np.abs(K).max())
    if top * max_epochs * n > MAX_SCORE:
        raise ValueError(f"kernel values overflow: {max_epochs * n:,} steps of kernel values up to "
                         f"{top:.3g} could carry the scores past {MAX_SCORE:g}; expected smaller "
                         "points, a lower degree or fewer epochs")
    alpha = np.zeros(n, dtype=np.int64)
    f = np.zeros(n)  # f(x_i) for every i, kept up to date
    rows, steps, picked, updated = [alpha.copy()], [], [], []
    converged = False
    s = 0
    for _ in range(max_epochs):
        changed = False
        for i in range(n):
            s += 1
            picked.append(i)
            if ya[i] * f[i] <= 0:
                alpha[i] += 1
                f += ya[i] * K[i]
                rows.append(alpha.copy())
                steps.append(s)
                updated.append(True)
                changed = True
            else:
                updated.append(False)
        if not changed:
            converged = True
            break
    out = KernelRun(Xa, ya, degree, c, np.array(picked, dtype=np.int32),
                    np.array(updated, dtype=bool), np.array(steps, dtype=np.int64),
                    np.array(rows, dtype=np.int64), converged)
    for arr in (out.X, out.y, out.picked, out.updated, out.update_steps, out.alphas):
        arr.setflags(write=False)
    return out


def decision_grid(run: KernelRun, k: int, box, *, resolution: int = 120):
    """The decision function after step ``k`` on a regular grid over ``box``.

    Parameters
    ----------
    box : (xmin, xmax, ymin, ymax); resolution : int in [2, 400]

    Returns
    -------
    xs : ndarray (resolution,); ys : ndarray (resolution,); F : ndarray (resolution, resolution)
        ``F[j, i] = f((xs[i], ys[j]))`` (rows follow y, as ``imshow`` expects).
    """
    resolution = check_int(resolution, name="resolution", minimum=2, maximum=MAX_GRID)
    if not isinstance(run, KernelRun):
        raise TypeError(f"run: expected a KernelRun from train_kernel; got {type(run).__name__}")
    if run.X.shape[1] != 2:
        raise ValueError(f"a decision grid needs 2-D points; got {run.X.shape[1]}-D")
    try:
        xmin, xmax, ymin, ymax = (float(v) for v in box)
    except (TypeError, ValueError):
        raise ValueError(f"box must be (xmin, xmax, ymin, ymax), four numbers; got {box!r}") from None
    if not all(np.isfinite([xmin, xmax, ymin, ymax])):
        raise ValueError(f"box must be four finite numbers; got {box}")
    if not (xmax > xmin and ymax > ymin):
        raise ValueError(f"box must have xmax > xmin and ymax > ymin; got {box}")
    xs = np.linspace(xmin, xmax, resolution)
    ys = np.linspace(ymin, ymax, resolution)
    gx, gy = np.meshgrid(xs, ys)
    F = run.decision(k, np.column_stack([gx.ravel(), gy.ravel()])).reshape(gy.shape)
    return xs, ys, F
