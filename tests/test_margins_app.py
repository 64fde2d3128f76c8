"""The Margins tab without a browser: its model, its view, and the hand-off between tabs."""

import types

import numpy as np
import pytest

from explorer.app import Dashboard  # noqa: E402
from explorer.app.margins import SPEC, MarginsModel, MarginsView  # noqa: E402
from explorer.app.pagefigure import Pointer  # noqa: E402
from explorer.shared import svm  # noqa: E402


@pytest.fixture
def view():
    return MarginsView()


def _click(view, x, y):
    ax = view.figure.plane.ax
    view._on_click(types.SimpleNamespace(inaxes=ax, xdata=x, ydata=y))


def test_soft_margin_follows_c_and_matches_the_solver(view):
    m = view.model
    view.w_c.value = 0.01
    assert m.C == pytest.approx(0.01)
    fit = svm.fit(m.X, m.y, C=0.01)
    np.testing.assert_allclose(m.comparison.svm.w, fit.w, atol=1e-6)
    assert "Sayed&#x27;s η = N·C" in view.sayed.value and "support vectors" in view.messages.text
    assert m.n_steps > 0 and view.timeline.n_steps == m.n_steps
    view.timeline.act("end")
    assert m.step == m.n_steps


def test_hard_margin_on_xor_draws_the_certificate(view):
    view.w_dataset.value = "xor"
    view.w_hard.value = True
    m = view.model
    assert m.comparison.svm is None and m.comparison.certificate is not None
    np.testing.assert_allclose(m.comparison.certificate.point, [0.0, 0.0], atol=1e-9)
    assert "not linearly separable" in view.messages.text
    assert view.w_c.disabled and m.n_steps == 0


@pytest.mark.parametrize("name,text,words", [("eta", "abc", "SGD step η must be a number"),
                                             ("eta", "0", "SGD step η must be a number > 0"),
                                             ("n", "2.5", "n must be a whole number")])
def test_bad_values_are_refused_and_kept(view, name, text, words):
    before = view.model.comparison
    view.text[name].value = text
    assert words in view.messages.refused
    assert view.model.comparison is before


def test_adding_a_point_solves_again(view):
    m = view.model
    n = len(m.X)
    view.w_edit.value = "add+"
    _click(view, 0.0, 0.0)
    assert len(m.X) == n + 1 and m.edited
    np.testing.assert_allclose(m.comparison.svm.w, svm.fit(m.X, m.y, C=m.C).w, atol=1e-6)


def test_real_data_report_a_test_error(view):
    view.w_dataset.value = "breast_cancer"
    m = view.model
    assert m.X_test is not None and 0.0 <= m.test_error() < 0.2
    assert "test error" in view.messages.text


def test_state_round_trip(view):
    view.w_dataset.value = "separable"
    view.w_c.value = 0.1
    view.w_edit.value = "add-"
    _click(view, 0.3, 0.3)
    view.timeline.go(7)
    values, problems = SPEC.from_query(SPEC.to_query(view.save_state()))
    assert problems == []
    other = MarginsView()
    assert other.load_state(values)
    np.testing.assert_array_equal(other.model.X, view.model.X)
    assert other.model.step == 7 and other.model.log_c == pytest.approx(-1.0)


def test_points_travel_between_tabs():
    d = Dashboard(query="")
    d.active.model.update(dataset="xor")
    d.active.b_send.click()
    assert d.tabs.selected_index == 1
    margins_view = d.views["margins"]
    np.testing.assert_array_equal(margins_view.model.X, d.views["perceptron"].model.X)
    margins_view.model.add_point(0.5, 0.5, 1)
    margins_view.b_send.click()
    assert d.tabs.selected_index == 0
    assert len(d.views["perceptron"].model.X) == 5 and d.views["perceptron"].model.edited


def test_link_opens_the_margins_tab():
    d = Dashboard(query="tab=margins&dataset=xor&hard=true")
    assert d.tabs.selected_index == 1 and d.active.model.hard and d.active.model.dataset == "xor"


def test_model_without_view():
    m = MarginsModel(dataset="separable", n="30")
    assert len(m.X) == 30 and m.comparison.svm is not None
    assert not m.update(log_c="9") and "log₁₀ C" in m.message


def _drag(view, phase, x, y, panel="plane"):
    """The page's pointer message of a drag (explorer.app.pagefigure)."""
    view._on_pointer(Pointer(panel, float(x), float(y), "drag", phase))


