"""Radius, margins and the perceptron mistake bounds of the sources.

Each bound caps the number of updates of one rule under one normalisation
(``docs/mathematics.md#mistake-bounds``). Bounds take the margin ``gamma`` as an argument; when
it is omitted they compute the best one, ``gamma(S)``, from the hard-margin SVM (:func:`dataset_margin`).

With an offset the classic perceptron is the homogeneous one on augmented points
``x~ = (x, 1)``, so its bound uses ``H = max ||x~||`` and the homogeneous margin of the
augmented points; Koski's variant augments with ``(x, R)`` instead (Koski (2017)).

The sources prove their bounds from the start ``w = 0``. The same argument works from any
start ``w0`` and gives :func:`shifted_bound`, which the figure uses for runs started elsewhere
(Koski's example starts at ``w = (1, 0.5)``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..shared.i18n import N_, tr
from ..shared.validation import (
    as_features,
    check_bool,
    check_int,
    check_positive,
    check_real,
    check_vector,
    check_X_y,
)
from .rules import RULES, get_rule

__all__ = [
    "radius", "augment", "functional_margins", "margin", "dataset_margin", "novikoff_bound",
    "cornwell_bound", "hardt_recht_bound", "unit_norm_bound", "koski_bound", "shifted_root",
    "shifted_bound", "Bound", "mistake_bound", "why_no_bound", "ProofQuantities",
    "proof_quantities",
]

#: The rules whose convergence the sources prove (:attr:`explorer.perceptron.rules.Rule.convergence`).
SHIFTED_RULES = tuple(name for name, rule in RULES.items() if rule.convergence)
SHIFTED_SOURCE = N_("Sayed, Lemma 60.1, from w₀")  # translated where shown
#: With an offset, from 0, the classic rule's bound is both Novikoff's ``H^2 / gamma^2`` (Sayed,
#: Lemma 60.1) and Cornwell's ``(R B)^2`` (``R = H``, ``B = 1 / gamma``): one number, two sources
#: (``docs/mathematics.md#cornwell-bound``).
#: The head of the shifted bound's formula (translated where shown).
FROM_START = N_("from w₀")
CORNWELL_FORMULA = "H² / γ² = (RB)²"
CORNWELL_SOURCE = "Sayed, Lemma 60.1 (Novikoff); Cornwell (2025)"


def _finite(value, what: str) -> float:
    """Return a bound as a float, refusing one that overflowed (a margin near 0 or a tiny eta)."""
    v = float(value)
    if not np.isfinite(v):
        raise ValueError(f"the bound overflows: {what} is not a finite number; expected a margin "
                         "gamma (and a step eta) large enough for it to stay below 1.8e308")
    return v


def _bound(num, den, what: str) -> float:
    """``num / den`` computed in float64 without warnings, then checked by :func:`_finite`."""
    with np.errstate(over="ignore", divide="ignore", invalid="ignore", under="ignore"):
        value = np.float64(num) / np.float64(den)
    return _finite(value, what)


def radius(X, *, augmented: bool = False) -> float:
    """``R = max_i ||x_i||`` (of ``(x_i, 1)`` when ``augmented``); Hardt & Recht call it D(S)."""
    augmented = check_bool(augmented, name="augmented")
    Xa = augment(X) if augmented else as_features(X)
    return float(np.sqrt(np.max(np.einsum("ij,ij->i", Xa, Xa))))


def augment(X, *, value: float = 1.0) -> np.ndarray:
    """Append a constant column: ``x~ = (x, value)``, shape (n, d + 1)."""
    Xa = as_features(X)
    value = check_real(value, name="value")
    return np.hstack([Xa, np.full((Xa.shape[0], 1), value)])


def functional_margins(X, y, w, b: float = 0.0) -> np.ndarray:
    """``y_i (<w, x_i> + b)`` for every point, shape (n,)."""
    Xa, ya = check_X_y(X, y, require_both=False)
    w = check_vector(w, name="w", length=Xa.shape[1])
    return ya * (Xa @ w + check_real(b, name="b"))


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
    Raises ``explorer.shared.separability.NotSeparableError`` (a ValueError) if none exists.
    """
    from ..shared.svm import dataset_margin as _dataset_margin

    return _dataset_margin(X, y, fit_intercept=fit_intercept)


