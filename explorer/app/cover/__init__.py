"""The Cover tab: :class:`CoverModel` (state, no widgets) and :class:`CoverView`."""

from .model import SPEC, CoverModel
from .view import CoverView

__all__ = ["SPEC", "CoverModel", "CoverView"]
