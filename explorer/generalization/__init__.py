"""Generalization of the perceptron: Hardt & Recht's stability bound measured, and risk tables.

The mathematics: ``docs/mathematics.md#generalization``.

Three things, all plain functions returning frozen dataclasses (no plotting here), each in its
own module and imported from here:

* :func:`sample_margin`: a seeded distribution with a margin: unit vectors that ``e_1``
  separates with margin at least ``gamma`` (:mod:`explorer.generalization.sample`).
* :func:`stability_curve`: Monte Carlo over many training sets of the probability of a margin
  mistake on a fresh point, against Hardt & Recht's bound and the uniform (VC) bound of the
  lecture notes (:mod:`explorer.generalization.curve`); the perceptron it runs to convergence
  and the leave-one-out exchange of their proof are in :mod:`explorer.generalization.run`.
* :func:`risk_table`: training and test error (empirical risk and its held-out estimate) of
  the classic perceptron's last iterate and of the pocket iterate (Gallant; Sayed (60.45)) on
  iris and breast cancer with a seeded stratified split (:mod:`explorer.generalization.risk`).

The losses the tab draws beside them (zero-one, perceptron, hinge, squared, logistic) are
:mod:`explorer.generalization.losses`, imported on its own (``from explorer.generalization import
losses``): their names (``perceptron``, ``hinge``) would say too little here.
"""

from __future__ import annotations

from .curve import (
    CHUNK,
    DEFAULT_NS,
    MAX_FITS,
    MAX_POINT_WORK,
    StabilityCurve,
    join_curves,
    plan_work,
    stability_bound_worst,
    stability_curve,
    vc_bound,
)
from .risk import RISK_DATASETS, RiskRow, RiskTable, risk_row, risk_table
from .run import LeaveOneOut, leave_one_out, margin_run
from .sample import GAMMA_RANGE, MAX_DIM, MAX_N, MarginSample, sample_margin

__all__ = ["MarginSample", "sample_margin", "StabilityCurve", "stability_curve", "vc_bound",
           "stability_bound_worst", "leave_one_out", "LeaveOneOut", "RiskRow", "RiskTable",
           "risk_table", "margin_run", "plan_work", "join_curves", "RISK_DATASETS",
           "MAX_POINT_WORK", "MAX_FITS", "DEFAULT_NS", "risk_row", "CHUNK", "GAMMA_RANGE", "MAX_N",
           "MAX_DIM",
           "sample", "curve", "run", "risk", "losses"]
