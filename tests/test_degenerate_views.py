"""Degenerate data through the views, as a user gives them: pasted CSV text, "Use pasted data",
then the last step. One class, identical points, collinear points, zero vectors, data separable
only through the origin or only with an offset, coordinates of size 1e-12 and 1e12, and XOR
played to the view's step cap. Each view must survive (no exception, also none swallowed by a
button's callback), draw a figure with nothing infinite in it, and say on screen what is going
on, in the words checked here.

The data sets are those of ``tests/test_degenerate.py`` (the core's checks of the same cases).
"""

from __future__ import annotations

import html
import logging
import math

import numpy as np
import pytest
from matplotlib.text import Text  # noqa: E402
from test_degenerate import DATA, SEP  # noqa: E402

from explorer.app.cover import CoverView  # noqa: E402
from explorer.app.margins import SPEC as MARGINS_SPEC  # noqa: E402
from explorer.app.margins import MarginsView  # noqa: E402
from explorer.app.messages import _strip  # noqa: E402
from explorer.app.perceptron.model import MAX_VIEW_STEPS  # noqa: E402
from explorer.app.perceptron.view import PerceptronView  # noqa: E402
from explorer.cover import counting  # noqa: E402

#: Inside the views' coordinate limit (±1e12), unlike DATA["huge"] (up to 1.15e12).
HUGE_INSIDE = (SEP.X * 0.8e12, SEP.y)
CASES = {**DATA, "huge inside": HUGE_INSIDE}

# What each view says, per case: phrases that must all be on screen ("refused: ..." ones in the
# refusal line). Perceptron: keyed by fit_intercept; Margins: by hard margin.
REFUSED = "refused: "
PERCEPTRON = {
    "one class": {True: [REFUSED + "only one class",
                         REFUSED + "so both are needed (-1 and +1, or 0 and 1)"],
                  False: [REFUSED + "only one class"]},
    "identical": {
        True: ["The data are not linearly separable",
               "Points 1, 2, 3 and 4 are the same point (1, 1) with both labels"],
        False: ["not separable through the origin",
                "Points 1, 2, 3 and 4 are the same point (1, 1) with both labels"]},
    "collinear separable": {
        True: ["Converged after", "All 4 points lie on one line: a separating line only has to "
               "cross it between the two classes"],
        False: ["not separable through the origin",
                "Point 1 is at the origin: with no offset every line through the origin passes "
                "through it", "tick 'fit offset b'"]},
    "collinear alternating": {
        True: ["The data are not linearly separable",
               "All 3 points lie on one line and the labels change more than once along it"],
        False: ["not separable through the origin", "Point 1 is at the origin"]},
    "zero vectors": {
        True: ["The data are not linearly separable",
               "Points 1, 2 and 3 are the same point (0, 0) with both labels"],
        False: ["not separable through the origin", "Points 1, 2 and 3 are at the origin"]},
    "through origin": {True: ["Converged after"], False: ["Converged after"]},
    "offset needed": {
        True: ["Converged after", "All 4 points lie on one line"],
        False: ["not separable through the origin",
                "No line through the origin separates these data, but a line with an offset "
                "does; tick 'fit offset b'"]},
    # with the offset: the bound's solver refuses the scale (see _tiny_with_offset)
    "tiny": {False: ["Converged after", "The points are up to 1.2e-12 from the origin: with no "
                     "offset the perceptron makes the same updates at any scale"]},
    "huge": {True: [REFUSED + "row 8, column 1 holds '1037338757654.1766'", REFUSED + "within ±1e+12",
                    REFUSED + "rescale"],
             False: [REFUSED + "within ±1e+12"]},
    "huge inside": {
        True: ["Converged after", "The points are up to 9.7e+11 from the origin: an update "
               "changes w·x by up to η·‖x‖² = "],  # the number: test_perceptron_tab
        False: ["Converged after", "makes the same updates at any scale"]},
    # the note says the run's cycle (issue 19, item 14)
    "xor": {True: ["The data are not linearly separable", "the updates never stop",
                   "The weights repeat: period 4 from step 0"],
            False: ["not separable through the origin", "the updates never stop",
                    "The weights repeat: period 4 from step 0"]},
}
#: Cases with nothing degenerate to remark beyond the narration: the note line stays empty.
NO_NOTE = {("through origin", True), ("through origin", False)}
#: Words that would be wrong for a case (a check that the remarks are not generic).
NOT_SAID = {("collinear alternating", False): "fit offset b",
            ("zero vectors", True): "at the origin"}

