"""Predict, then reveal, alone (issue 33, item 1): the dashboard's Ask button and key, and the
question open on a tab's figure.

The key ``q`` (or the Ask button) asks the question of :mod:`explorer.app.questions` that fits
the tab at the step shown (``q`` again before any answer: the tab's next question that fits).
The page figure draws the question over the figure with big answer buttons
(``static/question.js``) from its ``question`` trait, the page's view of the
:class:`~explorer.app.question_state.QuestionState` (no truth before the reveal). While the
question is open, Play stops and the page's transport waits; the student answers, may change
the answer, and presses Reveal: the tab takes the step (the next step, or the run's end for
"Will this rule converge?"), and the card says right or wrong with the truth in words. The
answer alone does not reveal: a room's presenter reveals once the answers are in, and the
student alone takes the same path.

A question is no edit (not in undo's history, not in the link): it lives in the page figure's
trait only. When the tab shows something else than what was asked about (a new run, another
step, another tile), the question goes.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as W
import numpy as np

from ..shared.i18n import N_
from .labels import label
from .question_state import QuestionState, read_message
from .questions import LabellingShown, RunShown, questions_for

__all__ = ["Asking", "ASK_KEYS", "ASK_TIP", "SHOWN"]

#: The keys that ask (the page figure sends them with the step it shows).
ASK_KEYS = ("q", "Q")
ASK_TIP = N_("Ask the class a question about what is shown (q; q again: another question); "
           "they answer, then Reveal")


def perceptron_shown(view) -> RunShown:
    """What the Perceptron tab shows, for its questions."""
    m = view.model
    info = m.info
    plane = getattr(getattr(view, "figure", None), "plane", None)
    box = getattr(plane, "box", None)
    return RunShown(m.trajectory, m.X, m.y, int(m.step),
                    separable=None if info is None else info.separable,
                    cycle=None if info is None else info.cycle, chosen=bool(m.choose_mode),
                    racing=m.racing is not None,
                    box=None if box is None else tuple(float(v) for v in box))


def cover_shown(view) -> LabellingShown | None:
    """The labelling chosen in the Cover tab's Dichotomies or Boolean view (None in the
    others), with a separating line where there is one."""
    from .. import cover
    from ..plots.dichotomy_grid import PLANE_BOX
    from .cover.scenes import BOOL_BOX

    m = view.model
    if m.view == "dichotomies":
        j = int(view.w_dich.value)
        X, y, sep = m.X, m.dich.labelings[j], bool(m.dich.separable[j])
        name, box, panels, source = f"dichotomy #{j}", PLANE_BOX, ("tiles",), m.dich
    elif m.view == "boolean":
        j = int(view.w_bool.value)
        X, d = cover.boolean_functions_2()
        y, sep = d.labelings[j], bool(d.separable[j])
        name, box, panels, source = cover.BOOLEAN_NAMES_2[j], BOOL_BOX, ("bool_tiles",), "boolean"
    else:
        return None
    line = None
    if sep and not np.all(y == y[0]):
        w, b = cover.separators(X, y[None, :], [0])
        line = (float(w[0, 0]), float(w[0, 1]), float(b[0]))
    return LabellingShown(np.asarray(X, float), np.asarray(y), sep, name, box=box,
                          panels=panels, line=line, source=source)


#: Tab key -> (what the tab shows, for its questions; whether the page's step is the tab's
#: step: the Cover tab's page steps through the recursion's cells, its questions are not).
SHOWN: dict[str, tuple[Callable, bool]] = {"perceptron": (perceptron_shown, True),
                                           "cover": (cover_shown, False)}


def _shown(view):
    """What ``view`` shows, for its tab's questions (None: nothing they know)."""
    entry = SHOWN.get(view.spec.tab)
    return None if entry is None else entry[0](view)


