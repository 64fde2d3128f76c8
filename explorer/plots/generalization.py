"""The Generalization figure: surrogate losses, Hardt & Recht's stability bound, empirical risk.

Three panels drawn from results of :mod:`explorer.generalization.losses` and :mod:`explorer.generalization`:

* losses (top left): zero-one, perceptron, hinge, squared and logistic loss of the functional
  margin ``z = y f(x)`` (``docs/mathematics.md#surrogate-losses``; Hardt & Recht (2022), ch. 3), with the
  point ``(z_i, loss(z_i))`` of every training example of a run at the step shown;
* risk (bottom left): training and test error of the perceptron's last iterate and of the
  pocket iterate on real data (:func:`explorer.generalization.risk_table`);
* stability (right, log axes): the rate of margin mistakes on a fresh point with its standard
  error against ``n``, the proof's ``E[m]/(n + 1)``, Hardt & Recht's
  ``E[(2 + D^2)/gamma^2]/(n + 1)``, the worst case ``3/(gamma^2 (n + 1))`` and the VC bound.
  The probability axis stops just above 1: a bound above 1 says nothing, so its part there is
  cut off and the legend's title says up to which ``n`` each bound is above 1 (two bounds a
  line, in a title box as large as any such words can be, so the legend keeps its frame while
  a simulation's sizes come in).

Artists are created once and updated in place. A step moves the loss markers only (the loss
panel's limits are set per run, from its final margins), so with ``blit`` a step restores the
cached background and draws the markers; anything else (a new run, the simulation's progress,
the risk table) redraws the figure whole. For the page, the markers of each step and the
simulation's points are tracks (:mod:`explorer.plots.generalization_scene`).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
from matplotlib.collections import LineCollection

from ..generalization import MAX_N, RiskTable, StabilityCurve
from ..generalization import losses as L
from ..shared.i18n import N_, tr, tr_n
from ..shared.number_format import number_text
from . import live
from . import style as S
from .generalization_scene import (
    BOUND_NAMES,
    CUT_HEAD,
    CUT_PER_LINE,
    LOSS_STYLE,
    GeneralizationScene,
)
from .page_figure import new_figure
from .tracks import figure_renderer

__all__ = ["GeneralizationFigure", "LossPanel", "StabilityPanel", "RiskPanel"]

FIGSIZE = (13.0, 6.8)
WIDTH_RATIOS = (1.0, 1.25)
Z_MIN_HALF = 3.0
Z_MAX_HALF = 30.0


class LossPanel:
    """The five surrogate losses against ``z`` and the training examples' points on them."""

    def __init__(self, ax):
        self.ax = ax
        S.style_axes(ax, title="", xlabel="z = y·f(x)", ylabel="")
        self.curves, self.points = {}, {}
        for name, (_label, colour, ls, marker) in LOSS_STYLE.items():
            (self.curves[name],) = ax.plot([], [], color=colour, ls=ls, lw=2.2, zorder=3)
            self.points[name] = ax.scatter(np.zeros(0), np.zeros(0), s=S.POINT_SIZE * 0.55,
                                           marker=marker, facecolor="white", edgecolor=colour,
                                           linewidth=1.4, zorder=4)
        ax.axvline(0.0, color=S.GHOST, lw=0.9, zorder=1)
        ax.axvline(1.0, color=S.GHOST, lw=0.9, ls=":", zorder=1)
        self.shown = tuple(LOSS_STYLE)
        self.half = None
        self.legend = None

    def set_losses(self, shown) -> None:
        """Which losses (keys of :data:`LOSS_STYLE`) are drawn."""
        bad = [s for s in shown if s not in LOSS_STYLE]
        if bad:
            raise ValueError(f"losses: expected some of {list(LOSS_STYLE)}; got {bad}")
        self.shown = tuple(s for s in LOSS_STYLE if s in shown)
        self.ax.set_title(tr("Surrogate losses of z = y·f(x)"), fontsize=S.TITLE_SIZE, loc="left")
        self.ax.set_ylabel(tr("loss"), fontsize=S.LABEL_SIZE)  # in the language shown now
        for name, (label, *_style) in LOSS_STYLE.items():
            self.curves[name].set_label(tr(label))
        for name in LOSS_STYLE:
            vis = name in self.shown
            self.curves[name].set_visible(vis)
            self.points[name].set_visible(vis)
        handles = [self.curves[n] for n in self.shown]
        if self.legend is not None:
            self.legend.remove()
        self.legend = self.ax.legend(handles=handles, loc="upper right", fontsize=S.TICK_SIZE - 1,
                                     framealpha=0.9) if handles else None

    def set_range(self, half: float) -> None:
        """Show ``z`` in ``[-half, half]`` (clipped to ``[3, 30]``) and redraw the curves."""
        half = float(np.clip(half, Z_MIN_HALF, Z_MAX_HALF))
        if half == self.half:
            return
        self.half = half
        z = np.linspace(-half, half, 801)
        for name, fn in L.LOSSES.items():
            self.curves[name].set_data(z, fn(z))
        self.ax.set_xlim(-half, half)
        self.ax.set_ylim(-0.1, max(3.0, min(half + 1.5, 8.0)))


