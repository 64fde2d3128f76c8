"""End-to-end: the page in Chinese draws every Chinese character with a glyph, not an empty box
(issue 35, item 4). This machine, like a fresh one, has no font with Chinese glyphs (the test
says so first); the package ships one (explorer/fonts/, explorer/shared/cjk_font.py), which the
page declares with @font-face (for Chinese characters only) and names first in its font lists.

Chromium itself says which font drew each element's text (the DevTools protocol's
``CSS.getPlatformFontsForNode``): every Chinese character of the top bar, the tab titles, the
settings column and the narration is a glyph of the shipped font. The figure's canvas texts use
the page figure's font list (``FONT``, static/kinds_plane.js): a Chinese character measured with
it is as wide as the shipped font's (1 em), not a box of another font.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _voila import wait_for_canvas

from explorer.shared import cjk_font

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
#: Wide (East Asian) characters: CJK punctuation, ideographs, fullwidth forms.
WIDE = r"[\u3000-\u303F\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\uFF01-\uFF60\uFFE0-\uFFE6]"

#: Marks every visible element whose own text (its text nodes, not its children's; a menu's
#: chosen entry) holds wide characters with data-pe-cjk="i"; returns for each what it says and
#: how many wide characters.
MARK = """(wide) => {
  const re = new RegExp(wide, 'g');
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    if (['SCRIPT', 'STYLE', 'OPTION', 'TITLE'].includes(el.tagName)) continue;
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(el).visibility === 'hidden') continue;
    let own = '';
    if (el.tagName === 'SELECT') own = el.selectedIndex < 0 ? '' : el.options[el.selectedIndex].text;
    else for (const n of el.childNodes) if (n.nodeType === 3) own += n.textContent;
    const chars = own.match(re);
    if (!chars) continue;
    el.setAttribute('data-pe-cjk', String(out.length));
    const where = el.closest('.pe-topbar') ? 'top bar' : el.closest('.lm-TabBar') ? 'tabs'
      : el.closest('.pe-pf-narration') ? 'narration' : el.closest('.pe-pagefigure') ? 'figure'
      : 'settings and the rest';
    out.push({chars: chars.length, text: own.trim().slice(0, 60), where, tag: el.tagName,
               cls: String(el.className).slice(0, 60), family: getComputedStyle(el).fontFamily});
  }
  return out;
}"""

#: The width of each wide character of ``text`` drawn on a canvas in ``font`` (CSS px).
MEASURE = """([font, text]) => {
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = font;
  return [...text].map((c) => ctx.measureText(c).width);
}"""


def _page_figure_font() -> str:
    js = (ROOT / "explorer/app/static/kinds_plane.js").read_text(encoding="utf-8")
    return re.search(r'export const FONT = "((?:[^"\\]|\\.)*)";', js).group(1).replace('\\"', '"')


def _fonts_by_element(page) -> dict[int, dict[str, int]]:
    """For each marked element, the glyphs each font drew of its text, as Chromium says."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1, "pierce": True})["root"]["nodeId"]
    out = {}
    for node in cdp.send("DOM.querySelectorAll", {"nodeId": root,
                                                  "selector": "[data-pe-cjk]"})["nodeIds"]:
        attrs = cdp.send("DOM.getAttributes", {"nodeId": node})["attributes"]
        index = int(dict(zip(attrs[::2], attrs[1::2], strict=True))["data-pe-cjk"])
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        out[index] = {f["familyName"]: f["glyphCount"] for f in fonts}
    cdp.detach()
    return out


def test_chinese_text_is_drawn_with_the_shipped_font_not_boxes(chromium_browser, dashboard_url):
    context = chromium_browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(30_000)
    try:
        page = context.new_page()
        page.goto(dashboard_url + "?tab=perceptron&lang=zh")
        wait_for_canvas(page, within=".pe-pagefigure:visible", timeout=90)
        page.wait_for_function("() => document.querySelector('.pe-topbar').innerText"
                               ".includes('授课模式')", timeout=30_000)
        page.evaluate("() => document.fonts.ready")
        face = page.evaluate("""(family) => [...document.fonts]
            .filter((f) => f.family.replace(/"/g, '') === family).map((f) => f.status)""",
                             cjk_font.FAMILY)
        assert face == ["loaded"], face
        marked = page.evaluate(MARK, WIDE)
        places = {m["where"] for m in marked}
        assert {"top bar", "tabs", "settings and the rest"} <= places, marked
        fonts = _fonts_by_element(page)
        wrong = [(m, fonts.get(i)) for i, m in enumerate(marked)
                 if fonts.get(i, {}).get(cjk_font.FAMILY, 0) < m["chars"]]
        assert not wrong, wrong
        # the figure's canvas: each Chinese character 1 em wide with its font list, as the
        # shipped font draws it; without that font (the rest of the list) a box of another width
        font = _page_figure_font()
        assert font.startswith(f'"{cjk_font.FAMILY}", ')
        text = "边距感知机，（更新）"
        widths = page.evaluate(MEASURE, [f"20px {font}", text])
        assert widths == pytest.approx([20.0] * len(text), abs=0.05), widths
        others = font.split(",", 1)[1]
        boxes = page.evaluate(MEASURE, [f"20px {others}", text])
        assert boxes != pytest.approx(widths, abs=0.05), boxes
    finally:
        context.close()
