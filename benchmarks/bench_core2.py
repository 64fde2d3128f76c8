"""Benchmarks for separability, the SVM and counting (issue "Core, second half").

Figures (medians over repeats):
* ``count_threshold_functions(4)`` and, measured in the same run, the extrapolated time of the
  naive way (one LP for each of the 65,536 functions);
* an exact Cover curve, ``P(1000, N)`` for ``N = 0..10 000`` (``cover_curve``), and the same
  values from the vectorised ``cover_fraction``;
* hard- and soft-margin SVM solves at ``N = 500``, ``d = 2``;
* Monte Carlo separability checks per second at ``M = 10``, ``N = 22``.
"""

from __future__ import annotations

import itertools
import statistics
import time

import numpy as np

from explorer.cover import counting
from explorer.shared import svm
from explorer.shared.separability import is_separable


def _median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _svm_data(n=500, d=2, seed=0, offset=0.2):
    rng = np.random.default_rng(seed)
    u = np.array([0.6, 0.8])
    X = rng.normal(size=(n, d))
    y = np.where(X @ u + offset >= 0, 1.0, -1.0)
    Xsep = X + (0.05 * y)[:, None] * u
    ynoisy = np.where(X @ u + 0.2 + 0.5 * rng.normal(size=n) >= 0, 1.0, -1.0)
    return Xsep, y, X, ynoisy


def run() -> list[dict]:
    figures = []

    t_bool = _median_time(lambda: counting.count_threshold_functions(4), 3)
    V = np.array(list(itertools.product((0.0, 1.0), repeat=4)))
    labs = np.random.default_rng(0).choice([-1.0, 1.0], size=(100, 16))
    t_lp = _median_time(lambda: [is_separable(V, lab) for lab in labs], 3) / len(labs)
    n_lp = counting.dichotomies(V).n_lp
    figures += [
        {"key": "boolean_m4_s", "name": "count_threshold_functions(4)", "value": t_bool, "unit": "s",
         "target": "<= 5",
         "note": f"1882 found with {n_lp} LPs (growing separable labelings vertex by vertex)"},
        {"name": "one LP per Boolean function, M=4 (extrapolated)", "value": t_lp * 2**16,
         "unit": "s", "note": f"{t_lp * 1e3:.2f} ms per is_separable() x 65536, same run"},
    ]

    t_curve = _median_time(lambda: counting.cover_curve(1000, 10_000), 7)
    Ns = np.arange(10_001)
    t_vec = _median_time(lambda: counting.cover_fraction(Ns, 1000), 7)
    figures += [
        {"name": "exact Cover curve M=1000, N=0..10000 (cover_curve)", "value": t_curve * 1e3,
         "unit": "ms", "target": "<= 50 ms", "note": "big-integer recursion, correctly rounded"},
        {"name": "vectorised cover_fraction, same curve", "value": t_vec * 1e3, "unit": "ms",
         "note": "scipy.stats.binom.cdf, relative error < 1e-10"},
    ]

    Xsep, y, X, ynoisy = _svm_data()
    svm.fit(Xsep, y)  # warm up imports
    t_hard = _median_time(lambda: svm.fit(Xsep, y), 21)
    t_soft = _median_time(lambda: svm.fit(X, ynoisy, C=1.0), 21)
    X0, y0 = _svm_data(offset=0.0)[:2]
    t_hard0 = _median_time(lambda: svm.fit(X0, y0, fit_intercept=False), 21)
    figures += [
        {"name": "hard-margin SVM, N=500, d=2", "value": t_hard * 1e3, "unit": "ms",
         "target": "<= 20 ms", "note": "separability LP + libsvm + KKT polish"},
        {"name": "soft-margin SVM (C=1), N=500, d=2", "value": t_soft * 1e3, "unit": "ms",
         "target": "<= 20 ms", "note": "overlapping classes"},
        {"name": "hard-margin SVM without intercept, N=500, d=2", "value": t_hard0 * 1e3,
         "unit": "ms", "note": "libsvm on the data and their mirror images"},
    ]

    trials = 300
    t_mc = _median_time(lambda: counting.monte_carlo_fraction(22, 10, trials=trials, seed=1), 3)
    figures.append({"name": "Monte Carlo separability checks, M=10, N=22",
                    "value": trials / t_mc, "unit": "checks/s",
                    "note": f"{trials} trials per repeat, one HiGHS LP each"})
    return figures
