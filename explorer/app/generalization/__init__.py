"""The Generalization tab: :class:`GeneralizationModel` (state, no widgets) and
:class:`GeneralizationView`."""

from .model import SPEC, GeneralizationModel
from .view import GeneralizationView

__all__ = ["SPEC", "GeneralizationModel", "GeneralizationView"]
