"""A person's CSV of more than two features in the Perceptron tab (issue 34, item 1): trained in
its own M dimensions (no PCA), the run equal to :func:`explorer.perceptron.train` on the same
array, drawn in 3-D (three features) or in the plane of w; carried by links and saved states
with every feature (the 2-D link format unchanged); bad M-D input refused with a message, the
data and step kept. The Margins and Generalization tabs train a CSV in its own dimension too."""

from __future__ import annotations

import re

import numpy as np
import pytest
from md_data import csv_text, md_data

from explorer.app import Dashboard  # noqa: E402
from explorer.app.generalization import GeneralizationView  # noqa: E402
from explorer.app.margins import MarginsView  # noqa: E402
from explorer.app.perceptron import PerceptronView  # noqa: E402
from explorer.app.perceptron.model import MAX_FEATURES, SPEC  # noqa: E402
from explorer.app.state import arrays_of, points_of  # noqa: E402
from explorer.perceptron import train  # noqa: E402
from explorer.plots.figure import VIEW3D_TITLE  # noqa: E402
from explorer.shared.number_format import number_text  # noqa: E402


def _data(M: int, n: int = 14, seed: int = 2):
    return md_data(M, n, seed)


@pytest.fixture
def view():
    return PerceptronView()


def _trained(view, X, y):
    """:func:`train` on the same array with the tab's settings."""
    m = view.model
    return train(X, y.astype(float), rule=m.rule, eta=m.eta, fit_intercept=m.fit_intercept,
                 order="cyclic", max_epochs=m.max_epochs)


@pytest.mark.parametrize("M", [3, 5])
def test_a_csv_of_m_features_trains_in_its_own_dimension(view, M):
    X, y = _data(M)
    assert view.data_panel.load(csv_text(X, y)), view.messages.refused
    m = view.model
    np.testing.assert_array_equal(m.X, X)  # every feature, no projection
    assert m.X.shape == (len(X), M) and m.edited
    ref = _trained(view, X, y)
    assert m.trajectory.n_steps == ref.n_steps
    np.testing.assert_array_equal(m.trajectory.weights, ref.weights)
    np.testing.assert_array_equal(m.trajectory.biases, ref.biases)
    assert f"trained in its own {M} dimensions" in view.data_panel.preview.value
    assert "PCA" not in view.data_panel.preview.value
    # drawn in a 3-D view (three: tests/test_data3d.py) or in the plane of w (more), and said
    # so in the data panel's title
    if M == 3:
        title = VIEW3D_TITLE
        assert view.figure.plane is view.figure.solid and view.figure.planes is None
    else:
        title = f"{M} features, in the plane of w"
        assert view.figure.planes is not None
    assert view.figure.plane.ax.get_title(loc="left") == title
    # the page's scene carries the title's words (pePanels in the page)
    head = view.figure.scene(width=900, height=600).header()
    assert {p["name"]: p.get("heading") for p in head["panels"]}["plane"] == title
    # an update's narration gives w: its M components, or its first three and M (more than 4)
    k = int(m.trajectory.update_steps[0])
    m.go(k)
    w = re.search(r"w ← w \+ η·y·x = \(([^)]*)\)", view.messages.text)
    assert w is not None, view.messages.text
    said = w.group(1).split(", ")
    want = [number_text(v) for v in m.trajectory.state(k)[0]]
    assert said == (want if M <= 4 else [*want[:3], f"… {M} components"]), view.messages.text
    assert view.w_dataset.value == "points" and "Your CSV" in view.w_dataset.label


@pytest.mark.parametrize("M", [3, 5])
def test_a_link_and_a_saved_state_reopen_the_run_at_the_same_step(view, M):
    X, y = _data(M)
    assert view.data_panel.load(csv_text(X, y))
    m = view.model
    m.go(7)
    state = view.save_state()
    assert len(state["points"][0]) == M + 1
    query = SPEC.to_query(state)
    d = Dashboard(query=query)
    other = d.active
    assert other.title == "Perceptron" and not other.messages.refused
    o = other.model
    assert o.step == 7 and o.X.shape == (len(X), M)
    np.testing.assert_array_equal(o.X, X)
    np.testing.assert_array_equal(o.trajectory.weights, m.trajectory.weights)
    np.testing.assert_array_equal(o.trajectory.state(7)[0], m.trajectory.state(7)[0])
    values, problems = SPEC.from_json(SPEC.to_json(state))
    assert not problems and values["points"] == state["points"]
    fresh = PerceptronView()
    assert fresh.load_state(values)
    np.testing.assert_array_equal(fresh.model.trajectory.weights, m.trajectory.weights)
    assert fresh.model.step == 7


