"""The figures of the Margins, Cover, XOR and Generalization tabs in the page's language (issue
35): each figure's scene, built in German, Swedish or Chinese, carries the catalog's words for
its panels' headings, its legends, its notes, its narration and its status line; English is
the code's own text, unchanged; and a matplotlib export (SVG) carries the translated heading.

Every expectation is the catalog's translation of the English text (``i18n.tr`` under
``i18n.using``), filled in as the figure fills it, never a copy of a translation.
"""

import io
import re

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from test_margins_figure import _cached

from explorer import cover, xor
from explorer import generalization as G
from explorer.margins import gap_words
from explorer.perceptron import train
from explorer.plots import MarginsFigure
from explorer.plots.cover import CoverFigure
from explorer.plots.generalization import GeneralizationFigure
from explorer.plots.recursion import RecursionFigure
from explorer.plots.xor import XorFigure
from explorer.shared import i18n
from explorer.shared.i18n import tr, tr_n
from explorer.shared.number_format import number_text

W, H = 1040, 547
LANGS = ["de", "sv", "zh"]


@pytest.fixture(autouse=True)
def english():
    i18n.set_language(i18n.DEFAULT)
    yield
    i18n.set_language(i18n.DEFAULT)


def _headings(scene) -> dict:
    return {p.name: p.heading for p in scene.panels}


def _pattern(template: str) -> re.Pattern:
    """A template's text with each placeholder standing for any text."""
    parts = re.split(i18n.PLACEHOLDER.pattern, template)
    return re.compile(".+?".join(re.escape(p) for p in parts), re.S)


def _translated(english: str, code: str) -> str:
    """The catalog's words for ``english`` in ``code``, which must differ from the English (a
    test of the language would otherwise pass on English text)."""
    with i18n.using(code):
        words = tr(english)
    assert words != english, f"{code} has no own words for {english!r}"
    return words


def _legend_texts(legend) -> list[str]:
    return [t.get_text() for t in legend.get_texts()]


def _svg_text(figure) -> str:
    buf = io.BytesIO()
    figure.savefig(buf, format="svg")
    return buf.getvalue().decode("utf-8")


# ---------------------------------------------------------------------------- builders
def _margins(code):
    X, y, cmp, sgd, path = _cached("soft")
    with i18n.using(code):
        mf = MarginsFigure()
        mf.set_data(X, y, cmp, path=path, sgd=sgd)
        mf.summary = "S"
        scene = mf.scene(width=W, height=H, chunk=8)
        chunk = mf.chunk(0)
    return mf, scene, chunk, (X, y, cmp, sgd)


def _cover(code, view):
    with i18n.using(code):
        f = Figure()
        FigureCanvasAgg(f)
        cf = CoverFigure(f)
        cf.set_view(view)
        if view == "curves":
            scene = cf.scene(width=W, height=H, run=(cover.cover_curves([2, 5]), "ratio", ()))
        else:
            X = np.array([[0.0, 0.0], [1.0, 0.2], [0.3, 1.0]])
            cf.plane.set_data(X)
            cf.bool_counts.set_data(cover.boolean_table(count_up_to=2))
            scene = cf.scene(width=W, height=H)
    return cf, scene


def _recursion(code):
    with i18n.using(code):
        f = Figure()
        FigureCanvasAgg(f)
        rf = RecursionFigure(f)
        rf.set_table(cover.recursion_table(3, 6))
        scene = rf.scene(width=W, height=H, chunk=8)
        chunk = rf.chunk(0)
    return rf, scene, chunk


_XOR = {}


def _xor(code, view):
    if "scene" not in _XOR:
        _XOR["scene"] = xor.build_scene(xor.XOR)
    with i18n.using(code):
        f = XorFigure()
        f.set_scene(_XOR["scene"], view)
        scene = f.scene(width=W, height=H, chunk=16)
        chunk = f.chunk(0)
    return f, scene, chunk


def _generalization(code):
    s = G.sample_margin(n=30, gamma=0.2, seed=3)
    X, y = np.array(s.X), np.array(s.y)
    traj = train(X, y, rule="margin", fit_intercept=False, max_epochs=50)
    curve = G.stability_curve(ns=(3, 10), trials=20, dim=2, gamma=0.3, seed=2)
    with i18n.using(code):
        f = GeneralizationFigure()
        f.set_stability(curve, ns=(3, 10), trials=20)
        f.set_run(X, y, traj)
        scene = f.scene(width=W, height=H, chunk=8)
        chunk = f.chunk(0)
    return f, scene, chunk


