"""The page's messages and its JavaScript's words in the page's language (issue 35): typed
values read with the language's decimal comma, refusals as whole translated sentences, the
language kept in saved states and playlists, the page figure's dictionary of words and the
follower's page. English stays as it was, word for word."""

import json
import re
from pathlib import Path

import pytest

from explorer.app.pagefigure import CONTROLS, PageFigure
from explorer.app.playlist import Playlist
from explorer.app.state import StateSpec, file_lang
from explorer.app.state_field import Field
from explorer.app.tab_model import Refusal
from explorer.shared import i18n
from explorer.shared.page_words import PAGE_WORDS, page_words

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "explorer" / "app" / "static"

ETA = Field(name="eta", label="η", kind="float", default=1.0, min=0, min_open=True, max=1e6)
N = Field(name="n", label="n", kind="int", default=40, min=1, max=2000)
W0 = Field(name="w0", label="w0", kind="floats", default=(0.0, 0.0), max_len=3,
           item_min=-10, item_max=10)
PTS = Field(name="points", label="points", kind="points", default=(), optional=True,
            item_min=-5, item_max=5)
SPEC = StateSpec("perceptron", [ETA, N, W0, PTS])


@pytest.fixture(autouse=True)
def english():
    i18n.set_language(i18n.DEFAULT)
    yield
    i18n.set_language(i18n.DEFAULT)


# ------------------------------------------------------------------ typed numbers
@pytest.mark.parametrize("code", ["sv", "de", "es"])
def test_a_typed_decimal_comma_is_a_decimal_point_in_a_language_that_writes_one(code):
    with i18n.using(code):
        assert ETA.parse("0,5", typed=True) == 0.5
        assert ETA.parse(" 0.5 ", typed=True) == 0.5  # the point still works
        assert ETA.parse("1,25e1", typed=True) == 12.5
        assert ETA.parse(",5", typed=True) == 0.5
        with pytest.raises(ValueError):
            N.parse("2,5", typed=True)  # a whole number is still whole
        with pytest.raises(ValueError):
            ETA.parse("1,5,2", typed=True)


def test_english_reads_a_comma_as_before_and_says_so_word_for_word():
    with pytest.raises(ValueError) as exc:
        ETA.parse("0,5", typed=True)
    assert str(exc.value) == "η must be a number > 0; got '0,5'"
    assert W0.parse("1,2", typed=True) == [1.0, 2.0]  # a list, as always
    assert PTS.parse("0.5,-1,1;1,2,-1", typed=True) == [(0.5, -1.0, 1), (1.0, 2.0, -1)]


@pytest.mark.parametrize("code", ["sv", "de", "es"])
def test_lists_and_points_take_semicolons_with_a_decimal_comma_and_commas_with_a_point(code):
    with i18n.using(code):
        assert W0.parse("0,5; 1,5", typed=True) == [0.5, 1.5]
        assert W0.parse("0,5 1,5", typed=True) == [0.5, 1.5]
        assert W0.parse("1, 2", typed=True) == [1.0, 2.0]  # a comma list, as in English
        assert W0.parse("0.5, 1.5", typed=True) == [0.5, 1.5]
        assert PTS.parse("0,5 -1 +1; 1 2,5 -1", typed=True) == [(0.5, -1.0, 1), (1.0, 2.5, -1)]
        assert PTS.parse("0.5,-1,1;1,2,-1", typed=True) == [(0.5, -1.0, 1), (1.0, 2.0, -1)]
        help_ = W0.expected(typed=True)
        assert "0,5; 1,5" in help_ and "0.5, 1.5" in help_  # the help says which separator
        assert "0,5 -1,5 +1" in PTS.expected(typed=True)


