"""HTML for the Cover tab's tables (selectable text, read by screen readers as tables): the
recursion table filling in, Sayed's Table 60.3 with sources, and the formulas with theirs."""

from __future__ import annotations

import html

from ...cover import RecursionTable

__all__ = ["FORMULAS", "boolean_html", "recursion_html", "big"]

FORMULAS = "<br>".join(html.escape(s) for s in (
    "S(M, N) = 2 Σₘ₌₀ᴹ C(N−1, m) for N > M + 1, else 2ᴺ: separable dichotomies of N points in "
    "general position in ℝᴹ, affine classifiers (Sayed (60.65); Cover 1965).",
    "The fraction separable, P(M, N) = S(M, N) / 2ᴺ (Sayed (60.78)); P = 1/2 at N = 2(M + 1), "
    "the capacity (Sayed (60.81)).",
    "S(M, N + 1) = S(M, N) + S(M − 1, N) (Sayed (60.73), the step of Cover's proof).",
    "General position: no M + 1 of the points on one hyperplane (Sayed, before (60.65)).",
    "Boolean functions: 2^(2ᴹ) in all; separable counts from Muroga (1971) (Sayed Table 60.3, "
    "whose total for M = 4 should read 65,536); bound S(M, 2ᴹ) ≤ 2^(M²) (Sayed (60.85)).",
    "Monte Carlo: N standard Gaussian points in ℝᴹ, labels ±1 at random, separability "
    "decided by the LP yᵢ(⟨w, xᵢ⟩ + b) ≥ 1 (Sayed P60.4); error bars ± 2 standard errors.",
))

_CSS = ("<style>.pe-cover-table table{border-collapse:collapse;margin:4px 0}"
        ".pe-cover-table td,.pe-cover-table th{border:1px solid #ccc;padding:2px 7px;"
        "text-align:right;font-variant-numeric:tabular-nums}"
        ".pe-cover-table .now{background:#F0E442;font-weight:700;outline:2px solid #000}"
        ".pe-cover-table .src{background:#D6ECF8}"
        ".pe-cover-table .edge{color:#555}"
        ".pe-cover-table .todo{color:#999}"
        ".pe-cover-table caption{text-align:left;padding:2px 0}</style>")


def big(n: int) -> str:
    """An integer exactly when it has at most 20 digits, else ``≈ 1.158 × 10^77``."""
    if len(str(n)) <= 20:
        return f"{n:,}"
    s = f"{n:.4e}"
    mant, exp = s.split("e")
    return f"≈ {mant} × 10^{int(exp)}"


def recursion_html(t: RecursionTable, step: int) -> str:
    """The table with the edges and the first ``step`` interior cells filled; the last cell
    filled is marked, and its two summands."""
    interior = [(m, N) for m, N in t.order if not t.is_edge(m, N)]
    filled = set(interior[:step])
    now = interior[step - 1] if step else None
    src = {(now[0], now[1] - 1), (now[0] - 1, now[1] - 1)} if now else set()
    head = "".join(f"<th scope='col'>N = {N}</th>" for N in range(1, t.N_max + 1))
    rows = []
    for m in range(t.M_max + 1):
        cells = []
        for N in range(1, t.N_max + 1):
            if t.is_edge(m, N):
                cls, text = "edge", str(t.S[m, N - 1])
            elif (m, N) in filled:
                cls, text = "", str(t.S[m, N - 1])
            else:
                cls, text = "todo", "·"
            if (m, N) == now:
                cls = "now"
            elif (m, N) in src:
                cls = "src"
            cells.append(f"<td class='{cls}'>{text}</td>")
        rows.append(f"<tr><th scope='row'>M = {m}</th>{''.join(cells)}</tr>")
    cap = ("S(M, N), filled by S(M, N + 1) = S(M, N) + S(M − 1, N) (Sayed (60.73)) from the "
           "edges S(M, 1) = 2, S(0, N) = 2; the cell just filled is outlined, its two summands "
           "shaded. Where N ≤ M + 1 every dichotomy is separable: S = 2ᴺ (60.77).")
    return (f"{_CSS}<table><caption>{html.escape(cap)}</caption><tr><th></th>{head}</tr>"
            f"{''.join(rows)}</table>")


def boolean_html(rows) -> str:
    """Sayed's Table 60.3 with each count's source and the bound (60.85)."""
    head = ("<tr><th scope='col'>M</th><th scope='col'>functions 2^(2ᴹ)</th>"
            "<th scope='col'>linearly separable</th><th scope='col'>source</th>"
            "<th scope='col'>fraction</th><th scope='col'>bound 2^(M²)</th>"
            "<th scope='col'>bound holds</th></tr>")
    body = []
    for r in rows:
        src = "counted here (LP enumeration)" if r.counted else "Muroga (1971), literature"
        holds = "yes" if r.bound_holds else f"no: {r.separable} > {r.bound}"
        body.append(f"<tr><th scope='row'>{r.M}</th><td>{big(r.functions)}</td>"
                    f"<td>{big(r.separable)}</td><td style='text-align:left'>{src}</td>"
                    f"<td>{r.fraction:.4g}</td><td>{big(r.bound)}</td><td>{html.escape(holds)}</td></tr>")
    cap = ("Linearly separable Boolean functions of M inputs (Sayed Table 60.3; Muroga 1971). "
           "The vertices of {0,1}ᴹ are not in general position, so Cover's formula does not "
           "apply. Sayed prints 65,356 functions for M = 4; the total is 2¹⁶ = 65,536.")
    return f"{_CSS}<table><caption>{html.escape(cap)}</caption>{head}{''.join(body)}</table>"
