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

from ...shared.i18n import N_, tr, tr_n
from ...shared.number_format import list_separator, number_text
from ..bounds import why_no_bound
from ..rules import get_rule
from ..trajectory import Trajectory
from .run_info import RunInfo
from .step import StepFrame, _failing

__all__ = ["narrate", "stop_text", "outlook_text", "plural", "cycle_text", "status_text",
           "BATCH_DETAIL", "vector_text"]

#: The update of each rule, written as its formula with the values in place (translated where
#: shown: a language may write the formulas' words its own way).
_UPDATE_TEXT = {
    "classic": N_("w ← w + η·y·x = {w}, b ← b + η·y = {b}"),
    "pocket": N_("w ← w + η·y·x = {w}, b ← b + η·y = {b}"),
    "averaged": N_("w ← w + η·y·x = {w}, b ← b + η·y = {b}"),
    "margin": N_("w ← γ·w + η·y·x = {w}, b ← b + η·y = {b}"),
    "rosenblatt_r2": N_("w ← w + η·y·x = {w}, b ← b + η·y·R² = {b}"),
    "regularized": N_("w ← (1 − 2ηρ)·w + η·y·x = {w}, b ← b + η·y = {b}"),
    "svm_sgd": N_("w ← (1 − 2ηρ)·w + η·y·x = {w}, b ← b + η·y = {b}"),
    "relaxation": N_("(w, b) ← (w, b) + η·(t − y·f(x))·y·(x, 1)/‖(x, 1)‖² gives w = {w}, "
                     "b = {b}"),
}
#: A mini-batch's update: the same formulas with the sum of the corrections.
_BATCH_UPDATE_TEXT = {
    "classic": N_("w ← w + Σ η·y·x = {w}, b ← b + Σ η·y = {b}"),
    "pocket": N_("w ← w + Σ η·y·x = {w}, b ← b + Σ η·y = {b}"),
    "averaged": N_("w ← w + Σ η·y·x = {w}, b ← b + Σ η·y = {b}"),
    "margin": N_("w ← γ·w + Σ η·y·x = {w}, b ← b + Σ η·y = {b}"),
    "rosenblatt_r2": N_("w ← w + Σ η·y·x = {w}, b ← b + Σ η·y·R² = {b}"),
    "regularized": N_("w ← (1 − 2ηρ)·w + Σ η·y·x = {w}, b ← b + Σ η·y = {b}"),
    "svm_sgd": N_("w ← (1 − 2ηρ)·w + Σ η·y·x = {w}, b ← b + Σ η·y = {b}"),
    "relaxation": N_("(w, b) ← (w, b) + Σ η·(t − y·f(x))·y·(x, 1)/‖(x, 1)‖² gives w = {w}, "
                     "b = {b}"),
}


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the English noun in agreement: ``plural(1, "update") == "1 update"``,
    ``"2 updates"`` (for English-only texts; a sentence a person reads uses
    :func:`explorer.shared.i18n.tr_n`).

    ``many`` gives an irregular plural.
    """
    n = int(n)
    return f"{n} {word if n == 1 else (many or word + 's')}"


#: Most components of a vector written out in the narration; a longer one (data of many
#: features: 30, 64) gives its first three and how many it has, so that the words stay a line
#: or two at a projector (the figure shows the rest).
VEC_SHOWN = 4


def vector_text(v) -> str:
    """A vector for a reader: "(1.2, −0.3)", "(1,2; −0,3)" where the comma is the decimal
    mark; a long one gives its first three components and how many it has."""
    v = np.asarray(v).ravel()
    sep = list_separator()
    if len(v) <= VEC_SHOWN:
        return "(" + sep.join(number_text(x) for x in v) + ")"
    more = tr_n("… {n} component", "… {n} components", len(v)).format(n=len(v))
    return "(" + sep.join(number_text(x) for x in v[:3]) + sep + more + ")"


_vec = vector_text


def _num(x: float) -> str:
    return "+1" if x > 0 else "−1"


def _kept_text(f: StepFrame, n: int) -> str:
    if f.kept_kind is None:
        return ""
    if f.kept_kind == "pocket":
        text = tr_n("The pocket holds w = {w}, b = {b}, with {errors} of {n} point wrong.",
                    "The pocket holds w = {w}, b = {b}, with {errors} of {n} points wrong.", n)
    else:
        text = tr_n("The average of the iterates is w = {w}, b = {b}, with {errors} of {n} "
                    "point wrong.",
                    "The average of the iterates is w = {w}, b = {b}, with {errors} of {n} "
                    "points wrong.", n)
    return " " + text.format(w=_vec(f.kept_w), b=number_text(f.kept_b), errors=f.kept_errors,
                             n=n)


def _decay_text(f: StepFrame) -> str:
    return " " + tr("The decay still shrinks w to {w}.").format(w=_vec(f.w))


def narrate(f: StepFrame, traj: Trajectory, X, y, *, hand: bool = False,
            info: RunInfo | None = None) -> str:
    """One sentence for step ``f.k``, e.g. "Step 12, point 7 (1.2, −0.3), label +1: ...", in
    the page's language."""
    spec = get_rule(traj.rule)
    t = traj.threshold
    rel_hit = "<" if spec.strict else "≤"
    rel_ok = "≥" if spec.strict else ">"
    if len(f.picked) == 1:
        i = f.picked[0]
        values = dict(k=f.k, i=i + 1, x=_vec(X[i]), y=_num(y[i]), z=number_text(f.margins[0]),
                      t=number_text(t))
        if f.updated:
            text = tr("Step {k}, point {i} {x}, label {y}: y·f(x) = {z} {rel} {t}, so "
                      "{update}. Update {u}.").format(
                **values, rel=rel_hit, u=f.n_updates,
                update=tr(_UPDATE_TEXT[spec.name]).format(w=_vec(f.w), b=number_text(f.b)))
        else:
            text = tr("Step {k}, point {i} {x}, label {y}: y·f(x) = {z} {rel} {t}, no "
                      "update.").format(**values, rel=rel_ok)
            if traj.decay != 1.0:
                text += _decay_text(f)
    else:
        text = _batch_text(f, spec, t, rel_hit, rel_ok)
        if not f.updated and traj.decay != 1.0:
            text += _decay_text(f)
    text += _kept_text(f, len(np.asarray(y)))
    if info is not None and info.cycle is not None:
        text += cycle_text(info.cycle, f.k)
    if f.k == f.n_steps:
        text += " " + stop_text(traj, X, y, hand=hand, info=info)
    return text


