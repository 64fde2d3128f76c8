"""Progress of a run: mistakes against steps with the mistake bound, and the proof's quantities.

The convergence proofs (Sayed Lemma 60.1; Hardt & Recht ch. 3) track ``<w*, w_t>``, which grows
by at least ``eta gamma`` per update, and ``||w_t||^2``, which grows by at most ``eta^2 H^2``.
From a start ``w~_0`` the guaranteed curves are ``a + u eta gamma`` and
``sqrt(c + u eta^2 H^2)`` with ``a = <w*, w~_0>``, ``c = ||w~_0||^2`` (both 0 from the origin).
Since ``<w*, w_t> <= ||w_t||`` for a unit ``w*``, the two guaranteed curves must cross: where
they do is the bound on the number of updates.
"""

from __future__ import annotations

import textwrap

import numpy as np

from ..perceptron.bounds import Bound, ProofQuantities
from ..perceptron.replay import PENDING_NOTE, StepFrame
from ..perceptron.trajectory import Trajectory
from ..shared.i18n import N_, tr
from ..shared.number_format import number_text
from . import style as S
from .scene import Track
from .tracks import figure_renderer, line_style, marker_style, points_style


def _lines(text: str, width: int) -> list:
    return [ln for para in text.split("\n") for ln in textwrap.wrap(para, width)]


def _axes_points(ax) -> tuple[float, float]:
    """Width and height of an axes in points (type is sized in points)."""
    fig, pos = ax.figure, ax.get_position()
    return pos.width * fig.get_figwidth() * 72, pos.height * fig.get_figheight() * 72


def _free_fraction(ax, n_lines: int, size: float) -> float:
    """Share of the axes height taken by ``n_lines`` of text of ``size`` points, plus a gap."""
    need = (n_lines * 1.25 * size + 10) / max(_axes_points(ax)[1], 1.0)
    return float(np.clip(need, 0.12, 0.6))


def staircase(update_steps) -> np.ndarray:
    """The corners of the mistakes-so-far curve of a run whose updates are at ``update_steps``
    (1-based, increasing): from (0, 0), update i at step s_i gives (s_i, i - 1), (s_i, i)."""
    steps = np.asarray(update_steps)
    u = np.arange(1, len(steps) + 1)
    corners = np.stack([np.column_stack([steps, u - 1]), np.column_stack([steps, u])], axis=1)
    return np.vstack([[[0.0, 0.0]], corners.reshape(-1, 2)]).astype(float)


def so_far(k: int, u: int) -> dict:
    """The ``prefix`` part of a staircase at step ``k`` after ``u`` updates: its first corners,
    then the step shown."""
    return {"n": 1 + 2 * int(u), "tail": np.array([k, u], dtype=float)}


def draw_so_far(line, stairs, part: dict) -> None:
    """Draw :func:`so_far`'s ``part`` of ``stairs`` on a matplotlib line."""
    pts = np.vstack([stairs[: part["n"]], part["tail"]])
    line.set_data(pts[:, 0], pts[:, 1])


