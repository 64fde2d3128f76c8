"""Undo and redo of a tab's settings and data (issue 33, item 4).

A tab's history is the list of its states as the dashboard writes them into the link (the
settled state: not each step of a held key or of Play, not each move of a drag). Two states
differ when anything but the step differs: a new setting, points added, removed, dragged or
pasted, a data set or a state loaded, a slide opened, a reset. Stepping through a run is not an
edit; it only updates the step the state is restored at.

:class:`History` holds no widgets: the dashboard records each state it writes into the link
(:meth:`History.record`), and on Ctrl+Z (the page sends the key "Undo") or the Undo button it
applies the state :meth:`History.undo` gives back, by the same path as a link or a saved file;
Ctrl+Shift+Z or Ctrl+Y ("Redo") go forward again. A new edit after an undo drops the states
undone, as editors do. At most :data:`CAPACITY` states are kept per tab (the oldest go).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

#: States kept per tab. A state is kept as compact JSON: about 300 bytes, and about 40 kB
#: with 2000 points (a tab's most), so at most 4 MB per tab (as Python lists, 26 MB).
CAPACITY = 100

#: State keys that are not edits: moving through the run.
NOT_EDITS = ("step",)


@dataclass(frozen=True)
class Entry:
    """One state of a tab: ``edits``, its state but the keys that are not edits, as compact
    JSON; ``rest``, those keys' values (the step); ``origin``, what its points are
    (:mod:`explorer.app.datachoice`; None where the tab has no data box)."""

    edits: str
    rest: dict
    origin: str | None = None

    @property
    def state(self) -> dict:
        """The state as ``save_state`` gave it (tuples as lists), a new dict each time."""
        return json.loads(self.edits) | dict(self.rest)


class History:
    """A tab's states, for undo and redo (see the module docstring).

    Parameters
    ----------
    capacity : int, default :data:`CAPACITY`
        The most states kept (the current one and those to undo); the oldest go first.
    ignore : tuple of str, default :data:`NOT_EDITS`
        State keys whose change alone is not an edit.
    """

    def __init__(self, *, capacity: int = CAPACITY, ignore: tuple = NOT_EDITS):
        if not isinstance(capacity, int) or isinstance(capacity, bool) or capacity < 2:
            raise ValueError(f"capacity must be a whole number of at least 2; got {capacity!r}")
        self.capacity = capacity
        self.ignore = tuple(ignore)
        self.current: Entry | None = None
        self._undo: list[Entry] = []
        self._redo: list[Entry] = []

    def record(self, state: dict, *, origin: str | None = None) -> bool:
        """The tab shows ``state`` (a dict, as ``save_state`` gives it). Returns True if it is an
        edit (then the state before it can be undone, and nothing can be redone); otherwise
        the current state only takes its step."""
        if not isinstance(state, dict):
            raise TypeError(f"state must be a dict; got {type(state).__name__}")
        edits = {k: v for k, v in state.items() if k not in self.ignore}
        try:
            text = json.dumps(edits, sort_keys=True, separators=(",", ":"), allow_nan=False)
        except ValueError as exc:
            raise ValueError(f"state must hold finite JSON values: {exc}") from None
        entry = Entry(text, {k: state[k] for k in self.ignore if k in state}, origin)
        before = self.current
        self.current = entry
        if before is None or before.edits == text:
            return False
        self._undo.append(before)
        del self._undo[:len(self._undo) - (self.capacity - 1)]
        self._redo.clear()
        return True

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> Entry | None:
        """The state before the last edit (now the current one), or None if there is none."""
        return self._move(self._undo, self._redo)

    def redo(self) -> Entry | None:
        """The state the last undo left (now the current one), or None if there is none."""
        return self._move(self._redo, self._undo)

    def _move(self, source: list, target: list) -> Entry | None:
        if not source:
            return None
        if self.current is not None:
            target.append(self.current)
        self.current = source.pop()
        return self.current
