"""End-to-end: the dashboard's keys after a click (issue 30, item 2).

A lecturer mixes mouse and keys: after a click on a transport button, the step slider, a
toggle, a check box, a drop-down, a settings slider or a tab, every documented key (→ ← space
Home End r [ ] e l n p b . PageUp PageDown) still does its action, exactly once: the focused
control does not also act on it (a button's click on space, a slider's move on an arrow). Only
a text box keeps the keys (typing types), and a control reached with Tab keeps the keys it works
itself (a keyboard user's space on a button, arrows on a slider).

The run is the Perceptron tab's on its separable data set (120 steps: Play does not reach the
end during a test); the expected steps come from the transport's own rule
(:func:`explorer.app.timeline.jump`) on the run the tab's model trains.
"""

from __future__ import annotations

import pytest
from _voila import button, wait_for_canvas, wait_for_text, wait_until_quiet

pytestmark = pytest.mark.browser

STATUS = "pe-where"
PLAY = ".pe-pagefigure button.pe-play"
SLIDER = ".pe-pagefigure input.pe-pf-slider-input"
STEP = "Step ▶"
DATASET, N = "separable", 120

# The figure's transport as the page holds it: the step asked for and whether Play is on.
_STATE_JS = """() => {
  const f = [...document.querySelectorAll('.pe-pagefigure')].find(e => e.offsetParent !== null);
  const play = f.querySelector('button.pe-play');
  return {step: Number(f.querySelector('input.pe-pf-slider-input').value),
          playing: play.getAttribute('aria-label') === 'Pause'};
}"""

# Every native activation from now on: clicks, a control's input and change events.
_WATCH_JS = """() => {
  window.peNative = [];
  if (window.peNativeWatch) return;
  window.peNativeWatch = true;
  for (const type of ['click', 'input', 'change']) {
    document.addEventListener(type, (e) => {
      const t = e.target;
      window.peNative.push(type + ' ' + t.tagName + '.' + String(t.className).split(' ')[0]);
    }, true);
  }
}"""


def jumps():
    """The transport's target of each action from step k on the run: ``to(action, k)``."""
    from explorer.app.perceptron.model import PerceptronModel
    from explorer.app.timeline import jump

    m = PerceptronModel()
    assert m.update(dataset=DATASET)
    updates, epoch, n = m.trajectory.update_steps, m.epoch_steps, m.n_steps
    assert n == N and len(updates) > 3 and 0 < epoch < n

    def to(action: str, k: int) -> int:
        return jump(action, k=k, n=n, updates=updates, epoch=epoch, cycle_start=None)

    return to


def state(page) -> dict:
    return page.evaluate(_STATE_JS)


def watch_native(page) -> None:
    page.evaluate(_WATCH_JS)


def native(page) -> list:
    return page.evaluate("() => window.peNative")


def settled(page, quiet_ms: int = 1000, timeout_ms: int = 20_000) -> None:
    """Wait until the figure has had no new scene (a new run, a new size) for ``quiet_ms``."""
    js = """() => { const f = [...document.querySelectorAll('.pe-pagefigure')]
      .find(e => e.offsetParent !== null); const b = f.getBoundingClientRect();
      return [f.peRun, Math.round(b.width), Math.round(b.height)].join(' '); }"""
    wait_until_quiet(page, js, quiet_ms=quiet_ms, timeout_ms=timeout_ms, what="the figure")


def open_dashboard(page, url) -> None:
    page.goto(f"{url}?tab=perceptron&dataset={DATASET}")
    wait_for_canvas(page, timeout=90)
    wait_for_text(page, STATUS, lambda t: t.startswith(f"step 0 of {N} "), timeout=30)
    page.wait_for_timeout(2000)  # the page fits its figure 0.5 s and 2 s after opening
    settled(page)


def wait_state(page, timeout_ms: int = 10_000, **want) -> dict:
    """Wait until the transport shows ``want`` (step=, playing=); return the state."""
    waited, s = 0, state(page)
    while any(s[k] != v for k, v in want.items()):
        assert waited < timeout_ms, f"transport is {s}, expected {want}"
        page.wait_for_timeout(50)
        waited += 50
        s = state(page)
    return s


def press_and_check(page, key: str, **want) -> None:
    """Press ``key``; the transport must reach ``want``, and no control may have acted
    natively on the key as well (one action per press)."""
    watch_native(page)
    page.keyboard.press(key)
    wait_state(page, **want)
    page.wait_for_timeout(150)  # a double action would land by now
    # one reading: while playing, the step moves between two
    now = state(page)
    assert {k: now[k] for k in want} == want, (key, now, want)
    assert native(page) == [], (key, native(page))


def test_space_after_clicking_play_pauses_and_plays_again(page, dashboard_url):
    open_dashboard(page, dashboard_url)
    page.locator(PLAY).click()
    wait_state(page, playing=True)
    press_and_check(page, "Space", playing=False)
    k = state(page)["step"]
    page.wait_for_timeout(800)  # 4 steps a second would move it
    assert state(page) == {"step": k, "playing": False}
    assert page.locator(PLAY).evaluate("(b) => b === document.activeElement")  # still focused
    press_and_check(page, "Space", playing=True)
    wait_state(page, step=k + 1)
    press_and_check(page, "Space", playing=False)


