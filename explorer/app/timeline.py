"""The timeline every "a run at step k" tab shares: step, back, play, scrub and jumps.

It only ever *sets* a step number; the tab draws "the state at step k" of its precomputed run.
Play runs in the browser (``ipywidgets.Play`` linked to the slider in JavaScript), so a busy
kernel drops frames instead of queueing them, and the picture always matches the slider.
Jumps: previous/next update, end of the current epoch and the end of the run, which matters
for long runs (breast cancer's default run has 28 450 steps: 24 minutes at 20 steps/s).
"""

from __future__ import annotations

import ipywidgets as W
import numpy as np
import traitlets as T

from ..shared.i18n import N_, tr
from . import labels
from .playlist import KEYS_HELP as SLIDE_KEYS_HELP

#: Shortcut keys -> action names; the dashboard's page bridge forwards them.
KEY_ACTIONS = {"ArrowRight": "step", "PageDown": "step", "ArrowLeft": "back", "PageUp": "back",
               " ": "play", "Home": "reset", "r": "reset", "R": "reset", "End": "end",
               "]": "next_update", "[": "prev_update", "e": "epoch_end", "E": "epoch_end"}
#: The keys of a tab, in English (the catalogs' key; :func:`keys_help` in the page's language).
TAB_KEYS_HELP = N_("→ or PageDown step · ← or PageUp back · space play/pause · Home or r reset · "
                   "[ ] previous/next update · e end of epoch · End last step · l lecture mode · "
                   "z or a click on a panel's title: that panel large (z, Esc or the title "
                   "again: back) · "
                   "a 3-D view: drag or Shift+arrows turn it, v resets it · "
                   "Ctrl+Z undo, Ctrl+Shift+Z redo (settings and data) · q ask a question "
                   "(again: another), Esc closes it")
KEYS_HELP = "Keys: " + TAB_KEYS_HELP + " · " + SLIDE_KEYS_HELP


def keys_help() -> str:
    """Every key of a tab and of the playlist, in the current language (without "Keys: ")."""
    return tr(TAB_KEYS_HELP) + " · " + tr(SLIDE_KEYS_HELP)


