"""What every tab's model shares (traitlets only, no widgets): the refusal message."""

from __future__ import annotations

from traitlets import HasTraits, Unicode


class TabModel(HasTraits):
    """Base of the tab models: ``message`` says why the last change was refused ("" if none)."""

    message = Unicode("")

    def refuse(self, text: str) -> None:
        """Say why a change was refused; the same refusal twice in a row is said twice."""
        if self.message == text:
            self.message = ""
        self.message = text
