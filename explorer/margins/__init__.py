"""Margins: the perceptron's separator against the maximum-margin one, slacks, support vectors.

What the *Margins* view shows, computed without drawing (numpy, scipy and scikit-learn only);
each item below lives in its own module and is imported from here:

* :func:`compare` puts a perceptron's final ``(w, b)`` beside the hard- or soft-margin SVM of
  the same data (Sayed (61.4), (61.11)): both geometric margins, ``gamma(S)``, the slacks with
  their total, and for every point that violates the margin the segment that shows its slack
  in the plane. When the hard margin is asked for on data that no line separates, the answer
  carries the LP's certificate instead: a point in both classes' convex hulls
  (:mod:`explorer.margins.comparison`).
* :func:`support_path` follows Sayed's Example 61.3 over a range of ``C``: the training error
  rate never exceeds the fraction of support vectors, ``R_emp <= #SV / N`` (61.29), because every
  misclassified point violates the margin (:mod:`explorer.margins.support_paths`).
* :func:`sgd_objective`, :func:`sgd_optimum` and :func:`sgd_progress` measure the stochastic
  subgradient rule ``svm_sgd`` (Sayed (61.22)) on its own objective (61.13) against the exact
  minimum (:mod:`explorer.margins.sgd`).
* :func:`example_61_2` repeats Sayed's Example 61.2 (breast cancer, soft-margin SVM by SGD) with
  our own random split (:mod:`explorer.margins.breast_cancer`).

Notation (``docs/mathematics.md#conventions``): ``f(x) = <w, x> + b`` (Sayed writes ``h'w - theta``, so
``b = -theta``); functional margin ``y_i f(x_i)``, geometric margin ``y_i f(x_i) / ||w||``.
The soft-margin weight is scikit-learn's ``C``; Sayed's slack weight in (61.11) is
``eta = N C`` and his regulariser in (61.13) is ``rho = 1 / (2 eta) = 1 / (2 N C)``. Sayed's
``eta`` is *not* the step size: the step size of ``svm_sgd`` is his ``mu`` (the ``eta``
argument of :func:`explorer.perceptron.train`).
"""

from __future__ import annotations

from .breast_cancer import BOOK_61_2, describe_61_2, example_61_2
from .comparison import SLACK_TOL, MarginComparison, compare, sayed_eta, sayed_rho
from .sgd import SGDProgress, gap_words, sgd_objective, sgd_optimum, sgd_progress
from .support_paths import MAX_PATH_CS, SupportPath, support_path

__all__ = [
    "MarginComparison", "SupportPath", "SGDProgress", "compare", "support_path",
    "sgd_objective", "sgd_optimum", "sgd_progress", "gap_words", "example_61_2", "describe_61_2", "sayed_eta",
    "sayed_rho",
    "BOOK_61_2", "SLACK_TOL", "MAX_PATH_CS",
    "comparison", "support_paths", "sgd", "breast_cancer",
]
