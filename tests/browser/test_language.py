"""End-to-end: the page's language (issue 35, first step). A link's ``lang=`` opens the page in
that language; a page whose link names none follows the browser's; the top bar's menu changes
the words at once and keeps the state and the step, and the address bar says the language."""

from __future__ import annotations

import pytest
from _voila import wait_for_canvas, wait_for_text

pytestmark = pytest.mark.browser

TOP = """() => {
  const shown = [...document.querySelectorAll('.pe-topbar')].find(e => e.offsetParent !== null);
  const tabs = [...document.querySelectorAll('.lm-TabBar-tabLabel')].map(e => e.textContent);
  return {bar: shown ? shown.innerText : '', tabs, lang: document.documentElement.lang,
          search: location.search};
}"""


def _top(page):
    return page.evaluate(TOP)


def test_the_link_s_language_then_the_menu_keeps_the_step(page, dashboard_url):
    page.goto(dashboard_url + "?tab=perceptron&dataset=xor&step=3&lang=sv")
    wait_for_canvas(page, within=".pe-pagefigure:visible", timeout=90)
    wait_for_text(page, "pe-where:visible", lambda t: t.startswith("steg 3 av"))
    top = _top(page)
    assert "Föreläsningsläge" in top["bar"] and "Inställningar" in top["bar"], top
    assert top["tabs"][:2] == ["Perceptron", "Marginaler"], top
    menu = page.locator(".pe-language select")
    assert menu.input_value() == "Svenska"
    menu.select_option(label="Deutsch")
    page.wait_for_function("() => document.querySelector('.pe-topbar').innerText"
                           ".includes('Vorlesungsmodus')", timeout=30_000)
    page.wait_for_function("() => location.search.includes('lang=de')", timeout=30_000)
    top = _top(page)
    assert top["tabs"][:2] == ["Perzeptron", "Margin"], top
    assert "step=3" in top["search"] and "dataset=xor" in top["search"], top
    wait_for_text(page, "pe-where:visible", lambda t: t.startswith("Schritt 3 von"))


def test_a_page_without_lang_follows_the_browser(chromium_browser, dashboard_url):
    context = chromium_browser.new_context(viewport={"width": 1366, "height": 768},
                                           locale="es-ES")
    try:
        page = context.new_page()
        page.goto(dashboard_url + "?tab=margins")
        wait_for_canvas(page, within=".pe-pagefigure:visible", timeout=90)
        page.wait_for_function("() => document.querySelector('.pe-topbar').innerText"
                               ".includes('Modo clase')", timeout=30_000)
        top = _top(page)
        assert top["tabs"][1] == "Márgenes", top
        assert "lang=" not in top["search"], top  # the browser's choice stays the browser's
        assert page.locator(".pe-language select").input_value() == "Español"
    finally:
        context.close()
