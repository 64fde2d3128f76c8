"""End-to-end: the words translated so far fit in every language (issue 35, item 5), the
pseudo-language (every string about 40 % longer, accented) included: at 1024 and 1920 px, and
in lecture mode at 1024, no button of the top bar and no tab title is cut, and none overlaps
another or the tab bar. Measured from the page's boxes in Chromium."""

from __future__ import annotations

import pytest
from _voila import wait_for_canvas

pytestmark = pytest.mark.browser

MEASURE = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const topbar = [...document.querySelectorAll('.pe-topbar')].find(e => e.offsetParent !== null);
  const parts = [...topbar.children].filter(c => c.offsetParent !== null);
  const cut = (e) => [e, ...e.querySelectorAll('button, label, .widget-label, select')]
      .filter(x => x.offsetParent !== null && x.scrollWidth > x.clientWidth + 1)
      .map(x => x.textContent.trim() || x.tagName);
  const tabs = [...document.querySelectorAll('.lm-TabBar-tab')].filter(e => e.offsetParent !== null);
  const labels = [...document.querySelectorAll('.lm-TabBar-tabLabel')];
  return {
    parts: parts.map(p => [p.textContent.trim().slice(0, 30), box(p)]),
    cut: parts.flatMap(cut),
    labels: labels.map(e => [e.textContent, e.scrollWidth <= e.clientWidth + 1]),
    tabs: tabs.map(box),
    right: Math.max(...parts.map(p => p.getBoundingClientRect().right)), vw: innerWidth,
  };
}"""


def _overlap(a, b) -> bool:
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


@pytest.mark.parametrize("lang", ["en", "sv", "de", "es", "zh", "qps"])
@pytest.mark.parametrize("width,height,lecture", [(1024, 768, False), (1920, 1080, False),
                                                  (1024, 768, True)],
                         ids=["1024", "1920", "1024-lecture"])
def test_the_top_bar_and_tab_titles_fit(page, dashboard_url, lang, width, height, lecture):
    page.set_viewport_size({"width": width, "height": height})
    page.goto(dashboard_url + f"?tab=perceptron&lang={lang}")
    wait_for_canvas(page, within=".pe-pagefigure:visible", timeout=90)
    if lecture:
        page.locator(".pe-pf-narration:visible").first.click()  # no field focused
        page.keyboard.press("l")
        page.wait_for_function("() => document.querySelector('.pe-root.pe-lecture') !== null")
    page.wait_for_timeout(1500)  # the page measures and lays out the bar
    m = page.evaluate(MEASURE)
    assert m["cut"] == [], m
    assert all(whole for _, whole in m["labels"]), m["labels"]
    assert m["right"] <= m["vw"] + 1, m
    boxes = [b for _, b in m["parts"]]
    for i, a in enumerate(boxes):
        assert not any(_overlap(a, b) for b in boxes[i + 1:]), m["parts"]
        assert not any(_overlap(a, t) for t in m["tabs"]), (m["parts"], m["tabs"])


SETTINGS = """() => {
  const side = [...document.querySelectorAll('.pe-sidebar')].find(e => e.offsetParent !== null);
  if (!side) return null;
  const r = side.getBoundingClientRect();
  const words = [...side.querySelectorAll(
      '.widget-label, .widget-label-basic, button, .pe-section, .widget-checkbox label, '
      + '.jupyter-widget-Collapse-header, .widget-toggle-button')]
      .filter(x => x.offsetParent !== null && x.textContent.trim());
  return {
    n: words.length,
    cut: words.filter(x => x.scrollWidth > x.clientWidth + 1).map(x => x.textContent.trim()),
    out: words.filter(x => x.getBoundingClientRect().right > r.right + 1)
              .map(x => x.textContent.trim()),
  };
}"""


@pytest.mark.parametrize("lang", ["de", "qps"])
def test_the_settings_column_s_labels_fit_at_1366(page, dashboard_url, lang):
    """The settings column's words (issue 35, item 5): no control label, heading or button of
    the Perceptron tab's settings is cut or runs out of the column, in German and in the
    pseudo-language (about 40 % longer), at 1366 x 768."""
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(dashboard_url + f"?tab=perceptron&lang={lang}")
    wait_for_canvas(page, within=".pe-pagefigure:visible", timeout=90)
    page.wait_for_timeout(1500)
    m = page.evaluate(SETTINGS)
    assert m is not None and m["n"] >= 20, m
    assert m["cut"] == [], m
    assert m["out"] == [], m