def test_the_two_feature_link_format_is_unchanged():
    field = SPEC.field("points")
    assert field.format([(1.5, -0.5, 1), (1.0, 1.0, -1)]) == "1.5,-0.5,1;1,1,-1"
    assert field.parse("1.5,-0.5,1;1,1,-1") == [(1.5, -0.5, 1), (1.0, 1.0, -1)]
    assert field.format([(1.0, 2.0, 3.0, -1)]) == "1,2,3,-1"
    X, y = arrays_of(points_of(np.array([[1.0, 2.0], [3.0, 4.0]]), [1, -1]))
    assert X.shape == (2, 2) and list(y) == [1.0, -1.0]
    # an old link of 2-D points opens as before
    d = Dashboard(query="tab=perceptron&dataset=separable&points=0,0,1;1,1,-1;2,0,1")
    assert d.active.model.X.shape == (3, 2) and not d.active.messages.refused


BAD_POINTS = [
    ("ragged", "1,2,3,1;4,5,-1", "point 2 has 3 numbers, point 1 has 4"),
    ("too many features", ",".join(["1"] * (MAX_FEATURES + 1)) + ",1",
     f"{MAX_FEATURES + 1} features and a label; a point needs 2 to {MAX_FEATURES} features"),
    ("NaN", "1,nan,3,1;4,5,6,-1", "'nan' is not a number"),
    ("inf", "1,inf,3,1;4,5,6,-1", "'inf' is not a number"),
    ("1e308", "1,1e308,3,1;4,5,6,-1", "out of range"),
    ("one feature", "1,1;2,-1", "point 1 has 1 feature and a label; a point needs 2 to"),
    ("letters", "1,a,3,1;4,5,6,-1", "'a' is not a number"),
]


@pytest.mark.parametrize("label,raw,words", BAD_POINTS, ids=[c[0] for c in BAD_POINTS])
def test_bad_points_in_a_link_are_named(label, raw, words):
    values, problems = SPEC.from_query("tab=perceptron&points=" + raw)
    assert values is not None and values["points"] == []  # the field keeps its default
    assert len(problems) == 1 and words in problems[0], problems
    assert "points x1,…,xM,label" in problems[0]  # what is expected
    d = Dashboard(query="tab=perceptron&points=" + raw)
    assert words in d.active.messages.refused + d.active.messages.text


MD_BAD_CSV = [
    ("letters", "0,0,a,1\n1,1,1,-1\n", "row 1, column 3 holds 'a', which is not a number"),
    ("1e308", "0,0,1e308,1\n1,1,1,-1\n", "row 1, column 3 holds '1e308'; numbers must be within"),
    ("empty cell", "0,,0,1\n1,1,1,-1\n", "row 1, column 2 holds an empty cell"),
    ("ragged rows", "0,0,0,1\n1,1,-1\n", "every row must have the same number of columns"),
    ("NaN", "0,nan,0,1\n1,1,1,-1\n", "(NaN)"),
    ("10 000 columns", "\n".join(",".join(["0.5"] * 10_000) + f",{s}" for s in (1, -1)),
     f"10,000 feature columns; this tab trains on at most {MAX_FEATURES} features"),
]


@pytest.mark.parametrize("label,raw,words", MD_BAD_CSV, ids=[c[0] for c in MD_BAD_CSV])
def test_bad_csv_keeps_the_m_d_data_and_the_step(view, label, raw, words):
    X, y = _data(3)
    assert view.data_panel.load(csv_text(X, y))
    view.model.go(5)
    before = view.model.trajectory
    assert not view.data_panel.load(raw, name="data.csv")
    assert words in view.messages.refused, view.messages.refused
    assert "Traceback" not in view.messages.refused
    m = view.model
    assert m.trajectory is before and m.step == 5
    np.testing.assert_array_equal(m.X, X)


def test_blank_rows_are_skipped_and_one_feature_is_said(view):
    assert view.data_panel.load("0,0,0,1\n\n,,,\n1,1,1,-1\n2,0,1,1\n")
    assert view.model.X.shape == (3, 3)
    assert view.data_panel.load("0.5,1\n-0.5,-1\n")
    assert view.model.X.shape == (2, 2)
    assert "one feature: drawn on the x₁ axis (x₂ = 0)" in view.data_panel.preview.value


def test_the_cap_is_the_tabs_most_features(view):
    X, y = _data(MAX_FEATURES, n=8)
    assert view.data_panel.load(csv_text(X, y)), view.messages.refused
    assert view.model.X.shape == (8, MAX_FEATURES)
    X, y = _data(MAX_FEATURES + 1, n=8)
    assert not view.data_panel.load(csv_text(X, y))
    assert f"at most {MAX_FEATURES} features" in view.messages.refused


def test_the_margins_and_generalization_tabs_train_in_their_own_dimension_too():
    for v in (MarginsView(), GeneralizationView(autorun=False)):
        assert v.data_features == MAX_FEATURES
        X, y = _data(3, n=40)
        assert v.data_panel.load(csv_text(X, y)), v.messages.refused
        assert "trained in its own 3 dimensions" in v.data_panel.preview.value
        assert "PCA" not in v.data_panel.preview.value
        assert v.model.X.shape[1] == 3
