"""Data of exactly three features in the Perceptron tab (issue 34, item 2): a rotatable 3-D view
(:mod:`explorer.plots.data3d`) in place of the data plane. The plane drawn is the set
``w.x + b = 0`` within the box, the points' 3-D coordinates are the data, the side f >= 0 and
the normal are on the positive side, the update is ``eta y x`` from the origin, and matplotlib
draws every 3-D track where the page projects it (same angles), also after turning the view.
The page's projection and key turning: tests/js/view3d.test.mjs; in a browser:
tests/browser/test_view3d_page.py."""

import numpy as np
import pytest
from scene_checks import actual, close, finite

from explorer.app.perceptron.model import VIEW_DATASETS
from explorer.app.perceptron.view import PerceptronView
from explorer.perceptron import train
from explorer.plots.data3d import Data3D, closed, cube_box, hull2d, side_vertices
from explorer.plots.figure import PerceptronFigure
from explorer.plots.view3d import Panel3D, project
from explorer.shared import datasets

W, H = 1040, 547


def _iris3(classes="setosa_vs_rest"):
    return datasets.load("iris", features=(2, 3, 0), classes=classes)


def _figure(X, y, **kw):
    traj = train(X, y, **kw)
    f = PerceptronFigure()
    f.set_run(traj, X, y)
    return f, traj


def _data(n=20, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3)) + [1.0, -2.0, 0.5]
    y = np.where(X @ [1.0, 0.7, -0.4] > 0.2, 1.0, -1.0)
    return X, y


# --------------------------------------------------------------------------- geometry
@pytest.mark.parametrize("w,b", [((1.0, 2.0, -0.5), 0.3), ((0.0, 0.0, 1.0), -0.4),
                                 ((3.0, -1.0, 2.0), 1.0), ((1.0, 1.0, 1.0), -2.9)])
def test_the_plane_drawn_is_where_w_x_plus_b_is_zero_on_the_box(w, b):
    lo, hi = np.array([-1.0, -1.0, -1.0]), np.array([1.0, 1.0, 1.0])
    f, _ = _figure(*_data())
    f.solid.lo, f.solid.hi = lo, hi
    from explorer.perceptron.replay import frame
    fr = frame(f.traj, f.X, f.y, 0)
    import dataclasses
    fr = dataclasses.replace(fr, w=np.array(w), b=b)
    poly = f.solid.parts(fr)["plane3d"]["xyz"]
    assert len(poly) >= 3
    np.testing.assert_allclose(poly @ np.array(w) + b, 0.0, atol=1e-9)  # on the plane
    assert np.all(poly >= lo - 1e-9) and np.all(poly <= hi + 1e-9)  # in the box
    # each vertex is on the box's surface (a face: one coordinate at its end)
    on_face = np.isclose(poly, lo).any(axis=1) | np.isclose(poly, hi).any(axis=1)
    assert on_face.all()
    # the side f >= 0: its vertices are on that side, and include the plane's polygon
    side = side_vertices(w, b, lo, hi)
    assert np.all(side @ np.array(w) + b >= -1e-9)
    assert len(side) > len(poly)


def test_the_side_is_the_whole_box_or_nothing_when_w_is_zero():
    lo, hi = -np.ones(3), np.ones(3)
    assert len(side_vertices((0, 0, 0), 0.0, lo, hi)) == 8
    assert len(side_vertices((0, 0, 0), -1.0, lo, hi)) == 0
    assert len(side_vertices((1, 0, 0), -5.0, lo, hi)) == 0  # the plane misses the box


def test_the_hull_is_the_convex_outline():
    xy = np.array([[0, 0], [2, 0], [2, 2], [0, 2], [1, 1], [0.5, 1.5], [np.nan, np.nan]])
    got = hull2d(xy)
    assert sorted(map(tuple, got)) == [(0, 0), (0, 2), (2, 0), (2, 2)]
    area = 0.5 * abs(np.sum(got[:, 0] * np.roll(got[:, 1], -1) - np.roll(got[:, 0], -1) * got[:, 1]))
    assert area == pytest.approx(4.0)


def test_the_box_is_a_cube_around_the_points_and_the_origin():
    X = np.array([[1.0, 2.0, 3.0], [5.0, 2.5, 4.0]])
    lo, hi = cube_box(X)
    side = hi - lo
    assert np.allclose(side, side[0])  # one scale on all three axes
    assert np.all(lo <= 0) and np.all(hi >= X.max(axis=0))


