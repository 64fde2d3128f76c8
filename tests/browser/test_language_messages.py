"""End-to-end: the page's messages and its JavaScript's words in the page's language (issue
35). In German a typed "0,5" is 0.5 and a letter in a number's field is refused in German with
the last good value kept; the transport's buttons, their tooltips and the keys' help are
German, and English again after the menu changes the language."""

from __future__ import annotations

import pytest
from _voila import wait_for_canvas, wait_for_link

pytestmark = pytest.mark.browser

VISIBLE = ".pe-pagefigure:visible"
WORDS = """() => {
  const fig = [...document.querySelectorAll('.pe-pagefigure')].find(e => e.offsetParent !== null);
  const play = fig.querySelector('.pe-play'), step = fig.querySelector('.pe-step');
  const keys = [...document.querySelectorAll('.pe-keys')].map(e => e.textContent);
  return {play: play.textContent, playTip: play.title, step: step.textContent,
          stepTip: step.title, speed: fig.querySelector('.pe-pf-speed').title,
          slider: fig.querySelector('.pe-pf-slider').textContent, keys: keys[0] || ''};
}"""


def test_german_reads_a_decimal_comma_refuses_a_letter_in_german_and_speaks_german(
        page, dashboard_url):
    page.goto(dashboard_url + "?tab=perceptron&dataset=separable&lang=de")
    wait_for_canvas(page, within=VISIBLE, timeout=90)
    eta = page.get_by_role("textbox", name="η", exact=True)
    eta.fill("0,5")
    eta.press("Enter")
    wait_for_link(page, r"eta=0\.5(&|$)")  # 0.5 in the link: the same state in every language
    assert not page.locator(".pe-view:visible .pe-message").is_visible()

    epochs = page.get_by_role("textbox", name="max. Epochen")
    epochs.fill("x")
    epochs.press("Enter")
    alert = page.locator(".pe-view:visible .pe-message")
    alert.wait_for(state="visible", timeout=15_000)
    said = alert.inner_text()
    assert said.startswith("Nicht übernommen: max. Epochen muss eine ganze Zahl von 1 bis "
                           "100000 sein; erhalten: 'x'."), said
    assert "Die bisherigen Einstellungen wurden behalten." in said, said
    page.wait_for_function("() => [...document.querySelectorAll('input')].some("
                           "e => e.offsetParent !== null && e.value === '50')", timeout=15_000)
    assert epochs.input_value() == "50"  # the last good value is back in the box
    assert eta.input_value() == "0.5"
    assert "eta=0.5" in wait_for_link(page, r"eta=0\.5")

    words = page.evaluate(WORDS)
    assert (words["play"], words["playTip"]) == ("▶ Abspielen",
                                                 "Abspielen oder anhalten (Leertaste)"), words
    assert words["step"] == "Schritt ▶" and "Schritt" in words["stepTip"], words
    assert words["speed"] == "Abspielgeschwindigkeit, Schritte pro Sekunde", words
    assert words["slider"].startswith("Schritt"), words
    assert words["keys"].startswith("Tasten. → oder Bild↓ Schritt"), words
    assert "Vorlesungsmodus" in words["keys"], words

    page.locator(".pe-language select").select_option(label="English")
    page.wait_for_function("() => [...document.querySelectorAll('.pe-pagefigure .pe-play')]"
                           ".some(b => b.title === 'Play or pause (space)')", timeout=30_000)
    words = page.evaluate(WORDS)
    assert words["play"] == "▶ Play" and words["speed"] == "Play speed, steps per second", words
    assert words["keys"].startswith("Keys. → or PageDown step"), words