class MistakeProgress:
    """Updates so far against the step, with the rule's mistake bound as a line.

    "So far" is the rule of :data:`explorer.plots.style.SO_FAR`: the curve stops at the step
    shown and nothing of the later steps is drawn (the axes span the whole run, so they do not
    move while it plays). The bound's formula and source sit in a band kept free at the top of
    the axes (the y-limit is raised so no curve reaches it), so the text never covers the curve.
    """

    SIZE = S.TICK_SIZE - 1  # points, the bound's text
    PANEL = "mistakes"

    def __init__(self, ax, *, title: str = N_("Updates so far")):
        self.ax = ax
        S.style_axes(ax, title=title, xlabel=N_("step"), ylabel=N_("updates"))
        # a staircase through (0, 0), (s_1, 0), (s_1, 1), (s_2, 1), ... (s_u: update u's step)
        (self.curve,) = ax.plot([], [], color=S.POS, lw=2.4, zorder=3)
        (self.bound,) = ax.plot([], [], color=S.BOUND, lw=2.2, ls="--", zorder=2)
        self.bound_text = ax.text(0.03, 0.97, "", transform=ax.transAxes, fontsize=self.SIZE,
                                  color="#6B4700", ha="left", va="top", zorder=6, linespacing=1.15)
        self.cursor = ax.axvline(0, color=S.LINE, lw=1.2, alpha=0.6, zorder=4)
        self.dot = ax.scatter([], [], s=60, c=S.LINE, zorder=5)
        # a run whose weights repeat: the steps inside the cycle shaded, the period named
        self.cycle_span = ax.axvspan(0, 0, color=S.ACCENT, alpha=0.12, lw=0, zorder=0.5,
                                     visible=False)
        self.cycle_text = ax.text(0.98, 0.03, "", transform=ax.transAxes, fontsize=self.SIZE,
                                  color="#1F5F86", ha="right", va="bottom", zorder=6)
        self.steps = np.zeros(0, dtype=np.int64)
        self.stairs = np.zeros((1, 2))

    def set_run(self, traj: Trajectory, bound: Bound | None, cycle=None) -> None:
        """A new run; ``cycle`` (:func:`explorer.perceptron.repeats.run_cycle`) shades the steps from the
        first step of its cycle on, when the weights repeat."""
        steps = traj.update_steps
        self.steps = steps
        self.stairs = staircase(steps)
        top = max(len(steps), 1)
        right = max(traj.n_steps, 1)
        wrap = max(16, int(0.94 * _axes_points(self.ax)[0] / (0.55 * self.SIZE)))  # characters
        if bound is not None and bound.value is not None:
            self.bound.set_data([0, right], [bound.value, bound.value])
            head = bound.formula.rpartition(": ")[0]
            head = tr(head) if head else head  # gettext's "" is the catalog's header
            text = _lines(tr("solid: {so_far}").format(so_far=tr(S.SO_FAR)), wrap)
            text += _lines(tr("bound (dashed) = {value}").format(
                value=number_text(bound.value, digits=4)), wrap)
            if len(bound.formula) <= wrap:
                text.append(bound.formula)
            else:  # a long equation is the crossing the proof panel draws: say so, briefly
                text += _lines(tr("{head}: where the proof's lines cross").format(head=head)
                               if head else tr("where the proof's lines cross"), wrap)
            text += _lines(tr(bound.source) if bound.source else "", wrap)
            if bound.value < 1e6:
                top = max(top, bound.value)
        else:
            self.bound.set_data([], [])
            note = bound.note if bound is not None else ""
            head = tr("mistake bound:") if note == PENDING_NOTE else tr("no mistake bound:")
            text = _lines(tr("solid: {so_far}").format(so_far=tr(S.SO_FAR)), wrap) + (
                [head, *_lines(tr(note), wrap)] if note else [])
        self.bound_text.set_text("\n".join(text))
        free = _free_fraction(self.ax, len(text), self.SIZE) if text else 0.0
        self.ax.set_xlim(0, right * 1.02)
        self.ax.set_ylim(0, (top * 1.04 + 0.3) / (1.0 - free))
        found = cycle is not None and cycle.found
        if found:
            self.cycle_span.set_x(cycle.start_step)
            self.cycle_span.set_width(right * 1.02 - cycle.start_step)
        self.cycle_span.set_visible(found)
        self.cycle_text.set_text(tr("weights repeat from step {s}\n(period {p})").format(
            s=cycle.start_step, p=cycle.length) if found else "")

    def dynamic_artists(self) -> list:
        return [self.curve, self.cursor, self.dot]

    def tracks(self, pt: float) -> list:
        """The curve (a prefix of the staircase, then the step shown), cursor and dot."""
        return [Track("mistakes", self.PANEL, "prefix", z=self.curve.get_zorder(),
                      style=line_style(self.curve, pt), data={"data": self.stairs}),
                Track("mistakes_cursor", self.PANEL, "vline", z=self.cursor.get_zorder(),
                      style=line_style(self.cursor, pt)),
                Track("mistakes_dot", self.PANEL, "points", z=self.dot.get_zorder(),
                      style=points_style(self.dot, pt))]

    def artists(self) -> dict:
        return {"mistakes": self.curve, "mistakes_cursor": self.cursor, "mistakes_dot": self.dot}

    def parts(self, f: StepFrame) -> dict:
        u = int(f.n_updates)
        return {"mistakes": so_far(f.k, u),
                "mistakes_cursor": {"x": float(f.k)},
                "mistakes_dot": {"xy": np.array([[f.k, u]], dtype=float)}}

    def show(self, f: StepFrame) -> None:
        p = self.parts(f)
        draw_so_far(self.curve, self.stairs, p["mistakes"])
        x = p["mistakes_cursor"]["x"]
        self.cursor.set_xdata([x, x])
        self.dot.set_offsets(p["mistakes_dot"]["xy"])


