"""The narration of a run: one sentence per step, the status line, and why the run stopped.

The narration is also the accessible description of the figure, so it names every number a
sighted user would read off the plot: :func:`narrate` for step ``k`` (a single point or a
mini-batch, Sayed (60.23)), :func:`cycle_text` once the weights repeat, :func:`stop_text` for
the end of the run (with the separability certificate or the mistake bound from
:func:`explorer.perceptron.replay.describe_run`), :func:`status_text` for the timeline, and the number
formats they share.
"""

from __future__ import annotations

import numpy as np

from ...shared.number_format import number_text
from ..bounds import why_no_bound
from ..rules import get_rule
from ..trajectory import Trajectory
from .run_info import RunInfo
from .step import StepFrame, _failing

__all__ = ["narrate", "stop_text", "outlook_text", "plural", "cycle_text", "status_text",
           "BATCH_DETAIL"]

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


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the noun in agreement: ``plural(1, "update") == "1 update"``, ``"2 updates"``.

    ``many`` gives an irregular plural.
    """
    n = int(n)
    return f"{n} {word if n == 1 else (many or word + 's')}"


#: Most components of a vector written out in the narration; a longer one (data of many
#: features: 30, 64) gives its first three and how many it has, so that the words stay a line
#: or two at a projector (the figure shows the rest).
VEC_SHOWN = 4


def _vec(v) -> str:
    v = np.asarray(v).ravel()
    if len(v) <= VEC_SHOWN:
        return "(" + ", ".join(number_text(x) for x in v) + ")"
    return "(" + ", ".join(number_text(x) for x in v[:3]) + f", … {len(v)} components)"


def _num(x: float) -> str:
    return "+1" if x > 0 else "−1"


def _kept_text(f: StepFrame, n: int) -> str:
    if f.kept_kind is None:
        return ""
    what = "The pocket holds" if f.kept_kind == "pocket" else "The average of the iterates is"
    return (f" {what} w = {_vec(f.kept_w)}, b = {number_text(f.kept_b)}, with {f.kept_errors} of "
            f"{plural(n, 'point')} wrong.")


def narrate(f: StepFrame, traj: Trajectory, X, y, *, hand: bool = False,
            info: RunInfo | None = None) -> str:
    """One sentence for step ``f.k``, e.g. "Step 12, point 7 (1.2, −0.3), label +1: ..."."""
    spec = get_rule(traj.rule)
    t = traj.threshold
    rel_hit = "<" if spec.strict else "≤"
    rel_ok = "≥" if spec.strict else ">"
    if len(f.picked) == 1:
        i = f.picked[0]
        head = (f"Step {f.k}, point {i + 1} {_vec(X[i])}, label {_num(y[i])}: "
                f"y·f(x) = {number_text(f.margins[0])}")
        if f.updated:
            body = f" {rel_hit} {number_text(t)}, so " + _UPDATE_TEXT[spec.name].format(w=_vec(f.w),
                                                                               b=number_text(f.b))
            body += f". Update {f.n_updates}."
        else:
            body = f" {rel_ok} {number_text(t)}, no update."
            if traj.decay != 1.0:
                body += f" The decay still shrinks w to {_vec(f.w)}."
    else:
        head, body = _batch_text(f, spec, t, rel_hit, rel_ok)
        if not f.updated and traj.decay != 1.0:
            body += f" The decay still shrinks w to {_vec(f.w)}."
    text = head + body + _kept_text(f, len(np.asarray(y)))
    if info is not None and info.cycle is not None:
        text += cycle_text(info.cycle, f.k)
    if f.k == f.n_steps:
        text += " " + stop_text(traj, X, y, hand=hand, info=info)
    return text


def cycle_text(cycle, k: int) -> str:
    """What narration says at step ``k`` of a run that has entered ``cycle`` (from
    :func:`explorer.perceptron.repeats.run_cycle`): from its first step ``s``, " The weights repeat: period
    4 from step 0, exactly."; once a whole period has passed, which earlier state this one
    repeats. Empty before ``s``, at the start, and for a run without a cycle."""
    if not cycle.found or k < max(cycle.start_step, 1):
        return ""
    s, p = cycle.start_step, cycle.length
    how = "exactly" if cycle.exact else f"to within {cycle.tolerance:.2g}"
    text = f" The weights repeat: period {p} from step {s}, {how}."
    if k >= s + p:
        verb = "equals" if cycle.exact else "matches"
        text += f" The state after step {k} {verb} the one after step {k - p}."
    return text


def status_text(traj: Trajectory, k: int, *, n_points: int, cycle=None,
                edited: bool = False) -> str:
    """The timeline's status line at step ``k``, e.g. "step 12 of 240 · 3 updates · 6 points";
    ``edited`` says the points were edited, ``cycle`` (:func:`explorer.perceptron.repeats.run_cycle`)
    names the period once the weights repeat."""
    u = traj.updates_until(min(int(k), traj.n_steps))
    loop = (f" · weights repeat: period {cycle.length} from step {cycle.start_step}"
            if cycle is not None and cycle.found else "")
    return (f"step {k} of {traj.n_steps} · {plural(u, 'update')} · "
            f"{plural(n_points, 'point')}{' (edited)' if edited else ''}{loop}")


#: A batch up to this size is narrated point by point, with each point's margin.
BATCH_DETAIL = 10


def _batch_text(f: StepFrame, spec, t, rel_hit: str, rel_ok: str) -> tuple[str, str]:
    """Narration of a mini-batch step: the batch, its margins, the points that meet the
    condition, and the summed update (Sayed, eq. (60.23): a sum, not an average)."""
    B = len(f.picked)
    if B <= BATCH_DETAIL:
        head = (f"Step {f.k}, batch of points {', '.join(str(i + 1) for i in f.picked)} "
                f"(y·f(x) = {', '.join(number_text(z) for z in f.margins)})")
    else:
        shown = ", ".join(str(i + 1) for i in f.picked[:8])
        head = f"Step {f.k}, batch of {B} points ({shown}, …)"
    if not f.triggered:
        return head, f": {'both' if B == 2 else 'all'} have y·f(x) {rel_ok} {number_text(t)}, no update."
    hit = len(f.triggered)
    update = _UPDATE_TEXT[spec.name].replace("+ η·", "+ Σ η·").format(w=_vec(f.w), b=number_text(f.b))
    arrow = "" if f.update_vector is None else _vec(f.update_vector)
    if hit == 1:
        how = (f"{_points_list(f.triggered)} meets y·f(x) {rel_hit} {number_text(t)}, so its correction "
               f"is the whole update: {update}; the arrow is that correction, {arrow}")
    else:
        who = ("all of them" if B > 2 else "both") if hit == B else _points_list(f.triggered)
        how = (f"{who} meet y·f(x) {rel_hit} {number_text(t)}, so their corrections are added up, all "
               f"computed at the same w (a sum, not an average): {update}; the arrow is the "
               f"sum, {arrow}")
    return head, f": {how}. Update {f.n_updates}."


def _points_list(idx) -> str:
    """``"points 2, 5 and 6"`` (1-based), shortened after eight."""
    nums = [str(i + 1) for i in idx]
    if len(nums) == 1:
        return f"point {nums[0]}"
    if len(nums) > 8:
        return "points " + ", ".join(nums[:8]) + ", …"
    return "points " + ", ".join(nums[:-1]) + " and " + nums[-1]


def _not_separable_text(cert, d: int) -> str:
    """Plain reason, from the LP's certificate, why the updates never stop."""
    where = _vec(cert.point)
    if cert.conic:
        return (f"The data are not separable through the origin: the point {where} lies in the "
                "convex cones of both classes, so no line through the origin separates them "
                "and the updates never stop.")
    cut = {1: "no threshold", 2: "no line"}.get(d, "no hyperplane")
    return (f"The data are not linearly separable: the point {where} lies in the convex hulls of "
            f"both classes, so {cut} separates them and the updates never stop.")


