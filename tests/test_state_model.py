"""A tab's state is declared once, in its StateSpec (issue 21): the spec makes the model's state
traits (explorer.app.tab_model.state_model) and TabModel reads, writes and resets the whole
state from it; a bad state is refused as a Refusal value and the state kept."""

from __future__ import annotations

import numpy as np
import pytest
from traitlets import Bool, Float, Int, List, TraitError, Unicode

from explorer.app.cover.model import CoverModel
from explorer.app.generalization.model import GeneralizationModel
from explorer.app.margins.model import MarginsModel
from explorer.app.perceptron.model import PerceptronModel
from explorer.app.state import Field, StateSpec
from explorer.app.tab_model import Refusal, TabModel, field_trait, state_model, state_traits
from explorer.app.xor.model import XorModel

MODELS = {"perceptron": PerceptronModel, "margins": MarginsModel, "xor": XorModel,
          "generalization": GeneralizationModel, "cover": CoverModel}
#: Fields a model holds in another form than a trait of their own (the data as arrays).
HELD_ELSEWHERE = {"perceptron": {"points"}, "margins": {"points"}}
TRAIT_TYPE = {"int": Int, "float": Float, "bool": Bool, "choice": Unicode, "text": Unicode,
              "ints": List, "floats": List, "points": List, "choices": List}
SMALL = {"generalization": {"ns": "4, 8", "trials": "10"}}


def _model(tab):
    return MODELS[tab](**SMALL.get(tab, {}))


def _own_points(n=12, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, size=(n, 2))
    return [(float(a), float(b), 1 if a + 0.5 * b > 0.1 else -1) for a, b in X]


def _changed(tab):
    """A model in a state far from the opening one: settings, edited points and a step."""
    m = _model(tab)
    if tab == "perceptron":
        assert m.update(dataset="separable", n=12, seed=3, eta="0.5", rule="margin",
                        order="shuffle", w0="0.5, -1", max_epochs=7)
        assert m.add_point(0.25, -1.5, -1)
    elif tab == "margins":
        assert m.update(dataset="overlapping", n=16, seed=2, log_c="0.5", eta=0.02)
        assert m.add_point(0.5, 0.5, 1)
        assert m.set_layout("side")
    elif tab == "xor":
        assert m.update(view="kernel", degree=3, kernel_c=0.5, coding="01", passes=9)
    elif tab == "cover":
        assert m.update(view="recursion", ms="2, 40", xaxis="n", trials=50, seed=5, n_points=5,
                        rec_m=3, rec_n=8)
        assert m.add_point(0.25, -0.5)  # the random points placed, one more
    else:
        assert m.update(dataset="own", points=_own_points(), rule="classic", show_hinge=False,
                        seed=5)
    m.go(3)
    assert m.step == 3
    return m


@pytest.mark.parametrize("tab", MODELS)
def test_every_field_has_a_trait_of_its_kind_with_its_default_made_by_the_spec(tab):
    cls = MODELS[tab]
    spec, defaults = cls.spec, cls.spec.defaults()
    traits = cls.class_traits()
    for name in spec.names:
        if name in HELD_ELSEWHERE.get(tab, ()):
            assert name not in traits
            continue
        trait, kind = traits[name], spec.field(name).kind
        assert isinstance(trait, TRAIT_TYPE[kind]), (name, kind, type(trait))
        assert trait.metadata["field"] == name
        default = trait.default()
        assert (list(default) if kind in ("ints", "floats", "points", "choices") else default) == \
            defaults[name], name
        # declared once: no model writes a trait of a field in its own class body
        assert name not in cls.__dict__, f"{cls.__name__} declares {name!r} by hand"


@pytest.mark.parametrize("tab", MODELS)
def test_the_opening_state_is_the_specs_defaults(tab):
    m = MODELS[tab]()
    assert m.get_state() == m.spec.defaults()
    assert set(m.params) <= set(m.spec.names)


@pytest.mark.parametrize("tab", MODELS)
def test_get_state_set_state_round_trips_through_a_file_and_a_link(tab):
    m = _changed(tab)
    state = m.get_state()
    assert state != m.spec.defaults() and state["step"] == 3
    assert set(state) == set(m.spec.names)
    for via in ("json", "query"):
        if via == "json":
            values, problems = m.spec.from_json(m.spec.to_json(state))
        else:
            values, problems = m.spec.from_query(m.spec.to_query(state))
        assert problems == []
        other = _model(tab)
        assert other.set_state(values), other.message
        assert other.get_state() == state
        assert other.refusal is None


