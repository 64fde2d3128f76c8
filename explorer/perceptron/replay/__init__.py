"""What to show at step ``k`` of a run: the state, the point picked, the update, one line of text.

A view never advances a run: it asks for ``frame(trajectory, X, y, k)`` and draws that.
:func:`~explorer.perceptron.replay.frames.frame` builds the record of
:mod:`~explorer.perceptron.replay.step` (:class:`StepFrame`, the kept classifier); the sentences,
which are also the accessible description of the figure, are
:mod:`~explorer.perceptron.replay.narration`; :func:`describe_run` (bound, proof and
separability of a run) is :mod:`~explorer.perceptron.replay.run_info`. Their public names are
imported here.
"""

from .frames import frame
from .narration import cycle_text, narrate, plural, status_text, stop_text
from .run_info import PENDING_NOTE, SOLVER_MODULES, RunInfo, describe_run, pending_run
from .step import StepFrame, kept_classifier

__all__ = ["StepFrame", "frame", "narrate", "stop_text", "RunInfo", "describe_run", "plural",
           "kept_classifier", "cycle_text", "status_text", "pending_run", "PENDING_NOTE",
           "SOLVER_MODULES", "frames", "step", "narration", "run_info"]