def stop_text(traj: Trajectory, X=None, y=None, *, hand: bool = False,
              info: RunInfo | None = None) -> str:
    """Why the run ended, in plain words (for a hand-picked run: what is left to fix).

    A run stopped by its epoch or step limit then says what more epochs would do
    (:func:`outlook_text`, with the separability verdict of ``info`` from
    :func:`describe_run` when there is one).
    """
    p = traj.params
    if hand and X is not None:
        w, b = traj.state(traj.n_steps)
        bad = _failing(traj, np.asarray(X, dtype=float), np.asarray(y, dtype=float), w, b)
        if not bad:
            return "Every point now passes the test: done."
        verb = "fails" if len(bad) == 1 else "fail"
        pick = "pick it next" if len(bad) == 1 else "pick one of them next"
        return f"{plural(len(bad), 'point')} still {verb} the test ({_points_list(bad)}): {pick}."
    if traj.stop_reason == "converged":
        spec = get_rule(traj.rule)
        ok = f"y·f(x) {'≥' if spec.strict else '>'} {number_text(traj.threshold, digits=6)}"
        return (f"Converged after {plural(traj.n_updates, 'update')}: a full pass made no update, "
                f"so every point now has {ok}.")
    if traj.stop_reason == "no_update_pass":
        return ("Stopped: a full pass made no update, but some point outside the visiting order "
                "still fails the test.")
    if traj.stop_reason == "max_steps":
        text = f"Stopped at the step limit ({p['max_steps']}) without converging."
    else:
        text = (f"Stopped at max epochs ({p['max_epochs']}) without converging: "
                f"{plural(traj.n_updates, 'update')} so far.")
    if info is None:
        return f"{text} {outlook_text(traj)}"
    return f"{text} " + outlook_text(traj, separable=info.separable,
                                     certificate=info.certificate, bound=info.bound)


