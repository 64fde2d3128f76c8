"""End-to-end: the Perceptron tab's figure in the page's language (issue 35). A link opens the
tab at step 3; the top bar's menu switches to Svenska: the figure is drawn again at the same
step, its narration, status line and panel headings in Swedish with decimal commas; back to
English, the words are those shown before, identical."""

from __future__ import annotations

import pytest
from _voila import panel_heading, wait_for_canvas, wait_for_text

pytestmark = pytest.mark.browser

WORDS = """() => {
  const fig = [...document.querySelectorAll('.pe-pagefigure')].find(n => n.offsetParent);
  return {run: fig.peRun, narration: fig.querySelector('.pe-pf-narration').textContent,
          where: fig.querySelector('.pe-where').textContent, search: location.search};
}"""


def _words(page) -> dict:
    return page.evaluate(WORDS) | {"weights": panel_heading(page, "weights"),
                                   "mistakes": panel_heading(page, "mistakes")}


def _wait_for(page, told: str, *, timeout_ms: int = 30_000) -> None:
    page.wait_for_function(
        "(told) => { const fig = [...document.querySelectorAll('.pe-pagefigure')]"
        ".find(n => n.offsetParent); const n = fig && fig.querySelector('.pe-pf-narration');"
        " return n && n.textContent.startsWith(told); }", arg=told, timeout=timeout_ms)


def test_the_menu_redraws_the_figure_in_swedish_at_the_same_step(page, dashboard_url):
    page.goto(dashboard_url + "?tab=perceptron&dataset=koski&eta=0.2&step=3")
    wait_for_canvas(page, within=".pe-pagefigure:visible", timeout=90)
    wait_for_text(page, "pe-where:visible", lambda t: t.startswith("step 3 of"), timeout=30)
    _wait_for(page, "Step 3, point")
    english = _words(page)
    assert english["weights"] == "Weight space" and english["mistakes"] == "Updates so far"
    assert "." in english["narration"].split("y·f(x) = ")[1][:6], english

    page.locator(".pe-language select").select_option(label="Svenska")
    _wait_for(page, "Steg 3, punkt")
    page.wait_for_function("() => location.search.includes('lang=sv')", timeout=30_000)
    swedish = _words(page)
    assert swedish["run"] > english["run"], swedish  # a new scene, drawn again
    assert swedish["where"].startswith("steg 3 av"), swedish  # the same step
    assert swedish["weights"] == "Viktrum" and swedish["mistakes"] == "Uppdateringar"
    margin = swedish["narration"].split("y·f(x) = ")[1].split(" ")[0]
    assert "," in margin and "." not in margin, swedish  # a decimal comma
    assert "; " in swedish["narration"], swedish  # a vector's components: (a; b)
    assert "step=3" in swedish["search"], swedish
    wait_for_canvas(page, within=".pe-pagefigure:visible", timeout=30)

    page.locator(".pe-language select").select_option(label="English")
    _wait_for(page, "Step 3, point")
    again = _words(page)
    assert again["run"] > swedish["run"]
    for key in ("narration", "where", "weights", "mistakes"):
        assert again[key] == english[key], key
