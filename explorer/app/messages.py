"""One place per tab for words: the narration of what is shown, and refusals of bad input.

A refusal ("Not applied: η must be a number > 0; got 'abc'") stays until the next successful
action, then disappears; the narration is also the figure's accessible description, so it is
an ARIA live region that screen readers announce. Every message takes its own line in the
page's flow, above the figure: none floats over the figure or a control.
"""

from __future__ import annotations

import html

import ipywidgets as W


class MessageArea(W.VBox):
    """Narration line, a note line and a refusal (the last two hidden when empty).

    ``narration=False``: the tab's figure shows the narration itself (the page-drawn figure
    does); the text is kept for :attr:`text` and never sent to the page.
    """

    def __init__(self, *, narration: bool = True, **kwargs):
        self._narrated = ""
        self._show_narration = bool(narration)
        self.narration = W.HTML().add_class("pe-narration")
        self.refusal = W.HTML().add_class("pe-message")
        self.notice = W.HTML().add_class("pe-note")
        self.refusal.layout.display = "none"
        self.notice.layout.display = "none"
        if not narration:
            self.narration.layout.display = "none"
        # A note and a refusal each take their own line above the figure: floating over it they
        # hid its titles, and over a row of buttons (the Generalization tab's Run and Stop)
        # they took its clicks. The dashboard fits the figure again when either comes or goes.
        super().__init__([self.narration, self.notice, self.refusal], **kwargs)
        self.add_class("pe-messages")

    @property
    def text(self) -> str:
        """The narration of what is shown (plain text)."""
        return self._narrated

    @property
    def refused(self) -> str:
        """The refusal shown, or "" (plain text)."""
        return html.unescape(_strip(self.refusal.value))

    def narrate(self, text: str, *, keep_refusal: bool = False) -> None:
        """Show ``text`` as the narration; a successful action also clears an old refusal
        (``keep_refusal`` for redraws that are no action of the user's, e.g. a resize)."""
        self._narrated = text
        if self._show_narration:
            self.narration.value = (f"<div role='status' aria-live='polite'>"
                                    f"{html.escape(text)}</div>")
        if not keep_refusal:
            self.clear_refusal()

    def refuse(self, text: str) -> None:
        """Show why an input was refused (the last good state stays on screen)."""
        if not text:
            self.clear_refusal()
            return
        self.refusal.value = f"<div role='alert'>{html.escape(text)}</div>"
        self.refusal.layout.display = ""

    def note(self, text: str) -> None:
        """A standing remark about the current run (e.g. "the run was cut"); "" hides it."""
        self.notice.value = html.escape(text)
        self.notice.layout.display = "" if text else "none"

    def clear_refusal(self) -> None:
        self.refusal.value = ""
        self.refusal.layout.display = "none"


def _strip(markup: str) -> str:
    import re

    return re.sub(r"<[^>]+>", "", markup)
