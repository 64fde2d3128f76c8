"""The margin line (issue 34, items 3 a and 4): for data of more than two features the Perceptron
tab's side panel shows every point at its signed distance y (<w, x> + b) / ||w|| at the step shown,
the run's margin now and, for separable data, the hard-margin SVM's gamma(S), in weight space's
place (which has M + 1 dimensions and is not drawn, in words); two features are drawn as before."""

import math

import numpy as np
import pytest
from sklearn.svm import SVC
from test_svm import BREAST_CANCER_GAMMA

from explorer.perceptron import train
from explorer.plots.export import still_bytes
from explorer.plots.figure import PerceptronFigure
from explorer.plots.margin_line import ZERO_NOTE, spread, weights_note
from explorer.shared import datasets
from explorer.shared.number_format import number_text


def _figure(ds, **kw):
    traj = train(ds.X, ds.y, **kw)
    f = PerceptronFigure()
    f.set_run(traj, ds.X, ds.y)
    return f, traj


def _drawn(f, k):
    """Each point's (distance, height) as step ``k``'s parts draw it, in the data's order."""
    parts = f.parts(f.frame(k))
    xy = np.full((len(f.y), 2), np.nan)
    xy[f.y > 0], xy[f.y < 0] = parts["margin_pos"]["xy"], parts["margin_neg"]["xy"]
    return xy, parts


@pytest.fixture(scope="module")
def cancer():
    ds = datasets.load("breast_cancer")
    return (ds, *_figure(ds, max_epochs=5))


