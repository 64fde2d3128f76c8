"""The Margins tab's 3-D view for data of three features (explorer/plots/margin3d.py, issue 34
item 2): the slab's planes against scikit-learn's linear SVC as oracle (w, b, the support
vectors), the soft margin's slack segments, the view's turning and the figure's choice of panel.
The page's drawing of it: tests/browser/test_margin3d_page.py."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.svm import SVC

from explorer import margins
from explorer.app.margins.model import DATASETS, MarginsModel
from explorer.app.state import points_of
from explorer.perceptron import train
from explorer.plots import MarginsFigure
from explorer.plots.margin3d import Margin3D, slab_vertices
from explorer.plots.view3d import project
from explorer.shared import datasets


def _iris3():
    ds = datasets.load("iris", features=(2, 3, 0))
    return np.asarray(ds.X, dtype=float), np.asarray(ds.y, dtype=float)


def _figure(X, y, C=None):
    """The tab's model solved on ``(X, y)`` (hard margin, or soft with ``C``) and its figure."""
    m = MarginsModel()
    state = {"points": points_of(X, y), "step": 0, "hard": C is None}
    if C is not None:
        state["log_c"] = float(np.log10(C))
    assert m.set_state(m.get_state() | state), m.message
    np.testing.assert_allclose(m.X, X)
    f = MarginsFigure()
    f.fit(1280, 640)
    f.set_data(m.X, m.y, m.comparison, path=m.path, sgd=m.sgd)
    return f, m.comparison


def _rows(xyz) -> np.ndarray:
    xyz = np.asarray(xyz, dtype=float).reshape(-1, 3)
    return xyz[np.isfinite(xyz).all(axis=1)]


def test_the_slab_planes_are_at_plus_minus_one_over_norm_w_as_sklearn_finds_them():
    X, y = _iris3()
    f, cmp = _figure(X, y)
    assert cmp.hard and f.in_3d
    ref = SVC(kernel="linear", C=1e8, tol=1e-8).fit(X, y)
    w, b = ref.coef_[0], float(ref.intercept_[0])
    norm = float(np.linalg.norm(w))
    parts = f.solid.still_parts(cmp, f.sgd)

    def signed(v):  # signed distance to sklearn's boundary
        return (_rows(v) @ w + b) / norm

    line, lo, hi = signed(parts["m3_line"]["xyz"]), signed(parts["m3_band_lo"]["xyz"]), \
        signed(parts["m3_band_hi"]["xyz"])
    assert len(line) >= 3 and len(lo) >= 4 and len(hi) >= 4  # each plane cuts the box
    tol = 2e-3 / norm
    np.testing.assert_allclose(line, 0.0, atol=tol)
    np.testing.assert_allclose(lo, -1 / norm, atol=tol)
    np.testing.assert_allclose(hi, 1 / norm, atol=tol)
    np.testing.assert_allclose(cmp.svm_margin, 1 / norm, rtol=1e-3)
    # the slab: within the margin planes, reaching both
    slab = signed(parts["m3_slab"]["xyz"])
    assert slab.min() == pytest.approx(-1 / norm, abs=tol)
    assert slab.max() == pytest.approx(1 / norm, abs=tol)
    # the rings: at sklearn's support vectors, and nowhere else
    rings = _rows(parts["m3_rings"]["xyz"])
    want = X[ref.support_]
    assert sorted(map(tuple, np.round(rings, 9))) == sorted(map(tuple, np.round(want, 9)))
    # every slab vertex lies in the box
    assert np.all(_rows(parts["m3_slab"]["xyz"]) >= f.solid.lo - 1e-9)
    assert np.all(_rows(parts["m3_slab"]["xyz"]) <= f.solid.hi + 1e-9)


