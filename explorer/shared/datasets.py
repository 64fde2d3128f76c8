"""Datasets: a registry of presets, the sources' examples, and validated user data.

Every dataset is a frozen :class:`Dataset` with ``X`` of shape ``(n, d)`` (float) and ``y`` of
shape ``(n,)`` with values in {-1, +1} (see ``docs/mathematics.md#conventions``).
A dataset is chosen by name, so the choice fits in a URL: ``load("separable", n=40, seed=3)``.
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .csv_table import read_csv_table
from .validation import check_bool, check_int, check_positive, check_size, check_X_y, make_rng

__all__ = ["Dataset", "DATASETS", "load", "from_arrays", "from_csv", "KOSKI_POINTS", "MAX_GAP"]

#: Largest ``margin`` of "separable" and ``separation`` of "overlapping" (points are drawn in
#: ``[-1, 1]^dim``; a gap beyond a million only pushes the data towards overflow).
MAX_GAP = 1e6


def _gap(value, name):
    v = check_positive(value, name=name, allow_zero=True)
    if v > MAX_GAP:
        raise ValueError(f"{name} must be <= {MAX_GAP:g}; got {value!r}")
    return v


@dataclass(frozen=True)
class Dataset:
    """A labelled point set.

    Attributes
    ----------
    X : ndarray of shape (n, d), float64, read-only
    y : ndarray of shape (n,), values in {-1.0, +1.0}, read-only
    name : str
        Registry name (or ``"custom"``/``"csv"`` for user data).
    description : str
        One sentence for a person.
    source : str
        Where the data come from (book and example, as in ``docs/mathematics.md#data-sets``).
    params : dict
        The parameters that rebuild it with :func:`load` (seed included).
    notes : tuple of str
        Things the user should be told, e.g. that 0/1 labels were converted.
    """

    X: np.ndarray
    y: np.ndarray
    name: str = "custom"
    description: str = ""
    source: str = ""
    params: dict = field(default_factory=dict)
    notes: tuple = ()

    def __post_init__(self):
        X, y = check_X_y(self.X, self.y, require_both=False)
        X.setflags(write=False)
        y.setflags(write=False)
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "y", y)

    @property
    def n(self) -> int:
        """Number of points."""
        return self.X.shape[0]

    @property
    def d(self) -> int:
        """Number of features."""
        return self.X.shape[1]


# --------------------------------------------------------------------------- generators


def _separable(*, n: int = 40, dim: int = 2, margin: float = 0.3, seed=0) -> Dataset:
    """Two classes split by a random hyperplane with a guaranteed geometric gap.

    Points are drawn uniformly in ``[-1, 1]^dim``, labelled by a random unit normal ``u``
    and offset ``c`` (``|c| <= 0.3``), then each is pushed ``margin`` further from the
    hyperplane along ``y u``. Hence ``(u, c)`` separates them with geometric margin at least
    ``margin``, so ``gamma(S) >= margin``.
    """
    n = check_int(n, name="n", minimum=1)
    dim = check_int(dim, name="dim", minimum=1)
    check_size(n, dim, what="a generated data set")
    margin = _gap(margin, "margin")
    rng = make_rng(seed)
    u = rng.standard_normal(dim)
    u /= np.linalg.norm(u)
    c = rng.uniform(-0.3, 0.3)
    X = rng.uniform(-1.0, 1.0, size=(n, dim))
    f = X @ u + c
    y = np.where(f >= 0, 1.0, -1.0)
    if n >= 2:  # make sure both classes appear
        y[0], y[1] = 1.0, -1.0
        X[0] += (abs(f[0]) + 0.05 if f[0] < 0 else 0.0) * u
        X[1] -= (abs(f[1]) + 0.05 if f[1] >= 0 else 0.0) * u
    X = X + margin * y[:, None] * u[None, :]
    return Dataset(
        X, y, "separable",
        f"{n} points in {dim}-D split by a random hyperplane with a gap of at least {margin:g}.",
        "generated", {"n": n, "dim": dim, "margin": margin, "seed": seed},
    )


def _overlapping(*, n: int = 60, dim: int = 2, separation: float = 1.0, seed=0) -> Dataset:
    """Two Gaussian blobs (unit variance) whose means are ``separation`` apart: not separable."""
    n = check_int(n, name="n", minimum=2)
    dim = check_int(dim, name="dim", minimum=1)
    check_size(n, dim, what="a generated data set")
    separation = _gap(separation, "separation")
    rng = make_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    shift = np.zeros(dim)
    shift[0] = separation / 2
    X = rng.standard_normal((n, dim)) * 0.6 + y[:, None] * shift[None, :]
    return Dataset(
        X, y, "overlapping",
        f"Two overlapping Gaussian blobs ({n} points, means {separation:g} apart).",
        "generated", {"n": n, "dim": dim, "separation": separation, "seed": seed},
    )


_BOOLEAN = {
    "xor": ((0, 1, 1, 0), "XOR: true when exactly one input is true; not linearly separable.",
            "Sayed P60.2; Koski (2017)"),
    "and": ((0, 0, 0, 1), "AND: true when both inputs are true.", "Sayed P60.2"),
    "or": ((0, 1, 1, 1), "OR: true when at least one input is true.", "Sayed appendix 60.B"),
    "nand": ((1, 1, 1, 0), "NAND: false only when both inputs are true.", "Sayed P60.3"),
}


def _boolean(name: str) -> Callable[..., Dataset]:
    truth, description, source = _BOOLEAN[name]

    def make(*, encoding: str = "pm1") -> Dataset:
        if encoding not in ("pm1", "01"):
            raise ValueError(f"encoding must be 'pm1' or '01'; got {encoding!r}")
        bits = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
        X = 2 * bits - 1 if encoding == "pm1" else bits
        y = np.array([1.0 if t else -1.0 for t in truth])
        return Dataset(X, y, name, description + f" Inputs coded {encoding}.", source,
                       {"encoding": encoding})

    make.__doc__ = f"The Boolean function {name.upper()} on the four corners of the square."
    return make


KOSKI_POINTS = np.array(
    [[1.5, -0.5, 1], [1, 1, 1], [-2, 1, 1], [-1, -1.5, -1], [2, -2, -1], [-2, -2, -1]], dtype=float
)


def _koski() -> Dataset:
    """The six points of Koski's worked perceptron example (``docs/mathematics.md#koski-worked-example``)."""
    return Dataset(
        KOSKI_POINTS[:, :2], KOSKI_POINTS[:, 2], "koski",
        "Koski's six-point worked example: start w = (1, 0.5), eta = 0.2, visit points 5, 3, 1.",
        "Koski (2017)", {},
    )


_IRIS_CLASSES = {
    "setosa_vs_rest": ((0,), (1, 2), "Sayed Example 60.1"),
    "versicolor_vs_virginica": ((1,), (2,), "Sayed Example 60.2"),
    "setosa_vs_versicolor": ((0,), (1,), "scikit-learn iris"),
}


def _pca(X: np.ndarray, k: int) -> np.ndarray:
    Xc = X - X.mean(axis=0)
    _, _, vt = np.linalg.svd(Xc, full_matrices=False)
    Z = Xc @ vt[:k].T
    # fix the sign of each component so results do not depend on the LAPACK build
    signs = np.sign(Z[np.argmax(np.abs(Z), axis=0), np.arange(k)])
    return Z * np.where(signs == 0, 1.0, signs)


def _iris(*, classes: str = "setosa_vs_rest", features="pca") -> Dataset:
    """Iris: its four measurements (``features="all"``), two dimensions (``"pca"``, the
    first two principal components of all 150 flowers), or two or three chosen feature
    indices (e.g. ``(2, 3, 0)``: petal length, petal width, sepal length).

    ``classes`` picks the labelling: ``"setosa_vs_rest"`` (+1 setosa; separable, as in Sayed
    Example 60.1), ``"versicolor_vs_virginica"`` (not separable; Example 60.2) or
    ``"setosa_vs_versicolor"``.
    """
    from sklearn.datasets import load_iris

    if classes not in _IRIS_CLASSES:
        raise ValueError(f"classes must be one of {sorted(_IRIS_CLASSES)}; got {classes!r}")
    pos, neg, source = _IRIS_CLASSES[classes]
    data = load_iris()
    keep = np.isin(data.target, pos + neg)
    X_all = data.data
    expected = "'pca', 'all' or two or three feature indices"
    if isinstance(features, str):
        if features not in ("pca", "all"):
            raise ValueError(f"features must be {expected}; got {features!r}")
        X = _pca(X_all, 2)[keep] if features == "pca" else X_all[keep]
        fdesc = ("first two principal components of all 150 flowers" if features == "pca"
                 else "all four measurements (cm)")
    else:
        if isinstance(features, (bytes, numbers.Number)) or not hasattr(features, "__iter__"):
            raise TypeError(f"features must be {expected}; got {features!r}")
        idx = [check_int(i, name="feature index", minimum=0, maximum=3) for i in features]
        if len(idx) not in (2, 3) or len(set(idx)) != len(idx):
            raise ValueError(f"features must name two or three different columns; got "
                             f"{features!r}")
        X = X_all[keep][:, idx]
        fdesc = " and ".join(data.feature_names[i] for i in idx)
    y = np.where(np.isin(data.target[keep], pos), 1.0, -1.0)
    return Dataset(
        X, y, "iris", f"Iris, {classes.replace('_', ' ')}, {fdesc}.",
        f"{source}; data from scikit-learn", {"classes": classes, "features": features},
    )


def _digits(*, pair=(0, 1)) -> Dataset:
    """Two of scikit-learn's handwritten digits (8 x 8 images: 64 features, the grey levels
    scaled to [0, 1]); +1 for the first digit of ``pair``, -1 for the second."""
    from sklearn.datasets import load_digits

    if isinstance(pair, (str, bytes)) or not hasattr(pair, "__iter__"):
        raise TypeError(f"pair must be two different digits 0-9, e.g. (3, 8); got {pair!r}")
    digits = [check_int(d, name="digit", minimum=0, maximum=9) for d in pair]
    if len(digits) != 2 or digits[0] == digits[1]:
        raise ValueError(f"pair must be two different digits 0-9, e.g. (3, 8); got {pair!r}")
    data = load_digits()
    keep = np.isin(data.target, digits)
    X = data.data[keep] / 16.0
    y = np.where(data.target[keep] == digits[0], 1.0, -1.0)
    a, b = digits
    return Dataset(
        X, y, "digits", f"Handwritten {a}s (+1) against {b}s (-1): {len(y)} images of 8 x 8 "
        "grey levels, 64 features in [0, 1].",
        "data from scikit-learn (UCI optical recognition of handwritten digits)",
        {"pair": (a, b)},
    )


def _breast_cancer(*, k=None, standardize: bool = True) -> Dataset:
    """Breast cancer Wisconsin (569 points, 30 features); +1 malignant, -1 benign.

    ``k=None`` keeps all 30 standardised features; an integer ``k`` projects onto the first
    ``k`` principal components (Sayed Example 61.2 uses ``k = 2``).
    """
    from sklearn.datasets import load_breast_cancer

    standardize = check_bool(standardize, name="standardize")
    data = load_breast_cancer()
    X = data.data
    if standardize:
        X = (X - X.mean(axis=0)) / X.std(axis=0)
    if k is not None:
        k = check_int(k, name="k", minimum=1, maximum=30)
        X = _pca(X, k)
    # scikit-learn codes malignant as 0; Sayed uses +1 for malignant.
    y = np.where(data.target == 0, 1.0, -1.0)
    dims = "30 standardised features" if k is None else f"first {k} principal components"
    return Dataset(
        X, y, "breast_cancer", f"Breast cancer Wisconsin, 569 tumours, {dims}; +1 malignant.",
        "Sayed Example 61.2; data from scikit-learn", {"k": k, "standardize": standardize},
    )


DATASETS: dict[str, Callable[..., Dataset]] = {
    "separable": _separable,
    "overlapping": _overlapping,
    "xor": _boolean("xor"),
    "and": _boolean("and"),
    "or": _boolean("or"),
    "nand": _boolean("nand"),
    "koski": _koski,
    "iris": _iris,
    "breast_cancer": _breast_cancer,
    "digits": _digits,
}


def load(name: str, **params) -> Dataset:
    """Build the dataset registered under ``name`` with keyword ``params``.

    Parameters
    ----------
    name : str
        One of ``DATASETS``: separable, overlapping, xor, and, or, nand, koski, iris,
        breast_cancer, digits.
    **params
        The generator's keyword parameters (see each generator's docstring), e.g.
        ``load("separable", n=50, dim=2, margin=0.2, seed=1)``.

    Returns
    -------
    Dataset
    """
    if not isinstance(name, str) or name not in DATASETS:
        raise ValueError(f"unknown dataset {name!r}; expected one of {sorted(DATASETS)}")
    try:
        return DATASETS[name](**params)
    except TypeError as exc:
        if "unexpected keyword" in str(exc):
            import inspect

            allowed = list(inspect.signature(DATASETS[name]).parameters)
            raise TypeError(
                f"dataset {name!r} takes parameters {allowed}; got {sorted(params)}"
            ) from None
        raise


def from_arrays(X, y, *, labels: str = "pm1", name: str = "custom", description: str = "",
                source: str = "user data") -> Dataset:
    """Validate user arrays and wrap them in a :class:`Dataset`.

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : array-like of shape (n,)
        Values in {-1, +1}; or in {0, 1} with ``labels="01"``, which converts 0 to -1 and
        records that in ``Dataset.notes``.
    labels : {"pm1", "01"}, default "pm1"

    Raises
    ------
    ValueError, TypeError
        For NaN/inf, non-numeric values, other labels, one class only, empty data or a
        shape mismatch, with a message naming what was expected and what was got.
    """
    Xa, ya = check_X_y(X, y, labels=labels)
    notes = ("labels 0/1 were converted: 0 -> -1, 1 -> +1",) if labels == "01" else ()
    return Dataset(Xa, ya, name, description or f"{Xa.shape[0]} points in {Xa.shape[1]}-D.",
                   source, {}, notes)


def from_csv(path_or_text, *, labels: str = "auto", label_column: int = -1) -> Dataset:
    """Read a dataset from a CSV file path or CSV text.

    One row per point; numeric feature columns and one label column (the last by default).
    A first row that is not numeric is taken as a header. Labels must be -1/+1; 0/1 labels
    are accepted with ``labels="01"``, or with ``labels="auto"`` (the default) which converts
    them and says so in ``Dataset.notes``. ``label_column`` is an integer in
    ``[-width, width - 1]`` (negative counts from the end), anything else is refused.
    The file is read by :func:`explorer.shared.csv_table.read_csv_table`: messages name rows as a
    spreadsheet numbers them (a header is row 1) and columns from 1.
    """
    if labels not in ("auto", "pm1", "01"):
        raise ValueError(f"labels must be 'auto', 'pm1' or '01'; got {labels!r}")
    label_column = check_int(label_column, name="label_column")
    if isinstance(path_or_text, bytes):
        text = path_or_text.decode("utf-8-sig", errors="replace")
    elif isinstance(path_or_text, os.PathLike) or (
        isinstance(path_or_text, str) and "\n" not in path_or_text
        and os.path.isfile(path_or_text)
    ):
        with open(path_or_text, encoding="utf-8-sig") as fh:
            text = fh.read()
    elif isinstance(path_or_text, str):
        text = path_or_text
        if "\n" not in text and "," not in text and text.strip() and not _is_number(text.strip()):
            raise ValueError(f"no CSV file at {text!r}, and it is not CSV text either")
    else:
        raise TypeError(f"from_csv expects a path or CSV text; got {type(path_or_text).__name__}")
    table = read_csv_table(text)
    width = table.width()
    if not -width <= label_column < width:
        raise ValueError(f"label_column must be in [{-width}, {width - 1}] for {width} columns; "
                         f"got {label_column}")
    lc = label_column % width
    Xf = table.numbers([c for c in range(width) if c != lc])
    yf, kind = table.labels(lc, labels=labels, both=len(table.rows) > 1)
    return from_arrays(Xf, yf, labels=kind, name="csv",
                       description=f"{Xf.shape[0]} points in {Xf.shape[1]}-D read from CSV.")


def _is_number(cell) -> bool:
    try:
        float(cell)
    except (TypeError, ValueError):
        return False
    return True

