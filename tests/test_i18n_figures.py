"""The Perceptron tab's figure in the page's language (issue 35): its narration, status lines,
headings, legends and axis labels come from the catalogs, its numbers take the language's
decimal mark, English is unchanged, and a change of language draws the figure again in the new
language at the same state and step."""

import io

import pytest
from PIL import Image

from explorer.perceptron import train
from explorer.perceptron.replay import describe_run, frame, status_text
from explorer.shared import datasets, i18n
from explorer.shared.number_format import number_text


@pytest.fixture(autouse=True)
def english():
    i18n.set_language(i18n.DEFAULT)
    yield
    i18n.set_language(i18n.DEFAULT)


@pytest.fixture(scope="module")
def koski():
    """Koski's worked example (the run test_replay checks by hand)."""
    ds = datasets.load("koski")
    return ds, train(ds.X, ds.y, eta=0.2, w0=[1, 0.5], order=[4, 2, 0, 1, 3, 5])


# ---------------------------------------------------------------------------- numbers
def test_numbers_take_the_language_s_decimal_mark():
    values = (-1.0345, 0.884, 2.0, -0.0, 1e-17, 123456.0, float("inf"))
    english = [number_text(x) for x in values]
    assert english == ["−1.03", "0.884", "2", "0", "1e−17", "1.23e+05", "∞"]
    for code in ("sv", "de", "es", "qps"):
        with i18n.using(code):
            assert [number_text(x) for x in values] == [
                "−1,03", "0,884", "2", "0", "1e−17", "1,23e+05", "∞"]
    with i18n.using("zh"):
        assert [number_text(x) for x in values] == english


def test_a_vector_keeps_its_components_apart_in_a_comma_language():
    from explorer.perceptron.replay.narration import vector_text

    assert vector_text([-1.0345, 0.884]) == "(−1.03, 0.884)"
    with i18n.using("sv"):
        assert vector_text([-1.0345, 0.884]) == "(−1,03; 0,884)"
        assert vector_text([0.5, 1, 2, 3, 4]) == "(0,5; 1; 2; … 5 komponenter)"
    with i18n.using("de"):
        assert vector_text([0.5, 1, 2, 3, 4]) == "(0,5; 1; 2; … 5 Komponenten)"


def test_links_json_and_csv_do_not_write_numbers_for_a_reader():
    """The locale-neutral writers never call number_text (a Swedish link opens the same state
    in an English page)."""
    from pathlib import Path

    app = Path(__file__).resolve().parent.parent / "explorer" / "app"
    for name in ("state_field.py", "state.py", "tab_model.py", "playlist.py", "export.py",
                 "upload.py"):
        assert "number_text" not in (app / name).read_text(encoding="utf-8"), name
    from explorer.app.perceptron.model import SPEC

    state = {**SPEC.defaults(), "eta": 0.25, "w0": [0.5, -1.5]}
    with i18n.using("sv"):
        swedish = SPEC.to_query(state)
    assert swedish == SPEC.to_query(state) and "0.25" in swedish


# ---------------------------------------------------------------------------- narration
EN = ["Start: w = (1, 0.5), b = 0. Each step visits one point and updates only if y·f(x) ≤ 0.",
      "Step 1, point 5 (2, −2), label −1: y·f(x) = −1 ≤ 0, so w ← w + η·y·x = (0.6, 0.9), "
      "b ← b + η·y = −0.2. Update 1.",
      "Step 2, point 3 (−2, 1), label +1: y·f(x) = −0.5 ≤ 0, so w ← w + η·y·x = (0.2, 1.1), "
      "b ← b + η·y = 0. Update 2."]
SV = ["Start: w = (1; 0,5), b = 0. Varje steg besöker en punkt och uppdaterar bara om "
      "y·f(x) ≤ 0.",
      "Steg 1, punkt 5 (2; −2), etikett −1: y·f(x) = −1 ≤ 0, alltså w ← w + η·y·x = (0,6; 0,9); "
      "b ← b + η·y = −0,2. Uppdatering 1.",
      "Steg 2, punkt 3 (−2; 1), etikett +1: y·f(x) = −0,5 ≤ 0, alltså w ← w + η·y·x = "
      "(0,2; 1,1); b ← b + η·y = 0. Uppdatering 2."]
