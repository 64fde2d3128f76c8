"""What to show at step ``k`` of a run: the state, the point picked, the update, one line of text.

A view never advances a run: it asks for ``frame(trajectory, X, y, k)`` and draws that. The
narration is also the accessible description of the figure, so it names every number a sighted
user would read off the plot.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .rules import get_rule
from .trajectory import Trajectory

__all__ = ["StepFrame", "frame", "narrate", "stop_text", "RunInfo", "describe_run"]

_UPDATE_TEXT = {
    "classic": "w ← w + η·y·x = {w}, b ← b + η·y = {b}",
    "pocket": "w ← w + η·y·x = {w}, b ← b + η·y = {b}",
    "averaged": "w ← w + η·y·x = {w}, b ← b + η·y = {b}",
    "margin": "w ← γ·w + η·y·x = {w}, b ← b + η·y = {b}",
    "rosenblatt_r2": "w ← w + η·y·x = {w}, b ← b + η·y·R² = {b}",
    "regularized": "w ← (1 − 2ηρ)·w + η·y·x = {w}, b ← b + η·y = {b}",
    "svm_sgd": "w ← (1 − 2ηρ)·w + η·y·x = {w}, b ← b + η·y = {b}",
    "relaxation": "(w, b) ← (w, b) + η·(t − y·f(x))·y·(x, 1)/‖(x, 1)‖² gives w = {w}, b = {b}",
}


@dataclass(frozen=True)
class StepFrame:
    """Everything a view draws for step ``k``.

    Attributes
    ----------
    k, n_steps : int
        This step and the run's length (``k = 0`` is the start).
    w, b : ndarray (d,), float
        State after step ``k``.
    w_prev, b_prev : ndarray (d,), float
        State before step ``k`` (equal to ``w, b`` at ``k = 0``).
    picked : tuple of int
        Indices visited at step ``k`` (empty at ``k = 0``; several for a mini-batch).
    triggered : tuple of int
        The picked indices that met the update condition.
    updated : bool
    margins : ndarray
        ``y_i f(x_i)`` of the picked points under the previous state.
    update_vector : ndarray (d,) or None
        The correction added to the (decayed) weights, e.g. ``eta y x`` for the classic rule.
    n_updates : int
        Updates in steps ``1..k``.
    text : str
        One-line narration.
    """

    k: int
    n_steps: int
    w: np.ndarray
    b: float
    w_prev: np.ndarray
    b_prev: float
    picked: tuple
    triggered: tuple
    updated: bool
    margins: np.ndarray
    update_vector: np.ndarray | None
    n_updates: int
    text: str


def _g(x: float) -> str:
    """A number in 3 significant digits with a true minus sign (and no "-0")."""
    x = float(x)
    if x == 0 or abs(x) < 5e-13:
        return "0"
    return f"{x:.3g}".replace("-", "−")


def _vec(v) -> str:
    return "(" + ", ".join(_g(x) for x in np.asarray(v).ravel()) + ")"


def _num(x: float) -> str:
    return "+1" if x > 0 else "−1"


def frame(traj: Trajectory, X, y, k: int, *, hand: bool = False) -> StepFrame:
    """The :class:`StepFrame` for step ``k`` of ``traj`` run on ``(X, y)``.

    ``hand=True`` says the learner picked every point ("you choose" mode), which changes how
    the last step's narration ends.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    w, b = traj.state(k)
    if k == 0:
        text = (f"Start: w = {_vec(w)}, b = {_g(b)}. Each step visits one point and updates "
                f"only if {get_rule(traj.rule).condition_text(traj.threshold)}.")
        if traj.n_steps == 0:
            text += " " + stop_text(traj, X, y, hand=hand)
        return StepFrame(0, traj.n_steps, w, b, w.copy(), b, (), (), False, np.zeros(0), None, 0,
                         text)
    w_prev, b_prev = traj.state(k - 1)
    row = np.atleast_1d(traj.picked[k - 1])
    picked = tuple(int(i) for i in row if i >= 0)
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
                    update_vector, n_upd, "")
    return StepFrame(**{**frm.__dict__, "text": narrate(frm, traj, X, y, hand=hand)})


def narrate(f: StepFrame, traj: Trajectory, X, y, *, hand: bool = False) -> str:
    """One sentence for step ``f.k``, e.g. "Step 12, point 7 (1.2, −0.3), label +1: ..."."""
    spec = get_rule(traj.rule)
    t = traj.threshold
    rel_hit = "<" if spec.strict else "≤"
    rel_ok = "≥" if spec.strict else ">"
    if len(f.picked) == 1:
        i = f.picked[0]
        head = (f"Step {f.k}, point {i + 1} {_vec(X[i])}, label {_num(y[i])}: "
                f"y·f(x) = {_g(f.margins[0])}")
        if f.updated:
            body = f" {rel_hit} {_g(t)}, so " + _UPDATE_TEXT[spec.name].format(w=_vec(f.w),
                                                                               b=_g(f.b))
            body += f". Update {f.n_updates}."
        else:
            body = f" {rel_ok} {_g(t)}, no update."
            if traj.decay != 1.0:
                body += f" The decay still shrinks w to {_vec(f.w)}."
    else:
        pts = ", ".join(str(i + 1) for i in f.picked)
        head = f"Step {f.k}, batch of points {pts}: {len(f.triggered)} meet y·f(x) {rel_hit} {_g(t)}"
        body = (f", so the summed correction gives w = {_vec(f.w)}, b = {_g(f.b)}. "
                f"Update {f.n_updates}." if f.updated else ", no update.")
    text = head + body
    if f.k == f.n_steps:
        text += " " + stop_text(traj, X, y, hand=hand)
    return text