# --------------------------------------------------------------------------- the figure
def test_three_features_get_the_3d_view_and_more_the_plane_of_w():
    f, _ = _figure(*_data())
    assert isinstance(f.plane, Data3D) and f.plane is f.solid and f.planes is None
    assert not f.flat.ax.get_visible() and f.solid.ax.get_visible()
    head = {p["name"]: p for p in f.scene(width=W, height=H).header()["panels"]}
    assert head["plane"]["heading"].startswith("3 features, in 3-D")
    assert head["plane"]["view3d"]["home"] == [-60.0, 25.0]
    ds = datasets.load("iris", features="all")
    f.set_run(train(ds.X, ds.y, max_epochs=1), ds.X, ds.y)  # four: the plane of w again
    assert f.plane is f.flat and f.planes is not None and not f.solid.ax.get_visible()
    ds = datasets.load("koski")
    f.set_run(train(ds.X, ds.y, max_epochs=1), ds.X, ds.y)  # two: the data plane
    assert f.plane is f.flat and f.planes is None
    assert f.flat.ax.get_title(loc="left") == "Data plane"


def test_the_points_3d_coordinates_are_the_data():
    X, y = _data()
    f, _ = _figure(X, y)
    scene = f.scene(width=W, height=H)
    tracks = {t.name: t for t in scene.tracks}
    np.testing.assert_array_equal(tracks["pos3d"].data["data"], X[y > 0])
    np.testing.assert_array_equal(tracks["neg3d"].data["data"], X[y < 0])
    p = scene.panel("plane")
    assert isinstance(p, Panel3D)
    assert np.all(np.array(p.lo) <= X.min(axis=0)) and np.all(np.array(p.hi) >= X.max(axis=0))


def test_an_update_step_draws_the_planes_the_side_the_normal_and_the_update():
    X, y = _data()
    f, traj = _figure(X, y)
    k = int(traj.update_steps[1])  # the second update: a plane before and after
    fr = f.frame(k)
    parts = f.parts(fr)
    w, b = np.asarray(fr.w), float(fr.b)
    now, before = parts["plane3d"]["xyz"], parts["ghost3d"]["xyz"]
    np.testing.assert_allclose(now @ w + b, 0, atol=1e-9)
    np.testing.assert_allclose(before @ np.asarray(fr.w_prev) + fr.b_prev, 0, atol=1e-9)
    np.testing.assert_allclose(before[0], before[-1])  # an outline, closed
    a, tip = parts["normal3d"]["xyz"]
    assert a @ w + b == pytest.approx(0, abs=1e-9) and tip @ w + b > 0  # into f >= 0
    np.testing.assert_allclose(np.cross(tip - a, w), 0, atol=1e-9)  # along w
    start, end = parts["update3d"]["xyz"]
    i = fr.picked[0]
    np.testing.assert_allclose(start, 0)
    np.testing.assert_allclose(end, traj.params["eta"] * y[i] * X[i])  # eta y x
    np.testing.assert_array_equal(parts["picked3d"]["xyz"], X[[i]])
    assert list(parts["picked3d"]["c"]) == [1]  # it triggered the update
    # a step without an update: no update arrow, no plane before
    k0 = next(k for k in range(1, traj.n_steps + 1) if not f.frame(k).updated)
    p0 = f.parts(f.frame(k0))
    assert np.isnan(p0["update3d"]["xyz"]).all() and len(p0["ghost3d"]["xyz"]) == 0


def _check_3d(f, scene, chunk, row, what):
    """Every 3-D track's matplotlib artist against the page's projection of its vertices."""
    p = scene.panel("plane")
    arts = f.track_artists()
    for t in scene.tracks:
        if t.panel != "plane" or t.kind == "axes3d":
            continue
        a = chunk.arrays[t.name]
        xyz = np.asarray(a["xyz"][row] if "xyz" in a else t.data["data"], dtype=float)
        want = p.to_px(finite(project(xyz.reshape(-1, 3), azim=p.azim, elev=p.elev, lo=p.lo,
                                      hi=p.hi))).reshape(-1, 2)
        if t.kind == "hull3d":
            want = p.to_px(hull2d(project(xyz.reshape(-1, 3), azim=p.azim, elev=p.elev,
                                          lo=p.lo, hi=p.hi)))
        kind = {"polyline3d": "polyline", "arrow3d": "arrow", "polygon3d": "x",
                "hull3d": "x"}.get(t.kind, "x")
        got = actual(f.fig, scene.height, arts[t.name], kind)
        need = 3 if t.kind in ("polygon3d", "hull3d") else (2 if t.kind == "arrow3d" else 1)
        assert got["visible"] == (len(want) >= need), f"{what}: {t.name}"
        if got["visible"]:
            g = np.asarray(got["px"]).reshape(-1, 2)
            if t.kind == "hull3d":  # the same outline, maybe from another first vertex
                assert len(g) == len(want), f"{what}: {t.name}"
                d = np.abs(g[:, None, :] - want[None, :, :]).max(axis=2)
                assert d.min(axis=0).max() <= 0.5 and d.min(axis=1).max() <= 0.5, what
                continue
            close(g, want, f"{what}: {t.name}")


