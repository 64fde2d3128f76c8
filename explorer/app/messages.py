"""One place per tab for words: the narration of what is shown, and refusals of bad input.

A refusal ("Not applied: η must be a number > 0; got 'abc'") stays until the next successful
action, then disappears; the narration is also the figure's accessible description, so it is
an ARIA live region that screen readers announce.
"""

from __future__ import annotations

import html

import ipywidgets as W


class MessageArea(W.VBox):
    """Narration line, a note line and a refusal (the last two hidden when empty)."""

    def __init__(self, **kwargs):
        self.narration = W.HTML().add_class("pe-narration")
        self.refusal = W.HTML().add_class("pe-message")
        self.notice = W.HTML().add_class("pe-note")
        self.refusal.layout.display = "none"
        self.notice.layout.display = "none"
        # A refusal floats over the top of the figure instead of pushing it down: the figure
        # never jumps under the mouse when one comes or goes. A note stands as long as its run
        # is shown, so it takes its own line above the figure (it would hide the figure's top);
        # the dashboard fits the figure again when a note comes or goes.
        toasts = W.VBox([self.refusal]).add_class("pe-toasts")
        super().__init__([self.narration, self.notice, toasts], **kwargs)
        self.add_class("pe-messages")

    @property
    def text(self) -> str:
        """The narration shown (plain text)."""
        return html.unescape(_strip(self.narration.value))

    @property
    def refused(self) -> str:
        """The refusal shown, or "" (plain text)."""
        return html.unescape(_strip(self.refusal.value))

    def narrate(self, text: str, *, keep_refusal: bool = False) -> None:
        """Show ``text`` as the narration; a successful action also clears an old refusal
        (``keep_refusal`` for redraws that are no action of the user's, e.g. a resize)."""
        self.narration.value = f"<div role='status' aria-live='polite'>{html.escape(text)}</div>"
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
