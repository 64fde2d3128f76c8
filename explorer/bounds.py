"""Radius, margins and the perceptron mistake bounds of the sources.

Each bound caps the number of updates of one rule under one normalisation (REFERENCE.md,
Mistake bounds). Bounds take the margin ``gamma`` as an argument; when it is omitted they
compute the best one, ``gamma(S)``, from the hard-margin SVM (:func:`dataset_margin`).

With an offset the classic perceptron is the homogeneous one on augmented points
``x~ = (x, 1)``, so its bound uses ``H = max ||x~||`` and the homogeneous margin of the
augmented points; Koski's variant augments with ``(x, R)`` instead (Koski (2017)).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validation import as_features, check_positive, check_vector, check_X_y
from .rules import get_rule

__all__ = [
    "radius", "augment", "functional_margins", "margin", "dataset_margin", "novikoff_bound",
    "cornwell_bound", "hardt_recht_bound", "unit_norm_bound", "koski_bound", "Bound",
    "mistake_bound", "ProofQuantities", "proof_quantities",
]


def radius(X, *, augmented: bool = False) -> float:
    """``R = max_i ||x_i||`` (of ``(x_i, 1)`` when ``augmented``); Hardt & Recht call it D(S)."""
    Xa = augment(X) if augmented else as_features(X)
    return float(np.sqrt(np.max(np.einsum("ij,ij->i", Xa, Xa))))


def augment(X, *, value: float = 1.0) -> np.ndarray:
    """Append a constant column: ``x~ = (x, value)``, shape (n, d + 1)."""
    Xa = as_features(X)
    return np.hstack([Xa, np.full((Xa.shape[0], 1), float(value))])


def functional_margins(X, y, w, b: float = 0.0) -> np.ndarray:
    """``y_i (<w, x_i> + b)`` for every point, shape (n,)."""
    Xa, ya = check_X_y(X, y, require_both=False)
    w = check_vector(w, name="w", length=Xa.shape[1])
    return ya * (Xa @ w + float(b))


def margin(X, y, w, b: float = 0.0) -> float:
    """Geometric margin of ``(w, b)`` on the data: ``min_i y_i (<w, x_i> + b) / ||w||``.

    Negative when ``(w, b)`` misclassifies a point; ``-inf``/``nan`` guarded: ``w = 0`` raises.
    """
    z = functional_margins(X, y, w, b)
    norm = float(np.linalg.norm(w))
    if norm == 0:
        raise ValueError("margin needs w != 0; got the zero vector")
    return float(z.min() / norm)


def dataset_margin(X, y, *, fit_intercept: bool = True) -> float:
    """``gamma(S)``: the largest margin of any separator, ``1 / ||w*||`` of the hard-margin SVM.

    Affine separators by default; ``fit_intercept=False`` for separators through the origin.
    Raises ``explorer.separability.NotSeparableError`` (a ValueError) if none exists.
    """
    from .svm import dataset_margin as _dataset_margin

    return _dataset_margin(X, y, fit_intercept=fit_intercept)


def _gamma(gamma, X, y, fit_intercept):
    if gamma is None:
        return dataset_margin(X, y, fit_intercept=fit_intercept)
    return check_positive(gamma, name="gamma")


def novikoff_bound(X, y, *, gamma=None, fit_intercept: bool = True) -> float:
    """Sayed Lemma 60.1 (Novikoff): classic rule from ``w = 0``, any ``eta``: ``H^2 / m^2``.

    ``H = max ||x~||`` and ``m`` the margin of a separator of the augmented points (of the
    points themselves if ``fit_intercept=False``); by default the best one.
    """
    Xh = augment(X) if fit_intercept else as_features(X)
    g = _gamma(gamma, Xh, y, False)
    return radius(Xh) ** 2 / g**2


def cornwell_bound(X, y, *, B=None, fit_intercept: bool = True) -> float:
    """Cornwell (2025): ``(R B)^2`` with ``R = max ||X_i||`` (augmented) and ``B = min ||V||``
    over ``V`` with ``y_i <V, X_i> >= 1``; that minimum is ``1 / gamma`` of the augmented data."""
    Xh = augment(X) if fit_intercept else as_features(X)
    B = 1.0 / dataset_margin(Xh, y, fit_intercept=False) if B is None else check_positive(B, name="B")
    return (radius(Xh) * B) ** 2


def hardt_recht_bound(X, y, *, gamma=None, eta: float = 1.0, fit_intercept: bool = False) -> float:
    """Hardt & Recht (2022), ch. 3: margin rule, ``w0 = 0``: ``(2 + D^2) / gamma^2`` margin mistakes.

    Stated for ``eta = 1``, no offset. The same proof with a step ``eta`` gives
    ``(2 / eta + D^2) / gamma^2``; with an offset it applies to the augmented points.
    """
    eta = check_positive(eta, name="eta")
    Xh = augment(X) if fit_intercept else as_features(X)
    g = _gamma(gamma, Xh, y, False)
    return (2.0 / eta + radius(Xh) ** 2) / g**2


def unit_norm_bound(X=None, y=None, *, gamma=None) -> float:
    """Perceptron lecture notes: ``3 / gamma^2`` when every ``||x_i|| = 1`` (margin rule)."""
    if X is not None:
        norms = np.linalg.norm(as_features(X), axis=1)
        if not np.allclose(norms, 1.0, atol=1e-9):
            raise ValueError(f"3/gamma^2 needs unit-norm points; got norms from {norms.min():.3g} "
                             f"to {norms.max():.3g}")
    g = _gamma(gamma, X, y, False)
    return 3.0 / g**2


def koski_bound(X, y, *, gamma=None) -> float:
    """Koski (2017), after Novikoff (1962): ``(2R / gamma)^2`` for the ``rosenblatt_r2`` rule.

    ``gamma`` is the functional margin of a unit ``w*`` whose offset has ``|b*| <= R``; the
    max-margin separator qualifies, so the default is ``gamma(S)`` (affine).
    """
    g = _gamma(gamma, X, y, True)
    return (2.0 * radius(X) / g) ** 2


@dataclass(frozen=True)
class Bound:
    """A mistake bound chosen for a rule: its value (None when no bound applies) and why."""

    value: float | None
    formula: str
    source: str
    gamma: float | None
    radius: float | None
    note: str = ""


def mistake_bound(rule: str, X, y, *, eta: float = 1.0, forget: float = 1.0,
                  fit_intercept: bool = True, w0=None, gamma=None) -> Bound:
    """The bound of REFERENCE.md that applies to ``rule`` with these settings.

    Returns a :class:`Bound` with ``value=None`` and a ``note`` saying why when none applies
    (non-separable data, a non-zero start, forgetting, or a rule without a mistake bound).
    """
    spec = get_rule(rule)
    Xa, ya = check_X_y(X, y)
    if w0 is not None and np.any(np.asarray(w0, dtype=float) != 0):
        return Bound(None, "—", "", None, None, "the bounds assume the start w = 0")
    from .separability import NotSeparableError

    try:
        if spec.name in ("classic", "pocket", "averaged"):
            Xh = augment(Xa) if fit_intercept else Xa
            g = dataset_margin(Xh, ya, fit_intercept=False) if gamma is None else gamma
            return Bound(novikoff_bound(Xa, ya, gamma=g, fit_intercept=fit_intercept),
                         "H² / γ²", "Sayed, Lemma 60.1 (Novikoff)", g, radius(Xh),
                         "on augmented points (x, 1)" if fit_intercept else "")
        if spec.name == "rosenblatt_r2":
            g = dataset_margin(Xa, ya, fit_intercept=True) if gamma is None else gamma
            return Bound(koski_bound(Xa, ya, gamma=g), "(2R / γ)²", "Koski (2017)", g, radius(Xa))
        if spec.name == "margin":
            if forget != 1.0:
                return Bound(None, "—", "", None, None, "the bound needs forgetting rate 1")
            Xh = augment(Xa) if fit_intercept else Xa
            g = dataset_margin(Xh, ya, fit_intercept=False) if gamma is None else gamma
            unit = np.allclose(np.linalg.norm(Xh, axis=1), 1.0) and eta == 1.0
            formula = "3 / γ²" if unit else ("(2 + D²) / γ²" if eta == 1.0 else "(2/η + D²) / γ²")
            source = "perceptron lecture notes" if unit else "Hardt & Recht (2022), ch. 3"
            return Bound(hardt_recht_bound(Xa, ya, gamma=g, eta=eta, fit_intercept=fit_intercept),
                         formula, source, g, radius(Xh),
                         "on augmented points (x, 1)" if fit_intercept else "")
    except NotSeparableError:
        return Bound(None, "—", "", None, None, "the data are not linearly separable")
    return Bound(None, "—", "", None, None, f"the sources give no mistake bound for {spec.title}")


@dataclass(frozen=True)
class ProofQuantities:
    """The two quantities of the convergence proof, after each update ``u = 0..U``.

    ``dot[u] = <w*, w~_u>`` grows by at least ``eta * gamma`` per update (``dot_lower``);
    ``norm_sq[u] = ||w~_u||^2`` grows by at most ``eta^2 H^2`` per update (``norm_sq_upper``;
    ``2 eta + eta^2 H^2`` for the margin rule). ``w*`` is a unit separator.
    """

    updates: np.ndarray
    dot: np.ndarray
    norm_sq: np.ndarray
    dot_lower: np.ndarray
    norm_sq_upper: np.ndarray
    gamma: float
    H: float


def proof_quantities(trajectory, X, y, *, w_star, b_star: float = 0.0) -> ProofQuantities:
    """Track ``<w*, w~_t>`` and ``||w~_t||^2`` along a run (Sayed Lemma 60.1; Hardt & Recht).

    The augmented vectors are ``w~ = (w, b)`` with an offset (``(w, b / R)`` for rosenblatt_r2,
    Koski's augmentation), and ``w*`` is normalised to unit length in that space.
    """
    Xa, ya = check_X_y(X, y)
    p = trajectory.params
    fit = p["fit_intercept"]
    scale = radius(Xa) if trajectory.rule == "rosenblatt_r2" else 1.0
    w_star = check_vector(w_star, name="w_star", length=Xa.shape[1])
    ws = np.append(w_star, float(b_star) / scale) if fit else w_star
    norm = np.linalg.norm(ws)
    if norm == 0:
        raise ValueError("w_star must be non-zero")
    ws = ws / norm
    Xh = augment(Xa, value=scale) if fit else Xa
    W = np.hstack([trajectory.weights, trajectory.biases[:, None] / scale]) if fit else \
        trajectory.weights
    gamma = float(np.min(ya * (Xh @ ws)))
    H = radius(Xh)
    u = np.arange(W.shape[0])
    eta = p["eta"]
    per_step = 2 * eta + eta**2 * H**2 if trajectory.rule == "margin" else eta**2 * H**2
    return ProofQuantities(u, W @ ws, np.einsum("ij,ij->i", W, W), u * eta * gamma,
                           u * per_step, gamma, H)
