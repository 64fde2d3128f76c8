"""Train any perceptron-family rule and return its whole trajectory.

:func:`train` checks its input once, refuses a run that would be too long before it starts,
and hands the run to the engine of :mod:`explorer.perceptron.engine`, which scans blocks of
upcoming steps with one matrix product each: exactly the step-by-step algorithm, at the speed
of vectorised numpy. The rules and their sources: ``docs/mathematics.md#update-rules``.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..shared.validation import MAX_ABS, check_int, check_positive, check_vector, check_X_y, make_rng
from .engine import _run, training_error
from .rules import RULES, Rule, get_rule
from .trajectory import Trajectory

__all__ = ["train", "RULES", "ORDERS", "Trajectory", "training_error", "MAX_STEPS", "MAX_WORK"]

ORDERS = ("cyclic", "shuffle", "random")
#: Most steps one run may take: every step is kept in the trajectory (5 bytes), and on data
#: that are not separable nearly every step is an update (a row of ``d + 1`` numbers). At about
#: 5 µs per update on the numpy path, 2 million updating steps take some 10 s.
MAX_STEPS = 2_000_000
#: Most point visits x coordinates ``(steps x batch size) x (d + 1)`` of one run: bounds the
#: arithmetic and the stored weights (at most ``MAX_WORK`` numbers, 400 MB).
MAX_WORK = 50_000_000


def _check_order(order, n):
    if isinstance(order, str):
        if order not in ORDERS:
            raise ValueError(f"unknown order {order!r}; expected one of {list(ORDERS)} "
                             "or a sequence of point indices")
        return order
    try:
        seq = np.asarray(order)
    except Exception:  # pragma: no cover - defensive
        seq = None
    if seq is None or seq.ndim != 1 or seq.size == 0:
        raise ValueError(f"order must be 'cyclic', 'shuffle', 'random' or a non-empty sequence of "
                         f"indices; got {order!r}")
    if seq.dtype.kind not in "iu" and not (
        seq.dtype.kind == "f" and np.all(np.isfinite(seq)) and np.all(seq == np.round(seq))
    ):
        raise TypeError(f"order indices must be integers; got dtype {seq.dtype}")
    seq = seq.astype(np.int64)
    bad = seq[(seq < 0) | (seq >= n)]
    if bad.size:
        raise ValueError(f"order indices must be in [0, {n - 1}] for {n} points; got {bad[:5].tolist()}")
    return seq


def train(
    X,
    y,
    *,
    rule: str = "classic",
    eta: float = 1.0,
    forget: float = 1.0,
    rho: float = 0.0,
    threshold: float | None = None,
    fit_intercept: bool = True,
    order="cyclic",
    w0=None,
    b0: float = 0.0,
    batch_size: int = 1,
    max_epochs: int = 100,
    max_steps: int | None = None,
    seed=None,
) -> Trajectory:
    """Run a perceptron-family rule on ``(X, y)`` and record every step.

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : array-like of shape (n,), values in {-1, +1}
    rule : str, default "classic"
        A key of :data:`RULES`: classic, margin, rosenblatt_r2, regularized, svm_sgd,
        relaxation, pocket, averaged (see :mod:`explorer.perceptron.rules` for equations and sources).
    eta : float > 0, default 1.0
        Step size (relaxation factor for ``relaxation``, best in (0, 2)).
    forget : float in (0, 1], default 1.0
        Hardt & Recht's forgetting rate ``gamma`` (``margin`` rule): ``w <- gamma w + eta y x``.
    rho : float >= 0, default 0.0
        Sayed's regularisation (``regularized``, ``svm_sgd``): decay ``1 - 2 eta rho`` per step.
    threshold : float or None
        ``t`` in the update condition; None takes the rule's default (0 or 1).
    fit_intercept : bool, default True
        Learn the offset ``b``; if False, ``b`` stays at ``b0``.
    order : {"cyclic", "shuffle", "random"} or sequence of int, default "cyclic"
        Visiting order: passes in index order; a fresh permutation each pass; i.i.d. uniform
        indices; or an explicit sequence making up one pass, repeated (Koski's example visits
        points 5, 3, 1 first: ``order=[4, 2, 0, 1, 3, 5]``).
    w0 : array-like of shape (d,), optional
        Starting weights (zeros by default); ``b0`` the starting offset.
    batch_size : int, default 1
        Points per step; with ``B > 1`` the corrections of the batch are summed (Sayed (60.23)).
    max_epochs : int >= 1, default 100
        Passes at most (for i.i.d. order, ``n`` steps count as a pass).
    max_steps : int, optional
        Steps at most (0 gives a run that is only its start, e.g. before a learner's first pick).
    seed : None, int or numpy.random.Generator
        Randomness of "shuffle" and "random" orders.

    Returns
    -------
    Trajectory
        The run stops after a full pass without an update, or at ``max_epochs`` /
        ``max_steps``. For i.i.d. order it stops after ``n`` consecutive steps without an
        update if no point would trigger one then; otherwise it goes on sampling (about a third
        of the points go unvisited in ``n`` i.i.d. draws, so the quiet run alone proves little).

    Raises
    ------
    ValueError, TypeError
        On invalid input (messages say what was expected and what was got), and before any
        work when the run could exceed :data:`MAX_STEPS` steps or :data:`MAX_WORK` point
        visits x coordinates, or when ``eta`` x steps x ``max ||(x, 1)||`` (plus the start's
        norm) could carry the weights past ``1e150``, where their products with the points
        overflow. A relaxation run whose weights overflow anyway is refused after the run.
    """
    Xa, ya = check_X_y(X, y)
    n, d = Xa.shape
    spec: Rule = get_rule(rule)
    eta, forget, rho, decay, t = _check_settings(spec, eta=eta, forget=forget, rho=rho,
                                                 threshold=threshold)
    if not isinstance(fit_intercept, (bool, np.bool_)):
        raise TypeError(f"fit_intercept must be True or False; got {fit_intercept!r}")
    order_spec = _check_order(order, n)
    kind = order_spec if isinstance(order_spec, str) else "sequence"
    w, b = _check_start_point(w0, b0, d)
    B = check_int(batch_size, name="batch_size", minimum=1, maximum=n)
    max_epochs = check_int(max_epochs, name="max_epochs", minimum=1)
    if max_steps is not None:
        max_steps = check_int(max_steps, name="max_steps", minimum=0)
    rng = make_rng(seed)

    pass_len = n if isinstance(order_spec, str) else len(order_spec)
    steps_per_pass = -(-pass_len // B)
    step_cap = max_epochs * steps_per_pass if max_steps is None else min(
        max_epochs * steps_per_pass, max_steps)
    _check_work(step_cap, max_epochs, steps_per_pass, max_steps, B, d)
    _check_growth(Xa, spec, eta, fit_intercept, w, b, step_cap * B)
    params = _params(rule=rule, eta=eta, forget=forget, rho=rho, threshold=t,
                     fit_intercept=fit_intercept, order=order, order_spec=order_spec,
                     w=None if w0 is None else w, b0=b0, batch_size=B, max_epochs=max_epochs,
                     max_steps=max_steps, seed=seed)
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported below, in words
        traj = _run(Xa, ya, spec, t, eta, forget, decay, fit_intercept, B, w, b, rng, kind,
                    order_spec, pass_len, steps_per_pass, step_cap, max_steps, max_epochs, params)
    _check_finite(traj, eta)
    return traj


def _params(*, rule, eta, forget, rho, threshold, fit_intercept, order, order_spec, w, b0,
            batch_size, max_epochs, max_steps, seed) -> dict:
    """The run's settings as :attr:`Trajectory.params` records them (plain, JSON-ready values)."""
    return dict(rule=rule, eta=eta, forget=forget, rho=rho, threshold=threshold,
                fit_intercept=bool(fit_intercept),
                order=order if isinstance(order, str) else [int(i) for i in order_spec],
                w0=None if w is None else w.tolist(), b0=float(b0), batch_size=batch_size,
                max_epochs=max_epochs, max_steps=max_steps,
                seed=seed if not isinstance(seed, np.random.Generator) else "generator")


def _check_settings(spec: Rule, *, eta, forget, rho, threshold):
    """Check the rule's numbers; return ``eta``, ``forget``, ``rho``, the decay and ``t``.

    The decay ``1 - 2 eta rho`` per step applies to the rules that decay at every step
    (``Rule.decays_every_step``), 1 otherwise; ``t`` is the rule's default threshold when
    ``threshold`` is None.
    """
    eta = check_positive(eta, name="eta")
    forget = check_positive(forget, name="forget")
    if forget > 1:
        raise ValueError(f"forget must be in (0, 1]; got {forget}")
    rho = check_positive(rho, name="rho", allow_zero=True)
    decay = 1.0 - 2.0 * eta * rho if spec.decays_every_step else 1.0
    if decay <= 0:
        raise ValueError(f"eta * rho must be < 0.5 so that the decay 1 - 2 eta rho stays positive; "
                         f"got eta={eta}, rho={rho}")
    if threshold is None:
        t = spec.default_threshold
    else:
        if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real) or not np.isfinite(
                threshold):
            raise TypeError(f"threshold must be a finite number or None; got {threshold!r}")
        t = float(threshold)
    return eta, forget, rho, decay, t