DE = ["Start: w = (1; 0,5), b = 0. Jeder Schritt besucht einen Punkt und aktualisiert nur, wenn "
      "y·f(x) ≤ 0.",
      "Schritt 1, Punkt 5 (2; −2), Label −1: y·f(x) = −1 ≤ 0, also w ← w + η·y·x = (0,6; 0,9); "
      "b ← b + η·y = −0,2. Aktualisierung 1.",
      "Schritt 2, Punkt 3 (−2; 1), Label +1: y·f(x) = −0,5 ≤ 0, also w ← w + η·y·x = "
      "(0,2; 1,1); b ← b + η·y = 0. Aktualisierung 2."]
ZH = ["开始：w = (1, 0.5)，b = 0。每一步访问一个点，仅当 y·f(x) ≤ 0 时更新。",
      "第 1 步，点 5 (2, −2)，标签 −1：y·f(x) = −1 ≤ 0，因此 w ← w + η·y·x = (0.6, 0.9)，"
      "b ← b + η·y = −0.2。第 1 次更新。",
      "第 2 步，点 3 (−2, 1)，标签 +1：y·f(x) = −0.5 ≤ 0，因此 w ← w + η·y·x = (0.2, 1.1)，"
      "b ← b + η·y = 0。第 2 次更新。"]


@pytest.mark.parametrize("code, want", [("en", EN), ("sv", SV), ("de", DE), ("zh", ZH)])
def test_the_worked_example_is_narrated_in_the_language(koski, code, want):
    ds, traj = koski
    with i18n.using(code):
        assert [frame(traj, ds.X, ds.y, k).text for k in range(3)] == want


def test_status_and_stop_lines_in_the_language(koski):
    ds, traj = koski
    info = describe_run(traj, ds.X, ds.y)
    last = traj.n_steps
    assert status_text(traj, 2, n_points=6, edited=True) == \
        "step 2 of 12 · 2 updates · 6 points (edited)"
    with i18n.using("sv"):
        assert status_text(traj, 2, n_points=6, edited=True) == \
            "steg 2 av 12 · 2 uppdateringar · 6 punkter (redigerade)"
        assert status_text(traj, 1, n_points=1) == "steg 1 av 12 · 1 uppdatering · 1 punkt"
        end = frame(traj, ds.X, ds.y, last, info=info).text
        assert end.endswith("Konvergerade efter 3 uppdateringar: ett helt varv gjorde ingen "
                            "uppdatering, så varje punkt har nu y·f(x) > 0.")
    with i18n.using("zh"):
        assert status_text(traj, 2, n_points=6) == "第 2 步，共 12 步 · 2 次更新 · 6 个点"


def test_the_non_separable_verdict_and_a_batch_in_german():
    ds = datasets.load("xor")
    traj = train(ds.X, ds.y, max_epochs=2, batch_size=2)
    info = describe_run(traj, ds.X, ds.y)
    with i18n.using("de"):
        end = frame(traj, ds.X, ds.y, traj.n_steps, info=info).text
        step = frame(traj, ds.X, ds.y, 1).text
    assert "Bei der Höchstzahl an Epochen (2) angehalten" in end
    assert "Die Daten sind nicht linear trennbar: Der Punkt (" in end
    assert "konvexen Hüllen beider Klassen" in end
    assert step.startswith("Schritt 1, Batch aus den Punkten 1, 2 (y·f(x) = ")
    assert "Stopped" not in end and "batch" not in step


# ---------------------------------------------------------------------------- figures
def _words(fig) -> list[str]:
    """Every text the figure shows: titles, axis labels, legends' entries, texts."""
    out = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        out += [ax.get_title(loc="left"), ax.get_xlabel(), ax.get_ylabel()]
        legend = ax.get_legend()
        if legend is not None:
            out += [t.get_text() for t in legend.get_texts()]
        out += [t.get_text() for t in ax.texts]
    return [w for w in out if w]


def test_the_figure_s_headings_legends_and_labels_in_swedish(koski):
    from explorer.plots import PerceptronFigure

    ds, traj = koski
    info = describe_run(traj, ds.X, ds.y)
    english = PerceptronFigure()
    english.set_run(traj, ds.X, ds.y, info)
    with i18n.using("sv"):
        fig = PerceptronFigure()
        fig.set_run(traj, ds.X, ds.y, info)
        fig.fit(1040, 544)
    en, sv = _words(english.fig), _words(fig.fig)
    assert {"Data plane", "Weight space", "Updates so far", "Convergence proof", "class +1",
            "boundary now", "step", "updates"} <= set(en)
    assert {"Dataplan", "Viktrum", "Uppdateringar", "Konvergensbevis", "klass +1",
            "gränsen nu", "uppdatering η·y·x", "steg", "uppdateringar",
            "uppdateringar u   (start: a = 0,744, c = 1,25)"} <= set(sv)
    assert not {"Data plane", "Weight space", "class +1", "boundary now"} & set(sv)
    assert any(w.startswith("grönt: versions") for w in sv), sv
    assert any("gräns (streckad) = 20,28" in w for w in sv), sv