def _gamma(gamma, X, y, fit_intercept):
    if gamma is None and X is None:
        raise ValueError("the bound needs gamma or the data X, y to compute it from; got neither")
    if gamma is None:
        return dataset_margin(X, y, fit_intercept=fit_intercept)
    return check_positive(gamma, name="gamma")


def novikoff_bound(X, y, *, gamma=None, fit_intercept: bool = True) -> float:
    """Sayed Lemma 60.1 (Novikoff): classic rule from ``w = 0``, any ``eta``: ``H^2 / m^2``.

    ``H = max ||x~||`` and ``m`` the margin of a separator of the augmented points (of the
    points themselves if ``fit_intercept=False``); by default the best one.
    """
    fit_intercept = check_bool(fit_intercept, name="fit_intercept")
    Xh = augment(X) if fit_intercept else as_features(X)
    g = _gamma(gamma, Xh, y, False)
    return _bound(radius(Xh) ** 2, np.float64(g) ** 2, "H^2 / gamma^2")


def cornwell_bound(X, y, *, B=None, fit_intercept: bool = True) -> float:
    """Cornwell (2025): ``(R B)^2`` with ``R = max ||X_i||`` (augmented) and ``B = min ||V||``
    over ``V`` with ``y_i <V, X_i> >= 1``; that minimum is ``1 / gamma`` of the augmented data."""
    fit_intercept = check_bool(fit_intercept, name="fit_intercept")
    Xh = augment(X) if fit_intercept else as_features(X)
    if B is None:
        return _bound(radius(Xh) ** 2, np.float64(dataset_margin(Xh, y, fit_intercept=False)) ** 2,
                      "(R B)^2")
    B = check_positive(B, name="B")
    return _bound(np.float64(radius(Xh) * B) ** 2, 1.0, "(R B)^2")


def hardt_recht_bound(X, y, *, gamma=None, eta: float = 1.0, fit_intercept: bool = False) -> float:
    """Hardt & Recht (2022), ch. 3: margin rule, ``w0 = 0``: ``(2 + D^2) / gamma^2`` margin mistakes.

    Stated for ``eta = 1``, no offset. The same proof with a step ``eta`` gives
    ``(2 / eta + D^2) / gamma^2``; with an offset it applies to the augmented points.
    """
    eta = check_positive(eta, name="eta")
    fit_intercept = check_bool(fit_intercept, name="fit_intercept")
    Xh = augment(X) if fit_intercept else as_features(X)
    g = _gamma(gamma, Xh, y, False)
    with np.errstate(over="ignore", divide="ignore"):
        num = 2.0 / np.float64(eta) + radius(Xh) ** 2
    return _bound(num, np.float64(g) ** 2, "(2 / eta + D^2) / gamma^2")


def unit_norm_bound(X=None, y=None, *, gamma=None) -> float:
    """Perceptron lecture notes: ``3 / gamma^2`` when every ``||x_i|| = 1`` (margin rule)."""
    if X is not None:
        norms = np.linalg.norm(as_features(X), axis=1)
        if not np.allclose(norms, 1.0, atol=1e-9):
            raise ValueError(f"3/gamma^2 needs unit-norm points; got norms from {norms.min():.3g} "
                             f"to {norms.max():.3g}")
    g = _gamma(gamma, X, y, False)
    return _bound(3.0, np.float64(g) ** 2, "3 / gamma^2")


def koski_bound(X, y, *, gamma=None) -> float:
    """Koski (2017), after Novikoff (1962): ``(2R / gamma)^2`` for the ``rosenblatt_r2`` rule.

    ``gamma`` is the functional margin of a unit ``w*`` whose offset has ``|b*| <= R``; the
    max-margin separator qualifies, so the default is ``gamma(S)`` (affine).
    """
    g = _gamma(gamma, X, y, True)
    return _bound(4.0 * radius(X) ** 2, np.float64(g) ** 2, "(2R / gamma)^2")