@pytest.mark.parametrize("tab", MODELS)
@pytest.mark.parametrize("bad", [{"nonsense": 1}, {"step": -1}, {"step": "abc"}, ["step", 1]])
def test_a_bad_state_is_refused_as_a_value_and_the_state_kept(tab, bad):
    m = _changed(tab)
    before, applied = m.get_state(), m.applied
    assert not m.set_state(bad)
    assert isinstance(m.refusal, Refusal) and m.refusal.kept == "settings"
    assert m.message == m.refusal.text
    assert m.get_state() == before and m.applied == applied


@pytest.mark.parametrize("tab, bad, why", [
    ("perceptron", {"dataset": "koski", "batch": 7}, "batch size must be at most"),
    ("margins", {"dataset": "koski", "log_c": -3.0}, "SGD step η must be below"),  # η·ρ ≥ 0.5
    ("generalization", {"dataset": "own", "points": _own_points(n=3)}, "too few"),
    ("cover", {"n_points": 4, "page": 2}, "page must be at most 1"),  # 2^4 = 16 tiles: one page
])
def test_a_valid_state_that_gives_no_valid_run_is_refused_and_the_state_kept(tab, bad, why):
    m = _changed(tab)
    before = m.get_state()
    m.spec.validate(bad)  # each value is valid on its own
    assert not m.set_state(bad)
    assert isinstance(m.refusal, Refusal) and why in m.refusal.why
    assert m.get_state() == before


@pytest.mark.parametrize("tab", MODELS)
def test_reset_brings_every_field_back_to_its_default(tab):
    m = _changed(tab)
    assert m.reset()
    assert m.get_state() == m.spec.defaults()


@pytest.mark.parametrize("tab", MODELS)
def test_update_takes_only_the_run_parameters(tab):
    m = _model(tab)
    with pytest.raises(TypeError, match="unknown parameters"):
        m.update(nonsense=1)


@pytest.mark.parametrize("field, default, trait_type", [
    (Field("n", "n", "int", 4, min=1, max=9), 4, Int),
    (Field("eta", "η", "float", 0.5, min=0.0, min_open=True), 0.5, Float),
    (Field("on", "on", "bool", True), True, Bool),
    (Field("pick", "pick", "choice", "b", choices=("a", "b")), "b", Unicode),
    (Field("name", "name", "text", "x"), "x", Unicode),
    (Field("ks", "ks", "ints", "1, 2"), [1, 2], List),
    (Field("w", "w", "floats", [0.5], optional=True), [0.5], List),
    (Field("pts", "pts", "points", "1,2,1;0,0,-1"), [(1.0, 2.0, 1), (0.0, 0.0, -1)], List),
])
def test_field_trait_gives_the_kinds_trait_without_checking_bounds_twice(field, default,
                                                                         trait_type):
    trait = field_trait(field)
    assert isinstance(trait, trait_type)
    assert trait.default() == default
    cls = state_model(StateSpec("demo", [field]))
    m = cls()
    assert getattr(m, field.name) == default and m.get_state() == {field.name: default}
    if field.kind == "int":
        m.n = 99  # beyond the field's max: the trait holds it, the spec refuses it
        assert not m.spec.field("n").parse(4) == 99
        with pytest.raises(ValueError, match="from 1 to 9"):
            m.spec.validate(m.get_state())
    if field.kind in ("ints", "floats"):
        with pytest.raises(TraitError):
            setattr(m, field.name, ["x"])  # still the kind's type


def test_state_model_names_its_fields_and_refuses_unknown_ones():
    spec = StateSpec("demo_tab", [Field("a", "a", "int", 1), Field("b", "b", "bool", False)])
    cls = state_model(spec, without=("b",), params=("a",))
    assert issubclass(cls, TabModel) and cls.__name__ == "DemoTabState"
    assert cls.spec is spec and cls.params == ("a",)
    assert set(state_traits(spec)) == {"a", "b"}
    assert "b" not in cls.class_traits()
    with pytest.raises(ValueError, match="no fields"):
        state_traits(spec, without=("c",))
