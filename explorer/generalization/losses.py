"""Surrogate losses as functions of the functional margin ``z = y f(x)``.

``docs/mathematics.md#surrogate-losses``: zero-one ``1{z <= 0}``, perceptron ``max(0, -z)``, hinge
``max(0, 1 - z)``, squared ``(1 - z)^2 / 2`` and logistic ``log(1 + exp(-z))``
(Hardt & Recht (2022), ch. 3, "A word about surrogate losses").

Every loss takes finite numbers (a scalar or an array of any shape) and returns finite values
of the same shape; the squared loss refuses ``|1 - z| > 1e154``, where its value overflows.
"""

from __future__ import annotations

import numpy as np

from ..shared.i18n import N_

__all__ = ["zero_one", "perceptron", "hinge", "squared", "logistic", "LOSSES", "FORMULAS"]


#: Largest ``|1 - z|`` of the squared loss: ``(1e154)^2 / 2`` is still a finite float.
MAX_SQUARED = 1e154


def _z(z) -> np.ndarray:
    raw = np.asarray(z)
    if raw.dtype.kind not in "biuf":
        raise TypeError(f"z must contain only numbers; got {z!r:.60} of dtype {raw.dtype}")
    arr = raw.astype(float)
    if not np.all(np.isfinite(arr)):
        raise ValueError("z must contain only finite numbers; got NaN or infinite values")
    return arr


def zero_one(z):
    """``1{z <= 0}``: a mistake (a point on the boundary counts as one, as in Sayed (60.25))."""
    return (_z(z) <= 0).astype(float)


def perceptron(z):
    """``max(0, -z)``: the loss whose subgradient step is the classic perceptron update."""
    return np.maximum(0.0, -_z(z))


def hinge(z):
    """``max(0, 1 - z)``: the SVM loss; its subgradient step is the margin perceptron."""
    return np.maximum(0.0, 1.0 - _z(z))


def squared(z):
    """``(1 - z)^2 / 2``."""
    u = 1.0 - _z(z)
    if np.any(np.abs(u) > MAX_SQUARED):
        raise ValueError(f"the squared loss overflows for |1 - z| > {MAX_SQUARED:g}; got "
                         f"{float(np.max(np.abs(u))):g}")
    return 0.5 * u**2


def logistic(z):
    """``log(1 + exp(-z))``, computed without overflow."""
    return np.logaddexp(0.0, -_z(z))


LOSSES = {"zero_one": zero_one, "perceptron": perceptron, "hinge": hinge, "squared": squared,
          "logistic": logistic}
#: Each loss by name and formula, as the page writes it (legend, check boxes, narration).
FORMULAS = {"zero_one": N_("zero-one 1{z ≤ 0}"), "perceptron": N_("perceptron max(0, −z)"),
            "hinge": N_("hinge max(0, 1 − z)"), "squared": N_("squared (1 − z)²/2"),
            "logistic": N_("logistic log(1 + e^−z)")}
#: Each loss's name alone (the first word of its formula's words), for sentences.
NAMES = {"zero_one": N_("zero-one"), "perceptron": N_("perceptron"), "hinge": N_("hinge"),
         "squared": N_("squared"), "logistic": N_("logistic")}
