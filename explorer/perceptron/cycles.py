"""Exact runs of the classic (and pocket) perceptron, and the cycle a non-separable run enters.

On data that no line separates, the classic perceptron never stops updating
(``docs/mathematics.md#cycling``). With a deterministic visiting order (cyclic passes or a fixed
sequence) and rational data, its state ``(w, b, position in the order)`` can take only finitely many
values on a bounded run, so once the weights stop growing the run must come back to a state it
has been in before, and from there it repeats for ever. :func:`exact_run` finds that first
repeat exactly: every number is a :class:`fractions.Fraction` (a float is a dyadic rational, so
``Fraction(x)`` is exact), states are compared for equality, never within a tolerance.

For XOR in +-1 coding, cyclic order, from ``w = 0``: the four updates of the first pass bring
the weights back to ``(0, 0), b = 0`` before point 1 again, so the state after step 4 equals
the start: a cycle of length 4 found at step 4.

The run is also returned as an ordinary :class:`explorer.perceptron.trajectory.Trajectory` (rule
``"classic"`` or ``"pocket"``), so views replay it like any other run. Unlike
:func:`explorer.perceptron.train`, one class only is accepted (the constant Boolean functions).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..shared.validation import MAX_ABS, as_features, as_labels, check_bool, check_int, check_positive
from .trajectory import Trajectory

__all__ = ["Cycle", "ExactRun", "exact_run", "find_cycle", "stopped_text", "MAX_STEPS", "MAX_CELLS"]

#: Most steps one exact run may take (Fractions are slow; the tab's data have 4 points).
MAX_STEPS = 200_000
#: Most numbers (points x features) an exact run accepts.
MAX_CELLS = 4096


@dataclass(frozen=True)
class Cycle:
    """The first repeated state of a run (``found``), or why there is none.

    Attributes
    ----------
    found : bool
        A state ``(w, b, position)`` came back: the run repeats for ever from ``start_step``.
    start_step : int or None
        ``s``: the state after step ``s`` is the one that recurs (0 = the start).
    step : int or None
        ``t = s + length``: the first step after which a state seen before recurs.
    length : int or None
        ``k = t - s``: the period in steps.
    updates : int or None
        Updates made within one period.
    w, b : tuple of Fraction, Fraction, or None
        The recurring weights and offset, exactly.
    position : int or None
        Position in the visiting order (0-based) of the next point to visit in that state.
    converged : bool
        The run converged instead (a full pass without an update): no cycle.
    message : str
        One sentence for a person, e.g. "cycle of length 4 found at step 4".
    exact : bool
        States were compared for equality (always for :func:`exact_run`; for
        :func:`explorer.perceptron.repeats.run_cycle`, when the run's floating-point arithmetic is exact).
    tolerance : float or None
        Otherwise, the largest difference (absolute, in every coordinate of ``(w, b)``) at
        which two states counted as the same.
    """

    found: bool
    start_step: int | None
    step: int | None
    length: int | None
    updates: int | None
    w: tuple | None
    b: Fraction | None
    position: int | None
    converged: bool
    message: str
    exact: bool = True
    tolerance: float | None = None


@dataclass(frozen=True)
class ExactRun:
    """A run computed exactly: its trajectory (floats, for drawing) and its cycle."""

    trajectory: Trajectory
    cycle: Cycle


def _fractions(values) -> list:
    return [Fraction(float(v)) for v in np.asarray(values, dtype=float).ravel()]


def _order(order, n: int) -> list:
    if isinstance(order, str):
        if order != "cyclic":
            raise ValueError(f"order must be 'cyclic' or a sequence of point indices (a random "
                             f"order has no exact cycle); got {order!r}")
        return list(range(n))
    if isinstance(order, (str, bytes)) or not hasattr(order, "__len__") or len(order) == 0:
        raise ValueError(f"order must be 'cyclic' or a non-empty sequence of indices; got {order!r}")
    seq = []
    for v in order:
        if isinstance(v, bool) or not isinstance(v, numbers.Integral):
            raise TypeError(f"order indices must be integers; got {v!r}")
        if not 0 <= int(v) < n:
            raise ValueError(f"order indices must be in [0, {n - 1}] for {n} points; got {v}")
        seq.append(int(v))
    return seq


def exact_run(X, y, *, eta: float = 1.0, order="cyclic", w0=None, b0: float = 0.0,
              fit_intercept: bool = True, rule: str = "classic", max_steps: int = 1000,
              stop_at_cycle: bool = False) -> ExactRun:
    """Run the classic perceptron exactly and find the first repeated state.

    The update (Sayed, eq. (60.26); ``docs/mathematics.md#classic-rule``): at step ``s`` visit the point
    ``i = order[(s - 1) mod L]``; if ``y_i (<w, x_i> + b) <= 0`` then ``w += eta y_i x_i`` and
    ``b += eta y_i`` (``b`` stays at ``b0`` when ``fit_intercept`` is False).

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : array-like of shape (n,), values in {-1, +1} (one class only is allowed)
    eta : float > 0, default 1.0
    order : "cyclic" or sequence of int
        Cyclic passes in index order, or one pass given as indices, repeated.
    w0 : array-like of shape (d,), optional; b0 : float
        The start (zeros by default).
    fit_intercept : bool, default True
    rule : {"classic", "pocket"}
        ``"pocket"`` makes the same iterates and also records the training error after each
        update and the best iterate (Gallant; Sayed, eq. (60.45)).
    max_steps : int in [1, MAX_STEPS], default 1000
        Steps at most. A cycle found earlier is still played on to ``max_steps`` (so a view can
        show the update count climbing) unless ``stop_at_cycle``.
    stop_at_cycle : bool
        End the run at the first repeated state.

    Returns
    -------
    ExactRun
        ``trajectory`` and ``cycle``. The run stops after a pass of ``order`` without an
        update (from there its state never changes): stop reason "converged" when every point
        then passes the test, "no_update_pass" when a point the order never visits fails it
        (as in :func:`explorer.perceptron.train`); else "max_steps".
    """
    Xa, ya, eta, fit_intercept, max_steps, seq, w0a = _exact_inputs(
        X, y, eta=eta, order=order, w0=w0, b0=b0, fit_intercept=fit_intercept, rule=rule,
        max_steps=max_steps)
    d = Xa.shape[1]
    w = [Fraction(0)] * d if w0a is None else _fractions(w0a)
    _check_exact_growth(Xa, w, b0, eta=eta, fit_intercept=fit_intercept, max_steps=max_steps)
    run = _exact_loop(Xa, ya, w, Fraction(float(b0)), eta=eta, seq=seq,
                      fit_intercept=fit_intercept, pocket=rule == "pocket", max_steps=max_steps,
                      stop_at_cycle=stop_at_cycle)
    traj = _exact_trajectory(run, d=d, rule=rule, eta=eta, order=order, seq=seq, w0a=w0a,
                             b0=b0, fit_intercept=fit_intercept, max_steps=max_steps)
    return ExactRun(traj, _cycle(run.cycle, run.converged, run.quiet_pass, run.steps,
                                 len(run.update_steps), max_steps))


def _exact_inputs(X, y, *, eta, order, w0, b0, fit_intercept, rule, max_steps):
    """Check :func:`exact_run`'s arguments once, in the order of its signature's meaning.

    Returns the data as arrays, the checked ``eta``, ``fit_intercept`` and ``max_steps``, the
    visiting order as a list of indices and ``w0`` as floats (None for the zero start).
    """
    Xa = as_features(X)
    ya = as_labels(y, require_both=False)
    n, d = Xa.shape
    if ya.shape[0] != n:
        raise ValueError(f"X and y must have the same number of points; got {n} and {ya.shape[0]}")
    if n * d > MAX_CELLS:
        raise ValueError(f"an exact run takes at most {MAX_CELLS} numbers (points x features); "
                         f"got {n} x {d}")
    eta = check_positive(eta, name="eta")
    if rule not in ("classic", "pocket"):
        raise ValueError(f"rule must be 'classic' or 'pocket'; got {rule!r}")
    fit_intercept = check_bool(fit_intercept, name="fit_intercept")
    max_steps = check_int(max_steps, name="max_steps", minimum=1, maximum=MAX_STEPS)
    seq = _order(order, n)
    w0a = None
    if w0 is not None:
        w0a = np.asarray(w0, dtype=float).ravel()
        if w0a.shape != (d,) or not np.all(np.isfinite(w0a)):
            raise ValueError(f"w0 must be {d} finite numbers; got {w0!r}")
    if isinstance(b0, bool) or not isinstance(b0, numbers.Real) or not np.isfinite(b0):
        raise TypeError(f"b0 must be a finite number; got {b0!r}")
    return Xa, ya, eta, fit_intercept, max_steps, seq, w0a


def _check_exact_growth(Xa, w, b0, *, eta, fit_intercept, max_steps):
    """Refuse a run whose weights (exact, but also returned as floats) could overflow."""
    H = float(np.sqrt(np.max(np.einsum("ij,ij->i", Xa, Xa)) + (1.0 if fit_intercept else 0.0)))
    start = float(np.hypot(np.linalg.norm([float(v) for v in w]), float(b0)))
    bound = start + max_steps * eta * H
    if not bound <= MAX_ABS:
        raise ValueError(f"the weights could grow past {MAX_ABS:g}: {max_steps:,} steps of eta = "
                         f"{eta:g} times max ||(x, 1)|| = {H:.3g} from ||(w0, b0)|| = {start:.3g} "
                         f"reach {bound:.3g}; use a smaller eta or fewer steps")


@dataclass
class _ExactState:
    """What the exact loop records: the steps, the iterates as floats, and how it ended."""

    picked: list
    updated: list
    update_steps: list
    weights: list
    biases: list
    errors: list | None
    cycle: tuple | None = None
    converged: bool = False
    quiet_pass: bool = False
    steps: int = 0


def _exact_loop(Xa, ya, w, b, *, eta, seq, fit_intercept, pocket, max_steps,
                stop_at_cycle) -> _ExactState:
    """Play the classic update in rationals, step by step, and note the first repeated state.

    The state ``(w, b, position)`` after each step is hashed; the first one seen before (with
    an update in between) is the cycle ``(s0, s, k, updates, w, b, position)``. The run stops
    after a pass of ``seq`` without an update, at ``max_steps``, or at the cycle if
    ``stop_at_cycle``.
    """
    n, L = Xa.shape[0], len(seq)
    E = Fraction(eta)
    rows = [_fractions(r) for r in Xa]
    labels = [int(v) for v in ya]
    # sign-folded update vectors, exact
    ups = [[E * labels[i] * v for v in rows[i]] for i in range(n)]
    ub = [E * labels[i] if fit_intercept else Fraction(0) for i in range(n)]

    seen = {(tuple(w), b, 0): 0}
    run = _ExactState(picked=[], updated=[], update_steps=[], weights=[[float(v) for v in w]],
                      biases=[float(b)], errors=[_error(rows, labels, w, b)] if pocket else None)
    quiet = 0
    s = 0
    while s < max_steps:
        s += 1
        i = seq[(s - 1) % L]
        z = labels[i] * (sum(a * c for a, c in zip(w, rows[i], strict=True)) + b)
        run.picked.append(i)
        if z <= 0:
            w = [a + u for a, u in zip(w, ups[i], strict=True)]
            b = b + ub[i]
            run.updated.append(True)
            run.update_steps.append(s)
            run.weights.append([float(v) for v in w])
            run.biases.append(float(b))
            if run.errors is not None:
                run.errors.append(_error(rows, labels, w, b))
            quiet = 0
        else:
            run.updated.append(False)
            quiet += 1
        if quiet >= L:  # a pass of the order without an update: the state is fixed for ever
            run.converged = _all_fine(rows, labels, w, b)
            run.quiet_pass = True
            break
        if run.cycle is None:
            key = (tuple(w), b, s % L)
            if key in seen:
                s0 = seen[key]
                k = s - s0
                ups_in = sum(1 for t in run.update_steps if s0 < t <= s)
                if ups_in == 0:  # a quiet pass over a partial order: not a cycle of updates
                    seen[key] = s
                else:
                    run.cycle = (s0, s, k, ups_in, tuple(w), b, s % L)
                    if stop_at_cycle:
                        break
            else:
                seen[key] = s
    run.steps = s
    return run


def _exact_trajectory(run: _ExactState, *, d, rule, eta, order, seq, w0a, b0, fit_intercept,
                      max_steps) -> Trajectory:
    """The exact run as an ordinary :class:`Trajectory` (floats), with the pocket's record."""
    L = len(seq)
    params = dict(rule=rule, eta=eta, forget=1.0, rho=0.0, threshold=0.0,
                  fit_intercept=bool(fit_intercept),
                  order=order if isinstance(order, str) else list(seq),
                  w0=None if w0a is None else [float(v) for v in w0a], b0=float(b0), batch_size=1,
                  max_epochs=max(1, -(-max_steps // L)), max_steps=max_steps, seed=None,
                  exact=True)
    extra = {}
    W = np.array(run.weights, dtype=float).reshape(-1, d)
    Bv = np.array(run.biases, dtype=float)
    if run.errors is not None:
        err = np.array([float(e) for e in run.errors])
        best = int(np.argmin(err))
        extra = dict(errors=err, pocket_w=W[best].copy(), pocket_b=float(Bv[best]),
                     pocket_error=float(err[best]), pocket_update=best)
    return Trajectory(rule=rule, params=params, picked=np.array(run.picked, dtype=np.int32),
                      updated=np.array(run.updated, dtype=bool),
                      update_steps=np.array(run.update_steps, dtype=np.int64), weights=W,
                      biases=Bv, decay=1.0, converged=run.converged,
                      stop_reason=("converged" if run.converged else
                                   "no_update_pass" if run.quiet_pass else "max_steps"),
                      epochs=run.steps / L, threshold=0.0, epoch_steps=L, **extra)


def _error(rows, labels, w, b) -> Fraction:
    wrong = 0
    for r, lab in zip(rows, labels, strict=True):
        f = sum(a * c for a, c in zip(w, r, strict=True)) + b
        wrong += (1 if f >= 0 else -1) != lab
    return Fraction(wrong, len(rows))


def _all_fine(rows, labels, w, b) -> bool:
    return all(lab * (sum(a * c for a, c in zip(w, r, strict=True)) + b) > 0
               for r, lab in zip(rows, labels, strict=True))


def stopped_text(n_updates: int) -> str:
    """Why a run that stopped after a pass of its visiting order without an update has no
    cycle, while some point outside that order may still fail the test."""
    return (f"no cycle: the run stopped after a pass without an update ({n_updates} "
            f"update{'s' if n_updates != 1 else ''} in all), so its weights never change again")


def _cycle(found, converged, quiet_pass, steps, n_updates, max_steps) -> Cycle:
    if found is not None:
        s0, t, k, ups, w, b, pos = found
        text = (f"cycle of length {k} found at step {t}: the state after step {t} equals the one "
                f"after step {s0}, with {ups} update{'s' if ups != 1 else ''} per cycle, so the "
                "updates never stop")
        return Cycle(True, s0, t, k, ups, w, b, pos, False, text)
    if converged:
        return Cycle(False, None, None, None, None, None, None, None, True,
                     f"no cycle: the run converged after {n_updates} update"
                     f"{'s' if n_updates != 1 else ''} (step {steps})")
    if quiet_pass:
        return Cycle(False, None, None, None, None, None, None, None, False,
                     stopped_text(n_updates))
    return Cycle(False, None, None, None, None, None, None, None, False,
                 f"no repeated state within {max_steps} steps (the limit); run longer")


def find_cycle(X, y, **kwargs) -> Cycle:
    """The first repeated state of the exact classic run on ``(X, y)``: see :func:`exact_run`
    (same keywords; the run stops at the cycle)."""
    kwargs.setdefault("stop_at_cycle", True)
    return exact_run(X, y, **kwargs).cycle