#: Top of the probability axis: just above 1, so the line at 1 shows (bounds above it say
#: nothing and are cut off, with words in the legend).
P_TOP = 1.25


def cut_templates(lines: int, *, widest: int = MAX_N) -> list[str]:
    """Titles of ``lines`` lines as wide and as tall as any :meth:`StabilityPanel.cut_lines`
    gives for sizes up to ``widest``: every line of bounds it can hold, each size with the
    digits of ``widest`` (by default :data:`~explorer.generalization.MAX_N`, the largest)."""
    n = "8" * len(str(int(widest)))
    names = [name for _, name in BOUND_NAMES]
    rows = [", ".join(tr("{bound} to n = {n}").format(bound=b, n=n) for b in group) + ","
            for k in range(1, CUT_PER_LINE + 1) for group in combinations(names, k)]
    return ["\n".join([tr(CUT_HEAD), *[row] * (lines - 1)]) for row in rows]


class StabilityPanel:
    """Margin-mistake rate on a fresh point and its bounds against ``n`` on log axes, the
    probability axis capped just above 1 (:data:`P_TOP`); the legend sits in a band kept free
    at the bottom of the axes."""

    #: The legend's entries: (attribute, words).
    WORDS = (("vc", N_("VC bound (expected error, lecture notes)")),
             ("worst", N_("3/(γ²(n+1)): H&R with γ(S) ≥ γ, D = 1")),
             ("bound", N_("E[(2+D²)/γ(S)²]/(n+1): Hardt & Recht")),
             ("mistakes", N_("E[m(Sₙ₊₁)]/(n+1): the proof's count")),
             ("rate", N_("measured P[Y⟨w(Sₙ),X⟩ < 1] ± 1 s.e.")),
             ("zero", N_("no mistake seen: below 3/trials")),
             ("error", N_("measured zero-one error")))

    def __init__(self, ax):
        self.ax = ax
        S.style_axes(ax, title="", xlabel="", ylabel="")
        ax.set_xscale("log")
        ax.set_yscale("log")
        self.vc, = ax.plot([], [], color=S.GHOST, ls=":", lw=2.2, marker="x", ms=6)
        self.worst, = ax.plot([], [], color=S.BOUND, ls="--", lw=2.0)
        self.bound, = ax.plot([], [], color=S.BOUND, ls="-", lw=2.6, marker="D", ms=6)
        self.mistakes, = ax.plot([], [], color=S.ACCENT, ls="-.", lw=2.2, marker="s", ms=6)
        self.rate, = ax.plot([], [], color="#000000", ls="-", lw=2.4, marker="o", ms=7)
        self.errbars = LineCollection([], colors="#000000", linewidths=1.8, zorder=5)
        ax.add_collection(self.errbars)
        self.zero, = ax.plot([], [], ls="none", marker="v", ms=8, color="#000000",
                             markerfacecolor="white")
        self.error, = ax.plot([], [], color=S.NEG, ls="--", lw=1.6, marker="o", ms=5,
                              markerfacecolor="white")
        ax.axhline(1.0, color=S.GHOST, lw=0.8)
        self.legend = None
        self.curve = None
        self.widest = MAX_N  # the largest size planned (the legend's title makes room for it)
        self._legend(())
        self.ax.set_xlim(3, 1500)
        self.ax.set_ylim(1e-3, P_TOP)

    def _legend(self, lines) -> None:
        """The legend, titled with ``lines`` (:meth:`cut_lines`) in a box that any title of as
        many lines fits (:func:`explorer.plots.live.reserve_title`)."""
        if self.legend is not None:
            self.legend.remove()
        ax = self.ax  # the words in the language shown now
        ax.set_title(tr("Fresh-point margin mistakes vs the stability bound"),
                     fontsize=S.TITLE_SIZE, loc="left")
        ax.set_xlabel(tr("training set size n"), fontsize=S.LABEL_SIZE)
        ax.set_ylabel(tr("probability (log scale)"), fontsize=S.LABEL_SIZE)
        for attr, words in self.WORDS:
            getattr(self, attr).set_label(tr(words))
        self.legend = self.ax.legend(loc="lower left", fontsize=S.TICK_SIZE - 1, framealpha=0.9,
                                     title="\n".join(lines) or None,
                                     title_fontsize=S.TICK_SIZE - 1, alignment="left")
        if lines:
            live.reserve_title(self.legend, cut_templates(len(lines), widest=self.widest))

    @property
    def title(self):
        """The legend's title (a ``Text``; the page draws its lines)."""
        return self.legend.get_title()

    @staticmethod
    def cut_lines(curve: StabilityCurve) -> tuple[str, ...]:
        """The legend title's lines: which bounds are above 1 (cut off), and up to which
        ``n``, :data:`CUT_PER_LINE` a line under :data:`CUT_HEAD`; none if no bound is."""
        parts = []
        for attr, name in BOUND_NAMES:
            over = curve.ns[np.asarray(getattr(curve, attr)) > 1.0]
            if len(over):
                parts.append(tr("{bound} to n = {n}").format(bound=name, n=int(over.max())))
        rows = [", ".join(parts[i:i + CUT_PER_LINE]) for i in range(0, len(parts), CUT_PER_LINE)]
        return (tr(CUT_HEAD), *[r + "," for r in rows[:-1]], *rows[-1:]) if rows else ()

    def set_plan(self, ns, *, trials: int) -> None:
        """Fix the axes for the planned sizes ``ns`` and ``trials`` (before results come)."""
        ns = np.asarray(ns, dtype=float)
        self.ax.set_xlim(ns.min() / 1.4, ns.max() * 1.4)
        self.trials = int(trials)
        self.widest = int(ns.max())

    def set_curve(self, curve: StabilityCurve | None) -> None:
        """Draw the completed sizes of ``curve`` (None: nothing yet)."""
        self.curve = curve
        if curve is None or len(curve.ns) == 0:
            for line in (self.vc, self.worst, self.bound, self.mistakes, self.rate, self.zero,
                         self.error):
                line.set_data([], [])
            self.errbars.set_segments([])
            self._legend(())
            self.ax.set_ylim(1e-3, P_TOP)
            return
        if not isinstance(curve, StabilityCurve):
            raise TypeError(f"curve: expected a StabilityCurve; got {type(curve).__name__}")
        n = curve.ns.astype(float)
        floor = 3.0 / curve.trials
        self.vc.set_data(n, curve.vc)
        self.worst.set_data(n, curve.worst_bound)
        self.bound.set_data(n, curve.stability_bound)
        self.mistakes.set_data(n, curve.mistakes_bound)
        seen = curve.margin_rate > 0
        self.rate.set_data(n[seen], curve.margin_rate[seen])
        self.zero.set_data(n[~seen], np.full(int((~seen).sum()), floor))
        lo = np.maximum(curve.margin_rate - curve.margin_se, curve.margin_rate * 0.1)
        hi = curve.margin_rate + curve.margin_se
        self.errbars.set_segments([np.array([[x, a], [x, b]]) for x, a, b, s
                                   in zip(n, lo, hi, seen, strict=True) if s])
        e_seen = curve.error_rate > 0
        self.error.set_data(n[e_seen], curve.error_rate[e_seen])
        # every drawn value (error bars' feet included), to keep the lowest in view and to keep
        # those under the legend (lower left) above it
        ys = [np.full(int((~seen).sum()), floor), lo[seen], curve.error_rate[e_seen],
              *(np.asarray(getattr(curve, a)) for a, _ in BOUND_NAMES)]
        xs = [n[~seen], n[seen], n[e_seen], *(n for _ in BOUND_NAMES)]
        xs, ys = np.concatenate(xs), np.concatenate(ys)
        keep = ys > 0
        xs, ys = xs[keep], ys[keep]
        self.widest = max(self.widest, int(curve.ns.max()))
        self._legend(self.cut_lines(curve))
        self.ax.set_ylim(*self._y_range(xs, ys))

    def _y_range(self, xs, ys) -> tuple[float, float]:
        """Limits of the probability axis: up to :data:`P_TOP`, down so that every value is in
        view and the values left of the legend's right edge (it sits at the lower left) lie
        above its top."""
        ax = self.ax
        top = np.log10(P_TOP)
        bottom = np.log10(ys.min()) - 0.25 if ys.size else -3.0
        renderer = figure_renderer(ax.figure)
        box, frame = self.legend.get_window_extent(renderer), ax.get_window_extent(renderer)
        h = min((box.y1 - frame.y0) / max(frame.height, 1.0) + 0.03, 0.8)  # share of the height
        right = (box.x1 - frame.x0) / max(frame.width, 1.0) + 0.03
        x0, x1 = np.log10(ax.get_xlim())
        under = ys[(np.log10(xs) - x0) / (x1 - x0) <= right]
        if under.size:  # their axes fraction (log y - b) / (top - b) must be at least h
            bottom = min(bottom, (np.log10(under.min()) - h * top) / (1 - h))
        return 10 ** bottom, P_TOP


