"""What the progress panels need besides the trajectory: the mistake bound, the proof, the verdict.

:func:`describe_run` makes one max-margin solve and gives a run's :class:`RunInfo`: the mistake
bound that applies, the proof quantities, the margin band, separability (with the LP's
certificate when the data are not separable) and the cycle the weights fall into;
:func:`pending_run` stands in for it while its solvers load.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...shared.i18n import N_
from ..repeats import run_cycle
from ..rules import get_rule
from ..trajectory import Trajectory
from .step import _run_data

__all__ = ["RunInfo", "describe_run", "pending_run", "PENDING_NOTE", "SOLVER_MODULES"]


@dataclass(frozen=True)
class RunInfo:
    """What the progress panels need besides the trajectory.

    Attributes
    ----------
    bound : explorer.perceptron.bounds.Bound
        The mistake bound that applies (``value`` None with a reason when none does); from a
        start other than 0, the shifted bound (:func:`explorer.perceptron.bounds.shifted_bound`).
    proof : explorer.perceptron.bounds.ProofQuantities or None
        ``<w*, w_u>`` and ``||w_u||^2`` per update, when the data are separable and the rule
        has a proof (from any start: the guaranteed lines start at the run's start).
    band : float or None
        Level of the margin band ``f(x) = ±band`` to draw (rules whose threshold is not 0).
    separable : bool or None
        From the LP (None when not checked).
    note : str
        Why the proof panel is empty, if it is.
    certificate : explorer.shared.separability.Certificate or None
        When the data are not separable: a point in both classes' convex hulls (cones without
        an offset), with the weights that show it, for the view to draw and the narration
        to cite.
    pending : bool
        True for the stand-in of :func:`pending_run`: the bound and proof are still being
        worked out.
    cycle : explorer.perceptron.cycles.Cycle or None
        Whether the weights repeat, from :func:`explorer.perceptron.repeats.run_cycle`: period, first
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


#: What the bound and proof panels say while :func:`describe_run` has not run yet (English: the
#: catalogs' key; a panel translates the notes of :class:`RunInfo` where it shows them).
PENDING_NOTE = N_("being worked out (the margin solver is loading)")


#: Modules :func:`describe_run` needs (the max-margin solve and the separability LP); importing
#: them takes about a second and a half, so a page may show its run before they are loaded.
SOLVER_MODULES = ("explorer.shared.svm", "explorer.shared.separability")


def pending_run(traj: Trajectory, X=None, y=None) -> RunInfo:
    """A stand-in for :func:`describe_run` while its solvers load: no bound, no proof, no
    verdict on separability yet (``pending=True``); the band is the rule's own, and with the
    data ``X, y`` the cycle is found already (it needs no solver)."""
    from ..bounds import Bound

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
    data are not separable, the LP of :func:`explorer.shared.separability.check` supplies the
    certificate (in the run's own setting: affine with an offset, through the origin without).
    """
    from ...shared import separability, svm
    from .. import bounds

    X, y = _run_data(traj, X, y)
    p = traj.params
    fit_b = p["fit_intercept"]
    band = _band(traj)
    cycle = run_cycle(traj, X, y)
    if len(np.unique(y)) < 2:
        return RunInfo(bounds.Bound(None, "—", "", None, None, N_("one class only")), None,
                       band, True, N_("one class only"), cycle=cycle)
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
        note = N_("not linearly separable: no w* exists, so the proof does not apply")
        cert = separability.check(X, y, fit_intercept=fit_b).certificate
    elif (not fit_b and b0 != 0) or batch > 1:
        note = bound.note
    elif bounds.why_no_bound(traj.rule, forget=p["forget"]):  # the rule's declaration
        note = f"the sources prove no mistake bound for the {get_rule(traj.rule).title.lower()}"
    else:
        proof = bounds.proof_quantities(traj, X, y, w_star=w_star, b_star=b_star)
    return RunInfo(bound, proof, band, best is not None, note, cert, cycle=cycle)
