"""Perceptron Explorer: an interactive visual explorer of the perceptron and linear classifiers.

The core is one package per topic, ``perceptron``, ``margins``, ``cover``, ``generalization`` and
``xor``, and ``shared`` (data sets, geometry, the separability LP and the SVM), using numpy, scipy
and scikit-learn only; drawing lives in ``explorer.plots`` and widgets in ``explorer.app``
(``docs/architecture.md``). Importing this package loads neither matplotlib nor ipywidgets.
"""

__version__ = "0.1.0"