def shifted_root(a: float, c: float, *, step: float, per_step: float) -> float:
    """Largest ``u`` with ``(a + u step)^2 = c + u per_step``: the update bound from a start.

    ``step = eta gamma`` is the least growth of ``<w*, w~>`` per update and ``per_step`` the
    most growth of ``||w~||^2`` (``eta^2 H^2`` for the classic rule). The quadratic
    ``step^2 u^2 + (2 a step - per_step) u + (a^2 - c)`` has that root; see
    :func:`shifted_bound` for why no run makes more updates. Written to avoid cancellation
    when the start is already well aligned with ``w*`` (``2 a step > per_step``).
    """
    step, per_step = check_real(step, name="step"), check_real(per_step, name="per_step")
    a, c = check_real(a, name="a"), check_real(c, name="c")
    if step <= 0:
        raise ValueError(f"step = eta * gamma must be positive; got {step}")
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        a, c, step, per_step = (np.float64(v) for v in (a, c, step, per_step))
        gap = max(c - a**2, 0.0)  # c >= a^2 by Cauchy-Schwarz; rounding aside
        B = per_step - 2.0 * a * step
        r = np.sqrt(B * B + 4.0 * step * step * gap)
        if B >= 0:
            value = (B + r) / (2.0 * step * step)
        else:
            value = 2.0 * gap / (r - B) if r - B > 0 else 0.0
    return _finite(value, "the root of (a + u step)^2 = c + u per_step")


def _best_separator(Xa, ya, rule: str, fit_intercept: bool):
    """``(w*, b*)`` of the max-margin separator used by the proof of ``rule``'s bound."""
    from ..shared.svm import fit

    d = Xa.shape[1]
    if rule == "rosenblatt_r2" and fit_intercept:
        best = fit(Xa, ya)
        return best.w, best.b
    best = fit(augment(Xa) if fit_intercept else Xa, ya, fit_intercept=False)
    return best.w[:d], (float(best.w[d]) if fit_intercept else 0.0)


def _proof_space(Xa, rule: str, fit_intercept: bool):
    """Points ``x~`` of the proof and the scale of the offset: ``(x, 1)``, Koski's ``(x, R)``
    for rosenblatt_r2 (so ``w~ = (w, b / R)``), or ``x`` itself without an offset."""
    scale = radius(Xa) if rule == "rosenblatt_r2" else 1.0
    return (augment(Xa, value=scale) if fit_intercept else Xa), scale


def _unit_star(w_star, b_star, scale, fit_intercept, d):
    ws = check_vector(w_star, name="w_star", length=d)
    ws = np.append(ws, float(b_star) / scale) if fit_intercept else ws
    norm = float(np.linalg.norm(ws))
    if norm == 0:
        raise ValueError("w_star must be non-zero")
    return ws / norm


def _per_step(rule: str, eta: float, H: float) -> float:
    with np.errstate(over="ignore"):
        eta, H = np.float64(eta), np.float64(H)
        value = 2 * eta + (eta * H) ** 2 if rule == "margin" else (eta * H) ** 2
    return _finite(value, "the growth per update eta^2 H^2")


def _shifted_parts(X, y, *, w0, b0, eta, rule, fit_intercept, w_star, b_star):
    Xa, ya = check_X_y(X, y)
    fit_intercept = check_bool(fit_intercept, name="fit_intercept")
    b0 = check_real(b0, name="b0")
    d = Xa.shape[1]
    eta = check_positive(eta, name="eta")
    if w_star is None:
        w_star, b_star = _best_separator(Xa, ya, rule, fit_intercept)
    Xh, scale = _proof_space(Xa, rule, fit_intercept)
    ws = _unit_star(w_star, b_star, scale, fit_intercept, d)
    gamma = float(np.min(ya * (Xh @ ws)))
    if gamma <= 0:
        raise ValueError(f"w_star does not separate the data (margin {gamma:.3g})")
    w0 = np.zeros(d) if w0 is None else check_vector(w0, name="w0", length=d)
    start = np.append(w0, float(b0) / scale) if fit_intercept else w0
    H = radius(Xh)
    a, c = float(start @ ws), float(start @ start)
    value = shifted_root(a, c, step=eta * gamma, per_step=_per_step(rule, eta, H))
    return value, gamma, H


