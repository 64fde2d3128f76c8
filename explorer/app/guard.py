"""An error inside a widget callback shows a short message in the page, never a traceback.

ipywidgets catches an exception raised by a callback (a click, a slider's observer) and asks the
kernel's shell to show the traceback, which would send it to the page. :func:`install` replaces
that, for the dashboard's kernel, with: the full traceback to the server's log (the kernel's
stderr, which Voila writes to its own log) and one sentence for the person, through ``report``
(the active tab's message area). The state on screen is whatever the last good action left.
The dashboard installs it only when Voila serves the page: in a notebook a student's own cells
keep their tracebacks.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable

from ..shared.i18n import N_, tr
from .ipython_adapter import route_tracebacks

SHORT = N_("Something went wrong while handling that ({name}); what is on screen is the last good "
         "state. The details went to the server's log.")


def install(shell, report: Callable[[str], None]) -> bool:
    """Route ``shell.showtraceback`` (IPython's) to the log and ``report``; True if installed.

    ``shell`` is ``get_ipython()``: None outside a kernel, where ipywidgets only logs a warning
    and nothing reaches a page.
    """
    if shell is None:
        return False

    def showtraceback(*args, **kwargs):
        etype, value, tb = sys.exc_info()
        if etype is None:
            return
        try:
            sys.__stderr__.write("".join(traceback.format_exception(etype, value, tb)))
            sys.__stderr__.flush()
        except Exception:  # noqa: BLE001 - a broken log must not break the page
            pass
        try:
            report(tr(SHORT).format(name=etype.__name__))
        except Exception:  # noqa: BLE001
            pass

    return route_tracebacks(shell, showtraceback)