def _tolerance(x: float) -> str:
    """A cycle's tolerance as written before (two significant digits), in the language's
    decimal mark."""
    return number_text(float(f"{x:.2g}"), digits=2).replace("−", "-") if x else "0"


def cycle_text(cycle, k: int) -> str:
    """What narration says at step ``k`` of a run that has entered ``cycle`` (from
    :func:`explorer.perceptron.repeats.run_cycle`): from its first step ``s``, " The weights repeat: period
    4 from step 0, exactly."; once a whole period has passed, which earlier state this one
    repeats. Empty before ``s``, at the start, and for a run without a cycle."""
    if not cycle.found or k < max(cycle.start_step, 1):
        return ""
    s, p = cycle.start_step, cycle.length
    if cycle.exact:
        text = tr("The weights repeat: period {p} from step {s}, exactly.").format(p=p, s=s)
    else:
        text = tr("The weights repeat: period {p} from step {s}, to within {tol}.").format(
            p=p, s=s, tol=_tolerance(cycle.tolerance))
    text = " " + text
    if k >= s + p:
        again = (tr("The state after step {k} equals the one after step {j}.") if cycle.exact
                 else tr("The state after step {k} matches the one after step {j}."))
        text += " " + again.format(k=k, j=k - p)
    return text


def status_text(traj: Trajectory, k: int, *, n_points: int, cycle=None,
                edited: bool = False) -> str:
    """The timeline's status line at step ``k``, e.g. "step 12 of 240 · 3 updates · 6 points";
    ``edited`` says the points were edited, ``cycle`` (:func:`explorer.perceptron.repeats.run_cycle`)
    names the period once the weights repeat."""
    u = traj.updates_until(min(int(k), traj.n_steps))
    parts = [tr("step {k} of {n}").format(k=k, n=traj.n_steps),
             tr_n("{n} update", "{n} updates", u).format(n=u),
             (tr_n("{n} point (edited)", "{n} points (edited)", n_points) if edited else
              tr_n("{n} point", "{n} points", n_points)).format(n=n_points)]
    if cycle is not None and cycle.found:
        parts.append(tr("weights repeat: period {p} from step {s}").format(
            p=cycle.length, s=cycle.start_step))
    return " · ".join(parts)


#: A batch up to this size is narrated point by point, with each point's margin.
BATCH_DETAIL = 10