W_ZERO = "the soft margin at C = 1 ends at w = 0: no line is worth its cost"
PERCEPTRON_ZERO = "the perceptron ended at w = 0, so it draws no line"
NOT_SEPARABLE = "Hard margin impossible: the data are not linearly separable"
MARGINS = {
    "one class": {False: [REFUSED + "only one class"], True: [REFUSED + "only one class"]},
    "identical": {False: [W_ZERO, PERCEPTRON_ZERO, "Points 1, 2, 3 and 4 are the same point"],
                  True: [NOT_SEPARABLE, "Points 1, 2, 3 and 4 are the same point (1, 1)"]},
    # the gap from (1, 1) to (2, 2) is sqrt(2): margin sqrt(2)/2 (tests/test_degenerate.py)
    "collinear separable": {
        False: ["All 4 points lie on one line"],
        True: [f"max margin 1/‖w‖ = {math.sqrt(2) / 2:.3g}", "All 4 points lie on one line"]},
    "collinear alternating": {
        False: [W_ZERO, "All 3 points lie on one line and the labels change more than once"],
        True: [NOT_SEPARABLE, "labels change more than once"]},
    "zero vectors": {False: [W_ZERO, PERCEPTRON_ZERO, "Points 1, 2 and 3 are the same point (0, 0)"],
                     True: [NOT_SEPARABLE, "Points 1, 2 and 3 are the same point (0, 0)"]},
    "through origin": {False: ["max margin 1/‖w‖", "hinge Σsᵢ = 0."],
                       True: [f"max margin 1/‖w‖ = {math.sqrt(2):.3g}"]},
    "offset needed": {False: ["All 4 points lie on one line"],
                      True: ["max margin 1/‖w‖ = 0.5", "All 4 points lie on one line"]},
    "tiny": {False: ["Coordinates are up to 1.2e-12: C weighs the slacks against ‖w‖², so C = 1 "
                     "here acts as C = 1.3e-24 does on these data divided by 1.2e-12"],
             True: ["max margin 1/‖w‖ = 2.72e-13", "the hard margin is the same at any scale"]},
    "huge": {False: [REFUSED + "within ±1e+12"], True: [REFUSED + "within ±1e+12"]},
    "huge inside": {
        False: [REFUSED + "the soft margin at C = 1 is beyond its solver",
                REFUSED + "tick 'hard margin' or rescale the data"],
        True: ["max margin 1/‖w‖ = 2.18e+11", "the hard margin is the same at any scale",
               "Sayed's Ex. 61.3 is not drawn: the solver takes C only up to C·max|x|² = 100000"]},
    "xor": {False: [W_ZERO, PERCEPTRON_ZERO], True: [NOT_SEPARABLE]},
}


def csv_text(X, y) -> str:
    """What a user pastes: a header, then x1, x2, label per row (full precision)."""
    rows = (f"{float(a)!r},{float(b)!r},{int(c)}" for (a, b), c in zip(X, y, strict=True))
    return "x1,x2,label\n" + "\n".join(rows)


def paste(view, X, y, caplog) -> bool:
    """Paste the CSV text and press "Use pasted data"; fails on an exception the button's
    callback swallowed (ipywidgets logs it instead of raising)."""
    view.messages.clear_refusal()
    view.data_panel.paste.value = csv_text(X, y)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        view.data_panel.b_read.click()
    crashed = [r.getMessage() for r in caplog.records if "Exception in callback" in r.getMessage()]
    assert not crashed, crashed
    return not view.messages.refused and "<b>Loaded</b>" in view.data_panel.preview.value


def on_screen(view) -> str:
    """Everything the page shows in words: narration, refusal (prefixed), note, step line."""
    m = view.messages
    refused = REFUSED + m.refused if m.refused else ""
    return " | ".join([m.text, refused, note_of(view), view.timeline.status_text])



def assert_says(view, expect, name) -> None:
    """Each phrase is on screen; a phrase "refused: ..." in the refusal line."""
    text = on_screen(view)
    for phrase in expect:
        where = view.messages.refused if phrase.startswith(REFUSED) else text
        words = phrase.removeprefix(REFUSED)
        assert words in where, f"{name}: {words!r} not in {where!r}"

def _plain(markup: str) -> str:
    return html.unescape(_strip(markup))


def note_of(view) -> str:
    """The note line as shown ("" when hidden)."""
    m = view.messages
    return _plain(m.notice.value) if m.notice.layout.display != "none" else ""


