"""The record of a perceptron run: every step's choice, every update's weights.

Memory grows with the number of updates times ``d`` plus a small integer and a flag per step:
between two updates the weights are either constant or, for the rules that decay every step,
a known power of the decay factor times the last stored weights.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["Trajectory"]


@dataclass(frozen=True)
class Trajectory:
    """A whole training run; ``state(k)`` gives ``(w, b)`` after step ``k``.

    Attributes
    ----------
    rule : str
        Name in :data:`explorer.perceptron.rules.RULES`.
    params : dict
        Every argument of :func:`explorer.perceptron.train` that shaped the run (seed included).
    picked : ndarray of shape (n_steps,) or (n_steps, batch_size), int32
        Index of the point visited at each step (mini-batches padded with -1).
    updated : ndarray of shape (n_steps,), bool
        Whether step ``k`` (1-based: ``updated[k - 1]``) changed the weights by an update.
    update_steps : ndarray of shape (n_updates,), int64
        The (1-based) step of each update, increasing.
    weights : ndarray of shape (n_updates + 1, d)
        Row ``u`` is ``w`` right after update ``u`` (row 0: the start).
    biases : ndarray of shape (n_updates + 1,)
    decay : float
        Factor applied to ``w`` at every step (1.0 except for regularized and svm_sgd).
    converged : bool
        A full pass (n consecutive steps for i.i.d. order) made no update and no point
        would trigger one at the final state.
    stop_reason : str
        ``"converged"``, ``"no_update_pass"`` (a pass without updates, yet some unvisited point
        still triggers), ``"max_epochs"`` or ``"max_steps"``.
    epochs : float
        Passes over the data performed (steps / ``epoch_steps``).
    threshold : float
        The ``t`` in the rule's condition.
    epoch_steps : int
        Steps in one pass (epoch): ``ceil(L / batch_size)`` for a pass of ``L`` visits, where
        ``L = n`` for cyclic, reshuffled and i.i.d. orders (``n`` draws count as a pass) and
        the sequence's length for an explicit visiting sequence. 0 when not recorded.
    pocket_w, pocket_b, pocket_error, pocket_update : optional
        Pocket rule only: best iterate seen, its training error and which update produced it
        (0 = the start). ``errors`` holds the training error after each update.
    averaged_w, averaged_b : optional
        Averaged rule only: mean of ``(w, b)`` over all steps of the run.
    """

    rule: str
    params: dict
    picked: np.ndarray
    updated: np.ndarray
    update_steps: np.ndarray
    weights: np.ndarray
    biases: np.ndarray
    decay: float
    converged: bool
    stop_reason: str
    epochs: float
    threshold: float
    epoch_steps: int = 0
    errors: np.ndarray | None = None
    pocket_w: np.ndarray | None = None
    pocket_b: float | None = None
    pocket_error: float | None = None
    pocket_update: int | None = None
    _avg_prefix: np.ndarray | None = field(default=None, repr=False)
    _avg_prefix_b: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self):
        for name in ("picked", "updated", "update_steps", "weights", "biases", "errors",
                     "pocket_w", "_avg_prefix", "_avg_prefix_b"):
            arr = getattr(self, name)
            if isinstance(arr, np.ndarray):
                arr.setflags(write=False)

    # ------------------------------------------------------------------ sizes
    @property
    def n_steps(self) -> int:
        """Number of steps taken."""
        return int(self.updated.shape[0])

    @property
    def n_updates(self) -> int:
        """Number of steps that updated the weights: for the classic rule its mistakes; the
        margin rules also update on points classified right (a mistake is y·f(x) <= 0:
        :func:`explorer.perceptron.replay.step.mistake_steps`)."""
        return int(self.update_steps.shape[0])

    @property
    def dim(self) -> int:
        """Number of features ``d``."""
        return int(self.weights.shape[1])

    # ------------------------------------------------------------------ states
    def _check_step(self, k) -> int:
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
            raise TypeError(f"step k must be an integer; got {type(k).__name__}")
        k = int(k)
        if not 0 <= k <= self.n_steps:
            raise ValueError(f"step k must be in [0, {self.n_steps}]; got {k}")
        return k

    def updates_until(self, k: int) -> int:
        """Number of updates made in steps ``1..k``."""
        k = self._check_step(k)
        return int(np.searchsorted(self.update_steps, k, side="right"))

    def state(self, k: int):
        """Return ``(w, b)`` after step ``k`` (``k = 0`` is the start).

        Returns
        -------
        w : ndarray of shape (d,)
        b : float
        """
        k = self._check_step(k)
        u = int(np.searchsorted(self.update_steps, k, side="right"))
        w = self.weights[u].copy()
        if self.decay != 1.0:
            last = int(self.update_steps[u - 1]) if u else 0
            w *= self.decay ** (k - last)
        return w, float(self.biases[u])

    def states(self, ks) -> tuple[np.ndarray, np.ndarray]:
        """Vectorised :meth:`state`: arrays of shape ``(len(ks), d)`` and ``(len(ks),)``."""
        raw = np.asarray(ks)
        if raw.size and raw.dtype.kind not in "iu":
            raise TypeError(f"steps must be integers; got dtype {raw.dtype}")
        ks = raw.astype(np.int64)
        if ks.size and (ks.min() < 0 or ks.max() > self.n_steps):
            raise ValueError(f"steps must be in [0, {self.n_steps}]")
        u = np.searchsorted(self.update_steps, ks, side="right")
        W = self.weights[u].copy()
        if self.decay != 1.0:
            last = np.where(u > 0, self.update_steps[np.maximum(u - 1, 0)], 0)
            W *= (self.decay ** (ks - last))[:, None]
        return W, self.biases[u].copy()

    @property
    def final_w(self) -> np.ndarray:
        """Weights after the last step."""
        return self.state(self.n_steps)[0]

    @property
    def final_b(self) -> float:
        """Offset after the last step."""
        return self.state(self.n_steps)[1]

    # ------------------------------------------------------------------ averaged rule
    def averaged_state(self, k: int):
        """Averaged rule: the mean of ``(w_t, b_t)`` over steps ``t = 1..k`` (``k >= 1``)."""
        if self._avg_prefix is None:
            raise ValueError(f"averaged_state needs rule='averaged'; this run used {self.rule!r}")
        k = self._check_step(k)
        if k == 0:
            return self.weights[0].copy(), float(self.biases[0])
        u = int(np.searchsorted(self.update_steps, k, side="right"))
        last = int(self.update_steps[u - 1]) if u else 1
        count = k - last + 1 if u else k
        sw = self._avg_prefix[u] + count * self.weights[u]
        sb = self._avg_prefix_b[u] + count * self.biases[u]
        return sw / k, float(sb / k)

    @property
    def averaged_w(self) -> np.ndarray | None:
        """Averaged rule: mean weights over all steps; None for other rules."""
        return None if self._avg_prefix is None else self.averaged_state(self.n_steps)[0]

    @property
    def averaged_b(self) -> float | None:
        """Averaged rule: mean offset over all steps; None for other rules."""
        return None if self._avg_prefix is None else self.averaged_state(self.n_steps)[1]
