"""explorer/app/state.py: one table of fields per tab builds the reset, JSON, links and parsing."""

import importlib
import json
import math
import pathlib
import subprocess
import sys
import types

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

# ``explorer.app`` imports ipywidgets on purpose; the state modules must be usable without it, so
# they are loaded from their files as a package of their own over the same folder (``state.py``
# imports only ``state_field.py``), and ``explorer/app/__init__.py`` never runs.
APP_DIR = pathlib.Path(__file__).resolve().parents[1] / "explorer" / "app"
_package = types.ModuleType("_state_under_test")
_package.__path__ = [str(APP_DIR)]
sys.modules["_state_under_test"] = _package
state = importlib.import_module("_state_under_test.state")
Field, StateSpec, query_tab = state.Field, state.StateSpec, state.query_tab

DATASETS = ("koski", "separable", "overlapping", "and", "or", "nand", "xor", "iris", "breast_cancer")
RULES = ("classic", "margin", "rosenblatt_r2", "regularized", "svm_sgd", "relaxation", "pocket",
         "averaged")
ORDERS = ("cyclic", "shuffle", "random", "custom")

SPEC = StateSpec("perceptron", [
    Field(name="dataset", label="dataset", kind="choice", default="koski", choices=DATASETS),
    Field(name="n", label="n", kind="int", default=40, min=1, max=2000),
    Field(name="margin", label="margin", kind="float", default=0.3, min=0, max=1),
    Field(name="seed", label="seed", kind="int", default=0, min=0, max=2**31 - 1),
    Field(name="rule", label="rule", kind="choice", default="classic", choices=RULES),
    Field(name="eta", label="η", kind="float", default=1.0, min=0, min_open=True, max=1e6),
    Field(name="forget", label="forgetting", kind="float", default=1.0, min=0, max=1),
    Field(name="rho", label="ρ", kind="float", default=0.01, min=0, max=1e3),
    Field(name="order", label="order", kind="choice", default="cyclic", choices=ORDERS),
    Field(name="custom_order", label="custom order", kind="ints", default=(), item_min=1,
          item_max=100_000, max_len=1000, optional=True),
    Field(name="w0", label="start w", kind="floats", default=(), item_min=-1e6, item_max=1e6,
          max_len=10, optional=True),
    Field(name="fit_intercept", label="fit intercept", kind="bool", default=True),
    Field(name="max_epochs", label="max epochs", kind="int", default=50, min=1, max=100_000),
    Field(name="step", label="step", kind="int", default=0, min=0),
    Field(name="points", label="points", kind="points", default=(), item_min=-1e6, item_max=1e6,
          max_len=500, optional=True),
])
DEFAULTS = SPEC.defaults()
LINK = "The link's settings were not used: "
FILE = "The file was not used: "
END = ". Showing the defaults."
IN_LINK, IN_FILE = "In the link, ", "In the file, "

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
point = st.tuples(finite, finite, st.sampled_from([-1, 1]))
values = st.fixed_dictionaries({
    "dataset": st.sampled_from(DATASETS),
    "n": st.integers(1, 2000),
    "margin": st.floats(0, 1),
    "seed": st.integers(0, 2**31 - 1),
    "rule": st.sampled_from(RULES),
    "eta": st.floats(0, 1e6, exclude_min=True),
    "forget": st.floats(0, 1),
    "rho": st.floats(0, 1e3),
    "order": st.sampled_from(ORDERS),
    "custom_order": st.lists(st.integers(1, 100_000), max_size=50),
    "w0": st.lists(finite, max_size=10),
    "fit_intercept": st.booleans(),
    "max_epochs": st.integers(1, 100_000),
    "step": st.integers(0, 10**12),
    "points": st.lists(point, max_size=80),
})


def _canonical(v):
    """What the spec stores: -0.0 as 0.0, points as tuples."""
    out = dict(v)
    for key in ("margin", "eta", "forget", "rho"):
        out[key] = out[key] + 0.0
    out["w0"] = [x + 0.0 for x in v["w0"]]
    out["points"] = [(a + 0.0, b + 0.0, c) for a, b, c in v["points"]]
    return {k: out[k] for k in SPEC.names}


def _same(a, b):
    """Equal, and no float changed its sign bit or type (exact round trip)."""
    assert a == b
    assert repr(a) == repr(b)


# ---------------------------------------------------------------- declaring