# ---------------------------------------------------------------------------- Margins
@pytest.mark.parametrize("code", LANGS)
def test_the_margins_figure_speaks_the_language(code):
    mf, scene, chunk, (X, y, cmp, sgd) = _margins(code)
    head = _headings(scene)
    with i18n.using(code):  # numbers as the language writes them (decimal comma in de, sv)
        C, m = number_text(cmp.C), number_text(cmp.svm_margin)
    soft = _translated("Soft margin, C = {C} (Sayed 61.11)", code).format(C=C)
    # a long title is shortened to fit its column (explorer.plots.live.fit_title)
    assert soft.startswith(head["plane"].rstrip("…")), (head["plane"], soft)
    assert head["duals"] in (_translated("Dual weights: w = Σ αᵢ yᵢ xᵢ (Sayed 61.44)", code),
                             _translated("Dual weights (Sayed 61.44)", code))
    assert head["objective"] == _translated("SGD objective (61.13)", code)
    assert head["path"] == _translated("Support path, Ex. 61.3", code)
    legend = _legend_texts(mf.plane.legend)
    assert _translated("support vectors, ring ∝ αᵢ", code) in legend
    assert _translated("class +1 / −1", code) in legend
    assert _translated("SVM, band f = ±1: 1/‖w‖ = {m}", code).format(m=m) in legend
    title = mf.plane.legend.get_title().get_text()
    assert title.startswith(_translated("C = {C}, in Sayed's terms (61.11, 61.13):", code)
                            .format(C=C))
    assert mf.objective.ax.get_xlabel() == _translated("step", code)
    assert _translated("training error R_emp", code) in _legend_texts(mf.path_panel.legend)
    # the narration of step 1 and the status line of step 0
    with i18n.using(code):
        gap = gap_words(sgd.objective_at(1), sgd.optimum, minus=True)
        said = tr("Step {k} of {n}: the SGD objective (Sayed (61.13)) is {gap} (the SVM with "
                  "C = {C}).").format(k=1, n=sgd.traj.n_steps, gap=gap,
                                      C=number_text(sgd.C))
        status = tr_n("SGD step {k} of {n} · {N} point", "SGD step {k} of {n} · {N} points",
                      len(X)).format(k=0, n=sgd.traj.n_steps, N=len(X))
    assert chunk.narration[1] == f"S. {said}"
    assert chunk.status[0] == status != f"SGD step 0 of {sgd.traj.n_steps} · {len(X)} points"


def test_the_margins_figure_in_more_features_names_its_plane_in_the_language():
    from explorer import margins

    rng = np.random.default_rng(0)
    X = rng.normal(size=(24, 3))
    y = np.where(X @ np.array([1.0, -1.0, 0.5]) + 0.2 >= 0, 1.0, -1.0)
    run = train(X, y, max_epochs=200)
    cmp = margins.compare(X, y, C=None, perceptron_w=run.final_w, perceptron_b=run.final_b)
    with i18n.using("de"):
        mf = MarginsFigure()
        mf.set_data(X, y, cmp)
        want = tr_n("{M} feature, in the plane of w", "{M} features, in the plane of w",
                    3).format(M=3)
    assert mf.plane.ax.get_title("left").startswith(want)
    assert mf.plane.ax.get_xlabel() == _translated("along w (exact distance)", "de")
    assert mf.plane.ax.get_ylabel() == _translated("across w", "de")
    assert want != "3 features, in the plane of w"
    assert mf.plane.view.words()[0] == "3 features, in the plane of w"  # English again


def test_the_margins_figure_in_english_is_unchanged():
    mf, scene, chunk, (X, y, cmp, sgd) = _margins("en")
    head = _headings(scene)
    C = number_text(cmp.C)
    assert f"Soft margin, C = {C} (Sayed 61.11)".startswith(head["plane"].rstrip("…"))
    assert head["objective"] == "SGD objective (61.13)"
    assert head["path"] == "Support path, Ex. 61.3"
    legend = _legend_texts(mf.plane.legend)
    assert legend[0] == "class +1 / −1" and "support vectors, ring ∝ αᵢ" in legend
    assert mf.plane.legend.get_title().get_text().startswith(
        f"C = {C}, in Sayed's terms (61.11, 61.13):\nη = N·C = ")
    assert chunk.status[0] == f"SGD step 0 of {sgd.traj.n_steps} · {len(X)} points"
    assert re.fullmatch(r"S\. Step 1 of \d+: the SGD objective \(Sayed \(61\.13\)\) is .+ \(the "
                        r"SVM with C = 1\)\.", chunk.narration[1])
    assert mf.side_rows() == ("Dual weights", "SGD, path")


