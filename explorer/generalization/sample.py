"""The margin distribution of the generalization experiment: unit vectors separated by ``e_1``.

:func:`sample_margin` draws from a seeded distribution with a margin. ``x`` lies on the unit
sphere of ``R^d`` (so ``D = max ||x|| = 1``), its first coordinate is ``y t`` with ``t`` uniform
on ``[gamma, 1]`` and ``y = ±1`` equally likely, the other coordinates uniform on the sphere of
radius ``sqrt(1 - t^2)``. Hence ``e_1`` separates every sample with margin at least
``gamma``: ``gamma(S) >= gamma`` for every sample ``S``.

The mathematics: ``docs/mathematics.md#generalization``; the simulation that draws from it:
:mod:`explorer.generalization.curve`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..shared.validation import check_int, check_positive, make_rng

__all__ = ["MarginSample", "sample_margin", "GAMMA_RANGE", "MAX_N", "MAX_DIM"]

MAX_N = 20_000
MAX_DIM = 50
GAMMA_RANGE = (0.05, 0.95)


@dataclass(frozen=True)
class MarginSample:
    """``n`` points of :func:`sample_margin`: ``X`` (n, d) unit vectors, ``y`` (n,) in ±1,
    separated by ``u = e_1`` with margin at least ``gamma``."""

    X: np.ndarray
    y: np.ndarray
    gamma: float


def _check_gamma(gamma) -> float:
    g = check_positive(gamma, name="gamma")
    lo, hi = GAMMA_RANGE
    if not lo <= g <= hi:
        raise ValueError(f"gamma must be in [{lo}, {hi}] (the bound grows like 1/gamma^2); got {g}")
    return g


def _draw(rng: np.random.Generator, n: int, dim: int, gamma: float):
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    t = rng.uniform(gamma, 1.0, size=n)
    rest = rng.standard_normal((n, dim - 1))
    norms = np.linalg.norm(rest, axis=1)
    norms[norms == 0] = 1.0
    rest *= (np.sqrt(np.maximum(0.0, 1.0 - t * t)) / norms)[:, None]
    X = np.empty((n, dim))
    X[:, 0] = y * t
    X[:, 1:] = rest
    return X, y


def sample_margin(*, n: int, dim: int = 2, gamma: float = 0.2, seed=0) -> MarginSample:
    """Draw ``n`` i.i.d. points of the margin distribution described in the module docstring.

    Parameters
    ----------
    n : int >= 1
    dim : int in [2, 50], default 2
    gamma : float in [0.05, 0.95], default 0.2
        Guaranteed margin of ``u = e_1``: ``y_i x_i1 >= gamma``; ``||x_i|| = 1``.
    seed : None, int or Generator

    Returns
    -------
    MarginSample
    """
    n = check_int(n, name="n", minimum=1, maximum=MAX_N)
    dim = check_int(dim, name="dim", minimum=2, maximum=MAX_DIM)
    g = _check_gamma(gamma)
    X, y = _draw(make_rng(seed), n, dim, g)
    X.setflags(write=False)
    y.setflags(write=False)
    return MarginSample(X, y, g)
