"""Data of more than two features in the Perceptron tab (issue 34, item 3 b): trained in their own
dimension and drawn, step by step, in the plane that contains the step's w. The picture never
lies about a point's side or its distance to the boundary, the boundary before is where its
hyperplane cuts the plane, and two-dimensional data are drawn as before."""

import numpy as np
import pytest
from test_svm import BREAST_CANCER_GAMMA

from explorer.app.perceptron.model import SPEC, VIEW_DATASETS
from explorer.app.perceptron.view import PerceptronView
from explorer.perceptron import train
from explorer.plots.figure import PerceptronFigure
from explorer.plots.margin_line import weights_note
from explorer.plots.plane_of_w import PlaneOfW
from explorer.shared import datasets
from explorer.shared.exact_views import w_plane


def _iris(**kw):
    return datasets.load("iris", features="all", classes="versicolor_vs_virginica", **kw)


def _figure(ds, **kw):
    traj = train(ds.X, ds.y, **kw)
    f = PerceptronFigure()
    f.set_run(traj, ds.X, ds.y)
    return f, traj


def _signed(p, seg):
    """Signed distance of the points ``p`` (n, 2) to the line through ``seg`` (2, 2)."""
    a, b = seg
    d = (b - a) / np.linalg.norm(b - a)
    return (p[:, 0] - a[0]) * d[1] - (p[:, 1] - a[1]) * d[0]


@pytest.mark.parametrize("rule", ["classic", "margin"])
def test_every_point_is_drawn_at_its_true_distance_from_the_boundary_at_every_step(rule):
    ds = _iris()
    f, traj = _figure(ds, rule=rule, max_epochs=3)
    drawn_lines = 0
    for k in range(1, traj.n_steps + 1, 11):
        w, b = traj.state(k)
        if not np.any(w):
            continue
        frame = f.frame(k)
        parts = f.parts(frame)
        drawn = np.empty((ds.n, 2))
        drawn[ds.y > 0], drawn[ds.y < 0] = parts["pos"]["xy"], parts["neg"]["xy"]
        true = (ds.X @ w + b) / np.linalg.norm(w)
        seen = f.planes.map_frame(frame)  # the boundary the plane draws: <w', p> + b' = 0
        np.testing.assert_allclose((drawn @ seen.w + seen.b) / np.linalg.norm(seen.w), true,
                                   atol=1e-9)
        line = parts["line"]["xy"]
        if np.isfinite(line).all():  # in view: the segment drawn lies on that line
            np.testing.assert_allclose(line @ seen.w + seen.b, 0.0, atol=1e-9)
            np.testing.assert_allclose(np.abs(_signed(drawn, line)), np.abs(true), atol=1e-9)
            drawn_lines += 1
    assert drawn_lines > 5


def test_the_coordinates_are_the_core_views_measured_from_the_mean():
    ds = _iris()
    f, traj = _figure(ds, max_epochs=2)
    k = traj.n_steps
    w, b = traj.state(k)
    ref = w_plane(ds.X, w, b)
    mean = ds.X.mean(axis=0)
    np.testing.assert_allclose(f.planes.coords(k), ref.coords - ref.basis @ mean, atol=1e-12)
    np.testing.assert_allclose(f.planes.origin(k), -(ref.basis @ mean), atol=1e-12)


def test_the_boundary_before_is_where_its_hyperplane_cuts_the_plane_shown():
    ds = _iris()
    f, traj = _figure(ds, max_epochs=30)
    planes, seen = f.planes, 0
    for k in traj.update_steps[1:]:
        k = int(k)
        ghost = f.parts(f.frame(k))["ghost"]["xy"]
        if not np.isfinite(ghost).all():
            continue
        B, mean = planes.basis(k), ds.X.mean(axis=0)
        ends = mean + ghost @ B  # the segment's ends, back in R^4 (they lie in the plane)
        w0, b0 = traj.state(k - 1)
        scale = 1.0 + np.abs(ends).max() * np.linalg.norm(w0) + abs(b0)
        np.testing.assert_allclose(ends @ w0 + b0, 0.0, atol=1e-9 * scale)
        seen += 1
    assert seen >= 5


def test_the_points_stay_in_the_box_at_every_step_and_move_only_at_updates():
    ds = datasets.load("digits", pair=(3, 8))
    f, traj = _figure(ds, max_epochs=1)
    xmin, xmax, ymin, ymax = f.plane.box
    last = None
    for k in range(0, traj.n_steps + 1, 7):
        P = f.planes.coords(k)
        assert (P[:, 0] >= xmin).all() and (P[:, 0] <= xmax).all()
        assert (P[:, 1] >= ymin).all() and (P[:, 1] <= ymax).all()
        n_upd = int(np.searchsorted(traj.update_steps, k, side="right"))
        if last is not None and last[0] == n_upd:
            np.testing.assert_array_equal(P, last[1])
        last = (n_upd, P)


