"""What every tab's model shares (traitlets only, no widgets): the refusal message, and a count
of the changes applied (a view clears an old refusal on it)."""

from __future__ import annotations

from traitlets import HasTraits, Int, Unicode


class TabModel(HasTraits):
    """Base of the tab models: ``message`` says why the last change was refused ("" if none);
    ``applied`` counts the changes of state that were applied (a setting, an edit, a loaded
    state, a run started): the next valid change after a refusal, on which the refusal goes."""

    message = Unicode("")
    applied = Int(0)

    def refuse(self, text: str) -> None:
        """Say why a change was refused; the same refusal twice in a row is said twice."""
        if self.message == text:
            self.message = ""
        self.message = text