def test_a_still_export_carries_the_translated_words(koski):
    """The PNG's metadata and picture, the SVG's: the narration in Swedish with decimal
    commas; the picture differs from the English one (its headings are other words)."""
    from explorer.plots.export import still_bytes
    from explorer.plots.frames import CaptionedFigure

    ds, traj = koski
    info = describe_run(traj, ds.X, ds.y)
    png_en = still_bytes(traj, ds.X, ds.y, k=1, info=info, dpi=40)
    with i18n.using("sv"):
        png = still_bytes(traj, ds.X, ds.y, k=1, info=info, dpi=40)
        svg = still_bytes(traj, ds.X, ds.y, k=1, info=info, fmt="svg", dpi=40).decode()
        cf = CaptionedFigure(traj, ds.X, ds.y, info=info, still=1)
        cf.show(1)
        titles = [ax.get_title(loc="left") for ax in cf.fig.axes if ax.get_visible()]
        caption = cf.step_text.get_text()
    meta = Image.open(io.BytesIO(png)).info
    assert meta["Title"] == "steg 1 av 12 · 1 uppdatering"
    assert meta["Description"].startswith("steg 1 av 12 · 1 uppdatering. Steg 1, punkt 5 (2; −2)")
    assert "(0,6; 0,9)" in meta["Description"]
    assert "Steg 1, punkt 5 (2; −2), etikett −1" in svg
    assert {"Dataplan", "Viktrum", "Uppdateringar", "Konvergensbevis"} <= set(titles)
    assert caption == "steg 1 av 12 · 1 uppdatering"
    assert Image.open(io.BytesIO(png_en)).info["Title"] == "step 1 of 12 · 1 update"
    assert png != png_en


# ---------------------------------------------------------------------------- the page
def _dashboard(query):
    from explorer.app.dashboard import Dashboard

    return Dashboard(query=query)