def _batch_text(f: StepFrame, spec, t, rel_hit: str, rel_ok: str) -> str:
    """Narration of a mini-batch step: the batch, its margins, the points that meet the
    condition, and the summed update (Sayed, eq. (60.23): a sum, not an average)."""
    B = len(f.picked)
    if B <= BATCH_DETAIL:
        batch = tr("Step {k}, batch of points {points} (y·f(x) = {margins})").format(
            k=f.k, points=", ".join(str(i + 1) for i in f.picked),
            margins=list_separator().join(number_text(z) for z in f.margins))
    else:
        batch = tr("Step {k}, batch of {n} points ({points}, …)").format(
            k=f.k, n=B, points=", ".join(str(i + 1) for i in f.picked[:8]))
    values = dict(batch=batch, t=number_text(t), u=f.n_updates)
    if not f.triggered:
        said = (tr("{batch}: both have y·f(x) {rel} {t}, no update.") if B == 2 else
                tr("{batch}: all have y·f(x) {rel} {t}, no update."))
        return said.format(batch=batch, rel=rel_ok, t=values["t"])
    hit = len(f.triggered)
    update = tr(_BATCH_UPDATE_TEXT[spec.name]).format(w=_vec(f.w), b=number_text(f.b))
    arrow = "" if f.update_vector is None else _vec(f.update_vector)
    values.update(rel=rel_hit, update=update, arrow=arrow)
    if hit == 1:
        return tr("{batch}: {who} meets y·f(x) {rel} {t}, so its correction is the whole "
                  "update: {update}; the arrow is that correction, {arrow}. Update {u}.").format(
            who=_points_list(f.triggered), **values)
    if hit == B:
        said = (tr("{batch}: all of them meet y·f(x) {rel} {t}, so their corrections are added "
                   "up, all computed at the same w (a sum, not an average): {update}; the arrow "
                   "is the sum, {arrow}. Update {u}.") if B > 2 else
                tr("{batch}: both meet y·f(x) {rel} {t}, so their corrections are added up, all "
                   "computed at the same w (a sum, not an average): {update}; the arrow is the "
                   "sum, {arrow}. Update {u}."))
        return said.format(**values)
    return tr("{batch}: {who} meet y·f(x) {rel} {t}, so their corrections are added up, all "
              "computed at the same w (a sum, not an average): {update}; the arrow is the sum, "
              "{arrow}. Update {u}.").format(who=_points_list(f.triggered), **values)


def _points_list(idx) -> str:
    """``"points 2, 5 and 6"`` (1-based), shortened after eight."""
    nums = [str(i + 1) for i in idx]
    if len(nums) == 1:
        return tr("point {i}").format(i=nums[0])
    if len(nums) > 8:
        return tr("points {points}, …").format(points=", ".join(nums[:8]))
    return tr("points {points} and {last}").format(points=", ".join(nums[:-1]), last=nums[-1])


def _not_separable_text(cert, d: int) -> str:
    """Plain reason, from the LP's certificate, why the updates never stop."""
    where = _vec(cert.point)
    if cert.conic:
        text = tr("The data are not separable through the origin: the point {x} lies in the "
                  "convex cones of both classes, so no line through the origin separates them "
                  "and the updates never stop.")
    elif d == 1:
        text = tr("The data are not linearly separable: the point {x} lies in the convex hulls "
                  "of both classes, so no threshold separates them and the updates never stop.")
    elif d == 2:
        text = tr("The data are not linearly separable: the point {x} lies in the convex hulls "
                  "of both classes, so no line separates them and the updates never stop.")
    else:
        text = tr("The data are not linearly separable: the point {x} lies in the convex hulls "
                  "of both classes, so no hyperplane separates them and the updates never "
                  "stop.")
    return text.format(x=where)


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
            return tr("Every point now passes the test: done.")
        return tr_n("{n} point still fails the test ({points}): pick it next.",
                    "{n} points still fail the test ({points}): pick one of them next.",
                    len(bad)).format(n=len(bad), points=_points_list(bad))
    if traj.stop_reason == "converged":
        spec = get_rule(traj.rule)
        ok = f"y·f(x) {'≥' if spec.strict else '>'} {number_text(traj.threshold, digits=6)}"
        u = traj.n_updates
        return tr_n("Converged after {n} update: a full pass made no update, so every point "
                    "now has {ok}.",
                    "Converged after {n} updates: a full pass made no update, so every point "
                    "now has {ok}.", u).format(n=u, ok=ok)
    if traj.stop_reason == "no_update_pass":
        return tr("Stopped: a full pass made no update, but some point outside the visiting "
                  "order still fails the test.")
    if traj.stop_reason == "max_steps":
        text = tr("Stopped at the step limit ({n}) without converging.").format(
            n=p["max_steps"])
    else:
        u = traj.n_updates
        text = tr_n("Stopped at max epochs ({e}) without converging: {n} update so far.",
                    "Stopped at max epochs ({e}) without converging: {n} updates so far.",
                    u).format(e=p["max_epochs"], n=u)
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
        return tr("The data are not linearly separable, so the updates never stop.")
    reason = why_no_bound(traj.rule, forget=p["forget"], fit_intercept=p["fit_intercept"],
                          b0=p.get("b0", 0.0), batch_size=p.get("batch_size", 1))
    if reason:
        text = (tr("The data are linearly separable, but {reason}, so nothing guarantees that "
                   "more epochs would make it stop.") if separable else
                tr("{reason}, so nothing guarantees that more epochs would make it stop."))
        text = text.format(reason=reason)
        return text[0].upper() + text[1:]
    source = get_rule(traj.rule).convergence
    if separable:
        value = getattr(bound, "value", None)
        if value is not None:
            most = int(np.floor(value + 1e-9))
            return tr_n("The data are linearly separable, so a longer run would converge: at "
                        "most {n} update in all ({source}).",
                        "The data are linearly separable, so a longer run would converge: at "
                        "most {n} updates in all ({source}).", most).format(
                n=most, source=tr(bound.source))
        return tr("The data are linearly separable, so a longer run would converge "
                  "({source}).").format(source=source)
    return tr("If the data are linearly separable a longer run converges ({source}); if they "
              "are not, the updates never stop.").format(source=source)
