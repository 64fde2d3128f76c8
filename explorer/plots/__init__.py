"""Matplotlib drawing of core results.

Each drawing class takes an ``ax``, creates its artists once, and updates them in place for a
new run (``set_run``) or a new step (``show``). The same code serves the live widget, static
figures and exported animations. Library code never calls ``plt.show()``.

Importing it registers the shipped Chinese font as matplotlib's last font family
(:mod:`explorer.plots.fonts`), so figures in Chinese have their glyphs on any machine.
"""

from . import fonts  # noqa: F401  (registers the shipped font before any figure is drawn)
from .figure import PerceptronFigure
from .plane import DataPlane
from .progress import MistakeProgress, ProofProgress
from .weights import WeightSpace

#: The other tabs' figures, imported when first asked for (a tab is built when first opened,
#: so the page opens without loading them).
_LAZY = {"MarginsFigure": ".margins", "CoverFigure": ".cover", "XorFigure": ".xor",
         "GeneralizationFigure": ".generalization"}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["PerceptronFigure", "MarginsFigure", "CoverFigure", "XorFigure", "GeneralizationFigure",
           "DataPlane", "WeightSpace", "MistakeProgress", "ProofProgress"]