def jump(action: str, *, k: int, n: int, updates: np.ndarray, epoch: int,
         cycle_start: int | None) -> int:
    """The step a transport action leads to from step ``k`` of a run of ``n`` steps (the page
    figure's JavaScript does the same in the page, ``pagefigure.js`` ``target``)."""
    if action == "cycle_start":
        return k if cycle_start is None else min(cycle_start, n)
    if action == "step":
        return k + 1
    if action == "back":
        return k - 1
    if action == "reset":
        return 0
    if action == "end":
        return n
    if action == "next_update":
        later = updates[updates > k]
        return int(later[0]) if len(later) else n
    if action == "prev_update":
        earlier = updates[updates < k]
        return int(earlier[-1]) if len(earlier) else 0
    if action == "epoch_end":
        if epoch <= 0:
            return n
        return min((k // epoch + 1) * epoch, n)
    raise ValueError(f"unknown timeline action {action!r}")


class _Moves:
    """The moves of a transport (:class:`Transport` and :class:`Timeline`): they read ``step``,
    ``n_steps``, ``updates``, ``epoch``, ``cycle_start`` and ``play.playing``, and move with
    ``go``."""

    def target(self, action: str) -> int:
        """The step an action leads to from the current one."""
        return jump(action, k=self.step, n=self.n_steps, updates=self.updates, epoch=self.epoch,
                    cycle_start=self.cycle_start)

    def act(self, action: str) -> None:
        """Perform a transport action ("step", "back", "reset", "end", "next_update", …)."""
        if action == "play":
            self.play.playing = not self.play.playing and self.n_steps > 0
            return
        if action == "reset":
            self.play.playing = False
        self.go(self.target(action))

    def handle_key(self, key: str) -> bool:
        """Apply a shortcut key; returns whether it was one of the timeline's."""
        action = KEY_ACTIONS.get(key)
        if action is None:
            return False
        self.act(action)
        return True


class _Playing(T.HasTraits):
    playing = T.Bool(False)


class Transport(_Moves, T.HasTraits):
    """A run's transport with no widgets: the kernel's side of a page-drawn figure, whose
    page has the buttons, slider, Play and keys (:mod:`explorer.app.pagefigure`).

    The same interface as :class:`Timeline` (``step``, ``n_steps``, ``updates``, ``epoch``,
    ``cycle_start``, ``play.playing``, :meth:`set_run`, :meth:`set_cycle`, :meth:`go`,
    :meth:`act`, :meth:`handle_key`), and nothing to send: a settled step costs no message.
    """

    step = T.Int(0)
    n_steps = T.Int(0)

    def __init__(self):
        super().__init__()
        self.updates = np.zeros(0, dtype=np.int64)
        self.epoch = 0
        self.cycle_start = None
        self.status = None
        self.play = _Playing()

    def set_run(self, n_steps: int, *, updates=(), epoch: int = 0, start: int = 0) -> None:
        self.play.playing = False
        self.updates = np.asarray(updates, dtype=np.int64)
        self.epoch = int(epoch)
        self.step = 0
        self.n_steps = int(n_steps)
        self.go(start)

    def set_cycle(self, start: int | None) -> None:
        self.cycle_start = None if start is None else int(start)

    @property
    def status_text(self) -> str:
        """The status line of the step (the page shows its own, from the run's chunks)."""
        k = self.step
        return self.status(k) if self.status else f"step {k} of {self.n_steps}"

    def go(self, k) -> None:
        self.step = int(min(max(int(k), 0), self.n_steps))



def _button(label: str, tip: str, css: str, **kw) -> W.Button:
    b = labels.label(W.Button(layout=W.Layout(width="auto"), **kw), description=label,
                     tooltip=tip)
    b.add_class("pe-btn").add_class(css)
    return b


class Timeline(_Moves, W.VBox):
    """Transport for a run of ``n_steps`` steps; ``step`` (a trait) is the step to show.

    Call :meth:`set_run` when the run changes (it goes back to step 0 *before* the slider's
    range shrinks, so a long run's step never lands on a short run's end), and :meth:`go` or
    :meth:`act` to move. Every button has a text label and a tooltip (its accessible name).
    """

    step = T.Int(0)
    n_steps = T.Int(0)

    def __init__(self, **kwargs):
        self.updates = np.zeros(0, dtype=np.int64)
        self.epoch = 0
        self.status = None  # optional callable: step -> the text beside the slider
        self.b_reset = _button(N_("Reset"), N_("Back to step 0 (Home or r)"), "pe-reset")
        self.b_back = _button(N_("◀ Back"), N_("Back one step (← or PageUp)"), "pe-back")
        self.b_step = _button(N_("Step ▶"), N_("Forward one step (→ or PageDown)"), "pe-step",
                              button_style="primary")
        self.b_prev = _button(N_("⇤ Update"), N_("Previous update ([)"), "pe-prev-update")
        self.b_next = _button(N_("Update ⇥"), N_("Next update (])"), "pe-next-update")
        self.b_epoch = _button(N_("Epoch end"), N_("End of this epoch (e)"), "pe-epoch-end")
        self.b_end = _button(N_("End"), N_("Last step of the run (End)"), "pe-end")
        self.play = W.Play(value=0, min=0, max=1, interval=250, show_repeat=False)
        labels.label(self.play, description=N_("Play"), tooltip=N_("Play or pause (space)"))
        self.play.add_class("pe-play")
        self.speed = W.IntSlider(value=4, min=1, max=20,
                                 style={"description_width": "auto"},
                                 layout=W.Layout(width="210px"))
        labels.label(self.speed, description=N_("steps/s"))
        self.slider = W.IntSlider(value=0, min=0, max=1,
                                  style={"description_width": "auto"},
                                  layout=W.Layout(flex="1 1 300px", min_width="240px"))
        labels.label(self.slider, description=N_("step"))
        self.slider.add_class("pe-scrub")
        self.where = W.HTML().add_class("pe-where")
        W.jslink((self.play, "value"), (self.slider, "value"))
        actions = {self.b_reset: "reset", self.b_back: "back", self.b_step: "step",
                   self.b_prev: "prev_update", self.b_next: "next_update",
                   self.b_epoch: "epoch_end", self.b_end: "end"}
        for b, action in actions.items():
            b.on_click(lambda _b, a=action: self.act(a))
        self.slider.observe(lambda ch: self.go(ch["new"]), names="value")
        self.speed.observe(lambda ch: setattr(self.play, "interval", int(1000 / ch["new"])),
                           names="value")
        row = W.Layout(flex_flow="row wrap", align_items="center", width="100%")
        buttons = W.HBox([self.b_reset, self.b_back, self.b_step, self.play, self.speed,
                          self.b_prev, self.b_next, self.b_epoch, self.b_end], layout=row)
        scrub = W.HBox([self.slider, self.where], layout=row)
        super().__init__([buttons, scrub], **kwargs)
        self.add_class("pe-timeline")
        # a run whose weights repeat: a jump to the first step of its cycle (see set_cycle)
        self.cycle_start = None
        self.b_cycle = _button(N_("Cycle start"),
                               N_("First step of the cycle: from there the weights repeat"),
                               "pe-cycle-start")
        self.b_cycle.on_click(lambda _b: self.act("cycle_start"))
        buttons.children += (self.b_cycle,)
        self.observe(lambda _ch: self._refresh_cycle(), names=["step", "n_steps"])
        self._refresh_cycle()
        self._refresh()

    # ------------------------------------------------------------------ run
    def set_run(self, n_steps: int, *, updates=(), epoch: int = 0, start: int = 0) -> None:
        """A new run: ``updates`` are its (1-based) update steps, ``epoch`` its pass length,
        ``start`` the step to show first."""
        self.play.playing = False
        self.updates = np.asarray(updates, dtype=np.int64)
        self.epoch = int(epoch)
        self.step = 0
        self.slider.value = 0
        self.play.value = 0
        top = max(int(n_steps), 1)  # a slider needs max > min; an empty run is disabled instead
        self.slider.max = top
        self.play.max = top
        self.n_steps = int(n_steps)
        k = int(min(max(start, 0), self.n_steps))
        # Play and the slider are linked in the page, both ways, so later steps keep them
        # together there; but when the page links them on load it copies Play's value to the
        # slider, so Play must already hold the step a link or a saved state opens at.
        self.play.value = k
        self.go(k)

    def set_cycle(self, start: int | None) -> None:
        """Mark the step from which the run's weights repeat (None: no cycle); call after
        :meth:`set_run`. The "Cycle start" button jumps there."""
        self.cycle_start = None if start is None else int(start)
        self._refresh_cycle()

    def _refresh_cycle(self) -> None:
        start = self.cycle_start
        self.b_cycle.layout.display = "none" if start is None or start > self.n_steps else ""
        self.b_cycle.disabled = start is None or self.step == start

    @property
    def status_text(self) -> str:
        """The status line beside the slider (plain text)."""
        import html
        import re

        return html.unescape(re.sub(r"<[^>]+>", "", self.where.value))

    # ------------------------------------------------------------------ moving
    def go(self, k) -> None:
        """Show step ``k``, clamped to ``[0, n_steps]``."""
        k = int(min(max(int(k), 0), self.n_steps))
        self.step = k
        if self.slider.value != k:
            self.slider.value = k
        self._refresh()


    def _refresh(self) -> None:
        k, n = self.step, self.n_steps
        empty = n == 0
        for w in (self.slider, self.play, self.b_step, self.b_end, self.b_next, self.b_epoch):
            w.disabled = empty or k >= n
        self.slider.disabled = empty
        self.play.disabled = empty
        for w in (self.b_back, self.b_reset, self.b_prev):
            w.disabled = k <= 0
        self.b_prev.disabled = k <= 0 or not np.any(self.updates < k)
        self.b_next.disabled = empty or not np.any(self.updates > k)
        self.b_epoch.layout.display = "" if self.epoch > 0 else "none"
        self.where.value = self.status(k) if self.status else f"step {k} of {n}"
