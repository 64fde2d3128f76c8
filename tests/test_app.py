"""The Perceptron tab without a browser: widgets in, drawn artists and text out.

Each bug found in the lecture-room trial (issue 7) has a test here that failed on the old view.
"""

import html

import numpy as np
import pytest

from explorer.app import PerceptronModel, PerceptronView, dashboard  # noqa: E402
from explorer.app.dashboard import TABS  # noqa: E402
from explorer.app.pagefigure import Pointer  # noqa: E402
from explorer.app.perceptron.model import PARAMS, SPEC  # noqa: E402
from explorer.perceptron.rules import RULES  # noqa: E402
from explorer.shared.geometry import clip_line  # noqa: E402

KOSKI_STATES = [((1.0, 0.5), 0.0), ((0.6, 0.9), -0.2), ((0.2, 1.1), 0.0), ((0.5, 1.0), 0.2)]
KOSKI_PICKS = [None, 4, 2, 0]


@pytest.fixture
def view():
    return PerceptronView()


def _click(view, x, y, inside=True):
    """A click on the page's figure, as the page sends it: in the data plane's coordinates, or
    (``inside=False``) in another panel."""
    view._on_pointer(Pointer("plane" if inside else "weights", x, y, view.w_edit.value))


def _type(view, name, text):
    view.text[name].value = text


def test_koski_steps_drawn(view):
    m, tl = view.model, view.timeline
    assert m.dataset == "koski" and m.eta == 0.2 and m.trajectory.n_steps == 12
    for k, ((w, b), pick) in enumerate(zip(KOSKI_STATES, KOSKI_PICKS, strict=True)):
        if k:
            tl.act("step")
        assert m.step == k and tl.step == k and view.page.step == k
        expected = clip_line(np.array(w), b, view.figure.plane.box)
        np.testing.assert_allclose(view.drawn_line(), expected, atol=1e-9)
        offsets = view.figure.plane.picked.get_offsets()
        if pick is None:
            assert len(offsets) == 0
        else:
            np.testing.assert_allclose(offsets, m.X[[pick]])
            assert view.figure.plane.update.get_visible()
    assert view.messages.text.startswith("Step 3, point 1 (1.5, −0.5), label +1")
    tl.act("back")
    assert m.step == 2 and view.messages.text.startswith("Step 2, point 3")
    tl.act("reset")
    assert m.step == 0 and view.messages.text.startswith("Start")


def test_timeline_and_jumps_set_the_step(view):
    tl, m = view.timeline, view.model
    tl.go(7)
    assert m.step == 7 and "Step 7" in view.messages.text
    assert tl.n_steps == m.trajectory.n_steps == view.page.scene["n_steps"]
    tl.act("end")
    assert m.step == 12 and "Converged after 3 updates" in view.messages.text
    tl.act("reset")
    tl.act("next_update")
    tl.act("next_update")
    assert m.step == 2  # Koski's run updates at steps 1, 2 and 3
    tl.act("epoch_end")
    assert m.step == 6


def test_keys_move_the_run(view):
    for key in ("ArrowRight", "ArrowRight", "PageDown"):
        view.handle_key(key)
    assert view.model.step == 3
    view.handle_key("ArrowLeft")
    assert view.model.step == 2
    view.handle_key(" ")
    assert view.timeline.play.playing
    view.handle_key("r")
    assert view.model.step == 0 and not view.timeline.play.playing


@pytest.mark.parametrize("name,bad,good,words", [
    ("eta", "-1", "0.2", "η must be a number > 0"), ("eta", "0", "0.2", "η must be a number > 0"),
    ("eta", "", "0.2", "got an empty field"), ("eta", "abc", "0.2", "got 'abc'"),
    ("max_epochs", "0", "50", "max epochs must be a whole number"),
    ("max_epochs", "2.5", "50", "got '2.5'"),
    ("n", "2.5", "6", "n must be a whole number"),  # disabled on Koski's data: shows its 6
    ("eta", "1e308", "0.2", "η must be at most"),
    ("w0", "1e308, 1e308", "1, 0.5", "start w must be numbers"),
    ("w0", "1, x", "1, 0.5", "start w must be numbers"),
    ("w0", "1, 2, 3", "1, 0.5", "start w"),
    ("custom_order", "5, 3, 9", "5, 3, 1, 2, 4, 6", "sequence must list point numbers from 1 to 6"),
])
def test_bad_typed_values_are_refused_and_state_kept(view, name, bad, good, words):
    """Bug 4 ("2.5" read as 25, empty η reported as 0.0, messages naming w0/eta) and bug 3
    (1e308 accepted)."""
    view.timeline.act("step")
    traj = view.model.trajectory
    _type(view, name, bad)
    assert view.text[name].value.replace(" ", "") == good.replace(" ", "")
    assert "Not applied" in view.messages.refused and words in view.messages.refused
    assert "w0" not in view.messages.refused and "eta" not in view.messages.refused
    assert view.model.trajectory is traj and view.model.step == 1
    view.timeline.act("step")  # the next successful action clears the refusal
    assert view.messages.refused == ""


