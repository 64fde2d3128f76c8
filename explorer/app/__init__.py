"""Widgets: one small state model per view (traitlets, no widgets inside), views that observe
it, and thin composers. Importing this package imports ipywidgets and matplotlib."""

from .dashboard import dashboard
from .perceptron_model import PerceptronModel
from .perceptron_view import PerceptronView

__all__ = ["dashboard", "PerceptronModel", "PerceptronView"]