def _check_start_point(w0, b0, d):
    """The starting ``(w, b)``: zeros or ``w0`` of length ``d``, and a finite ``b0``."""
    w = np.zeros(d) if w0 is None else check_vector(w0, name="w0", length=d)
    if isinstance(b0, bool) or not isinstance(b0, numbers.Real) or not np.isfinite(b0):
        raise TypeError(f"b0 must be a finite number; got {b0!r}")
    b = float(b0)
    _check_start(w, b)
    return w, b


def _check_start(w, b):
    big = np.abs(w) > MAX_ABS
    if big.any():
        raise ValueError(f"w0 must hold numbers of size at most {MAX_ABS:g}; got "
                         f"{w[np.argmax(big)]:g}")
    if abs(b) > MAX_ABS:
        raise ValueError(f"b0 must be a number of size at most {MAX_ABS:g}; got {b:g}")


def _check_work(step_cap, max_epochs, steps_per_pass, max_steps, B, d):
    """Refuse a run longer than :data:`MAX_STEPS` or :data:`MAX_WORK` before it starts."""
    if step_cap > MAX_STEPS:
        how = (f"max_steps = {max_steps:,}" if max_steps is not None
               and max_steps < max_epochs * steps_per_pass else
               f"{max_epochs:,} epochs x {steps_per_pass:,} steps")
        raise ValueError(f"a run may take at most {MAX_STEPS:,} steps (each one is kept in the "
                         f"trajectory); got {how}: lower max_epochs or max_steps")
    if step_cap * B * (d + 1) > MAX_WORK:
        raise ValueError(f"a run may take at most {MAX_WORK:,} steps x coordinates (point visits "
                         f"x (d + 1)); got {step_cap:,} steps x {B} point(s) x {d + 1} = "
                         f"{step_cap * B * (d + 1):,}: lower max_epochs or max_steps")


