"""The Generalization tab on a person's data of more than two features (issue 34, item 1): the CSV
is trained in its own M dimensions (no PCA), split as scikit-learn splits it, the run equal to
:func:`explorer.perceptron.train` on the training part, the risk row the core's on the same
arrays, the loss panel's margins y·f(x) those of R^M (the tab has no data plane: its panels are
exact in any dimension); links and saved states carry every feature."""

from __future__ import annotations

import numpy as np
import pytest
from md_data import csv_text, md_data
from sklearn.model_selection import train_test_split

from explorer import generalization as G
from explorer.app.generalization import GeneralizationView
from explorer.app.generalization.model import MAX_FEATURES, RUN_EPOCHS, TEST_FRACTION
from explorer.app.generalization.model import SPEC as GSPEC
from explorer.perceptron import train

SMALL = dict(ns="4, 8", trials="10")


def _data(M: int, n: int = 40, seed: int = 5):
    return md_data(M, n, seed)


@pytest.fixture
def gview():
    v = GeneralizationView(autorun=False)
    assert v.model.update(**SMALL)
    return v


def test_a_csv_of_m_features_is_trained_in_its_own_dimension(gview):
    X, y = _data(6)
    assert gview.data_features == MAX_FEATURES
    assert gview.data_panel.load(csv_text(X, y)), gview.messages.refused
    assert "trained in its own 6 dimensions" in gview.data_panel.preview.value
    assert "PCA" not in gview.data_panel.preview.value
    m = gview.model
    Xtr, Xte, ytr, yte = train_test_split(X.astype(float), y.astype(float),
                                          test_size=TEST_FRACTION, random_state=m.seed, stratify=y)
    np.testing.assert_array_equal(m.X, Xtr)
    np.testing.assert_array_equal(m.X_test, Xte)
    ref = train(Xtr, ytr, rule="margin", fit_intercept=True, order="cyclic",
                max_epochs=RUN_EPOCHS)
    assert m.traj.dim == 6
    np.testing.assert_array_equal(m.traj.weights, ref.weights)
    np.testing.assert_array_equal(m.traj.biases, ref.biases)
    row = G.risk_row(Xtr, ytr, Xte, yte, key="own", title="Your data", source="your CSV",
                     epochs=RUN_EPOCHS, seed=m.seed)
    assert m.risk.rows[0] == row and row.dim == 6
    # the loss panel's points: each training example's margin y·f(x) in R^6 at the step shown
    k = m.n_steps // 2
    gview.timeline.go(k)
    w, b = ref.state(k)
    np.testing.assert_allclose(gview.figure.margins_at(k), ytr * (Xtr @ w + b), rtol=1e-12)


def test_a_link_and_a_saved_state_carry_every_feature(gview):
    X, y = _data(9, n=30)
    assert gview.data_panel.load(csv_text(X, y))
    gview.timeline.go(3)
    state = gview.save_state()
    assert len(state["points"][0]) == 9 + 1
    for values in (GSPEC.from_json(GSPEC.to_json(state))[0],
                   GSPEC.from_query(GSPEC.to_query(state))[0]):
        other = GeneralizationView(autorun=False)
        assert other.load_state(values), other.model.message
        o, m = other.model, gview.model
        assert o.step == 3 and o.X.shape[1] == 9
        np.testing.assert_array_equal(o.X, m.X)
        np.testing.assert_array_equal(o.traj.weights, m.traj.weights)


def test_more_features_than_the_cap_are_refused_in_words_and_the_run_kept(gview):
    X, y = _data(4)
    assert gview.data_panel.load(csv_text(X, y))
    before = gview.model.traj
    X, y = _data(MAX_FEATURES + 1, n=12)
    assert not gview.data_panel.load(csv_text(X, y))
    assert f"at most {MAX_FEATURES} features" in gview.messages.refused
    assert gview.model.traj is before
