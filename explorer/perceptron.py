"""Train any perceptron-family rule and return its whole trajectory.

Only updates change the weights (apart from a known per-step decay), so the trainer scans a
block of upcoming steps with one matrix product, finds the first step whose point triggers the
rule, applies that one update and goes on from there. The result is exactly the step-by-step
algorithm, at the speed of vectorised numpy. The rules and their sources:
``docs/mathematics.md#update-rules``.
"""

from __future__ import annotations

import numbers

import numpy as np

from . import _compiled
from ._validation import (
    MAX_ABS,
    check_int,
    check_positive,
    check_vector,
    check_X_y,
    make_rng,
)
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
_MIN_BLOCK, _MAX_BLOCK = 32, 8192


def training_error(X, y, w, b) -> float:
    """Fraction of points misclassified by ``f(x) = <w, x> + b`` (predict +1 iff ``f >= 0``)."""
    pred = np.where(X @ w + b >= 0, 1.0, -1.0)
    return float(np.mean(pred != y))


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
        relaxation, pocket, averaged (see :mod:`explorer.rules` for equations and sources).
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
    if not isinstance(fit_intercept, (bool, np.bool_)):
        raise TypeError(f"fit_intercept must be True or False; got {fit_intercept!r}")
    order_spec = _check_order(order, n)
    kind = order_spec if isinstance(order_spec, str) else "sequence"
    w = np.zeros(d) if w0 is None else check_vector(w0, name="w0", length=d)
    if isinstance(b0, bool) or not isinstance(b0, numbers.Real) or not np.isfinite(b0):
        raise TypeError(f"b0 must be a finite number; got {b0!r}")
    b = float(b0)
    _check_start(w, b)
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
    params = dict(rule=rule, eta=eta, forget=forget, rho=rho, threshold=t,
                  fit_intercept=bool(fit_intercept),
                  order=order if isinstance(order, str) else [int(i) for i in order_spec],
                  w0=None if w0 is None else w.tolist(), b0=float(b0), batch_size=B,
                  max_epochs=max_epochs, max_steps=max_steps,
                  seed=seed if not isinstance(seed, np.random.Generator) else "generator")
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported below, in words
        traj = _run(Xa, ya, spec, t, eta, forget, decay, fit_intercept, B, w, b, rng, kind,
                    order_spec, pass_len, steps_per_pass, step_cap, max_steps, max_epochs, params)
    _check_finite(traj, eta)
    return traj


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


def _run(Xa, ya, spec, t, eta, forget, decay, fit_intercept, B, w, b, rng, kind, order_spec,
         pass_len, steps_per_pass, step_cap, max_steps, max_epochs, params):
    n = Xa.shape[0]
    engine = _Engine(Xa, ya, spec, t, eta, forget, decay, fit_intercept, B, w, b)
    picked_chunks, stop_reason = [], "max_epochs"
    quiet_limit = n if kind == "random" else None
    while engine.step < step_cap:
        seq = (None if kind == "cyclic" else
               rng.permutation(n) if kind == "shuffle" else
               rng.integers(0, n, size=n) if kind == "random" else order_spec)
        steps = min(steps_per_pass, step_cap - engine.step)
        start_updates = engine.n_updates
        scan = engine.scan_fast if engine.fast else engine.scan
        done = scan(seq, steps, quiet_limit)
        picked_chunks.append(_picked(np.arange(n) if seq is None else seq, done, B))
        if quiet_limit is not None and done < steps:
            stop_reason = "no_update_pass"
            break
        if quiet_limit is None and engine.n_updates == start_updates and steps == steps_per_pass:
            stop_reason = "no_update_pass"
            break
    else:
        if max_steps is not None and step_cap == max_steps and step_cap < max_epochs * steps_per_pass:
            stop_reason = "max_steps"
    if (quiet_limit is not None and stop_reason != "no_update_pass"
            and engine.step - engine.last_update_step >= quiet_limit):
        stop_reason = "no_update_pass"
    picked = np.concatenate(picked_chunks) if picked_chunks else np.zeros(
        (0,) if B == 1 else (0, B), dtype=np.int32)
    converged = False
    if stop_reason == "no_update_pass":
        converged = engine._all_fine(engine.step)
        if converged:
            stop_reason = "converged"
    return engine.finish(picked, params, converged, stop_reason, steps_per_pass)