def _check_growth(X, spec, eta, fit_intercept, w, b, visits):
    """Refuse a step size that could carry the weights past :data:`MAX_ABS`.

    Every rule but relaxation changes ``(w, b)`` by at most ``eta ||(x_i, c)||`` per point
    visited (``c = 1``, Koski's ``R^2`` for rosenblatt_r2, 0 without an offset; the decay and
    the forgetting rate only shrink ``w``), so after ``visits`` visits
    ``||(w, b)|| <= ||(w0, b0)|| + visits eta max_i ||(x_i, c)||``. Relaxation steps depend on
    the margin and are checked after the run (:func:`_check_finite`).
    """
    if spec.name == "relaxation":
        return
    sq = np.einsum("ij,ij->i", X, X)
    c = 0.0 if not fit_intercept else (float(sq.max()) if spec.name == "rosenblatt_r2" else 1.0)
    H = float(np.sqrt(sq.max() + c * c))
    start = float(np.hypot(np.linalg.norm(w), b))
    bound = start + visits * eta * H
    if not bound <= MAX_ABS:
        raise ValueError(
            f"the weights could grow past {MAX_ABS:g}, where their products with the points "
            f"overflow: {visits:,} steps of eta = {eta:g} times max ||(x, {'R^2' if c > 1 else c:g})|| "
            f"= {H:.3g} from ||(w0, b0)|| = {start:.3g} reach {bound:.3g}; expected "
            f"eta x steps x max ||x~|| <= {MAX_ABS:g}: use a smaller eta or fewer steps")


def _check_finite(traj, eta):
    """A run whose weights overflowed (relaxation with a huge step) is refused in words."""
    W = traj.weights
    bad = ~(np.isfinite(W).all(axis=1) & np.isfinite(traj.biases))
    bad |= (np.abs(W) > MAX_ABS).any(axis=1) | (np.abs(traj.biases) > MAX_ABS)
    if bad.any():
        u = int(np.argmax(bad))
        raise ValueError(f"the weights overflowed past {MAX_ABS:g} at update {u} (step "
                         f"{int(traj.update_steps[u - 1]) if u else 0}) with eta = {eta:g}; "
                         f"expected weights that stay finite: use a smaller eta")
