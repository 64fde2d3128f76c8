"""What every topic uses: data, geometry, the separability and maximum-margin solvers, checks.

Modules (each imported on its own; importing this package loads none of them, so a page that
only needs the data never pays for scipy's LP or scikit-learn's SVM):

* :mod:`~explorer.shared.datasets`: the built-in data sets and the user's own
  (``from explorer.shared import datasets``; ``datasets.load("separable", n=40, seed=0)``);
  :mod:`~explorer.shared.csv_table` reads an uploaded CSV table for it.
* :mod:`~explorer.shared.geometry`: lines clipped to a box, half-planes, version-space cones
  and slices, convex hulls (for drawing, computed without drawing).
* :mod:`~explorer.shared.separability`: is a labelled set linearly separable? An LP that answers
  with a separator or a certificate (a point in both classes' convex hulls).
* :mod:`~explorer.shared.svm`: the hard- and soft-margin SVM and ``gamma(S)``, the largest margin
  of the data. Every topic asks it: the perceptron's bounds (``gamma``), the Margins comparison,
  Cover's separators, the generalization runs; so it lives here, below all five topics.
* :mod:`~explorer.shared.exact_views`: data in any dimension drawn without lying about a
  linear classifier: every point at its signed distance (the margin line), and the plane that
  contains ``w``.
* :mod:`~explorer.shared.validation`: the checks every entry point runs once on its input.
* :mod:`~explorer.shared.number_format`: ``number_text``, the one way a number is written for
  a reader (significant digits, a true minus sign, never "−0").
* :mod:`~explorer.shared.compiled`: the compiled inner loop of long perceptron runs (numba,
  imported on first use only).
"""

__all__ = ["compiled", "csv_table", "datasets", "exact_views", "geometry", "number_format",
           "separability", "svm", "validation"]