#: What the risk panel says before it has a table.
NOT_YET = N_("not computed yet:\ntraining and test errors\nshow here once computed")


class RiskPanel:
    """Horizontal bars: training and test error of the last and the pocket iterate (before a
    table: no axis, and :data:`NOT_YET` in words)."""

    #: (attribute, label, colour, hatch): training solid, test hatched; in greyscale the pocket
    #: differs by white dots on its training bar and falling hatches on its test bar
    PARTS = (("train_last", N_("training, last iterate"), S.NEG, ""),
             ("test_last", N_("test, last iterate"), S.NEG, "//"),
             ("train_pocket", N_("training, pocket"), S.POS, ".."),
             ("test_pocket", N_("test, pocket"), S.POS, "\\\\"))
    ROWS = 2
    SHORT = {"iris": N_("Iris vers./virg."), "iris_setosa": N_("Iris setosa/rest"),
             "breast_cancer": N_("Breast cancer")}

    def __init__(self, ax):
        self.ax = ax
        S.style_axes(ax, title=tr("Empirical risk vs test error"), xlabel=tr("error rate (%)"))
        self.bars, self.texts, self.names = [], [], []
        h = 0.66 / len(self.PARTS)
        for r in range(self.ROWS):
            # a little right of the axis line, which would otherwise cover the first letter
            self.names.append(ax.text(0.012, r - 0.44, "", va="center", ha="left",
                                      transform=ax.get_yaxis_transform(),
                                      fontsize=S.TICK_SIZE, fontweight="bold"))
            for j, (attr, label, colour, hatch) in enumerate(self.PARTS):
                y = r - 0.26 + (j + 0.5) * h
                solid = attr.startswith("train")
                bar = ax.barh([y], [0.0], height=h * 0.9, color=colour if solid else "white",
                              edgecolor="white" if solid and hatch else colour, hatch=hatch,
                              linewidth=1.2, label=label if r == 0 else None)[0]
                self.bars.append(bar)
                self.texts.append(ax.text(0, y, "", va="center", fontsize=S.TICK_SIZE - 2))
        ax.set_yticks([])
        ax.set_ylim(self.ROWS - 0.5, -0.55)
        self.legend = None  # each bar is labelled at its end: no legend to cover the bars
        #: Said while there is no table: the panel then shows no axis (ticks at 0 of zero
        #: bars said nothing).
        self.empty = ax.text(0.5, 0.5, tr(NOT_YET), transform=ax.transAxes, ha="center",
                             va="center", fontsize=S.TICK_SIZE, color="#555555")
        self.set_table(None)

    def set_table(self, table: RiskTable | None) -> None:
        """Bars for the first two rows of ``table`` (None: empty)."""
        rows = () if table is None else table.rows[: self.ROWS]
        ax = self.ax  # the words in the language shown now
        ax.set_title(tr("Empirical risk vs test error"), fontsize=S.TITLE_SIZE, loc="left")
        ax.set_xlabel(tr("error rate (%)"), fontsize=S.LABEL_SIZE)
        self.empty.set_text(tr(NOT_YET))
        self.empty.set_visible(not rows)
        self.ax.xaxis.set_visible(bool(rows))  # its ticks, their grid lines and its label
        for bar in self.bars:
            bar.set_visible(bool(rows))
        top = max([max(getattr(r, p[0]) for p in self.PARTS) for r in rows] + [0.05]) * 100
        for r in range(self.ROWS):
            row = rows[r] if r < len(rows) else None
            name = "" if row is None else (tr(self.SHORT[row.key]) if row.key in self.SHORT
                                           else row.title)
            self.names[r].set_text("" if row is None else
                                   tr("{name}: {train} train / {test} test").format(
                                       name=name, train=row.n_train, test=row.n_test))
            for j, (attr, *_rest) in enumerate(self.PARTS):
                bar, text = self.bars[r * len(self.PARTS) + j], self.texts[r * len(self.PARTS) + j]
                v = 0.0 if row is None else 100 * getattr(row, attr)
                bar.set_width(v)
                text.set_position((v + top * 0.01, bar.get_y() + bar.get_height() / 2))
                text.set_text("" if row is None else f"{v:.1f} % {tr(self.PARTS[j][1])}")
        self.ax.set_xlim(0, top * 2.8)


