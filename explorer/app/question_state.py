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
* ``{"type": "answer", "id": n, "choice": key}``, ``{"type": "reveal", "id": n}``,
  ``{"type": "close", "id": n}``: about question ``n`` (a stale id or an unknown choice is
  ignored by :meth:`QuestionState.answered` and the controller);
* ``{"type": "tally", "id": n, "tally": {key: count}}``: a room's answers to question ``n``,
  which the presenter's page heard from the hall server (:mod:`explorer.serving.answers`) and
  passes on (:meth:`QuestionState.counted`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

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
    answer : str or None
        This page's answer (alone: the student's), one of the choices, changeable until the
        reveal.
    tally : dict
        Choice -> answers counted (every choice present, 0 when none): this page's answer,
        and a room's (:meth:`counted`).
    """

    id: int
    question: Question
    posed: Posed
    phase: str = "open"
    answer: str | None = None
    tally: dict = field(default_factory=dict)

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
    def right(self) -> bool | None:
        """Whether this page's answer is the truth (None: not revealed, or no answer)."""
        if not self.revealed or self.answer is None:
            return None
        return self.answer == self.posed.truth

    def answered(self, choice) -> QuestionState | None:
        """The state with this page's answer ``choice`` (a changed answer moves its count in
        the tally); None when it cannot be taken: revealed already, or not a choice."""
        if self.revealed or not isinstance(choice, str) or choice not in self.choice_keys:
            return None
        tally = dict(self.tally)
        if self.answer is not None:
            tally[self.answer] -= 1
        tally[choice] += 1
        return replace(self, answer=choice, tally=tally)

    def counted(self, room: dict) -> QuestionState:
        """The state with a room's answers ``room`` (choice -> count; the server counts one a
        follower) in its tally, beside this page's own answer; keys not among the choices are
        left out. A room's count may still come after the reveal: it holds the answers the
        server took before it heard of the reveal."""
        tally = {k: max(0, int(room.get(k, 0))) + (self.answer == k) for k in self.choice_keys}
        return replace(self, tally=tally)

    def revealing(self) -> QuestionState:
        """The state revealed (its truth joins what the page is sent)."""
        return replace(self, phase="revealed")

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
        if self.revealed:
            out["truth"], out["explain"] = p.truth, p.explain
            out["verdict"] = {True: "right", False: "wrong", None: ""}[self.right]
            if out["sketch"] is not None and p.line is not None:
                out["sketch"]["line"] = list(p.line)
        return out


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
        return _read_tally(qid, content.get("tally"))
    if kind != "answer":
        return {"type": kind, "id": qid}
    choice = content.get("choice")
    if not isinstance(choice, str) or not 0 < len(choice) <= MAX_CHOICE_CHARS:
        return None
    return {"type": "answer", "id": qid, "choice": choice}


def _read_tally(qid: int, tally) -> dict | None:
    """A ``tally`` message checked: choice keys to whole counts (None if malformed)."""
    if not isinstance(tally, dict) or len(tally) > MAX_TALLY_CHOICES:
        return None
    if not all(isinstance(k, str) and 0 < len(k) <= MAX_CHOICE_CHARS
               and _whole(v) and 0 <= v <= MAX_ID for k, v in tally.items()):
        return None
    return {"type": "tally", "id": qid, "tally": dict(tally)}