# ---------------------------------------------------------------------------- Cover
@pytest.mark.parametrize("code", LANGS)
def test_the_cover_figure_speaks_the_language(code):
    cf, scene = _cover(code, "curves")
    title = _translated("Cover's theorem: P(M, N) = S(M, N) / 2ᴺ  (Sayed (60.65), (60.78); "
                        "Cover 1965)", code)
    assert title.startswith(_headings(scene)["curves"].rstrip("…"))
    assert cf.curves.ax.get_ylabel() == _translated("P(M, N), fraction separable", code)
    assert cf.curves.ax.get_xlabel() == _translated(
        "N / (M + 1)   (capacity at 2: N = 2(M + 1), Sayed (60.81))", code)
    assert _translated("P = 1/2 at N = 2(M+1)", code) in _legend_texts(cf.curves.legend)
    cf, scene = _cover(code, "dichotomies")
    assert _headings(scene)["plane"] == _translated("Points (click to place)", code)
    cf, scene = _cover(code, "boolean")
    assert _headings(scene)["bool_counts"] == _translated("Boolean functions of M inputs", code)
    assert _translated("separable, counted here", code) in _legend_texts(cf.bool_counts.legend)


@pytest.mark.parametrize("code", LANGS)
def test_the_recursion_table_speaks_the_language(code):
    rf, scene, chunk = _recursion(code)
    assert rf.ax.get_title("left") == _translated(
        "S(M, N), filled by S(M, N + 1) = S(M, N) + S(M − 1, N)  (Sayed (60.73))", code)
    assert chunk.narration[0] == _translated(
        "The edges are filled: S(M, 1) = 2 and S(0, N) = 2. Step to fill each cell from the "
        "two cells to its left: S(M, N + 1) = S(M, N) + S(M − 1, N) (Sayed (60.73)).", code)
    with i18n.using(code):
        status = tr_n("{k} of {n} cell filled by the recursion (60.73)",
                      "{k} of {n} cells filled by the recursion (60.73)",
                      scene.n_steps).format(k=1, n=scene.n_steps)
        closed = tr("{sum}; Cover's closed form gives {count}.")
    assert chunk.status[1] == status
    assert _pattern(closed).fullmatch(chunk.narration[1])


def test_the_cover_figures_in_english_are_unchanged():
    cf, scene = _cover("en", "curves")
    assert "Cover's theorem: P(M, N) = S(M, N) / 2ᴺ  (Sayed (60.65), (60.78); Cover 1965)" \
        .startswith(_headings(scene)["curves"].rstrip("…"))
    assert _legend_texts(cf.curves.legend)[-2:] == ["P = 1/2 at N = 2(M+1)",
                                                    "P at N = ⌈2.5(M+1)⌉"]
    rf, scene, chunk = _recursion("en")
    assert chunk.status[1] == f"1 of {scene.n_steps} cells filled by the recursion (60.73)"
    assert re.fullmatch(r"S\(1, 2\) = S\(1, 1\) \+ S\(0, 1\) = 2 \+ 2 = 4; Cover's closed form "
                        r"gives 4\.", chunk.narration[1])