def test_overflowing_runs_are_refused_and_the_figure_survives(view):
    """Bug 3: typed values are bounded (above); a run whose weights still overflow (e.g. a
    loaded state's huge points) is refused by the model, and the figure keeps drawing."""
    m = view.model
    p = {k: getattr(m, k) for k in PARAMS}
    with pytest.raises(ValueError, match="overflow|at most 1e"):  # refused before the run
        m._build({**p, "w0": [1e200, 1e200]}, m.X, m.y, [])
    assert not m.set_state({**m.get_state(), "points": [(1e300, 1e300, 1), (-1e300, 2.0, -1)]})
    assert "Not applied" in view.messages.refused
    assert np.isfinite(view.drawn_line()).all() and view.timeline.n_steps == 12
    view.timeline.act("step")
    assert view.messages.text.startswith("Step 1")


def test_changing_data_or_rule_starts_at_step_zero(view):
    """Bug 1: a long run's step must not land on a shorter run's last step."""
    m, tl = view.model, view.timeline
    tl.go(10)
    view.w_dataset.value = "and"
    assert m.step == 0 and tl.step == 0 and view.page.step == 0
    assert view.messages.text.startswith("Start")
    tl.go(3)
    view.w_rule.value = "margin"
    assert m.step == 0 and tl.step == 0 and view.page.step == 0


def test_changing_dataset_and_rule(view):
    view.w_dataset.value = "separable"
    m = view.model
    assert m.order == "cyclic" and m.eta == 1.0 and len(m.X) == 40
    assert view.text["eta"].value == "1" and not view.text["n"].disabled
    _type(view, "n", "80")
    assert len(m.X) == 80
    view.w_rule.value = "margin"
    assert m.info.band == 1.0 and not view.text["forget"].disabled and view.text["rho"].disabled
    view.w_dataset.value = "xor"
    m.go(m.trajectory.n_steps)
    assert "not linearly separable" in view.messages.text  # bug 7: no hedging on XOR


def test_start_from_zero_button(view):
    assert not view.b_zero.disabled
    view.b_zero.click()
    assert view.model.w0 == [] and view.text["w0"].value == "" and view.b_zero.disabled
    assert view.model.info.proof is not None and view.model.info.bound.value is not None


def test_editing_points(view):
    m = view.model
    view.w_edit.value = "add+"
    _click(view, 0.5, -2.5)
    assert len(m.X) == 7 and m.y[-1] == 1 and m.step == 0 and m.edited
    assert "7 points (edited)" in view.timeline.status_text
    _click(view, 0, 0, inside=False)  # outside the axes: nothing happens
    assert len(m.X) == 7
    view.w_edit.value = "remove"
    _click(view, 0.5, -2.5)
    assert len(m.X) == 6
    _click(view, 0.0, 0.0)  # no point there
    assert len(m.X) == 6 and "no point there" in view.messages.refused
    for _ in range(2):  # remove two of the three -1 points ...
        _click(view, *m.X[m.y < 0][0])
    assert len(m.X) == 4 and (m.y < 0).sum() == 1
    _click(view, *m.X[m.y < 0][0])  # ... the last one is refused: one class only
    assert len(m.X) == 4 and "both classes" in view.messages.refused


