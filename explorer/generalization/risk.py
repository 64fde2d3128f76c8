"""Training and test error of the perceptron and the pocket rule on real data.

:func:`risk_table` gives the empirical risk and its held-out estimate of the classic
perceptron's last iterate and of the pocket iterate (Gallant; Sayed (60.45)) on iris and breast
cancer with a seeded stratified split; :func:`risk_row` makes one row from a split already made.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..perceptron.training import train, training_error
from ..shared import datasets
from ..shared.validation import check_int, check_positive

__all__ = ["RiskRow", "RiskTable", "risk_table", "risk_row", "RISK_DATASETS"]

RISK_DATASETS = {
    "iris": ("Iris, versicolor vs virginica (PCA 2-D)", "iris",
             {"classes": "versicolor_vs_virginica"}, "Sayed Example 60.2"),
    "iris_setosa": ("Iris, setosa vs rest (PCA 2-D)", "iris", {"classes": "setosa_vs_rest"},
                    "Sayed Example 60.1"),
    "breast_cancer": ("Breast cancer, 30 standardised features", "breast_cancer", {},
                      "Sayed Example 61.2"),
}


@dataclass(frozen=True)
class RiskRow:
    """One data set: training and test error of the last iterate and of the pocket iterate."""

    key: str
    title: str
    source: str
    n_train: int
    n_test: int
    dim: int
    train_last: float
    test_last: float
    train_pocket: float
    test_pocket: float
    updates: int
    converged: bool


@dataclass(frozen=True)
class RiskTable:
    """Rows of :func:`risk_table` with the settings that made them."""

    rows: tuple
    epochs: int
    test_fraction: float
    seed: int


def risk_table(*, keys=("iris", "breast_cancer"), epochs: int = 30, test_fraction: float = 0.3,
               seed: int = 0) -> RiskTable:
    """Training and test error of the perceptron and the pocket rule on real data.

    Each data set is split (stratified, ``test_fraction`` held out, ``random_state=seed``); the
    pocket rule (Gallant; Sayed (60.45)) runs ``epochs`` reshuffled passes (seeded) from
    ``w = 0, b = 0`` with an offset. Its updates are the classic rule's, so the same run gives
    the classic perceptron's last iterate and the pocket iterate (lowest training error seen).

    Parameters
    ----------
    keys : sequence of str, default ("iris", "breast_cancer")
        Keys of :data:`RISK_DATASETS` (``"iris_setosa"`` is the separable case).
    epochs : int in [1, 200], default 30
    test_fraction : float in [0.1, 0.5], default 0.3
    seed : int >= 0

    Returns
    -------
    RiskTable
    """
    from sklearn.model_selection import train_test_split

    keys = tuple(keys)
    bad = [k for k in keys if k not in RISK_DATASETS]
    if bad or not keys:
        raise ValueError(f"keys must be some of {list(RISK_DATASETS)}; got {list(keys)}")
    epochs = check_int(epochs, name="epochs", minimum=1, maximum=200)
    test_fraction = check_positive(test_fraction, name="test_fraction")
    if not 0.1 <= test_fraction <= 0.5:
        raise ValueError(f"test_fraction must be in [0.1, 0.5]; got {test_fraction}")
    seed = check_int(seed, name="seed", minimum=0)
    rows = []
    for key in keys:
        title, name, params, source = RISK_DATASETS[key]
        ds = datasets.load(name, **params)
        X, Xt, y, yt = train_test_split(np.asarray(ds.X), np.asarray(ds.y), test_size=test_fraction,
                                        random_state=seed, stratify=ds.y)
        rows.append(risk_row(X, y, Xt, yt, key=key, title=title, source=source, epochs=epochs,
                             seed=seed))
    return RiskTable(rows=tuple(rows), epochs=epochs, test_fraction=test_fraction, seed=seed)


def risk_row(X, y, Xt, yt, *, key: str, title: str, source: str, epochs: int,
             seed: int) -> RiskRow:
    """One row of :func:`risk_table` from a split already made: the pocket rule's ``epochs``
    reshuffled passes (seeded by ``seed``) on the training part ``X (k, d), y (k,)`` from
    ``w = 0, b = 0`` with an offset, its last and pocket iterates' errors on both parts
    (``Xt (m, d), yt (m,)`` held out)."""
    run = train(X, y, rule="pocket", order="shuffle", max_epochs=epochs, seed=seed)
    w, b = run.final_w, run.final_b
    return RiskRow(
        key=key, title=title, source=source, n_train=len(X), n_test=len(Xt), dim=X.shape[1],
        train_last=training_error(X, y, w, b), test_last=training_error(Xt, yt, w, b),
        train_pocket=training_error(X, y, run.pocket_w, run.pocket_b),
        test_pocket=training_error(Xt, yt, run.pocket_w, run.pocket_b),
        updates=run.n_updates, converged=run.converged)
