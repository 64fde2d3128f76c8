"""The engine that runs a perceptron-family rule step by step for :func:`explorer.perceptron.train`.

Only updates change the weights (apart from a known per-step decay), so the trainer scans a
block of upcoming steps with one matrix product, finds the first step whose point triggers the
rule, applies that one update and goes on from there. The result is exactly the step-by-step
algorithm, at the speed of vectorised numpy; a long pass of a rule whose update is a fixed
vector per point goes to compiled code (:mod:`explorer.shared.compiled`). Also :func:`training_error`,
which the pocket rule records after every update.
"""

from __future__ import annotations

import numpy as np

from ..shared import compiled
from .trajectory import Trajectory

__all__ = ["training_error"]

_MIN_BLOCK, _MAX_BLOCK = 32, 8192


def mistakes(X, y, w, b) -> int:
    """Points misclassified by ``f(x) = <w, x> + b`` (predict +1 iff ``f >= 0``)."""
    return int(np.sum(np.where(X @ w + b >= 0, 1.0, -1.0) != y))


def training_error(X, y, w, b) -> float:
    """Fraction of points misclassified by ``f(x) = <w, x> + b`` (predict +1 iff ``f >= 0``)."""
    return mistakes(X, y, w, b) / len(y)


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
                and steps * Z.shape[1] >= compiled.MIN_WORK and compiled.available()):
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
        """:meth:`scan_fast` for a long pass, in compiled code (see :mod:`explorer.shared.compiled`)."""
        wt = self.wt.copy()
        found, rows = compiled.scan_updates(Z, U, wt, self.t, self.spec.strict)
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
