"""What every tab's model shares (traitlets only, no widgets): the refusal of a change, as a
value, and a count of the changes applied (a view clears an old refusal on it)."""

from __future__ import annotations

from dataclasses import dataclass

from traitlets import HasTraits, Instance, Int, Unicode, observe


@dataclass(frozen=True)
class Refusal:
    """A change that was not applied: why, and what was kept instead.

    Parameters
    ----------
    why : str
        What was wrong with the input, saying what was expected and what was got
        ("η must be a number > 0; got 'abc'").
    kept : str or None
        What stays as it was ("settings", "data", "layout"); None: nothing to say.
    """

    why: str
    kept: str | None = None

    @property
    def text(self) -> str:
        """The sentence the page shows."""
        why = self.why.rstrip(".")
        return f"Not applied: {why}." + (f" Kept the previous {self.kept}." if self.kept else "")


class TabModel(HasTraits):
    """Base of the tab models.

    ``refusal`` is the last change refused (a :class:`Refusal`; None once something else is
    said or the next valid change comes); ``message`` is what the tab says about its state: the
    refusal's text, or a note about the run. ``applied`` counts the changes of state that were
    applied (a setting, an edit, a loaded state, a run started): the next valid change after a
    refusal, on which the refusal goes."""

    message = Unicode("")
    refusal = Instance(Refusal, allow_none=True)
    applied = Int(0)

    def refuse(self, why: str | Exception | Refusal, *, kept: str | None = None) -> None:
        """Say why a change was refused (``why`` may be a :class:`Refusal`); the same refusal
        twice in a row is said twice."""
        r = why if isinstance(why, Refusal) else Refusal(why=str(why), kept=kept)
        if self.message == r.text:
            self.message = ""
        self.refusal = r
        self.message = r.text

    @observe("message")
    def _said_else(self, change) -> None:
        r = self.refusal
        if r is not None and change["new"] != r.text:
            self.refusal = None  # a note or silence replaced the refusal
