"""The updates a run makes against its mistake bound, on one axis that holds both.

On data of many features the bound of Sayed, Lemma 60.1, ``H^2 / gamma^2`` with the data's own
``H`` and ``gamma`` (docs/mathematics.md#novikoff-bound), can be millions of times the updates a
run makes: on the 30 standardised features of the breast cancer data it is about ``2.2e8``. The
Perceptron figure's *updates so far* panel then states the bound in words, off its scale. This
figure draws the count and the bound together on a logarithmic axis when they are that far
apart, and names ``H`` and ``gamma``. Notebook 01, section 5, shows it.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from ..perceptron.bounds import Bound
from ..perceptron.trajectory import Trajectory
from . import style as S
from .progress import staircase

__all__ = ["updates_against_bound", "LOG_RATIO"]

#: The bound at least this many times the run's updates: the count axis is logarithmic.
LOG_RATIO = 100.0


def updates_against_bound(traj: Trajectory, bound: Bound | None, *, title: str = "",
                          size=(7.0, 3.6)) -> Figure:
    """The updates so far against the step, beside the rule's mistake bound.

    Parameters
    ----------
    traj : Trajectory
        The run (:func:`explorer.perceptron.train`).
    bound : Bound or None
        Its mistake bound, e.g. ``describe_run(traj, X, y).bound`` or
        :func:`explorer.perceptron.bounds.mistake_bound`; a bound without a value (or None)
        draws the count alone and says why in the title.
    title : str, default ""
        The figure's title; by default "Updates so far against the mistake bound".
    size : (float, float), default (7.0, 3.6)
        Width and height in inches.

    Returns
    -------
    matplotlib.figure.Figure
        A figure not managed by pyplot (nothing is shown or kept open); in a notebook, its
        last expression displays it.
    """
    if not isinstance(traj, Trajectory):
        raise TypeError(f"traj: expected a Trajectory (explorer.perceptron.train); "
                        f"got {type(traj).__name__}")
    if bound is not None and not isinstance(bound, Bound):
        raise TypeError(f"bound: expected a Bound or None; got {type(bound).__name__}")
    fig = Figure(figsize=size, layout="constrained")
    ax = fig.add_subplot()
    n = traj.n_updates
    value = None if bound is None else bound.value
    S.style_axes(ax, title=title or "Updates so far against the mistake bound", xlabel="step",
                 ylabel="updates so far")
    right = max(traj.n_steps, 1)
    stairs = np.vstack([staircase(traj.update_steps), [[right, n]]])
    log = value is not None and value >= LOG_RATIO * max(n, 1)
    if log:
        stairs = stairs[stairs[:, 1] > 0]  # from the first update: no 0 on a log axis
        ax.set_yscale("log")
    ax.plot(stairs[:, 0], stairs[:, 1], color=S.POS, lw=2.4, zorder=3,
            label=f"updates so far: {n:,} in {traj.n_steps:,} steps")
    if value is not None:
        named = [f"{q} = {v:.4g}" for q, v in (("H", bound.radius), ("γ", bound.gamma))
                 if v is not None]
        ax.plot([0, right], [value, value], color=S.BOUND, lw=2.2, ls="--", zorder=2,
                label=f"mistake bound {bound.formula} = {value:.4g}\n"
                      f"{', '.join(named) + ' · ' if named else ''}{bound.source}")
        top = value
    else:
        note = "" if bound is None else bound.note
        ax.plot([], [], " ", label=f"no mistake bound{': ' + note if note else ''}")
        top = max(n, 1)
    ax.set_xlim(0, right * 1.02)
    ax.set_ylim(*((0.7, top * 8) if log else (0, top * 1.15 + 0.3)))
    # under the axes: the curve and the line keep the whole plot
    fig.legend(loc="outside lower center", fontsize=S.TICK_SIZE - 1, frameon=False)
    return fig
