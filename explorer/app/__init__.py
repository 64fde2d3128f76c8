"""Widgets: shared pieces (page bridge, timeline, message area, export panel, declared state,
layout and lecture mode), then one folder per tab with a small state model (traitlets, no
widgets inside) and its view; the dashboard builds a tab when it is first opened.
Importing this package imports ipywidgets and matplotlib."""

from .dashboard import Dashboard, dashboard
from .perceptron import PerceptronModel, PerceptronView

__all__ = ["Dashboard", "dashboard", "PerceptronModel", "PerceptronView"]