# ---------------------------------------------------------------------------- XOR
@pytest.mark.parametrize("code", LANGS)
def test_the_xor_figure_speaks_the_language(code):
    f, scene, chunk = _xor(code, "cycling")
    head = _headings(scene)
    assert head["updates"] == _translated("Updates so far", code)
    assert head["wrong"] == _translated("Training points wrong so far", code)
    fn = xor.function(xor.XOR)
    assert head["plane"] == _translated("{name} ({bits}), inputs {coding}", code).format(
        name=fn.name, bits=fn.bits, coding="±1")
    legend = _legend_texts(f.legend)
    assert _translated("classic iterate", code) in legend
    assert _translated("point visited", code) in legend
    assert _legend_texts(f.err_legend) == [_translated("current iterate (steps 0 to k only)",
                                                       code),
                                           _translated("pocket (best so far)", code)]
    note = _translated("Bound: no margin exists (the hulls meet),\nso Novikoff's H²/γ² (Sayed "
                       "Lemma 60.1) gives\nno limit: the updates never stop.", code)
    assert f.bound_note.get_text() == note
    with i18n.using(code):
        assert f.side_rows() == (tr("Updates"), tr("Points wrong"))
    f, scene, chunk = _xor(code, "proof")
    assert _pattern(_translated(
        "No line separates {name}: the LP's certificate, the point {point}, is an average of "
        "the +1 corners and also of the −1 corners, so the two hulls cross there (the linear "
        "program of separability, Sayed P60.4–P60.6).", code)).fullmatch(chunk.narration[0])
    assert _translated("in both hulls", code) in _legend_texts(f.legend)
    f, scene, chunk = _xor(code, "kernel")
    head = _headings(scene)
    assert head["duals"] == _translated("Dual weights αᵢ: f(x) = Σ αᵢ yᵢ K(xᵢ, x)", code)
    assert head["kernel_updates"] == _translated("Kernel perceptron: updates so far", code)
    assert _pattern(_translated(
        "Kernel perceptron, K(x, x') = (⟨x, x'⟩ + {c})^{degree}, step {k} of {n}: α = {alpha}, "
        "{right} of 4 right.", code)).fullmatch(chunk.narration[1])
    f, scene, chunk = _xor(code, "layers")
    assert _headings(scene)["hidden"] == _translated("Hidden layer and the output unit's line",
                                                     code)
    f, scene, chunk = _xor(code, "feature")
    assert _pattern(_translated(
        "Step {k} of {n} of the perceptron on (x₁, x₂, x₁·x₂): w = {w}, b = {b}; {wrong} of 4 "
        "on the wrong side. In the plane its boundary is {boundary} = 0 (Hardt & Recht, ch. 3: "
        "add the product to the features).", code)).fullmatch(chunk.narration[0])


def test_the_xor_figure_in_english_is_unchanged():
    f, scene, chunk = _xor("en", "cycling")
    head = _headings(scene)
    assert (head["plane"], head["updates"], head["wrong"]) == (
        "XOR (0110), inputs ±1", "Updates so far", "Training points wrong so far")
    assert _legend_texts(f.upd_legend) == ["updates, steps 0 to k only", "the cycle, once found"]
    assert f.ax_upd.get_xlabel() == "step" and f.ax_upd.get_ylabel() == "updates"
    f, scene, chunk = _xor("en", "kernel")
    assert re.fullmatch(r"Kernel perceptron, K\(x, x'\) = \(⟨x, x'⟩ \+ 1\)\^2, step 1 of \d+: "
                        r"α = \(.*\), \d of 4 right\.", chunk.narration[1])


# ---------------------------------------------------------------------------- Generalization
@pytest.mark.parametrize("code", LANGS)
def test_the_generalization_figure_speaks_the_language(code):
    f, scene, chunk = _generalization(code)
    head = _headings(scene)
    assert head["losses"] == _translated("Surrogate losses of z = y·f(x)", code)
    title = _translated("Fresh-point margin mistakes vs the stability bound", code)
    assert title.startswith(head["stability"].rstrip("…"))
    assert f.risk.ax.get_title("left") == _translated("Empirical risk vs test error", code)
    assert f.risk.empty.get_text() == _translated(
        "not computed yet:\ntraining and test errors\nshow here once computed", code)
    assert _translated("squared (1 − z)²/2", code) in _legend_texts(f.losses.legend)
    assert _translated("measured zero-one error", code) in _legend_texts(f.stability.legend)
    assert f.losses.ax.get_ylabel() == _translated("loss", code)
    with i18n.using(code):
        template = tr("Step {k} of {n}: mean training losses {means}.")
        status = tr("step {k} of {n} · {points} points · {updates} updates").format(
            k=0, n=f.traj.n_steps, points=len(f.X), updates=f.traj.n_updates)
        hinge = tr("hinge")
    assert _pattern(template).fullmatch(chunk.narration[1]), chunk.narration[1]
    assert f" {hinge} " in chunk.narration[1]
    assert chunk.status[0] == status


