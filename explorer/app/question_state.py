"""A question's state, the one JSON-able record the page draws and a room will relay (issue 33,
item 1), and the page's messages about it. No widgets.

:class:`QuestionState` is what a page knows of the question open on its figure: it goes to the
page as the page figure's ``question`` trait (:meth:`QuestionState.page_json`), and to a
lecture's followers with the figure's other traits. Before the reveal it carries no truth:
the right answer and its words join it when it is revealed. The tally counts the answers
given (alone, the student's one answer; in a room, one per follower, added by the room).

The page's messages, checked by :func:`read_message` (anything else is None, ignored):

* ``{"type": "ask", "step": k}``: the key ``q`` (or the Ask button, through the page), on the
  step the page shows; ``"again": true`` asks the tab's next question instead;
* ``{"type": "answer", "id": n, "choice": key}`` (a question answered by a place: ``"point":
  [x, y]`` in the plane's data coordinates instead of ``"choice"``), ``{"type": "reveal", "id":
  n}``,
  ``{"type": "close", "id": n}``: about question ``n`` (a stale id or an unknown choice is
  ignored by :meth:`QuestionState.answered` and the controller);
* ``{"type": "tally", "id": n, "tally": {key: count}}``: a room's answers to question ``n``,
  which the presenter's page heard from the hall server (:mod:`explorer.serving.answers`) and
  passes on (:meth:`QuestionState.counted`); for a question answered by a place the tally is
  ``{"answers": count}`` and ``"points": [[x, y], …]`` the places (at most
  :data:`~explorer.shared.plane_point.MAX_DOTS`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from ..shared.plane_point import MAX_DOTS, read_box, read_point, swept
from .questions import Posed, Question

__all__ = ["PHASES", "MESSAGES", "QuestionState", "read_message", "MAX_ID"]

#: A question's phases: asked and waiting for answers, then revealed.
PHASES = ("open", "revealed")
#: The page's messages about questions (their ``type``).
MESSAGES = ("ask", "answer", "reveal", "close", "tally")
#: Question ids are whole numbers from 1 up to this (a message's id outside is malformed).
MAX_ID = 2**31 - 1
#: Longest choice key a message may carry (a longer one is malformed).
MAX_CHOICE_CHARS = 32
#: Most choices a room's tally may count (a tally of more is malformed).
MAX_TALLY_CHOICES = 16


@dataclass(frozen=True)
class QuestionState:
    """The question open on a tab's figure (immutable: each change is a new state).

    Attributes
    ----------
    id : int
        Increases with every question asked in the dashboard: a message about another id is
        stale.
    question : Question
        The registry's entry (:data:`explorer.app.questions.QUESTIONS`).
    posed : Posed
        The question on what was shown, with its truth (kept in the kernel until the reveal).
    phase : str
        "open" or "revealed" (:data:`PHASES`).
    answer : str, tuple or None
        This page's answer (alone: the student's), one of the choices (or a place ``(x, y)``
        for a question answered by a place), changeable until the reveal.
    tally : dict
        Choice -> answers counted (every choice present, 0 when none): this page's answer,
        and a room's (:meth:`counted`). For a place, the places are counted at the reveal.
    room : int
        The room's answers (a question answered by a place: counted by the server).
    dots : tuple
        The room's places, ``(x, y)`` each (at most :data:`MAX_DOTS`).
    """

    id: int
    question: Question
    posed: Posed
    phase: str = "open"
    answer: str | tuple | None = None
    tally: dict = field(default_factory=dict)
    room: int = 0
    dots: tuple = ()

    def __post_init__(self):
        if self.phase not in PHASES:
            raise ValueError(f"phase must be one of {PHASES}; got {self.phase!r}")
        if not self.tally:
            object.__setattr__(self, "tally", {k: 0 for k in self.choice_keys})

    @property
    def choice_keys(self) -> tuple:
        return tuple(k for k, _ in self.question.choices)

    @property
    def revealed(self) -> bool:
        return self.phase == "revealed"

    @property
    def by_point(self) -> bool:
        """Whether an answer is a place clicked on the plane."""
        return self.question.answer == "point"

    def _box(self):
        return read_box((self.posed.point or {}).get("box"))

    def _swept(self, place) -> bool:
        return swept(self.posed.point["before"], self.posed.point["after"], place)

    @property
    def right(self) -> bool | None:
        """Whether this page's answer is the truth (None: not revealed, or no answer)."""
        if not self.revealed or self.answer is None:
            return None
        if self.by_point:
            return self._swept(self.answer)
        return self.answer == self.posed.truth

    def answered(self, choice) -> QuestionState | None:
        """The state with this page's answer ``choice`` (a changed answer moves its count in
        the tally); None when it cannot be taken: revealed already, or not a choice."""
        if self.revealed:
            return None
        if self.by_point:
            place = read_point(choice, self._box())
            return None if place is None else replace(self, answer=place)
        if not isinstance(choice, str) or choice not in self.choice_keys:
            return None
        tally = dict(self.tally)
        if self.answer is not None:
            tally[self.answer] -= 1
        tally[choice] += 1
        return replace(self, answer=choice, tally=tally)

    def counted(self, room: dict, points=()) -> QuestionState:
        """The state with a room's answers ``room`` (choice -> count; the server counts one a
        follower) in its tally, beside this page's own answer; keys not among the choices are
        left out. A room's count may still come after the reveal: it holds the answers the
        server took before it heard of the reveal. For a place: ``room`` is ``{"answers":
        count}`` and ``points`` the places (those outside the plane left out)."""
        if self.by_point:
            box = self._box()
            dots = tuple(p for p in (read_point(v, box) for v in list(points)[:MAX_DOTS])
                         if p is not None)
            new = replace(self, room=max(0, int(room.get("answers", 0))), dots=dots)
            return new.revealing() if self.revealed else new
        tally = {k: max(0, int(room.get(k, 0))) + (self.answer == k) for k in self.choice_keys}
        return replace(self, tally=tally)

    def revealing(self) -> QuestionState:
        """The state revealed (its truth joins what the page is sent); a place's answers are
        counted then, swept over or not."""
        if not self.by_point:
            return replace(self, phase="revealed")
        places = list(self.dots) + ([self.answer] if self.answer is not None else [])
        hits = sum(self._swept(p) for p in places)
        (right, _), (wrong, _) = self.question.choices[:2]
        return replace(self, phase="revealed", tally={right: hits, wrong: len(places) - hits})

    def page_json(self) -> dict:
        """What the page draws (and a room relays): JSON-able, no truth before the reveal."""
        q, p = self.question, self.posed
        out = {"id": self.id, "name": q.name, "tab": q.tab, "kind": q.kind, "words": q.words,
               "detail": p.detail, "choices": [list(c) for c in q.choices],
               "phase": self.phase, "answer": self.answer, "tally": dict(self.tally),
               "hide": [] if self.revealed else list(p.hide), "truth": None, "explain": "",
               "verdict": "", "sketch": None, "side": p.side}
        if p.sketch is not None:
            out["sketch"] = dict(p.sketch)
        if self.by_point:
            self._point_json(out)
        if self.revealed:
            out["truth"], out["explain"] = p.truth, p.explain
            out["verdict"] = {True: "right", False: "wrong", None: ""}[self.right]
            if out["sketch"] is not None and p.line is not None:
                out["sketch"]["line"] = list(p.line)
        return out

    def _point_json(self, out: dict) -> None:
        """A place's parts of :meth:`page_json`: the plane (the new line once revealed), the
        answers counted, and the dots ``[x, y, swept]`` once revealed."""
        point = dict(self.posed.point)
        if not self.revealed:
            point.pop("after")
        out["point"] = point
        out["answer"] = None if self.answer is None else list(self.answer)
        out["count"] = self.room + (self.answer is not None)
        out["dots"] = ([[x, y, int(self._swept((x, y)))] for x, y in self.dots]
                       if self.revealed else [])


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def read_message(content) -> dict | None:
    """A page's question message, checked (see the module docstring), or None if it is not
    one or is malformed."""
    if not isinstance(content, dict) or content.get("type") not in MESSAGES:
        return None
    kind = content["type"]
    if kind == "ask":
        step = content.get("step", None)
        if step is not None and not (_whole(step) and 0 <= step <= MAX_ID):
            return None
        return {"type": "ask", "step": step, "again": content.get("again") is True}
    qid = content.get("id")
    if not (_whole(qid) and 1 <= qid <= MAX_ID):
        return None
    if kind == "tally":
        return _read_tally(qid, content.get("tally"), content.get("points", []))
    if kind != "answer":
        return {"type": kind, "id": qid}
    if "point" in content:
        point = content["point"]
        if not _pair(point):
            return None
        return {"type": "answer", "id": qid, "choice": [float(v) for v in point]}
    choice = content.get("choice")
    if not isinstance(choice, str) or not 0 < len(choice) <= MAX_CHOICE_CHARS:
        return None
    return {"type": "answer", "id": qid, "choice": choice}


def _pair(v) -> bool:
    """Whether ``v`` is two finite numbers (a place; the question's box is checked later)."""
    return (isinstance(v, list) and len(v) == 2
            and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                    and math.isfinite(x) for x in v))


def _read_tally(qid: int, tally, points) -> dict | None:
    """A ``tally`` message checked: choice keys to whole counts, and places (None if
    malformed)."""
    if not isinstance(tally, dict) or len(tally) > MAX_TALLY_CHOICES:
        return None
    if not (isinstance(points, list) and len(points) <= MAX_DOTS and all(map(_pair, points))):
        return None
    if not all(isinstance(k, str) and 0 < len(k) <= MAX_CHOICE_CHARS
               and _whole(v) and 0 <= v <= MAX_ID for k, v in tally.items()):
        return None
    return {"type": "tally", "id": qid, "tally": dict(tally), "points": points}