@pytest.mark.parametrize("turn", [None, (30.0, 60.0)])
def test_matplotlib_draws_the_3d_view_where_the_page_projects_it(turn):
    ds = _iris3()
    f, traj = _figure(ds.X, ds.y, max_epochs=3, rule="pocket")
    if turn is not None:  # the person turned the view: the kernel's figure follows
        f.solid.set_view(*turn)
    scene = f.scene(width=W, height=H, chunk=16)
    p = scene.panel("plane")
    assert (p.azim, p.elev) == (turn or (-60.0, 25.0))
    for k in sorted({0, 1, int(traj.update_steps[0]), int(traj.update_steps[-1]),
                     traj.n_steps}):
        chunk = f.chunk(k // scene.chunk)
        f.show(k)
        _check_3d(f, scene, chunk, k - chunk.start, f"step {k}, view {turn}")


def test_the_exports_draw_the_3d_view_and_its_legend_shades_one_side():
    f, traj = _figure(*_data())
    f.show(int(traj.update_steps[0]))
    f.fig.canvas.draw()
    texts = [t.get_text() for t in f.solid.legend.get_texts()]
    assert "predicts +1 (f ≥ 0)" in texts and "predicts −1 (f < 0)" not in texts
    assert f.solid.update.get_visible() and f.solid.plane3.get_visible()
    assert "x₃" in [t.get_text() for t in f.solid.texts]
    # the still layers leave out what turns with the view (the axes' names and values)
    assert set(f.solid.texts) <= set(f.moving_artists())


# --------------------------------------------------------------------------- the tab
def test_the_tab_trains_iris3_in_three_dimensions_and_turns_with_the_page():
    assert VIEW_DATASETS["iris3"][1] == {"features": (2, 3, 0)}
    v = PerceptronView()
    m = v.model
    assert m.update(dataset="iris3"), m.message
    ds = _iris3()
    np.testing.assert_array_equal(m.X, ds.X)
    ref = train(ds.X, ds.y, max_epochs=m.max_epochs, max_steps=m.n_steps)
    assert m.trajectory.weights.shape[1] == 3
    np.testing.assert_array_equal(m.trajectory.weights, ref.weights)
    assert v.figure.plane is v.figure.solid
    v._on_view3d("plane", 10.0, 40.0)  # the page's "view3d" message
    assert (v.figure.solid.azim, v.figure.solid.elev) == (10.0, 40.0)
    # "you choose": a click picks the point nearest where the view shows it now
    m.update(choose_mode=True)
    i = 7
    x, y = v.figure.solid.X[i]
    v.click(x, y, mode="choose")
    assert m.chosen and m.chosen[-1] == i


def test_closed_outline():
    sq = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0.0]])
    assert closed(sq).shape == (4, 3) and closed(sq[:2]).shape == (0, 3)


@pytest.mark.parametrize("M", [2, 3])
def test_the_legend_keeps_the_update_arrow_made_at_a_step_without_an_update(M):
    """A new size (or lecture mode) lays the legend out again at the step shown; the update's
    key stays when that step has no update (its arrow hidden)."""
    from matplotlib.patches import FancyArrowPatch

    X, y = _data()
    f, traj = _figure(X[:, :M], y)
    k = next(k for k in range(1, traj.n_steps + 1) if not f.frame(k).updated)
    f.show(k)
    assert not f.plane.update.get_visible()
    f.fit(1000, 600, scale=1.4)  # laid out again: the legend made anew
    f.fig.canvas.draw()
    keys = [h for h in f.plane.legend.legend_handles if isinstance(h, FancyArrowPatch)]
    assert keys and all(h.get_visible() for h in keys)


def _png(view) -> bytes:
    import base64
    import re

    view.export.b_png.click()
    assert view.export.wait(120)
    b64 = re.search(r'href="data:image/png;base64,([^"]+)"', view.export.links.value).group(1)
    return base64.b64decode(b64)


def test_the_png_export_draws_the_3d_view_as_the_page_turned_it():
    import io

    from PIL import Image

    v = PerceptronView()
    assert v.model.update(dataset="iris3"), v.model.message
    v.model.go(int(v.model.trajectory.update_steps[1]))
    home = np.asarray(Image.open(io.BytesIO(_png(v))).convert("L"), dtype=int)
    v._on_view3d("plane", 40.0, 60.0)  # the page turned the view
    turned = np.asarray(Image.open(io.BytesIO(_png(v))).convert("L"), dtype=int)
    assert home.shape == turned.shape
    assert np.mean(np.abs(home - turned) > 60) > 0.005  # another picture of the same step
    v._on_view3d("plane", -60.0, 25.0)  # and back: the same picture
    again = np.asarray(Image.open(io.BytesIO(_png(v))).convert("L"), dtype=int)
    assert np.mean(np.abs(home - again) > 60) < 0.001
