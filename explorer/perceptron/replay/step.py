"""What a run holds at step ``k`` besides its weights: the :class:`StepFrame` record a view draws.

:class:`StepFrame` is what :func:`explorer.perceptron.replay.frame` returns; here also the classifier the
pocket and averaged rules keep beside the current iterate (:func:`kept_classifier`), the points
that still fail the rule's test, and the check that ``(X, y)`` can be a run's data.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine import mistakes
from ..rules import get_rule
from ..trajectory import Trajectory

__all__ = ["StepFrame", "kept_classifier", "mistake_steps"]


@dataclass(frozen=True)
class StepFrame:
    """Everything a view draws for step ``k``.

    Attributes
    ----------
    k, n_steps : int
        This step and the run's length (``k = 0`` is the start).
    w, b : ndarray (d,), float
        State after step ``k``.
    w_prev, b_prev : ndarray (d,), float
        State before step ``k`` (equal to ``w, b`` at ``k = 0``).
    picked : tuple of int
        Indices visited at step ``k`` (empty at ``k = 0``; several for a mini-batch).
    triggered : tuple of int
        The picked indices that met the update condition.
    updated : bool
    margins : ndarray
        ``y_i f(x_i)`` of the picked points under the previous state.
    update_vector : ndarray (d,) or None
        The correction added to the (decayed) weights, e.g. ``eta y x`` for the classic rule.
    n_updates : int
        Updates in steps ``1..k``.
    text : str
        One-line narration.
    kept_w, kept_b : ndarray (d,) and float, or None
        The classifier the rule reports besides the current iterate: for the pocket rule the
        iterate with the fewest training mistakes among updates ``0..n_updates`` (the earliest
        on a tie, as :func:`explorer.perceptron.train` keeps ``pocket_w``); for the averaged
        rule the mean of the iterates over steps ``1..k``. None for the other rules.
    kept_kind : {"pocket", "averaged"} or None
    kept_errors : int or None
        Training points the kept classifier gets wrong (predict +1 iff ``f(x) >= 0``).
    failing : tuple of int
        Points that fail the rule's test ``y f(x) <= t`` (``< t`` for strict rules) at the
        state after step ``k``: the learner's choices in "you choose" mode.
    """

    k: int
    n_steps: int
    w: np.ndarray
    b: float
    w_prev: np.ndarray
    b_prev: float
    picked: tuple
    triggered: tuple
    updated: bool
    margins: np.ndarray
    update_vector: np.ndarray | None
    n_updates: int
    text: str
    kept_w: np.ndarray | None = None
    kept_b: float | None = None
    kept_kind: str | None = None
    kept_errors: int | None = None
    failing: tuple = ()


def kept_classifier(traj: Trajectory, X, y, k: int):
    """The pocket or averaged classifier at step ``k``: ``(w, b, kind, mistakes)``.

    Pocket: among the iterates after updates ``0..u(k)``, the one with the lowest training
    error, the earliest on a tie (a later iterate replaces the pocket only when strictly
    better; Gallant; Sayed, eq. (60.45)). Averaged: :meth:`Trajectory.averaged_state`.
    Returns ``(None, None, None, None)`` for the other rules.
    """
    if traj.rule == "pocket" and traj.errors is not None:
        u = traj.updates_until(k)
        best = int(np.argmin(traj.errors[: u + 1]))
        w, b = traj.weights[best].copy(), float(traj.biases[best])
    elif traj.rule == "averaged":
        w, b = traj.averaged_state(k)
    else:
        return None, None, None, None
    return w, b, traj.rule, mistakes(X, y, w, b)


def mistake_steps(traj: Trajectory, X, y) -> np.ndarray:
    """The steps at which the run met a mistake: a visited point with ``y·f(x) <= 0`` under the
    weights before the step (misclassified, or on the boundary), whether or not the rule
    updated there.

    An update is not a mistake: the margin perceptron, the SVM by SGD and relaxation also
    update on points classified right but within their threshold (``0 < y·f(x) < 1``). A step
    of a mini-batch appears once per mistaken point, so the count can pass the steps'. When the
    rule's condition covers every mistake (``t > 0``, or ``t = 0`` with ``<=``) only the update
    steps are checked.

    Returns
    -------
    ndarray of int64
        1-based steps, increasing (repeated for several mistakes in one batch).
    """
    X, y = _run_data(traj, X, y)
    t, strict = traj.threshold, get_rule(traj.rule).strict
    covers = t > 0 or (t == 0 and not strict)
    ks = np.asarray(traj.update_steps if covers else np.arange(1, traj.n_steps + 1), np.int64)
    if not len(ks):
        return np.zeros(0, dtype=np.int64)
    W, B = traj.states(ks - 1)
    rows = np.asarray(traj.picked)[ks - 1].reshape(len(ks), -1)  # (steps, batch), -1 padded
    valid = rows >= 0
    idx = np.where(valid, rows, 0)
    # as frame() computes the visited points' margins: y (<w, x> + b) at the previous state
    z = y[idx] * (np.einsum("mbd,md->mb", X[idx], W) + B[:, None])
    return np.repeat(ks, np.sum(valid & (z <= 0), axis=1)).astype(np.int64)


def _run_data(traj, X, y):
    """Check that ``(X, y)`` can be the data of ``traj``; return them as float arrays.

    Cheap enough for every frame: shapes only (the run validated the values).
    """
    if not isinstance(traj, Trajectory):
        raise TypeError(f"traj: expected a Trajectory from explorer.perceptron.train; got "
                        f"{type(traj).__name__}")
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float).reshape(-1)
    if X.ndim == 1:
        X = X.reshape(-1, 1)
    if X.ndim != 2 or X.shape[1] != traj.dim:
        raise ValueError(f"X must have {traj.dim} features, as in the run; got shape {X.shape}")
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"X and y must have the same number of points; got {X.shape[0]} and "
                         f"{y.shape[0]}")
    return X, y


def _failing(traj: Trajectory, X, y, w, b) -> tuple:
    z = y * (X @ w + b)
    return tuple(int(i) for i in np.flatnonzero(get_rule(traj.rule).triggers(z, traj.threshold)))
