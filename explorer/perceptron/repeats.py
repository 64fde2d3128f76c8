"""When the weights of a recorded run repeat: the cycle a run on non-separable data enters.

On data that no line separates the classic perceptron never stops updating. With a fixed
visiting order (cyclic passes or a given sequence) its next state is a function of the state
``(w, b, position in the order)``, so a state that comes back once comes back for ever: the run
has entered a cycle. :func:`explorer.perceptron.cycles.exact_run` finds it in exact rational arithmetic for
the XOR tab's four points; :func:`run_cycle` finds it in any run of
:func:`explorer.perceptron.train` (up to millions of steps) from the run's own record, exactly
when the run's floating-point arithmetic never rounded (:func:`exact_floats`), and otherwise
within a stated tolerance.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..shared.validation import as_features, as_labels, check_positive
from .cycles import Cycle, stopped_text
from .trajectory import Trajectory

__all__ = ["run_cycle", "exact_floats", "RTOL", "MAX_CANDIDATES", "MAX_NUMBERS"]

#: Relative tolerance of :func:`run_cycle` when a run's arithmetic rounds: two states count as
#: the same when every coordinate of ``(w, b)`` differs by at most ``RTOL`` times the largest
#: weight of the run.
RTOL = 1e-9
#: Repeats :func:`run_cycle` checks (each check is one vectorised pass over the run).
MAX_CANDIDATES = 64
#: Most numbers (pass boundaries x (d + 1)) :func:`run_cycle` hashes: 40 MB of states.
MAX_NUMBERS = 5_000_000
#: Rules whose update adds a fixed vector per point when nothing decays (``w += eta y x``).
_FIXED_UPDATE = ("classic", "pocket", "averaged", "margin", "regularized", "svm_sgd")
_ORDER_WORDS = {"shuffle": "reshuffled each pass", "random": "drawn i.i.d. at every step"}


def _low_bits(v) -> tuple[np.ndarray, np.ndarray]:
    """For the nonzero numbers of ``v``: the exponent ``e`` of the lowest set bit (each is an
    integer multiple of ``2**e``) and the number of significant bits."""
    a = np.abs(np.asarray(v, dtype=float).ravel())
    a = a[a != 0]
    m, e = np.frexp(a)  # a = m 2^e with 0.5 <= m < 1, m of at most 53 bits
    mi = np.ldexp(m, 53).astype(np.int64)
    tz = np.log2((mi & -mi).astype(float)).astype(np.int64)  # trailing zero bits
    return e - 53 + tz, 53 - tz


def exact_floats(traj: Trajectory, X) -> bool:
    """Whether every sum and product of ``traj``'s run was exact in floating point.

    True when the rule adds ``eta y_i (x_i, 1)`` at an update and nothing decays (Sayed,
    eq. (60.26)), one point per step, and the numbers are coarse enough: each ``eta x_ij``
    is a product of at most 53 significant bits; every start value and update entry is an
    integer multiple of ``2**q``, with every weight of the run below ``2**(53 + q)``; and
    every test ``y (<w, x> + b)`` sums terms on a grid ``2**r`` staying below ``2**(53 + r)``.
    Then no operation rounds and the recorded run *is* the run in exact arithmetic (e.g. +-1
    or 0/1 data with ``eta`` 1 or 0.5; data given in quarters).
    """
    p = traj.params
    if (traj.decay != 1.0 or traj.rule not in _FIXED_UPDATE or p.get("batch_size", 1) != 1
            or (traj.rule == "margin" and p.get("forget", 1.0) != 1.0)):
        return False
    X = np.asarray(X, dtype=float)
    eta = float(p["eta"])
    low_x, bits_x = _low_bits(X)
    low_eta, bits_eta = _low_bits([eta])
    if len(bits_x) and bits_x.max() + bits_eta[0] > 53:
        return False  # some eta x_ij rounds
    start = [*(p.get("w0") or []), p.get("b0", 0.0)]
    lows = [*(low_x + low_eta[0]), *_low_bits(start)[0]]
    if p["fit_intercept"]:
        lows.append(low_eta[0])
    q = int(min(lows)) if lows else 0
    top = max(float(np.max(np.abs(traj.weights), initial=0.0)),
              float(np.max(np.abs(traj.biases), initial=0.0)))
    r = q + min(int(low_x.min()) if len(low_x) else 0, 0)
    l1 = float(np.max(np.abs(X).sum(axis=1), initial=0.0)) + 1.0
    with np.errstate(over="ignore"):
        return bool(top < np.ldexp(1.0, 53 + q) and top * l1 < np.ldexp(1.0, 53 + r))


def _no_cycle(text: str, *, converged: bool = False, exact: bool = True,
              tolerance: float | None = None) -> Cycle:
    return Cycle(False, None, None, None, None, None, None, None, converged, text, exact,
                 tolerance)


def _repeat(traj: Trajectory, P: int, atol: float):
    """First ``(s, k, deviation)``: the states after steps ``j`` and ``j + k`` agree (within
    ``atol``) for every ``j >= s`` of the run, with ``k`` a multiple of the pass length ``P``;
    None if no state at a pass boundary recurs."""
    n = traj.n_steps
    ks = np.arange(0, n + 1, P)
    if len(ks) < 2:
        return None
    W, B = traj.states(ks)
    S = np.column_stack([W, B])
    keys = S if atol == 0 else np.floor(S / atol + 0.5)
    _, first, inv = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    first_of = first[inv.ravel()]
    for t in np.flatnonzero(first_of < np.arange(len(ks)))[:MAX_CANDIDATES]:
        e1, m = int(first_of[t]), int(t - first_of[t])
        k, a = m * P, int(ks[e1])
        dev = float(np.max(np.abs(S[e1 + m:] - S[e1: len(ks) - m]), initial=0.0))
        if dev > atol or not np.array_equal(traj.updated[a: n - k], traj.updated[a + k:]):
            continue  # a near miss that does not last (only with a tolerance)
        if not traj.updated[a: a + k].any():
            continue  # a pass without an update ends a run: not a cycle of updates
        js = np.arange(max(a - P + 1, 0), a + 1)
        Wj, Bj = traj.states(js)
        Wk, Bk = traj.states(js + k)
        same = np.max(np.abs(np.column_stack([Wj - Wk, Bj - Bk])), axis=1) <= atol
        differ = np.flatnonzero(~same)
        s = int(js[differ[-1] + 1]) if len(differ) else int(js[0])
        return s, k, dev
    return None


def run_cycle(traj: Trajectory, X, y, *, rtol: float = RTOL) -> Cycle:
    """The cycle a recorded run (:func:`explorer.perceptron.train`) has entered, if any.

    The state of a run is ``(w, b)`` and the position in its visiting order; the next state is
    a function of it, so once a state recurs after ``k`` steps the run repeats with period
    ``k`` for ever. Periods are therefore multiples of the pass length ``P`` (steps per pass),
    and the states at pass boundaries find the first repeat (at most ``n_steps / P + 1`` of
    them, hashed); the first step ``s`` of the cycle is then found within one pass.

    The comparison is exact when :func:`exact_floats` shows that the run's arithmetic never
    rounded (then the recorded run is the exact one, as in :func:`explorer.perceptron.cycles.exact_run`).
    Otherwise round-off makes a state come back only nearly, and states count as the same
    within ``rtol x max |(w, b)|`` in each coordinate, provided the update pattern then repeats
    with the same period to the end of the run; the result says which (``exact``,
    ``tolerance``).

    A random visiting order (reshuffled passes or i.i.d. draws) has no fixed pattern to repeat:
    no cycle is reported, and the message says so. A run that converged has none either. The
    cost is bounded: at most :data:`MAX_NUMBERS` numbers of states are hashed (a longer search
    is declined in words), and :data:`MAX_CANDIDATES` near repeats are checked.

    Parameters
    ----------
    traj : Trajectory
    X : array-like of shape (n, d); y : array-like of shape (n,)
        The run's data.
    rtol : float in (0, 0.01], default :data:`RTOL`

    Returns
    -------
    Cycle
        ``start_step`` ``s``, ``length`` the period ``k``, ``step = s + k``, ``updates`` per
        period, the state ``w``, ``b`` after step ``s`` (exact values of its floats) and its
        ``position`` ``s mod P``; or ``found=False`` with the reason in ``message``.
    """
    Xa, rtol = _run_cycle_inputs(traj, X, y, rtol=rtol)
    p = traj.params
    u = traj.n_updates
    stopped = stopped_text(u)
    if traj.converged:
        return _no_cycle(stopped, converged=True)
    order = p.get("order", "cyclic")
    if isinstance(order, str) and order != "cyclic":
        return _no_cycle(f"no cycle is looked for: the visiting order is "
                         f"{_ORDER_WORDS.get(order, order)}, so no fixed sequence of states "
                         "repeats; the weights need not return exactly", exact=False)
    if traj.stop_reason == "no_update_pass":
        return _no_cycle(stopped)
    L = Xa.shape[0] if isinstance(order, str) else len(order)
    P = -(-L // int(p.get("batch_size", 1)))
    exact = exact_floats(traj, Xa)
    top = max(float(np.max(np.abs(traj.weights), initial=0.0)),
              float(np.max(np.abs(traj.biases), initial=0.0)))
    atol = 0.0 if exact else rtol * top
    how = "compared exactly" if exact else f"compared to within {atol:.2g}"
    if traj.n_steps < 2 * P:
        return _no_cycle(f"no cycle yet: the run is shorter than two passes ({traj.n_steps} of "
                         f"{2 * P} steps)", exact=exact, tolerance=None if exact else atol)
    states = (traj.n_steps // P + 1) * (traj.dim + 1)
    if states > MAX_NUMBERS:
        return _no_cycle(f"no cycle is looked for: the run's {traj.n_steps // P + 1:,} pass "
                         f"boundaries x {traj.dim + 1} numbers exceed {MAX_NUMBERS:,}",
                         exact=exact, tolerance=None if exact else atol)
    found = _repeat(traj, P, atol)
    if found is None:
        return _no_cycle(f"no repeated state within the run's {traj.n_steps:,} steps ({how}); "
                         "a longer run may repeat", exact=exact, tolerance=None if exact else atol)
    return _found_cycle(traj, *found, P=P, exact=exact, atol=atol)


def _run_cycle_inputs(traj, X, y, *, rtol):
    """Check :func:`run_cycle`'s arguments: a Trajectory, its own data, ``rtol`` in (0, 0.01]."""
    if not isinstance(traj, Trajectory):
        raise TypeError(f"traj: expected a Trajectory from explorer.perceptron.train; got "
                        f"{type(traj).__name__}")
    Xa = as_features(X)
    ya = as_labels(y, require_both=False)
    if Xa.shape != (ya.shape[0], traj.dim):
        raise ValueError(f"X must be the run's data: {traj.dim} features and one row per label; "
                         f"got X of shape {Xa.shape} and {ya.shape[0]} labels")
    rtol = check_positive(rtol, name="rtol")
    if rtol > 0.01:
        raise ValueError(f"rtol must be at most 0.01; got {rtol:g}")
    return Xa, rtol


def _found_cycle(traj, s, k, dev, *, P, exact, atol) -> Cycle:
    """The :class:`Cycle` of period ``k`` from step ``s``, with its sentence for a person.

    ``dev`` is the largest difference seen between repeating states (0 when they repeat bit
    for bit); ``atol`` the tolerance they were compared within (unused when ``exact``).
    """
    w, b = traj.state(s)
    ups = traj.updates_until(s + k) - traj.updates_until(s)
    if exact:
        text = (f"the weights repeat: period {k} from step {s}, exactly (these numbers add "
                f"without rounding), {ups} update{'s' if ups != 1 else ''} per period, so the "
                "updates never stop")
    else:
        seen = ("the computed ones repeat bit for bit" if dev == 0 else
                f"the largest difference seen is {dev:.2g}")
        text = (f"the weights repeat: period {k} from step {s}, to within {atol:.2g} (the "
                f"arithmetic rounds these numbers; {seen}), {ups} update{'s' if ups != 1 else ''} "
                "per period to the end of the run")
    return Cycle(True, s, s + k, k, ups, tuple(Fraction(float(v)) for v in w), Fraction(b),
                 s % P, False, text, exact, None if exact else atol)
