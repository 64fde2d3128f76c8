"""Perceptron core: classic rule with full trajectory vs scikit-learn's Perceptron.

Data: 100 000 x 20 standard Gaussian points labelled by a random hyperplane through the origin,
each pushed ``gap`` further from it along its label's side (so the set is separable with margin
>= gap). Both learners run 5 epochs in cyclic order from w = 0 (scikit-learn:
``Perceptron(shuffle=False, eta0=1.0, tol=None, max_iter=5)``, which is the same algorithm).
"""

import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron

from explorer.perceptron import train


def gaussian_separable(n=100_000, d=20, gap=0.5, seed=0):
    rng = np.random.default_rng(seed)
    u = rng.standard_normal(d)
    u /= np.linalg.norm(u)
    X = rng.standard_normal((n, d))
    y = np.where(X @ u >= 0, 1.0, -1.0)
    return X + gap * y[:, None] * u[None, :], y


def _median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)), out


def run(repeats=7):
    """Three datasets: the margin decides how many updates there are, and the updates are
    what costs (one Python-level step each); scikit-learn's cost is flat."""
    warnings.simplefilter("ignore", ConvergenceWarning)
    figures = []
    X, y = gaussian_separable(n=20_000, gap=0.0)
    train(X, y, max_epochs=5)  # the compiled loop: loaded from numba's disk cache, or compiled
    for gap in (0.05, 0.0, 0.5):
        X, y = gaussian_separable(gap=gap)
        ours_t, tr = _median_time(lambda X=X, y=y: train(X, y, max_epochs=5), repeats)
        sk_t, sk = _median_time(
            lambda X=X, y=y: Perceptron(shuffle=False, eta0=1.0, tol=None, max_iter=5).fit(X, y),
            repeats)
        same = bool(np.allclose(tr.final_w, sk.coef_[0]) and np.isclose(tr.final_b, sk.intercept_[0]))
        note = (f"gap {gap}: {tr.n_updates} updates in {tr.n_steps} steps"
                f"{' (converged, stopped early)' if tr.converged else ''}; "
                f"ours {ours_t * 1e3:.1f} ms, scikit-learn {sk_t * 1e3:.1f} ms; same weights: {same}")
        figures.append({
            "name": f"classic 100000x20 gap {gap}, 5 epochs, ratio ours/scikit-learn",
            "value": ours_t / sk_t, "unit": "x", "target": "<= 1.5",
            "note": note})
    worst = max(figures, key=lambda f: f["value"])
    figures.append({"key": "train_ratio_vs_sklearn", "name": "training time ours / scikit-learn, "
                    "worst of the three margins", "value": worst["value"], "unit": "x",
                    "target": "<= 1.5", "reference": "scikit-learn Perceptron, same data, same run",
                    "note": worst["name"]})
    return figures