class Asking:
    """The Ask button (:attr:`button`) and the question open on a tab's figure.

    Parameters
    ----------
    active : callable
        ``active()``: the view of the tab on screen, or None.
    look : dict, optional
        The button's ``layout`` and ``style`` (shared with buttons that never change theirs:
        fewer widget models for the page).
    """

    def __init__(self, *, active: Callable, look: dict | None = None):
        self._active = active
        self.button = label(W.Button(icon="question-circle",
                                     **(look or {"layout": W.Layout(width="auto")})),
                            description=N_("Ask"), tooltip=ASK_TIP)
        self.button.add_class("pe-ask")
        self.button.on_click(lambda _: self.ask())
        self._serial = 0
        #: The question open (or revealed, until it goes), and the view it is on.
        self.state: QuestionState | None = None
        self.view = None
        self._after = None  # what the tab shows once revealed (another view of it: it goes)
        self._moving = False  # the reveal is taking its step

    # ------------------------------------------------------------------ wiring
    def hook(self, view) -> None:
        """Listen to ``view``'s page figure (the key ``q``, the card's buttons) and changes."""
        page = getattr(getattr(view, "paged", None), "page", None)
        if page is None:
            return
        page.ask_keys = list(ASK_KEYS)
        page.on_question(lambda content: self.message(view, content))
        view.observe(lambda ch: self._changed(view), names="changed")

    def message(self, view, content) -> None:
        """A message from ``view``'s page (checked; anything malformed or stale is ignored)."""
        msg = read_message(content)
        if msg is None:
            return
        if msg["type"] == "ask":
            self.ask(view=view, step=msg["step"], again=msg["again"])
            return
        s = self.state
        if s is None or self.view is not view or s.id != msg["id"]:
            return  # stale: a question that went, or another tab's
        if msg["type"] == "answer":
            self.answer(msg["choice"])
        elif msg["type"] == "tally":
            self.counted(msg["tally"], msg["points"])
        elif msg["type"] == "reveal":
            self.reveal()
        else:
            self.close()

    # ------------------------------------------------------------------ the flow
    def ask(self, *, view=None, step: int | None = None, again: bool = False) -> bool:
        """Ask the question that fits ``view`` (default: the tab on screen) at ``step`` (the
        page's; default: the settled step); ``again``: the tab's next question. Returns
        whether a question is open."""
        view = view if view is not None else self._active()
        if view is None:
            return False
        page = view.paged.page if hasattr(view, "paged") else None
        if step is None and page is not None and page.playing:
            page.ask_here()  # Play runs in the page: it stops and asks at the step it shows
            return False
        stepped = SHOWN.get(view.spec.tab, (None, False))[1]
        if stepped and step is not None and step != view.model.step:
            self._moving = True
            try:
                view.model.go(step)
            finally:
                self._moving = False
        tab = view.spec.tab
        shown = _shown(view)
        previous = self.state.question.name if (again and self.state is not None
                                                and self.view is view) else None
        question, why = self._choose(tab, shown, after=previous)
        if question is None:
            view.messages.refuse(f"No question asked: {why}.")
            return False
        self.close()
        self._serial += 1
        self.state, self.view, self._after = (
            QuestionState(self._serial, question, question.pose(shown)), view, None)
        view.stop_running()
        self._send()
        return True

    @staticmethod
    def _choose(tab: str, shown, *, after: str | None):
        """The first question of ``tab`` that fits ``shown`` (after the one named ``after``,
        going round), or None and why none does."""
        questions = questions_for(tab)
        if not questions:
            return None, "questions are asked in the Perceptron and Cover tabs"
        if shown is None:
            shown = object()  # nothing the tab's questions know: each says what they need
        names = [q.name for q in questions]
        start = names.index(after) + 1 if after in names else 0
        turn = questions[start:] + questions[:start]
        for q in turn:
            if not q.why_not(shown):
                return q, ""
        return None, turn[0].why_not(shown)

    def answer(self, choice) -> bool:
        """The student's answer (a choice's key, or a place ``[x, y]`` on the plane); before
        the reveal it may change."""
        new = None if self.state is None else self.state.answered(choice)
        if new is None:
            return False
        self.state = new
        self._send()
        return True

    def counted(self, room: dict, points=()) -> None:
        """A room's answers to the open question (the presenter's page passes them on from the
        hall server; ``points``: the places, for a question answered by one): the card shows
        the count, and beside the truth once revealed."""
        new = self.state.counted(room, points)
        if new != self.state:
            self.state = new
            self._send()

    def reveal(self) -> bool:
        """Reveal: the tab takes the question's step, and the card the truth."""
        s, view = self.state, self.view
        if s is None or s.revealed:
            return False
        self.state = s.revealing()
        step = s.posed.reveal_step
        if step is not None:
            self._moving = True
            try:
                view.model.go(step)
            finally:
                self._moving = False
        self._after = _shown(view).key
        self._send()
        return True

    def close(self) -> None:
        """The question goes from its figure."""
        if self.state is not None and self.view is not None:
            self.view.paged.page.question = {}
        self.state, self.view, self._after = None, None, None

    def _send(self) -> None:
        self.view.paged.page.question = self.state.page_json()

    def _changed(self, view) -> None:
        """``view`` drew something: a question about something else than it shows goes."""
        if self._moving or self.state is None or self.view is not view:
            return
        shown = _shown(view)
        key = None if shown is None else shown.key
        if key != (self._after if self.state.revealed else self.state.posed.key):
            self.close()
