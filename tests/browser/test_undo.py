"""End-to-end: undo and redo in the page (issue 33, item 4). A setting typed, then Ctrl+Z after
a click on a button (the focus on a control, as a lecturer leaves it) gives back the link before
it; Ctrl+Shift+Z and Ctrl+Y redo; the Undo and Redo buttons do the same and are greyed out when
there is nothing to do; Ctrl+Z in a text box is the text box's own (nothing is undone). Every
edit kind in the kernel: tests/test_history.py."""

from __future__ import annotations

import re

import pytest
from _voila import button, wait_for_canvas, wait_for_text
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SHARE = ".pe-share input"
STATUS = "pe-where"
ETA = ".widget-text:has(label:text-is('η')) input"


def link(page, pattern: str, *, absent: bool = False, timeout_ms: int = 30_000) -> str:
    """Wait until the link matches ``pattern`` (or, with ``absent``, does not); return it."""
    share = page.locator(SHARE)
    waited = 0
    while True:
        value = share.input_value()
        if bool(re.search(pattern, value)) != absent:
            return value
        assert waited < timeout_ms, f"the link is {value!r}; expected {'no ' * absent}{pattern}"
        page.wait_for_timeout(100)
        waited += 100


def query(link: str) -> str:
    return link.split("?", 1)[-1]


def greyed(page, css: str, disabled: bool = True) -> None:
    """Wait until the button ``css`` is greyed out (or, with ``disabled=False``, usable): it is
    an update of its own, after the link's."""
    button = page.locator(css).first
    if disabled:
        expect(button).to_be_disabled()
    else:
        expect(button).to_be_enabled()


def test_ctrl_z_undoes_a_setting_and_ctrl_shift_z_redoes_it(page, dashboard_url):
    page.goto(dashboard_url + "?tab=perceptron&dataset=separable")
    wait_for_canvas(page, timeout=90)
    wait_for_text(page, STATUS, lambda t: t.startswith("step 0 of"), timeout=30)
    start = link(page, r"dataset=separable")
    greyed(page, ".pe-undo")
    greyed(page, ".pe-redo")

    eta = page.locator(ETA)
    eta0 = eta.input_value()
    assert eta0 != "0.5"
    eta.fill("0.5")
    eta.press("Enter")
    link(page, r"eta=0\.5(&|$)")

    button(page, "Step ▶").click()  # the focus on a button, as after a click
    link(page, r"step=1(&|$)")
    greyed(page, ".pe-undo", False)
    page.keyboard.press("Control+z")
    undone = link(page, r"eta=", absent=True)
    assert query(undone) == query(start)  # the state before the edit: settings and step
    expect(page.locator(ETA)).to_have_value(eta0)
    greyed(page, ".pe-undo")
    greyed(page, ".pe-redo", False)

    page.keyboard.press("Control+Shift+z")
    assert re.search(r"eta=0\.5(&|$)", link(page, r"eta=0\.5"))
    page.locator(".pe-undo").first.click()  # the buttons do the same
    link(page, r"eta=", absent=True)
    page.locator(".pe-redo").first.click()
    link(page, r"eta=0\.5")
    page.keyboard.press("Control+z")
    link(page, r"eta=", absent=True)
    page.keyboard.press("Control+y")
    link(page, r"eta=0\.5")
    greyed(page, ".pe-redo")
    edited = link(page, r"eta=0\.5")
    eta.click()
    eta.press("Control+z")  # in the text box: its own undo, not the dashboard's
    page.wait_for_timeout(1500)
    assert page.locator(SHARE).input_value() == edited
    assert "Traceback" not in page.content()
