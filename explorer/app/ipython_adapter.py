"""The one place the dashboard reaches into IPython's shell (issue 31).

ipywidgets catches an exception raised by a widget callback (a click, a registered widget
method) and calls ``get_ipython().showtraceback()``, which ipykernel sends to the page.
IPython's public hook for exceptions, ``InteractiveShell.set_custom_exc``, only applies to code
run as a cell (``run_code``), never to that call, so the dashboard replaces the shell's
``showtraceback`` on the instance instead (:func:`route_tracebacks`). :data:`CHECKED` is the
range of versions this was checked on (``tests/test_adapters.py`` fails when the installed
version leaves it: re-check that ipywidgets still calls ``showtraceback`` and IPython still
looks it up on the instance).
"""

from __future__ import annotations

from collections.abc import Callable

#: IPython and ipywidgets versions :func:`route_tracebacks` was checked on (lowest included,
#: highest not).
CHECKED = {"ipython": (">=8.12", "<10"), "ipywidgets": (">=8.1", "<9")}

#: Set on a shell whose ``showtraceback`` was replaced, so it is replaced once only.
MARK = "_pe_guarded"


def route_tracebacks(shell, showtraceback: Callable[..., None]) -> bool:
    """Make ``shell.showtraceback`` (IPython's shell, ``get_ipython()``) call
    ``showtraceback(*args, **kwargs)`` instead, once per shell; True if it was replaced now.

    Assigns the instance's ``showtraceback`` (ipywidgets' callback dispatcher calls it for an
    exception in a callback; no public hook of IPython's reaches that call) and marks the shell
    with :data:`MARK`.
    """
    if getattr(shell, MARK, False):
        return False
    shell.showtraceback = showtraceback
    setattr(shell, MARK, True)
    return True