def _page_words(view):
    """The narration and status line of the step the page shows, from the chunk the page
    would ask for, and the figure's panel titles."""
    paged = view.paged
    k = paged.page.step
    chunk = paged.figure.chunk(k // paged.figure.page_scene.chunk)
    i = k - chunk.start
    titles = [ax.get_title(loc="left") for ax in paged.figure.fig.axes if ax.get_visible()]
    return chunk.narration[i], chunk.status[i], titles


def test_a_change_of_language_draws_the_figure_again_at_the_same_step():
    d = _dashboard("tab=perceptron&dataset=koski&eta=0.2&step=2")
    v = d.active
    run = v.paged._run
    text, status, titles = _page_words(v)
    assert text.startswith("Step 2, point") and status.startswith("step 2 of")
    assert "Weight space" in titles
    before = v.save_state()
    d.language.menu.value = "sv"
    assert v.paged._run > run  # a new scene went to the page
    assert v.paged.page.scene["keep"] is True  # the page stays at its step
    text_sv, status_sv, titles_sv = _page_words(v)
    assert text_sv.startswith("Steg 2, punkt") and "," in text_sv.split("y·f(x) = ")[1][:6]
    assert status_sv.startswith("steg 2 av")
    assert "Viktrum" in titles_sv and "Weight space" not in titles_sv
    assert v.save_state() == before and v.timeline.step == 2
    d.language.menu.value = "en"
    assert _page_words(v) == (text, status, titles)  # English again, identical


def test_a_tab_not_shown_speaks_the_new_language_when_shown_again():
    d = _dashboard("tab=perceptron&step=1")
    perceptron = d.active
    d.tabs.selected_index = 1  # the Margins tab: the Perceptron tab is not shown
    run = perceptron.paged._run
    d.language.menu.value = "de"
    assert perceptron.paged._run == run  # nothing drawn for a tab not shown
    d.tabs.selected_index = 0
    assert perceptron.paged._run > run
    text, status, titles = _page_words(perceptron)
    assert text.startswith("Schritt 1, Punkt") and status.startswith("Schritt 1 von")
    assert "Gewichtsraum" in titles


def test_a_scene_made_in_another_language_sets_the_figure_s_words_again(koski):
    """The mechanism every page figure shares (PageFigure.scene -> relabel): a figure made in
    English describes its next scene in Swedish, panel headings and chunks alike; and in
    English again, the same words as before."""
    from explorer.plots import PerceptronFigure

    ds, traj = koski
    fig = PerceptronFigure()
    fig.set_run(traj, ds.X, ds.y, describe_run(traj, ds.X, ds.y))
    scene = fig.scene(width=1040, height=544)
    headings = {p.name: p.heading for p in scene.panels}
    chunk = fig.chunk(0)
    assert headings["weights"] == "Weight space" and chunk.narration[1].startswith("Step 1,")
    with i18n.using("sv"):
        sv = fig.scene(width=1040, height=544)
        sv_chunk = fig.chunk(0)
    assert {p.name: p.heading for p in sv.panels} == {
        "plane": "Dataplan", "weights": "Viktrum", "mistakes": "Uppdateringar",
        "proof": "Konvergensbevis"}
    assert sv_chunk.narration[1].startswith("Steg 1, punkt 5 (2; −2)")
    assert sv_chunk.status[1] == "steg 1 av 12 · 1 uppdatering · 6 punkter"
    again = fig.scene(width=1040, height=544)
    assert {p.name: p.heading for p in again.panels} == headings
    assert fig.chunk(0).narration == chunk.narration and fig.chunk(0).status == chunk.status


@pytest.mark.parametrize("name, settings", [
    ("koski", dict(eta=0.2, w0=[1, 0.5])), ("xor", dict(max_epochs=2, batch_size=2)),
    ("separable", dict(rule="pocket", max_epochs=2)), ("and", dict(fit_intercept=False))])
def test_the_pseudo_language_reaches_every_word_of_the_perceptron_figure(name, settings):
    """In the pseudo-language every word of the figure (headings, axis labels, legends, notes)
    and of the narration and status lines is the catalogs' (pseudo-translated); what is left
    is mathematics (w, η·y·x, ⟨w*, w_u⟩), with no English word in it."""
    import re

    from explorer.plots import PerceptronFigure

    ds = datasets.load(name)
    traj = train(ds.X, ds.y, **settings)
    info = describe_run(traj, ds.X, ds.y)
    with i18n.using("qps"):
        fig = PerceptronFigure()
        fig.set_run(traj, ds.X, ds.y, info)
        fig.fit(1040, 544)
        fig.show(traj.n_steps)
        lines = [fig.frame(k).text for k in (0, 1, traj.n_steps)]
        lines += [fig.status(k) for k in (0, traj.n_steps)]
    def outside(text: str) -> str:  # what is left outside every translated ⟦…⟧
        while (shorter := re.sub("⟦[^⟦⟧]*⟧", "", text)) != text:
            text = shorter
        return text

    left = [outside(w) for w in _words(fig.fig) + lines]
    english = [w for w in left if re.search("[A-Za-z]{3}", w)]
    assert english == []


@pytest.mark.parametrize("code", ["en", *[c for c in i18n.LANGUAGES if c != "en"], "qps"])
def test_every_panel_heading_stays_inside_the_figure(koski, code):
    """A heading longer in another language (the pseudo-language's 40 % longer ones too) is
    given smaller type down to the readable size, within its column: at lecture mode's type
    scale in a 1024-px window, no heading of a language offered runs out of the figure (the
    pseudo-language's may, by at most its longer words: the overflow test of issue 35)."""
    from explorer.plots import PerceptronFigure
    from explorer.plots import mpl_adapter as mpl
    from explorer.plots.tracks import figure_renderer

    ds, traj = koski
    with i18n.using(code):
        fig = PerceptronFigure()
        fig.set_run(traj, ds.X, ds.y, describe_run(traj, ds.X, ds.y))
        fig.fit(950, 470, scale=1.35)
    renderer = figure_renderer(fig.fig)
    out = {mpl.left_title(p.ax).get_text(): mpl.left_title(p.ax).get_window_extent(renderer).x1
           - fig.fig.bbox.width for p in fig.panels if p.ax.get_visible()}
    if code != "qps":
        assert max(out.values()) <= 1, out
    assert all(mpl.left_title(p.ax).get_fontsize() >= 13 for p in fig.panels), out
