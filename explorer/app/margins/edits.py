"""Edits of the Margins tab's data with the pointer, in the page-drawn figure: clicks add or
remove points, a press on a point drags it. Each edit is solved again at once (the max-margin
solution only, about 1.5 ms) and sent to the page as the figure's static tracks, which the page
draws in its next frame; the perceptron, the SGD run and the side panels follow when the edit
is finished: :data:`FINISH_DELAY_S` after the last click, or when the dragged point is
released (a new scene).
"""

from __future__ import annotations

import numpy as np

from ...shared.i18n import tr
from .. import datachoice
from ..jobs import kernel_loop
from ..pagefigure import Pointer
from .model import DATASETS

#: Seconds after the last edit before the perceptron, the SGD run and the side panels follow.
FINISH_DELAY_S = 0.35


def svm_words(cmp) -> str:
    """The max-margin solution in words: its margin, or why a soft margin has none (w = 0)."""
    if np.isfinite(cmp.svm_margin):
        return tr("max margin 1/‖w‖ = {m}").format(m=f"{cmp.svm_margin:.3g}")
    return tr("the soft margin at C = {C} ends at w = 0: no line is worth its cost, so there "
              "is no band").format(C=f"{cmp.C:.3g}")


class PointerEdits:
    """Mixin of :class:`explorer.app.margins.MarginsView`: the page's pointer messages become
    edits of the model (``self.model``, ``self.figure``, ``self.page``, ``self.w_edit``)."""

    _drag = None  # index of the point being dragged
    _finish_handle = None

    def _on_edit_mode(self, change=None):
        self.model.finish_edit()
        self._drag = None
        self.page.pointer_mode = self.w_edit.value

    def _on_pointer(self, pointer: Pointer) -> None:
        """A click or a drag in the page's figure, in data coordinates (explorer.app.pagefigure):
        only the SVM's plane takes edits."""
        if pointer.panel != "plane":
            self.page.pointer_done()
            if pointer.phase == "up":
                self._drop()
            return
        if pointer.mode == "drag":
            self.drag(pointer.phase, pointer.x, pointer.y)
            return
        m = self.model
        before = (m.draft, m.comparison)
        self.click(pointer.x, pointer.y, mode=pointer.mode)
        if m.draft is before[0] and m.comparison is before[1]:
            self.page.pointer_done()  # refused: the page's mark of the click goes

    def _radius(self) -> float:
        x0, x1 = self.figure.plane.ax.get_xlim()
        return 0.035 * (x1 - x0)

    def click(self, x: float, y: float, *, mode: str | None = None) -> None:
        """A click at ``(x, y)`` in the SVM's plane in the click mode shown (or ``mode``): add
        or remove a point (the solution follows at once, the rest when the clicks pause)."""
        mode, m = self.w_edit.value if mode is None else mode, self.model
        if mode != "view" and not m.editable():  # M != 2: refused in words
            return
        if mode in ("add+", "add-"):
            m.add_point(x, y, 1 if mode == "add+" else -1, defer=True)
        elif mode == "remove":
            i = m.nearest_point(x, y, self._radius())
            if i is None:
                m.refuse("no point there; click on a point")
            else:
                m.remove_point(i, defer=True)
        elif mode == "drag":
            self.drag("down", x, y)

    def _on_click(self, event) -> None:
        """A click given as an event with ``xdata``/``ydata`` (tests shared with other tabs)."""
        self.click(event.xdata, event.ydata)

    def drag(self, phase: str, x: float, y: float) -> None:
        """A drag in the SVM's plane: "down" on a point takes it, "move" moves it (the max-margin
        solution follows; the page draws it), "up" drops it and finishes the edit."""
        m = self.model
        if phase == "down" and not m.editable():  # M != 2: refused in words
            self._drag = None
            self.page.pointer_done()
            return
        if phase == "down":
            i = m.nearest_point(x, y, self._radius())
            if i is None:
                m.refuse("no point there; press on a point")
                self._drag = None
                self.page.pointer_done()  # the page lets go of what it took
            else:
                self._drag = i
                self._cancel_finish()
        elif self._drag is None:
            if phase == "up":
                self.page.pointer_done()
        else:
            m.move_point(self._drag, x, y, defer=True)
            self._cancel_finish()  # the solution follows the pointer; the rest on release
            if phase == "up":
                self._drop()

    def _drop(self) -> None:
        if self._drag is not None:
            self._drag = None
            self.model.finish_edit()

    def _on_draft(self, change):
        draft = change["new"]
        if draft is None:  # finished (a new scene follows), or refused: the data shown again
            refused = self.model.comparison is self.figure.comparison
            if change["old"] is not None and refused and self.figure.described:
                self.page.send_static(self.figure.statics())
            return
        m = self.model
        if self.data_origin != datachoice.EDITED or not m.edited:  # a new edit: what of?
            self.edit_base = datachoice.edit_base(self.data_origin, self.edit_base,
                                                  edited=m.edited, dataset=(
                                                      DATASETS[m.dataset][0], m.dataset))
        self.data_origin = datachoice.EDITED  # a click or a drag made these points
        cmp = draft.comparison
        static = self.figure.draft(draft.X, draft.y, cmp)
        if static is None:  # the layout must change: a new scene (about half a second)
            if self._drag is None:
                self.model.finish_edit()  # now
            return  # or on release: meanwhile the page draws the point under the pointer
        text = ("hard margin impossible: not separable" if cmp.svm is None else
                f"{svm_words(cmp)} · {len(cmp.svm.support)} support vectors")
        text = (f"{len(draft.X)} points: {text}. The perceptron, the SGD run and the side "
                "panels follow when you pause.")
        self.page.send_static(static, narration=text)
        self.messages.narrate(text)
        self.changed += 1
        if self._drag is None:
            self._schedule_finish()

    def _cancel_finish(self):
        if self._finish_handle is not None:
            self._finish_handle.cancel()
            self._finish_handle = None

    def _schedule_finish(self):
        self._cancel_finish()
        loop = kernel_loop()
        if loop is None:  # outside a kernel nothing would run the timer: finish now
            self.model.finish_edit()
        else:
            self._finish_handle = loop.call_later(FINISH_DELAY_S, self.model.finish_edit)