def assert_figure_ok(view) -> None:
    """The figure draws in full; no artist holds an infinite coordinate (NaN breaks a line on
    purpose), no axis limit is non-finite, no visible text says nan or inf."""
    fig = view.figure.fig
    fig.canvas.draw()
    assert "Could not draw" not in view.messages.refused
    for ax in fig.axes:
        assert np.all(np.isfinite(ax.get_xlim())) and np.all(np.isfinite(ax.get_ylim()))
        for line in ax.lines:
            assert not np.isinf(np.asarray(line.get_xydata(), float)).any(), line
        for coll in ax.collections:
            assert not np.isinf(np.asarray(coll.get_offsets(), float)).any(), coll
    for t in fig.findobj(Text):
        words = t.get_text().lower().replace("−", "-")
        if t.get_visible() and words:
            assert "nan" not in words.split() and "inf" not in words.replace("info", ""), words
    rgba = np.asarray(fig.canvas.buffer_rgba())
    assert rgba[..., :3].std() > 5  # something is drawn


def to_the_end(view) -> int:
    assert view.handle_key("End")
    return view.timeline.step


@pytest.fixture(scope="module")
def perceptron():
    return PerceptronView()


@pytest.fixture(scope="module")
def margins():
    return MarginsView()


# ------------------------------------------------------------------------------ Perceptron tab
def _tiny_with_offset(view, loaded):
    """Tiny data with the offset: the max-margin solve behind the bound sees columns 1e-12 and 1
    (the offset's) and cannot give a bound, so the run is shown without one, the proof panel
    says why, and the note names the scale."""
    assert loaded, on_screen(view)
    assert "1.2e-12 from the origin" in note_of(view)
    info = view.model.info
    assert info.bound.value is None and info.proof is None
    assert info.note.startswith("no bound at this scale") and info.separable is True
    assert "no bound at this scale" in view.figure.mistakes.bound_text.get_text().replace("\n", " ")


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("fit", [True, False], ids=["offset", "no offset"])
def test_perceptron_tab(perceptron, caplog, name, fit):
    view = perceptron  # the user ticks "fit offset b" (or not), then pastes the data
    if view.w_fit.value is not fit:
        view.w_fit.value = fit
    if view.w_fit.value is not fit:  # refused for the data shown: start from the opening screen
        view.reset_settings()
        view.w_fit.value = fit
    X, y = CASES[name]
    before = view.model.X.copy()
    loaded = paste(view, X, y, caplog)
    m = view.model
    assert m.fit_intercept is fit
    if name == "tiny" and fit:
        _tiny_with_offset(view, loaded)
        return
    expect = PERCEPTRON[name][fit]
    refused = any(p.startswith(REFUSED) for p in expect)
    assert loaded is not refused, on_screen(view)
    if refused:
        assert np.array_equal(m.X, before)  # the data on screen are kept
    else:
        np.testing.assert_array_equal(m.X, X)
        assert to_the_end(view) == m.step == m.trajectory.n_steps
    text = on_screen(view)
    assert_says(view, expect, name)
    if not refused:
        assert f"step {m.trajectory.n_steps} of {m.trajectory.n_steps}" in text
        if (name, fit) in NO_NOTE:
            assert note_of(view) == "", note_of(view)
    if (name, fit) in NOT_SAID:
        assert NOT_SAID[name, fit] not in text
    if name == "huge inside" and fit:
        R = np.linalg.norm(X, axis=1).max()
        assert f"η·‖x‖² = {m.eta * R ** 2:.2g} but b by only η = {m.eta:g}." in note_of(view)
    assert_figure_ok(view)


def test_perceptron_xor_played_to_the_step_cap(perceptron, caplog):
    view = perceptron
    view.reset_settings()
    assert paste(view, *DATA["xor"], caplog)
    view.text["max_epochs"].value = "100000"  # 400 000 steps asked for
    m = view.model
    assert m.max_epochs == 100_000 and m.trajectory.n_steps == MAX_VIEW_STEPS
    assert to_the_end(view) == MAX_VIEW_STEPS
    text = on_screen(view)
    assert f"The run was cut at {MAX_VIEW_STEPS:,} steps for the view." in note_of(view)
    assert f"Stopped at the step limit ({MAX_VIEW_STEPS})" in view.messages.text
    assert "The data are not linearly separable" in view.messages.text
    assert f"step {MAX_VIEW_STEPS} of {MAX_VIEW_STEPS} · {MAX_VIEW_STEPS} updates" in text
    assert_figure_ok(view)
    view.text["max_epochs"].value = "50"
    assert "cut at" not in note_of(view)  # the note goes with the cut