def test_every_transport_key_after_clicking_the_step_button(page, dashboard_url):
    to = jumps()
    open_dashboard(page, dashboard_url)
    button(page, STEP).click()
    wait_state(page, step=1)
    assert button(page, STEP).evaluate("(b) => b === document.activeElement")
    press_and_check(page, "Space", playing=True)
    press_and_check(page, "Space", playing=False)
    k = state(page)["step"]
    for key, action in (("r", "reset"), ("]", "next_update"), ("]", "next_update"),
                        ("[", "prev_update"), ("e", "epoch_end"), ("ArrowRight", "step"),
                        ("PageDown", "step"), ("ArrowLeft", "back"), ("PageUp", "back"),
                        ("End", "end"), ("Home", "reset"), ("R", "reset"), ("E", "epoch_end")):
        k = to(action, k)
        press_and_check(page, key, step=k)


def test_brackets_e_and_arrows_with_the_step_slider_focused(page, dashboard_url):
    to = jumps()
    open_dashboard(page, dashboard_url)
    click_slider_start(page)
    k = 0
    for key, action in (("]", "next_update"), ("]", "next_update"), ("e", "epoch_end"),
                        ("[", "prev_update"), ("ArrowRight", "step"), ("ArrowRight", "step"),
                        ("PageDown", "step"), ("ArrowLeft", "back"), ("PageUp", "back"),
                        ("End", "end"), ("Home", "reset")):
        k = to(action, k)
        press_and_check(page, key, step=k)
    press_and_check(page, "Space", playing=True)
    press_and_check(page, "Space", playing=False)


# Controls of the dashboard (the Perceptron tab): CSS, and how a lecturer gives it the focus.
CONTROLS = {
    "settings toggle": (".pe-settings-toggle", "click"),
    "check box": (".widget-checkbox input[type=checkbox]", "click"),
    "settings slider": (".pe-view .widget-slider [role=slider]", "click"),
    "drop-down": (".widget-dropdown:has(label:text-is('Data')) select", "focus"),
    "toggle buttons": (".widget-toggle-buttons button:has-text('View')", "click"),
    "tab": (".pe-root [role='tab'][aria-selected='true']", "focus"),  # a click leaves it
    "speed slider": (".pe-pagefigure input.pe-pf-speed-input", "click"),
}

# What a control shows of itself: it must not change on a key meant for the dashboard.
_CONTROL_JS = """(e) => [e.checked, e.value, e.getAttribute('aria-valuenow'),
  e.getAttribute('aria-pressed'), e.getAttribute('aria-selected'), e.className,
  e === document.activeElement]"""


@pytest.mark.parametrize("name", list(CONTROLS))
def test_keys_step_and_play_whatever_control_has_the_focus(page, dashboard_url, name):
    css, how = CONTROLS[name]
    open_dashboard(page, dashboard_url)
    control = page.locator(css).first
    if how == "click":
        control.click()
    else:
        control.focus()
    settled(page)  # a click that changed a setting or the layout: its new run has come
    before = control.evaluate(_CONTROL_JS)
    assert before[-1], f"the {name} does not have the focus"
    k = state(page)["step"]
    n = int(page.locator(f".{STATUS}").inner_text().split()[3])  # "step k of n · …"
    press_and_check(page, "ArrowRight", step=k + 1)
    press_and_check(page, "End", step=n)
    press_and_check(page, "ArrowLeft", step=n - 1)
    press_and_check(page, "Home", step=0)
    press_and_check(page, "Space", playing=True)
    press_and_check(page, "Space", playing=False)
    assert control.evaluate(_CONTROL_JS) == before


def test_a_control_reached_with_tab_keeps_its_own_keys(page, dashboard_url):
    """Keyboard users keep the controls: Tab to Play, space presses it (once); Tab to the speed
    slider, the arrows move it, not the run."""
    open_dashboard(page, dashboard_url)
    button(page, STEP).click()
    wait_state(page, step=1)
    page.keyboard.press("Tab")
    assert page.locator(PLAY).evaluate("(b) => b === document.activeElement")
    page.keyboard.press("Space")  # the button's own click: Play, once
    wait_state(page, playing=True)
    page.wait_for_timeout(300)
    assert state(page)["playing"]
    page.keyboard.press("Space")
    wait_state(page, playing=False)
    k = state(page)["step"]
    page.keyboard.press("Tab")
    speed = page.locator(".pe-pagefigure input.pe-pf-speed-input")
    assert speed.evaluate("(s) => s === document.activeElement")
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(300)
    assert speed.input_value() == "5" and state(page) == {"step": k, "playing": False}
    # a letter is never the control's: "]" still jumps
    press_and_check(page, "]", step=jumps()("next_update", k))


def click_slider_start(page) -> None:
    """A real click on the step slider's left end (step 0): the slider has the focus."""
    box = page.locator(SLIDER).bounding_box()
    page.mouse.click(box["x"] + 3, box["y"] + box["height"] / 2)
    wait_state(page, step=0)
    assert page.locator(SLIDER).evaluate("(s) => s === document.activeElement")


def test_lecture_mode_and_blackout_keys_with_the_step_slider_focused(page, dashboard_url):
    open_dashboard(page, dashboard_url)
    click_slider_start(page)
    root = page.locator(".pe-root")
    page.keyboard.press("l")
    page.wait_for_function("() => document.querySelector('.pe-root.pe-lecture')")
    page.wait_for_timeout(1000)
    assert "pe-lecture" in root.get_attribute("class")  # toggled once, not on and off
    settled(page)
    page.locator(PLAY).click()  # a click in lecture mode, then the keys
    wait_state(page, playing=True)
    press_and_check(page, "Space", playing=False)
    click_slider_start(page)
    page.keyboard.press("b")
    page.locator(".pe-blackout").wait_for()
    page.keyboard.press(".")
    page.locator(".pe-blackout").wait_for(state="detached")
    assert page.locator(SLIDER).input_value() == "0"  # blacked out and back: no step moved
    page.keyboard.press("L")
    page.wait_for_function("() => !document.querySelector('.pe-root.pe-lecture')")
