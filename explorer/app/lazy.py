"""Widget groups made the first time they are used (issue 20: the page open).

Every widget alive in the kernel is sent to a page when it opens, about three models a widget
(itself, its layout, its style), and the browser creates and renders each before the page is
interactive. A group that is hidden or closed at open (the Playlist group, each tab's export
panel, the CSV reader) would cost every visitor that time, used or not. :class:`BuiltOnUse`
makes such a group's parts when it is first opened (:func:`disclosure`), when a method needs
them, or when one of them is read (``panel.b_png``), so code and tests use it as if it were
always built.
"""

from __future__ import annotations

import ipywidgets as W

from ..shared.i18n import tr
from .labels import label


class BuiltOnUse:
    """Mixin for a widget box whose parts :meth:`_build` makes once, when first needed.

    The subclass's ``__init__`` keeps what is not a widget and calls the box's ``__init__``
    with no children; :meth:`_build` makes the parts and sets ``children``. Reading a public
    attribute the box does not have yet (``panel.b_png``) or calling :meth:`build` makes them.
    """

    #: The parts are made (set by :meth:`build`).
    built = False

    def build(self) -> None:
        """Make the parts, once."""
        if not self.built:
            self.built = True
            self._build()

    def _build(self) -> None:  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    def __getattr__(self, name: str):
        # only called for a name not found: a part not made yet, or a name that is not there
        if name.startswith("_") or self.built:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self.build()
        return getattr(self, name)


def disclosure(title: str, panel: BuiltOnUse, *, width: str = "95%") -> W.Accordion:
    """A closed section titled ``title`` holding ``panel``, which it builds when first opened."""
    box = W.Accordion([panel], selected_index=None, layout=W.Layout(width=width))
    label(box, titles=lambda: (tr(title),))  # in the page's language (``title`` marked N_)

    def opened(change) -> None:
        if change["new"] is not None:
            panel.build()

    box.observe(opened, names="selected_index")
    return box


__all__ = ["BuiltOnUse", "disclosure"]