def outlook_text(traj: Trajectory, *, separable: bool | None = None, certificate=None,
                 bound=None) -> str:
    """What more epochs would do for a run that has not converged, true of its rule: the one
    source of that sentence for the single-rule view and the race.

    A rule converges on linearly separable data where the sources prove it (its declaration
    :attr:`explorer.perceptron.rules.Rule.convergence`, in settings the proof covers:
    :func:`explorer.perceptron.bounds.why_no_bound`); for any other the sentence says nothing guarantees
    it (relaxation does not stop on Koski's example). ``separable`` is the verdict in the run's
    setting (None: not known, e.g. a race whose solver is still loading), ``certificate`` the
    LP's point in both hulls when not separable, ``bound`` (:class:`explorer.perceptron.bounds.Bound`) the
    run's mistake bound, whose value is quoted when there is one.
    """
    p = traj.params
    if separable is False:
        if certificate is not None:
            return _not_separable_text(certificate, traj.dim)
        return "The data are not linearly separable, so the updates never stop."
    reason = why_no_bound(traj.rule, forget=p["forget"], fit_intercept=p["fit_intercept"],
                          b0=p.get("b0", 0.0), batch_size=p.get("batch_size", 1))
    if reason:
        lead = "The data are linearly separable, but " if separable else ""
        text = f"{lead}{reason}, so nothing guarantees that more epochs would make it stop."
        return text[0].upper() + text[1:]
    source = get_rule(traj.rule).convergence
    if separable:
        value = getattr(bound, "value", None)
        if value is not None:
            most = plural(int(np.floor(value + 1e-9)), "update")
            return (f"The data are linearly separable, so a longer run would converge: at most "
                    f"{most} in all ({bound.source}).")
        return f"The data are linearly separable, so a longer run would converge ({source})."
    return (f"If the data are linearly separable a longer run converges ({source}); if they are "
            "not, the updates never stop.")