def test_the_generalization_figure_in_english_is_unchanged():
    f, scene, chunk = _generalization("en")
    assert _headings(scene)["losses"] == "Surrogate losses of z = y·f(x)"
    assert _legend_texts(f.losses.legend)[0] == "zero-one 1{z ≤ 0}"
    assert re.fullmatch(r"Step 1 of \d+: mean training losses zero-one [0-9.e−]+, perceptron "
                        r"[0-9.e−]+, hinge [0-9.e−]+, squared [0-9.e−]+, logistic [0-9.e−]+\.",
                        chunk.narration[1]), chunk.narration[1]
    assert chunk.status[0] == (f"step 0 of {f.traj.n_steps} · {len(f.X)} points · "
                               f"{f.traj.n_updates} updates")


# ---------------------------------------------------------------------------- exports
def test_a_matplotlib_export_carries_the_translated_headings():
    """The SVG a tab exports (matplotlib's ``savefig``, drawn in the language shown) writes
    each text with the words drawn (matplotlib notes every text drawn as paths)."""
    mf, *_ = _margins("de")
    with i18n.using("de"):
        svg = _svg_text(mf)
    assert tr_words("de", "SGD objective (61.13)") in svg and "SGD objective" not in svg
    f, *_ = _xor("zh", "cycling")
    with i18n.using("zh"):
        svg = _svg_text(f)
    assert tr_words("zh", "Updates so far") in svg and "Updates so far" not in svg
    g, *_ = _generalization("sv")
    with i18n.using("sv"):
        svg = _svg_text(g)
    assert tr_words("sv", "Surrogate losses of z = y·f(x)") in svg
    cf, _scene = _cover("de", "boolean")
    with i18n.using("de"):
        svg = _svg_text(cf)
    assert tr_words("de", "Boolean functions of M inputs") in svg


def tr_words(code, english):
    return _translated(english, code)


# ---------------------------------------------------------------------------- the tabs' words
def _narrated(query):
    from explorer.app.dashboard import Dashboard

    d = Dashboard(query=query)
    return d.active


def test_the_tabs_narrations_and_figure_titles_follow_the_link_s_language():
    """What the Cover, Margins and Generalization tabs say beside their figures (the tab
    fills the figure and writes the narration from the model) in the link's language."""
    v = _narrated("tab=cover&view=dichotomies&lang=de")
    with i18n.using("de"):
        said = tr_n("{N} point in general position: {count} of {total} dichotomies are "
                    "separable, as Cover's formula S(2, {N}) = {formula} says.",
                    "{N} points in general position: {count} of {total} dichotomies are "
                    "separable, as Cover's formula S(2, {N}) = {formula} says.", 4).format(
                        N=4, count=14, total=16, formula=14)
        title = tr("{count} of {total} separable {sign} S(2, {N})").format(
            count=14, total=16, sign="=", N=4)
    assert v.messages.text == said
    assert v.figure.tiles.ax.get_title("left") == title != "14 of 16 separable = S(2, 4)"
    v = _narrated("tab=cover&view=boolean&lang=sv")
    assert v.figure.bool_tiles.ax.get_title("left") == _translated("M = 2: 14 of 16 separable",
                                                                   "sv")
    v = _narrated("tab=margins&lang=es")
    with i18n.using("es"):
        n_sv = len(v.model.comparison.svm.support)
        words = tr_n("{n} support vector", "{n} support vectors", n_sv).format(n=n_sv)
        margin = tr("max margin 1/‖w‖ = {m}")
    assert f" · {words} · " in v.messages.text
    assert _pattern(margin).match(v.messages.text)
    with i18n.using("es"):
        N, n = len(v.figure.X), v.figure.sgd.traj.n_steps
        status = tr_n("SGD step {k} of {n} · {N} point", "SGD step {k} of {n} · {N} points",
                      N).format(k=0, n=n, N=N)
    assert v.timeline.status(0) == status != f"SGD step 0 of {n} · {N} points"
    v = _narrated("tab=generalization&lang=zh")
    assert v.messages.text.endswith(" " + _translated(
        "Stability simulation: no size finished yet", "zh") + ".")


