"""Questions a lecturer asks the room before a step is shown (issue 33, item 1: "predict,
then reveal"), as data: a registry name -> :class:`Question`, no widgets.

A question belongs to a tab and is posed on what the tab shows (a :class:`RunShown` for the
Perceptron tab, a :class:`LabellingShown` for the Cover tab). :meth:`Question.pose` gives the
:class:`Posed` question at that moment, with its truth worked out from the tab's own record
(the trajectory a run returns whole, the dichotomies' enumeration), or None when it does not
fit what is shown (then :meth:`Question.why_not` says why). The truth stays in the kernel until
the reveal (:mod:`explorer.app.asking` keeps the question's state and sends the page only what
it may show).

Questions here:

* ``next_update`` (Perceptron): "Will the next point trigger an update?" Step ``k + 1`` visits
  the point (or mini-batch) the run's record names; it is an update exactly when the
  trajectory's ``updated[k]`` says so. Revealing takes that step.
* ``converge`` (Perceptron): "Will this rule converge?" A run *converges* here when it stops
  because a whole pass over the data makes no update and no point would trigger one at the
  final weights (the trajectory's ``converged``); a run that reaches its cap (the tab's "max
  epochs", or the view's step limit) first does not, whether more epochs would have got there
  (the data are separable and the rule has a mistake bound) or never can (no line separates
  the data). Revealing goes to the run's last step.
* ``separable`` (Cover): "Is this labelling separable?" on the dichotomy chosen in the
  Dichotomies view, or the Boolean function chosen in the Boolean view; the truth is the
  enumeration's (an LP per labelling, :func:`explorer.cover.counting.dichotomies`).

* ``boundary`` (Perceptron, two features): "Where will the boundary move?" asked where the
  next step is an update, answered by a place clicked on the data plane; a place is right when
  the boundary sweeps over it (its side changes from step ``k``'s line to step ``k + 1``'s).
  Its parts are :mod:`explorer.app.point_question`'s. Revealing takes that step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..perceptron.rules import RULES
from ..perceptron.trajectory import Trajectory
from ..shared.number_format import number_text
from .point_question import SWEPT, boundary_fits, boundary_point

__all__ = ["QUESTIONS", "YES_NO", "Question", "Posed", "RunShown", "LabellingShown",
           "questions_for", "first_fitting"]

#: The answers of a yes/no question: (key, label).
YES_NO = (("yes", "Yes"), ("no", "No"))


@dataclass(frozen=True)
class RunShown:
    """What the Perceptron tab shows: its rule's run, the data and the step ``step``.

    ``separable`` is the LP's verdict on the data in the run's setting (None: not known yet),
    ``cycle`` the run's :class:`~explorer.perceptron.cycles.Cycle` (or None); ``chosen`` is
    True in "you choose" mode (the next point is the learner's to pick), ``racing`` while
    other rules race the tab's rule (the figure shows several runs)."""

    trajectory: Trajectory
    X: np.ndarray
    y: np.ndarray
    step: int
    separable: bool | None = None
    cycle: object = None
    chosen: bool = False
    racing: bool = False
    box: tuple | None = None  # the data plane's (x0, x1, y0, y1), where a place is clicked

    @property
    def key(self) -> tuple:
        """What a posed question is about: this run at this step."""
        return ("run", id(self.trajectory), int(self.step))


@dataclass(frozen=True)
class LabellingShown:
    """A labelling the Cover tab shows: points ``X`` (N, 2), labels ``y`` (±1), whether it is
    linearly separable (the tab's enumeration), its ``name`` ("dichotomy #5", "XOR"), the
    ``box`` (x0, x1, y0, y1) the points are drawn in, and the ``panels`` of the figure whose
    drawing gives the verdict away (veiled while the question is open). ``line`` is a
    separating line ``(w1, w2, b)`` when one exists (drawn at the reveal), else None."""

    X: np.ndarray
    y: np.ndarray
    separable: bool
    name: str
    box: tuple = (-1.15, 1.15, -1.15, 1.15)
    panels: tuple = ()
    line: tuple | None = None
    source: object = None  # the enumeration it comes from (what the question is about)

    @property
    def key(self) -> tuple:
        return ("labelling", id(self.source), self.name)


@dataclass(frozen=True)
class Posed:
    """A question posed on what a tab shows.

    Attributes
    ----------
    detail : str
        What the question is about, in words, shown under it ("Step 4 visits point 3 …").
    truth : str
        The right answer's key (one of the question's choices).
    explain : str
        The truth in words, shown at the reveal.
    reveal_step : int or None
        The step the reveal takes the tab to (None: the tab stays where it is).
    key : tuple
        What was shown when it was posed (a :class:`RunShown` or :class:`LabellingShown` key):
        when the tab shows something else the question no longer applies.
    hide : tuple of str
        The figure's panels veiled while the question is open (they show the answer).
    sketch : dict or None
        A small drawing for the question's card, JSON-able: ``{"box": [x0, x1, y0, y1],
        "points": [[x, y, label], …]}``; ``line`` ``[w1, w2, b]`` is added at the reveal.
    line : list or None
        The sketch's separating line, shown at the reveal.
    side : str
        The side of the figure the question's card takes ("right", or "left" where the
        figure's right side shows the answer at the reveal).
    point : dict or None
        For a question answered by a place (:attr:`Question.answer` "point"): the panel it is
        clicked in, the plane's ``box`` and the boundary ``before`` and ``after`` the step,
        each ``[w1, w2, b]`` (``after`` is the truth: the page gets it at the reveal).
    """

    detail: str
    truth: str
    explain: str
    reveal_step: int | None
    key: tuple
    hide: tuple = ()
    sketch: dict | None = None
    line: list | None = None
    side: str = "right"
    point: dict | None = None


@dataclass(frozen=True)
class Question:
    """One question of the registry (see the module docstring).

    Attributes
    ----------
    name : str
        Its key in :data:`QUESTIONS`.
    tab : str
        The tab it is asked in (a key of the dashboard's tabs).
    words : str
        The question as asked.
    choices : tuple of (key, label)
        The answers offered (:data:`YES_NO` for a yes/no question).
    fits : callable
        ``fits(shown)``: "" when the question can be asked on ``shown``, else why not.
    truth : callable
        ``truth(shown)``: the :class:`Posed` question (called only where it fits).
    answer : str
        What an answer is: "choice" (a button) or "point" (a place clicked on the plane; the
        choices are then the tally's counts at the reveal, right first).
    """

    name: str
    tab: str
    words: str
    choices: tuple
    fits: Callable
    truth: Callable
    answer: str = "choice"
    kind: str = field(init=False)

    def __post_init__(self):
        keys = [k for k, _ in self.choices]
        if len(keys) < 2 or len(set(keys)) != len(keys):
            raise ValueError(f"question {self.name!r} needs two or more distinct choices; "
                             f"got {keys}")
        if self.answer not in ("choice", "point"):
            raise ValueError(f"question {self.name!r}: answer must be 'choice' or 'point'; "
                             f"got {self.answer!r}")
        kind = ("point" if self.answer == "point" else
                "yes/no" if tuple(self.choices) == YES_NO else "choice")
        object.__setattr__(self, "kind", kind)

    def why_not(self, shown) -> str:
        """Why the question cannot be asked on ``shown`` ("" when it can)."""
        return self.fits(shown)

    def pose(self, shown) -> Posed | None:
        """The question posed on ``shown``, or None when it does not fit."""
        if self.fits(shown):
            return None
        posed = self.truth(shown)
        if posed.truth not in {k for k, _ in self.choices}:  # pragma: no cover - a defect
            raise ValueError(f"question {self.name!r} gave the truth {posed.truth!r}, not a choice")
        return posed


# ---------------------------------------------------------------------- Perceptron tab
def _run_fits(shown: RunShown, *, needs_next: bool) -> str:
    if not isinstance(shown, RunShown):
        return "this question is about a perceptron run"
    if shown.racing:
        return "rules are racing: clear 'race against' to ask about one rule's run"
    if shown.chosen:
        return "in 'you choose' mode the next point is yours to pick"
    t = shown.trajectory
    if shown.step >= t.n_steps:
        return ("the run's last step is shown: go back a step or more to ask" if needs_next
                else "the run's end is shown, which gives the answer: go back to ask")
    return ""


def _visited(t: Trajectory, k: int) -> np.ndarray:
    """The points step ``k + 1`` visits (0-based indices; a mini-batch's padding dropped)."""
    row = np.atleast_1d(t.picked[k])
    return row[row >= 0]


def _points_text(idx, y) -> str:
    labels = ", ".join(f"{i + 1} ({'+1' if y[i] > 0 else '−1'})" for i in idx[:8])
    more = ", …" if len(idx) > 8 else ""
    return f"point {labels}" if len(idx) == 1 else f"points {labels}{more}"


def _next_update_truth(shown: RunShown) -> Posed:
    t, k, X, y = shown.trajectory, int(shown.step), shown.X, shown.y
    idx = _visited(t, k)
    rule = RULES[t.rule]
    w, b = t.state(k)
    z = y[idx] * (X[idx] @ w + b)
    meets = rule.triggers(z, t.threshold)
    updated = bool(t.updated[k])
    cond = rule.condition_text(t.threshold)
    what = _points_text(idx, y)
    detail = f"Step {k + 1} visits {what}; the rule updates when {cond}."
    if len(idx) == 1:
        why = f"y·f(x) = {number_text(float(z[0]), digits=3)} at step {k}"
        explain = (f"Yes: {why}, so {cond} holds and step {k + 1} updates w." if updated else
                   f"No: {why}, so {cond} fails and w stays.")
    else:
        hits = [int(i) + 1 for i in idx[meets]]
        explain = (f"Yes: at step {k} the condition {cond} holds for point"
                   f"{'s' * (len(hits) != 1)} {', '.join(map(str, hits))} of the batch, so "
                   f"step {k + 1} updates w." if updated else
                   f"No: at step {k} no point of the batch meets {cond}, so w stays.")
    return Posed(detail=detail, truth="yes" if updated else "no", explain=explain,
                 reveal_step=k + 1, key=shown.key)


def _boundary_fits(shown) -> str:
    return (_run_fits(shown, needs_next=True)
            or boundary_fits(shown.trajectory, shown.X, shown.step, shown.box))


def _boundary_truth(shown: RunShown) -> Posed:
    k = int(shown.step)
    parts = boundary_point(shown.trajectory, k, shown.box,
                           what=_points_text(_visited(shown.trajectory, k), shown.y))
    return Posed(truth=SWEPT[0][0], reveal_step=k + 1, key=shown.key, **parts)


def _converge_truth(shown: RunShown) -> Posed:
    t = shown.trajectory
    rule = RULES[t.rule]
    epochs, steps = t.params.get("max_epochs"), t.params.get("max_steps")
    cap = (f"{epochs} epochs" if epochs else "") + (f" ({steps:,} steps)" if steps else "")
    detail = (f"{rule.title}, at most {cap.strip() or 'its cap'}. Converging means stopping "
              "because a whole pass over the data makes no update.")
    last = int(t.update_steps[-1]) if t.n_updates else 0
    if t.converged:
        explain = (f"Yes: after its last update, at step {last}, every point is on its side "
                   f"(no point meets {rule.condition_text(t.threshold)}): the run stops at "
                   f"step {t.n_steps}.")
        return Posed(detail=detail, truth="yes", explain=explain, reveal_step=t.n_steps,
                     key=shown.key)
    if t.stop_reason == "no_update_pass":
        why = ("a pass of random draws made no update, but a point it did not draw still "
               "meets the condition")
    elif shown.separable is False:
        why = "no line separates these data, so some point always meets the condition"
        cycle = shown.cycle
        if cycle is not None and getattr(cycle, "found", False):
            why += f"; the weights repeat from step {cycle.start_step} (period {cycle.length})"
    elif shown.separable and rule.convergence:
        why = (f"the data are separable and the rule has a mistake bound ({rule.convergence}), "
               "so more epochs would get there, but the cap came first")
    elif shown.separable:
        why = ("the data are separable, but this rule has no mistake bound in the sources and "
               "need not stop")
    else:
        why = "the cap came first"
    explain = (f"No: updates go on to step {last} and the run stops at its cap, step "
               f"{t.n_steps}: {why}.")
    return Posed(detail=detail, truth="no", explain=explain, reveal_step=t.n_steps,
                 key=shown.key)


# ---------------------------------------------------------------------- Cover tab
def _labelling_fits(shown) -> str:
    if not isinstance(shown, LabellingShown):
        return ("show the Dichotomies or the Boolean view and choose a labelling (a tile) to "
                "ask about it")
    if np.all(shown.y == shown.y[0]):
        return (f"{shown.name} gives every point the same label: any line beyond the points "
                "separates it; choose another tile")
    return ""


def _labelling_words(shown: LabellingShown) -> str:
    pos = [str(i + 1) for i in np.flatnonzero(shown.y > 0)]
    neg = [str(i + 1) for i in np.flatnonzero(shown.y < 0)]
    return (f"{shown.name}: points {', '.join(pos)} are +1 and points {', '.join(neg)} are −1. "
            "Can one line put them on two sides?")


def _separable_truth(shown: LabellingShown) -> Posed:
    sketch = {"box": [float(v) for v in shown.box],
              "points": [[float(x), float(y), int(v)]
                         for (x, y), v in zip(shown.X, shown.y, strict=True)]}
    if shown.separable:
        explain = f"Yes: a line separates {shown.name} (the line drawn is the widest margin)."
    else:
        explain = (f"No: no line separates {shown.name}; a point of one class lies inside the "
                   "other class's convex hull (the tile is crossed out).")
    line = None if shown.line is None else [float(v) for v in shown.line]
    return Posed(detail=_labelling_words(shown), truth="yes" if shown.separable else "no",
                 explain=explain, reveal_step=None, key=shown.key, hide=tuple(shown.panels),
                 sketch=sketch, line=line, side="left")


QUESTIONS: dict[str, Question] = {q.name: q for q in [
    Question("next_update", "perceptron", "Will the next point trigger an update?", YES_NO,
             fits=lambda s: _run_fits(s, needs_next=True), truth=_next_update_truth),
    Question("converge", "perceptron", "Will this rule converge?", YES_NO,
             fits=lambda s: _run_fits(s, needs_next=False), truth=_converge_truth),
    Question("boundary", "perceptron", "Where will the boundary move?", SWEPT,
             fits=_boundary_fits, truth=_boundary_truth, answer="point"),
    Question("separable", "cover", "Is this labelling separable?", YES_NO,
             fits=_labelling_fits, truth=_separable_truth),
]}


def questions_for(tab: str) -> list[Question]:
    """The questions of the tab ``tab``, in the registry's order (the first is asked first)."""
    return [q for q in QUESTIONS.values() if q.tab == tab]


def first_fitting(tab: str, shown) -> tuple[Question | None, str]:
    """The first question of ``tab`` that fits ``shown``, or None and why none does."""
    reasons = []
    for q in questions_for(tab):
        why = q.why_not(shown)
        if not why:
            return q, ""
        reasons.append(why)
    return None, reasons[0] if reasons else "this tab has no questions yet"
