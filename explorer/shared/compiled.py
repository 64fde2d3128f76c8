"""Compiled inner loop of the perceptron's fast path (numba), for large runs only.

:func:`scan_updates` visits points in order and applies the constant-vector update
``w~ += U_i`` whenever ``<Z_i, w~> < t`` (``<= t`` unless ``strict``): exactly the loop of
:meth:`explorer.perceptron.engine._Engine.scan_fast`, one point at a time in compiled code instead of
blocks of numpy products. Numba is imported on first use (never when the package or the
dashboard opens), and the compiled function is cached on disk, so only the first large run on a
machine pays the compile (about 1 s). Without numba, :data:`AVAILABLE` is False and the numpy
block scan is used.
"""

from __future__ import annotations

import numpy as np

#: Runs with fewer than this many point visits × coordinates stay on the numpy block scan:
#: small runs (every dashboard view) never import numba.
MIN_WORK = 2_000_000

_kernel = None


def _build():
    import numba

    @numba.njit(cache=True, nogil=True)
    def scan(Z, U, wt, t, strict, rows, found):  # pragma: no cover - compiled
        n, m = Z.shape
        cnt = 0
        for p in range(n):
            s = 0.0
            for j in range(m):
                s += Z[p, j] * wt[j]
            if s < t or (not strict and s == t):
                for j in range(m):
                    wt[j] += U[p, j]
                    rows[cnt, j] = wt[j]
                found[cnt] = p
                cnt += 1
        return cnt

    return scan


def available() -> bool:
    """Whether numba can be imported here (checked once, lazily)."""
    global _kernel
    if _kernel is None:
        try:
            _kernel = _build()
        except ImportError:
            _kernel = False
    return _kernel is not False


def scan_updates(Z, U, wt, t: float, strict: bool) -> tuple[np.ndarray, np.ndarray]:
    """Visit the rows of ``Z`` in order from the augmented weights ``wt`` (updated in place).

    Returns ``(positions, rows)``: the positions (0-based) of the points that triggered an
    update, and the weights after each of those updates, shape ``(k, d + 1)``.
    """
    if not available():
        raise RuntimeError("numba is not installed: the compiled scan is not available")
    n, m = Z.shape
    rows = np.empty((n, m))  # pages are touched only for the rows written
    found = np.empty(n, dtype=np.int64)
    cnt = _kernel(np.ascontiguousarray(Z), np.ascontiguousarray(U), wt, float(t), bool(strict),
                  rows, found)
    return found[:cnt].copy(), rows[:cnt].copy()
