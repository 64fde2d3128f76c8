"""The frame of step ``k``: :func:`frame` builds the :class:`~.step.StepFrame` a view draws.

Its record is :mod:`explorer.perceptron.replay.step`, its sentences
:mod:`explorer.perceptron.replay.narration`; ``info`` comes from
:func:`explorer.perceptron.replay.run_info.describe_run`.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...shared.i18n import tr, tr_n
from ...shared.number_format import number_text
from ..rules import get_rule
from ..trajectory import Trajectory
from .narration import _kept_text, _vec, narrate, plural, stop_text
from .run_info import RunInfo
from .step import StepFrame, _failing, _run_data, kept_classifier

__all__ = ["frame"]


def frame(traj: Trajectory, X, y, k: int, *, hand: bool = False, info: RunInfo | None = None
          ) -> StepFrame:
    """The :class:`StepFrame` for step ``k`` of ``traj`` run on ``(X, y)``.

    ``hand=True`` says the learner picked every point ("you choose" mode), which changes how
    the last step's narration ends; ``info`` (from :func:`describe_run`) lets the last step
    say why a run that did not converge never will (non-separable data), and the steps inside
    a cycle say that the weights repeat (:func:`cycle_text`).
    """
    X, y = _run_data(traj, X, y)
    w, b = traj.state(k)
    kept_w, kept_b, kind, kept_err = kept_classifier(traj, X, y, k)
    failing = _failing(traj, X, y, w, b)
    extra = dict(kept_w=kept_w, kept_b=kept_b, kept_kind=kind, kept_errors=kept_err,
                 failing=failing)
    if k == 0:
        frm = StepFrame(0, traj.n_steps, w, b, w.copy(), b, (), (), False, np.zeros(0), None, 0,
                        "", **extra)
        B = traj.params.get("batch_size", 1)
        short = traj.picked.ndim == 2 and bool((traj.picked < 0).any())  # a pass's last batch
        if B == 1:
            text = tr("Start: w = {w}, b = {b}. Each step visits one point and updates only if "
                      "{condition}.")
        elif short:
            text = tr_n("Start: w = {w}, b = {b}. Each step visits a batch of up to {n} point "
                        "and updates if any of them has {condition}.",
                        "Start: w = {w}, b = {b}. Each step visits a batch of up to {n} points "
                        "and updates if any of them has {condition}.", B)
        else:
            text = tr_n("Start: w = {w}, b = {b}. Each step visits a batch of {n} point and "
                        "updates if any of them has {condition}.",
                        "Start: w = {w}, b = {b}. Each step visits a batch of {n} points and "
                        "updates if any of them has {condition}.", B)
        text = text.format(w=_vec(w), b=number_text(b), n=B,
                           condition=get_rule(traj.rule).condition_text(traj.threshold))
        text += _kept_text(frm, len(y))
        if traj.n_steps == 0:
            text += " " + stop_text(traj, X, y, hand=hand, info=info)
        return replace(frm, text=text)
    w_prev, b_prev = traj.state(k - 1)
    row = np.atleast_1d(traj.picked[k - 1])
    picked = tuple(int(i) for i in row if i >= 0)
    if picked and max(picked) >= len(y):
        raise ValueError(f"these are not the run's data: the run visits point {max(picked) + 1}; "
                         f"got {plural(len(y), 'point')}")
    idx = np.array(picked)
    margins = y[idx] * (X[idx] @ w_prev + b_prev)
    spec = get_rule(traj.rule)
    hits = spec.triggers(margins, traj.threshold)
    triggered = tuple(int(i) for i in idx[hits])
    updated = bool(traj.updated[k - 1])
    factor = traj.decay if traj.decay != 1.0 else (traj.params["forget"]
                                                   if traj.rule == "margin" and updated else 1.0)
    update_vector = (w - factor * w_prev) if updated else None
    n_upd = traj.updates_until(k)
    frm = StepFrame(k, traj.n_steps, w, b, w_prev, b_prev, picked, triggered, updated, margins,
                    update_vector, n_upd, "", **extra)
    return replace(frm, text=narrate(frm, traj, X, y, hand=hand, info=info))
