"""The Margins tab on data of more than two features (issue 34, item 1): the max-margin SVM,
the perceptron and the SGD run solved in R^M (scikit-learn's SVC as the oracle on the 30
breast-cancer features), drawn in the plane that contains the SVM's w
(explorer.plots.margin_view): the boundary at 0 along w, the slab's half-width 1/||w|| in the
plane's units, each point at its exact distance (w·x + b)/||w||; edits by the pointer refused
in words; CSVs, links and saved states carry every feature."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.svm import SVC

from explorer.app import Dashboard
from explorer.app.margins import MarginsView
from explorer.app.margins.model import SPEC, MarginsModel
from explorer.perceptron import train
from explorer.plots import MarginsFigure
from explorer.plots.margin_parts import plane_parts, step_parts
from explorer.shared import svm

_MODELS: dict = {}


def _model(**params) -> MarginsModel:
    key = tuple(sorted(params.items()))
    if key not in _MODELS:
        _MODELS[key] = MarginsModel(**params)
    return _MODELS[key]


def _figure(m: MarginsModel, overlay: str = "overlaid") -> MarginsFigure:
    f = MarginsFigure(overlay=overlay)
    f.fit(1100, 600)
    f.set_data(m.X, m.y, m.comparison, path=m.path, sgd=m.sgd)
    return f


def _drawn(f: MarginsFigure, m: MarginsModel) -> dict:
    """The plane's edit parts as the page is sent them (statics), in plane coordinates."""
    pt = f.fig.dpi / 72.0
    Xd, cmpd = f.plane.drawn(m.X, m.comparison)
    return plane_parts(f.plane, Xd, m.y, cmpd, pt=pt)


def _csv(X, y) -> str:
    head = ",".join(f"f{j + 1}" for j in range(X.shape[1])) + ",label\n"
    return head + "\n".join(",".join(repr(float(v)) for v in row) + f",{int(c)}"
                            for row, c in zip(X, y, strict=True))


def _data(M: int, n: int = 24, seed: int = 3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, M))
    y = np.where(X @ np.linspace(1.0, -0.5, M) > 0.1, 1, -1)
    return X, y


# ---------------------------------------------------------------------- solved in R^M
def test_the_hard_margin_on_30_features_is_sklearns():
    m = _model(dataset="breast_cancer30", hard=True)
    assert m.X.shape == (398, 30)  # the training part, every feature (no PCA)
    fit = m.comparison.svm
    ref = SVC(kernel="linear", C=1e8, tol=1e-6).fit(m.X, m.y)
    w_ref, b_ref = ref.coef_[0], float(ref.intercept_[0])
    np.testing.assert_allclose(fit.w, w_ref, rtol=2e-3, atol=2e-3 * np.abs(w_ref).max())
    assert fit.b == pytest.approx(b_ref, rel=2e-3, abs=2e-3)
    assert m.comparison.gamma == pytest.approx(1 / np.linalg.norm(w_ref), rel=2e-3)
    # every support vector of libsvm is one of ours; ours all lie on the band's edges
    assert set(ref.support_) <= set(fit.support.tolist())
    np.testing.assert_allclose(fit.yf[fit.support], 1.0, atol=1e-6)
    # the test error is measured in R^M on the held-out 30 %
    pred = np.where(m.X_test @ w_ref + b_ref >= 0, 1.0, -1.0)
    assert m.test_error() == pytest.approx(np.mean(pred != m.y_test))


def test_the_soft_margin_perceptron_and_sgd_run_are_those_of_the_30_features():
    m = _model(dataset="breast_cancer30")
    X, y = m.X, m.y
    ref = svm.fit(X, y, C=1.0)
    np.testing.assert_allclose(m.comparison.svm.w, ref.w, atol=1e-9)
    sk = SVC(kernel="linear", C=1.0, tol=1e-6).fit(X, y)
    np.testing.assert_allclose(m.comparison.svm.w, sk.coef_[0], atol=5e-3 * np.abs(sk.coef_).max())
    perc = train(X, y, rule="classic", max_epochs=50)
    np.testing.assert_array_equal(m.comparison.perceptron_w, perc.final_w)
    assert m.sgd.traj.weights.shape[1] == 30 and m.n_steps == 30 * len(X)