def test_you_choose_reproduces_koski(view):
    m, tl = view.model, view.timeline
    view.w_edit.value = "choose"
    assert m.choose_mode and m.trajectory.n_steps == 0
    # bug 6: the timeline agrees with the status (step 0 of 0), and the failing points show
    assert tl.n_steps == 0 and view.page.transport["updates"] == []
    assert tl.status_text.startswith("step 0 of 0")
    for i in (4, 2, 0):
        _click(view, *m.X[i])
    assert m.chosen == [4, 2, 0] and m.step == 3 and tl.step == 3 and tl.n_steps == 3
    w, b = m.trajectory.state(3)
    np.testing.assert_allclose(w, [0.5, 1.0])
    assert "Every point now passes the test" in view.messages.text
    view.w_edit.value = "view"
    assert not m.choose_mode and m.trajectory.n_steps == 12


def test_grammar_of_the_status_line(view):
    """Bug 8: "1 updates", "1 points"."""
    view.timeline.act("step")
    assert view.timeline.status_text.startswith("step 1 of 12 · 1 update · 6 points")
    view.timeline.act("step")
    assert "2 updates" in view.timeline.status_text


def test_export_panel_is_cleared_when_the_run_changes(view):
    view.timeline.act("step")
    view.export.b_png.click()
    assert "data:image/png;base64," in view.export.links.value
    view.w_rule.value = "margin"
    assert "data:image" not in view.export.links.value


def test_state_round_trip_through_the_view(view):
    m = view.model
    view.w_dataset.value = "separable"
    _type(view, "eta", "0.5")
    view.w_edit.value = "add-"
    _click(view, 0.1, 0.2)
    view.timeline.go(5)
    state = view.save_state()
    query = SPEC.to_query(state)
    other = PerceptronView()
    values, problems = SPEC.from_query(query)
    assert problems == []
    assert other.load_state(values)
    o = other.model
    np.testing.assert_array_equal(o.X, m.X)
    assert (o.dataset, o.eta, o.step, o.edited) == ("separable", 0.5, 5, True)
    assert other.messages.text == view.messages.text
    np.testing.assert_allclose(other.drawn_line(), view.drawn_line())


def test_model_refuses_unknown_parameters():
    m = PerceptronModel()
    with pytest.raises(TypeError, match="unknown parameters"):
        m.update(colour="red")
    assert not m.update(rule="nope") and "rule must be one of" in m.message


def test_dashboard_has_the_perceptron_tab():
    d = dashboard(query="")
    assert d.tabs.titles == tuple(title for _, title, _ in TABS)
    assert d.tabs.titles[:2] == ("Perceptron", "Margins")
    assert isinstance(d.tabs.children[0], PerceptronView)


def test_the_page_gets_one_scene_per_run_and_nothing_for_a_step_it_drew(view):
    """The page draws the steps: a step it settled costs no message back to it; a step moved
    by the kernel (a key, a link) is one small message; a new run is one scene and its first
    chunks (issue 20)."""
    page = view.page
    sent = []
    original = page.send
    page.send = lambda content, buffers=None: (sent.append(content.get("type")),
                                               original(content, buffers))[1]
    run = page.scene["run"]
    page.step = 3  # as the page writes the step it shows, once settled
    assert view.model.step == 3 and sent == []
    assert view.messages.text.startswith("Step 3,")
    view.timeline.act("step")  # the kernel moves the step
    assert view.model.step == 4 and sent == ["go"]
    sent.clear()
    view.w_dataset.value = "xor"
    assert page.scene["run"] == run + 1 and sent == ["chunk"] * len(page.scene["pushed"])
    assert page.scene["n_steps"] == view.model.trajectory.n_steps


def test_animation_export_runs_beside_the_controls(view):
    """A GIF export works in the background: Step answers meanwhile, and the link arrives."""
    import time

    m = view.model
    view.w_dataset.value = "separable"  # a longer run than Koski's
    view.export.b_gif.click()
    assert view.export.busy
    t0 = time.perf_counter()
    view.timeline.act("step")
    assert m.step == 1 and time.perf_counter() - t0 < 2.0
    assert view.export.wait(120)
    assert "data:image/gif;base64," in view.export.links.value


def test_the_same_refusal_twice_is_said_twice(view):
    _type(view, "eta", "abc")
    assert "got 'abc'" in view.messages.refused
    view.timeline.act("step")
    assert view.messages.refused == ""
    _type(view, "eta", "abc")
    assert "got 'abc'" in view.messages.refused


