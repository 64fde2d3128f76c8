"""Matplotlib drawing of core results.

Each drawing class takes an ``ax``, creates its artists once, and updates them in place for a
new run (``set_run``) or a new step (``show``). The same code serves the live widget, static
figures and exported animations. Library code never calls ``plt.show()``.
"""

from .cover import CoverFigure
from .figure import PerceptronFigure
from .generalization import GeneralizationFigure
from .margins import MarginsFigure
from .plane import DataPlane
from .progress import MistakeProgress, ProofProgress
from .weights import WeightSpace
from .xor import XorFigure

__all__ = ["PerceptronFigure", "MarginsFigure", "CoverFigure", "XorFigure", "GeneralizationFigure",
           "DataPlane", "WeightSpace", "MistakeProgress", "ProofProgress"]
