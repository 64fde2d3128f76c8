"""Perceptron Explorer: an interactive visual explorer of the perceptron and linear classifiers.

The core modules (``datasets``, ``perceptron``, ``bounds``, ``losses``, ``separability``, ``svm``,
``counting``) use numpy, scipy and scikit-learn only; drawing lives in ``explorer.plots`` and
widgets in ``explorer.app``. Importing this package loads neither matplotlib nor ipywidgets.
"""

__version__ = "0.1.0"
