"""A tab's settings controls are made from its fields (explorer.app.controls, issue 21): one
maker per kind of field, used by the Perceptron, Margins, XOR, Generalization and Cover views,
and one path each way between controls and model (FieldControls)."""

from __future__ import annotations

import ipywidgets as W
import pytest

from explorer.app.controls import (
    FieldControls,
    check_box,
    choice_buttons,
    choice_menu,
    show,
    shown,
    slider,
    text_box,
)
from explorer.app.cover import CoverView
from explorer.app.generalization import GeneralizationView
from explorer.app.margins import MarginsView
from explorer.app.perceptron import PerceptronView
from explorer.app.state import Field, StateSpec
from explorer.app.tab import TabView
from explorer.app.xor import XorView

N = Field("n", "points n", "int", 4, min=1, max=9)
ETA = Field("eta", "η", "float", 0.5, min=0.0, max=2.0)
PICK = Field("pick", "pick", "choice", "b", choices=("a", "b", "c"))
ON = Field("on", "on", "bool", True)
SPEC = StateSpec("demo", [N, ETA, PICK, ON, Field("w", "start w", "floats", [], optional=True)])
VIEWS = {"perceptron": PerceptronView, "margins": MarginsView, "xor": XorView,
         "generalization": GeneralizationView, "cover": CoverView}
#: The choice controls of each view that are made from a choice field.
CHOICES = {"perceptron": {"rule": "w_rule", "order": "w_order"},
           "margins": {"layout": "w_layout"},
           "xor": {"view": "w_view", "coding": "w_coding", "pair": "w_pair"},
           "generalization": {"dataset": "w_dataset", "rule": "w_rule"},
           "cover": {"view": "w_view", "xaxis": "w_xaxis"}}


def test_a_text_box_is_labelled_by_its_field_and_applies_on_enter():
    box = text_box(ETA, placeholder="e.g. 0.5")
    assert isinstance(box, W.Text) and box.description == "η" and not box.continuous_update
    assert box.placeholder == "e.g. 0.5"
    assert text_box(ETA, description="step η").description == "step η"
    assert text_box(SPEC.field("w")).description == "start w"
    with pytest.raises(ValueError, match="pick is a choice field"):
        text_box(PICK)


def test_a_slider_spans_the_fields_bounds():
    s = slider(ETA, 0.25, step=0.05)
    assert isinstance(s, W.FloatSlider) and (s.min, s.max, s.value) == (0.0, 2.0, 0.25)
    assert s.description == "η" and not s.continuous_update
    n = slider(N, 3, step=1)
    assert isinstance(n, W.IntSlider) and (n.min, n.max) == (1, 9)
    with pytest.raises(ValueError):
        slider(ON, True, step=1)


def test_choices_come_in_the_declared_order_with_their_titles():
    titles = {"c": "Cee", "a": "Ay", "b": "Bee"}
    menu = choice_menu(PICK, titles.items(), "c", description="Pick")  # in the order given
    assert isinstance(menu, W.Dropdown) and menu.value == "c"
    assert list(menu.options) == [("Cee", "c"), ("Ay", "a"), ("Bee", "b")]
    numbers = choice_menu(N, [(k, f"#{k}") for k in range(9, 0, -1)], 4)  # a whole number's
    assert [v for _, v in numbers.options] == list(range(9, 0, -1)) and numbers.value == 4
    row = choice_buttons(PICK, titles, "a")  # buttons: in the declared order
    assert isinstance(row, W.ToggleButtons) and row.style.button_width == "auto"
    assert [v for _, v in row.options] == ["a", "b", "c"]
    with pytest.raises(ValueError, match="one title per value"):
        choice_menu(PICK, [("a", "Ay")], "a")  # every choice needs its title
    with pytest.raises(ValueError, match="one title per value"):
        choice_menu(N, [(k, str(k)) for k in range(1, 9)], 4)  # 9 has none
    with pytest.raises(ValueError, match="one title per value"):
        choice_menu(PICK, [("a", "Ay"), ("b", "Bee"), ("c", "Cee"), ("a", "A")], "a")
    with pytest.raises(ValueError, match="on is a bool field"):
        choice_menu(ON, [(True, "yes"), (False, "no")], True)


def test_a_check_box_and_what_each_control_shows():
    box = check_box(ON, False)
    assert isinstance(box, W.Checkbox) and box.description == "on" and not box.indent
    assert shown(ETA, 0.5, text_box(ETA)) == "0.5" and shown(ETA, 0.5, slider(ETA, 0, step=1)) == 0.5
    assert shown(SPEC.field("w"), [1.0, -0.5], W.Text()) == "1, -0.5"
    said = []
    box.observe(lambda ch: said.append(ch["new"]), names="value")
    show(box, False)
    show(box, True)
    assert said == [True]  # a control that shows the value already is left alone


@pytest.mark.parametrize("tab", VIEWS)
def test_every_view_makes_its_controls_from_its_fields(tab):
    view = VIEWS[tab]()
    assert isinstance(view, FieldControls)
    spec = view.spec
    for name, box in view.text.items():
        assert isinstance(box, W.Text) and spec.field(name).kind != "choice"
        assert spec.field(name).parse(box.value) is not None
    for name, attr in CHOICES[tab].items():
        options = [value for _, value in getattr(view, attr).options]
        assert options == list(spec.field(name).choices), name


@pytest.mark.parametrize("tab", VIEWS)
def test_a_refused_text_puts_the_last_good_value_back_and_the_state_is_kept(tab):
    view = VIEWS[tab]()
    m = view.model
    for name, box in view.text.items():
        if box.disabled:
            continue
        before, good = m.get_state(), box.value
        assert view._holds(name, good) and not view._holds(name, good + "1"), name
        box.value = "abc"
        assert m.refusal is not None and m.refusal.kept == "settings", name
        assert m.refusal.why.startswith(view.spec.field(name).label), name
        assert box.value == view.spec.field(name).format(getattr(m, name)), name
        assert m.get_state() == before, name


def test_the_tab_views_share_one_path_between_controls_and_model():
    for cls in (*VIEWS.values(), TabView):
        assert issubclass(cls, FieldControls)
        assert "_sync_controls" not in cls.__dict__, cls.__name__
