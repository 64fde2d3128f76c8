"""Plain sentences about what is special in a data set: points that coincide with both labels,
points all on one line. Shared by the data panel and the tabs' notes (the Perceptron and Margins
tabs say them beside their narration)."""

from __future__ import annotations

import numpy as np


def numbered(idx) -> str:
    """``"Points 1, 2 and 4"`` (1-based, as the narration numbers them), shortened after 8."""
    nums = [str(int(i) + 1) for i in idx]
    if len(nums) == 1:
        return f"Point {nums[0]}"
    if len(nums) > 8:
        return "Points " + ", ".join(nums[:8]) + ", …"
    return "Points " + ", ".join(nums[:-1]) + " and " + nums[-1]


def same_point(X, y) -> np.ndarray:
    """Indices of the points at the first place that carries both labels (empty if none).

    Parameters
    ----------
    X : array_like (n, d)
    y : array_like (n,), values ±1
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    if not len(y):
        return np.zeros(0, dtype=int)
    _, first, group = np.unique(X, axis=0, return_index=True, return_inverse=True)
    group = group.reshape(-1)
    k = len(first)
    mixed = (np.bincount(group, y > 0, k) > 0) & (np.bincount(group, y < 0, k) > 0)
    if not mixed.any():
        return np.zeros(0, dtype=int)
    g = np.flatnonzero(mixed)[np.argmin(first[mixed])]  # the place met first in the data
    return np.flatnonzero(group == g)


def on_one_line(X, *, rtol: float = 1e-9) -> bool:
    """Whether at least 3 points, not all the same, lie on one straight line (2-D).

    Scale-free: the second singular value of the centred points is compared with the first.
    """
    X = np.asarray(X, dtype=float)
    if len(X) < 3 or X.shape[1] != 2:
        return False
    s = np.linalg.svd(X - X.mean(axis=0), compute_uv=False)
    return bool(s[0] > 0 and s[1] <= rtol * s[0])


def same_point_text(X, y) -> str:
    """One sentence when some point carries both labels, else ""."""
    idx = same_point(X, y)
    if not len(idx):
        return ""
    where = "(" + ", ".join(f"{v + 0.0:.3g}" for v in np.asarray(X, dtype=float)[idx[0]]) + ")"
    return (f"{numbered(idx)} are the same point {where.replace('-', '−')} with both labels, "
            "so no line can separate the classes.")


def one_line_text(X, separable: bool) -> str:
    """One sentence when all points lie on one line (``separable``: by a line, with offset)."""
    if not on_one_line(X):
        return ""
    n = len(X)
    if separable:
        return (f"All {n} points lie on one line: a separating line only has to cross it "
                "between the two classes.")
    return (f"All {n} points lie on one line and the labels change more than once along it, "
            "so no line separates them.")
