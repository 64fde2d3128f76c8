"""The XOR tab: :class:`XorModel` (state, no widgets) and :class:`XorView`."""

from .model import SPEC, XorModel
from .view import XorView

__all__ = ["SPEC", "XorModel", "XorView"]