def stop_text(traj: Trajectory, X=None, y=None, *, hand: bool = False) -> str:
    """Why the run ended, in plain words (for a hand-picked run: what is left to fix)."""
    p = traj.params
    if hand and X is not None:
        w, b = traj.state(traj.n_steps)
        z = np.asarray(y) * (np.asarray(X) @ w + b)
        bad = int(np.sum(get_rule(traj.rule).triggers(z, traj.threshold)))
        return ("Every point now passes the test: done." if bad == 0 else
                f"{bad} point(s) still fail the test: pick one of them next.")
    if traj.stop_reason == "converged":
        spec = get_rule(traj.rule)
        ok = f"y·f(x) {'≥' if spec.strict else '>'} {traj.threshold:g}".replace("-", "−")
        return (f"Converged after {traj.n_updates} updates: a full pass made no update, so every "
                f"point now has {ok}.")
    if traj.stop_reason == "no_update_pass":
        return ("Stopped: a full pass made no update, but some point outside the visiting order "
                "still fails the test.")
    if traj.stop_reason == "max_steps":
        return f"Stopped at the step limit ({p['max_steps']}) without converging."
    return (f"Stopped at max epochs ({p['max_epochs']}) without converging: {traj.n_updates} "
            "updates so far. Separable data would converge with more epochs; non-separable data "
            "never do.")


@dataclass(frozen=True)
class RunInfo:
    """What the progress panels need besides the trajectory.

    Attributes
    ----------
    bound : explorer.bounds.Bound
        The mistake bound that applies (``value`` None with a reason when none does).
    proof : explorer.bounds.ProofQuantities or None
        ``<w*, w_u>`` and ``||w_u||^2`` per update, when the data are separable and the run
        starts at ``w = 0``.
    band : float or None
        Level of the margin band ``f(x) = ±band`` to draw (rules whose threshold is not 0).
    separable : bool or None
        From the LP (None when not checked).
    note : str
        Why the proof panel is empty, if it is.
    """

    bound: object
    proof: object
    band: float | None
    separable: bool | None
    note: str = ""


def describe_run(traj: Trajectory, X, y) -> RunInfo:
    """Bound, proof quantities and band for a run.

    One max-margin solve gives the separability verdict, the margin ``gamma`` of the rule's
    bound and the ``w*`` of the proof panel, so the proof's two guaranteed lines cross exactly
    at the bound: the separator is the homogeneous one of the points (augmented with 1 when an
    offset is fitted), except for Koski's variant, whose bound uses the affine one.
    """
    from . import bounds, svm
    from .separability import NotSeparableError

    p = traj.params
    fit_b = p["fit_intercept"]
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    band = traj.threshold if traj.threshold != 0 else None
    if len(np.unique(y)) < 2:
        return RunInfo(bounds.Bound(None, "—", "", None, None, "one class only"), None, band,
                       True, "one class only")
    try:
        best = svm.fit(bounds.augment(X) if fit_b else X, y, fit_intercept=False)
        if traj.rule == "rosenblatt_r2":
            best = svm.fit(X, y)
    except NotSeparableError:
        best = None
    bound = bounds.mistake_bound(traj.rule, X, y, eta=p["eta"], forget=p["forget"],
                                 fit_intercept=fit_b, w0=p["w0"],
                                 gamma=None if best is None else best.margin)
    proof, note = None, ""
    if best is None:
        note = "not linearly separable: no w* exists, so the proof does not apply"
    elif p["w0"] is not None and np.any(np.asarray(p["w0"]) != 0):
        note = "the proof starts at w = 0; this run starts elsewhere"
    elif traj.rule in ("regularized", "svm_sgd", "relaxation") or (
            traj.rule == "margin" and p["forget"] != 1.0):
        note = f"the sources prove no mistake bound for the {get_rule(traj.rule).title.lower()}"
    else:
        d = X.shape[1]
        if traj.rule == "rosenblatt_r2":
            w_star, b_star = best.w, best.b
        else:
            w_star, b_star = best.w[:d], (float(best.w[d]) if fit_b else 0.0)
        proof = bounds.proof_quantities(traj, X, y, w_star=w_star, b_star=b_star)
    return RunInfo(bound, proof, band, best is not None, note)
