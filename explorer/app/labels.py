"""Widgets' words in the page's language, set again when the language changes.

A control's text is declared once, in English, where the control is made:
``label(W.Button(icon="undo"), description=N_("Undo"), tooltip=N_("Undo the last change"))``
sets the translation now (:func:`explorer.shared.i18n.tr`) and keeps the English keys, so that
:func:`relabel` sets every living control's words again after
:func:`explorer.shared.i18n.set_language`. Anything else that shows words (a tab's titles, an
HTML line) registers a function with :func:`on_language`, called after each change.

One kernel serves one page: the registry is the process's, and holds its widgets weakly (a
closed page's controls go with it).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable

from ..shared.i18n import tr

_LABELLED: list[tuple[weakref.ref, dict]] = []
_HOOKS: list[weakref.ref] = []


def _words(text) -> str:
    if callable(text):
        return text()
    return tr(text) if text else text  # gettext's "" is the catalog's header


def label(widget, **texts):
    """Set ``widget``'s attributes ``texts`` (name -> English text, or a function giving the
    text, for words put together) in the current language, and again at each change of
    language; returns the widget."""
    for name, text in texts.items():
        setattr(widget, name, _words(text))
    _LABELLED.append((weakref.ref(widget), dict(texts)))
    return widget


def on_language(hook: Callable[[], object]) -> Callable[[], object]:
    """Call ``hook()`` after each change of language (it sets its own words again); a bound
    method is held weakly, like the widgets."""
    _HOOKS.append(weakref.WeakMethod(hook) if hasattr(hook, "__self__") else (lambda: hook))
    return hook


def relabel() -> int:
    """Set every living labelled widget's words, then run the hooks; returns how many widgets
    were labelled again."""
    alive = [(ref, texts) for ref, texts in _LABELLED if ref() is not None]
    _LABELLED[:] = alive
    for ref, texts in alive:
        widget = ref()
        for name, text in texts.items():
            setattr(widget, name, _words(text))
    hooks = [h for h in (ref() for ref in _HOOKS) if h is not None]  # held while they run
    _HOOKS[:] = [ref for ref in _HOOKS if ref() is not None]
    for hook in hooks:
        hook()
    return len(alive)
