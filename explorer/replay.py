"""What to show at step ``k`` of a run: the state, the point picked, the update, one line of text.

A view never advances a run: it asks for ``frame(trajectory, X, y, k)`` and draws that. The
narration is also the accessible description of the figure, so it names every number a sighted
user would read off the plot.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .repeats import run_cycle
from .rules import get_rule
from .trajectory import Trajectory

__all__ = ["StepFrame", "frame", "narrate", "stop_text", "RunInfo", "describe_run", "plural",
           "kept_classifier", "cycle_text", "status_text"]

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
    kept_w, kept_b : ndarray (d,) and float, or None
        The classifier the rule reports besides the current iterate: for the pocket rule the
        iterate with the fewest training mistakes among updates ``0..n_updates`` (the earliest
        on a tie, as :func:`explorer.perceptron.train` keeps ``pocket_w``); for the averaged
        rule the mean of the iterates over steps ``1..k``. None for the other rules.
    kept_kind : {"pocket", "averaged"} or None
    kept_errors : int or None
        Training points the kept classifier gets wrong (predict +1 iff ``f(x) >= 0``).
    failing : tuple of int
        Points that fail the rule's test ``y f(x) <= t`` (``< t`` for strict rules) at the
        state after step ``k``: the learner's choices in "you choose" mode.
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
    kept_w: np.ndarray | None = None
    kept_b: float | None = None
    kept_kind: str | None = None
    kept_errors: int | None = None
    failing: tuple = ()


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the noun in agreement: ``plural(1, "update") == "1 update"``, ``"2 updates"``.

    ``many`` gives an irregular plural.
    """
    n = int(n)
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _g(x: float) -> str:
    """A number in 3 significant digits with a true minus sign (and no "-0").

    Only an exact zero is written "0": the rule compares the number as computed, so data at a
    scale of 1e-12 show their true margins (and a round-off value, such as 1e-17 where a
    boundary point should give 0, is what the rule saw).
    """
    x = float(x)
    if x == 0:
        return "0"
    return f"{x:.3g}".replace("-", "−")


def _vec(v) -> str:
    return "(" + ", ".join(_g(x) for x in np.asarray(v).ravel()) + ")"


def _num(x: float) -> str:
    return "+1" if x > 0 else "−1"


def _mistakes(X, y, w, b) -> int:
    """Training points misclassified by ``f(x) = <w, x> + b`` (predict +1 iff ``f >= 0``)."""
    return int(np.sum(np.where(X @ w + b >= 0, 1.0, -1.0) != y))


def kept_classifier(traj: Trajectory, X, y, k: int):
    """The pocket or averaged classifier at step ``k``: ``(w, b, kind, mistakes)``.

    Pocket: among the iterates after updates ``0..u(k)``, the one with the lowest training
    error, the earliest on a tie (a later iterate replaces the pocket only when strictly
    better; Gallant; Sayed, eq. (60.45)). Averaged: :meth:`Trajectory.averaged_state`.
    Returns ``(None, None, None, None)`` for the other rules.
    """
    if traj.rule == "pocket" and traj.errors is not None:
        u = traj.updates_until(k)
        best = int(np.argmin(traj.errors[: u + 1]))
        w, b = traj.weights[best].copy(), float(traj.biases[best])
    elif traj.rule == "averaged":
        w, b = traj.averaged_state(k)
    else:
        return None, None, None, None
    return w, b, traj.rule, _mistakes(X, y, w, b)


def _run_data(traj, X, y):
    """Check that ``(X, y)`` can be the data of ``traj``; return them as float arrays.

    Cheap enough for every frame: shapes only (the run validated the values).
    """
    if not isinstance(traj, Trajectory):
        raise TypeError(f"traj: expected a Trajectory from explorer.perceptron.train; got "
                        f"{type(traj).__name__}")
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float).reshape(-1)
    if X.ndim == 1:
        X = X.reshape(-1, 1)
    if X.ndim != 2 or X.shape[1] != traj.dim:
        raise ValueError(f"X must have {traj.dim} features, as in the run; got shape {X.shape}")
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"X and y must have the same number of points; got {X.shape[0]} and "
                         f"{y.shape[0]}")
    return X, y


def _failing(traj: Trajectory, X, y, w, b) -> tuple:
    z = y * (X @ w + b)
    return tuple(int(i) for i in np.flatnonzero(get_rule(traj.rule).triggers(z, traj.threshold)))