def test_links_and_files_stay_locale_neutral():
    state = {**SPEC.defaults(), "eta": 0.5, "w0": [0.5, -1.5], "points": [(0.25, -1.0, 1)]}
    with i18n.using("sv"):
        query, text = SPEC.to_query(state), SPEC.to_json(state)
        with pytest.raises(ValueError):
            ETA.parse("0,5")  # not typed (a link, a file): the decimal point only
        swedish = SPEC.from_query(query)
    assert "eta=0.5" in query and "0,5" not in query
    english = SPEC.from_query(query)
    assert english == swedish == (SPEC.validate(state), [])
    assert SPEC.from_json(text) == (SPEC.validate(state), [])


# ------------------------------------------------------------------ messages
def test_a_bad_typed_value_is_refused_in_german_as_a_whole_sentence():
    with i18n.using("de"):
        with pytest.raises(ValueError) as exc:
            ETA.parse("abc", typed=True)
        assert str(exc.value) == "η muss eine Zahl > 0 sein; erhalten: 'abc'"
        assert Refusal(why=str(exc.value), kept="settings").text == (
            "Nicht übernommen: η muss eine Zahl > 0 sein; erhalten: 'abc'. "
            "Die bisherigen Einstellungen wurden behalten.")
        with pytest.raises(ValueError) as exc:
            N.parse("99999999999999999999999", typed=True)
        assert str(exc.value) == ("n muss eine ganze Zahl von 1 bis 2000 sein; erhalten: "
                                  "99999999999999999999999")
        with pytest.raises(ValueError) as exc:
            PTS.parse("1 2,5 9", typed=True)
        assert "Punkt 1 hat die Klasse '9', nicht -1 oder +1" in str(exc.value)
    with pytest.raises(ValueError) as exc:
        ETA.parse("abc", typed=True)
    assert Refusal(why=str(exc.value), kept="settings").text == (
        "Not applied: η must be a number > 0; got 'abc'. Kept the previous settings.")


def test_a_bad_link_and_a_bad_file_are_said_in_the_page_s_language():
    with i18n.using("es"):
        state, said = SPEC.from_query("eta=abc&nope=1")
        assert state == SPEC.defaults()
        assert said == ["En el enlace: eta (η) debe ser un número > 0; se recibió 'abc'; se "
                        "mantuvo el valor predeterminado (1).",
                        "En el enlace: 'nope' no es un ajuste de esta pestaña; se omitió."]
        assert SPEC.from_json(b"{") == (None, [
            "No se usó el archivo: no es JSON válido (línea 1, columna 2). Se muestran los "
            "valores predeterminados."])
    assert SPEC.from_query("eta=abc")[1] == [
        "In the link, eta (η) must be a number > 0; got 'abc'; kept the default (1)."]
    assert SPEC.from_json(b"{") == (None, [
        "The file was not used: it is not valid JSON (line 1, column 2). Showing the defaults."])


def test_a_bad_csv_is_said_in_the_page_s_language():
    from explorer.app.upload import read_user_data

    with i18n.using("sv"):
        said = read_user_data(b"1,2,1\n3,x,-1\n", name="data.csv")
    assert said == ("Inte inläst: i data.csv, rad 2, kolumn 2 innehåller 'x', som inte är ett "
                    "tal.")
    assert read_user_data(b"", name="data.csv") == (
        "Nothing to read: data.csv is empty. Expected rows like '0.5, 1.2, 1'.")


# ------------------------------------------------------------------ the language in files
def test_a_saved_state_keeps_the_language_only_when_one_was_chosen():
    state = SPEC.defaults()
    plain = SPEC.to_json(state)
    assert '"lang"' not in plain and file_lang(plain) is None
    text = SPEC.to_json(state, lang="de")
    assert json.loads(text)["lang"] == "de" and file_lang(text) == "de"
    assert SPEC.from_json(text) == (SPEC.validate(state), [])  # read by any page
    assert file_lang(b"not json") is None and file_lang('{"lang": 3}') is None


def _dashboard(query=""):
    from explorer.app.dashboard import Dashboard

    return Dashboard(query=query)


