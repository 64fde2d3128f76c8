"""Data of M features for the tests of data in their own dimension (issue 34): a random set
labelled by a fixed hyperplane, and the CSV text a person would paste."""

import numpy as np


def md_data(M: int, n: int = 14, seed: int = 2):
    """``n`` Gaussian points of ``M`` features, labelled ±1 by the side of a fixed hyperplane."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, M))
    y = np.where(X @ np.linspace(1.0, -0.5, M) > 0.1, 1, -1)
    return X, y


def csv_text(X, y) -> str:
    """``X`` and ``y`` as a CSV with a header row (f1, ..., fM, label), numbers in full."""
    head = ",".join(f"f{j + 1}" for j in range(X.shape[1])) + ",label\n"
    return head + "\n".join(",".join(repr(float(v)) for v in row) + f",{int(c)}"
                            for row, c in zip(X, y, strict=True))
