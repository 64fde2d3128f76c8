"""End-to-end: the data plane first, at a lecture hall's sizes (issue 30, items 1, 7, 8, 11, 15).

Measured in Chromium from the page's boxes: the page figure says where its panels and their
legends are (``pePanels``: each panel's box in CSS px from the canvas's top left, and its
legend's box and smallest type as the kernel drew it, :class:`explorer.plots.scene.Panel`).

- At 1024 × 768 and 1280 × 800, in normal and lecture mode with the Playlist group open, in
  the Perceptron tab (one rule, and a race), and on the example lecture's slide 7 (Margins, 40
  points, 36 support vectors): the data plane is on screen, takes most of the figure's height
  and the largest share of its width a square of that height can take, is the largest panel,
  and no legend is under 11 CSS px. Before: planes of 92 to 269 px beside side panels that kept
  their size, legends of 9 to 10 px.
- Lecture mode at 1920 × 1080: the race's planes use the height (they were 41 % of it, with
  wide empty margins); on slide 7 the data plane is larger than the bar chart, legends at
  least 20 px.
- Nothing under the figure is half cut by the window's bottom edge (the keys' line was, at
  every size: the keys are in the settings column now).
- No menu choice or label is cut ("Koski's worked exan", "Race against (same data and order").
- A settings box taking the focus moves nothing (the page jumped 16 px at 1920 × 1080).
- A message in lecture mode is lecture-sized (it was 13 px).
"""

from __future__ import annotations

import pytest
from _voila import wait_for_canvas

pytestmark = pytest.mark.browser

SHOWN_FIGURE = "[...document.querySelectorAll('.pe-pagefigure')].find(e => e.offsetParent !== null)"

#: The figure's canvas and its panels, in CSS px from the window's top left.
PANELS = f"""() => {{
  const f = {SHOWN_FIGURE};
  if (!f || !f.pePanels) return null;
  const c = f.querySelector('canvas.pe-canvas').getBoundingClientRect();
  const at = (b) => b && [b[0] + c.left, b[1] + c.top, b[2], b[3], b[4]];
  return {{vw: innerWidth, vh: innerHeight, canvas: [c.left, c.top, c.width, c.height],
          scene: f.peRun, waiting: f.dataset.waiting,
          panels: f.pePanels.map(p => ({{name: p.name, box: [p.x + c.left, p.y + c.top, p.w, p.h],
                                         legend: at(p.legend)}}))}};
}}"""