class GeneralizationFigure(GeneralizationScene):
    """The Generalization tab's figure (see the module docstring).

    Parameters
    ----------
    fig : matplotlib Figure, optional
        An existing empty figure (the tab's off-screen one); by default a new one.
    blit : bool, default False
        Steps blit the loss markers over a cached background (the live widget); otherwise
        every render redraws the figure.
    """

    def __init__(self, fig=None, *, figsize=FIGSIZE, dpi: float = 80, blit: bool = False):
        self.fig = new_figure(fig, figsize=figsize, dpi=dpi, canvas=True)
        self._init_scene()
        self._k = None
        self.grid = self.fig.add_gridspec(2, 2, width_ratios=WIDTH_RATIOS, height_ratios=(1.0, 1.2))
        self.losses = LossPanel(self.fig.add_subplot(self.grid[0, 0]))
        self.risk = RiskPanel(self.fig.add_subplot(self.grid[1, 0]))
        self.stability = StabilityPanel(self.fig.add_subplot(self.grid[:, 1]))
        self.X = self.y = self.traj = None
        # margins and gaps in points from the start (as fit sets them): with the grid's own
        # gaps the risk panel's title ran into the loss panel's x label
        live.margins_in_points(self.fig, self.grid, nrows=2, ncols=2)
        self.losses.set_range(Z_MIN_HALF)
        self.losses.set_losses(tuple(LOSS_STYLE))
        self._init_live(blit)
        self.mark_animated()

    # ------------------------------------------------------------------ data
    def set_run(self, X, y, traj) -> None:
        """The run whose examples are marked: data ``X`` (n, d), ``y`` (n,) and its
        :class:`explorer.perceptron.trajectory.Trajectory`; the loss axis covers the run's final margins."""
        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=float)
        if X.ndim != 2 or y.shape != (X.shape[0],):
            raise ValueError(f"X, y: expected shapes (n, d) and (n,); got {X.shape}, {y.shape}")
        if traj.dim != X.shape[1]:
            raise ValueError(f"traj: expected a run on {X.shape[1]} features; got {traj.dim}")
        self.X, self.y, self.traj = X, y, traj
        self._k = None
        w, b = traj.state(traj.n_steps)
        z = y * (X @ w + b)
        self.losses.set_losses(self.losses.shown)  # its words in the language shown now
        self.losses.set_range(1.15 * float(np.quantile(np.abs(z), 0.9)) if z.size else 3.0)
        self.invalidate()

    def set_losses(self, shown) -> None:
        self.losses.set_losses(shown)
        if self.traj is not None and self._k is not None:
            self.show(self._k)  # the markers of losses shown again follow the step
        self.invalidate()

    def set_stability(self, curve: StabilityCurve | None, *, ns=None, trials: int | None = None
                      ) -> None:
        if ns is not None:
            self.stability.set_plan(ns, trials=trials or 100)
        self.stability.set_curve(curve)
        self.invalidate()

    def set_risk(self, table: RiskTable | None) -> None:
        self.risk.set_table(table)
        self.invalidate()

    # ------------------------------------------------------------------ step
    def margins_at(self, k: int) -> np.ndarray:
        """``z_i = y_i f(x_i)`` of every training example after step ``k``."""
        w, b = self.traj.state(k)
        return self.y * (self.X @ w + b)

    def step_text(self, k: int) -> str:
        """The narration of step ``k``: the mean training losses ("" without a run)."""
        if self.traj is None:
            return ""
        z = self.margins_at(k)
        beyond = int(np.sum(np.abs(z) > self.losses.half))
        means = ", ".join(
            f"{tr(L.NAMES[n])} {number_text(float(np.mean(L.LOSSES[n](z))))}"
            for n in self.losses.shown)
        n = self.traj.n_steps
        if means and beyond:
            return tr_n("Step {k} of {n}: mean training losses {means}; {beyond} point(s) beyond "
                        "the z axis are drawn at its edge.", "Step {k} of {n}: mean training "
                        "losses {means}; {beyond} point(s) beyond the z axis are drawn at its "
                        "edge.", beyond).format(k=k, n=n, means=means, beyond=beyond)
        if beyond:
            return tr_n("Step {k} of {n}: no loss shown; {beyond} point(s) beyond the z axis are "
                        "drawn at its edge.", "Step {k} of {n}: no loss shown; {beyond} point(s) "
                        "beyond the z axis are drawn at its edge.", beyond).format(
                            k=k, n=n, beyond=beyond)
        if means:
            return tr("Step {k} of {n}: mean training losses {means}.").format(k=k, n=n,
                                                                               means=means)
        return tr("Step {k} of {n}: no loss shown.").format(k=k, n=n)

    def show(self, k: int) -> str:
        """Mark the examples' losses after step ``k`` (the parts the page draws,
        :meth:`step_parts`); returns a narration with mean losses."""
        if self.traj is None:
            return ""
        self._k = int(k)
        self.apply(self.step_parts(k))
        return self.step_text(k)

    def dynamic_artists(self) -> list:
        return [self.losses.points[n] for n in LOSS_STYLE]

    # ------------------------------------------------------------------ size
    def fit(self, width: int, height: int, *, scale: float = 1.0, base_dpi: float = 80) -> None:
        """Resize to ``width`` × ``height`` CSS pixels with type ``scale`` times its designed size."""
        live.resize(self.fig, width, height, scale=scale, base_dpi=base_dpi)
        live.margins_in_points(self.fig, self.grid, nrows=2, ncols=2)
        self.stability.set_curve(self.stability.curve)  # the legend's band follows the size
        self.invalidate()
