"""The symbols and jargon each tab puts on screen, defined in words where they appear.

Every tab shows one *Symbols* line under its figure: each symbol its panels, legends, narration
and help use, with its meaning (issue 19: "w*: a unit vector that separates the data with the
largest margin", not a bare ``w*``). A symbol is declared once here, with the pattern that finds
it in on-screen text (the tests check that a tab defines every symbol it shows); a tab may give
a symbol its own meaning (``γ`` is the margin of ``w*`` in the Perceptron tab, the
distribution's margin in the Generalization tab). The same definitions, with their sources, are
in ``docs/mathematics.md#symbols``.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, replace

__all__ = ["Symbol", "SYMBOLS", "TAB_SYMBOLS", "symbols_text", "symbols_html", "symbols_widget"]


@dataclass(frozen=True)
class Symbol:
    """One symbol or term: as written on screen, a pattern that finds it, and its meaning."""

    name: str
    pattern: str
    meaning: str

    def found_in(self, text: str) -> bool:
        return re.search(self.pattern, text) is not None


def _sym(name: str, pattern: str, meaning: str) -> Symbol:
    return Symbol(name, pattern, meaning)


#: Every symbol, once. Patterns look for the symbol as the tabs write it.
SYMBOLS: dict[str, Symbol] = {s.name: s for s in [
    _sym("f(x)", r"\bf\(x\)|\bf ≥|\bf <", "the score ⟨w, x⟩ + b (the point is predicted +1 when f(x) ≥ 0)"),
    _sym("y·f(x)", r"(?<!z = )y·f\(x\)|yᵢ\(⟨w, xᵢ⟩ \+ b\)|yᵢ f\(xᵢ\)",
         "the functional margin, positive when the point is on its correct side"),
    _sym("η", r"η(?! = N)", "the step size of an update"),
    _sym("t", r"\(t − ", "the threshold of the rule's test y·f(x) ≤ t"),
    _sym("forget γ", r"forget γ|γ·w",
         "the margin rule's forgetting rate: on a margin mistake w ← γ·w + η·y·x, else w stays; "
         "the SGD step on the hinge loss with the penalty (λ/2)‖w‖², λ = (1 − γ)/η, "
         "shrinks w at every step (the rule Soft-margin SVM by SGD with ρ = λ/2)"),
    _sym("ρ", r"ρ", "the weight of the penalty ρ‖w‖²"),
    _sym("R", r"R²|\b2R\b|\(RB\)", "the largest ‖x‖ of the data"),
    _sym("x̃, w̃", r"[xw]̃", "the point and the weights with the offset folded in, (x, 1) and (w, b)"),
    _sym("w*", r"w\*", "a separator of length 1 with the largest margin"),
    _sym("γ", r"γ(?!\(S\))(?!·w)", "the margin of w*, the smallest y·⟨w*, x̃⟩"),
    _sym("H", r"\bH²|η²H", "the largest ‖x̃‖ (in Sayed's bound)"),
    _sym("D", r"\bD²|\bD = ", "the largest ‖x‖ (in Hardt & Recht's bound)"),
    _sym("B", r"\(RB\)", "Cornwell's shortest w̃ with every y·f(x) ≥ 1, of length 1/γ, so (RB)² = H²/γ²"),
    _sym("u", r"\bu·|updates u\b|\(a \+ u", "the number of updates so far"),
    _sym("a, c", r"\ba = ⟨|\bc = ‖", "the start's share of the proof, a = ⟨w*, w̃₀⟩ and c = ‖w̃₀‖²"),
    _sym("γ(S)", r"γ\(S\)", "the margin of the data, the largest margin of any separator (1/‖w*‖ of "
         "the hard-margin SVM)"),
    _sym("support vector", r"[Ss]upport vector",
         "a point with y·f(x) ≤ 1, on the band's edge or inside"),
    _sym("αᵢ", r"α", "point i's dual weight, with w = Σ αᵢ yᵢ xᵢ"),
    _sym("sᵢ", r"sᵢ|\bslack",
         "point i's slack, max(0, 1 − yᵢ f(xᵢ)): how far it falls short of its edge of the band"),
    _sym("C", r"(?<![\w(])C(?![\w(])", "the soft-margin cost, the weight of the total slack Σ sᵢ"),
    _sym("N", r"(?<![\w(])N(?![\w(])", "the number of points"),
    _sym("Sayed's η", r"η = N", "his soft-margin weight, η = N·C (not a step size)"),
    _sym("P", r"\bP = ρ|min P", "the SVM objective, ρ‖w‖² + the mean hinge loss"),
    _sym("R_emp, #SV", r"R_emp|#SV", "the training error rate and the number of support vectors"),
    _sym("support path", r"[Ss]upport path", "R_emp and #SV/N of the soft-margin SVM as C varies"),
    _sym("M", r"(?<![\w(])M(?![\w(])|ᴹ", "the dimension of the points"),
    _sym("S(M, N)", r"S\(M, N\)",
         "the number of labellings (dichotomies) of N points that a hyperplane realises"),
    _sym("P(M, N)", r"P\(M, N\)", "S(M, N) / 2ᴺ, the chance that a random labelling is separable"),
    _sym("C(n, m)", r"C\(N−1, m\)", "a binomial coefficient, n choose m"),
    _sym("general position", r"[Gg]eneral position", "no M + 1 of the points on one hyperplane"),
    _sym("Farkas certificate", r"Farkas|certificate|★",
         "a point that is an average of the +1 points and also of the −1 points, "
         "which proves that no line separates them"),
    _sym("hull", r"\bhulls?\b", "the smallest convex polygon around a class's points"),
    _sym("h₁, h₂", r"h₁|h₂", "the outputs of the two hidden perceptrons"),
    _sym("K, c", r"K\(|kernel c|\+ c\)\^d", "the kernel K(x, x′) = (⟨x, x′⟩ + c)^d, of degree d"),
    _sym("pocket", r"[Pp]ocket", "the iterate with the fewest training mistakes so far"),
    _sym("z", r"\bz = y", "the functional margin y·f(x), positive when the point is on its correct side"),
    _sym("n", r"\(n ?\+ ?1\)|\bsizes? n\b|Sₙ", "the number of training points (Sₙ: the training set)"),
    _sym("d", r"\bdimension d\b|\(d ?\+ ?1\)", "the dimension of the points"),
    _sym("m", r"E\[m|\bm the\b", "the number of margin mistakes of the run on all n + 1 points"),
    _sym("margin mistake", r"margin mistake", "a step with y·⟨w, x⟩ < 1, wrong or right by too little"),
    _sym("δ", r"δ", "the slack allowed by the uniform (VC) bound"),
]}


def _tab(names: tuple, meanings: dict | None = None) -> tuple[Symbol, ...]:
    """A tab's symbols, in order; ``meanings`` gives some of them the tab's own meaning."""
    meanings = dict(meanings or {})
    out = tuple(replace(SYMBOLS[n], meaning=meanings.pop(n)) if n in meanings else SYMBOLS[n]
                for n in names)
    if meanings:
        raise ValueError(f"meanings for symbols the tab does not list: {sorted(meanings)}")
    return out


#: The symbols each tab defines, in the order its Symbols line gives them.
TAB_SYMBOLS: dict[str, tuple[Symbol, ...]] = {
    "perceptron": _tab(("f(x)", "y·f(x)", "η", "t", "forget γ", "ρ", "R", "x̃, w̃", "w*", "γ", "H",
                        "D", "B", "u", "a, c", "pocket", "hull", "M"),
                       {"M": "the number of features of the points (the data's dimension)"}),
    "margins": _tab(("f(x)", "y·f(x)", "w*", "γ(S)", "support vector", "αᵢ", "sᵢ", "C", "N",
                     "Sayed's η", "ρ", "P", "η", "R_emp, #SV", "support path", "hull",
                     "Farkas certificate"),
                    {"η": "the step size of the SGD rule (Sayed's μ)",
                     "w*": "the max-margin weights; the margin is 1/‖w*‖"}),
    "cover": _tab(("N", "M", "S(M, N)", "P(M, N)", "C(n, m)", "general position", "y·f(x)"),
                  {"y·f(x)": "yᵢ(⟨w, xᵢ⟩ + b), point i's functional margin; the separability LP asks "
                             "for at least 1 at every point"}),
    "xor": _tab(("f(x)", "y·f(x)", "η", "hull", "Farkas certificate", "H", "γ", "pocket",
                 "h₁, h₂", "K, c", "αᵢ"),
                {"γ": "the margin of a separator; XOR has none, as no line separates it",
                 "H": "the largest ‖(x, 1)‖",
                 "αᵢ": "the number of updates the kernel perceptron made on point i"}),
    "generalization": _tab(("z", "f(x)", "η", "n", "d", "D", "γ", "γ(S)", "m", "margin mistake",
                            "δ", "pocket"),
                           {"D": "the largest ‖x‖ (here every ‖x‖ = 1)",
                            "γ": "the margin the distribution guarantees, set by the slider"}),
}


def symbols_text(tab: str) -> str:
    """The tab's Symbols line as plain text: ``"Symbols. w*: …; γ: …."``."""
    if tab not in TAB_SYMBOLS:
        raise ValueError(f"unknown tab {tab!r}; expected one of {sorted(TAB_SYMBOLS)}")
    return "Symbols. " + "; ".join(f"{s.name}: {s.meaning}" for s in TAB_SYMBOLS[tab]) + "."


def symbols_html(tab: str) -> str:
    """The Symbols line as HTML, each symbol in italics."""
    symbols_text(tab)  # validates ``tab``
    items = "; ".join(f"<i>{html.escape(s.name)}</i>: {html.escape(s.meaning)}"
                      for s in TAB_SYMBOLS[tab])
    return f"<div class='pe-help pe-symbols'><b>Symbols.</b> {items}.</div>"


def symbols_widget(tab: str):
    """An ``ipywidgets.HTML`` with the tab's Symbols line."""
    import ipywidgets as W

    return W.HTML(symbols_html(tab))