def _settled(page, timeout_ms: int = 60_000) -> dict:
    """The figure's panels once they stop moving (the page measures the window, the kernel
    fits the figure, the page draws it): its step drawn (nothing awaited) and the same scene
    and panels for 2.1 s (a loaded kernel can take more than 1.4 s to send the fitted one)."""
    last, same = None, 0
    for _ in range(timeout_ms // 700):
        page.wait_for_timeout(700)
        now = page.evaluate(PANELS)
        drawn = now is not None and now["waiting"] == "false"
        same = same + 1 if drawn and now == last else 0
        if same >= 3:
            return now
        last = now
    raise AssertionError(f"the figure did not settle: {last}")


def _open(page, url, width, height, *, lecture=False, playlist=False, slide=None) -> dict:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(url)
    wait_for_canvas(page, within=".pe-pagefigure:visible", timeout=90)
    if playlist or slide:
        page.locator(".pe-playlist-toggle").click()
    if slide:
        page.locator(".pe-pl-graduation-cap").click()  # Example lecture
        page.locator(".pe-playlist-list select").wait_for()
        page.locator(".pe-playlist-list select").select_option(index=slide - 1)
        page.wait_for_function(f"() => [...document.querySelectorAll('.pe-playlist-where')]"
                               f".some(e => e.textContent.includes('slide {slide} of'))")
        wait_for_canvas(page, within=".pe-pagefigure:visible", timeout=90)
    if lecture:
        page.locator(".pe-pf-narration:visible").first.click()  # no field focused
        page.keyboard.press("l")
        page.wait_for_function("() => document.querySelector('.pe-root.pe-lecture') !== null")
    return _settled(page)


def _on_screen(box, m) -> bool:
    x, y, w, h = box[:4]
    return x >= -1 and y >= -1 and x + w <= m["vw"] + 1 and y + h <= m["vh"] + 1


def _planes(m) -> list:
    return [p for p in m["panels"] if p["name"].startswith("plane")]


def _legend_sizes(m) -> list:
    return [(p["name"], p["legend"][4]) for p in m["panels"] if p["legend"]]


SCENES = {"perceptron": "?tab=perceptron", "race": "?tab=perceptron&race=margin",
          "slide 7": ""}


@pytest.mark.parametrize("scene", list(SCENES))
@pytest.mark.parametrize("lecture", [False, True], ids=["normal", "lecture"])
@pytest.mark.parametrize("width,height", [(1024, 768), (1280, 800)])
def test_the_data_plane_is_the_figures_main_panel(page, dashboard_url, scene, lecture, width,
                                                  height):
    m = _open(page, dashboard_url + SCENES[scene], width, height, lecture=lecture,
              playlist=True, slide=7 if scene == "slide 7" else None)
    cw, ch = m["canvas"][2:]
    assert _on_screen(m["canvas"], m), m
    planes = _planes(m)
    assert planes, m
    for p in planes:
        assert _on_screen(p["box"], m), (p, m)
    side = min(planes[0]["box"][2:])
    if scene == "race":  # two planes side by side, their mistakes at their right or below
        assert side >= 0.55 * ch and 2 * side >= 0.5 * cw, (side, m)
    else:
        # most of the figure's height, and of its width what a square that tall can take
        # (a figure twice as wide as tall or less: about half)
        assert side >= 0.78 * ch and side >= min(0.45 * cw, 0.78 * ch), (side, m)
        area = side * side
        for p in m["panels"]:
            if p not in planes:
                assert p["box"][2] * p["box"][3] <= area, (p, side)
    assert side >= (250 if scene == "race" else 300), (side, m)
    for name, px in _legend_sizes(m):
        assert px >= 11 - 0.05, (name, px)


def test_lecture_mode_at_1920_uses_the_room_for_the_race_and_slide_7(page, dashboard_url):
    m = _open(page, dashboard_url + SCENES["race"], 1920, 1080, lecture=True)
    side = min(_planes(m)[0]["box"][2:])
    assert side >= 0.55 * m["canvas"][3], (side, m)  # was 0.41: planes of 310 px
    m = _open(page, dashboard_url, 1920, 1080, lecture=True, slide=7)
    plane = _planes(m)[0]["box"]
    for p in m["panels"]:  # the dual weights' bar chart was larger than the data plane
        assert p["box"][2] * p["box"][3] <= plane[2] * plane[3], (p, plane)
    for name, px in _legend_sizes(m):
        assert px >= 20 - 0.05, (name, px)


#: Text blocks of the main column (under the tabs) that the window's bottom edge cuts through.
HALF_CUT = """() => {
  const out = [];
  for (const e of document.querySelectorAll('.pe-main .widget-html, .pe-main .widget-label')) {
    if (e.offsetParent === null || !e.textContent.trim()) continue;
    const r = e.getBoundingClientRect();
    if (r.top < innerHeight - 1 && r.bottom > innerHeight + 1) {
      out.push([e.textContent.slice(0, 60), r.top, r.bottom]);
    }
  }
  const keys = [...document.querySelectorAll('.pe-keys')].map(e => !!e.closest('.pe-sidebar'));
  return {cut: out, keys};
}"""


@pytest.mark.parametrize("lecture", [False, True], ids=["normal", "lecture"])
@pytest.mark.parametrize("width,height", [(1024, 768), (1366, 768), (1920, 1080)])
def test_nothing_under_the_figure_is_half_cut_and_the_keys_are_in_the_settings(
        page, dashboard_url, width, height, lecture):
    _open(page, dashboard_url + "?tab=perceptron", width, height, lecture=lecture)
    found = page.evaluate(HALF_CUT)
    assert found["cut"] == [], found
    assert found["keys"] and all(found["keys"]), found  # deliberately in the settings column


#: Menu choices wider than their menu, and labels wider than their box, in the page.
CUT_TEXT = """() => {
  const shown = (e) => e.offsetParent !== null;
  const out = [];
  const ctx = document.createElement('canvas').getContext('2d');
  for (const s of document.querySelectorAll('.pe-root select')) {
    if (!shown(s) || s.multiple || s.size > 1) continue;
    const cs = getComputedStyle(s);
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    for (const o of s.options) {
      if (ctx.measureText(o.text).width > room) out.push(['menu', o.text]);
    }
  }
  for (const l of document.querySelectorAll('.pe-root .widget-label, .pe-root label')) {
    if (shown(l) && l.scrollWidth > l.clientWidth + 1) out.push(['label', l.textContent]);
  }
  return out;
}"""


@pytest.mark.parametrize("tab", ["perceptron", "margins", "cover", "xor", "generalization"])
@pytest.mark.parametrize("width,height", [(1366, 768), (1920, 1080)])
def test_no_menu_choice_or_label_is_cut(page, dashboard_url, tab, width, height):
    _open(page, dashboard_url + f"?tab={tab}", width, height)
    assert page.evaluate(CUT_TEXT) == []


@pytest.mark.parametrize("width,height", [(1366, 768), (1920, 1080)])
def test_a_settings_box_taking_the_focus_moves_nothing(page, dashboard_url, width, height):
    _open(page, dashboard_url + "?tab=perceptron", width, height)
    where = """() => [document.querySelector('.pe-topbar').getBoundingClientRect().top,
                      document.querySelector('.lm-TabBar').getBoundingClientRect().top]"""
    before = page.evaluate(where)
    boxes = page.locator(".pe-sidebar input[type='text']:visible:enabled")
    assert boxes.count() >= 5
    for i in range(boxes.count()):
        boxes.nth(i).click()
        page.wait_for_timeout(300)
        assert page.evaluate(where) == before, boxes.nth(i).evaluate("e => e.outerHTML")


def test_a_message_in_lecture_mode_is_lecture_sized(page, dashboard_url):
    _open(page, dashboard_url + "?tab=perceptron&eta=abc", 1366, 768, lecture=True)
    sizes = page.evaluate("""() => [getComputedStyle(document.querySelector('.pe-root')).fontSize,
        ...[...document.querySelectorAll('.pe-message [role=alert]')]
           .filter(e => e.offsetParent !== null).map(e => getComputedStyle(e).fontSize)]""")
    page_px, *messages = (float(s.removesuffix("px")) for s in sizes)
    assert messages and page_px >= 19 and all(px == page_px for px in messages), sizes
