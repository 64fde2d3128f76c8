"""The Margins tab: :class:`MarginsModel` (state, no widgets) and :class:`MarginsView`."""

from .model import SPEC, MarginsModel
from .view import MarginsView

__all__ = ["SPEC", "MarginsModel", "MarginsView"]
