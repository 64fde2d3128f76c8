"""End-to-end: the dashboard at a projector (issue 22, "projector first"). Measured in Chromium
from the page's boxes and computed styles, not pixels:

- in lecture mode at 1920 × 1080 and 1366 × 768 the figure takes at least 85 % of the window's
  width and 70 % of its height;
- at 1024, 1366 and 1920, in lecture mode and out, the timeline (Step), the figure and the
  controls used in class (Click mode) are on screen together, the tab labels are whole and the
  top bar overlaps no tab label;
- the "blank screen" key of a presenter's remote (".", or b) blacks the screen out and back, and
  nothing steps unseen meanwhile.

The type of the figure itself (at least 20 CSS px at 1920 in lecture mode) is checked on the
kernel's figure in ``tests/test_figure_fit.py``.
"""

from __future__ import annotations

import pytest
from _voila import wait_for_canvas, wait_for_text, wait_until_quiet

pytestmark = pytest.mark.browser

MEASURE = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const shown = (sel) => [...document.querySelectorAll(sel)].find(e => e.offsetParent !== null);
  const canvas = shown('canvas.pe-canvas');
  const step = [...document.querySelectorAll('.pe-pagefigure button')]
      .find(b => b.offsetParent !== null && b.textContent.trim() === 'Step ▶');
  const click = [...document.querySelectorAll('.widget-toggle-buttons')]
      .find(e => e.offsetParent !== null && e.textContent.includes('Click mode'));
  const labels = [...document.querySelectorAll('.lm-TabBar-tabLabel')];
  const tabs = [...document.querySelectorAll('.lm-TabBar-tab')].filter(e => e.offsetParent !== null);
  const topbar = shown('.pe-topbar');
  return {
    vw: innerWidth, vh: innerHeight,
    canvas: canvas && box(canvas), step: step && box(step), click: click && box(click),
    labels: labels.map(e => [e.textContent, e.scrollWidth <= e.clientWidth + 1, box(e)]),
    topbar: topbar && [...topbar.children].filter(c => c.offsetParent !== null).map(box),
    tabs: tabs.map(box),
  };
}"""


# The layout and the shown figure's scene count (a new size is a new scene).
SETTLED = ("() => JSON.stringify([(" + MEASURE + ")(), [...document.querySelectorAll("
           "'.pe-pagefigure')].map(f => [f.peRun, f.dataset.waiting])])")


def _on_screen(b, m) -> bool:
    return b is not None and b[0] >= -1 and b[1] >= -1 and b[2] <= m["vw"] + 1 and b[3] <= m["vh"] + 1


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _open(page, url, width, height, lecture):
    page.set_viewport_size({"width": width, "height": height})
    page.goto(url)
    wait_for_canvas(page, within=".pe-pagefigure:visible", timeout=90)
    if lecture:
        page.locator(".pe-pf-narration:visible").first.click()  # no field focused
        page.keyboard.press("l")
        page.wait_for_function("() => document.querySelector('.pe-root.pe-lecture') !== null")
    # the page measures the figure's place, the kernel fits the figure and the page draws it
    # (a new scene): wait until its step is drawn and nothing has moved for 2.5 s (what a
    # fixed 2.5 s wait gave on a quiet machine, and not less on a loaded one)
    page.wait_for_function("() => [...document.querySelectorAll('.pe-pagefigure')].find("
                           "f => f.offsetParent !== null).dataset.waiting === 'false'",
                           timeout=60_000)
    wait_until_quiet(page, SETTLED, quiet_ms=2500, timeout_ms=60_000, what="the layout")
    return page.evaluate(MEASURE)


@pytest.mark.parametrize("width,height", [(1920, 1080), (1366, 768), (1024, 768)])
@pytest.mark.parametrize("lecture", [False, True], ids=["normal", "lecture"])
@pytest.mark.parametrize("tab", ["perceptron", "margins"])
def test_figure_timeline_and_class_controls_on_screen_together(page, dashboard_url, tab, width,
                                                               height, lecture):
    m = _open(page, dashboard_url + f"?tab={tab}", width, height, lecture)
    assert _on_screen(m["canvas"], m), m
    assert _on_screen(m["step"], m), m
    assert _on_screen(m["click"], m), m
    assert all(whole for _, whole, _ in m["labels"]), m["labels"]
    for b in m["topbar"] or []:  # nor any tab (lecture mode puts the bar beside them)
        assert not any(_overlap(b, label) for _, _, label in m["labels"]), (b, m["labels"])
        assert not any(_overlap(b, tab) for tab in m["tabs"]), (b, m["tabs"])
    if lecture and width >= 1366:
        c = m["canvas"]
        assert (c[2] - c[0]) >= 0.85 * width and (c[3] - c[1]) >= 0.70 * height, (c, width, height)


def test_the_blank_screen_key_blacks_out_and_back_and_nothing_steps_unseen(page, dashboard_url):
    _open(page, dashboard_url, 1366, 768, lecture=False)
    status = ".pe-pagefigure:visible .pe-where"
    page.locator(".pe-pf-narration:visible").first.click()
    wait_for_text(page, "pe-where:visible", lambda t: t.startswith("step 0 of"))
    page.keyboard.press(".")  # what a presenter remote's "blank screen" button sends
    black = page.locator(".pe-blackout")
    black.wait_for()
    box = black.bounding_box()
    assert box["width"] >= 1366 and box["height"] >= 768
    assert black.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(0, 0, 0)"
    page.keyboard.press("PageDown")  # not while the screen is black
    page.wait_for_timeout(400)
    assert page.locator(status).inner_text().startswith("step 0 of")
    page.keyboard.press(".")
    black.wait_for(state="detached")
    page.keyboard.press("b")
    black.wait_for()
    page.keyboard.press("Escape")
    black.wait_for(state="detached")
    page.keyboard.press("PageDown")  # the keys are the figure's again
    wait_for_text(page, "pe-where:visible", lambda t: t.startswith("step 1 of"))
