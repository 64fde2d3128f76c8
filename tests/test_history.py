"""Undo and redo (issue 33, item 4): explorer.app.history on its own, then in the dashboard
(explorer.app.undo_ui), where undoing each kind of edit (a setting, points added, removed,
dragged, pasted, chosen, a data set, a reset) gives back the link written before it, character
for character, and redo the one after. The keys in the page: tests/js/keys.test.mjs (Ctrl+Z -> "Undo") and
tests/browser/test_undo.py."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.app.dashboard import Dashboard
from explorer.app.history import History
from explorer.app.pagefigure import Pointer
from explorer.app.timeline import KEYS_HELP

# ------------------------------------------------------------------ the history alone


def test_an_edit_can_be_undone_and_redone_and_a_step_is_not_an_edit():
    h = History()
    assert not h.record({"eta": 1.0, "step": 0})  # the first state: nothing before it
    assert not h.record({"eta": 1.0, "step": 7})  # moving through the run
    assert not h.can_undo and h.undo() is None
    assert h.record({"eta": 0.5, "step": 7})
    assert h.can_undo and not h.can_redo
    back = h.undo()
    assert back.state == {"eta": 1.0, "step": 7}  # at the step it was left at
    assert h.can_redo and not h.can_undo
    assert h.redo().state == {"eta": 0.5, "step": 7} and h.redo() is None
    # restoring a state records it again: not an edit, nothing lost
    assert not h.record({"eta": 0.5, "step": 7}) and h.can_undo


def test_a_new_edit_after_an_undo_drops_what_was_undone():
    h = History()
    for eta in (1.0, 0.5, 0.25):
        h.record({"eta": eta})
    assert h.undo().state == {"eta": 0.5}
    assert h.record({"eta": 2.0})
    assert not h.can_redo
    assert [h.undo().state["eta"], h.undo().state["eta"], h.undo()] == [0.5, 1.0, None]


def test_states_are_copies_and_the_oldest_go_past_the_capacity():
    h = History(capacity=3)
    points = [[0.0, 1.0, 1]]
    h.record({"points": points})
    points.append([1.0, 0.0, -1])  # the caller's list changes: the history's does not
    h.record({"points": points})
    assert h.undo().state == {"points": [[0.0, 1.0, 1]]}
    h.redo()
    for n in range(3, 8):
        h.record({"points": [[0.0, 0.0, 1]] * n})
    undone = []
    while (e := h.undo()) is not None:
        undone.append(len(e.state["points"]))
    assert undone == [6, 5]  # three states kept: the current one and two before it


def test_the_history_says_what_it_takes():
    with pytest.raises(ValueError, match="at least 2; got 1"):
        History(capacity=1)
    with pytest.raises(TypeError, match="state must be a dict; got list"):
        History().record([1, 2])
    with pytest.raises(ValueError, match="finite JSON values"):
        History().record({"eta": float("nan")})


def test_states_are_kept_as_compact_json_and_come_back_equal():
    h = History()
    state = {"points": [[0.25, -1.0, 1]] * 2000, "eta": 0.5, "rule": "margin", "step": 3}
    h.record(state)
    assert len(h.current.edits) < 40_000 and h.current.rest == {"step": 3}
    assert h.current.state == state and h.current.state is not h.current.state


# ------------------------------------------------------------------ in the dashboard


def _edit_and_undo(d: Dashboard, edit) -> None:
    """``edit(view)`` changes the link; undo gives back the link before it, redo the one
    after, with the Undo and Redo buttons greyed out as there is nothing more."""
    before = d.share.value
    edit(d.active)
    after = d.share.value
    assert after != before and not d.history.b_undo.disabled and d.history.b_redo.disabled
    d.history.undo()
    assert d.share.value == before
    assert not d.history.b_redo.disabled
    d.history.redo()
    assert d.share.value == after and d.history.b_redo.disabled
    d.bridge.press("Undo")  # Ctrl+Z in the page
    assert d.share.value == before
    d.bridge.press("Redo")
    assert d.share.value == after


def _perceptron_click(mode, x, y):
    def edit(view):
        view.w_edit.value = mode
        view._on_pointer(Pointer("plane", x, y, mode))
    return edit


def _pasted(view):
    X = np.array([[0.0, 1.0], [1.0, 0.5], [-1.0, -0.5], [0.2, -1.0]])
    assert view.data_panel.load("x1,x2,y\n" + "\n".join(
        f"{a},{b},{c}" for (a, b), c in zip(X, [1, 1, -1, -1], strict=True)))


PERCEPTRON_EDITS = {
    "a setting": lambda v: v.model.update(eta=0.25),
    "a data set": lambda v: v.model.update(dataset="xor"),
    "a point added": _perceptron_click("add+", 0.3, 0.4),
    "a point removed": lambda v: _perceptron_click("remove", *v.model.X[2])(v),
    "pasted data": _pasted,
    "the settings reset": lambda v: v.reset_settings(),
}


@pytest.mark.parametrize("edit", list(PERCEPTRON_EDITS), ids=str)
def test_undo_and_redo_of_each_perceptron_edit_give_back_the_link(edit):
    d = Dashboard(query="tab=perceptron&step=5&eta=0.5&seed=7")
    _edit_and_undo(d, PERCEPTRON_EDITS[edit])


def test_a_point_chosen_in_you_choose_mode_is_undone():
    d = Dashboard(query="tab=perceptron")
    view = d.active
    view.w_edit.value = "choose"  # "you choose": the learner picks the next point
    d.history.redo()  # nothing to redo: nothing happens
    _edit_and_undo(d, lambda v: v._on_pointer(Pointer("plane", *v.model.X[0], "choose")))


def _margins_drag(view):
    view.w_edit.value = "drag"
    x0 = view.model.X[3]
    view._on_pointer(Pointer("plane", *x0, "drag", "down"))
    for t in (0.3, 0.6):  # the states of a drag under way are not undo steps
        view._on_pointer(Pointer("plane", *(x0 * (1 - t)), "drag", "move"))
    view._on_pointer(Pointer("plane", *(x0 * 0.1), "drag", "up"))


MARGINS_EDITS = {
    "C": lambda v: v.model.update(log_c=1.0),
    "a point added": lambda v: v._on_pointer(Pointer("plane", 0.1, 0.2, "add+")),
    "a point dragged": _margins_drag,
}


@pytest.mark.parametrize("edit", list(MARGINS_EDITS), ids=str)
def test_undo_and_redo_of_each_margins_edit_give_back_the_link(edit):
    d = Dashboard(query="tab=margins")
    _edit_and_undo(d, MARGINS_EDITS[edit])
    d.history.undo()  # one edit, one undo step (a drag's moves were not steps of their own)
    assert d.history.b_undo.disabled and not d.history.histories["margins"].can_undo


def test_the_keys_are_said_in_the_keys_help():
    assert "Ctrl+Z undo, Ctrl+Shift+Z redo" in KEYS_HELP


def test_each_tab_has_its_own_history_and_nothing_to_undo_does_nothing():
    d = Dashboard(query="tab=perceptron")
    start, eta = d.share.value, d.active.model.eta
    d.history.undo()  # nothing yet
    assert d.share.value == start and d.history.b_undo.disabled
    d.active.model.update(eta=eta / 2)
    d.tabs.selected_index = 1  # Margins: its own history, nothing to undo
    assert d.history.b_undo.disabled
    margins_start = d.share.value
    d.active.model.update(log_c=-1.0)
    d.history.undo()
    assert d.share.value == margins_start
    d.tabs.selected_index = 0  # back: the Perceptron's edit is still the one to undo
    assert not d.history.b_undo.disabled
    d.history.undo()
    assert d.share.value == start and d.active.model.eta == eta


OTHER_TABS = {"cover": {"trials": 50}, "xor": {"function": 9},
              "generalization": {"rule": "classic"}}


@pytest.mark.parametrize("tab", list(OTHER_TABS))
def test_a_setting_of_every_other_tab_is_undone_and_redone(tab):
    d = Dashboard(query=f"tab={tab}")
    _edit_and_undo(d, lambda v: v.model.update(**OTHER_TABS[tab]))