def test_soft_margin_slacks_end_on_their_own_margin_plane_as_sklearn_finds_it():
    X, y = _iris3()
    C = 0.05
    f, cmp = _figure(X, y, C=C)
    ref = SVC(kernel="linear", C=C, tol=1e-8).fit(X, y)
    w, b = ref.coef_[0], float(ref.intercept_[0])
    np.testing.assert_allclose(cmp.svm.w, w, rtol=2e-2, atol=2e-3)
    parts = f.solid.still_parts(cmp, f.sgd)
    f_ref = X @ w + b
    inside = np.flatnonzero(y * f_ref < 1 - 1e-3)  # sklearn's points inside the slab
    assert len(inside) > 0
    ends = _rows(parts["m3_slack_ends"]["xyz"])
    assert len(ends) == len(inside)
    # each end is on the margin plane of its point's class: y f(end) = 1
    starts = _rows(parts["m3_slacks"]["xyz"])[0::2]
    order = [int(np.argmin(np.linalg.norm(X - s, axis=1))) for s in starts]
    assert sorted(order) == sorted(inside.tolist())
    np.testing.assert_allclose(y[order] * (ends @ w + b), 1.0, atol=2e-2)
    rings = _rows(parts["m3_rings"]["xyz"])
    assert len(rings) == len(ref.support_)


def test_slab_vertices_of_a_known_slab():
    w, b = np.array([2.0, 0.0, 0.0]), 0.0  # |x1| <= 1/2 in the cube [-1, 1]^3
    v = slab_vertices(w, b, -np.ones(3), np.ones(3))
    np.testing.assert_allclose(np.sort(np.unique(np.round(v[:, 0], 12))), [-0.5, 0.5])
    assert len(np.unique(np.round(v, 12), axis=0)) == 8
    assert len(slab_vertices(np.zeros(3), 0.0, -np.ones(3), np.ones(3))) == 0
    assert len(slab_vertices(w, 10.0, -np.ones(3), np.ones(3))) == 0  # beyond the box


def test_the_view_turns_and_the_page_hears_its_angles():
    X, y = _iris3()
    f, cmp = _figure(X, y, C=1.0)  # the soft margin: an SGD run on the timeline
    solid = f.solid
    scene = f.scene(width=1280, height=640)
    json.dumps(scene.header())  # what the page is sent
    plane = next(p for p in scene.panels if p.name == "plane")
    head = plane.header()["view3d"]
    assert (head["azim"], head["elev"]) == (solid.azim, solid.elev)
    kinds = {t.name: t.kind for t in scene.tracks}
    assert kinds["m3_slab"] == "hull3d" and kinds["m3_line"] == "polygon3d"
    assert kinds["m3_rings"] == "points3d" and kinds["sgd"] == "polyline3d"
    sv = X[cmp.svm.support]
    before = solid.rings.get_offsets().copy()
    np.testing.assert_allclose(before, project(sv, azim=solid.azim, elev=solid.elev,
                                               lo=solid.lo, hi=solid.hi), atol=1e-9)
    solid.set_view(10.0, 60.0)
    after = solid.rings.get_offsets()
    np.testing.assert_allclose(after, project(sv, azim=10.0, elev=60.0, lo=solid.lo,
                                              hi=solid.hi), atol=1e-9)
    assert np.abs(after - before).max() > 0.05
    head = f.scene(width=1280, height=640).panels[0].header()["view3d"]
    assert (head["azim"], head["elev"]) == (10.0, 60.0)
    # the SGD iterate moves with the step: its plane at step k is the run's
    k = f.n_steps  # near its limit, inside the box
    f.show(k)
    w, b = f.sgd.traj.state(k)
    xyz = _rows(f.parts(k)["sgd"]["xyz"])
    assert len(xyz) >= 4  # a closed outline in the box
    np.testing.assert_allclose(xyz @ w + b, 0.0, atol=1e-6 * np.linalg.norm(w) * 10)
    np.testing.assert_allclose(f.solid.sgd.get_xydata(), project(
        f.parts(k)["sgd"]["xyz"], azim=10.0, elev=60.0, lo=solid.lo, hi=solid.hi), atol=1e-9)
    chunk = f.chunk(0)
    assert "xyz" in chunk.arrays["sgd"]


