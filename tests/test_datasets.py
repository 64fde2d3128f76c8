"""The datasets registry, the sources' examples and validation of user data."""

import numpy as np
import pytest

from explorer.shared import datasets
from explorer.shared.datasets import DATASETS, from_arrays, from_csv, load


@pytest.mark.parametrize("name", sorted(DATASETS))
def test_every_preset_follows_the_conventions(name):
    ds = load(name)
    assert ds.X.ndim == 2 and ds.X.dtype == np.float64 and ds.X.shape[0] == ds.y.shape[0]
    assert set(np.unique(ds.y)) == {-1.0, 1.0}
    assert ds.name == name and ds.description and ds.source
    with pytest.raises(ValueError):
        ds.X[0, 0] = 1.0  # read-only


def test_koski_points_match_reference():
    ds = load("koski")
    np.testing.assert_array_equal(ds.X, [[1.5, -0.5], [1, 1], [-2, 1], [-1, -1.5], [2, -2], [-2, -2]])
    np.testing.assert_array_equal(ds.y, [1, 1, 1, -1, -1, -1])


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("margin", [0.0, 0.2, 0.6])
def test_separable_has_the_promised_gap(seed, margin):
    ds = load("separable", n=60, dim=3, margin=margin, seed=seed)
    rng = np.random.default_rng(seed)  # replay the generator's first draws: the normal and offset
    u = rng.standard_normal(3)
    u /= np.linalg.norm(u)
    c = rng.uniform(-0.3, 0.3)
    assert np.min(ds.y * (ds.X @ u + c)) >= margin - 1e-12
    assert set(np.unique(ds.y)) == {-1.0, 1.0}


def test_same_seed_same_data_and_params_rebuild_it():
    a, b = load("separable", n=20, seed=5), load("separable", n=20, seed=5)
    np.testing.assert_array_equal(a.X, b.X)
    c = load(a.name, **a.params)
    np.testing.assert_array_equal(a.X, c.X)
    assert not np.array_equal(a.X, load("separable", n=20, seed=6).X)


def test_boolean_functions_in_both_encodings():
    pm, zo = load("xor", encoding="pm1"), load("xor", encoding="01")
    np.testing.assert_array_equal(pm.X, 2 * zo.X - 1)
    np.testing.assert_array_equal(pm.y, [-1, 1, 1, -1])
    np.testing.assert_array_equal(load("and").y, [-1, -1, -1, 1])
    np.testing.assert_array_equal(load("or").y, [-1, 1, 1, 1])
    np.testing.assert_array_equal(load("nand").y, [1, 1, 1, -1])
    with pytest.raises(ValueError, match="encoding must be 'pm1' or '01'; got 'bits'"):
        load("xor", encoding="bits")


def test_real_datasets():
    iris = load("iris")
    assert iris.X.shape == (150, 2) and (iris.y == 1).sum() == 50
    vv = load("iris", classes="versicolor_vs_virginica", features=(2, 3))
    assert vv.X.shape == (100, 2)
    bc = load("breast_cancer")
    assert bc.X.shape == (569, 30) and (bc.y == 1).sum() == 212  # 212 malignant
    assert load("breast_cancer", k=2).X.shape == (569, 2)


def test_the_real_data_in_their_own_dimension_against_scikit_learn():
    from sklearn.datasets import load_digits, load_iris

    raw = load_iris()
    iris = load("iris", features="all")
    np.testing.assert_array_equal(iris.X, raw.data)  # setosa against the rest: every flower
    np.testing.assert_array_equal(iris.y, np.where(raw.target == 0, 1.0, -1.0))
    vv = load("iris", classes="versicolor_vs_virginica", features="all")
    assert vv.X.shape == (100, 4) and (vv.y == 1).sum() == 50
    digits = load("digits", pair=(3, 8))
    raw = load_digits()
    keep = (raw.target == 3) | (raw.target == 8)
    assert digits.X.shape == (int(keep.sum()), 64) and digits.X.max() <= 1.0
    np.testing.assert_array_equal(digits.X * 16, raw.data[keep])
    assert (digits.y == 1).sum() == int((raw.target == 3).sum())
    assert load("digits").params == {"pair": (0, 1)}


