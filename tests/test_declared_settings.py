"""A setting is declared once (issue 31, step 5): a field's :class:`Control` gives its widget
(kind, bounds, step, description, help), its binding both ways, its enabling rule and its phrase
in an export's caption. Adding a setting to a tab is its declaration and one line of layout;
no view builds the control of a declared field by hand."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import ipywidgets as W
import pytest

from explorer.app.controls import caption_of, declared, field_control
from explorer.app.margins import MarginsView
from explorer.app.margins.model import SPEC, MarginsModel
from explorer.app.state import Control, Field, StateSpec
from explorer.app.tab_model import field_trait

APP = Path(__file__).resolve().parents[1] / "explorer" / "app"

#: Two settings declared in a test only: a slider and a typed number, each with a rule.
SHADE = Field("shade", "band shade", "float", 0.5, min=0.0, max=1.0, control=Control(
    "slider", step=0.1, help="How dark the margin band is drawn", enabled=lambda m: not m.hard,
    caption="shade {:g}"))
TOL = Field("tol", "tolerance", "float", 0.001, min=0.0, min_open=True, max=1.0, control=Control(
    "text", help="Stop when the objective changes less", placeholder="e.g. 0.001",
    enabled=lambda m: not m.hard, caption="tol {:g}", caption_rank=2))
EXTENDED = StateSpec("margins", [*SPEC.fields, SHADE, TOL])


class ExtendedModel(MarginsModel):
    """The Margins model with the two settings: only their traits and names are added (what
    :func:`explorer.app.tab_model.state_model` does for a tab's own declaration)."""

    spec = EXTENDED
    params = (*MarginsModel.params, "shade", "tol")
    shade = field_trait(SHADE)
    tol = field_trait(TOL)


class ExtendedView(MarginsView):
    spec = EXTENDED


@pytest.fixture(scope="module")
def view():
    return ExtendedView(ExtendedModel())


def test_a_declared_setting_becomes_its_control_with_bounds_label_and_help(view):
    shade, tol = view.controls["shade"], view.controls["tol"]
    assert isinstance(shade, W.FloatSlider)
    assert (shade.min, shade.max, shade.step, shade.value) == (0.0, 1.0, 0.1, 0.5)
    assert shade.description == "band shade" and shade.tooltip == "How dark the margin band is drawn"
    assert not shade.continuous_update
    assert isinstance(tol, W.Text) and tol.description == "tolerance"
    assert tol.value == "0.001" and tol.placeholder == "e.g. 0.001"
    assert tol.tooltip == "Stop when the objective changes less"
    assert view.text["tol"] is tol  # typed text is read by the field


def test_a_declared_setting_is_bound_both_ways_and_refused_in_words(view):
    m = view.model
    view.controls["shade"].value = 0.3
    assert m.shade == 0.3
    assert m.update(tol="0.01") and view.controls["tol"].value == "0.01"
    view.controls["tol"].value = "abc"  # typed: a message, the state kept, the box put back
    assert m.tol == 0.01 and view.controls["tol"].value == "0.01"
    assert m.message == ("Not applied: tolerance must be a number > 0; got 'abc'. "
                         "Kept the previous settings.")
    view.controls["tol"].value = "2"
    assert "tolerance must be at most 1; got 2" in m.message and m.tol == 0.01


def test_a_declared_setting_is_in_the_link_and_the_json_file(view):
    m = view.model
    assert m.update(shade=0.7, tol=0.02)
    state = view.save_state()
    query = EXTENDED.to_query(state)
    assert "shade=0.7" in query and "tol=0.02" in query
    back, problems = EXTENDED.from_query(query)
    assert not problems and back["shade"] == 0.7 and back["tol"] == 0.02
    doc = json.loads(EXTENDED.to_json(state))
    assert doc["state"]["shade"] == 0.7 and doc["state"]["tol"] == 0.02
    again = ExtendedModel()
    assert again.set_state(EXTENDED.from_json(EXTENDED.to_json(state))[0])
    assert (again.shade, again.tol) == (0.7, 0.02)


def test_a_declared_setting_has_its_place_in_the_export_caption_and_its_rule(view):
    m = view.model
    assert m.update(hard=False, shade=0.4, tol=0.05, log_c=0.0, eta=0.01, seed=3)
    assert caption_of(EXTENDED, m) == ("C = 1 · SGD η = 0.01 · 30 epochs · shade 0.4 · seed 3 · "
                                       "tol 0.05")
    assert caption_of(EXTENDED, m) in view._export_frames().title
    assert not view.controls["shade"].disabled and not view.controls["tol"].disabled
    assert m.update(hard=True)
    assert view.controls["shade"].disabled and view.controls["tol"].disabled
    assert view.controls["log_c"].disabled and view.controls["eta"].disabled
    assert caption_of(EXTENDED, m) == "hard margin · seed 3"


def test_the_margins_caption_reads_as_before():
    """The caption written from the declarations is the one the view wrote by hand (with the
    SGD epochs, declared since)."""
    m = MarginsModel()
    assert caption_of(SPEC, m) == "C = 1 · SGD η = 0.01 · 30 epochs · seed 0"
    assert m.update(hard=True, seed=4)
    assert caption_of(SPEC, m) == "hard margin · seed 4"


def test_a_greyed_out_control_shows_what_its_declaration_says():
    view = MarginsView()
    assert view.model.update(dataset="koski")
    assert view.controls["n"].disabled and view.controls["n"].value == "6"  # points shown
    assert view.controls["margin"].disabled
    assert view.model.update(dataset="separable", n=12)
    assert not view.controls["n"].disabled and view.controls["n"].value == "12"


def test_a_control_must_fit_its_field():
    with pytest.raises(ValueError, match="cannot have a slider control"):
        Field("on", "on", "bool", True, control=Control("slider", step=1))
    with pytest.raises(ValueError, match="needs min and max"):
        Field("x", "x", "float", 1.0, control=Control("slider", step=0.1))
    with pytest.raises(ValueError, match="a title per choice"):
        Field("p", "p", "choice", "a", choices=("a", "b"), control=Control("menu",
                                                                          titles=[("a", "A")]))
    with pytest.raises(ValueError, match="a title per choice"):  # a whole number: every one
        Field("k", "k", "int", 0, min=0, max=2, control=Control("menu", titles=[(0, "a"),
                                                                               (1, "b")]))
    with pytest.raises(ValueError, match="a tip per choice"):
        Field("p", "p", "choice", "a", choices=("a", "b"), control=Control(
            "buttons", titles=[("a", "A"), ("b", "B")], tips=[("b", "bee"), ("a", "ay")]))
    with pytest.raises(ValueError, match="only buttons have a tooltip per choice"):
        Control("menu", tips=[("a", "ay")])
    with pytest.raises(ValueError, match="needs a step"):
        Control("log_slider")
    with pytest.raises(ValueError, match="declares no control"):
        field_control(Field("x", "x", "float", 1.0), 1.0)


def _tab_specs():
    from explorer.app.cover.model import SPEC as cover
    from explorer.app.generalization.model import SPEC as generalization
    from explorer.app.perceptron.model import SPEC as perceptron
    from explorer.app.xor.model import SPEC as xor

    return {"margins": SPEC, "perceptron": perceptron, "xor": xor, "cover": cover,
            "generalization": generalization}


@pytest.mark.parametrize("tab", ["margins", "perceptron", "xor", "cover", "generalization"])
def test_no_view_builds_a_declared_fields_control_by_hand(tab):
    """In a view, a declared field's name may appear only as a key into its made controls
    (the layout's one line, ``c["eta"]``), what a button sets through ``_apply`` or a key of a
    state given whole: never
    in a maker's call, a list of text fields or an observer."""
    names = set(declared(_tab_specs()[tab]))
    tree = ast.parse((APP / tab / "view.py").read_text())
    keys = {id(n.slice) for n in ast.walk(tree) if isinstance(n, ast.Subscript)}
    # a button that sets a field goes through the one path to the model, self._apply(name, v)
    keys |= {id(n.args[0]) for n in ast.walk(tree) if isinstance(n, ast.Call) and n.args
             and isinstance(n.func, ast.Attribute) and n.func.attr == "_apply"}
    # and a state given whole, ``self.save_state() | {"w0": [], ...}``
    keys |= {id(k) for n in ast.walk(tree) if isinstance(n, ast.BinOp) and
             isinstance(n.op, ast.BitOr) and isinstance(n.right, ast.Dict) for k in n.right.keys}
    # the model's traits a view redraws on, ``self._follow_model(self._on_scene, ["view"])``,
    # ``m.observe(self._on_plan, names=["ns"])``
    keys |= {id(c) for n in ast.walk(tree) if isinstance(n, ast.Call)
             and isinstance(n.func, ast.Attribute) and n.func.attr in ("_follow_model", "observe")
             for a in [*n.args[1:], *(k.value for k in n.keywords)] for c in ast.walk(a)}
    # words in an f-string (f"seed{m.seed}" in a file's name)
    keys |= {id(c) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for c in n.values}
    # the page's pointer mode "view" (explorer.app.pagefigure.POINTER_MODES) is another word
    keys |= {id(c) for n in ast.walk(tree) if isinstance(n, ast.Assign)
             and any(isinstance(t, ast.Attribute) and t.attr == "pointer_mode" for t in n.targets)
             for c in ast.walk(n.value)}
    by_hand = sorted(n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
                     and n.value in names and id(n) not in keys)
    assert not by_hand, f"{tab}/view.py writes declared fields by hand: {by_hand}"


def test_the_sgd_epochs_setting_added_by_its_declaration_alone():
    """The closing note's demonstration: SGD epochs on Margins, added as one field and one
    layout line; the run has that many passes, the setting is in the link, and it is greyed out
    for the hard margin (no SGD run)."""
    view = MarginsView()
    m, box = view.model, view.controls["epochs"]
    assert isinstance(box, W.Text) and box.value == "30" and "Passes of the SGD run" in box.tooltip
    assert m.sgd.traj.n_steps == 30 * len(m.X)
    box.value = "5"
    assert m.epochs == 5 and m.sgd.traj.n_steps == 5 * len(m.X)
    assert "epochs=5" in SPEC.to_query(m.get_state())
    box.value = "101"
    assert m.epochs == 5 and "SGD epochs must be a whole number from 1 to 100; got 101" in m.message
    assert box.value == "5"
    assert m.update(hard=True) and box.disabled and "epochs" not in caption_of(SPEC, m)
    assert box in _widgets(view)  # laid out in the page


def _widgets(widget) -> list:
    """Every widget under ``widget`` (its children, theirs, ...)."""
    found = [widget]
    for child in getattr(widget, "children", ()):
        found += _widgets(child)
    return found


def test_buttons_and_a_menu_of_a_whole_number_from_their_declarations():
    """Buttons show their titles and a tooltip each; a whole number can be a menu of titled
    values (XOR's 16 functions), in the titles' order; both bound to the field."""
    side = Field("side", "side", "choice", "l", choices=("l", "r"), control=Control(
        "buttons", description="Side", titles=[("l", "Left"), ("r", "Right")],
        tips=[("l", "the left one"), ("r", "the right one")]))
    b = field_control(side, "r", layout=W.Layout(width="95%"), style={"description_width": "9em"})
    assert isinstance(b, W.ToggleButtons) and b.value == "r" and b.description == "Side"
    assert tuple(t for t, _ in b.options) == ("Left", "Right")
    assert b.tooltips == ("the left one", "the right one")
    assert b.layout.width is None  # a row of buttons keeps its own width
    k = Field("k", "k", "int", 1, min=0, max=2, control=Control(
        "menu", titles=[(2, "two"), (0, "zero"), (1, "one")]))
    menu = field_control(k, 1)
    assert isinstance(menu, W.Dropdown) and [t for t, _ in menu.options] == ["two", "zero", "one"]
    assert menu.value == 1 and menu.label == "one"


def test_the_xor_tab_is_made_from_its_declarations():
    """XOR's settings, captions and file names come from its fields (caption and names as the
    view wrote them by hand before)."""
    from explorer.app.xor import XorView
    from explorer.app.xor.model import SPEC as XOR

    v = XorView()
    m = v.model
    assert set(v.controls) == set(declared(XOR))
    assert caption_of(XOR, m) == "XOR · inputs ±1 · η = 1 · 6 passes"
    assert v._export_name("png") == "xor-cycling-xor-pm1-step0"
    v.controls["function"].value = 6  # the menu lists the 16 functions by name
    assert m.function == 6 and v.controls["function"].label.split()[1] == xor_name(6)
    v.controls["passes"].value = "0"
    assert m.passes == 6 and "passes must be a whole number from 1 to 500; got 0" in m.message
    assert v.controls["passes"].value == "6"  # the box put back
    assert v.w_view.tooltips[0].startswith("The classic perceptron cycles")


def xor_name(code: int) -> str:
    from explorer import xor

    return xor.function(code).name


def test_the_generalization_tab_is_made_from_its_declarations():
    """Generalization's settings, captions and file names come from its fields; n is greyed
    out on real data and shows how many points the run has."""
    from explorer.app.generalization import GeneralizationView
    from explorer.app.generalization.model import SPEC as GEN

    v = GeneralizationView(autorun=False)
    m = v.model
    assert set(v.controls) == set(declared(GEN))
    assert caption_of(GEN, m) == ("Margin (H & R) rule · seed 0 · simulation: γ = 0.2 · d = 5 · "
                                  "100 trials")
    assert v._export_frames().title == f"Margin distribution, 40 points · {caption_of(GEN, m)}"
    assert v._export_name("png") == "generalization-margin-margin-seed0-step0"
    assert v.controls["trials"].tooltip == "a whole number from 2 to 2000"  # what it takes
    assert not v.controls["n_run"].disabled
    assert m.update(dataset="iris")
    assert v.controls["n_run"].disabled and v.controls["n_run"].value == str(len(m.X))
    v.w_losses["hinge"].value = False
    assert not m.show_hinge and v.w_losses["hinge"].description == "hinge max(0, 1 − z)"


def test_the_cover_tab_is_made_from_its_declarations():
    """Cover's typed settings and its two rows of buttons come from its fields; N is greyed
    out while points are placed and shows how many."""
    from explorer.app.cover import CoverView
    from explorer.app.cover.model import SPEC as COVER

    v = CoverView()
    m = v.model
    assert set(v.controls) == set(declared(COVER))
    assert v.w_view.tooltips[2] == "The recursion (60.73) filling a table"
    assert v.controls["trials"].tooltip == "a whole number from 10 to 2000"
    v.w_xaxis.value = "n"
    assert m.xaxis == "n"
    assert not v.controls["n_points"].disabled
    assert m.update(view="dichotomies") and m.collinear_example() is not False
    assert v.controls["n_points"].disabled and v.controls["n_points"].value == "4"