def shifted_bound(X, y, *, w0=None, b0: float = 0.0, eta: float = 1.0, rule: str = "classic",
                  fit_intercept: bool = True, w_star=None, b_star: float = 0.0) -> float:
    r"""Mistake bound of the perceptron started at ``(w0, b0)`` instead of 0.

    Sayed's proof of Lemma 60.1 (Novikoff's theorem) uses the start ``w = 0`` only to drop
    two constants; keeping them gives a bound for any start. We work with augmented vectors
    ``w~ = (w, b)`` and points ``x~ = (x, 1)`` (Koski's ``(x, R)`` and ``(w, b / R)`` for
    rosenblatt_r2; ``x`` alone without an offset) and a unit separator ``w*`` with margin
    ``gamma = min_n y_n <w*, x~_n> > 0`` and ``H = max_n ||x~_n||``. Let

    .. math:: a = \langle w^*, \tilde w_0 \rangle, \qquad c = \|\tilde w_0\|^2 .

    An update adds ``eta y x~`` for a point that fails the test. Its inner product with
    ``w*`` rises by ``eta y <w*, x~> >= eta gamma``; its squared norm rises by
    ``2 eta y <w~, x~> + eta^2 ||x~||^2``, at most ``eta^2 H^2`` since the point failed
    ``y <w~, x~> <= 0`` (at most ``2 eta + eta^2 H^2`` for the margin rule with forgetting
    rate 1, whose test is ``y <w~, x~> < 1``). After ``u`` updates, with Cauchy–Schwarz,

    .. math:: a + u\eta\gamma \le \langle w^*, \tilde w_u \rangle \le \|\tilde w_u\|
              \le \sqrt{c + u\eta^2 H^2} .

    Hence ``q(u) = eta^2 gamma^2 u^2 + (2 a eta gamma - eta^2 H^2) u + (a^2 - c) <= 0`` whenever
    ``a + u eta gamma >= 0``. The parabola ``q`` opens upwards and is not positive at ``u = 0``
    (``|a| <= sqrt(c)``) nor at ``u = -a / (eta gamma)``, so every reachable ``u`` lies below
    its largest root ``u+ >= 0``: the run makes at most ``u+`` updates. At ``w0 = 0`` the root
    is ``H^2 / gamma^2``, Novikoff's bound (Sayed, Lemma 60.1), and for the margin rule
    ``(2 / eta + H^2) / gamma^2`` (Hardt & Recht (2022), ch. 3).

    Parameters
    ----------
    X, y : data, labels in {-1, +1}; must be separable (in the rule's space).
    w0, b0 : the start (``w0`` zeros by default; ``b0`` is ignored without an offset).
    eta : float > 0, the step size.
    rule : {"classic", "pocket", "averaged", "margin", "rosenblatt_r2"}
        The margin rule with forgetting rate 1 only.
    fit_intercept : bool
    w_star, b_star : a separator to use; by default the max-margin one of the proof's space
        (the figure's proof panel uses the same, so its guaranteed lines cross at this value).

    Returns
    -------
    float
        ``u+``; source: Sayed, Lemma 60.1, argument started at ``w0``.
    """
    spec = get_rule(rule)
    if spec.name not in SHIFTED_RULES:
        raise ValueError(f"the shifted bound covers {list(SHIFTED_RULES)}; got {rule!r}")
    return _shifted_parts(X, y, w0=w0, b0=b0, eta=eta, rule=spec.name,
                          fit_intercept=fit_intercept, w_star=w_star, b_star=b_star)[0]


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
                  fit_intercept: bool = True, w0=None, gamma=None, b0: float = 0.0,
                  w_star=None, b_star: float = 0.0, batch_size: int = 1) -> Bound:
    """The bound that applies to ``rule`` with these settings.

    The choice is tabulated in ``docs/mathematics.md#which-bound-the-explorer-shows``.
    The sources prove their bounds for one point per step: with ``batch_size > 1`` (Sayed's
    mini-batch, eq. (60.23)) no bound applies, and the note says so.

    From 0 with an offset, the classic, pocket and averaged rules get Novikoff's bound, which is
    also Cornwell's ``(R B)^2`` (:data:`CORNWELL_FORMULA`, :data:`CORNWELL_SOURCE`).
    From a start other than 0 (``w0 != 0``, or ``b0 != 0`` with an offset) the classic,
    pocket, averaged, margin (forgetting rate 1) and rosenblatt_r2 rules get
    :func:`shifted_bound`, computed with the separator ``(w_star, b_star)`` (default: the
    max-margin one). Returns a :class:`Bound` with ``value=None`` and a ``note`` saying why
    when none applies (non-separable data, forgetting, or a rule without a mistake bound).
    """
    spec = get_rule(rule)
    Xa, ya = check_X_y(X, y)
    fit_intercept = check_bool(fit_intercept, name="fit_intercept")
    b0 = check_real(b0, name="b0")
    if w0 is not None:
        w0 = check_vector(w0, name="w0", length=Xa.shape[1])
    if gamma is not None:
        gamma = check_positive(gamma, name="gamma")
    shifted = (w0 is not None and np.any(w0 != 0)) or (fit_intercept and b0 != 0)
    from ..shared.separability import NotSeparableError

    reason = why_no_bound(spec.name, forget=forget, fit_intercept=fit_intercept, b0=b0,
                          batch_size=batch_size, shifted=shifted)
    if reason:
        return Bound(None, "—", "", None, None, reason)
    try:
        if shifted:
            value, g, H = _shifted_parts(Xa, ya, w0=w0, b0=b0, eta=eta, rule=spec.name,
                                         fit_intercept=fit_intercept, w_star=w_star,
                                         b_star=b_star)
            grow = "u(2η + η²H²)" if spec.name == "margin" else "uη²H²"
            return Bound(value, f"{FROM_START}: root of (a + uηγ)² = c + {grow}", SHIFTED_SOURCE, g, H,
                         "a = ⟨w*, w̃₀⟩, c = ‖w̃₀‖²")
        if spec.name in ("classic", "pocket", "averaged"):
            Xh = augment(Xa) if fit_intercept else Xa
            g = dataset_margin(Xh, ya, fit_intercept=False) if gamma is None else gamma
            value = novikoff_bound(Xa, ya, gamma=g, fit_intercept=fit_intercept)
            if fit_intercept:  # Cornwell's theorem: (x, 1), W = 0; B = 1/gamma, so (RB)^2 = H^2/gamma^2
                return Bound(value, CORNWELL_FORMULA, CORNWELL_SOURCE, g, radius(Xh),
                             "on augmented points (x, 1)")
            return Bound(value, "H² / γ²", "Sayed, Lemma 60.1 (Novikoff)", g, radius(Xh), "")
        if spec.name == "rosenblatt_r2":
            g = dataset_margin(Xa, ya, fit_intercept=True) if gamma is None else gamma
            return Bound(koski_bound(Xa, ya, gamma=g), "(2R / γ)²", "Koski (2017)", g, radius(Xa))
        if spec.name == "margin":
            Xh = augment(Xa) if fit_intercept else Xa
            g = dataset_margin(Xh, ya, fit_intercept=False) if gamma is None else gamma
            unit = np.allclose(np.linalg.norm(Xh, axis=1), 1.0) and eta == 1.0
            formula = "3 / γ²" if unit else ("(2 + D²) / γ²" if eta == 1.0 else "(2/η + D²) / γ²")
            source = "perceptron lecture notes" if unit else "Hardt & Recht (2022), ch. 3"
            return Bound(hardt_recht_bound(Xa, ya, gamma=g, eta=eta, fit_intercept=fit_intercept),
                         formula, source, g, radius(Xh),
                         "on augmented points (x, 1)" if fit_intercept else "")
    except NotSeparableError:
        return Bound(None, "—", "", None, None, N_("the data are not linearly separable"))
    raise AssertionError(f"{spec.name} declares a convergence source ({spec.convergence}) but "
                         "mistake_bound has no bound for it")