def test_unknown_name_and_parameters():
    with pytest.raises(ValueError, match="unknown dataset 'moons'; expected one of"):
        load("moons")
    with pytest.raises(TypeError, match="takes parameters"):
        load("koski", n=3)
    with pytest.raises(ValueError, match="n must be >= 1; got 0"):
        load("separable", n=0)


def test_from_arrays_converts_01_only_when_asked():
    with pytest.raises(ValueError, match=r"y must contain only -1 and \+1; got \{0, 1\}"):
        from_arrays([[0, 0], [1, 1]], [0, 1])
    ds = from_arrays([[0, 0], [1, 1]], [0, 1], labels="01")
    np.testing.assert_array_equal(ds.y, [-1, 1])
    assert "converted" in ds.notes[0]


def test_one_point_and_opposite_duplicates_are_valid():
    assert from_arrays([[1.0, 2.0]], [-1]).n == 1
    ds = from_arrays([[1.0, 2.0], [1.0, 2.0]], [1, -1])
    assert ds.n == 2


@pytest.mark.parametrize("X,y,exc,match", [
    ([[1, np.nan], [0, 0]], [1, -1], ValueError, "NaN"),
    ([[1, np.inf], [0, 0]], [1, -1], ValueError, "infinite"),
    ([["a", "b"], [0, 0]], [1, -1], TypeError, "only numbers"),
    ([[1, 2], [0, 0]], [1, 3], ValueError, r"got \{1, 3\}"),
    ([[1, 2], [0, 0]], [1, 1], ValueError, "both classes"),
    (np.empty((0, 2)), np.empty(0), ValueError, "empty"),
    ([[1, 2], [0, 0]], [1], ValueError, "same number of points"),
    ([[1, 2], [0, 0]], ["yes", "no"], TypeError, "numeric labels"),
])
def test_from_arrays_rejects(X, y, exc, match):
    with pytest.raises(exc, match=match):
        from_arrays(X, y)


def test_from_csv_text_header_and_01(tmp_path):
    ds = from_csv("x1,x2,label\n0.5,1,1\n-1,2,0\n3,0,1\n")
    assert ds.X.shape == (3, 2)
    np.testing.assert_array_equal(ds.y, [1, -1, 1])
    assert ds.notes and "0 -> -1" in ds.notes[0]
    path = tmp_path / "d.csv"
    path.write_text("1;2;-1\n3;4;1\n")
    ds2 = from_csv(path)
    np.testing.assert_array_equal(ds2.X, [[1, 2], [3, 4]])
    assert ds2.notes == ()


@pytest.mark.parametrize("text,exc,match", [
    ("", ValueError, "empty"),
    ("a,b,c\n", ValueError, "header but no data"),
    ("1,2,1\n3,1\n", ValueError, "same number of columns"),
    ("1,x,1\n2,3,-1\n", TypeError, "^row 1, column 2 holds 'x', which is not a number$"),
    ("1,2,cat\n2,3,dog\n", TypeError, "label column"),
    ("1,2,1\n2,nan,-1\n", ValueError, r"^row 2, column 2 holds 'nan', which is not a number \(NaN\)$"),
    ("1,2,5\n2,3,-1\n", ValueError, r"column 3\) must hold only -1 and \+1 \(or 0 and 1\); row 1 holds '5'"),
    ("1,2,1\n2,3,1\n", ValueError, "only one class; a line separates two, so both are needed"),
])
def test_from_csv_rejects(text, exc, match):
    with pytest.raises(exc, match=match):
        from_csv(text)


def test_module_exposes_reference_points():
    assert datasets.KOSKI_POINTS.shape == (6, 3)
