"""The languages (issue 35): the catalogs are whole, the page's language is chosen as promised,
and a change of language keeps the state."""

import ast
import importlib.util
import re
import sys
from pathlib import Path

import ipywidgets as W
import pytest

from explorer.shared import i18n

ROOT = Path(__file__).resolve().parent.parent
LANGS = [c for c in i18n.LANGUAGES if c != i18n.DEFAULT]


def _catalogs():
    spec = importlib.util.spec_from_file_location("catalogs", ROOT / "scripts" / "catalogs.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("catalogs", mod)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def catalogs():
    return _catalogs()


@pytest.fixture(scope="module")
def template(catalogs):
    return catalogs.template()


@pytest.fixture(autouse=True)
def english():
    i18n.set_language(i18n.DEFAULT)
    yield
    i18n.set_language(i18n.DEFAULT)


# ---------------------------------------------------------------------------- the catalogs
@pytest.mark.parametrize("code", LANGS)
def test_every_message_is_translated_with_the_same_placeholders(catalogs, template, code):
    assert catalogs.problems(code, template) == []


def test_the_template_holds_the_code_s_messages(template):
    """``scripts/catalogs.py update`` was run after the last change of a marked string."""
    from babel.messages.pofile import read_po

    with open(ROOT / "explorer" / "locale" / "explorer.pot", "rb") as f:
        kept = {m.id for m in read_po(f) if m.id}
    assert {m.id for m in template if m.id} == kept


def _marked_literals():
    """Every string literal given to tr, N_ or tr_n in the package, f-strings' insides
    included (which the extractor does not read)."""
    found = []
    for path in (ROOT / "explorer").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in ("tr", "N_", "tr_n"):
                for arg in node.args[:2 if node.func.id == "tr_n" else 1]:
                    found.append((path, node.lineno, arg))
    return found


def test_every_marked_string_is_in_the_catalogs(template):
    ids = {i for m in template if m.id for i in (m.id if isinstance(m.id, tuple) else (m.id,))}
    missing = [f"{p.relative_to(ROOT)}:{line}" for p, line, arg in _marked_literals()
               if isinstance(arg, ast.Constant) and arg.value not in ids]
    assert missing == []
    # a call of tr on an f-string would look up a text no catalog has
    assert [f"{p.relative_to(ROOT)}:{line}" for p, line, arg in _marked_literals()
            if isinstance(arg, ast.JoinedStr)] == []
    assert len(_marked_literals()) >= 40


def test_a_translation_is_used_and_english_is_the_code_s_text():
    with i18n.using("sv"):
        assert i18n.tr("Lecture mode") == "Föreläsningsläge"
        assert i18n.tr("a text no catalog has") == "a text no catalog has"
    with i18n.using("zh"):
        assert i18n.tr_n("{n} visitor came before you, and you keep your place in the queue.",
                         "{n} visitors came before you, and you keep your place in the queue.",
                         3).format(n=3).startswith("有 3 位访客")
    with i18n.using("es"):
        assert i18n.tr_n("{n} page is starting for other visitors;",
                         "{n} pages are starting for other visitors;", 2).startswith("{n} páginas")
    assert i18n.tr("Lecture mode") == "Lecture mode"


def test_the_pseudo_language_is_longer_accented_and_keeps_placeholders():
    text = "The room is full: {taken} of {places} places are taken; <b>try</b> &amp; wait."
    p = i18n.pseudo(text)
    assert p.startswith("⟦") and p.endswith("⟧")
    assert i18n.PLACEHOLDER.findall(p) == ["{taken}", "{places}"]
    assert "<b>" in p and "</b>" in p and "&amp;" in p
    assert len(p) >= 1.3 * len(text)
    assert "à" in p and "room" not in p
    assert i18n.pseudo("3.14") == "3.14"  # no letters: nothing to translate


# ---------------------------------------------------------------------------- the choice
@pytest.mark.parametrize("requested, wanted, got", [
    ("sv", ["de-DE"], "sv"),                 # the link wins
    (None, ["de-DE", "sv"], "de"),           # else the browser's first offered
    (None, ["fr-FR", "es-419", "en"], "es"),
    (None, ["zh-TW"], "zh"),                 # every Chinese reads the simplified offered
    ("xx", ["sv-SE"], "sv"),                 # an unknown code in the link: the browser's
    (None, ["fr", "ja"], "en"),              # none offered: English
    (None, [], "en"),
    ("qps", [], "qps"),
])
def test_pick(requested, wanted, got):
    assert i18n.pick(requested, wanted) == got


def test_accept_language_is_read_by_weight_and_never_raises():
    assert i18n.accepted("de;q=0.5, sv-SE, en;q=0.8") == ["sv-SE", "en", "de"]
    assert i18n.accepted("fr;q=0, es") == ["es"]
    assert i18n.accepted("x y z;q=abc,,;q=1, *") == ["*"]
    assert i18n.accepted(None) == []


def test_query_lang():
    assert i18n.query_lang("tab=xor&lang=de") == "de"
    assert i18n.query_lang("?lang=zh&step=3") == "zh"
    assert i18n.query_lang("lang=sv&lang=de") is None
    assert i18n.query_lang("step=3") is None
    assert i18n.query_lang("%%%") is None


def test_set_language_refuses_what_is_not_offered():
    with pytest.raises(ValueError, match="lang must be one of en, sv, de, es, zh; got 'fr'"):
        i18n.set_language("fr")
    assert i18n.language() == "en"


# ---------------------------------------------------------------------------- the page
def _dashboard(query):
    from explorer.app.dashboard import Dashboard

    return Dashboard(query=query)


def test_the_link_s_language_labels_the_top_bar_and_stays_in_the_link():
    d = _dashboard("tab=perceptron&eta=0.5&lang=de")
    assert d.b_lecture.description == "Vorlesungsmodus"
    assert d.history.b_undo.description == "Rückgängig"
    assert d.tabs.titles[0] == "Perzeptron"
    assert d.share.description == "Link" and d.language.menu.value == "de"
    assert d.share.value.endswith("tab=perceptron&eta=0.5&lang=de")
    assert d.active.model.eta == 0.5  # lang= is not a setting of the tab: nothing refused
    assert "lang" not in d.active.messages.refusal.value


def test_changing_the_language_keeps_the_state_and_the_step():
    d = _dashboard("tab=perceptron&dataset=xor&step=3")
    before = d.active.save_state()
    assert before["step"] == 3 and d.b_settings.description == "Settings"
    d.language.menu.value = "es"
    assert d.b_settings.description == "Ajustes" and d.tabs.titles[1] == "Márgenes"
    assert d.asking.button.description == "Preguntar"
    assert d.active.save_state() == before
    assert d.share.value.endswith("&lang=es")
    d.language.menu.value = "en"
    assert d.b_settings.description == "Settings" and d.share.value.endswith("&lang=en")


def test_a_page_without_lang_follows_the_browser_unless_a_language_was_chosen():
    d = _dashboard("tab=perceptron")
    d.bridge.languages = ["sv-SE", "en"]
    assert d.b_lecture.description == "Föreläsningsläge"
    assert "lang=" not in d.share.value  # the browser's choice: not written into the link
    chosen = _dashboard("tab=perceptron&lang=en")
    chosen.bridge.languages = ["sv-SE"]
    assert chosen.b_lecture.description == "Lecture mode"


def test_a_link_with_an_unknown_language_says_so_in_english():
    d = _dashboard("tab=perceptron&lang=klingon")
    said = d.active.messages.refusal.value
    assert "not offered" in said and "klingon" in said and "English" in said
    assert d.b_lecture.description == "Lecture mode"


def test_the_pseudo_language_reaches_every_word_of_the_top_bar():
    d = _dashboard("lang=qps")
    words = [d.b_settings.description, d.b_lecture.description, d.history.b_undo.description,
             d.history.b_redo.description, d.asking.button.description,
             d.playlist.toggle.description, d.b_save.description, d.upload.description,
             d.share.description, *d.tabs.titles, d.b_lecture.tooltip, d.playlist.toggle.tooltip]
    assert all(w.startswith("⟦") for w in words), words


def _walk(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


def _settings_words(view):
    """Every word of the settings column a person reads as a label: each control's
    description, each section's heading, each label and each closed section's title (the
    parts built when first opened are built first)."""
    view.data_panel.build()
    view.export.build()
    words = []
    for w in _walk(view.shell.sidebar.children[0]):
        if getattr(w, "description", ""):
            words.append(w.description)
        if isinstance(w, W.Label) and w.value:
            words.append(w.value)
        if isinstance(w, W.HTML) and "pe-section" in w.value:
            words.append(re.sub(r"<[^>]*>", "", w.value))
        if isinstance(w, W.Accordion):
            words += list(w.titles)
    return words


def test_the_perceptron_settings_speak_german_and_english_again_keeping_state_and_step():
    d = _dashboard("tab=perceptron&dataset=xor&eta=0.5&step=3&lang=de")
    v = d.active
    c = v.controls
    assert [c["dim"].description, c["order"].description, c["fit_intercept"].description,
            c["max_epochs"].description, c["batch"].description, c["forget"].description] == \
        ["Merkmale", "Reihenfolge", "Schwellwert b lernen", "max. Epochen", "Batchgröße",
         "Vergessen γ"]
    assert c["dim"].tooltip.startswith("Wie viele Merkmale")  # a declared help
    assert c["w0"].placeholder == "0, 0 (leer = null)"
    assert v.w_dataset.description == "Daten" and v.b_zero.description == "Bei w = 0 beginnen"
    assert v.w_race.boxes["classic"].description == "Klassisches Perzeptron"
    words = _settings_words(v)
    assert {"Daten", "Regel", "Besuchsreihenfolge", "Teilen", "Alle Einstellungen",
            "Eigene Daten (CSV)", "CSV hochladen", "Abbrechen"} <= set(words)
    before = v.save_state()
    assert before["step"] == 3 and before["eta"] == 0.5
    d.language.menu.value = "en"
    assert [c["dim"].description, c["order"].description, c["fit_intercept"].description] == \
        ["features", "Order", "fit offset b"]
    assert v.w_dataset.description == "Data" and c["w0"].placeholder == "0, 0 (empty = zero)"
    assert {"Data", "Rule", "Visiting order", "Share", "All settings"} <= set(_settings_words(v))
    assert v.save_state() == before  # the state and the step kept
    assert v.timeline.step == 3
    # the link and the JSON name the fields as before, in every language
    assert "eta=0.5" in d.share.value and "dataset=xor" in d.share.value


def test_the_pseudo_language_reaches_every_label_of_the_perceptron_settings():
    d = _dashboard("tab=perceptron&lang=qps")
    words = _settings_words(d.active)
    formats = {"PNG", "SVG", "GIF", "HTML", "PNG · SVG · GIF · HTML"}  # file formats' names
    assert len(words) >= 40
    assert [w for w in words if not w.startswith("⟦") and w not in formats] == []


def test_the_timeline_s_buttons_follow_the_language():
    from explorer.app import labels
    from explorer.app.timeline import Timeline

    t = Timeline()
    assert t.b_reset.description == "Reset" and t.speed.description == "steps/s"
    i18n.set_language("es")
    labels.relabel()
    assert [t.b_reset.description, t.b_back.description, t.b_step.description,
            t.play.description, t.b_end.description, t.speed.description,
            t.slider.description] == ["Reiniciar", "◀ Atrás", "Paso ▶", "Reproducir", "Fin",
                                      "pasos/s", "paso"]
    assert t.b_cycle.tooltip.startswith("Primer paso del ciclo")


def test_hall_pages_in_every_language():
    from explorer.serving import hall

    for code in i18n.LANGUAGES:
        page = hall.full_page(taken=2, places=2, again="/?a=1&amp;b=2", lang=code)
        assert f'<html lang="{code}">' in page and 'href="/?a=1&amp;b=2"' in page
        assert ("2 of 2" in page) == (code == "en")
        wait = hall.starting_page(retry=5, why="<x>", again="/", lang=code)
        assert "&lt;x&gt;" in wait and 'content="5"' in wait
    assert "2 av 2 platser är tagna" in hall.full_page(taken=2, places=2, again="/", lang="sv")
    assert hall.page_language("tab=xor", "es-ES,es;q=0.9") == "es"
    assert hall.page_language("lang=zh", "es") == "zh"
    assert hall.page_language("", None) == "en"


@pytest.mark.parametrize("code", LANGS)
def test_the_catalog_compiled_in_memory_is_babel_s(template, code):
    """The page compiles a catalog with the standard library alone (Babel is not loaded by a
    page: less memory); its translations are those of Babel's own compiler."""
    import gettext
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with open(i18n.catalog_path(code), "rb") as f:
        buf = io.BytesIO()
        write_mo(buf, read_po(f, locale=code, domain=i18n.DOMAIN))
    buf.seek(0)
    theirs, ours = gettext.GNUTranslations(buf), i18n.catalog(code)
    for m in template:
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            for n in (0, 1, 2, 5, 21, 1_000_000):
                assert ours.ngettext(*m.id, n) == theirs.ngettext(*m.id, n), (m.id, n)
        else:
            assert ours.gettext(m.id) == theirs.gettext(m.id), m.id
    assert ours.gettext("Undo") != "Undo"  # translated, not the code's text


def test_a_page_s_catalogs_do_not_load_babel():
    import subprocess

    code = ("import sys; from explorer.shared import i18n\n"
            "[i18n.catalog(c).gettext('Undo') for c in i18n.LANGUAGES]\n"
            "print(any(m == 'babel' or m.startswith('babel.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
