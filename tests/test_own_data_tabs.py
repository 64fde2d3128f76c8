"""A person's own CSV data in the Generalization and the Cover tab: read through the shared
DataPanel, split by the seed (Generalization) or scaled into the plane (Cover), refused with a
message when unusable (state kept), and carried through saved states and links."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.model_selection import train_test_split

from explorer.app.cover import CoverView  # noqa: E402
from explorer.app.cover.model import to_square  # noqa: E402
from explorer.app.generalization import GeneralizationView  # noqa: E402
from explorer.app.generalization.model import SPEC as GSPEC  # noqa: E402
from explorer.app.generalization.model import TEST_FRACTION  # noqa: E402
from explorer.app.upload import read_user_data  # noqa: E402
from explorer.cover.counting import dichotomies  # noqa: E402
from explorer.perceptron import train, training_error  # noqa: E402

SMALL = dict(ns="4, 8", trials="10")


def _csv(X, y=None) -> str:
    rows = [f"{float(a)!r},{float(b)!r}" + ("" if y is None else f",{int(c)}") for (a, b), c in
            zip(X, y if y is not None else [0] * len(X), strict=True)]
    return "x1,x2" + ("" if y is None else ",label") + "\n" + "\n".join(rows)


def _separable(n=20, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, size=(n, 2))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] > 0.1, 1, -1)
    return X, y


@pytest.fixture
def gview():
    v = GeneralizationView(autorun=False)
    assert v.model.update(**SMALL)
    return v


# ---------------------------------------------------------------------- Generalization
def test_own_data_become_the_run_split_as_sklearn_splits(gview):
    X, y = _separable()
    assert gview.data_panel.load(_csv(X, y))
    m = gview.model
    assert m.dataset == "own" and gview.w_dataset.value == "own"
    Xtr, Xte, ytr, yte = train_test_split(X.astype(float), y.astype(float),
                                          test_size=TEST_FRACTION, random_state=m.seed, stratify=y)
    np.testing.assert_array_equal(m.X, Xtr)
    np.testing.assert_array_equal(m.y, ytr)
    np.testing.assert_array_equal(m.X_test, Xte)
    assert m.traj.dim == 2 and m.n_steps > 0
    row = m.risk.rows[0]
    assert row.key == "own" and (row.n_train, row.n_test) == (len(Xtr), len(Xte))
    assert row.train_pocket == 0.0  # separable with an offset: the pocket finds a separator
    # the figure's risk panel shows the row, the narration its numbers
    assert gview.figure.risk.names[0].get_text() == f"Your data: {len(Xtr)} train / {len(Xte)} test"
    assert f"pocket rule training error 0.0 %, test error {100 * row.test_pocket:.1f} %" \
        in gview.messages.text
    # the run's losses are those of the training part
    w, b = m.traj.state(m.step)
    np.testing.assert_allclose(gview.figure.margins_at(m.step), ytr * (Xtr @ w + b))


def test_seed_resplits_own_data(gview):
    X, y = _separable()
    assert gview.data_panel.load(_csv(X, y))
    gview.text["seed"].value = "7"
    m = gview.model
    Xtr, Xte, ytr, yte = train_test_split(X.astype(float), y.astype(float),
                                          test_size=TEST_FRACTION, random_state=7, stratify=y)
    np.testing.assert_array_equal(m.X, Xtr)
    np.testing.assert_array_equal(m.y_test, yte)
    row = m.risk.rows[0]
    run = train(Xtr, ytr, rule="pocket", order="shuffle", max_epochs=30, seed=7)
    assert row.key == "own" and (row.n_train, row.n_test) == (len(ytr), len(yte))
    assert row.test_last == training_error(Xte, yte, run.final_w, run.final_b)
    assert row.test_pocket == training_error(Xte, yte, run.pocket_w, run.pocket_b)


def test_back_to_margin_data_drops_the_own_row(gview):
    X, y = _separable()
    assert gview.data_panel.load(_csv(X, y))
    gview.w_dataset.value = "margin"
    m = gview.model
    assert m.X_test is None and m.risk.rows[0].key == "iris"
    assert gview.save_state()["points"] == []
    gview.w_dataset.value = "own"  # the points loaded are still held
    assert m.dataset == "own" and m.risk.rows[0].key == "own"


def _one_plus_in_test_seed(y):
    """A seed whose unstratified split puts the only +1 point into the test part."""
    for seed in range(200):
        _, _, ytr, _ = train_test_split(np.zeros((len(y), 2)), y, test_size=TEST_FRACTION,
                                        random_state=seed)
        if not np.any(ytr == 1):
            return seed
    raise AssertionError("no such seed below 200")


@pytest.mark.parametrize("label,raw,words", [
    ("empty", "", "empty"),
    ("letters", "0,0,1\na,b,-1\n1,2,1\n3,4,-1\n", "row 2, column 1 holds 'a', which is not a number"),
    ("1e308", "1e308,0,1\n0,0,-1\n1,1,1\n2,2,-1\n", "row 1, column 1 holds '1e308'; numbers must be within"),
    ("one row", "0.5,1.2,1\n", "class"),
    ("three points", "0,0,1\n1,1,-1\n2,0,1\n", "too few"),
    ("501 rows", "\n".join(f"{i},{i % 7},{1 if i % 2 else -1}" for i in range(501)), "at most 500"),
])
def test_bad_own_data_refused_run_and_step_kept(gview, label, raw, words):
    m = gview.model
    gview.timeline.go(3)
    before = (m.dataset, m.traj, m.X, m.step, m.risk)
    assert not gview.data_panel.load(raw)
    assert words in gview.messages.refused, gview.messages.refused
    assert (m.dataset, m.traj, m.X, m.step, m.risk) == before
    assert gview.w_dataset.value == "margin"


def test_class_missing_from_training_part_refused(gview):
    y = np.array([-1, -1, -1, -1, -1, 1])
    X = np.arange(12, dtype=float).reshape(6, 2)
    seed = _one_plus_in_test_seed(y)
    gview.text["seed"].value = str(seed)
    m = gview.model
    before = (m.dataset, m.traj)
    assert not gview.data_panel.load(_csv(X, y))
    assert "holds no point of class +1" in gview.messages.refused
    assert (m.dataset, m.traj) == before


def test_own_without_data_refused(gview):
    gview.w_dataset.value = "own"
    assert "no data of your own yet" in gview.messages.refused
    assert gview.model.dataset == "margin" and gview.w_dataset.value == "margin"
    assert not gview.load_state({"dataset": "own"})
    assert "no data of your own yet" in gview.model.message


def test_own_data_round_trip_json_and_link(gview):
    X, y = _separable(n=12)
    assert gview.data_panel.load(_csv(X, y))
    gview.text["seed"].value = "4"
    gview.timeline.go(2)
    state = gview.save_state()
    assert len(state["points"]) == 12
    for values in (state, GSPEC.from_query(GSPEC.to_query(state))[0]):
        other = GeneralizationView(autorun=False)
        assert other.load_state(values), other.model.message
        o, m = other.model, gview.model
        assert (o.dataset, o.seed, o.step) == ("own", 4, 2)
        np.testing.assert_array_equal(o.X, m.X)
        np.testing.assert_array_equal(o.y_test, m.y_test)
        assert o.risk.rows[0] == m.risk.rows[0]
    _, problems = GSPEC.from_query("tab=generalization&dataset=own&points=1,2,3")
    assert problems and "has label '3', not -1 or +1" in problems[0]


# ---------------------------------------------------------------------- Cover
@pytest.fixture
def cview():
    v = CoverView()
    v.model.update(view="dichotomies")
    return v


def test_cover_reads_two_columns_counts_as_given(cview):
    X = np.array([[10.0, 20.0], [12.0, 20.0], [14.0, 20.0], [11.0, 25.0], [30.0, -4.0]])
    assert cview.data_panel.load(_csv(X, [1, -1, 1, 1, -1]))
    m = cview.model
    np.testing.assert_allclose(m.X, to_square(X))
    assert np.abs(m.X).max() == pytest.approx(1.0)
    oracle = dichotomies(X)  # a shift and one scale keep every dichotomy's separability
    assert m.dich.count == oracle.count and not m.dich.general_position
    np.testing.assert_array_equal(m.dich.separable, oracle.separable)
    assert "lie on one line" in cview.messages.text
    assert "Cover counts all 2^5 = 32 labelings" in cview.messages.notice.value
    assert "1 further column ignored" in cview.data_panel.preview.value
    assert "Loaded" in cview.data_panel.preview.value
    cview.b_random.click()  # other points: the note on the loaded ones goes
    assert cview.messages.notice.value == ""


def test_cover_points_without_labels_and_one_point(cview):
    assert cview.data_panel.load("0,0\n1,1\n2,3\n")
    assert cview.model.dich.count == dichotomies(np.array([[0, 0], [1, 1], [2, 3]])).count == 8
    assert cview.data_panel.load("5,5\n")  # one point: 2 dichotomies, both separable
    assert len(cview.model.X) == 1 and cview.model.dich.count == 2


@pytest.mark.parametrize("label,raw,words", [
    ("empty", "", "empty. Expected rows like '0.5, 1.2'."),
    ("header only", "x1,x2\n", "header but no data"),
    ("letters", "0,0\na,1\n", "not a number"),
    ("1e308", "1e308,0\n0,0\n", "within"),
    ("nan", "nan,0\n0,0\n", "row 1, column 1 holds 'nan', which is not a number (NaN)"),
    ("one column", "1\n2\n", "two coordinates"),
    ("17 rows", "\n".join(f"{i},{i * i % 5}" for i in range(17)), "at most 16"),
    ("40 rows", "\n".join(f"{i},{i * i % 5}" for i in range(40)), "at most 16"),
])
def test_cover_bad_csv_refused_points_kept(cview, label, raw, words):
    m = cview.model
    X = m.X
    assert not cview.data_panel.load(raw)
    assert words in cview.messages.refused, cview.messages.refused
    assert m.X is X


def test_cover_model_refuses_more_than_sixteen():
    v = CoverView()
    X = v.model.X
    assert not v.model.load_points(np.arange(34, dtype=float).reshape(17, 2))
    assert "at most 16" in v.model.message and v.model.X is X


def test_cover_own_points_round_trip(cview):
    X = np.array([[0.3, 7.0], [2.0, -1.0], [5.0, 5.5], [1.0, 1.0]])
    assert cview.data_panel.load(_csv(X))
    state = cview.save_state()
    spec = cview.spec
    for values in (state, spec.from_query(spec.to_query(state))[0]):
        other = CoverView()
        assert other.load_state(values), other.model.message
        np.testing.assert_array_equal(other.model.X, cview.model.X)
        assert other.model.dich.count == cview.model.dich.count == 14


def test_labelled_reader_unchanged_by_default():
    text = "0.5,5\n1.5,7\n"
    assert "-1 and +1" in read_user_data(text)  # by default the last column is a label: refused
    got = read_user_data(text, labels=False)
    assert not isinstance(got, str) and not got.y.any()
    np.testing.assert_array_equal(got.X, [[0.5, 5.0], [1.5, 7.0]])