# ------------------------------------------------------------------------------ Margins tab
@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("hard", [False, True], ids=["soft C=1", "hard"])
def test_margins_tab(margins, caplog, name, hard):
    view = margins  # the user ticks "hard margin" (or not), then pastes the data
    if view.w_hard.value is not hard:
        view.w_hard.value = hard
    if view.w_hard.value is not hard:  # refused for the data shown (huge ones need the hard margin)
        assert view.load_state(MARGINS_SPEC.defaults() | {"hard": hard})
    assert view.w_hard.value is hard and view.model.C in (None, 1.0)
    X, y = CASES[name]
    before = view.model.X.copy()
    loaded = paste(view, X, y, caplog)
    m = view.model
    expect = MARGINS[name][hard]
    refused = any(p.startswith(REFUSED) for p in expect)
    assert loaded is not refused, on_screen(view)
    if refused:
        assert np.array_equal(m.X, before)
    else:
        np.testing.assert_array_equal(m.X, X)
        assert to_the_end(view) == m.step == m.n_steps
        assert (m.n_steps == 0) is hard  # the hard margin has no SGD run
    assert_says(view, expect, name)
    assert "inf" not in view.messages.text.replace("info", "") and "nan" not in view.messages.text
    assert "e-16" not in view.messages.text  # rounding noise is shown as 0
    if name == "through origin" and not refused:
        assert note_of(view) == ""
    assert_figure_ok(view)


def test_margins_huge_data_keep_the_c_path_the_solver_takes(margins, caplog):
    """Data of size 1e3: the soft margin at C = 0.01 is solved, and Sayed's Ex. 61.3 panel keeps
    the values of C with C·max|x|² within the solver's limit instead of refusing the data."""
    view = margins
    assert view.load_state(MARGINS_SPEC.defaults() | {"log_c": -2.0})
    X, y = SEP.X * 1e3, SEP.y
    assert paste(view, X, y, caplog)
    path = view.model.path
    limit = 1e5 / np.abs(X).max() ** 2
    assert path is not None and path.Cs.max() <= limit < 10 * path.Cs.max()
    assert f"Sayed's Ex. 61.3 stops at C = {path.Cs.max():.3g}: the solver" in note_of(view)
    assert_figure_ok(view)


# ------------------------------------------------------------------------------ Cover tab
@pytest.fixture(scope="module")
def cover():
    v = CoverView()
    v.w_view.value = "dichotomies"
    return v


def _click(view, x, y):
    """A click in the Cover plane, as the page sends it (explorer.app.pagefigure)."""
    view.page._on_msg(view.page, {"type": "pointer", "panel": "plane", "x": x, "y": y,
                                  "mode": view.page.pointer_mode}, [])


def test_cover_identical_points_clicked(cover):
    m = cover.model
    assert m.update(points=[0.2, 0.2])
    cover.w_click.value = "add"
    _click(cover, 0.2, 0.2)
    _click(cover, 0.2, 0.2)
    assert m.X.tolist() == [[0.2, 0.2]] * 3
    assert m.dich.count == counting.dichotomies(m.X).count == 2  # all +1 or all -1
    assert ("All 3 points are the same point, so every separable dichotomy gives them one label: "
            "2 of 8 dichotomies are separable, below Cover's S(2, 3) = 8, which assumes general "
            "position.") == cover.messages.text
    assert cover.figure.tiles.ax.get_title(loc="left").startswith("2 of 8 separable < S(2, 3)")


@pytest.mark.parametrize("name", ["collinear separable", "zero vectors", "through origin"])
def test_cover_degenerate_sets(cover, name):
    X = DATA[name][0] * 0.3  # inside the tab's box (±1.1)
    m = cover.model
    assert m.update(points=list(X.reshape(-1)))
    d = counting.dichotomies(X)
    N = len(X)
    formula = counting.cover_count(N, 2)
    assert m.dich.count == d.count
    text = cover.messages.text
    if name == "collinear separable":  # distinct points on a line: 2N cuts, fewer than S(2, N)
        assert d.count == 2 * N < formula
        assert text.startswith(f"All {N} points lie on one line, which a separating line crosses "
                               f"at most once: {2 * N} of {2 ** N} dichotomies are separable, "
                               f"below Cover's S(2, {N}) = {formula}")
    elif name == "zero vectors":
        assert d.count == 2 and text.startswith(f"All {N} points are the same point")
    else:
        assert d.general_position and text.startswith(f"{N} points in general position: "
                                                      f"{formula} of {2 ** N}")
    assert_figure_ok(cover)


def test_cover_one_coincident_pair_and_one_point(cover):
    m = cover.model
    assert m.update(points=[0.0, 0.0, 0.0, 0.0, 0.5, 0.2])
    assert m.dich.count == counting.dichotomies(m.X).count == 4
    assert cover.messages.text.startswith(
        "Not in general position (points 1 and 2 are the same point, which cannot carry two "
        "labels): 4 of 8 dichotomies are separable, below Cover's S(2, 3) = 8")
    assert m.update(points=[0.5, -0.5])
    assert cover.messages.text.startswith("1 point in general position: 2 of 2")
