"""The room's answers to the question open on the presenter's figure (issue 33, item 1: predict,
then reveal), kept by the hall server in memory; no sockets (:mod:`explorer.serving.lecture_web`
connects it).

The presenter's page publishes a figure's ``question`` trait with its other traits (the page's
view of :class:`explorer.app.question_state.QuestionState`: an ``id``, its ``choices``, its
``phase``). While it is open, each follower's page may send

    ``{"t": "answer", "fig": F, "id": n, "choice": key}``

as a text message: one answer per follower socket, the latest kept (a follower changes its mind
until the reveal). A question answered by a place on the plane (``"kind": "point"``, its
``point.box`` the plane's) takes ``"point": [x, y]`` instead of ``"choice"``: two finite
numbers inside the box, kept rounded (:func:`explorer.shared.plane_point.read_point`).
The presenter is sent the counts, ``{"tally": {key: count}, "fig": F, "id":
n}``, at most every :data:`TALLY_DELAY_S` seconds; its page hands them to its kernel, which
shows them on the card; for a place, ``{"tally": {"answers": count}, "points": [[x, y], …]}``
with at most :data:`~explorer.shared.plane_point.MAX_DOTS` places. Answers are anonymous: kept
by socket, counted, and forgotten with the question.

What is not taken is dropped and counted by reason (:data:`DROPS`), never answered: the page
that sent it sees nothing. The counts go to the server's log (:meth:`Answers.report`).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

from ..shared.plane_point import MAX_DOTS, read_box, read_point

__all__ = ["Answers", "Poll", "DROPS", "MAX_ANSWER_BYTES", "TALLY_DELAY_S", "DROP_LOG_S"]

#: The longest answer message taken (the page's are under 100 bytes).
MAX_ANSWER_BYTES = 256
#: The longest choice key (as :data:`explorer.app.question_state.MAX_CHOICE_CHARS`).
MAX_CHOICE_CHARS = 32
#: The most choices a question may have for the room to count it.
MAX_CHOICES = 16
#: The presenter hears a changed tally this long after the first answer that changed it.
TALLY_DELAY_S = 0.25
#: Dropped answers are written to the log at most this often (a count by reason).
DROP_LOG_S = 10.0
#: Why an answer is dropped: not JSON or not an answer ("malformed"), longer than
#: :data:`MAX_ANSWER_BYTES` ("oversized"), no question open on that figure ("no question"),
#: an id other than the open one's ("stale"), a key not among its choices ("choice"), after
#: its reveal ("revealed"), from a socket that is not a follower's now ("left"), a place
#: outside the plane or not two finite numbers, or a place for a choice or a choice for a
#: place ("place").
DROPS = ("malformed", "oversized", "no question", "stale", "choice", "place", "revealed", "left")


@dataclass
class Poll:
    """The answers to one question: one per follower, the latest kept, until the reveal.
    ``box``: the plane's, for a question answered by a place (None: by a choice)."""

    id: int
    choices: tuple
    open: bool = True
    answers: dict = field(default_factory=dict)  # follower socket -> choice key or (x, y)
    box: tuple | None = None

    def tally(self) -> dict:
        """Choice -> answers, every choice present (a place's: ``{"answers": count}``)."""
        if self.box is not None:
            return {"answers": len(self.answers)}
        counts = Counter(self.answers.values())
        return {k: counts.get(k, 0) for k in self.choices}


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def poll_of(question) -> Poll | None:
    """The poll a published ``question`` trait opens (None: no question, or not one the room
    counts)."""
    if not isinstance(question, dict) or not _whole(question.get("id")):
        return None
    choices = question.get("choices")
    if not isinstance(choices, list) or not 0 < len(choices) <= MAX_CHOICES:
        return None
    keys = tuple(c[0] for c in choices if isinstance(c, list) and c and isinstance(c[0], str)
                 and 0 < len(c[0]) <= MAX_CHOICE_CHARS)
    if len(keys) != len(choices):
        return None
    box = None
    if question.get("kind") == "point":
        box = read_box((question.get("point") or {}).get("box"))
        if box is None:
            return None
    return Poll(question["id"], keys, open=question.get("phase") == "open", box=box)


