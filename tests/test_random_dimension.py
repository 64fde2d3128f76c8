"""The Perceptron tab's random data sets in a chosen dimension M (issue 34, item 1): the field
``dim`` ("features", 2 to :data:`MAX_FEATURES`) draws "Separable, random" and "Overlapping blobs"
in M dimensions, trained there (the run is :func:`explorer.perceptron.train` on the arrays of
:func:`explorer.shared.datasets.load`), with the mistake bound of the data's own R and γ, drawn
in the plane of w. Links and saved states carry it; a link without it opens 2-D data as before.
A bad dimension is refused in words; the data, the dimension and the step are kept."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.app import Dashboard  # noqa: E402
from explorer.app.perceptron import PerceptronView  # noqa: E402
from explorer.app.perceptron.model import MAX_FEATURES, SPEC, PerceptronModel  # noqa: E402
from explorer.perceptron import bounds, train
from explorer.shared import datasets

WORDS = f"features must be a whole number from 2 to {MAX_FEATURES}"
IN_LINK = f"In the link, dim (features) must be a whole number from 2 to {MAX_FEATURES}"


def _reference(name: str, **params):
    """The core's data set and run with the tab's generic defaults (classic rule, η = 1,
    cyclic passes, 50 epochs, an offset, from w = 0)."""
    ds = datasets.load(name, **params)
    return ds, train(ds.X, ds.y, rule="classic", eta=1.0, order="cyclic", max_epochs=50,
                     fit_intercept=True)


@pytest.mark.parametrize("name,M,params", [
    ("separable", 5, {"n": 40, "margin": 0.3, "seed": 0}),
    ("separable", 3, {"n": 25, "margin": 0.1, "seed": 7}),
    ("overlapping", 4, {"n": 30, "seed": 2}),
])
def test_a_random_set_of_m_features_trains_in_its_own_dimension(name, M, params):
    m = PerceptronModel(dataset=name, dim=M, **params)
    extra = {"margin": params["margin"]} if name == "separable" else {}
    ds, ref = _reference(name, n=params["n"], dim=M, seed=params["seed"], **extra)
    assert m.X.shape == (params["n"], M) and not m.edited
    np.testing.assert_array_equal(m.X, ds.X)
    np.testing.assert_array_equal(m.y, ds.y)
    assert m.trajectory.n_steps == ref.n_steps
    np.testing.assert_array_equal(m.trajectory.weights, ref.weights)
    np.testing.assert_array_equal(m.trajectory.biases, ref.biases)
    assert m.trajectory.weights.shape[1] == M


def test_the_bound_uses_the_m_dimensional_datas_own_radius_and_margin():
    m = PerceptronModel(dataset="separable", dim=5, n=40, margin=0.3, seed=0)
    Xa = bounds.augment(m.X)  # with an offset: the points (x, 1) of R^6
    H = float(np.max(np.linalg.norm(Xa, axis=1)))
    gamma = bounds.dataset_margin(Xa, m.y, fit_intercept=False)
    b = m.info.bound
    assert m.info.separable and b.value is not None
    assert b.radius == pytest.approx(H, rel=1e-9) and b.gamma == pytest.approx(gamma, rel=1e-6)
    assert b.value == pytest.approx(H**2 / gamma**2, rel=1e-6)
    assert m.trajectory.n_updates <= b.value
    # not the 2-D set of the same seed's: its points and margin differ
    flat = PerceptronModel(dataset="separable", n=40, margin=0.3, seed=0)
    assert abs(flat.info.bound.value - b.value) > 1e-3 * b.value


def test_drawn_in_the_plane_of_w_with_its_dimension_in_the_title():
    view = PerceptronView()
    view.w_dataset.value = "separable"
    view.text["dim"].value = "5"
    assert not view.messages.refused, view.messages.refused
    assert view.model.dim == 5 and view.model.X.shape[1] == 5
    assert view.figure.plane.ax.get_title(loc="left") == "5 features, in the plane of w"
    head = view.figure.scene(width=900, height=600).header()
    assert {p["name"]: p.get("heading") for p in head["panels"]}["plane"] == \
        "5 features, in the plane of w"
    view.text["dim"].value = "2"  # back to the plane of the features
    assert view.model.X.shape[1] == 2
    assert view.figure.plane.ax.get_title(loc="left") != "5 features, in the plane of w"


def test_a_link_with_dim_reopens_the_same_data_at_the_same_step():
    m = PerceptronModel(dataset="separable", dim=5, n=30, seed=4)
    m.go(17)
    query = SPEC.to_query(m.get_state())
    assert "dim=5" in query and "points=" not in query  # the data are named, not listed
    d = Dashboard(query=query)
    o = d.active.model
    assert not d.active.messages.refused
    assert o.dim == 5 and o.step == 17
    np.testing.assert_array_equal(o.X, m.X)
    np.testing.assert_array_equal(o.trajectory.weights, m.trajectory.weights)
    # a saved state too
    values, problems = SPEC.from_json(SPEC.to_json(m.get_state()))
    assert not problems and values["dim"] == 5
    fresh = PerceptronView()
    assert fresh.load_state(values)
    np.testing.assert_array_equal(fresh.model.X, m.X)
    assert fresh.model.step == 17


def test_a_link_without_dim_opens_two_dimensional_data_as_before():
    d = Dashboard(query="tab=perceptron&dataset=separable&n=30&seed=4&step=3")
    o = d.active.model
    assert o.dim == 2 and o.X.shape == (30, 2) and o.step == 3
    ds = datasets.load("separable", n=30, dim=2, margin=0.3, seed=4)
    np.testing.assert_array_equal(o.X, ds.X)
    # the default is left out of links, so links made before the field are unchanged
    assert "dim" not in SPEC.to_query(o.get_state())
    old = '{"app": "perceptron-explorer", "version": 1, "tab": "perceptron", "state": ' \
        '{"dataset": "overlapping", "n": 12}}'  # a file saved before the field
    values, problems = SPEC.from_json(old)
    assert not problems and values["dim"] == 2


BAD = ["abc", "0", "1", "1e308", "", "65", "2.5", "-3"]


@pytest.mark.parametrize("text", BAD)
def test_a_bad_dimension_typed_is_refused_and_the_state_kept(text):
    view = PerceptronView()
    view.w_dataset.value = "separable"
    view.text["dim"].value = "3"
    view.model.go(9)
    X, weights = view.model.X.copy(), view.model.trajectory.weights.copy()
    view.text["dim"].value = text
    assert WORDS in view.messages.refused, view.messages.refused
    m = view.model
    assert m.dim == 3 and m.step == 9
    np.testing.assert_array_equal(m.X, X)
    np.testing.assert_array_equal(m.trajectory.weights, weights)
    assert view.text["dim"].value == "3"  # the last good value back on screen


@pytest.mark.parametrize("text", ["abc", "0", "1", "1e308", "", "65"])
def test_a_bad_dimension_in_a_link_is_named_and_keeps_its_default(text):
    values, problems = SPEC.from_query(f"tab=perceptron&dataset=separable&dim={text}")
    assert values is not None and values["dim"] == 2 and values["dataset"] == "separable"
    assert len(problems) == 1 and IN_LINK in problems[0], problems
    assert "kept the default (2)" in problems[0]
    d = Dashboard(query=f"tab=perceptron&dataset=separable&dim={text}")
    shown = d.active.messages.refused + d.active.messages.text
    assert IN_LINK in shown, shown
    assert d.active.model.X.shape[1] == 2


def test_the_field_applies_to_random_data_only_and_shows_the_features_shown():
    view = PerceptronView()  # Koski's example
    box = view.text["dim"]
    assert box.disabled and box.value == "2"
    view.w_dataset.value = "iris4"
    assert box.disabled and box.value == "4"  # greyed out: the features of the data shown
    view.w_dataset.value = "overlapping"
    assert not box.disabled
    box.value = "6"
    assert view.model.X.shape[1] == 6 and box.value == "6"
    view.w_dataset.value = "breast_cancer30"
    assert box.disabled and box.value == "30"
    view.w_dataset.value = "separable"  # the dimension chosen is kept for the random sets
    assert not box.disabled and view.model.X.shape[1] == 6 and box.value == "6"