def test_the_tabs_narrations_in_english_are_unchanged():
    v = _narrated("tab=cover&view=dichotomies&lang=en")
    assert v.messages.text == ("4 points in general position: 14 of 16 dichotomies are "
                               "separable, as Cover's formula S(2, 4) = 14 says.")
    assert v.figure.tiles.ax.get_title("left") == "14 of 16 separable = S(2, 4)"
    v = _narrated("tab=margins&lang=en")
    assert re.fullmatch(r"max margin 1/‖w‖ = [0-9.]+ · γ\(S\) = [0-9.]+ · perceptron's [0-9.]+ · "
                        r"\d+ support vectors · hinge Σsᵢ = [0-9.]+\. Step 0 of \d+: the SGD "
                        r"objective \(Sayed \(61\.13\)\) is .+ \(the SVM with C = 1\)\.",
                        v.messages.text), v.messages.text
    v = _narrated("tab=generalization&lang=en")
    assert v.messages.text.endswith(" Stability simulation: no size finished yet.")


def test_a_figure_laid_out_again_after_a_change_of_language_speaks_the_new_one():
    """A figure made in English and given its data again in German (what a tab does when it
    draws again) has German titles, labels and legends throughout: none is left from when its
    panels were made."""
    X, y, cmp, sgd, path = _cached("soft")
    mf = MarginsFigure()
    mf.set_data(X, y, cmp, path=path, sgd=sgd)
    f = XorFigure()
    f.set_scene(xor.build_scene(xor.XOR), "cycling")
    g, *_ = _generalization("en")
    rf, *_ = _recursion("en")
    cf, _ = _cover("en", "boolean")
    assert mf.objective.ax.get_title("left") == "SGD objective (61.13)"
    with i18n.using("de"):
        mf.set_data(X, y, cmp, path=path, sgd=sgd)
        mf_scene = mf.scene(width=W, height=H)
        f.set_scene(f.xor_scene, "cycling")
        g.set_stability(g.stability.curve, ns=(3, 10), trials=20)
        g.set_risk(None)
        g.set_run(g.X, g.y, g.traj)
        rf.set_table(rf.table)
        cf.bool_counts.set_data(cover.boolean_table(count_up_to=2))
        cf.plane.set_data(cf.plane.X)
    head = _headings(mf_scene)
    assert head["objective"] == _translated("SGD objective (61.13)", "de")
    assert head["duals"] == _translated("Dual weights: w = Σ αᵢ yᵢ xᵢ (Sayed 61.44)", "de")
    assert head["path"] == _translated("Support path, Ex. 61.3", "de")
    assert mf.duals.ax.get_xlabel() == _translated("support vector (point number)", "de")
    assert _legend_texts(mf.path_panel.legend)[1] == _translated("training error R_emp", "de")
    assert mf.path_panel.legend.get_title().get_text() == _translated(
        "error ≤ #SV/N (Sayed 61.29)", "de")
    assert _legend_texts(mf.objective.legend)[0].replace("\n", " ") == _translated(
        "P = ρ‖w‖² + mean hinge, along the whole run", "de")
    assert f.ax_upd.get_title("left") == _translated("Updates so far", "de")
    assert f.ax_err.get_ylabel() == _translated("wrong", "de")
    assert _legend_texts(f.upd_legend) == [_translated("updates, steps 0 to k only", "de"),
                                           _translated("the cycle, once found", "de")]
    assert f.ax_kupd.get_title("left") == _translated("Kernel perceptron: updates so far", "de")
    assert g.losses.ax.get_title("left") == _translated("Surrogate losses of z = y·f(x)", "de")
    assert _translated("hinge max(0, 1 − z)", "de") in _legend_texts(g.losses.legend)
    assert g.stability.ax.get_xlabel() == _translated("training set size n", "de")
    assert _translated("VC bound (expected error, lecture notes)", "de") in _legend_texts(
        g.stability.legend)
    assert g.risk.ax.get_xlabel() == _translated("error rate (%)", "de")
    assert rf.note.get_text() == _translated(
        "Grey: the edges S(M, 1) = 2 and S(0, N) = 2. Outlined: the cell just filled; shaded: "
        "its two summands. Where N ≤ M + 1 every dichotomy is separable: S = 2ᴺ (Sayed "
        "(60.77)).", "de")
    assert cf.bool_counts.ax.get_ylabel() == _translated("log₂ of the count (log scale)", "de")
    assert _legend_texts(cf.bool_counts.legend)[0] == _translated("all functions 2^(2^M)", "de")
    assert cf.plane.ax.get_title("left") == _translated("Points (click to place)", "de")
