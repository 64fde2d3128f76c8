"""Hardt & Recht's perceptron run to convergence, ``gamma(S)``, and the proof's leave-one-out.

:func:`margin_run` is the rule of Hardt & Recht (2022), ch. 3, "From mistake bounds to
generalization": margin rule, ``eta = 1``, no offset, ``w_0 = 0``, cyclic passes until a pass
without margin mistakes. :func:`leave_one_out` exchanges training and test points on one
sample as their proof does, whose counts obey ``loo.sum() <= m(S) <= (2 + D^2) / gamma(S)^2``.
The simulation that uses both: :mod:`explorer.generalization.curve`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..shared.validation import check_X_y

__all__ = ["margin_run", "LeaveOneOut", "leave_one_out"]


def _gamma_S(X, y) -> float:
    """``gamma(S)`` for separators through the origin (hard-margin SVM, no offset)."""
    from ..shared.svm import dataset_margin

    return dataset_margin(X, y, fit_intercept=False)


@dataclass(frozen=True)
class _Run:
    w: np.ndarray
    updates: np.ndarray  # index of the point of each update, in order
    converged: bool

    @property
    def n_updates(self) -> int:
        return int(len(self.updates))


def margin_run(X, y, *, max_epochs: int) -> _Run:
    """Hardt & Recht's perceptron to convergence: from ``w = 0``, cyclic passes over the points,
    ``w <- w + y_i x_i`` whenever ``y_i <w, x_i> < 1``, until a pass without margin mistakes.

    The same steps as ``explorer.perceptron.train(X, y, rule="margin", fit_intercept=False,
    order="cyclic")`` (the tests check it against that), written here because a small random
    training set may hold one class only, which ``train`` refuses and this rule handles.
    Each pass scans the points after the last update with one matrix-vector product.
    """
    Z = y[:, None] * X
    n = len(Z)
    w = np.zeros(X.shape[1])
    updates = []
    for _ in range(max_epochs):
        pos, changed = 0, False
        while pos < n:
            hit = np.flatnonzero(Z[pos:] @ w < 1.0)
            if hit.size == 0:
                break
            i = pos + int(hit[0])
            w = w + Z[i]
            updates.append(i)
            changed = True
            pos = i + 1
        if not changed:
            return _Run(w, np.asarray(updates, dtype=np.int64), True)
    return _Run(w, np.asarray(updates, dtype=np.int64), bool(np.all(Z @ w >= 1.0)))


def _run(X, y, max_epochs):
    return margin_run(X, y, max_epochs=max_epochs)


@dataclass(frozen=True)
class LeaveOneOut:
    """The proof's exchange of training and test points on one sample ``S`` of ``N`` points.

    ``loo[k]`` is 1 when the run on ``S`` without point ``k`` makes a margin mistake on it;
    ``mistakes`` is ``m(S)``, the run on all of ``S``; ``bound`` is ``(2 + D^2) / gamma(S)^2``.
    Hardt & Recht show ``loo.sum() <= mistakes <= bound`` for every sample.
    """

    loo: np.ndarray
    mistakes: int
    bound: float
    updated: np.ndarray


def leave_one_out(X, y, *, max_epochs: int = 10_000) -> LeaveOneOut:
    """Leave each point out in turn, retrain (margin rule, cyclic, to convergence), test it.

    Only points that caused an update in the run on all of ``S`` are retrained: removing any
    other point leaves the cyclic run unchanged, which is the heart of the proof (and is checked
    by the tests by retraining every point). ``N <= 2000``.
    """
    X, y = check_X_y(X, y, require_both=False)
    if len(X) > 2000:
        raise ValueError(f"leave_one_out retrains once per point; expected at most 2000; "
                         f"got {len(X)}")
    full = _run(X, y, max_epochs)
    if not full.converged:
        raise ValueError("the perceptron did not converge on S: expected separable data "
                         "(through the origin)")
    updated = np.unique(full.updates)
    loo = np.zeros(len(X))
    for k in updated:
        keep = np.arange(len(X)) != k
        run = _run(X[keep], y[keep], max_epochs)
        loo[k] = float(y[k] * (X[k] @ run.w) < 1.0)
    D2 = float(np.max(np.einsum("ij,ij->i", X, X)))
    g = _gamma_S(X, y)
    return LeaveOneOut(loo=loo, mistakes=full.n_updates, bound=(2.0 + D2) / g**2,
                       updated=updated)
