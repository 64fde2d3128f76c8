"""The update rules of the perceptron family, as a name-to-rule registry.

Each step picks one index ``i`` (or a mini-batch), computes the functional margin
``z_i = y_i (<w, x_i> + b)``, tests the rule's condition against a threshold ``t``, and if it
holds, changes ``(w, b)``. Equations and sources are in
``docs/mathematics.md#update-rules``; the table below is what each entry of :data:`RULES` does.

============== ================== ===================================================== ==================
name           update when        update                                                source
============== ================== ===================================================== ==================
classic        ``z <= t`` (t=0)   ``w += eta y x``, ``b += eta y``                      Sayed (60.25)
margin         ``z < t`` (t=1)    ``w <- forget w + eta y x``, ``b += eta y``            Hardt & Recht ch. 3
rosenblatt_r2  ``z <= t`` (t=0)   ``w += eta y x``, ``b += eta y R^2``                  Koski (2017)
regularized    ``z <= t`` (t=0)   ``w <- (1 - 2 eta rho) w + eta y x``, ``b += eta y``  Sayed (60.19)
svm_sgd        ``z <= t`` (t=1)   as regularized                                        Sayed (61.22)
relaxation     ``z < t`` (t=1)    ``w~ += eta (t - z) y x~ / ||x~||^2``                 Sayed P60.7, P61.6
pocket         as classic         as classic; keep the iterate with least error         Sayed (60.45)
averaged       as classic         as classic; predict with the average of all iterates  Freund & Schapire
============== ================== ===================================================== ==================

For ``regularized`` and ``svm_sgd`` the decay ``(1 - 2 eta rho)`` acts on every step, update or
not, as in Sayed's listings; the offset is never decayed. With a mini-batch the corrections of
the batch members that meet the condition are summed, all evaluated at the same ``(w, b)``
(Sayed (60.23), (61.19): a sum, not an average). The sources give that form for the perceptron
and the SVM; for the other rules :func:`train` sums the same way (``Rule.batch_source`` says
which). Sayed's (60.26) is the classic rule with ``eta = 1``.

``Rule.convergence`` says where the sources prove that a rule stops on linearly separable data
(a mistake bound): the classic, pocket and averaged rules (Novikoff), the margin perceptron
(Hardt & Recht) and Koski's variant. They prove none for the regularized rule, the SVM by SGD
and relaxation, and indeed on separable data those need not stop: relaxation on Koski's example
makes 1,029 updates in 500 epochs and 10,029 in 5,000.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..shared.i18n import N_
from ..shared.number_format import number_text

__all__ = ["Rule", "RULES", "get_rule", "BATCH_EQUATION", "rule_text"]

#: The mini-batch step of every rule (Sayed, eq. (60.23)), in plain text.
BATCH_EQUATION = ("the corrections of the batch's points that meet the condition are summed, "
                  "all computed at the same w, not averaged")


@dataclass(frozen=True)
class Rule:
    """One perceptron-family update rule.

    Attributes
    ----------
    name : str
    strict : bool
        Condition is ``z < t`` if True, ``z <= t`` if False.
    default_threshold : float
        ``t`` when the caller passes ``threshold=None``.
    decays_every_step : bool
        The weight decay ``1 - 2 eta rho`` applies at every step (regularized, svm_sgd).
    uses : tuple of str
        Which of ``eta``, ``forget``, ``rho`` the rule reads.
    title, equation, source : str
        For people: a short name, the update in plain text, and the citation.
    batch_source : str
        Where the sources give the rule's mini-batch form (:data:`BATCH_EQUATION`); "" when
        they give none and the summed form is the explorer's own extension.
    convergence : str
        Where the sources prove that on linearly separable data the rule makes finitely many
        updates (one point per step), so that a long enough run stops; "" when they prove no
        such bound. Every sentence on what more epochs would do, in the single-rule view and
        in a race, and which rules get a mistake bound (:func:`explorer.perceptron.bounds.mistake_bound`)
        follow from it.
    """

    name: str
    strict: bool
    default_threshold: float
    decays_every_step: bool
    uses: tuple
    title: str
    equation: str
    source: str
    batch_source: str = ""
    convergence: str = ""

    def triggers(self, z: np.ndarray, t: float) -> np.ndarray:
        """Boolean mask of margins ``z`` that call for an update."""
        return z < t if self.strict else z <= t

    def condition_text(self, t: float) -> str:
        """The update condition as text, e.g. ``"y·f(x) ≤ 0"``."""
        return f"y·f(x) {'<' if self.strict else '≤'} {number_text(t, digits=6)}"


RULES: dict[str, Rule] = {
    r.name: r
    for r in [
        Rule("classic", False, 0.0, False, ("eta",), N_("Classic perceptron"),
             "if y·f(x) ≤ 0: w ← w + η·y·x, b ← b + η·y",
             "Sayed, eq. (60.25), or (60.26) with η = 1; Koski (2017)",
             batch_source="Sayed, eq. (60.23) with ρ = 0",
             convergence="Sayed, Lemma 60.1 (Novikoff)"),
        Rule("margin", True, 1.0, False, ("eta", "forget"), N_("Margin perceptron"),
             "if y·f(x) < 1: w ← γ·w + η·y·x, b ← b + η·y (else w stays)",
             "Hardt & Recht (2022), ch. 3",
             convergence="Hardt & Recht (2022), ch. 3"),
        Rule("rosenblatt_r2", False, 0.0, False, ("eta",), N_("Rosenblatt with R² bias step"),
             "if y·f(x) ≤ 0: w ← w + η·y·x, b ← b + η·y·R²", "Koski (2017)",
             convergence="Koski (2017)"),
        Rule("regularized", False, 0.0, True, ("eta", "rho"), N_("Regularized perceptron"),
             "w ← (1 − 2ηρ)·w + η·y·x·1[y·f(x) ≤ 0], b ← b + η·y·1[…]", "Sayed, eq. (60.19)",
             batch_source="Sayed, eq. (60.23)"),
        Rule("svm_sgd", False, 1.0, True, ("eta", "rho"), N_("Soft-margin SVM by SGD"),
             "w ← (1 − 2ηρ)·w + η·y·x·1[y·f(x) ≤ 1], b ← b + η·y·1[…]", "Sayed, eq. (61.22)",
             batch_source="Sayed, eq. (61.19)"),
        Rule("relaxation", True, 1.0, False, ("eta",), N_("Relaxation (Agmon–Motzkin)"),
             "if y·f(x) < t (t = 1 unless set): w̃ ← w̃ + η·(t − y·f(x))·y·x̃ / ‖x̃‖², "
             "w̃ = (w, b), x̃ = (x, 1)",
             "Agmon (1954); Motzkin & Schoenberg (1954); Sayed, Problems 60.7 and 61.6"),
        Rule("pocket", False, 0.0, False, ("eta",), N_("Pocket perceptron"),
             "if y·f(x) ≤ 0: w ← w + η·y·x, b ← b + η·y; keep the iterate with the lowest "
             "training error",
             "Gallant; Sayed, eq. (60.45)", batch_source="Sayed, eq. (60.23) with ρ = 0",
             convergence="Sayed, Lemma 60.1 (Novikoff): its updates are the classic rule's"),
        Rule("averaged", False, 0.0, False, ("eta",), N_("Averaged perceptron"),
             "if y·f(x) ≤ 0: w ← w + η·y·x, b ← b + η·y; predict with the average of the "
             "iterates over all steps",
             "Freund & Schapire (1999), beyond the sources",
             batch_source="Sayed, eq. (60.23) with ρ = 0",
             convergence="Sayed, Lemma 60.1 (Novikoff): its updates are the classic rule's"),
    ]
}


def get_rule(name) -> Rule:
    """Return the rule registered under ``name`` or raise a ValueError listing the choices."""
    if not isinstance(name, str) or name not in RULES:
        raise ValueError(f"unknown rule {name!r}; expected one of {sorted(RULES)}")
    return RULES[name]


def rule_text(name, *, batch_size: int = 1) -> str:
    """The rule's update and its source in words, for the screen.

    E.g. ``"if y·f(x) ≤ 0: w ← w + η·y·x, b ← b + η·y — Classic perceptron, Sayed, eq. (60.25),
    or (60.26) with η = 1; Koski (2017)."``; with ``batch_size > 1`` a second sentence gives
    the mini-batch step (:data:`BATCH_EQUATION`) and its source, or says the sources have none.
    """
    spec = get_rule(name)
    text = f"{spec.equation} — {spec.title}, {spec.source}."
    if batch_size > 1:
        where = spec.batch_source or "the sources give no mini-batch form of this rule"
        text += f" Mini-batch of B = {batch_size}: {BATCH_EQUATION} ({where})."
    return text
