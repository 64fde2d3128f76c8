"""Undo and Redo in the dashboard's top bar (issue 33, item 4): the buttons, each tab's
:class:`~explorer.app.history.History`, and going back and forth through the tab on screen.

The dashboard records each state it writes into the link (:meth:`UndoRedo.record`), and calls
:meth:`UndoRedo.undo` and :meth:`UndoRedo.redo` for the buttons and the keys the page sends
(Ctrl+Z as "Undo", Ctrl+Shift+Z or Ctrl+Y as "Redo"). A state is given back by the path a link
or a saved file takes (the dashboard's ``restore``), so the link after an undo is the link
before the edit.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as W

from ..shared.i18n import N_
from .history import Entry, History
from .labels import label


class UndoRedo:
    """The Undo and Redo buttons (:attr:`b_undo`, :attr:`b_redo`) and the tabs' histories
    (:attr:`histories`, by tab key). A view's ``editing`` (True while a drag is under way) is
    optional in the dashboard's tab protocol: a tab without it is never mid-edit.

    Parameters
    ----------
    active : callable
        ``active()``: the view of the tab on screen, or None.
    flush : callable
        ``flush(view)``: write now a link the dashboard is waiting to write (an edit not yet
        recorded is then the last one).
    restore : callable
        ``restore(view, entry, way)``: show the state of ``entry`` (``way``: "undo" or "redo").
    """

    def __init__(self, *, active: Callable, flush: Callable, restore: Callable):
        self._active, self._flush, self._restore = active, flush, restore
        # one layout and style for both (never changed apart): fewer models for the page
        look = {"layout": W.Layout(width="auto"), "style": W.ButtonStyle()}
        self.b_undo = label(W.Button(icon="undo", disabled=True, **look),
                            description=N_("Undo"), tooltip=N_(
                                "Undo the last change of the settings or the data (Ctrl+Z)"))
        self.b_redo = label(W.Button(icon="repeat", disabled=True, **look),
                            description=N_("Redo"),
                            tooltip=N_("Redo what was undone (Ctrl+Shift+Z or Ctrl+Y)"))
        self.b_undo.add_class("pe-undo")
        self.b_redo.add_class("pe-redo")
        self.b_undo.on_click(lambda _: self.undo())
        self.b_redo.on_click(lambda _: self.redo())
        self.histories: dict[str, History] = {}

    def _history(self, view) -> History:
        return self.histories.setdefault(view.spec.tab, History())

    def record(self, view, state: dict) -> None:
        """``view`` shows ``state`` (as written into the link); a drag under way is not
        recorded (it is one edit, recorded when dropped)."""
        if not getattr(view, "editing", False):
            self._history(view).record(state, origin=getattr(view, "data_origin", None))
            self.sync()

    def sync(self) -> None:
        """The buttons for the tab on screen: greyed out when there is nothing to do."""
        view = self._active()
        h = None if view is None else self.histories.get(view.spec.tab)
        self.b_undo.disabled = h is None or not h.can_undo
        self.b_redo.disabled = h is None or not h.can_redo

    def undo(self) -> None:
        """Back to the state before the last edit of the tab on screen (Ctrl+Z)."""
        self._go("undo")

    def redo(self) -> None:
        """Forward to the state the last undo left (Ctrl+Shift+Z, Ctrl+Y)."""
        self._go("redo")

    def _go(self, way: str) -> None:
        view = self._active()
        if view is None or getattr(view, "editing", False):
            return
        self._flush(view)
        h = self._history(view)
        entry: Entry | None = h.undo() if way == "undo" else h.redo()
        if entry is not None:
            self._restore(view, entry, way)
        self.sync()