def why_no_bound(rule: str, *, forget: float = 1.0, fit_intercept: bool = True, b0: float = 0.0,
                 batch_size: int = 1, shifted: bool = False) -> str:
    """Why no mistake bound applies to ``rule`` with these settings, whatever the data; ``""``
    when the sources prove one for linearly separable data.

    The rule's own part is its declaration :attr:`explorer.perceptron.rules.Rule.convergence`; the
    settings' part is that the proofs take one point per step, a learned offset or ``b = 0``,
    and forgetting rate 1 for the margin perceptron. ``shifted`` (a start other than 0) only
    changes the wording. :func:`mistake_bound` and the narration of what more epochs would do
    (:func:`explorer.perceptron.replay.stop_text`) both ask this.
    """
    spec = get_rule(rule)
    if not fit_intercept and float(b0) != 0:
        return tr("the bounds need b = 0 when the offset is not learned")
    if check_int(batch_size, name="batch_size", minimum=1) > 1:
        return tr("the sources prove mistake bounds for one point per step, not for "
                  "mini-batches of {n}").format(n=batch_size)
    if not spec.convergence:
        return (tr("the sources give no mistake bound for {rule}, from any start") if shifted
                else tr("the sources give no mistake bound for {rule}")).format(
            rule=tr(spec.title))
    if spec.name == "margin" and forget != 1.0:
        return tr("the bound needs forgetting rate 1")
    return ""


