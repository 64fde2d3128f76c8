"""Rules racing on data of more than two features (issue 34): every racer is trained in R^M as
:func:`explorer.perceptron.train` trains it, and each racer's plane is, at every step, the plane
that contains that racer's own w (the boundary a true line, every point's distance along w
exact); clicks that would edit points of R^M stay refused in words; two features race as before."""

import numpy as np
import pytest

from explorer.app import PerceptronView, dashboard
from explorer.app.perceptron.model import SPEC
from explorer.perceptron import train
from explorer.perceptron.race import race
from explorer.plots.race import RaceFigure, plane_texts
from explorer.shared import datasets

IRIS4 = datasets.load("iris", features="all")
HARD4 = datasets.load("iris", features="all", classes="versicolor_vs_virginica")
RULES3 = ["classic", "margin", "pocket"]


def _view(**params) -> PerceptronView:
    v = PerceptronView()
    assert v.model.update(**params), v.model.message
    return v


@pytest.mark.parametrize("dataset,ds", [("iris4", IRIS4), ("iris4_hard", HARD4)])
def test_each_racer_is_trained_in_r4_as_train_trains_it(dataset, ds):
    v = _view(dataset=dataset, race=["margin", "pocket"], max_epochs=4)
    m = v.model
    np.testing.assert_array_equal(m.X, ds.X)
    assert m.racing.rules == ("classic", "margin", "pocket") and m.refusal is None
    kw = m._train_args(m._params(), m.X, [])
    for rule, run in zip(m.racing.rules, m.racing.runs, strict=True):
        ref = train(ds.X, ds.y, rule=rule, **kw)
        assert run.weights.shape[1] == 4
        np.testing.assert_array_equal(run.weights, ref.weights)
        np.testing.assert_array_equal(run.biases, ref.biases)
    assert isinstance(v.figure, RaceFigure)


def test_a_five_feature_race_trains_as_train_does():
    ds = datasets.load("separable", n=40, dim=5, seed=3)
    r = race(ds.X, ds.y, rules=["classic", "relaxation"], order="shuffle", seed=1,
             max_epochs=5)
    for rule, run in zip(r.rules, r.runs, strict=True):
        ref = train(ds.X, ds.y, rule=rule, order="shuffle", seed=1, max_epochs=5)
        np.testing.assert_array_equal(run.weights, ref.weights)


@pytest.mark.parametrize("ds,rules", [(HARD4, ["classic", "svm_sgd", "pocket"]),
                                      (datasets.load("separable", n=30, dim=5, seed=2),
                                       ["classic", "svm_sgd"])])
def test_each_racers_plane_is_its_own_ws_at_every_step(ds, rules):
    r = race(ds.X, ds.y, rules=rules, max_epochs=6, rho=0.01)
    rf = RaceFigure()
    rf.set_race(r)
    about, xlabel, ylabel = plane_texts(ds.X.shape[1])
    assert about == "plane of its w"
    assert [p.ax.get_xlabel() for p in rf.planes] == [xlabel] * len(rules)
    assert rf.planes[0].ax.get_ylabel() == ylabel == "across w"
    checked, differ = 0, 0
    for k in sorted({1, 2, 5, *np.linspace(0, r.n_steps, 25).astype(int), r.n_steps}):
        frames = rf.frames(k)
        parts = rf.parts(k, frames)
        drawn_all = []
        for i, run in enumerate(r.runs):
            w, b = run.state(min(k, run.n_steps))
            if not np.any(w):
                continue
            seen = rf.in_plane(i, frames[i])["f"]
            norm = np.linalg.norm(w)
            # w lies in racer i's plane: it is the plane's first axis, at full length
            np.testing.assert_allclose(seen.w, [norm, 0.0], atol=1e-9 * norm)
            drawn = np.empty((len(ds.y), 2))
            drawn[ds.y > 0] = parts[f"r{i}_pos"]["xy"]
            drawn[ds.y < 0] = parts[f"r{i}_neg"]["xy"]
            at = -seen.b / norm  # the boundary drawn: a line across w at this distance
            np.testing.assert_allclose(drawn[:, 0] - at, (ds.X @ w + b) / norm, atol=1e-9)
            line = parts[f"r{i}_line"]["xy"]
            if np.isfinite(line).all():
                np.testing.assert_allclose(line[:, 0], at, atol=1e-9)
                checked += 1
            drawn_all.append(drawn)
        if len(drawn_all) > 1 and not np.allclose(drawn_all[0], drawn_all[1]):
            differ += 1
    assert checked > 10
    assert differ > 0  # the racers' planes are their own, not one plane shared