class ProofProgress:
    """``<w*, w_u>`` and ``||w_u||`` after each update ``u``, with their guaranteed curves.

    Without colour the four curves still differ: the measured ones are solid with filled
    markers (circles for ``<w*, w_u>``, squares for ``||w_u||``), their guarantees dashed
    or dotted with the same markers hollow. The legend sits in a band at the top of the axes
    that the y-limit keeps free of curves.
    """

    MARKERS = 12  # about this many markers per curve
    PANEL = "proof"

    def __init__(self, ax, *, title: str = N_("Convergence proof")):
        self.ax = ax
        S.style_axes(ax, title=title, xlabel=N_("updates u"), ylabel="")
        mk = dict(ms=5.5, markeredgewidth=1.2)
        (self.dot_line,) = ax.plot([], [], color=S.POS, lw=2.4, marker="o", label="⟨w*, w_u⟩",
                                   zorder=3, **mk)
        (self.norm_line,) = ax.plot([], [], color=S.NEG, lw=2.4, marker="s", label="‖w_u‖",
                                    zorder=3, **mk)
        self.pq = None
        self.labels = (tr("updates u"),)  # the x label's wordings, longest first (fit_label)
        self.curves = (np.zeros((0, 2)), np.zeros((0, 2)))
        self.every = 1
        (self.dot_low,) = ax.plot([], [], color=S.POS, lw=1.5, ls="--", marker="o", mfc="white",
                                  label="≥ u·η·γ", zorder=2, **mk)
        (self.norm_up,) = ax.plot([], [], color=S.NEG, lw=1.5, ls=":", marker="s", mfc="white",
                                  label="≤ √(u·η²H²)", zorder=2, **mk)
        self.cursor = ax.axvline(0, color=S.LINE, lw=1.2, alpha=0.6)
        self.note = ax.text(0.5, 0.5, "", transform=ax.transAxes, fontsize=S.TEXT_SIZE,
                            ha="center", va="center", color="#333333", wrap=True)
        self.legend = ax.legend(loc="upper left", fontsize=S.TICK_SIZE - 1, ncol=2, frameon=False,
                                handlelength=2.6, columnspacing=1.2, borderaxespad=0.3)

    def set_run(self, pq: ProofQuantities | None, *, note: str = "") -> None:
        self.pq = pq
        # the measured curves' vertices, (update, value) for updates 0, 1, ...
        self.curves = (np.zeros((0, 2)), np.zeros((0, 2))) if pq is None else tuple(
            np.column_stack([np.asarray(pq.updates, dtype=float), v]).astype(float)
            for v in (pq.dot, np.sqrt(pq.norm_sq)))
        self.every = 1
        lines = (self.dot_line, self.norm_line, self.dot_low, self.norm_up)
        if pq is None:
            for ln in lines:
                ln.set_data([], [])
            self.note.set_text(textwrap.fill(tr(note or N_("needs separable data")), 60))
            self.legend.set_visible(False)
            self.ax.set_xlabel(tr("updates u"), fontsize=S.LABEL_SIZE)
            self.ax.set_xlim(0, 1)
            self.ax.set_ylim(0, 1)
            return
        self.note.set_text("")
        self.legend.set_visible(True)
        self.labels = (tr("updates u"),)
        u = pq.updates
        every = max(1, len(u) // self.MARKERS)
        self.every = every
        for ln in lines[:4]:
            ln.set_markevery(every)
        grow = "u·(2η + η²H²)" if pq.per_step > pq.eta**2 * pq.H**2 * (1 + 1e-12) else "u·η²H²"
        shifted = pq.start_dot != 0 or pq.start_norm_sq != 0
        texts = self.legend.get_texts()
        texts[2].set_text(f"≥ {'a + ' if shifted else ''}u·η·γ")
        texts[3].set_text(f"≤ √({'c + ' if shifted else ''}{grow})")
        self.labels = (tr("updates u"),)
        if shifted:
            a, c = (number_text(v) for v in (pq.start_dot, pq.start_norm_sq))
            self.labels = (tr("updates u   (start: a = ⟨w*, w̃₀⟩ = {a}, c = ‖w̃₀‖² = {c})").format(
                a=a, c=c), tr("updates u   (start: a = {a}, c = {c})").format(a=a, c=c),
                tr("updates u"))
        self.ax.set_xlabel(self.labels[0], fontsize=S.LABEL_SIZE)
        self.dot_low.set_data(u, pq.dot_lower)
        self.norm_up.set_data(u, np.sqrt(pq.norm_sq_upper))
        right = max(int(u[-1]), 1)
        top = max(float(np.sqrt(pq.norm_sq_upper[-1])), float(np.sqrt(pq.norm_sq.max())), 1e-9)
        low = min(0.0, float(pq.dot.min()), float(pq.dot_lower.min())) * 1.1
        # the legend's band, as tall as the legend drawn (its two rows, their markers)
        fig = self.ax.figure
        tall = self.legend.get_window_extent(figure_renderer(fig)).height + 8 * fig.dpi / 72
        free = float(np.clip(tall / max(self.ax.get_position().height * fig.bbox.height, 1.0),
                             0.12, 0.6))
        self.ax.set_xlim(0, right)
        self.ax.set_ylim(low, low + (top * 1.04 - low) / (1.0 - free))

    def fit_label(self) -> None:
        """The x label's longest wording that is no wider than the panel: the starting values
        a and c with their formulas, then their values only, then none."""
        fig = self.ax.figure
        renderer = figure_renderer(fig)
        room = self.ax.get_position().width * fig.bbox.width
        for text in self.labels:
            self.ax.set_xlabel(text, fontsize=S.LABEL_SIZE)
            if self.ax.xaxis.label.get_window_extent(renderer).width <= room:
                return

    def dynamic_artists(self) -> list:
        return [self.dot_line, self.norm_line, self.cursor]

    def tracks(self, pt: float) -> list:
        """Both measured curves (prefixes, and their markers every few updates) and the
        cursor at the updates made so far."""
        dot, norm = self.curves
        out = []
        for name, line, data in (("proof_dot", self.dot_line, dot),
                                 ("proof_norm", self.norm_line, norm)):
            out.append(Track(name, self.PANEL, "prefix", z=line.get_zorder(),
                             style=line_style(line, pt), data={"data": data}))
            out.append(Track(name + "_marks", self.PANEL, "points", z=line.get_zorder(),
                             style=marker_style(line, pt)))
        out.append(Track("proof_cursor", self.PANEL, "vline", z=self.cursor.get_zorder(),
                         style=line_style(self.cursor, pt)))
        return out

    def artists(self) -> dict:
        return {"proof_dot": self.dot_line, "proof_dot_marks": self.dot_line,
                "proof_norm": self.norm_line, "proof_norm_marks": self.norm_line,
                "proof_cursor": self.cursor}

    def parts(self, f: StepFrame) -> dict:
        """Curves up to update ``u`` (the updates made by step ``f.k``); markers where
        matplotlib's ``markevery`` puts them."""
        out = {"proof_cursor": {"x": float(f.n_updates)}}
        dot, norm = self.curves
        n = min(int(f.n_updates) + 1, len(dot))
        for name, data in (("proof_dot", dot), ("proof_norm", norm)):
            out[name] = {"n": n}
            out[name + "_marks"] = {"xy": data[:n][:: self.every]}
        return out

    def show(self, f: StepFrame) -> None:
        p = self.parts(f)
        self.cursor.set_xdata([p["proof_cursor"]["x"]] * 2)
        if self.pq is not None:
            dot, norm = self.curves
            n = p["proof_dot"]["n"]
            self.dot_line.set_data(dot[:n, 0], dot[:n, 1])
            self.norm_line.set_data(norm[:n, 0], norm[:n, 1])