def _upload(d, text):
    raw = text.encode()
    d._on_upload({"new": ({"name": "s.json", "size": len(raw), "content": memoryview(raw)},)})


def test_loading_a_state_switches_to_its_language_if_offered_else_says_so():
    d = _dashboard("tab=perceptron")
    spec = d.active.spec
    state = {**d.active.save_state(), "eta": 0.5}
    _upload(d, spec.to_json(state, lang="de"))
    assert i18n.language() == "de" and d.language.menu.value == "de"
    assert d.active.model.eta == 0.5 and d.b_settings.description == "Einstellungen"
    assert d.share.value.endswith("&lang=de")  # as if chosen in the menu
    assert d.bridge.words["pv_restart"] == "Uhr neu starten"  # the presenter view's words
    _upload(d, spec.to_json({**state, "eta": 0.25}, lang="fr"))
    assert i18n.language() == "de" and d.active.model.eta == 0.25
    assert ("Die Datei verlangt die Sprache 'fr', die nicht angeboten wird"
            in d.active.messages.refused)
    _upload(d, spec.to_json({**state, "eta": 2.0}))  # no language: the page keeps its own
    assert i18n.language() == "de" and d.active.model.eta == 2.0
    assert not d.active.messages.refused


def test_saving_writes_the_chosen_language_and_a_playlist_slide_keeps_it():
    d = _dashboard("tab=perceptron&lang=sv")
    sent = []
    d.bridge.send = lambda content, buffers=None: sent.append(content)
    d.b_save.click()
    assert json.loads(sent[-1]["text"])["lang"] == "sv"
    d.playlist.add()
    entry = d.playlist.playlist.entries[-1]
    assert entry.lang == "sv"
    text = d.playlist.playlist.to_json()
    again = Playlist(spec_of=d._spec_of)
    assert again.load_json(text) == [] and again.entries[-1].lang == "sv"
    # a slide in Spanish opens the page in Spanish; one without a language leaves it
    d.language.menu.value = "en"
    d._show_slide(again.entries[-1].__class__(**{**entry.__dict__, "lang": "es"}))
    assert i18n.language() == "es"
    d._show_slide(again.entries[-1].__class__(**{**entry.__dict__, "lang": None}))
    assert i18n.language() == "es"
    d._show_slide(again.entries[-1].__class__(**{**entry.__dict__, "lang": "tlh"}))
    assert i18n.language() == "es"
    assert "La diapositiva pide el idioma 'tlh'" in d.active.messages.refused
    plain = _dashboard("tab=perceptron")  # no language chosen: none saved
    plain.bridge.send = lambda content, buffers=None: sent.append(content)
    plain.b_save.click()
    assert "lang" not in json.loads(sent[-1]["text"])


def test_a_playlist_slide_with_a_bad_language_loads_without_it():
    p = Playlist(spec_of=lambda tab: SPEC if tab == "perceptron" else None)
    doc = {"app": "perceptron-explorer", "version": 1, "playlist": [
        {"title": "t", "tab": "perceptron", "lang": "DE!", "state": {}}]}
    said = p.load_json(json.dumps(doc))
    assert p.entries[0].lang is None and len(said) == 1 and "the language was left out" in said[0]


# ------------------------------------------------------------------ the page's JavaScript
def _js_words() -> dict:
    """Every ``pageWord("key", "English"...)`` of the page's scripts: key -> English."""
    pat = re.compile(r'pageWord\(\s*"(\w+)",\s*((?:"(?:[^"\\]|\\.)*"\s*(?:\+\s*)?)+)')
    found = {}
    for path in sorted(STATIC.glob("*.js")):
        for m in pat.finditer(path.read_text()):
            english = "".join(json.loads(s) for s in re.findall(r'"(?:[^"\\]|\\.)*"', m.group(2)))
            assert found.setdefault(m.group(1), english) == english, (path.name, m.group(1))
    return found