def test_every_point_is_at_y_f_over_norm_w_and_the_margin_is_their_minimum(cancer):
    ds, f, traj = cancer
    assert f.side is f.margin and f.margin.ax.get_visible() and not f.weights.ax.get_visible()
    heights = None
    steps = [1, 2, 57, 400, 1201, 2000, traj.n_steps]
    steps += [int(s) for s in traj.update_steps[[3, 40, -1]]]
    for k in steps:
        w, b = traj.state(k)
        ref = ds.y * (ds.X @ w + b) / np.sqrt(np.sum(w * w))  # by hand
        xy, parts = _drawn(f, k)
        np.testing.assert_allclose(xy[:, 0], ref, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(parts["margin_now"]["xy"][:, 0], ref.min(), atol=1e-12)
        text = parts["margin_now_text"]
        assert text["xy"][0] == pytest.approx(ref.min()) and text["text"].strip() == \
            f"margin {number_text(ref.min())}"
        if heights is None:
            heights = xy[:, 1]
        np.testing.assert_array_equal(xy[:, 1], heights)  # a point keeps its height
        fr = f.frame(k)  # the visited point is ringed where it is drawn
        np.testing.assert_allclose(parts["margin_picked"]["xy"], xy[list(fr.picked)])
        assert list(parts["margin_picked"]["c"]) == [int(i in fr.triggered) for i in fr.picked]
    # misclassified points are left of the boundary (the shaded side), the others right of it
    w, b = traj.state(1201)
    xy, _ = _drawn(f, 1201)
    wrong = np.sign(ds.X @ w + b) != ds.y
    assert wrong.any() and (xy[wrong, 0] <= 0).all() and (xy[~wrong, 0] > 0).all()
    lo, hi = f.margin.ax.get_xlim()
    assert lo <= f.margin.wrong.get_x() + 1e-12 and f.margin.wrong.get_x() + \
        f.margin.wrong.get_width() == pytest.approx(0.0)


def test_the_points_are_spread_by_index_and_stay_in_view_at_every_update(cancer):
    ds, f, traj = cancer
    h = spread(ds.n)
    assert len(np.unique(np.round(h, 9))) == ds.n  # no two points at one height
    lo, hi = f.margin.ax.get_xlim()
    for k in [0, *traj.update_steps.tolist()]:
        w, b = traj.state(int(k))
        if np.any(w):
            d = ds.y * (ds.X @ w + b) / np.linalg.norm(w)
            assert lo < d.min() and d.max() < hi


def test_the_band_is_the_hard_margin_svms_gamma_and_the_run_never_passes_it(cancer):
    ds, f, traj = cancer
    g = f.margin.gamma_value
    assert math.isclose(g, BREAST_CANCER_GAMMA[True], rel_tol=1e-6)  # libsvm's, affine
    assert f.margin.gamma.get_visible() and f.margin.gamma.get_width() == pytest.approx(g)
    assert f"γ(S) = {0.0014}" in f.margin.note.get_text()
    # iris setosa vs rest, 4-D: against scikit-learn's SVC at a huge C (the hard margin)
    ds4 = datasets.load("iris", features="all")
    f4, traj4 = _figure(ds4, max_epochs=20)
    svc = SVC(kernel="linear", C=1e8).fit(ds4.X, ds4.y)
    assert math.isclose(f4.margin.gamma_value, 1 / np.linalg.norm(svc.coef_), rel_tol=1e-4)
    for k in range(1, traj4.n_steps + 1, 7):
        x = f4.parts(f4.frame(k))["margin_now"]["xy"][0, 0]
        assert not np.isfinite(x) or x <= f4.margin.gamma_value + 1e-12


def test_not_separable_data_have_no_band():
    ds = datasets.load("iris", features="all", classes="versicolor_vs_virginica")
    f, _ = _figure(ds, max_epochs=2)
    assert f.info.separable is False and f.margin.gamma_value is None
    assert not f.margin.gamma.get_visible() and "not separable: no γ(S)" in f.margin.note.get_text()


def test_before_the_first_update_w_is_0_and_the_panel_says_so():
    ds = datasets.load("iris", features="all")
    f, traj = _figure(ds, max_epochs=1, rule="classic")
    assert not np.any(traj.state(0)[0])
    parts = f.parts(f.frame(0))
    assert parts["margin_pos"]["xy"].shape == (0, 2) and not np.isfinite(parts["margin_now"]["xy"]).any()
    assert parts["margin_now_text"]["text"] == ZERO_NOTE
    f.show(0)
    assert f.margin.now_text.get_text() == ZERO_NOTE and len(f.margin.now.get_xdata()) == 0


def test_the_panel_says_why_weight_space_is_not_drawn():
    whole, short, _ = weights_note(30, fit=True)
    assert whole == "w has 31 components (with b):\nthe version space cannot be drawn"
    assert weights_note(4, fit=False)[0].startswith("w has 4 components:")
    ds = datasets.load("iris", features="all")
    f, _ = _figure(ds, max_epochs=1, fit_intercept=False)
    assert f.margin.note.get_text().split("\n")[0] in [
        form.split("\n")[0] for form in weights_note(4, fit=False)]
    assert f.side_rows()[0] == "Margin line, mistakes"


def test_the_page_and_matplotlib_draw_the_same_margin_line(cancer):
    ds, f, traj = cancer
    scene = f.scene(width=1366, height=600)
    assert [p.name for p in scene.panels] == ["plane", "margin", "mistakes", "proof"]
    heading = scene.panel("margin").heading
    assert "exact" in heading and "Margin line" in heading
    assert "proof" in f.margin.ax.get_xlabel()
    chunk = f.chunk(4)  # steps 1024..1279
    k = 1201
    i = k - chunk.start
    f.show(k)
    np.testing.assert_allclose(f.margin.pos.get_offsets(), chunk.arrays["margin_pos"]["xy"][i],
                               rtol=1e-6)
    np.testing.assert_allclose(f.margin.neg.get_offsets(), chunk.arrays["margin_neg"]["xy"][i],
                               rtol=1e-6)
    np.testing.assert_allclose(f.margin.now.get_xydata(), chunk.arrays["margin_now"]["xy"][i],
                               rtol=1e-6)
    # a chunk carries every point once a step per view (the plane's and the line's), no more
    _, buffers = chunk.message(run=1, index=4)
    per_step = sum(map(len, buffers)) / chunk.count
    assert per_step < 2 * (2 * ds.n * 2 * 4) + 600, per_step


def test_the_margin_line_can_be_shown_large_and_exported(cancer):
    ds, f, traj = cancer
    assert "margin" in f.enlargeable() and "weights" not in f.enlargeable()
    assert f.set_enlarged("margin")
    scene = f.scene(width=1024, height=600)
    assert [p.name for p in scene.panels] == ["margin"]
    assert {t.name for t in scene.tracks} >= {"margin_pos", "margin_neg", "margin_now"}
    assert f.set_enlarged("")
    png = still_bytes(traj, ds.X, ds.y, k=1201, info=f.info, dpi=60)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000


def test_two_features_are_drawn_without_a_margin_line_even_after_more():
    koski = datasets.load("koski")
    fresh, traj = _figure(koski, eta=0.2, w0=[1, 0.5])
    assert fresh.margin is None and len(fresh.fig.axes) == 4
    ds4 = datasets.load("iris", features="all")
    f, _ = _figure(ds4, max_epochs=1)
    f.scene(width=1000, height=520)
    f.set_run(traj, koski.X, koski.y)
    assert f.side is f.weights and f.weights.ax.get_visible() and not f.margin.ax.get_visible()
    a, b = fresh.scene(width=1000, height=520), f.scene(width=1000, height=520)
    assert [p.name for p in a.panels] == [p.name for p in b.panels] == \
        ["plane", "weights", "mistakes", "proof"]
    assert [t.name for t in a.tracks] == [t.name for t in b.tracks]
    assert not any(t.name.startswith("margin_") for t in b.tracks)
    ca, cb = fresh.chunk(0), f.chunk(0)
    for name, fields in ca.arrays.items():
        for key, arr in fields.items():
            np.testing.assert_array_equal(arr, cb.arrays[name][key])


def test_the_points_keep_their_heights_when_the_verdict_on_separability_comes():
    from explorer.perceptron.replay import pending_run

    ds = datasets.load("iris", features="all")
    traj = train(ds.X, ds.y, max_epochs=3)
    f = PerceptronFigure()
    f.set_run(traj, ds.X, ds.y, pending_run(traj, ds.X, ds.y))  # the page's first picture
    k = traj.n_steps
    first, _ = _drawn(f, k)
    assert "being worked out" in f.margin.note.get_text() and f.margin.gamma_value is None
    f.set_run(traj, ds.X, ds.y)  # the solvers loaded: the verdict and gamma(S)
    assert f.margin.gamma_value is not None and "green: γ(S)" in f.margin.note.get_text()
    np.testing.assert_array_equal(_drawn(f, k)[0][:, 1], first[:, 1])


def test_in_the_dashboard_a_data_set_change_and_its_undo_swap_the_side_panel():
    from explorer.app.dashboard import Dashboard

    d = Dashboard(query="tab=perceptron&dataset=iris4&step=30")
    view = d.active
    fig = view._figure
    assert fig.side is fig.margin and view.model.step == 30
    before = d.share.value
    view.model.update(dataset="koski")  # two features: weight space again
    assert fig.side is fig.weights and fig.weights.ax.get_visible()
    assert not fig.margin.ax.get_visible()
    d.history.undo()
    assert d.share.value == before and fig.side is fig.margin and fig.margin.ax.get_visible()
    assert not fig.weights.ax.get_visible() and view.model.X.shape[1] == 4
    xy, _ = _drawn(fig, 30)
    w, b = fig.traj.state(30)
    np.testing.assert_allclose(xy[:, 0], view.model.y * (view.model.X @ w + b)
                               / np.linalg.norm(w), atol=1e-12)


def test_b_held_at_b0_is_no_component_and_has_no_svm_to_compare():
    ds = datasets.load("iris", features="all")
    f, _ = _figure(ds, max_epochs=1, fit_intercept=False, b0=0.5)
    words = f.margin.note.get_text().splitlines()
    assert words[0] == "w has 4 components:" and words[-1].startswith("no γ(S)")
    assert f.margin.gamma_value is None and not f.margin.gamma.get_visible()
