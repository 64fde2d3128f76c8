"""The page's language: the top bar's menu, ``lang=`` in the link, the browser's own choice.

A link's ``lang=sv`` opens the page in Swedish; a page whose link names no language follows the
browser's languages (``navigator.languages``, reported by the page bridge) and falls back to
English (:func:`explorer.shared.i18n.pick`). The menu changes the language at once, in the
kernel: every labelled control is set again (:mod:`explorer.app.labels`), nothing is rebuilt,
and the tab's state and step stay. A language chosen in the link or the menu is written into
the link the page shows (:func:`with_lang`), so a copied link opens in the same language;
the tabs' states in links, files and playlists are the same in every language.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as W

from ..shared import i18n
from ..shared.i18n import LANG_KEY, query_lang, tr
from . import labels


def without_lang(query: str) -> str:
    """``query`` without its ``lang=`` parameters (for a tab's spec, which knows no such
    setting)."""
    parts = [p for p in query.lstrip("?").split("&") if p.split("=", 1)[0] != LANG_KEY]
    return "&".join(parts)


def with_lang(query: str, code: str | None) -> str:
    """``query`` with ``lang=code`` after its other parameters (none if ``code`` is None)."""
    query = without_lang(query)
    if code is None:
        return query
    return f"{query}&{LANG_KEY}={code}" if query else f"{LANG_KEY}={code}"


class LanguageMenu:
    """The top bar's language menu, and which language the page shows.

    Parameters
    ----------
    query : str
        The page's link; its ``lang=`` chooses the language (else the browser's, when known).
    changed : callable
        Called with no argument after the language changed (the dashboard writes its link).

    Attributes
    ----------
    problem : str or None
        What to say when the link names a language not offered (the page shows English).
    """

    def __init__(self, *, query: str, changed: Callable[[], object]):
        asked = query_lang(query)
        self._changed = changed
        self._syncing = False
        #: The language the link or the menu chose (None: the browser's, or English).
        self.chosen = asked if i18n.is_offered(asked) else None
        self.problem = None
        if asked is not None and self.chosen is None:
            self.problem = (f"The link asks for the language {asked!r}, which is not offered "
                            f"(offered: {', '.join(i18n.LANGUAGES)}); showing "
                            f"{i18n.LANGUAGES[i18n.DEFAULT]}.")
        i18n.set_language(i18n.pick(self.chosen))
        options = [(name, code) for code, name in i18n.LANGUAGES.items()]
        if i18n.language() == i18n.PSEUDO:
            options.append(("Pseudo", i18n.PSEUDO))
        self.menu = labels.label(
            W.Dropdown(options=options, value=i18n.language(),
                       layout=W.Layout(width="auto", max_width="9.5em")),
            tooltip=i18n.N_("The language of the page"))
        self.menu.add_class("pe-language")
        self.menu.observe(self._picked, names="value")

    def _picked(self, change) -> None:
        if self._syncing:  # the menu follows the browser's language: not a choice
            return
        self.chosen = change["new"]
        self.set(change["new"])

    def browser(self, wanted) -> None:
        """The browser's languages are known: follow them unless a language was chosen."""
        if self.chosen is None:
            self.set(i18n.pick(None, wanted))

    def set(self, code: str) -> None:
        """Show the page in language ``code`` (words set again; nothing else changes)."""
        if code == i18n.language():
            return
        i18n.set_language(code)
        if self.menu.value != code:
            self._syncing = True
            try:
                self.menu.value = code
            finally:
                self._syncing = False
        labels.relabel()
        self._changed()

    def choose(self, code, *, source: str) -> str | None:
        """A saved state or a slide (``source``: "file", "playlist") asks for language ``code``:
        the page shows it, as if chosen in the menu, if it is offered; else the page stays in
        its language and the message to show is returned."""
        if isinstance(code, str) and code in i18n.LANGUAGES or code == i18n.PSEUDO:
            self.chosen = code
            self.set(code)
            return None
        offered = ", ".join(i18n.LANGUAGES)
        current = i18n.LANGUAGES.get(i18n.language(), i18n.language())
        said = (tr("The file asks for the language {lang}, which is not offered (offered: "
                   "{offered}); the page stays in {current}.") if source == "file" else
                tr("The slide asks for the language {lang}, which is not offered (offered: "
                   "{offered}); the page stays in {current}."))
        return said.format(lang=repr(code), offered=offered, current=current)

    def link(self, query: str) -> str:
        """The tab's ``query`` with the language the page was asked for (none: the browser's)."""
        return with_lang(query, self.chosen)