# ---------------------------------------------------------------------- drawn in the plane of w
def test_the_plane_of_w_draws_exact_distances_and_the_slab_of_half_width_one_over_norm_w():
    m = _model(dataset="breast_cancer30", hard=True)
    f = _figure(m)
    fit = m.comparison.svm
    norm = float(np.linalg.norm(fit.w))
    p = _drawn(f, m)
    # every point along w at its signed distance (w·x + b)/||w||
    along = np.concatenate([p["pos"]["xy"][:, 0], p["neg"]["xy"][:, 0]])
    exact = (m.X @ fit.w + fit.b) / norm
    np.testing.assert_allclose(along, np.concatenate([exact[m.y > 0], exact[m.y < 0]]),
                               atol=1e-9)
    # the boundary is the line s = 0, the band's edges s = ±1/||w||: the slab's half-width
    np.testing.assert_allclose(p["line"]["xy"][:, 0], 0.0, atol=1e-12)
    np.testing.assert_allclose(p["band_hi"]["xy"][:, 0], 1 / norm, rtol=1e-9)
    np.testing.assert_allclose(p["band_lo"]["xy"][:, 0], -1 / norm, rtol=1e-9)
    slab = p["slab"]["xy"]
    assert len(slab) >= 4
    half = (slab[:, 0].max() - slab[:, 0].min()) / 2
    assert half == pytest.approx(1 / norm, rel=1e-9) == pytest.approx(m.comparison.gamma)
    # the support vectors are ringed where they are drawn: on the band's edges
    rings = p["rings"]["xy"]
    assert len(rings) == len(fit.support)
    np.testing.assert_allclose(np.abs(rings[:, 0]), 1 / norm, rtol=1e-6)
    # the words say what the plane is
    ax = f.plane.ax
    assert "30 features, in the plane of w" in ax.get_title(loc="left")
    assert ax.get_xlabel() == "along w (exact distance)" and ax.get_ylabel() == "across w"
    assert "exact distances to the max-margin line" in f.plane._legend_title


def test_slacks_keep_their_length_and_other_lines_are_where_their_hyperplanes_cut_the_plane():
    m = _model(dataset="breast_cancer30")
    f = _figure(m)
    view, cmp = f.plane.view, m.comparison
    assert view is not None and view.kind == "svm"
    p = _drawn(f, m)
    xy = p["slacks"]["xy"]
    segs = [xy[i:i + 2] for i in range(0, len(xy), 3)]
    assert len(segs) == len(cmp.slack_index) > 0
    lengths = np.array([np.linalg.norm(s[1] - s[0]) for s in segs])
    np.testing.assert_allclose(lengths, cmp.slack_length, rtol=1e-9)
    np.testing.assert_allclose(lengths * np.linalg.norm(cmp.svm.w),
                               np.asarray(cmp.svm.slack)[cmp.slack_index], rtol=1e-9)
    # the SGD iterate at step k: its drawn line's points lie on its hyperplane in R^M
    k = 1234
    seg = step_parts(f, k)["sgd"]["xy"]
    assert np.isfinite(seg).all()
    w, b = m.sgd.traj.state(k)
    for q in seg:
        x = view.x0 + view.basis.T @ q
        assert abs(x @ w + b) <= 1e-9 * max(1.0, np.abs(w).sum() * np.abs(x).max())


def test_iris_4d_and_the_side_layout_draw_in_the_plane_of_w_too():
    m = _model(dataset="iris4", hard=True)
    f = _figure(m, overlay="side")
    assert m.X.shape[1] == 4
    # side by side the narrow titles stay short; each legend's heading says what the plane is
    assert f.plane.view is not None and f.perc_plane.view is f.plane.view
    assert "4 features, in the plane of w" in f.plane._legend_title
    assert "4 features, in the SVM's plane of w" in f.perc_plane._legend_title
    assert f.perc_plane.ax.get_xlabel() == "along w (exact distance)"
    assert f.perc_plane.box == f.plane.box
    # the page's scene: the data sent once, in the plane of w, and the SGD run in chunks
    f.scene(width=1100, height=600)
    chunk = f.statics()
    assert chunk.count == 1
    fit = m.comparison.svm
    pos = np.asarray(chunk.arrays["plane_pos"]["xy"], dtype=float).reshape(-1, 2)
    pos = pos[np.isfinite(pos).all(axis=1)]
    exact = (m.X[m.y > 0] @ fit.w + fit.b) / np.linalg.norm(fit.w)
    np.testing.assert_allclose(np.sort(pos[:, 0]), np.sort(exact), rtol=1e-5, atol=1e-5)
    assert f.chunk(0).count > 0


def test_without_a_hard_margin_the_plane_is_the_perceptrons_and_the_hulls_meet_in_it():
    m = _model(dataset="iris4_hard", hard=True)  # versicolor/virginica: not separable in R^4
    assert m.comparison.svm is None and m.comparison.certificate is not None
    f = _figure(m)
    view = f.plane.view
    assert view.kind == "perceptron"
    assert "4 features, in the plane of the perceptron's w" in f.plane.ax.get_title(loc="left")
    assert "exact distances to the perceptron's line" in f.plane._legend_title
    Xd, cmpd = f.plane.drawn(m.X, m.comparison)
    wp, bp = m.comparison.perceptron_w, m.comparison.perceptron_b
    np.testing.assert_allclose(Xd[:, 0], (m.X @ wp + bp) / np.linalg.norm(wp), atol=1e-9)
    seg = np.column_stack(f.plane.perc.get_data()).astype(float)
    np.testing.assert_allclose(seg[:, 0], 0.0, atol=1e-9)  # its line: s = 0
    # the point both hulls share in R^4 is drawn where both drawn hulls share it
    c = m.comparison.certificate
    for weights, index in ((c.pos_weights, c.pos_index), (c.neg_weights, c.neg_index)):
        np.testing.assert_allclose(weights @ Xd[index], cmpd.certificate.point, atol=1e-9)
    assert f.plane.cert.get_visible()


