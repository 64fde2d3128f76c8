"""Matplotlib drawing of core results.

Each drawing class takes an ``ax``, creates its artists once, and updates them in place for a
new run (``set_run``) or a new step (``show``). The same code serves the live widget, static
figures and exported animations. Library code never calls ``plt.show()``.
"""

from .figure import PerceptronFigure
from .margins import MarginsFigure as MarginsFigure  # the Margins tab (issue 8)
from .plane import DataPlane
from .progress import MistakeProgress, ProofProgress
from .weights import WeightSpace

__all__ = ["PerceptronFigure", "DataPlane", "WeightSpace", "MistakeProgress", "ProofProgress"]
