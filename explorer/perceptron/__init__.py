"""The perceptron: train any rule of the family and keep its whole trajectory; what a run shows.

``from explorer.perceptron import train`` is the entry point: :func:`train` checks its input once
and returns a :class:`Trajectory` (every step's choice, every update's weights). Its names are
imported here; the rest of the topic lives in its own modules, imported on their own:

* :mod:`~explorer.perceptron.training`: :func:`train` and its limits; the engine that runs it is
  :mod:`~explorer.perceptron.engine`; the record is :mod:`~explorer.perceptron.trajectory`.
* :mod:`~explorer.perceptron.rules`: the registry of update rules (a new rule is declared here,
  see ``docs/architecture.md``).
* :mod:`~explorer.perceptron.bounds`: mistake bounds (Novikoff, Hardt & Recht, Koski, ...) and
  the proof's quantities along a run.
* :mod:`~explorer.perceptron.cycles` (exact runs in rationals, cycles of the weights) and
  :mod:`~explorer.perceptron.repeats` (repeated states of a floating-point run).
* :mod:`~explorer.perceptron.race`: several rules on the same data, step by step.
* :mod:`~explorer.perceptron.replay`: what to show at step ``k`` of a run (state, update, the
  sentence that narrates it).
"""

from .engine import mistakes, training_error
from .rules import RULES, Rule, get_rule
from .training import MAX_STEPS, MAX_WORK, ORDERS, train
from .trajectory import Trajectory

__all__ = ["train", "Trajectory", "RULES", "Rule", "get_rule", "ORDERS", "MAX_STEPS", "MAX_WORK",
           "training_error", "mistakes",
           "training", "engine", "trajectory", "rules", "bounds", "cycles", "repeats", "race",
           "replay"]