def test_dragging_a_point_moves_the_solution_then_everything():
    v = MarginsView(MarginsModel(dataset="separable", n=30, seed=2))
    m = v.model
    sent = []
    v.page.send = lambda content, buffers=None: sent.append(content)
    X0 = m.X.copy()
    v.w_edit.value = "drag"
    assert v.page.pointer_mode == "drag" and v.page.drag_tracks == ["plane_pos", "plane_neg"]
    i = 3
    _drag(v, "down", *X0[i])
    target = X0.mean(axis=0)  # into the middle: the other class's side or the band
    _drag(v, "move", *target)
    assert m.draft is not None and np.array_equal(m.X, X0)  # solution now, the rest on release
    np.testing.assert_allclose(m.draft.X[i], target)
    fit = svm.fit(m.draft.X, m.y, C=m.C)
    np.testing.assert_allclose(m.draft.comparison.svm.w, fit.w, atol=1e-6)
    np.testing.assert_allclose(v.figure.plane.rings.get_offsets(), m.draft.X[fit.support])
    # the page gets the new solution as static tracks, with the edit's narration
    static = [c for c in sent if c["type"] == "static"]
    assert static and "follow when you pause" in static[-1]["narration"]
    assert {"plane_pos", "plane_line", "plane_rings", "plane_slab"} <= set(static[-1]["arrays"])
    assert "follow when you pause" in v.messages.text
    # the link writer's state has the dragged point, and leaves the drag going (before, it
    # finished the edit: a new layout mid-drag whenever the pointer paused 0.4 s)
    assert v.save_state()["points"][i][:2] == pytest.approx(list(target))
    assert m.draft is not None and np.array_equal(m.X, X0)
    run = v.paged._run
    _drag(v, "up", *target)
    assert m.draft is None and m.edited
    np.testing.assert_allclose(m.X[i], target)
    assert m.sgd.X.shape == m.X.shape and "support vectors" in v.messages.text
    assert v.paged._run == run + 1  # the whole figure follows: a new scene


def test_a_drag_that_needs_a_new_layout_waits_for_the_release():
    """Dragged out of the plane's box (a new layout, a new scene: about half a second), the
    edit is finished on release, not at every move (before, each such move laid the figure
    out again while the page drew the point under the pointer)."""
    v = MarginsView(MarginsModel(dataset="separable", n=30, seed=2))
    m = v.model
    X0 = m.X.copy()
    v.w_edit.value = "drag"
    _drag(v, "down", *X0[0])
    run = v.paged._run
    _drag(v, "move", 9.0, 9.0)
    _drag(v, "move", 9.5, 9.0)
    assert m.draft is not None and np.array_equal(m.X, X0) and v.paged._run == run
    _drag(v, "up", 9.5, 9.0)
    assert m.draft is None and v.paged._run == run + 1
    np.testing.assert_allclose(m.X[0], [9.5, 9.0])


def test_drag_from_empty_space_is_refused_and_data_kept(view):
    X0 = view.model.X.copy()
    sent = []
    view.page.send = lambda content, buffers=None: sent.append(content)
    view.w_edit.value = "drag"
    _drag(view, "down", 50.0, 50.0)
    _drag(view, "move", 0.0, 0.0)
    _drag(view, "up", 0.0, 0.0)
    assert "no point there" in view.messages.refused
    np.testing.assert_array_equal(view.model.X, X0)
    assert {"type": "pointer_done"} in sent  # the page lets go of what it took


def test_clicks_outside_the_svm_plane_do_nothing(view):
    X0 = view.model.X.copy()
    view.w_edit.value = "add+"
    view._on_pointer(Pointer("objective", 10.0, 0.5, "add+"))
    np.testing.assert_array_equal(view.model.points[0], X0)


def test_deferred_edit_then_a_new_c_keeps_the_edit():
    m = MarginsModel(dataset="overlapping", n=40, seed=0)
    assert m.add_point(0.1, 0.2, -1, defer=True)
    assert len(m.X) == 40 and len(m.points[0]) == 41
    assert m.update(log_c=-1.0)  # a change of C while the edit waits applies to the edit
    assert m.draft is None and len(m.X) == 41 and m.edited


def test_side_by_side_toggle_is_state(view):
    view.w_layout.value = "side"
    assert view.model.layout == "side" and view.figure.overlay == "side"
    state = view.save_state()
    values, problems = SPEC.from_query(SPEC.to_query(state))
    assert problems == [] and values["layout"] == "side"
    other = MarginsView()
    assert other.load_state(values)
    assert other.figure.overlay == "side" and other.w_layout.value == "side"
    assert not other.model.set_layout("sideways")
    assert "layout" in other.messages.refused and other.model.layout == "side"


def test_a_new_c_reuses_the_perceptron_and_lays_the_figure_out_once(monkeypatch):
    """The perceptron's run does not depend on C, and the scene a new C asks for is at the size
    the figure was just laid out at: neither is done again."""
    from explorer.app.layout import FigureFit
    from explorer.app.margins import model as margins_model
    from explorer.plots.margins import MarginsFigure

    v = MarginsView()
    v.fit(FigureFit(1000, 560, 1.0))
    rules, layouts = [], []
    train, set_data = margins_model.train, MarginsFigure.set_data
    monkeypatch.setattr(margins_model, "train",
                        lambda *a, **k: rules.append(k["rule"]) or train(*a, **k))
    monkeypatch.setattr(MarginsFigure, "set_data",
                        lambda self, *a, **k: layouts.append(1) or set_data(self, *a, **k))
    v.w_c.value = 0.3
    assert rules == ["svm_sgd"] and len(layouts) == 1
    assert v.model.comparison.perceptron_w is not None
    # new points: the perceptron runs again
    v.model.update(dataset="overlapping", n=30, seed=4)
    assert rules == ["svm_sgd", "classic", "svm_sgd"]
    # a new size lays the figure out again
    layouts.clear()
    v.fit(FigureFit(900, 520, 1.0))
    assert len(layouts) >= 1