def test_defaults_are_fresh_and_complete():
    d = SPEC.defaults()
    assert list(d) == list(SPEC.names)
    assert d["n"] == 40 and d["eta"] == 1.0 and d["fit_intercept"] is True and d["w0"] == []
    d["w0"].append(1.0)
    assert SPEC.defaults()["w0"] == []
    assert SPEC.field("eta").label == "η"
    with pytest.raises(KeyError, match="foo"):
        SPEC.field("foo")


@pytest.mark.parametrize("make, match", [
    (lambda: StateSpec("t", [Field(name="a", label="a", kind="int", default=1),
                             Field(name="a", label="b", kind="int", default=2)]), "duplicate"),
    (lambda: Field(name="a", label="a", kind="complex", default=1), "kind"),
    (lambda: Field(name="a", label="a", kind="int", default=0, min=1), "default"),
    (lambda: Field(name="a", label="a", kind="choice", default="x"), "choices"),
    (lambda: Field(name="tab", label="tab", kind="text", default="x"), "name"),
    (lambda: StateSpec("Bad Tab", []), "tab"),
])
def test_bad_declarations_raise(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_field_is_frozen_and_hashable():
    f = SPEC.field("w0")
    with pytest.raises(AttributeError):
        f.label = "x"
    assert hash(f) == hash(SPEC.field("w0"))


# ---------------------------------------------------------------- parsing one field


@pytest.mark.parametrize("name, raw, expected", [
    ("n", "40", 40), ("n", " +40 ", 40), ("n", 40, 40), ("n", np.int64(7), 7), ("n", 40.0, 40),
    ("eta", "0.5", 0.5), ("eta", ".5", 0.5), ("eta", "1E-3", 0.001), ("eta", 2, 2.0),
    ("eta", "1e6", 1e6), ("margin", "-0", 0.0), ("margin", "0", 0.0),
    ("fit_intercept", "yes", True), ("fit_intercept", " OFF ", False), ("fit_intercept", "1", True),
    ("fit_intercept", "0", False), ("fit_intercept", "On", True), ("fit_intercept", False, False),
    ("fit_intercept", np.bool_(True), True), ("fit_intercept", "False", False),
    ("rule", " pocket ", "pocket"),
    ("w0", "1, 0.5", [1.0, 0.5]), ("w0", "5 3 1", [5.0, 3.0, 1.0]), ("w0", "1;2,,3", [1.0, 2.0, 3.0]),
    ("w0", "", []), ("w0", "  ", []), ("w0", [1, 2.5], [1.0, 2.5]),
    ("w0", np.array([1.0, -1e6]), [1.0, -1e6]),
    ("custom_order", "5, 3, 1, 2, 4, 6", [5, 3, 1, 2, 4, 6]), ("custom_order", "", []),
    ("custom_order", [1.0, 2], [1, 2]),
    ("points", "1.5,-0.5,1;1,1,1;-2,1,-1", [(1.5, -0.5, 1), (1.0, 1.0, 1), (-2.0, 1.0, -1)]),
    ("points", " 1.5 -0.5 +1 ; 1, 1, -1 ;", [(1.5, -0.5, 1), (1.0, 1.0, -1)]),
    ("points", [[0, 0, 1.0], (1, 2, -1)], [(0.0, 0.0, 1), (1.0, 2.0, -1)]),
    ("points", np.array([[0.5, 0.0, -1.0]]), [(0.5, 0.0, -1)]), ("points", "", []),
])
def test_parse_accepts(name, raw, expected):
    got = SPEC.field(name).parse(raw)
    _same(got, expected)


@pytest.mark.parametrize("name, raw, message", [
    ("eta", "abc", "η must be a number > 0; got 'abc'"),
    ("eta", "", "η must be a number > 0; got an empty field"),
    ("eta", "   ", "η must be a number > 0; got an empty field"),
    ("n", "2.5", "n must be a whole number from 1 to 2000; got '2.5'"),
    ("n", 2.5, "n must be a whole number from 1 to 2000; got 2.5"),
    ("eta", 1e308, "η must be at most 1e+06; got 1e+308"),
    ("eta", "1e308", "η must be at most 1e+06; got 1e+308"),
    ("eta", "1e999", "η must be a number > 0; got '1e999' (too large)"),
    ("eta", "0", "η must be a number > 0; got 0"),
    ("eta", "2e6", "η must be at most 1e+06; got 2e+06"),
    ("margin", 1.25, "margin must be a number from 0 to 1; got 1.25"),
    ("w0", "a, 1", "start w must be numbers separated by commas (at most 1e+06 in size); "
                   "got 'a, 1' ('a' is not a number)"),
    ("rule", "foo", "rule must be one of classic, margin, rosenblatt_r2, regularized, svm_sgd, "
                    "relaxation, pocket, averaged; got 'foo'"),
    ("n", "5000", "n must be a whole number from 1 to 2000; got 5000"),
    ("step", -1, "step must be a whole number ≥ 0; got -1"),
    ("custom_order", "1, 2.5", "custom order must be whole numbers separated by commas "
                               "(each from 1 to 100000); got '1, 2.5' ('2.5' is not a whole number)"),
    ("fit_intercept", "maybe", "fit intercept must be true or false; got 'maybe'"),
    ("points", "1,2", "points must be x1,x2,label triples separated by semicolons, with label -1 or +1 "
                      "(at most 1e+06 in size); got '1,2' (point 1 has 2 numbers, not 3)"),
    ("points", "1,2,3", "points must be x1,x2,label triples separated by semicolons, with label -1 or +1 "
                        "(at most 1e+06 in size); got '1,2,3' (point 1 has label '3', not -1 or +1)"),
    ("w0", [1.0] * 11, "start w must have at most 10 numbers; got 11"),
])
def test_parse_messages_exact(name, raw, message):
    with pytest.raises(ValueError) as info:
        SPEC.field(name).parse(raw)
    assert str(info.value) == message


BAD = [
    ("dataset", "Koski"), ("dataset", "mnist"), ("dataset", 3), ("dataset", ""),
    ("n", "2.5"), ("n", 2.5), ("n", "4e1"), ("n", "40.0"), ("n", "1_000"), ("n", "２"), ("n", "0"),
    ("n", "2001"), ("n", True), ("n", None), ("n", "9" * 5000), ("n", "nan"), ("n", math.inf),
    ("margin", "1.5"), ("margin", -0.1), ("margin", "nan"), ("margin", "1e999"),
    ("seed", 2**31), ("seed", "-1"), ("seed", "0x10"),
    ("rule", "foo"), ("rule", "Classic"), ("rule", None),
    ("eta", ""), ("eta", "abc"), ("eta", "0"), ("eta", -1.0), ("eta", 1e308), ("eta", "nan"),
    ("eta", "inf"), ("eta", "-inf"), ("eta", "Infinity"), ("eta", math.nan), ("eta", math.inf),
    ("eta", "1e999"), ("eta", 10**400), ("eta", "1,5"), ("eta", [1.0]), ("eta", False),
    ("forget", "2"), ("forget", -1),
    ("rho", "1001"), ("rho", "-0.5"),
    ("order", "sideways"), ("order", ""),
    ("custom_order", "0"), ("custom_order", "100001"), ("custom_order", "a"), ("custom_order", "1, 2.5"),
    ("custom_order", [1, True]), ("custom_order", "1 " * 1001), ("custom_order", 5),
    ("w0", "a, 1"), ("w0", "1e7"), ("w0", "nan"), ("w0", "1, inf"), ("w0", [1.0, math.nan]),
    ("w0", "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11"), ("w0", "1e999"), ("w0", {"a": 1}),
    ("fit_intercept", "maybe"), ("fit_intercept", 1), ("fit_intercept", None), ("fit_intercept", ""),
    ("max_epochs", 0), ("max_epochs", "100001"), ("max_epochs", "ten"),
    ("step", -1), ("step", "-1"), ("step", "1.5"),
    ("points", "1,2"), ("points", "1,2,3"), ("points", "a,1,1"), ("points", "1,2,1;3"),
    ("points", "1e7,0,1"), ("points", "nan,0,1"), ("points", "0,0,0"), ("points", "0,0,x"),
    ("points", [[1, 2]]), ("points", [1, 2, 1]), ("points", ["1,2,1"]), ("points", "0,0,1;" * 501),
    ("points", [[0, 0, True]]), ("points", 7),
]


@pytest.mark.parametrize("name, raw", BAD)
def test_every_bad_value_gives_a_message_with_the_label(name, raw):
    field = SPEC.field(name)
    with pytest.raises(ValueError) as info:
        field.parse(raw)
    text = str(info.value)
    assert text.startswith(field.label + " must ")
    assert "got " in text
    assert len(text) < 300  # long input is cut in messages


@pytest.mark.parametrize("name, raw", [(name, raw) for name, raw in BAD if isinstance(raw, str)])
def test_every_bad_value_in_a_link_keeps_its_default_and_the_other_settings(name, raw):
    """Issue 30, item 13: one bad value threw every good one of the link away."""
    good = {"seed": 5} if name != "seed" else {"rule": "margin"}
    query = "&".join([*(f"{k}={v}" for k, v in good.items()), f"{name}={state.quote_plus(raw)}"])
    got, messages = SPEC.from_query(query)
    assert got == {**DEFAULTS, **good}
    field = SPEC.field(name)
    named = name if field.label == name else f"{name} ({field.label})"
    assert len(messages) == 1 and messages[0].startswith(IN_LINK + named + " must "), messages
    default = field.format(field.default) or "empty"
    assert messages[0].endswith(f"; kept the default ({default[:40]}{'…' if len(default) > 40 else ''}).")


def test_the_issue_link_keeps_its_good_settings_and_names_the_bad_one():
    got, messages = SPEC.from_query("?tab=perceptron&dataset=separable&seed=5&rule=margin&n=abc")
    assert got == {**DEFAULTS, "dataset": "separable", "seed": 5, "rule": "margin"}
    assert messages == [IN_LINK + "n must be a whole number from 1 to 2000; got 'abc'; kept the "
                        "default (40)."]


def test_a_data_sets_own_settings_are_kept_when_the_data_set_is_refused():
    """The rule is per setting, with no groups: the link's n and seed stay even though its
    data set was refused (the tab then checks the kept settings together)."""
    got, messages = SPEC.from_query("dataset=blobs&n=12&seed=3")
    assert got == {**DEFAULTS, "n": 12, "seed": 3}
    assert len(messages) == 1 and messages[0].startswith(IN_LINK + "dataset must be one of koski")


def test_item_errors_name_the_offending_item():
    with pytest.raises(ValueError, match=r"'2e7' is out of range"):
        SPEC.field("w0").parse("1, 2e7, 3")
    with pytest.raises(ValueError, match=r"point 2: 'b' is not a number"):
        SPEC.field("points").parse("1,1,1;b,1,1")
    with pytest.raises(ValueError, match=r"'1e999' is too large"):
        SPEC.field("w0").parse("1e999")


def test_non_optional_list_refuses_empty_and_text_field():
    f = Field(name="w", label="weights", kind="floats", default=(1.0,))
    with pytest.raises(ValueError, match="weights must be numbers separated by commas; got an empty field"):
        f.parse("")
    t = Field(name="title", label="title", kind="text", default="hi", max_len=5)
    assert t.parse("a&b=c") == "a&b=c"
    with pytest.raises(ValueError, match="title must have at most 5 characters; got 6"):
        t.parse("abcdef")
    with pytest.raises(ValueError, match="title must be text of at most 5 characters; got an empty field"):
        t.parse("")


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("name", SPEC.names)
def test_format_round_trips_defaults_and_samples(name):
    field = SPEC.field(name)
    samples = {"eta": [0.1, 1e-300, 5e-324, 1 / 3, 1e6, 123456.789, 2.0**-1074 * 3],
               "w0": [[0.1, -0.0, 1e-300, -1e6, 999999.9999999999]],
               "points": [[(0.1, -1e-300, 1), (2.0, 3.0, -1)]],
               "fit_intercept": [True, False], "seed": [2**31 - 1]}.get(name, [])
    for v in [field.parse(field.default), *samples]:
        _same(field.parse(field.format(v)), field.parse(v))


def test_format_writes_compact_exact_text():
    assert SPEC.field("w0").format([1.0, 0.5]) == "1, 0.5"
    assert SPEC.field("eta").format(1e-300) == "1e-300"
    assert SPEC.field("eta").format(0.1) == "0.1"
    assert SPEC.field("points").format([(1.5, -0.5, 1), (1, 1, 1), (-2, 1, -1)]) == "1.5,-0.5,1;1,1,1;-2,1,-1"
    assert SPEC.field("fit_intercept").format(False) == "false"
    with pytest.raises(ValueError, match="η"):
        SPEC.field("eta").format(-1.0)
    free = Field(name="x", label="x", kind="float", default=0.0)
    for v in (1e15 + 0.5, 1e16, 2.0**53 + 2, -1.7976931348623157e308, 5e-324, 12345678901234.5):
        _same(free.parse(free.format(v)), v)
    assert free.format(1e16) == "1e+16" and free.format(-3.0) == "-3"


def test_negative_zero_is_stored_as_zero():
    v = SPEC.field("margin").parse(-0.0)
    assert math.copysign(1.0, v) == 1.0
    assert all(math.copysign(1.0, x) == 1.0 for x in SPEC.field("w0").parse("-0, -0.0"))
    got, _ = SPEC.from_query(SPEC.to_query({"w0": [-0.0, 1.0]}))
    assert repr(got["w0"]) == "[0.0, 1.0]"


@settings(max_examples=150, deadline=None)
@given(values)
def test_query_round_trip_is_exact(v):
    expected = _canonical(v)
    query = SPEC.to_query(v)
    got, messages = SPEC.from_query(query)
    assert messages == []
    _same(got, expected)
    assert query_tab(query) == "perceptron"


@settings(max_examples=150, deadline=None)
@given(values)
def test_json_round_trip_is_exact(v):
    text = SPEC.to_json(v)
    got, messages = SPEC.from_json(text)
    assert messages == []
    _same(got, _canonical(v))
    got, messages = SPEC.from_json(text.encode("utf-8"))
    assert messages == []
    _same(got, _canonical(v))


@settings(max_examples=200, deadline=None)
@given(st.lists(finite, max_size=10), st.lists(point, max_size=30), st.floats(0, 1e6, exclude_min=True))
def test_field_text_round_trip_is_exact(w0, points, eta):
    for name, v in (("w0", w0), ("points", points), ("eta", eta)):
        f = SPEC.field(name)
        _same(f.parse(f.format(v)), f.parse(v))


# ---------------------------------------------------------------- links


def test_to_query_writes_only_changes_in_declared_order():
    assert SPEC.to_query({}) == "tab=perceptron"
    assert SPEC.to_query(DEFAULTS) == "tab=perceptron"
    assert SPEC.to_query({"step": 3, "eta": 0.5}) == "tab=perceptron&eta=0.5&step=3"
    q = SPEC.to_query({"w0": [1, 0.5], "points": [(1.5, -0.5, 1), (1, 1, 1), (-2, 1, -1)],
                       "fit_intercept": False})
    assert q == "tab=perceptron&w0=1,+0.5&fit_intercept=false&points=1.5,-0.5,1;1,1,1;-2,1,-1"


def test_to_query_is_strict():
    with pytest.raises(ValueError, match="η must be a number > 0"):
        SPEC.to_query({"eta": 0})
    with pytest.raises(ValueError, match="unknown setting 'foo'"):
        SPEC.to_query({"foo": 1})
    many = [(1 / 3 + i, -1 / 7 - i, 1) for i in range(500)]
    with pytest.raises(ValueError, match="too long for a link"):
        SPEC.to_query({"points": many})


def test_empty_parameter_means_an_empty_field():
    spec = StateSpec("koski", [
        Field(name="w0", label="start w", kind="floats", default=(1, 0.5), optional=True),
        Field(name="title", label="title", kind="text", default="Koski", optional=True),
        Field(name="eta", label="η", kind="float", default=0.2, min=0, min_open=True),
    ])
    q = spec.to_query({"w0": [], "title": "a&b=c;d é"})
    assert q == "tab=koski&w0=&title=a%26b%3Dc;d+%C3%A9"
    assert spec.from_query(q) == ({"w0": [], "title": "a&b=c;d é", "eta": 0.2}, [])
    got, messages = spec.from_query("eta=&w0=1")
    assert got == {**spec.defaults(), "w0": [1.0]}
    assert messages == [IN_LINK + "eta (η) must be a number > 0; got an empty field; kept the "
                        "default (0.2)."]


@pytest.mark.parametrize("query, state_", [
    ("", {}), ("?", {}), ("tab=perceptron", {}), ("?tab=perceptron&eta=0.5&step=3", {"eta": 0.5, "step": 3}),
    ("eta=0.5", {"eta": 0.5}), ("&eta=0.5&&step=3&", {"eta": 0.5, "step": 3}),
    ("eta=%30.5", {"eta": 0.5}), ("w0=1%2C+0.5", {"w0": [1.0, 0.5]}), ("w0=1,+0.5", {"w0": [1.0, 0.5]}),
    ("points=1.5,-0.5,1;1,1,1;-2,1,-1", {"points": [(1.5, -0.5, 1), (1.0, 1.0, 1), (-2.0, 1.0, -1)]}),
    ("points=", {}), ("fit_intercept=no&rule=pocket", {"fit_intercept": False, "rule": "pocket"}),
])
def test_from_query_reads_good_links(query, state_):
    assert SPEC.from_query(query) == ({**DEFAULTS, **state_}, [])


@pytest.mark.parametrize("query, says", [
    ("%%%", "'%%%' is not of the form name=value; it was left out"),
    ("eta", "'eta' is not of the form name=value; it was left out"),
    ("eta=1&eta=2", "'eta' appears more than once; kept the default (1)"),
    ("foo=1", "'foo' is not a setting of this tab; it was left out"),
    ("points=1,2", "points must be x1,x2,label triples"),
    ("points=1,2,3", "(point 1 has label '3', not -1 or +1)"),
    ("eta=é", "eta (η) must be a number > 0; got 'é'"),
    ("eta=%C3%A9", "eta (η) must be a number > 0; got 'é'"),
    ("eta=%EF%BC%91", "eta (η) must be a number > 0; got '１'"),
    ("é=1", "'é' is not a setting of this tab"),
    ("eta=%ff", "'eta=%ff' has a broken %-escape; it was left out"),
    ("step=-1", "step must be a whole number ≥ 0; got -1"),
    ("n=2.5", "n must be a whole number from 1 to 2000; got '2.5'"),
    ("eta=nan", "eta (η) must be a number > 0; got 'nan'"),
    ("eta=1e308", "eta (η) must be at most 1e+06; got 1e+308"),
    ("eta=1\x00", "eta (η) must be a number > 0"),
])
def test_malformed_parameters_are_left_out_and_named(query, says):
    got, messages = SPEC.from_query(query + "&rule=pocket")
    assert got == {**DEFAULTS, "rule": "pocket"}
    assert messages and all(m.startswith(IN_LINK) and m.endswith(".") for m in messages)
    assert any(says in m for m in messages), messages


@pytest.mark.parametrize("query, says", [
    ("tab=margins&eta=1", "it opens the 'margins' tab, not 'perceptron'"),
    ("x" * 10_240, "it is longer than 8192 characters"),
    ("eta=1&" * 2000, "it is longer than 8192 characters"),
    ("é" * 5000, "it is longer than 8192 characters"),
    ("tab=perceptron&tab=perceptron", "'tab' appears more than once"),
    (None, "it is not text (got a NoneType)"),
    (b"eta=1", "it is not text (got a bytes)"),
])
def test_unreadable_links_are_refused_whole(query, says):
    got, messages = SPEC.from_query(query)
    assert got is None
    assert messages == [LINK + says + END]


def test_link_messages_exact_and_capped():
    assert SPEC.from_query("foo=1") == (DEFAULTS, [
        IN_LINK + "'foo' is not a setting of this tab; it was left out."])
    assert SPEC.from_query("eta=abc&n=0&foo=1")[1] == [
        IN_LINK + "eta (η) must be a number > 0; got 'abc'; kept the default (1).",
        IN_LINK + "n must be a whole number from 1 to 2000; got 0; kept the default (40).",
        IN_LINK + "'foo' is not a setting of this tab; it was left out."]
    _, messages = SPEC.from_query("&".join(f"k{i}=1" for i in range(50)))
    assert len(messages) == state.MAX_MESSAGES + 1 and "45 more" in messages[-1]


def test_long_link_is_refused_before_parsing(monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("parsed")

    monkeypatch.setattr(state, "unquote_plus", boom)
    got, messages = SPEC.from_query("eta=1&" * 2000)
    assert got is None and "longer than" in messages[0]
    assert query_tab("tab=perceptron&" + "x" * 9000) is None


@pytest.mark.parametrize("query, tab", [
    ("tab=margins&eta=1", "margins"), ("?tab=perceptron", "perceptron"), ("tab=cover", "cover"),
    ("%%%&tab=xor&eta=abc", "xor"), ("tab=%67eneralization", "generalization"),
    ("", None), ("?", None), ("eta=1", None), ("tab=", None), ("tab", None), ("tab=a&tab=b", None),
    ("tab=%ff", None), ("tab=Bad+Tab!", None), ("tab=é", None), ("tab=" + "a" * 60, None),
    (None, None), (b"tab=xor", None), (42, None), ("tab=xor&" + "x" * 9000, None),
])
def test_query_tab(query, tab):
    assert query_tab(query) == tab


# ---------------------------------------------------------------- files


def test_to_json_is_a_complete_native_document():
    v = {"eta": 0.5, "points": [(1.5, -0.5, 1)], "w0": [1, 0.5], "fit_intercept": False}
    doc = json.loads(SPEC.to_json(v))
    assert list(doc) == ["app", "version", "tab", "state"]
    assert (doc["app"], doc["version"], doc["tab"]) == ("perceptron-explorer", 1, "perceptron")
    assert list(doc["state"]) == list(SPEC.names)
    assert doc["state"]["points"] == [[1.5, -0.5, 1]]
    assert doc["state"]["w0"] == [1.0, 0.5] and doc["state"]["fit_intercept"] is False
    with pytest.raises(ValueError, match="n must be"):
        SPEC.to_json({"n": 0})


def _doc(**state_overrides):
    return {"app": "perceptron-explorer", "version": 1, "tab": "perceptron", "state": state_overrides}


def test_from_json_reads_partial_and_typed_files():
    assert SPEC.from_json(json.dumps(_doc(eta=1, n=12.0))) == ({**DEFAULTS, "eta": 1.0, "n": 12}, [])
    got = SPEC.from_json(json.dumps(_doc(points=[[1, 2, -1]])))
    assert got == ({**DEFAULTS, "points": [(1.0, 2.0, -1)]}, [])
    bom = b"\xef\xbb\xbf" + json.dumps(_doc(step=4)).encode()
    assert SPEC.from_json(bom) == ({**DEFAULTS, "step": 4}, [])
    assert SPEC.from_json(bytearray(json.dumps(_doc()).encode())) == (DEFAULTS, [])


@pytest.mark.parametrize("text, says", [
    ("{", "it is not valid JSON (line 1, column 2)"),
    ("", "it is not valid JSON"),
    ("[1, 2]", "it holds a JSON list, not an object of settings"),
    ('"perceptron"', "it holds a JSON str"),
    (json.dumps({**_doc(), "version": 2}), "it has version 2; this program reads version 1"),
    (json.dumps({**_doc(), "version": "1"}), "it has version '1'"),
    (json.dumps({**_doc(), "version": True}), "it has version True"),
    (json.dumps({**_doc(), "tab": "margins"}), "it is for the 'margins' tab, not 'perceptron'"),
    (json.dumps({**_doc(), "app": "other"}), "it is not a Perceptron Explorer settings file"),
    (json.dumps({"version": 1}), "it is not a Perceptron Explorer settings file"),
    (json.dumps({**_doc(), "extra": 1}), "unknown entry 'extra'"),
    (json.dumps({**_doc(), "state": [1]}), 'it has no "state" object'),
    (json.dumps({k: v for k, v in _doc().items() if k != "state"}), 'it has no "state" object'),
    (json.dumps(_doc()).replace('"state": {}', '"state": {"eta": NaN}'), "it contains NaN"),
    (json.dumps(_doc()).replace('"state": {}', '"state": {"eta": -Infinity}'), "it contains -Infinity"),
    (json.dumps(_doc()).replace('"state": {}', '"state": {"eta": 1, "eta": 2}'), "'eta' appears twice"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    (" " * 2_000_000 + "{}", "it is larger than 1 MB"),
    (b" " * 2_000_000, "it is larger than 1 MB"),
    ("é" * 600_000, "it is larger than 1 MB"),
    (b"\xff\xfe", "it is not UTF-8 text"),
    (b"\xff\xfe{\x00}\x00", "it is not UTF-8 text"),
    (None, "it is not text (got a NoneType)"),
    ({"app": "perceptron-explorer"}, "it is not text (got a dict)"),
])
def test_unreadable_files_are_refused_whole(text, says):
    got, messages = SPEC.from_json(text)
    assert got is None
    assert len(messages) == 1 and messages[0].startswith(FILE) and messages[0].endswith(END)
    assert says in messages[0], messages


@pytest.mark.parametrize("bad, says", [
    ({"foo": 1}, "'foo' is not a setting of this tab; it was left out"),
    ({"eta": "abc"}, "eta (η) must be a number > 0; got 'abc'; kept the default (1)"),
    ({"n": 2.5}, "n must be a whole number from 1 to 2000; got 2.5; kept the default (40)"),
    ({"fit_intercept": 1}, "fit_intercept (fit intercept) must be true or false; got 1"),
    ({"points": [[1, 2]]}, "(point 1 has 2 numbers, not 3)"),
    ({"eta": 1e300}, "eta (η) must be at most 1e+06; got 1e+300"),
    ({"eta": "1e999"}, "eta (η) must be a number > 0; got inf (too large)"),
])
def test_a_bad_setting_in_a_file_keeps_its_default_and_the_others(bad, says):
    text = json.dumps(_doc(**bad, rule="pocket", step=3)).replace('"1e999"', "1e999")
    got, messages = SPEC.from_json(text)
    assert got == {**DEFAULTS, "rule": "pocket", "step": 3}
    assert len(messages) == 1 and messages[0].startswith(IN_FILE) and says in messages[0], messages


def test_big_file_is_refused_before_parsing(monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("parsed")

    monkeypatch.setattr(state.json, "loads", boom)
    for text in (b"{" + b" " * 2_000_000 + b"}", "{" + " " * 2_000_000 + "}"):
        got, messages = SPEC.from_json(text)
        assert got is None and messages == [FILE + "it is larger than 1 MB" + END]


# ---------------------------------------------------------------- validate and parse


def test_validate_is_strict():
    assert SPEC.validate({"eta": "0.5", "w0": "1, 2"}) == {**DEFAULTS, "eta": 0.5, "w0": [1.0, 2.0]}
    with pytest.raises(ValueError, match="unknown setting 'foo'"):
        SPEC.validate({"foo": 1})
    with pytest.raises(ValueError, match="^η must be a number > 0; got 'abc'$"):
        SPEC.validate({"eta": "abc"})
    with pytest.raises(ValueError, match="mapping"):
        SPEC.validate([("eta", 1)])


@pytest.mark.parametrize("raw", [{"foo": 1}, {"eta": "abc"}, {"n": 2.5}, {1: 2},
                                 {"points": object()}, {"w0": [object()]}])
def test_parse_never_raises_and_keeps_the_good_settings(raw):
    got, messages = SPEC.parse({**raw, "order": "shuffle"})
    assert got == {**DEFAULTS, "order": "shuffle"}
    assert len(messages) == 1 and messages[0].startswith("In the settings, "), messages


@pytest.mark.parametrize("raw", [[("eta", 1)], None])
def test_parse_refuses_what_is_no_mapping(raw):
    got, messages = SPEC.parse(raw)
    assert got is None
    assert messages[0].startswith("The settings were not used: ") and messages[0].endswith(END)


def test_parse_accepts_good_settings():
    assert SPEC.parse({"eta": "2", "order": "shuffle"}) == ({**DEFAULTS, "eta": 2.0, "order": "shuffle"}, [])


# ---------------------------------------------------------------- architecture


def test_state_module_imports_no_widgets_or_matplotlib_and_of_the_package_only_its_catalogs():
    code = (
        "import importlib, sys, types\n"
        f"p = types.ModuleType('s'); p.__path__ = [{str(APP_DIR)!r}]; sys.modules['s'] = p\n"
        "importlib.import_module('s.state')\n"
        "bad = sorted(k for k in sys.modules if k.split('.')[0] in "
        "('matplotlib', 'ipywidgets', 'traitlets', 'explorer'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # of the package, only its catalogs (messages in the page's language; the standard library)
    assert out.stdout.strip() == "explorer,explorer.shared,explorer.shared.i18n"


def test_a_choices_field_reads_distinct_names_in_the_declared_order():
    """The "choices" kind (the Perceptron tab's "race against"): names in any order and
    separator, kept in the declared order so that each set has one text; repeats, unknown
    names and too many are refused in words."""
    f = Field("race", "race against", "choices", [], choices=("classic", "margin", "pocket"),
              max_len=2, optional=True)
    assert f.default == () and f.parse("") == []
    assert f.parse("pocket, classic") == f.parse(["classic", "pocket"]) == ["classic", "pocket"]
    assert f.format(["pocket", "classic"]) == "classic,pocket"
    assert f.parse(f.format(["margin"])) == ["margin"]
    for bad, words in [("hebb", "'hebb' is not one of them"), ("margin margin", "repeated"),
                       ("classic,margin,pocket", "at most 2 names; got 3"), (3, "got 3")]:
        with pytest.raises(ValueError, match="race against") as err:
            f.parse(bad)
        assert words in str(err.value)
    with pytest.raises(ValueError, match="needs choices"):
        Field("race", "race", "choices", [])