def test_before_the_first_update_the_plane_is_the_datas_principal_one():
    ds = _iris()
    planes = PlaneOfW(train(ds.X, ds.y, max_epochs=1), ds.X)
    from sklearn.decomposition import PCA

    pca = PCA(n_components=2).fit(ds.X)
    np.testing.assert_allclose(np.abs(planes.basis(0) @ pca.components_.T), np.eye(2), atol=1e-9)


def test_two_features_are_drawn_as_before():
    ds = datasets.load("koski")
    f, _ = _figure(ds, eta=0.2, w0=[1, 0.5])
    assert f.planes is None and not f.plane.moving
    names = {t.name for t in f.scene(width=1000, height=520).tracks}
    assert "pos" not in names and f.plane.ax.get_xlabel() == "x₁"


def test_four_features_say_what_the_axes_and_the_weight_space_show():
    f, _ = _figure(_iris(), max_epochs=1)
    scene = f.scene(width=1000, height=520)
    names = {t.name for t in scene.tracks} | {p.name for p in scene.panels}
    assert {"pos", "neg"} <= names
    assert f.plane.ax.get_xlabel() == "along w (exact distance)"
    assert "4 features" in f.plane.ax.get_title(loc="left")
    # weight space (5-D with b) is not drawn: the margin line takes its place and says why
    assert not f.weights.ax.get_visible() and f.side is f.margin and f.margin.ax.get_visible()
    whole, short, _ = weights_note(4, fit=True)
    assert "w has 5 components" in whole and "cannot be drawn" in whole
    assert short == "w has 5 components:\nno weight space"
    assert f.margin.note.get_text().rsplit("\n", 1)[0] in weights_note(4, fit=True)
    assert "margin" in names and "weights" not in names


# --------------------------------------------------------------------------- the tab
def test_the_tab_trains_iris_in_its_four_dimensions():
    v = PerceptronView()
    m = v.model
    assert m.update(dataset="iris4")
    ds = datasets.load("iris", features="all")
    np.testing.assert_array_equal(m.X, ds.X)
    ref = train(ds.X, ds.y, max_epochs=m.max_epochs, max_steps=m.n_steps)
    assert m.trajectory.weights.shape[1] == 4
    np.testing.assert_array_equal(m.trajectory.weights, ref.weights)
    link = v.model.to_link() if hasattr(v.model, "to_link") else SPEC.to_query(v.save_state())
    assert "dataset=iris4" in link
    again = PerceptronView()
    assert again.load_state(SPEC.from_query(link)[0])
    np.testing.assert_array_equal(again.model.trajectory.weights, ref.weights)


def test_the_tab_trains_breast_cancer_in_its_30_dimensions_with_gamma_of_the_hard_margin():
    """Sayed's Example 61.2 in its own 30 dimensions (the PCA set stays in the menu): the run
    is :func:`train`'s on the same array, and the bound's gamma is the hard margin of the points
    augmented with 1 (certified in tests/test_svm.py)."""
    assert VIEW_DATASETS["breast_cancer"][1] == {"k": 2}
    m = PerceptronView().model
    assert m.update(dataset="breast_cancer30", max_epochs=5), m.message
    ds = datasets.load("breast_cancer")
    assert m.X.shape == (569, 30)
    np.testing.assert_array_equal(m.X, ds.X)
    np.testing.assert_array_equal(m.y, ds.y)
    ref = train(ds.X, ds.y, max_epochs=5)
    assert m.trajectory.weights.shape[1] == 30
    np.testing.assert_array_equal(m.trajectory.weights, ref.weights)
    np.testing.assert_array_equal(m.trajectory.biases, ref.biases)
    assert not m.info.pending and m.info.separable
    assert m.info.bound.gamma == pytest.approx(BREAST_CANCER_GAMMA[False], rel=1e-9)


def test_edits_that_name_no_point_of_r_m_are_refused_in_words_and_choosing_works():
    v = PerceptronView()
    m = v.model
    assert m.update(dataset="digits38")
    before = m.trajectory
    assert not m.add_point(0.1, 0.2, 1)
    assert "two features" in m.message and m.trajectory is before
    assert m.update(race=["pocket"]), m.message  # a race is trained in R^64 too
    racing = m.racing
    assert not m.add_point(0.1, 0.2, 1) and "two features" in m.message and m.racing is racing
    assert m.update(race=[])
    v._send_points()  # the Margins tab solves in R^M too: the points go with every feature
    assert v.handoff.tab == "margins" and v.handoff.X.shape == m.X.shape == (len(m.X), 64)
    # "you choose": a click picks the point drawn nearest, in the step's plane
    assert m.update(choose_mode=True)
    P = v.figure.planes.coords(m.step)
    v.click(*P[17], mode="choose")
    assert list(m.chosen) == [17]