def test_the_race_in_r4_is_in_the_link_and_reopens_at_the_same_step():
    d = dashboard(query="tab=perceptron&dataset=iris4_hard&race=margin&max_epochs=3&step=57")
    v = d.tabs.children[0]
    m = v.model
    assert m.racing.rules == ("classic", "margin") and m.X.shape[1] == 4
    assert m.step == 57
    link = SPEC.to_query(v.save_state())
    assert "dataset=iris4_hard" in link and "race=margin" in link and "step=57" in link
    again = PerceptronView()
    assert again.load_state(SPEC.from_query(link)[0])
    assert again.model.step == 57 and again.model.racing.rules == ("classic", "margin")
    for a, b in zip(again.model.racing.runs, m.racing.runs, strict=True):
        np.testing.assert_array_equal(a.weights, b.weights)
    assert again.messages.text == v.messages.text  # the same step narrated


def test_three_features_race_in_the_plane_of_each_w_and_edits_stay_refused():
    v = _view(dataset="iris3", race=["margin"])
    m = v.model
    assert m.racing is not None and m.racing.X.shape[1] == 3
    rf = v.figure
    assert rf.walls is not None and len(rf.walls) == 2  # no 3-D view in a race
    assert rf.planes[0].ax.get_xlabel() == "along w (exact distance)"
    before = m.racing
    assert not m.add_point(0.1, 0.2, 1)
    assert "two features" in m.message and m.racing is before
    assert not m.remove_point(0) and m.racing is before


def test_two_features_race_as_before():
    ds = datasets.load("koski")
    r = race(ds.X, ds.y, rules=["classic", "margin"], max_epochs=20)
    rf = RaceFigure()
    rf.set_race(r)
    assert rf.walls is None and plane_texts(2) == ("", "x₁", "x₂")
    assert [p.ax.get_title(loc="left") for p in rf.planes] == ["Classic perceptron",
                                                               "Margin perceptron"]
    assert "r0_pos" not in rf.parts(3)  # the points stay still
    assert rf.planes[0].ax.get_ylabel() == "x₂"


def test_the_planes_say_plane_of_its_w_all_or_none_and_regain_it_when_wider():
    r = race(IRIS4.X, IRIS4.y, rules=["classic", "svm_sgd", "margin"], max_epochs=1, rho=0.01)
    rf = RaceFigure()
    rf.fit(1600, 800)
    rf.set_race(r)
    titles = [p.ax.get_title(loc="left") for p in rf.planes]
    assert titles == [f"{t} (plane of its w)" for t in ("Classic perceptron",
                                                        "Soft-margin SVM by SGD",
                                                        "Margin perceptron")]
    rf.fit(760, 480)  # too narrow for one of them: the words go in every plane
    assert [p.ax.get_title(loc="left") for p in rf.planes] == [t.split(" (")[0] for t in titles]
    rf.show(r.n_steps)
    rf.fig.canvas.draw()
    renderer = rf.fig.canvas.get_renderer()
    for p, status in zip(rf.planes, rf.status, strict=True):  # still over its status line
        title = [t for t in (p.ax.title, *p.ax.texts, *p.ax.get_children())
                 if getattr(t, "get_text", lambda: None)() == p.ax.get_title(loc="left")][0]
        assert title.get_window_extent(renderer).y0 >= \
            status.get_window_extent(renderer).y1 - 1
    rf.fit(1600, 800)
    assert [p.ax.get_title(loc="left") for p in rf.planes] == titles


def test_a_race_in_r4_exports_a_still_in_the_planes_of_w():
    v = _view(dataset="iris4", race=["svm_sgd"], max_epochs=1)
    v.timeline.go(40)
    png = v._still("png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    rf = v.figure
    assert [p.ax.get_xlabel() for p in rf.planes] == ["along w (exact distance)"] * 2


def test_your_own_five_feature_data_race_in_r5():
    ds = datasets.load("separable", n=30, dim=5, seed=4)
    v = _view(race=["relaxation"])
    assert v._use_data(ds.X, ds.y), v.model.message
    m = v.model
    assert m.X.shape == (30, 5) and m.racing.rules == ("classic", "relaxation")
    kw = m._train_args(m._params(), m.X, [])
    for rule, run in zip(m.racing.rules, m.racing.runs, strict=True):
        np.testing.assert_array_equal(run.weights, train(ds.X, ds.y, rule=rule, **kw).weights)
    assert len(v.figure.walls) == 2
    m.go(1)
    assert ", … 5 components), label" in v.figure.narration(1)  # as the single run writes it