@pytest.mark.parametrize("name,text,words", [
    ("forget", "0", "forget γ must be"),
    ("rho", "2.5", "η·ρ must be below 0.5"),
])
def test_messages_use_the_labels_on_screen(view, name, text, words):
    view.w_dataset.value = "separable"
    view.w_rule.value = "svm_sgd" if name == "rho" else "margin"
    _type(view, name, text)
    assert words in view.messages.refused
    assert "rho" not in view.messages.refused and "forget must" not in view.messages.refused


def test_reset_all_settings_returns_to_the_opening_screen(view):
    m = view.model
    view.w_dataset.value = "separable"
    view.w_edit.value = "add+"
    _click(view, 0.2, 0.2)
    view.timeline.go(4)
    view.b_defaults.click()
    assert (m.dataset, m.eta, m.w0, m.order, m.step, m.edited) == ("koski", 0.2, [1.0, 0.5],
                                                                  "custom", 0, False)
    assert view.w_edit.value == "view" and view.text["eta"].value == "0.2"
    assert view.messages.text.startswith("Start: w = (1, 0.5)")


def test_a_view_given_a_pending_model_outside_a_kernel_describes_it_at_once():
    from explorer.perceptron.replay import pending_run

    m = PerceptronModel()
    m.info = pending_run(m.trajectory)  # as a model built with describe_later=True would be
    view = PerceptronView(model=m)
    assert not m.info.pending and m.info.bound.value is not None
    assert "\nbound (dashed) =" in view.figure.mistakes.bound_text.get_text()


# ---------------------------------------------------------------- issue 19: cycles, weight space
def test_xor_run_says_and_marks_its_cycle(view):
    m, tl = view.model, view.timeline
    assert view.page.transport["cycle_start"] is None  # Koski's run converges: no cycle
    assert m.update(dataset="xor")
    assert "The weights repeat: period 4 from step 0, exactly" in m.message
    assert "The weights repeat: period 4 from step 0" in view.messages.notice.value
    assert tl.status_text.endswith("· weights repeat: period 4 from step 0")
    assert view.page.transport["cycle_start"] == tl.step == 0  # already at step 0
    m.go(9)
    assert "The state after step 9 equals the one after step 5." in view.messages.text
    assert tl.step != view.page.transport["cycle_start"]
    tl.act("cycle_start")
    assert m.step == 0
    span = view.figure.mistakes.cycle_span
    assert span.get_visible() and span.get_x() == 0
    assert "period 4" in view.figure.mistakes.cycle_text.get_text()


def test_a_cycle_that_starts_late_is_one_click_away(view):
    from explorer.app.state import points_of
    from explorer.shared import datasets

    ds = datasets.load("overlapping", dim=2, n=40, seed=0)
    X = np.round(ds.X * 4) / 4  # quarters: the float arithmetic is exact
    assert view.load_state(SPEC.defaults() | {
        "dataset": "separable", "points": points_of(X, ds.y), "eta": 1.0, "order": "cyclic",
        "w0": [], "custom_order": []})
    m, tl = view.model, view.timeline
    assert "The weights repeat: period 80 from step 178, exactly" in m.message
    tl.act("cycle_start")
    assert m.step == 178 and "The weights repeat: period 80 from step 178" in view.messages.text
    m.go(177)
    assert "repeat" not in view.messages.text
    assert view.figure.mistakes.cycle_span.get_x() == 178


def test_no_cycle_is_said_in_words(view):
    m = view.model
    assert m.update(dataset="overlapping")
    assert m.info.separable is False
    assert "No repeated state within the run's 2,000 steps (compared to within" in m.message
    assert view.page.transport["cycle_start"] is None
    assert not view.figure.mistakes.cycle_span.get_visible()
    assert m.update(order="shuffle")
    assert "No cycle is looked for: the visiting order is reshuffled each pass" in m.message


def test_weight_space_at_w_zero_is_readable(view):
    """Issue 19 item 7: "you choose" on XOR starts at w = 0, where the weight axes read
    ±1.15e-6; they now show the length of a first update, rounded."""
    m = view.model
    assert m.update(dataset="xor") and m.update(choose_mode=True)
    assert m.trajectory.n_steps == 0 and not m.trajectory.weights.any()
    assert view.figure.weights.ax.get_xlim() == pytest.approx((-2.0, 2.0))