@dataclass(frozen=True)
class ProofQuantities:
    """The two quantities of the convergence proof, after each update ``u = 0..U``.

    ``dot[u] = <w*, w~_u>`` grows by at least ``eta * gamma`` per update, so it stays above
    ``dot_lower = a + u eta gamma``; ``norm_sq[u] = ||w~_u||^2`` grows by at most ``per_step``
    (``eta^2 H^2``; ``2 eta + eta^2 H^2`` for the margin rule), so it stays below
    ``norm_sq_upper = c + u per_step``. Here ``a = <w*, w~_0>`` and ``c = ||w~_0||^2`` come from
    the start (both 0 from ``w = 0``) and ``w*`` is a unit separator. The two guaranteed lines
    meet where ``dot_lower^2 = norm_sq_upper``: at ``crossing``, the bound of
    :func:`shifted_bound` (Sayed, Lemma 60.1).
    """

    updates: np.ndarray
    dot: np.ndarray
    norm_sq: np.ndarray
    dot_lower: np.ndarray
    norm_sq_upper: np.ndarray
    gamma: float
    H: float
    eta: float = 1.0
    per_step: float = 0.0
    start_dot: float = 0.0
    start_norm_sq: float = 0.0

    @property
    def crossing(self) -> float:
        """Number of updates where the guaranteed lines meet (no run goes beyond it)."""
        return shifted_root(self.start_dot, self.start_norm_sq, step=self.eta * self.gamma,
                            per_step=self.per_step)


def proof_quantities(trajectory, X, y, *, w_star, b_star: float = 0.0) -> ProofQuantities:
    """Track ``<w*, w~_t>`` and ``||w~_t||^2`` along a run (Sayed Lemma 60.1; Hardt & Recht).

    The augmented vectors are ``w~ = (w, b)`` with an offset (``(w, b / R)`` for rosenblatt_r2,
    Koski's augmentation), and ``w*`` is normalised to unit length in that space. The
    guaranteed lines start at the run's own start ``w~_0`` (see :func:`shifted_bound`).
    """
    from .trajectory import Trajectory

    if not isinstance(trajectory, Trajectory):
        raise TypeError(f"trajectory: expected a Trajectory from explorer.perceptron.train; got "
                        f"{type(trajectory).__name__}")
    Xa, ya = check_X_y(X, y)
    if Xa.shape[1] != trajectory.dim:
        raise ValueError(f"X must have {trajectory.dim} features, as in the run; got {Xa.shape[1]}")
    p = trajectory.params
    fit = p["fit_intercept"]
    Xh, scale = _proof_space(Xa, trajectory.rule, fit)
    ws = _unit_star(w_star, b_star, scale, fit, Xa.shape[1])
    W = np.hstack([trajectory.weights, trajectory.biases[:, None] / scale]) if fit else \
        trajectory.weights
    gamma = float(np.min(ya * (Xh @ ws)))
    H = radius(Xh)
    u = np.arange(W.shape[0])
    eta = p["eta"]
    per_step = _per_step(trajectory.rule, eta, H)
    a, c = float(W[0] @ ws), float(W[0] @ W[0])
    return ProofQuantities(u, W @ ws, np.einsum("ij,ij->i", W, W), a + u * eta * gamma,
                           c + u * per_step, gamma, H, eta, per_step, a, c)
