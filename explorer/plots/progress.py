"""Progress of a run: mistakes against steps with the mistake bound, and the proof's quantities.

The convergence proofs (Sayed Lemma 60.1; Hardt & Recht ch. 3) track ``<w*, w_t>``, which grows
by at least ``eta gamma`` per update, and ``||w_t||``, which grows no faster than
``sqrt(t) eta H``. Since ``<w*, w_t> <= ||w_t||`` for a unit ``w*``, the two guaranteed curves
must cross: where they do is the bound on the number of updates.
"""

from __future__ import annotations

import textwrap

import numpy as np

from ..bounds import Bound, ProofQuantities
from ..replay import StepFrame
from ..trajectory import Trajectory
from . import style as S


class MistakeProgress:
    """Updates so far against the step, with the rule's mistake bound as a line."""

    def __init__(self, ax, *, title: str = "Mistakes so far"):
        self.ax = ax
        S.style_axes(ax, title=title, xlabel="step", ylabel="updates")
        (self.future,) = ax.plot([], [], color=S.POS, lw=1.4, alpha=0.25, drawstyle="steps-post",
                                 zorder=2)
        (self.curve,) = ax.plot([], [], color=S.POS, lw=2.4, drawstyle="steps-post", zorder=3)
        (self.bound,) = ax.plot([], [], color=S.BOUND, lw=2.2, ls="--", zorder=2)
        self.bound_text = ax.text(0.97, 0.55, "", transform=ax.transAxes, fontsize=S.TICK_SIZE,
                                  color="#8A5A00", ha="right", va="center", zorder=6)
        self.cursor = ax.axvline(0, color=S.LINE, lw=1.2, alpha=0.6, zorder=4)
        self.dot = ax.scatter([], [], s=60, c=S.LINE, zorder=5)
        self.steps = np.zeros(0, dtype=np.int64)

    def set_run(self, traj: Trajectory, bound: Bound | None) -> None:
        steps = traj.update_steps
        self.steps = steps
        xs = np.concatenate([[0], steps, [traj.n_steps]])
        ys = np.concatenate([[0], np.arange(1, len(steps) + 1), [len(steps)]])
        self.future.set_data(xs, ys)  # the whole run, faint; the solid curve stops at step k
        top = max(len(steps), 1)
        right = max(traj.n_steps, 1)
        if bound is not None and bound.value is not None:
            self.bound.set_data([0, right], [bound.value, bound.value])
            shown = bound.value if bound.value < 1e6 else float("inf")
            self.bound_text.set_text(f"bound {bound.formula} = {bound.value:.4g}\n{bound.source}")
            if np.isfinite(shown):
                top = max(top, bound.value)
        else:
            self.bound.set_data([], [])
            note = bound.note if bound is not None else ""
            self.bound_text.set_text(
                "no mistake bound:\n" + textwrap.fill(note, 30) if note else "")
        self.ax.set_xlim(0, right * 1.02)
        self.ax.set_ylim(0, top * 1.12 + 0.5)

    def dynamic_artists(self) -> list:
        return [self.curve, self.cursor, self.dot]

    def show(self, f: StepFrame) -> None:
        u = f.n_updates
        self.curve.set_data(np.concatenate([[0], self.steps[:u], [f.k]]),
                            np.concatenate([[0], np.arange(1, u + 1), [u]]))
        self.cursor.set_xdata([f.k, f.k])
        self.dot.set_offsets([[f.k, f.n_updates]])


class ProofProgress:
    """``<w*, w_u>`` and ``||w_u||`` after each update ``u``, with their guaranteed curves."""

    def __init__(self, ax, *, title: str = "Convergence proof"):
        self.ax = ax
        S.style_axes(ax, title=title, xlabel="updates u", ylabel="")
        (self.dot_line,) = ax.plot([], [], color=S.POS, lw=2.4, label="⟨w*, w_u⟩")
        (self.norm_line,) = ax.plot([], [], color=S.NEG, lw=2.4, label="‖w_u‖")
        (self.dot_future,) = ax.plot([], [], color=S.POS, lw=1.4, alpha=0.25)
        (self.norm_future,) = ax.plot([], [], color=S.NEG, lw=1.4, alpha=0.25)
        self.pq = None
        (self.dot_low,) = ax.plot([], [], color=S.POS, lw=1.4, ls="--", label="≥ u·η·γ")
        (self.norm_up,) = ax.plot([], [], color=S.NEG, lw=1.4, ls="--", label="≤ √(u·c)")
        self.cursor = ax.axvline(0, color=S.LINE, lw=1.2, alpha=0.6)
        self.note = ax.text(0.5, 0.5, "", transform=ax.transAxes, fontsize=S.TEXT_SIZE,
                            ha="center", va="center", color="#333333", wrap=True)
        self.legend = ax.legend(loc="lower right", fontsize=S.TICK_SIZE, ncol=2, framealpha=0.9,
                                handlelength=1.6, columnspacing=1.0)

    def set_run(self, pq: ProofQuantities | None, *, note: str = "") -> None:
        self.pq = pq
        lines = (self.dot_line, self.norm_line, self.dot_low, self.norm_up, self.dot_future,
                 self.norm_future)
        if pq is None:
            for ln in lines:
                ln.set_data([], [])
            self.note.set_text(textwrap.fill(note or "needs separable data and a start at w = 0", 60))
            self.legend.set_visible(False)
            self.ax.set_xlim(0, 1)
            self.ax.set_ylim(0, 1)
            return
        self.note.set_text("")
        self.legend.set_visible(True)
        u = pq.updates
        self.dot_future.set_data(u, pq.dot)
        self.norm_future.set_data(u, np.sqrt(pq.norm_sq))
        self.dot_low.set_data(u, pq.dot_lower)
        self.norm_up.set_data(u, np.sqrt(pq.norm_sq_upper))
        right = max(int(u[-1]), 1)
        top = max(float(np.sqrt(pq.norm_sq_upper[-1])), float(np.sqrt(pq.norm_sq.max())), 1e-9)
        self.ax.set_xlim(0, right)
        self.ax.set_ylim(min(0.0, float(pq.dot.min())) * 1.1, top * 1.1)

    def dynamic_artists(self) -> list:
        return [self.dot_line, self.norm_line, self.cursor]

    def show(self, f: StepFrame) -> None:
        self.cursor.set_xdata([f.n_updates, f.n_updates])
        if self.pq is not None:
            u = f.n_updates + 1
            self.dot_line.set_data(self.pq.updates[:u], self.pq.dot[:u])
            self.norm_line.set_data(self.pq.updates[:u], np.sqrt(self.pq.norm_sq[:u]))
