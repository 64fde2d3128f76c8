"""Every control shows the state on screen (issue 19, item 6), in every tab, after a change made
without the control: a hand-off from another tab, a link or saved state, points added by
clicking, a CSV. Before: after "Open these points in the Margins tab" the Margins tab's Data
box read "Overlapping blobs", n 40, with Koski's six points on screen; Cover's "points N" read 4
with five points placed."""

import types

import numpy as np
import pytest

from explorer.app import Dashboard  # noqa: E402
from explorer.app.cover import CoverView  # noqa: E402
from explorer.app.datachoice import POINTS  # noqa: E402
from explorer.app.generalization import GeneralizationView  # noqa: E402
from explorer.app.margins import MarginsView  # noqa: E402
from explorer.app.perceptron import PerceptronView  # noqa: E402
from explorer.app.xor import XorView  # noqa: E402

#: Text boxes that set how many points to draw: disabled, they say how many are shown.
COUNTS = {"n", "n_points", "n_run"}


def _label(box) -> str:
    return {value: label for label, value in box.options}[box.value]


def assert_controls_show_the_model(view, *, shown: int) -> None:
    """Every text box, choice and check box of ``view`` against its model; ``shown`` is the
    number of points on screen."""
    m, spec = view.model, view.spec
    for name, w in view.text.items():
        if name in COUNTS and w.disabled:
            assert w.value == str(shown), name
        else:
            assert spec.field(name).parse(w.value) == getattr(m, name), name
    box = getattr(view, "w_dataset", None)
    if box is not None:
        if getattr(m, "edited", False):
            assert box.value == POINTS and _label(box).endswith(f"({shown})")
        else:
            assert box.value == m.dataset
    for name, w in getattr(view, "_choices", {}).items():
        if name != "dataset":
            assert w.value == getattr(m, name), name
    for name in ("margin", "hard", "rule", "view", "xaxis"):
        w = getattr(view, f"w_{name}", None)
        if w is not None:
            assert w.value == getattr(m, name), name
    if hasattr(view, "w_c"):
        assert np.log10(view.w_c.value) == pytest.approx(m.log_c)
    for name, w in getattr(view, "w_losses", {}).items():
        assert w.value == getattr(m, f"show_{name}")


def test_points_from_the_perceptron_tab_are_named_in_the_margins_data_box():
    d = Dashboard(query="")  # the Perceptron tab: Koski's six points
    d.active.b_send.click()
    view = d.views["margins"]
    assert d.active is view and len(view.model.X) == 6 and view.model.edited
    assert _label(view.w_dataset) == "Perceptron tab (6)"
    assert view.text["n"].value == "6" and view.text["n"].disabled
    assert_controls_show_the_model(view, shown=6)
    # a point added by clicking: the points are now edited ones
    view.w_edit.value = "add+"
    view._on_click(types.SimpleNamespace(inaxes=view.figure.plane.ax, xdata=0.5, ydata=0.5))
    view.model.finish_edit()
    assert _label(view.w_dataset) == "Edited points (7)"
    assert_controls_show_the_model(view, shown=7)
    # choosing the data set named before loads it
    before = view.model.dataset
    view.w_dataset.value = before
    assert not view.model.edited and len(view.model.X) == view.model.n
    assert [v for _, v in view.w_dataset.options].count(POINTS) == 0
    assert_controls_show_the_model(view, shown=len(view.model.X))


def test_points_from_the_margins_xor_and_cover_tabs_are_named_in_the_perceptron_tab():
    d = Dashboard(query="tab=margins&dataset=overlapping&n=30")
    d.active.b_send.click()
    view = d.views["perceptron"]
    assert _label(view.w_dataset) == "Margins tab (30)"
    assert_controls_show_the_model(view, shown=30)
    d.tabs.selected_index = 3  # XOR
    d.active.b_send.click()
    assert d.active is view and _label(view.w_dataset) == "XOR tab (4)"
    assert_controls_show_the_model(view, shown=4)
    d.tabs.selected_index = 2  # Cover: a dichotomy of its four random points
    d.active._open_dichotomy(5)
    assert d.active is view and _label(view.w_dataset) == "Cover tab (4)"
    assert_controls_show_the_model(view, shown=4)


def test_own_csv_and_links_name_their_points():
    view = MarginsView()
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [-1.0, -1.0]])
    assert view._use_data(X, np.array([1.0, -1.0, 1.0, -1.0]))
    assert _label(view.w_dataset) == "Your CSV (4)"
    assert_controls_show_the_model(view, shown=4)
    d = Dashboard(query="tab=perceptron&dataset=separable&points=0,1,1;1,0,-1;2,2,1")
    view = d.active
    assert _label(view.w_dataset) == "From the link (3)"
    assert_controls_show_the_model(view, shown=3)


def test_cover_points_n_follows_the_points_placed():
    view = CoverView()
    m = view.model
    assert view.text["n_points"].value == "4" and not view.text["n_points"].disabled
    view.w_view.value = "dichotomies"
    view.page._on_msg(view.page, {"type": "pointer", "panel": "plane", "x": 0.9, "y": 0.9,
                                  "mode": view.page.pointer_mode}, [])  # a click in the page
    assert len(m.X) == 5 and view.text["n_points"].value == "5"
    assert m.n_points == 4  # the state: N random points when "Random points" is pressed
    assert_controls_show_the_model(view, shown=5)
    assert view.load_state({"view": "dichotomies", "points": [0, 0, 1, 0, 0, 1]})
    assert view.text["n_points"].value == "3"
    assert_controls_show_the_model(view, shown=3)
    m.random_set()
    assert view.text["n_points"].value == "4" and not view.text["n_points"].disabled


@pytest.mark.parametrize("state", [{"dataset": "iris", "rule": "classic", "show_hinge": False},
                                   {"dataset": "margin", "n_run": 25, "seed": 3}])
def test_generalization_controls_show_a_loaded_state(state):
    view = GeneralizationView(autorun=False)
    assert view.load_state({**view.spec.defaults(), "ns": [4, 8], "trials": 20, **state})
    assert_controls_show_the_model(view, shown=len(view.model.X))


def test_xor_controls_show_a_loaded_state():
    view = XorView()
    assert view.load_state({"view": "kernel", "function": 9, "coding": "01", "eta": 0.5,
                            "passes": 7, "degree": 3, "kernel_c": 2.0, "pair": "and_nor"})
    assert_controls_show_the_model(view, shown=4)


def test_perceptron_controls_show_a_loaded_state():
    view = PerceptronView()
    state = {**view.spec.defaults(), "dataset": "separable", "n": 12, "seed": 5,
             "rule": "margin", "order": "shuffle"}
    assert view.load_state(state)
    assert_controls_show_the_model(view, shown=12)