def read_answer(message) -> dict | str:
    """A follower's message as ``{"fig", "id", "choice"}`` or ``{"fig", "id", "point"}``, or
    why it is dropped."""
    if isinstance(message, (bytes, bytearray)) or not isinstance(message, str):
        return "malformed"
    if len(message.encode()) > MAX_ANSWER_BYTES:
        return "oversized"
    try:
        said = json.loads(message)
    except ValueError:
        return "malformed"
    if (not isinstance(said, dict) or said.get("t") != "answer"
            or not isinstance(said.get("fig"), (int, str)) or isinstance(said.get("fig"), bool)
            or not _whole(said.get("id"))):
        return "malformed"
    if "point" in said and "choice" not in said:
        return {"fig": said["fig"], "id": said["id"], "point": said["point"]}
    if not isinstance(said.get("choice"), str):
        return "malformed"
    return {"fig": said["fig"], "id": said["id"], "choice": said["choice"]}


class Answers:
    """The room's answers to the questions on the presenter's figures (one poll a figure)."""

    def __init__(self):
        self.polls: dict = {}          # figure -> Poll of the question on it
        self.due: set = set()          # figures whose tally the presenter has not heard
        self.dropped: Counter = Counter()  # reason -> answers dropped since the last report

    def published(self, fig, question) -> None:
        """The presenter's page published figure ``fig``'s ``question`` trait: a new id opens a
        new poll (the old one's answers are forgotten), the same id revealed closes it, none
        (``{}``) ends it."""
        new, old = poll_of(question), self.polls.get(fig)
        if new is None:
            self.polls.pop(fig, None)
            self.due.discard(fig)
        elif old is not None and old.id == new.id and old.choices == new.choices:
            old.open = old.open and new.open
        else:
            self.polls[fig] = new
            self.due.discard(fig)

    def take(self, who, message, *, present: bool) -> str | None:
        """Follower ``who``'s message: None when its answer is taken (its earlier one replaced),
        else why it is dropped (counted). ``present``: ``who`` follows the lecture now."""
        said = read_answer(message)
        why = said if isinstance(said, str) else self._why_not(said, present=present)
        if why is not None:
            self.dropped[why] += 1
            return why
        poll = self.polls[said["fig"]]
        answer = said["choice"] if poll.box is None else read_point(said["point"], poll.box)
        if poll.answers.get(who) != answer:
            poll.answers[who] = answer
            self.due.add(said["fig"])
        return None

    def _why_not(self, said: dict, *, present: bool) -> str | None:
        if not present:
            return "left"
        poll = self.polls.get(said["fig"])
        if poll is None:
            return "no question"
        if said["id"] != poll.id:
            return "stale"
        if not poll.open:
            return "revealed"
        if poll.box is not None:
            return None if read_point(said.get("point"), poll.box) is not None else "place"
        if "choice" not in said:
            return "place"
        if said["choice"] not in poll.choices:
            return "choice"
        return None

    def left(self, who) -> None:
        """Follower ``who`` left: its answers to open questions no longer count (a page that
        comes back is a new follower and answers again)."""
        for fig, poll in self.polls.items():
            if poll.open and poll.answers.pop(who, None) is not None:
                self.due.add(fig)

    def tallies(self) -> list[dict]:
        """What the presenter has not heard: ``{"tally", "fig", "id"}`` for each figure whose
        counts changed (then none are due)."""
        out = []
        for fig in self.due:
            poll = self.polls.get(fig)
            if poll is None:
                continue
            said = {"tally": poll.tally(), "fig": fig, "id": poll.id}
            if poll.box is not None:
                said["points"] = [list(p) for p in list(poll.answers.values())[:MAX_DOTS]]
            out.append(said)
        self.due.clear()
        return out

    def report(self) -> str | None:
        """A log line of the answers dropped since the last report, by reason (counts only),
        or None for none; the counts start again."""
        if not self.dropped:
            return None
        parts = ", ".join(f"{why} {self.dropped[why]}" for why in DROPS if self.dropped[why])
        self.dropped.clear()
        return f"lecture: answers dropped: {parts}"
