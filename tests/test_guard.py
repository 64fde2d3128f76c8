"""A failing widget callback gives a short message in the active tab, never a traceback in the
page: the traceback goes to the server's log (explorer.app.guard)."""

from __future__ import annotations

import sys
import types

import ipywidgets as W
import ipywidgets.widgets.widget as widget_module  # noqa: E402
import pytest

from explorer.app import Dashboard, guard  # noqa: E402


class FakeShell:
    """Stands in for the kernel's IPython shell; records what would reach the page."""

    def __init__(self):
        self.sent = []

    def showtraceback(self, *a, **k):  # what ipykernel does: send the traceback to the page
        self.sent.append("traceback")


@pytest.fixture
def shell(monkeypatch):
    sh = FakeShell()
    monkeypatch.setenv("SERVER_SOFTWARE", "voila/0.5.13")  # as Voila sets it for its kernels
    monkeypatch.setattr(sys.modules["explorer.app.dashboard"], "_shell", lambda: sh)
    monkeypatch.setattr(widget_module, "get_ipython", lambda: sh)
    return sh


def _click(button):
    button._handle_msg({"content": {"data": {"method": "custom", "content": {"event": "click"}}},
                        "buffers": []})


def test_a_failing_click_says_so_briefly(shell, capfd):
    d = Dashboard(query="")
    view = d.active
    boom = W.Button(description="boom")
    boom.on_click(lambda _: 1 / 0)
    _click(boom)
    assert shell.sent == []  # nothing went to the page as a traceback
    assert "Something went wrong while handling that (ZeroDivisionError)" in view.messages.refused
    assert "Traceback" not in view.messages.refused
    assert "ZeroDivisionError: division by zero" in capfd.readouterr().err  # the server's log
    view.timeline.act("step")  # the tab still works
    assert view.model.step == 1


def test_a_failing_observer_says_so_briefly(shell):
    d = Dashboard(query="")
    view = d.active
    box = W.IntText(value=0)
    box.observe(lambda ch: [][1], names="value")
    box._handle_msg({"content": {"data": {"method": "update", "state": {"value": 3},
                                          "buffer_paths": []}}, "buffers": []})
    assert shell.sent == [] and "(IndexError)" in view.messages.refused


def test_outside_a_kernel_nothing_is_installed():
    assert guard.install(None, print) is False
    sh = types.SimpleNamespace(showtraceback=None)
    assert guard.install(sh, print) and not guard.install(sh, print)  # once only


def test_in_a_notebook_tracebacks_stay(monkeypatch):
    sh = FakeShell()
    monkeypatch.delenv("SERVER_SOFTWARE", raising=False)
    monkeypatch.setattr(sys.modules["explorer.app.dashboard"], "_shell", lambda: sh)
    Dashboard(query="")
    assert not getattr(sh, "_pe_guarded", False)