def test_the_perceptrons_band_is_not_drawn_where_it_would_not_be_its_margin():
    m = _model(dataset="digits38", hard=True)  # 64 pixels; the perceptron separates them
    assert m.X.shape[1] == 64 and m.comparison.perceptron_margin > 0
    sk = SVC(kernel="linear", C=1e8, tol=1e-6).fit(m.X, m.y)
    assert m.comparison.gamma == pytest.approx(1 / np.linalg.norm(sk.coef_[0]), rel=2e-3)
    f = _figure(m)
    assert len(np.unique(f.plane.perc_slab.get_xy(), axis=0)) == 1  # a point: nothing drawn
    labels = [label for _, label in f.plane._entries]
    assert any(label.startswith("perceptron: margin") and "band not drawn" in label
               for label in labels), labels
    two = _figure(_model(dataset="separable", hard=True))
    assert len(np.unique(two.plane.perc_slab.get_xy(), axis=0)) > 2  # drawn as before in 2-D


def test_two_features_are_drawn_as_before():
    m = _model(dataset="separable", hard=True)
    f = _figure(m)
    assert f.plane.view is None
    ax = f.plane.ax
    assert ax.get_title(loc="left") == "Hard margin (Sayed 61.4)"
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("x₁", "x₂")
    p = _drawn(f, m)
    np.testing.assert_array_equal(np.vstack([p["pos"]["xy"], p["neg"]["xy"]]),
                                  np.vstack([m.X[m.y > 0], m.X[m.y < 0]]))


# ---------------------------------------------------------------------- the tab
@pytest.fixture
def view():
    v = MarginsView()
    assert v.model.update(dataset="breast_cancer30")
    return v


@pytest.mark.parametrize("mode", ["add+", "add-", "remove", "drag"])
def test_an_edit_by_click_is_refused_in_words_and_the_data_kept(view, mode):
    m = view.model
    before = (m.X, m.comparison)
    view.w_edit.value = mode
    view.click(0.0, 0.0)
    if mode == "drag":
        view.drag("up", 0.0, 0.0)
    assert "two features; these have 30, drawn in the plane of the SVM's w" in \
        view.messages.refused
    assert (m.X, m.comparison) == before and m.draft is None and not m.edited
    assert not m.add_point(0.0, 0.0, 1) and not m.remove_point(0) and not m.move_point(0, 0, 0)


def test_a_csv_of_m_features_is_solved_in_its_own_dimension():
    v = MarginsView()
    X, y = _data(5)
    assert v.data_features == 64
    assert v.data_panel.load(_csv(X, y)), v.messages.refused
    m = v.model
    np.testing.assert_array_equal(m.X, X)
    assert m.comparison.svm.w.shape == (5,)
    np.testing.assert_allclose(m.comparison.svm.w, svm.fit(X, y.astype(float), C=1.0).w,
                               atol=1e-12)
    assert "trained in its own 5 dimensions" in v.data_panel.preview.value
    assert "5 features, in the plane of w" in v.figure.plane.ax.get_title(loc="left")


def test_a_link_and_a_saved_state_carry_every_feature_and_the_step():
    v = MarginsView()
    X, y = _data(7)
    assert v.data_panel.load(_csv(X, y))
    m = v.model
    m.go(17)
    state = v.save_state()
    assert len(state["points"][0]) == 7 + 1
    d = Dashboard(query=SPEC.to_query(state))  # a link
    other = d.active
    assert other.title == "Margins" and not other.messages.refused
    o = other.model
    assert o.step == 17 and o.X.shape == (len(X), 7)
    np.testing.assert_array_equal(o.X, X)
    np.testing.assert_array_equal(o.comparison.svm.w, m.comparison.svm.w)
    values, problems = SPEC.from_json(SPEC.to_json(state))  # a saved file
    assert not problems and values["points"] == state["points"]
    fresh = MarginsView()
    assert fresh.load_state(values)
    np.testing.assert_array_equal(fresh.model.X, X)
    assert fresh.model.step == 17
    assert "7 features, in the plane of w" in fresh.figure.plane.ax.get_title(loc="left")


def test_points_of_30_features_go_to_the_perceptron_tab(view):
    view._send_points()
    assert view.handoff.tab == "perceptron" and view.handoff.X.shape == (398, 30)