def _kept_text(f: StepFrame, n: int) -> str:
    if f.kept_kind is None:
        return ""
    what = "The pocket holds" if f.kept_kind == "pocket" else "The average of the iterates is"
    return (f" {what} w = {_vec(f.kept_w)}, b = {_g(f.kept_b)}, with {f.kept_errors} of "
            f"{plural(n, 'point')} wrong.")


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
        what = "one point and updates only if" if B == 1 else (
            f"a batch of {'up to ' if short else ''}{B} points and updates if any of them has")
        text = (f"Start: w = {_vec(w)}, b = {_g(b)}. Each step visits {what} "
                f"{get_rule(traj.rule).condition_text(traj.threshold)}.")
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
    :func:`explorer.repeats.run_cycle`): from its first step ``s``, " The weights repeat: period
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
    ``edited`` says the points were edited, ``cycle`` (:func:`explorer.repeats.run_cycle`)
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
                f"(y·f(x) = {', '.join(_g(z) for z in f.margins)})")
    else:
        shown = ", ".join(str(i + 1) for i in f.picked[:8])
        head = f"Step {f.k}, batch of {B} points ({shown}, …)"
    if not f.triggered:
        return head, f": {'both' if B == 2 else 'all'} have y·f(x) {rel_ok} {_g(t)}, no update."
    hit = len(f.triggered)
    update = _UPDATE_TEXT[spec.name].replace("+ η·", "+ Σ η·").format(w=_vec(f.w), b=_g(f.b))
    arrow = "" if f.update_vector is None else _vec(f.update_vector)
    if hit == 1:
        how = (f"{_points_list(f.triggered)} meets y·f(x) {rel_hit} {_g(t)}, so its correction "
               f"is the whole update: {update}; the arrow is that correction, {arrow}")
    else:
        who = ("all of them" if B > 2 else "both") if hit == B else _points_list(f.triggered)
        how = (f"{who} meet y·f(x) {rel_hit} {_g(t)}, so their corrections are added up, all "
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

    With ``info`` from :func:`describe_run`, a run stopped by its epoch limit says whether
    more epochs would help: separable data converge, and for non-separable data the LP's
    certificate (a point in both classes' hulls) shows why the updates never stop.
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
        ok = f"y·f(x) {'≥' if spec.strict else '>'} {traj.threshold:g}".replace("-", "−")
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
    if info is not None and info.separable is False and info.certificate is not None:
        return text + " " + _not_separable_text(info.certificate, traj.dim)
    if info is not None and info.separable:
        bound = getattr(info.bound, "value", None)
        if bound is not None:
            most = plural(int(np.floor(bound + 1e-9)), "update")
            return text + (f" The data are linearly separable, so a longer run would converge: "
                           f"at most {most} in all ({info.bound.source}).")
        return text + (" The data are linearly separable, but the sources prove no mistake "
                       "bound for this rule, so it need not stop.")
    if traj.stop_reason == "max_steps":
        return text
    return text + " Separable data would converge with more epochs; non-separable data never do."


@dataclass(frozen=True)
class RunInfo:
    """What the progress panels need besides the trajectory.

    Attributes
    ----------
    bound : explorer.bounds.Bound
        The mistake bound that applies (``value`` None with a reason when none does); from a
        start other than 0, the shifted bound (:func:`explorer.bounds.shifted_bound`).
    proof : explorer.bounds.ProofQuantities or None
        ``<w*, w_u>`` and ``||w_u||^2`` per update, when the data are separable and the rule
        has a proof (from any start: the guaranteed lines start at the run's start).
    band : float or None
        Level of the margin band ``f(x) = ±band`` to draw (rules whose threshold is not 0).
    separable : bool or None
        From the LP (None when not checked).
    note : str
        Why the proof panel is empty, if it is.
    certificate : explorer.separability.Certificate or None
        When the data are not separable: a point in both classes' convex hulls (cones without
        an offset), with the weights that show it, for the view to draw and the narration
        to cite.
    pending : bool
        True for the stand-in of :func:`pending_run`: the bound and proof are still being
        worked out.
    cycle : explorer.cycles.Cycle or None
        Whether the weights repeat, from :func:`explorer.repeats.run_cycle`: period, first
        step, exactly or within what tolerance (or why there is no cycle). None when not looked
        for; the narration says it at the steps inside the cycle.
    """

    bound: object
    proof: object
    band: float | None
    separable: bool | None
    note: str = ""
    certificate: object = None
    pending: bool = False
    cycle: object = None


#: What the bound and proof panels say while :func:`describe_run` has not run yet.
PENDING_NOTE = "being worked out (the margin solver is loading)"

#: Modules :func:`describe_run` needs (the max-margin solve and the separability LP); importing
#: them takes about a second and a half, so a page may show its run before they are loaded.
SOLVER_MODULES = ("explorer.svm", "explorer.separability")


def pending_run(traj: Trajectory, X=None, y=None) -> RunInfo:
    """A stand-in for :func:`describe_run` while its solvers load: no bound, no proof, no
    verdict on separability yet (``pending=True``); the band is the rule's own, and with the
    data ``X, y`` the cycle is found already (it needs no solver)."""
    from .bounds import Bound

    cycle = None if X is None else run_cycle(traj, *_run_data(traj, X, y))
    return RunInfo(Bound(None, "", "", None, None, PENDING_NOTE), None, _band(traj), None,
                   PENDING_NOTE, None, pending=True, cycle=cycle)


def _band(traj: Trajectory) -> float | None:
    """The rule's margin band (its threshold), or None for a rule without one."""
    return traj.threshold if traj.threshold != 0 else None


def describe_run(traj: Trajectory, X, y) -> RunInfo:
    """Bound, proof quantities, band and separability of a run.

    One max-margin solve gives the separability verdict, the margin ``gamma`` of the rule's
    bound and the ``w*`` of the proof panel, so the proof's two guaranteed lines cross exactly
    at the bound: the separator is the homogeneous one of the points (augmented with 1 when an
    offset is fitted), except for Koski's variant, whose bound uses the affine one. When the
    data are not separable, the LP of :func:`explorer.separability.check` supplies the
    certificate (in the run's own setting: affine with an offset, through the origin without).
    """
    from . import bounds, separability, svm

    X, y = _run_data(traj, X, y)
    p = traj.params
    fit_b = p["fit_intercept"]
    band = _band(traj)
    cycle = run_cycle(traj, X, y)
    if len(np.unique(y)) < 2:
        return RunInfo(bounds.Bound(None, "—", "", None, None, "one class only"), None, band,
                       True, "one class only", cycle=cycle)
    d = X.shape[1]
    try:
        best = svm.fit(bounds.augment(X) if fit_b else X, y, fit_intercept=False)
        if traj.rule == "rosenblatt_r2" and fit_b:
            best = svm.fit(X, y)
            w_star, b_star = best.w, best.b
        else:
            w_star, b_star = best.w[:d], (float(best.w[d]) if fit_b else 0.0)
    except separability.NotSeparableError:
        best = w_star = b_star = None
    except ValueError as exc:  # e.g. columns of 1e-12 beside the offset's 1: no bound here
        sep = separability.check(X, y, fit_intercept=fit_b)
        note = f"no bound at this scale ({exc})"
        return RunInfo(bounds.Bound(None, "—", "", None, None, note), None, band,
                       sep.separable, note, sep.certificate, cycle=cycle)
    b0 = p.get("b0", 0.0)
    batch = p.get("batch_size", 1)
    bound = bounds.mistake_bound(traj.rule, X, y, eta=p["eta"], forget=p["forget"],
                                 fit_intercept=fit_b, w0=p["w0"], b0=b0,
                                 gamma=None if best is None else best.margin,
                                 w_star=w_star, b_star=0.0 if b_star is None else b_star,
                                 batch_size=batch)
    proof, note, cert = None, "", None
    if best is None:
        note = "not linearly separable: no w* exists, so the proof does not apply"
        cert = separability.check(X, y, fit_intercept=fit_b).certificate
    elif (not fit_b and b0 != 0) or batch > 1:
        note = bound.note
    elif traj.rule in ("regularized", "svm_sgd", "relaxation") or (
            traj.rule == "margin" and p["forget"] != 1.0):
        note = f"the sources prove no mistake bound for the {get_rule(traj.rule).title.lower()}"
    else:
        proof = bounds.proof_quantities(traj, X, y, w_star=w_star, b_star=b_star)
    return RunInfo(bound, proof, band, best is not None, note, cert, cycle=cycle)