def test_timeline_cycle_start_jump():
    from explorer.app.timeline import Timeline

    tl = Timeline()
    tl.set_run(50, updates=[1, 2, 3])
    assert tl.b_cycle.layout.display == "none" and tl.target("cycle_start") == 0
    tl.set_cycle(12)
    assert tl.b_cycle.layout.display == "" and tl.target("cycle_start") == 12
    tl.go(30)
    tl.b_cycle.click()
    assert tl.step == 12 and tl.b_cycle.disabled
    tl.set_cycle(None)
    assert tl.b_cycle.layout.display == "none"


def test_choosing_custom_sequence_starts_from_one_cyclic_pass(view):
    """Issue 19, item 2: "custom sequence" was refused ("got nothing") and the menu reverted.
    Choosing it now starts from one cyclic pass 1..n in an editable box; switching back and
    forth works; a typed bad sequence is still refused and the state kept."""
    m = view.model
    view.w_dataset.value = "separable"
    assert m.order == "cyclic" and view.text["custom_order"].disabled
    view.w_order.value = "custom"
    assert view.messages.refused == ""
    assert m.order == "custom" and view.w_order.value == "custom"
    assert m.custom_order == list(range(1, 41)) and not view.text["custom_order"].disabled
    assert view.text["custom_order"].value.startswith("1, 2, 3, 4")
    assert m.trajectory.picked[:40].tolist() == list(range(40))
    _type(view, "custom_order", "3, 1, 2")
    assert m.custom_order == [3, 1, 2] and m.trajectory.picked[:3].tolist() == [2, 0, 1]
    traj = m.trajectory
    _type(view, "custom_order", "3, 0, 2")
    assert "Not applied" in view.messages.refused and "sequence" in view.messages.refused
    assert m.trajectory is traj and view.text["custom_order"].value == "3, 1, 2"
    view.w_order.value = "cyclic"
    assert m.order == "cyclic" and view.text["custom_order"].disabled
    view.w_order.value = "custom"  # the sequence typed before comes back
    assert m.order == "custom" and m.custom_order == [3, 1, 2]
    _type(view, "n", "2")  # data without points 3: the sequence starts again from 1, 2
    assert len(m.X) == 2 and m.custom_order == [1, 2] and view.messages.refused == ""


def test_a_link_with_a_custom_order_and_no_sequence_opens(view):
    values, problems = SPEC.from_query("tab=perceptron&dataset=and&order=custom")
    assert problems == [] and view.load_state(values)
    assert view.model.order == "custom" and view.model.custom_order == [1, 2, 3, 4]


def test_epoch_end_follows_the_visiting_order(view):
    """Issue 19, item 3: a 9-step custom sequence on 6 points jumped to step 6 (n). An
    epoch is one pass of the visiting order: the sequence's length, or n, in batches."""
    m, tl = view.model, view.timeline
    _type(view, "custom_order", "5, 3, 1, 2, 4, 6, 5, 3, 1")
    assert m.trajectory.n_steps == 18  # converged in the 2nd pass
    tl.act("epoch_end")
    assert m.step == 9
    tl.act("epoch_end")
    assert m.step == 18 and m.epoch_steps == 9
    view.w_order.value = "cyclic"
    assert m.epoch_steps == 6
    tl.act("epoch_end")
    assert m.step == 6
    _type(view, "batch", "4")  # 6 points in batches of 4: two steps a pass
    assert m.epoch_steps == 2 and tl.epoch == 2
    tl.act("epoch_end")
    assert m.step == 2
    view.w_edit.value = "choose"  # the learner picks every step: no passes, no epoch button
    assert m.epoch_steps == 0 and view.page.transport["epoch"] == 0