def test_three_features_overlaid_in_3d_else_the_plane_of_w():
    X, y = _iris3()
    f, cmp = _figure(X, y)
    assert f.in_3d and f.solid.ax.get_visible() and not f.plane.ax.get_visible()
    f.set_overlay("side")  # side by side: each line in its own plane of w, as before
    assert not f.in_3d and f.plane.ax.get_visible() and not f.solid.ax.get_visible()
    f.set_overlay("overlaid")
    assert f.in_3d
    X2 = X[:, :2]
    run = train(X2, y, max_epochs=50)
    cmp2 = margins.compare(X2, y, perceptron_w=run.final_w, perceptron_b=run.final_b)
    f.set_data(X2, y, cmp2)
    assert not f.in_3d and f.plane.ax.get_visible()
    assert "m3_slab" not in {t.name for t in f.scene(width=1280, height=640).tracks}


def test_iris3_is_offered_and_a_3_feature_csv_is_solved_in_3d():
    assert "iris3" in DATASETS
    m = MarginsModel()
    assert m.set_state(m.get_state() | {"dataset": "iris3", "hard": True})
    assert m.X.shape[1] == 3 and m.comparison.hard
    rng = np.random.default_rng(1)
    X = np.vstack([rng.normal(2.0, 0.5, (10, 3)), rng.normal(-2.0, 0.5, (10, 3))])
    y = np.r_[np.ones(10), -np.ones(10)]
    assert m.set_state(m.get_state() | {"points": points_of(X, y), "step": 0})
    assert m.X.shape == (20, 3)
    f = MarginsFigure()
    f.fit(1024, 600)
    f.set_data(m.X, m.y, m.comparison, path=m.path, sgd=m.sgd)
    assert f.in_3d and isinstance(f.solid, Margin3D)
    np.testing.assert_allclose(f.solid.X3, m.X)


def test_matplotlib_draws_what_the_page_is_sent_at_any_angle():
    """The statics chunk's 3-D arrays (what the page projects) against the kernel's artists,
    projected with the view's angles, before and after turning (exports draw the artists)."""
    from matplotlib.lines import Line2D

    from explorer.plots.data3d import hull2d

    X, y = _iris3()
    f, cmp = _figure(X, y, C=0.05)  # soft: slack segments and their ends too
    f.scene(width=1280, height=640)
    arrays = f.statics().arrays
    solid = f.solid
    for azim, elev in ((solid.azim, solid.elev), (35.0, -20.0)):
        solid.set_view(azim, elev)
        for name, art in solid.artists().items():
            if "xyz" not in arrays[name]:
                continue
            xyz = np.asarray(arrays[name]["xyz"][0], dtype=float)
            xy = project(xyz, azim=azim, elev=elev, lo=solid.lo, hi=solid.hi)
            if name == "m3_slab":
                want, got = hull2d(xy), art.get_xy()[:len(hull2d(xy))]
            elif name == "m3_line":
                want, got = xy, art.get_xy()[:len(xy)]
            elif isinstance(art, Line2D):
                want, got = xy, art.get_xydata()
            else:
                want, got = xy[np.isfinite(xy).all(axis=1)], art.get_offsets()
            assert len(want) > 0 or name in ("m3_target",), name
            np.testing.assert_allclose(np.asarray(got, float), want, atol=1e-4, err_msg=name)


@pytest.mark.parametrize("code", ["de", "zh"])
def test_the_3d_view_speaks_the_page_s_language(code):
    """Title, legend and its title in the catalog's words (English keys differ), numbers in."""
    from explorer.shared import i18n
    from explorer.shared.i18n import tr

    X, y = _iris3()
    with i18n.using(code):
        f, cmp = _figure(X, y)
        title = f.solid.ax.get_title("left")
        labels = [label for _, label in f.solid._entries]
        want_title = tr("{which}, {turn}").format(which=tr("Hard margin"),
                                                  turn=tr("in 3-D: drag to turn"))
        want_plane = tr("max-margin plane f = 0")
        want_sv = tr("support vectors, ring ∝ αᵢ")
    assert title == want_title != "Hard margin, in 3-D: drag to turn"
    assert want_plane in labels and want_plane != "max-margin plane f = 0"
    assert want_sv in labels
    with i18n.using("en"):
        f, _ = _figure(X, y)
    assert f.solid.ax.get_title("left") == "Hard margin, in 3-D: drag to turn"
    assert "max-margin plane f = 0" in [label for _, label in f.solid._entries]