def _picked(seq, steps, B):
    if B == 1:
        return seq[:steps].astype(np.int32)
    padded = np.full(steps * B, -1, dtype=np.int32)
    take = seq[: steps * B]
    padded[: take.size] = take
    return padded.reshape(steps, B)


class _Engine:
    """Mutable working state of one run (private; the result is a frozen Trajectory)."""

    def __init__(self, X, y, spec, t, eta, forget, decay, fit_intercept, B, w, b):
        self.X, self.y, self.spec, self.t = X, y, spec, t
        self.eta, self.forget, self.decay = eta, forget, decay
        self.fit_intercept, self.B = fit_intercept, B
        self.step = 0
        self.last_update_step = 0
        self.quiet_failed = -1
        self._tables = None
        self.wt = np.append(w, b)  # current augmented weights (w, b) after the last update
        self.chunks, self.steps_at = [self.wt[None, :]], []
        self.R2 = float(np.max(np.einsum("ij,ij->i", X, X))) if spec.name == "rosenblatt_r2" else 0.0
        self.errors = [training_error(X, y, w, b)] if spec.name == "pocket" else None
        self.step_flags = []

    @property
    def fast(self):
        """Whether the update is ``w~ += U_i`` with a fixed vector per point (the fast path)."""
        spec = self.spec
        return (self.B == 1 and self.decay == 1.0 and spec.name != "relaxation"
                and not (spec.name == "margin" and self.forget != 1.0))

    def _fast_tables(self):
        """Sign-folded augmented points ``y (x, 1)`` and update vectors ``U_i``, shape (n, d+1)."""
        if self._tables is None:
            X, y = self.X, self.y
            Z = np.empty((X.shape[0], X.shape[1] + 1))
            np.multiply(X, y[:, None], out=Z[:, :-1])
            Z[:, -1] = y
            if self.eta == 1.0 and self.fit_intercept and self.spec.name != "rosenblatt_r2":
                U = Z
            else:
                U = self.eta * Z
                if not self.fit_intercept:
                    U[:, -1] = 0.0
                elif self.spec.name == "rosenblatt_r2":
                    U[:, -1] *= self.R2
            self._tables = (Z, U)
        return self._tables

    def scan_fast(self, seq, steps, quiet_limit=None):
        """:meth:`scan` for constant-vector updates: one matrix-vector product per block
        finds the next update, and the update is one vector addition."""
        Z, U = self._fast_tables()
        if seq is not None:
            Z = Z[seq]
            U = Z if U is self._tables[0] else U[seq]
        if (quiet_limit is None and self.errors is None
                and steps * Z.shape[1] >= _compiled.MIN_WORK and _compiled.available()):
            return self._scan_compiled(Z[:steps], U[:steps], steps)
        t = np.float64(self.t)
        test = np.less if self.spec.strict else np.less_equal
        buf = np.empty(_MAX_BLOCK, dtype=bool)
        rows = np.empty((64, Z.shape[1]))  # weights after each update of this pass, grown x2
        rows[0] = self.wt
        wt, cnt = rows[0], 0
        flags = np.zeros(steps, dtype=bool)
        found = []  # pass positions of updates
        errors = self.errors
        watch_quiet = quiet_limit is not None
        pos, block, gap = 0, _MIN_BLOCK, float(_MIN_BLOCK)
        while pos < steps:
            hi = pos + block
            if hi > steps:
                hi = steps
            hit = test(Z[pos:hi].dot(wt), t, out=buf[: hi - pos])
            j = int(hit.argmax())
            if not hit[j]:
                j = hi - pos
            if watch_quiet and self.quiet_failed != self.last_update_step:
                quiet_end = self.last_update_step + quiet_limit - self.step
                if quiet_end <= pos + j:
                    if self._all_fine_w(wt):
                        pos = quiet_end
                        break
                    self.quiet_failed = self.last_update_step
            if j == hi - pos:
                pos = hi
                block = min(block * 2, _MAX_BLOCK)
                continue
            p = pos + j
            cnt += 1
            if cnt == rows.shape[0]:
                rows = np.concatenate([rows, np.empty_like(rows)])
            wt = np.add(rows[cnt - 1], U[p], out=rows[cnt])
            found.append(p)
            if watch_quiet:
                self.last_update_step = self.step + p + 1
            if errors is not None:
                errors.append(training_error(self.X, self.y, wt[:-1], wt[-1]))
            pos = p + 1
            gap = 0.75 * gap + 0.25 * (j + 1)
            block = max(_MIN_BLOCK, min(int(4 * gap), _MAX_BLOCK))
        if found:
            found = np.asarray(found)
            flags[found] = True
            self.chunks.append(rows[1: cnt + 1])
            self.wt = rows[cnt].copy()
            self.steps_at.extend((self.step + found + 1).tolist())
            self.last_update_step = int(self.step + found[-1] + 1)
        self.step += pos
        self.step_flags.append(flags[:pos])
        return pos

    def _scan_compiled(self, Z, U, steps):
        """:meth:`scan_fast` for a long pass, in compiled code (see :mod:`explorer._compiled`)."""
        wt = self.wt.copy()
        found, rows = _compiled.scan_updates(Z, U, wt, self.t, self.spec.strict)
        flags = np.zeros(steps, dtype=bool)
        if len(found):
            flags[found] = True
            self.chunks.append(rows)
            self.wt = rows[-1].copy()
            self.steps_at.extend((self.step + found + 1).tolist())
            self.last_update_step = int(self.step + found[-1] + 1)
        self.step += steps
        self.step_flags.append(flags)
        return steps

    def _all_fine_w(self, wt):
        """No point triggers the rule at the augmented weights ``wt`` (fast path, no decay)."""
        Z, _ = self._fast_tables()
        return not self.spec.triggers(Z @ wt, self.t).any()

    def _all_fine(self, step):
        """No point triggers the rule at the weights after global step ``step``."""
        w = self.wt[:-1] * (self.decay ** (step - self.last_update_step))
        return not self.spec.triggers(self.y * (self.X @ w + self.wt[-1]), self.t).any()

    @property
    def n_updates(self):
        return len(self.steps_at)

    def scan(self, seq, steps, quiet_limit=None):
        """Run up to ``steps`` steps over the visiting sequence ``seq`` (None: 0..n-1).

        With ``quiet_limit``, stop as soon as that many consecutive steps made no update and
        no point would trigger one.
        Returns the number of steps taken.
        """
        X, y, B = self.X, self.y, self.B
        Xs, ys = (X, y) if seq is None else (X[seq], y[seq])
        flags = np.zeros(steps, dtype=bool)
        pos, block = 0, _MIN_BLOCK
        while pos < steps:
            L = min(block, steps - pos)
            lo, hi = pos * B, min((pos + L) * B, len(Xs))
            w, b = self.wt[:-1], float(self.wt[-1])
            z = Xs[lo:hi] @ w
            if self.decay != 1.0:
                k0 = self.step + pos - self.last_update_step  # decay exponent at first step
                powers = self.decay ** (k0 + np.arange(L))
                z = z * (np.repeat(powers, B)[: hi - lo] if B > 1 else powers[: hi - lo])
            z = ys[lo:hi] * (z + b)
            hit = self.spec.triggers(z, self.t)
            if B > 1:
                pad = np.zeros(L * B, dtype=bool)
                pad[: hit.size] = hit
                step_hit = pad.reshape(L, B).any(axis=1)
            else:
                step_hit = hit
            j = int(np.argmax(step_hit)) if step_hit.any() else L
            if quiet_limit is not None and self.quiet_failed != self.last_update_step:
                quiet_end = self.last_update_step + quiet_limit - self.step  # pass position
                if quiet_end <= pos + j:
                    if self._all_fine(self.step + quiet_end):
                        pos = quiet_end
                        break
                    self.quiet_failed = self.last_update_step  # keep sampling until an update
            if j == L:
                pos += L
                block = min(block * 2, _MAX_BLOCK)
                continue
            s = self.step + pos + j + 1  # 1-based global step of the update
            members = slice(j * B, min((j + 1) * B, hi - lo))
            mask = hit[members]
            rows = Xs[lo:hi][members][mask]
            labels = ys[lo:hi][members][mask]
            margins = z[members][mask]
            w_prev = self.wt[:-1] * (self.decay ** (s - 1 - self.last_update_step))
            self._apply(w_prev, float(self.wt[-1]), rows, labels, margins, s)
            flags[pos + j] = True
            pos += j + 1
            block = _MIN_BLOCK
        self.step += pos
        self.step_flags.append(flags[:pos])
        return pos

    def _apply(self, w, b, rows, labels, margins, s):
        spec, eta = self.spec, self.eta
        if spec.name == "relaxation":
            norms = np.einsum("ij,ij->i", rows, rows) + (1.0 if self.fit_intercept else 0.0)
            coef = np.where(norms > 0, eta * (self.t - margins) / np.where(norms > 0, norms, 1), 0)
            coef = coef * labels
        else:
            coef = eta * labels
        step_w = coef @ rows
        if spec.name == "margin":
            w_new = self.forget * w + step_w
        elif spec.decays_every_step:
            w_new = self.decay * w + step_w
        else:
            w_new = w + step_w
        b_new = b
        if self.fit_intercept:
            b_new = b + float(coef.sum()) * (self.R2 if spec.name == "rosenblatt_r2" else 1.0)
        self.wt = np.append(w_new, b_new)
        self.chunks.append(self.wt[None, :])
        self.steps_at.append(s)
        self.last_update_step = s
        if self.errors is not None:
            self.errors.append(training_error(self.X, self.y, w_new, b_new))

    def finish(self, picked, params, converged, stop_reason, steps_per_pass):
        updated = np.concatenate(self.step_flags) if self.step_flags else np.zeros(0, bool)
        steps_at = np.asarray(self.steps_at, dtype=np.int64)
        A = np.vstack(self.chunks)
        W, Bv = np.ascontiguousarray(A[:, :-1]), A[:, -1].copy()
        extra = {}
        if self.errors is not None:
            errors = np.asarray(self.errors)
            best = int(np.argmin(errors))  # first minimum: strict improvement replaces
            extra.update(errors=errors, pocket_w=W[best].copy(), pocket_b=float(Bv[best]),
                         pocket_error=float(errors[best]), pocket_update=best)
        if self.spec.name == "averaged":
            bounds = np.concatenate([[1], steps_at])
            ends = np.concatenate([steps_at, [self.step + 1]])
            counts = (ends - bounds)[:-1].astype(float)  # full intervals of rows 0..U-1
            prefix = np.zeros_like(W)
            prefix_b = np.zeros_like(Bv)
            if len(counts):
                prefix[1:] = np.cumsum(W[:-1] * counts[:, None], axis=0)
                prefix_b[1:] = np.cumsum(Bv[:-1] * counts)
            extra.update(_avg_prefix=prefix, _avg_prefix_b=prefix_b)
        return Trajectory(
            rule=self.spec.name, params=params, picked=picked, updated=updated,
            update_steps=steps_at, weights=W, biases=Bv, decay=self.decay, converged=converged,
            stop_reason=stop_reason, epochs=self.step / steps_per_pass, threshold=self.t,
            epoch_steps=steps_per_pass, **extra,
        )
