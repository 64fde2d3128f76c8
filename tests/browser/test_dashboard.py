"""End-to-end tests of the real dashboard (notebooks/dashboard.ipynb served by Voila) in Chromium.

Each test opens the dashboard in a fresh browser context (the ``page`` fixture), so each gets its
own kernel and starts from Koski's worked example at step 0; one Voila server serves them all.
The default dataset is Koski's 6-point example: 12 steps, point 5 = (2, −2) visited first.
"""

from __future__ import annotations

import re

import pytest
from _voila import (
    button,
    canvas_locator,
    canvas_signature,
    click_button,
    press_keys,
    wait_for_canvas,
    wait_for_canvas_change,
    wait_for_step,
    wait_for_text,
    wait_until_quiet,
    widget_text,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

STEP, BACK, RESET = "Step ▶", "◀ Back", "Reset"
STATUS = "pe-where"  # "step k of N · u updates · n points", beside the timeline
# The page-drawn figure's Play button (explorer/app/pagefigure.py): its label toggles.
PLAY = ".pe-pagefigure button.pe-play[aria-label='Play']"
PAUSE = ".pe-pagefigure button.pe-play[aria-label='Pause']"
STEP_1 = "Step 1, point 5 (2, −2), label −1: y·f(x) = −1 ≤ 0, so w ← w + η·y·x = (0.6, 0.9)"


def settled_signature(page, quiet_ms: int = 400, timeout_ms: int = 10_000) -> str:
    """The canvas signature once it has not changed for ``quiet_ms`` (no image in flight)."""
    last, since, waited = canvas_signature(page), 0, 0
    while since < quiet_ms:
        page.wait_for_timeout(50)
        waited += 50
        sig = canvas_signature(page)
        since = since + 50 if sig == last else 0
        last = sig
        assert waited < timeout_ms, "the canvas kept changing"
    return last


def status_step(page) -> int:
    """k from the status line "step k of N · u updates · n points"."""
    text = widget_text(page, STATUS)
    assert text.startswith("step "), text
    return int(text.split()[1])


def open_dashboard(page, url) -> str:
    """Open the dashboard; wait for the figure and step 0; return the step-0 canvas signature."""
    page.goto(url)
    wait_for_canvas(page, timeout=90)
    wait_for_text(page, STATUS, lambda t: t.startswith("step 0 of 12 · 0 updates · 6 points"),
                  timeout=30)
    expect(button(page, STEP)).to_be_enabled(timeout=30_000)
    wait_for_fitted(page)  # the page measures its layout 0.5 s and 2 s after opening
    # a new size is a new scene: its step is drawn (narration and all) once its chunk is in
    wait_for_step(page, 0)
    return settled_signature(page)


def wait_for_fitted(page, quiet_ms: int = 2500, timeout_ms: int = 15_000) -> dict:
    """The canvas's box once the dashboard has fitted it to the window (no size change for
    ``quiet_ms``: the page measures its layout again 0.5 s and 2 s after opening)."""
    last, since, waited = canvas_locator(page).bounding_box(), 0, 0
    while since < quiet_ms:
        page.wait_for_timeout(100)
        waited += 100
        box = canvas_locator(page).bounding_box()
        same = (round(box["width"]), round(box["height"])) == (round(last["width"]),
                                                               round(last["height"]))
        since = since + 100 if same else 0
        last = box
        assert waited < timeout_ms, "the figure kept changing size"
    settled_signature(page)
    return last


def koski_point_5_on_canvas(page, *, hand: bool = False) -> tuple[float, float]:
    """Pixel position (from the canvas's top left) of Koski's point 5 = (2, −2) in the data plane.

    The layout is the app's own: the same PerceptronFigure, fitted to the canvas's size on
    screen (the dashboard sizes it to the window) and drawn off-screen with Agg, gives the data
    plane's transform.
    """
    from matplotlib.figure import Figure

    from explorer.app.layout import type_scale
    from explorer.app.perceptron.model import PerceptronModel
    from explorer.plots import PerceptronFigure

    box = wait_for_fitted(page)
    width, height = round(box["width"]), round(box["height"])
    m = PerceptronModel()
    pf = PerceptronFigure(Figure())
    pf.hand = hand  # "you choose" adds a legend entry, which moves the plane
    pf.fit(width, height, scale=type_scale(width, height))
    pf.set_run(m.trajectory, m.X, m.y, m.info)
    pf.show(0)
    pf.fig.draw_without_rendering()  # fixes the equal-aspect data plane's final position
    assert tuple(m.X[4]) == (2.0, -2.0)
    px, py = pf.plane.ax.transData.transform(m.X[4])
    w, h = pf.fig.bbox.width, pf.fig.bbox.height
    return px * box["width"] / w, (h - py) * box["height"] / h


def mouse_on_canvas(page, x: float, y: float, *, click: bool = False) -> None:
    """Move the real mouse to (x, y) from the figure canvas's top left (and click there), in
    page coordinates, as a user's mouse does."""
    box = canvas_locator(page).bounding_box()
    page.mouse.move(box["x"] + x, box["y"] + y)
    if click:
        page.mouse.down()
        page.mouse.up()


def test_step_and_back(page, dashboard_url):
    s0 = open_dashboard(page, dashboard_url)
    assert widget_text(page, "pe-pf-narration").startswith("Start:")

    click_button(page, STEP)
    s1 = wait_for_canvas_change(page, s0)
    text = wait_for_text(page, "pe-pf-narration", lambda t: t.startswith("Step 1, point 5"))
    assert text.startswith(STEP_1), text
    wait_for_text(page, STATUS, lambda t: t.startswith("step 1 of 12 · 1 update ·"))
    s1 = settled_signature(page)
    assert s1 != s0

    # Back: blitting restores the cached background and redraws the same artists in the same
    # state, so step 0 must come back pixel for pixel.
    click_button(page, BACK)
    wait_for_canvas_change(page, s1)
    wait_for_text(page, "pe-pf-narration", lambda t: t.startswith("Start:"))
    assert settled_signature(page) == s0

    # Forward again gives the same step-1 image.
    click_button(page, STEP)
    wait_for_canvas_change(page, s0)
    assert settled_signature(page) == s1
    errors = [m for m in page.console_messages_seen if m.startswith("pageerror")]
    assert not errors, errors


def test_play_then_pause(page, dashboard_url):
    s0 = open_dashboard(page, dashboard_url)
    page.locator(PLAY).click()
    page.locator(PAUSE).wait_for()  # the icon turned into "pause"
    wait_for_canvas_change(page, s0)
    wait_for_text(page, STATUS, lambda t: t.startswith("step 2 of 12"), timeout=10)
    page.locator(PAUSE).click()
    page.locator(PLAY).wait_for()

    # Let the in-flight step land (drawn, narrated), then nothing may move for a while (4
    # steps/s would give 4).
    k = status_step(page)
    wait_for_step(page, k)
    assert 2 <= k < 12, k
    sig = settled_signature(page)
    page.wait_for_timeout(1000)
    assert status_step(page) == k
    assert canvas_signature(page) == sig
    assert widget_text(page, "pe-pf-narration").startswith(f"Step {k},")


def test_play_goes_on_when_the_window_changes_size(page, dashboard_url):
    """The same run drawn again while playing (the window resized, lecture mode toggled, or
    the run's bound arriving in the first seconds after opening) is a new scene of the same
    run: Play goes on over it (it stopped there before) and ends at the run's last step."""
    open_dashboard(page, dashboard_url)
    size = page.viewport_size
    page.locator(PLAY).click()
    page.locator(PAUSE).wait_for()
    wait_for_text(page, STATUS, lambda t: t.startswith("step 1 of 12"), timeout=10)
    page.set_viewport_size({"width": size["width"] - 160, "height": size["height"] - 60})
    # 12 steps at 4 steps/s: about 3 s; generous for a loaded machine
    wait_for_text(page, STATUS, lambda t: t.startswith("step 12 of 12"), timeout=20)
    page.locator(PLAY).wait_for()  # Play ended by itself at the last step


def test_keys(page, dashboard_url):
    s0 = open_dashboard(page, dashboard_url)
    # Keys work anywhere on the page (a presenter's remote sends PageDown/PageUp) ...
    press_keys(page, "ArrowRight", "PageDown")
    wait_for_text(page, "pe-pf-narration", lambda t: t.startswith("Step 2,"))
    wait_for_text(page, STATUS, lambda t: t.startswith("step 2 of 12"))
    s2 = settled_signature(page)
    assert s2 != s0

    press_keys(page, "ArrowLeft")
    wait_for_text(page, "pe-pf-narration", lambda t: t.startswith("Step 1,"))

    # ... except in a text field: typing "r" into start w must not reset the run (bug 5).
    field = page.locator(".widget-text:has(label:text-is('start w')) input")
    field.click()
    field.press("End")
    field.type("r ")
    page.wait_for_timeout(500)
    assert widget_text(page, STATUS).startswith("step 1 of 12")
    field.fill("1, 0.5")
    page.locator(".pe-brand").click()  # leave the field

    press_keys(page, "r")
    wait_for_text(page, "pe-pf-narration", lambda t: t.startswith("Start:"))
    wait_for_text(page, STATUS, lambda t: t.startswith("step 0 of 12"))
    assert settled_signature(page) == s0


def test_you_choose_point_5(page, dashboard_url):
    s0 = open_dashboard(page, dashboard_url)
    click_button(page, "You choose")
    wait_for_text(page, "pe-note", lambda t: t.startswith("You choose"))
    s_choose = settled_signature(page)

    x, y = koski_point_5_on_canvas(page, hand=True)
    mouse_on_canvas(page, x, y, click=True)
    text = wait_for_text(page, "pe-pf-narration", lambda t: "point 5" in t)
    assert text.startswith(STEP_1), text
    assert "no point there" not in page.inner_text(".pe-messages")
    wait_for_text(page, STATUS, lambda t: t.startswith("step 1 of 1 · 1 update ·"))
    assert settled_signature(page) not in (s0, s_choose)


def test_bad_eta_is_refused(page, dashboard_url):
    open_dashboard(page, dashboard_url)
    eta = page.locator(".widget-text:has(label:text-is('η')) input")
    assert float(eta.input_value()) == 0.2
    eta.fill("-1")
    eta.press("Enter")
    msg = wait_for_text(page, "pe-message", lambda t: "Not applied" in t)
    assert "η must be a number > 0; got -1" in msg and "eta" not in msg, msg
    deadline_ms = 5000
    while eta.input_value() != "0.2" and deadline_ms > 0:
        page.wait_for_timeout(50)
        deadline_ms -= 50
    assert eta.input_value() == "0.2"
    # The run is untouched: still Koski's 12 steps, and Step still works.
    assert widget_text(page, STATUS).startswith("step 0 of 12")
    click_button(page, STEP)
    wait_for_text(page, "pe-pf-narration", lambda t: t.startswith(STEP_1))


def test_link_opens_at_its_step(page, dashboard_url):
    query = "?tab=perceptron&dataset=xor&max_epochs=3&step=5"
    page.goto(dashboard_url + query)
    wait_for_canvas(page, timeout=90)
    wait_for_text(page, STATUS, lambda t: t.startswith("step 5 of 12"), timeout=30)
    # The status names the wanted step while its chunk is still on the way; the narration is
    # written with the step's pixels, so wait for it rather than read it once.
    wait_for_text(page, "pe-pf-narration", lambda t: t.startswith("Step 5,"), timeout=30)
    # the kernel writes the link a moment after the state settles: wait for it
    expect(page.locator(".pe-share input")).to_have_value(
        re.compile(r"^(?=.*dataset=xor)(?=.*step=5(&|$))"), timeout=30_000)
    click_button(page, STEP)
    wait_for_text(page, STATUS, lambda t: t.startswith("step 6 of 12"))
    page.wait_for_function("() => window.location.search.includes('step=6')")


def test_bad_link_gives_a_message_and_keeps_its_good_settings(page, dashboard_url):
    """Issue 30, item 13: one bad value opened Koski's example with the classic rule."""
    page.goto(dashboard_url + "?tab=perceptron&dataset=separable&seed=5&rule=margin&n=abc"
              "&colour=red")
    wait_for_canvas(page, timeout=90)
    msg = wait_for_text(page, "pe-message", lambda t: "rest of the link" in t, timeout=30)
    assert msg == ("In the link, n must be a whole number from 1 to 2000; got 'abc'; kept the "
                   "default (40). In the link, 'colour' is not a setting of this tab; it was left "
                   "out. The rest of the link was used.")
    assert "Traceback" not in page.content()
    # the kernel writes the link a moment after the state settles: wait for it
    share = page.locator(".pe-share input")
    expect(share).to_have_value(
        re.compile(r"^(?=.*dataset=separable)(?=.*seed=5(&|$))(?=.*rule=margin(&|$))"),
        timeout=30_000)
    assert "n=" not in share.input_value().replace("dataset=", "")


def test_lecture_mode_enlarges_the_figure(page, dashboard_url):
    open_dashboard(page, dashboard_url)
    before = canvas_locator(page).bounding_box()
    assert page.locator(".pe-sidebar").is_visible()
    page.locator(".pe-lecture-toggle").click()
    page.wait_for_function(
        "(w) => document.querySelector('canvas.pe-canvas')"
        ".getBoundingClientRect().width > w + 100", arg=before["width"])
    assert not page.locator(".pe-sidebar").is_visible()
    size = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector("
                         "'.pe-pf-narration')).fontSize)")
    assert size >= 19, size


def test_tab_names_whole_in_lecture_mode_at_1920(page, dashboard_url):
    """The tabs were 144 px wide whatever the type: lecture type at 1920 px cut the last
    tab's name to 'Generalizat'."""
    page.set_viewport_size({"width": 1920, "height": 1080})
    open_dashboard(page, dashboard_url)
    page.locator(".pe-lecture-toggle").click()
    page.wait_for_function("() => document.querySelector('.pe-root.pe-lecture')")
    # the tabs' type grows with the lecture class, then the page fits the figure: wait until
    # the tab labels' sizes are still
    wait_until_quiet(page, """() => [...document.querySelectorAll('.lm-TabBar-tabLabel')]
        .map(l => [l.scrollWidth, l.clientWidth].join()).join()""", quiet_ms=500,
                     what="the tab labels")
    cut = page.evaluate("""() => [...document.querySelectorAll('.lm-TabBar-tabLabel')]
        .filter(l => l.offsetParent && l.scrollWidth > l.clientWidth + 1)
        .map(l => [l.textContent, l.scrollWidth, l.clientWidth])""")
    assert cut == [], cut


def test_step_button_and_figure_in_view_at_1366x768(page, dashboard_url):
    page.set_viewport_size({"width": 1366, "height": 768})
    open_dashboard(page, dashboard_url)
    wait_until_quiet(page, """() => JSON.stringify([...document.querySelectorAll(
        '.pe-pagefigure button, canvas.pe-canvas')].map(e => e.getBoundingClientRect()))""",
                     quiet_ms=500, what="the figure and its buttons")
    step = button(page, STEP).bounding_box()
    fig = canvas_locator(page).bounding_box()
    assert step["y"] >= 0 and step["y"] + step["height"] <= 768, step
    assert fig["y"] >= 0 and fig["y"] + fig["height"] <= 768, fig
    assert fig["x"] + fig["width"] <= 1366, fig


def test_keys_step_after_a_mouse_choice_and_after_clicking_the_figure(page, dashboard_url):
    """A drop-down chosen with the mouse and the figure both keep the focus; the arrow keys
    must still step the run (a presenter's remote), not change the data set."""
    open_dashboard(page, dashboard_url)
    page.locator(".widget-dropdown:has(label:text-is('Data')) select").select_option(label="XOR (±1 inputs)")
    wait_for_text(page, STATUS, lambda t: "· 4 points" in t, timeout=30)
    page.locator(".widget-dropdown:has(label:text-is('Data')) select").evaluate(
        "(s) => s.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}))")
    page.locator(".widget-dropdown:has(label:text-is('Data')) select").select_option(label="AND (±1 inputs)")
    wait_for_text(page, STATUS, lambda t: t.startswith("step 0 of 8 "), timeout=30)  # AND's run
    press_keys(page, "ArrowRight", "PageDown")
    wait_for_text(page, STATUS, lambda t: t.startswith("step 2 of"))
    data = page.locator(".widget-dropdown:has(label:text-is('Data')) select")
    assert data.input_value() == "AND (±1 inputs)"

    box = canvas_locator(page).bounding_box()
    mouse_on_canvas(page, box["width"] * 0.8, box["height"] * 0.2, click=True)
    press_keys(page, "ArrowRight")
    wait_for_text(page, STATUS, lambda t: t.startswith("step 3 of"))


def test_controls_have_accessible_names(page, dashboard_url):
    open_dashboard(page, dashboard_url)
    page.wait_for_function("() => document.querySelector('.pe-root [role=slider]')"
                           ".getAttribute('aria-label')")
    unnamed = page.evaluate("""() => Array.from(document.querySelectorAll('.pe-root button'))
        .filter(b => b.offsetParent !== null)
        .filter(b => !(b.getAttribute('aria-label') || b.textContent.trim() || b.title))
        .map(b => b.outerHTML.slice(0, 120))""")
    assert unnamed == [], unnamed
    sliders = page.evaluate("""() => Array.from(document.querySelectorAll('.pe-root [role=slider]'))
        .filter(s => s.offsetParent !== null).map(s => s.getAttribute('aria-label'))""")
    assert sliders and all(sliders), sliders
    pressed = page.locator(".pe-lecture-toggle").get_attribute("aria-pressed")
    assert pressed == "false"


def test_choosing_custom_sequence_in_the_order_menu(page, dashboard_url):
    """Issue 19, item 2: choosing "custom sequence" in the real menu was refused and the menu
    went back. Now it starts from one cyclic pass 1..n, the sequence box becomes editable,
    the rule's update and source stand under the Rule menu, and the batch size box works."""
    page.set_viewport_size({"width": 1366, "height": 768})
    open_dashboard(page, dashboard_url)
    data = page.locator(".widget-dropdown:has(label:text-is('Data')) select")
    data.select_option(label="AND (±1 inputs)")
    wait_for_text(page, STATUS, lambda t: t.startswith("step 0 of 8 "), timeout=30)
    order = page.locator(".widget-dropdown:has(label:text-is('Order')) select")
    sequence = page.locator(".widget-text:has(label:text-is('sequence')) input")
    # the menus follow the data set's defaults in a message of their own: wait for them
    page.wait_for_function("(o) => o.value === 'cyclic passes'",
                           arg=order.element_handle(), timeout=10_000)
    # and the sequence box's state in another message
    page.wait_for_function("(e) => e.disabled", arg=sequence.element_handle(), timeout=10_000)
    assert sequence.is_disabled()
    order.select_option(label="custom sequence")
    # the box's state, its value and the menu may come in separate messages: wait for each
    expect(sequence).to_be_enabled(timeout=30_000)
    expect(sequence).to_have_value("1, 2, 3, 4", timeout=30_000)
    expect(order).to_have_value("custom sequence", timeout=30_000)
    assert not page.locator(".pe-message").is_visible()
    wait_for_text(page, "pe-equation",
                  lambda t: "w ← w + η·y·x" in t and "Sayed, eq. (60.25)" in t)
    batch = page.locator(".widget-text:has(label:text-is('batch size')) input")
    batch.fill("2")
    batch.press("Enter")
    wait_for_text(page, "pe-equation", lambda t: "Mini-batch of B = 2" in t)
    click_button(page, STEP)
    text = wait_for_text(page, "pe-pf-narration", lambda t: t.startswith("Step 1, batch of points 1, 2"))
    assert "a sum, not an average" in text, text
    for box in (order, sequence, batch):  # the settings column holds the new controls
        b = box.bounding_box()
        side = page.locator(".pe-sidebar").bounding_box()
        assert side["x"] <= b["x"] and b["x"] + b["width"] <= side["x"] + side["width"], b


def test_rules_race_in_sync_on_the_page(page, dashboard_url):
    """Issue 22: ticking "Margin perceptron" under "Race against" puts a plane per rule on the
    page and one timeline (the longest run's); stepping in the page narrates both rules at the
    same point, and the race is in the share link."""
    page.set_viewport_size({"width": 1366, "height": 768})
    s0 = open_dashboard(page, dashboard_url)
    page.get_by_role("checkbox", name="Margin perceptron").check()
    wait_for_text(page, STATUS, lambda t: t.startswith(
        "step 0 of 48 · updates (mistakes): classic 0 (0) · margin 0 (0) · 6 points"), timeout=30)
    wait_for_canvas_change(page, s0)
    wait_for_text(page, "pe-pf-narration", lambda t: t.startswith(
        "Start: Classic perceptron and Margin perceptron begin at w = (1, 0.5)"), timeout=30)
    expect(page.get_by_role("checkbox", name="Classic perceptron")).to_be_disabled(timeout=30_000)
    click_button(page, STEP)
    text = wait_for_text(page, "pe-pf-narration", lambda t: t.startswith("Step 1, point 5"))
    assert "Classic perceptron: y·f(x) = −1 ≤ 0, a mistake: updates (update 1, mistake 1)." \
        in text, text
    assert "Margin perceptron: y·f(x) = −1 < 1, a mistake: updates (update 1, mistake 1)." \
        in text, text
    press_keys(page, "End")
    text = wait_for_text(page, "pe-pf-narration", lambda t: t.startswith("Step 48,"))
    assert "Classic perceptron stopped at step 12 with 3 updates and 3 mistakes." in text, text
    wait_for_text(page, STATUS, lambda t: t.startswith(
        "step 48 of 48 · updates (mistakes): classic 3 (3) · margin 13 (5)"))
    page.wait_for_function("() => window.location.search.includes('race=margin')")
    errors = [m for m in page.console_messages_seen if m.startswith("pageerror")]
    assert not errors, errors


def test_a_tab_opened_later_is_drawn_once_at_the_size_the_window_gives_it(page, dashboard_url):
    """Issue 21, tab switch: a tab first opened after the page measured the window is made at
    the size the window gives its figure, so its still layers are drawn once (one scene, the
    page's ``peRun``): neither first at a guessed size, nor again at a size guessed while the
    tab showed "Loading…" (the page keeps the last figure measured while none is on screen)."""
    open_dashboard(page, dashboard_url)
    perceptron = canvas_locator(page).bounding_box()
    for index, title in [(1, "Margins"), (3, "XOR")]:  # figures that change on their own never
        page.locator(".lm-TabBar-tab", has_text=title).first.click()
        panel = f".widget-tab-contents > :nth-child({index + 1})"
        wait_for_canvas(page, within=panel, timeout=60)
        page.wait_for_timeout(3000)  # the page measures the new tab's figure; nothing follows
        root = page.locator(f"{panel} .pe-pagefigure").first
        assert root.evaluate("(r) => r.peRun") == 1, title
        box = canvas_locator(page, within=panel).bounding_box()
        assert round(box["width"]) == round(perceptron["width"]), (title, box, perceptron)


def test_the_page_asks_nothing_of_the_internet(page, dashboard_url):
    """Every request the opened dashboard makes goes to its own server: Voila's "lab" page
    linked two Font Awesome stylesheets from a CDN, which hold the first paint until they load
    or fail (offline, behind a firewall that drops packets: the network's timeout). The
    dashboard's template (explorer/serving/jupyter/voila/templates/explorer) leaves them out."""
    asked = []
    page.on("request", lambda r: asked.append(r.url))
    open_dashboard(page, dashboard_url)
    click_button(page, STEP)
    wait_for_text(page, STATUS, lambda t: t.startswith("step 1 of 12"))
    assert asked and asked[0].startswith(dashboard_url)
    elsewhere = [u for u in asked if not u.startswith((dashboard_url, "data:", "blob:"))]
    assert elsewhere == [], elsewhere
    # still Voila's lab page, styles and all
    assert page.locator("link[href*='/voila/templates/explorer/static/index.css']").count() == 1