def test_the_scripts_words_are_declared_once_for_the_catalogs_with_the_same_english():
    assert _js_words() == PAGE_WORDS
    with i18n.using("de"):
        words = page_words()
    assert words["q_reveal"] == "Auflösen" and words["enlarge"].startswith("Klicken")
    for key, english in PAGE_WORDS.items():
        assert set(re.findall(r"\{\w+\}", words[key])) == set(re.findall(r"\{\w+\}", english))


def test_the_page_figure_sends_its_words_and_buttons_in_the_language_and_again_at_a_change():
    from explorer.app import labels

    fig = PageFigure()
    assert fig.words == {k: v for k, v in PAGE_WORDS.items()}
    assert fig.controls == [list(c) for c in CONTROLS]  # English as it was
    i18n.set_language("de")
    labels.relabel()
    assert fig.words["reset_view"] == "Ansicht zurücksetzen"
    titles = {a: (label, tip) for a, label, tip, _ in fig.controls}
    assert titles["play"] == ("▶ Abspielen", "Abspielen oder anhalten (Leertaste)")
    assert titles["step"][0] == "Schritt ▶"
    i18n.set_language("en")
    labels.relabel()
    assert fig.controls == [list(c) for c in CONTROLS]


def test_the_keys_help_is_in_the_page_s_language():
    from explorer.app.timeline import KEYS_HELP, keys_help

    assert "Keys: " + keys_help() == KEYS_HELP
    with i18n.using("de"):
        assert keys_help().startswith("→ oder Bild↓ Schritt") and "Vorlesungsmodus" in keys_help()


def test_the_follower_page_is_in_the_visitor_s_language_with_its_script_s_words():
    from explorer.serving.lecture_web import follow_page

    page = follow_page(base="/", lang="de")
    assert '<html lang="de">' in page and "Von hier aus erkunden" in page
    assert "Der Bildschirm ist gerade dunkel." in page and "Verbinde…" in page
    words = json.loads(re.search(r'data-words="([^"]*)"', page).group(1).replace("&quot;", '"')
                       .replace("&#x27;", "'").replace("&amp;", "&"))
    assert words["waiting_lecturer"] == "Warte auf die Lehrperson…"
    english = follow_page(base="/")
    assert '<html lang="en">' in english and "Explore from here" in english


def test_a_refused_edit_is_said_in_the_page_s_language():
    from explorer.app.perceptron.model import PerceptronModel

    m = PerceptronModel()
    with i18n.using("de"):
        assert not m.add_point(0.0, 0.0, 3)
        assert m.message == ("Nicht übernommen: die Klasse eines neuen Punktes muss +1 oder -1 "
                             "sein; erhalten: 3.")
        assert not m.update(eta="abc")
        assert m.message == ("Nicht übernommen: η muss eine Zahl > 0 sein; erhalten: 'abc'. "
                             "Die bisherigen Einstellungen wurden behalten.")
        assert m.update(eta="0,25") and m.eta == 0.25  # typed in German
    assert not m.add_point(0.0, 0.0, 3)
    assert m.message == "Not applied: a new point's class must be +1 or -1; got 3."


def test_a_refusal_declared_once_is_said_in_the_language_of_the_moment():
    from explorer.app.cover.model import RUNNING

    assert RUNNING.text == "Not applied: a Monte Carlo run is already going; Stop it first."
    with i18n.using("es"):
        assert RUNNING.text == ("No aplicado: ya hay una ejecución de Monte Carlo en marcha; "
                                "deténgala primero.")
    assert Refusal(why="").text == "Not applied: ."  # no header of the catalog


def test_chinese_sentences_follow_each_other_without_a_space():
    with i18n.using("zh"):
        assert Refusal(why="x", kept="settings").text == "未应用：x。已保留之前的设置。"
        assert SPEC.from_json(b"{")[1] == [
            "未使用该文件：不是有效的 JSON（第 1 行，第 2 列）。显示默认值。"]
    assert i18n.sentences(["A.", "", "B."]) == "A. B."