def test_mini_batch_step_drawn_and_narrated(view):
    """Issue 19, item 13: a batch size in the tab; a step rings the batch, draws the summed
    update (Sayed (60.23)) and narrates the batch, its mistakes and the update; no mistake
    bound is claimed; links carry the batch size."""
    m, plane = view.model, view.figure.plane
    view.w_order.value = "cyclic"
    view.b_zero.click()
    _type(view, "eta", "1")
    _type(view, "batch", "2")
    assert m.batch == 2 and m.trajectory.picked.shape == (m.trajectory.n_steps, 2)
    view.timeline.go(2)  # points 3 and 4 at w = (2.5, 0.5), b = 2: only point 3 is a mistake
    plane = view.figure.plane  # the kernel's figure moves its artists when it is read
    np.testing.assert_allclose(plane.picked.get_offsets(), m.X[[2, 3]])
    assert [float(w) for w in plane.picked.get_linewidths()] == [3.6, 2.4]
    start, tip = plane.update.get_path().vertices[[0, -1]]  # the arrow from 0 to (−2, 1)
    assert plane.update.get_visible() and plane.update_text.get_text() == "Σ η·y·x"
    np.testing.assert_allclose(m.trajectory.state(2)[0] - m.trajectory.state(1)[0], [-2, 1])
    assert view.messages.text.startswith("Step 2, batch of points 3, 4 (y·f(x) = −2.5, 1.25): "
                                         "point 3 meets y·f(x) ≤ 0")
    assert "the arrow is that correction, (−2, 1)" in view.messages.text
    assert m.info.bound.value is None and "mini-batches of 2" in m.info.bound.note
    assert "no mistake bound:" in view.figure.mistakes.bound_text.get_text()
    assert "Mini-batch of B = 2" in view.w_equation.value and "(60.23)" in view.w_equation.value
    query = SPEC.to_query(view.save_state())
    assert "batch=2" in query
    other = PerceptronView()
    assert other.load_state(SPEC.from_query(query)[0])
    assert other.model.batch == 2 and other.messages.text == view.messages.text
    _type(view, "batch", "7")  # more than the 6 points
    assert "batch size must be at most the number of points, 6; got 7" in view.messages.refused
    assert m.batch == 2 and view.text["batch"].value == "2"
    view.w_edit.value = "choose"
    assert view.text["batch"].disabled and m.trajectory.picked.ndim == 1
    view.w_edit.value = "view"
    assert not view.text["batch"].disabled and m.batch == 2
    view.w_dataset.value = "and"  # 4 points: a batch of 2 still fits
    assert m.batch == 2
    view.w_dataset.value = "separable"
    _type(view, "batch", "30")
    _type(view, "n", "10")  # the data shrink below the batch: a full batch of 10
    assert len(m.X) == 10 and m.batch == 10 and view.text["batch"].value == "10"


@pytest.mark.parametrize("rule", list(RULES))
def test_rule_equation_and_source_on_screen(view, rule):
    """Issue 19, item 15: the selected rule's update and its source, from the registry, under
    the Rule menu and (for lecture mode, settings hidden) above the figure."""
    view.w_rule.value = rule
    spec = RULES[rule]
    shown = html.unescape(view.w_equation.value)
    assert spec.equation in shown and spec.source in shown
    assert view.w_equation_main.value == view.w_equation.value
    assert view.w_equation in view.shell.sidebar.children[0].children
    column = list(view.shell.main.children[0].children)
    row = next(c for c in column if view.w_equation_main in getattr(c, "children", ()))
    assert column.index(row) < column.index(view.figure_box)  # above the figure
    assert "Mini-batch" not in shown


def test_the_lecture_mode_shows_the_equation_above_the_figure():
    from explorer.app.layout import CSS

    assert ".pe-main .pe-equation { display: none; }" in CSS
    assert ".pe-lecture .pe-main .pe-equation { display: flex; }" in CSS


def test_the_page_drawn_figure_writes_the_timelines_status_line(view):
    """The page-drawn figure's chunks carry the status line the timeline shows (issue 20):
    steps, updates, points (edited) and the weights' period once they repeat."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from explorer.plots import PerceptronFigure

    m = view.model
    for change in (dict(dataset="xor", max_epochs=20), None):
        if change is None:
            assert m.add_point(0.3, 0.2, 1)
        else:
            assert m.update(**change)
        fig = Figure()
        FigureCanvasAgg(fig)
        pf = PerceptronFigure(fig)
        pf.edited = m.edited
        pf.set_run(m.trajectory, m.X, m.y, m.info)
        for k in (0, 5, m.trajectory.n_steps):
            assert pf.status(k) == view._status(k)
    assert "(edited)" in pf.status(1) and "weights repeat" in view._status(7)
