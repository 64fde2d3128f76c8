"""The Perceptron tab: :class:`PerceptronModel` (state, no widgets) and :class:`PerceptronView`."""

from .model import SPEC, PerceptronModel
from .view import PerceptronView

__all__ = ["SPEC", "PerceptronModel", "PerceptronView"]
