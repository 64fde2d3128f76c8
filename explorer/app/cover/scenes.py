"""What each view of the Cover tab draws and says: the model's data put into a
:class:`~explorer.plots.cover.CoverFigure` (the live one or an export's fresh copy) and the
narration of what it shows. No widgets here."""

from __future__ import annotations

import numpy as np

from ... import cover
from ...cover.counting import cover_count
from ...plots.cover import CoverFigure
from ...plots.dichotomy_grid import collinear_triples
from ...shared.i18n import tr, tr_n
from ..remarks import on_one_line

__all__ = ["fill", "shown_mc", "curves_text", "dichotomy_text", "BOOL_BOX"]

BOOL_BOX = (-0.35, 1.35, -0.35, 1.35)


def fill(m, f: CoverFigure, view: str, *, dichotomy: int, function: int, post=None) -> str:
    """Give ``f`` the data of ``view`` ("curves", "dichotomies" or "boolean") from the model
    ``m``, with the dichotomy and the Boolean function chosen marked; returns the narration.
    ``post`` is passed to :meth:`CoverModel.boolean_rows` (count M = 4 in a thread)."""
    f.set_view(view)
    if view == "curves":
        f.curves.set_data(m.curves, mode=m.xaxis, mc=shown_mc(m))
        return curves_text(m)
    if view == "dichotomies":
        d = m.dich
        f.plane.set_data(m.X)
        f2 = cover_count(d.N, 2)
        sign = "=" if d.count == f2 else "<" if d.count < f2 else ">"
        counts = dict(count=d.count, total=2 ** d.N, sign=sign, N=d.N)
        title = (tr("{count} of {total} separable {sign} S(2, {N}) · page {page} of {pages}")
                 .format(page=m.page, pages=m.n_pages, **counts) if m.n_pages > 1 else
                 tr("{count} of {total} separable {sign} S(2, {N})").format(**counts))
        f.tiles.set_data(m.X, d.labelings, d.separable, m.page_ids, w=m.page_w, b=m.page_b,
                         title=title)
        ids = list(m.page_ids)
        f.tiles.select(ids.index(dichotomy) if dichotomy in ids else None)
        return dichotomy_text(m)
    rows, seconds = m.boolean_rows(post)
    V, d = cover.boolean_functions_2()
    ids = np.arange(16)
    w, b = cover.separators(V, d.labelings, ids)
    f.bool_tiles.set_data(V, d.labelings, d.separable, ids, w=w, b=b, box=BOOL_BOX,
                          names=cover.BOOLEAN_NAMES_2, marked=(6, 9),
                          title=tr("M = 2: 14 of 16 separable"))
    f.bool_tiles.select(int(function))
    f.bool_counts.set_data(rows)
    if seconds is not None:
        return tr("M = 2: 14 of the 16 Boolean functions are linearly separable; XOR and XNOR "
                  "are not (Sayed 60.B). The table counts M ≤ 4 here ({seconds} s) and quotes "
                  "Muroga (1971) beyond.").format(seconds=f"{seconds:.1f}")
    return tr("M = 2: 14 of the 16 Boolean functions are linearly separable; XOR and XNOR are "
              "not (Sayed 60.B). The table counts M ≤ 3 here (M = 4 is being counted…) and "
              "quotes Muroga (1971) beyond.")


def shown_mc(m) -> list:
    """The Monte Carlo estimates of the M values shown, in the order they came."""
    return [p for p in m.mc if p.M in m.ms]


def curves_text(m, shown=None) -> str:
    """The curves view's narration, with the Monte Carlo estimates ``shown`` (default: all)."""
    parts = [f"P({c.M}, {c.past}) = {c.P[c.past]:.2g}" for c in m.curves if c.past is not None]
    text = tr("Every curve is exactly 1/2 at the capacity N = 2(M + 1). A quarter of the "
              "capacity further on, at the first whole N ≥ 2.5(M + 1) (the diamonds), "
              "{values}: the larger M, the sharper the fall.").format(values=", ".join(parts))
    shown = shown_mc(m) if shown is None else shown
    if shown:
        z = max(abs(p.estimate - p.formula) / max(p.stderr, 0.5 / p.trials) for p in shown)
        text += " " + tr_n("Monte Carlo: {n} point, the farthest {z} standard errors from the "
                           "formula.", "Monte Carlo: {n} points, the farthest {z} standard "
                           "errors from the formula.", len(shown)).format(n=len(shown),
                                                                          z=f"{z:.1f}")
    return text


def _points(idx) -> str:
    """``"points 1, 2 and 4"`` (1-based, as the narration numbers them), shortened after 8."""
    nums = [str(int(i) + 1) for i in idx]
    if len(nums) == 1:
        numbers = nums[0]
    elif len(nums) > 8:
        numbers = tr("{items}, …").format(items=", ".join(nums[:8]))
    else:
        numbers = tr("{items} and {last}").format(items=", ".join(nums[:-1]), last=nums[-1])
    return tr_n("point {numbers}", "points {numbers}", len(nums)).format(numbers=numbers)


def dichotomy_text(m) -> str:
    """The dichotomies view's narration: the count against Cover's formula, and why it falls
    short when the points are not in general position."""
    d = m.dich
    N = d.N
    formula = cover_count(N, 2)
    counts = dict(N=N, count=d.count, total=2 ** N, formula=formula)
    if d.general_position:
        return tr_n("{N} point in general position: {count} of {total} dichotomies are "
                    "separable, as Cover's formula S(2, {N}) = {formula} says.",
                    "{N} points in general position: {count} of {total} dichotomies are "
                    "separable, as Cover's formula S(2, {N}) = {formula} says.", N
                    ).format(**counts)
    tail = (tr("{count} of {total} dichotomies are separable, below Cover's S(2, {N}) = "
               "{formula}, which assumes general position.") if d.count < formula else
            tr("{count} of {total} dichotomies are separable, against Cover's S(2, {N}) = "
               "{formula}, which assumes general position.")).format(**counts)
    _, first, group = np.unique(m.X, axis=0, return_index=True, return_inverse=True)
    group = group.reshape(-1)
    if len(first) == 1:
        return tr("All {N} points are the same point, so every separable dichotomy gives "
                  "them one label: {tail}").format(N=N, tail=tail)
    dup = next((np.flatnonzero(group == g) for g in group if np.sum(group == g) > 1), None)
    if dup is None and on_one_line(m.X):  # all distinct
        return tr("All {N} points lie on one line, which a separating line crosses at most "
                  "once: {tail}").format(N=N, tail=tail)
    if dup is not None:
        return tr("Not in general position ({points} are the same point, which cannot carry "
                  "two labels): {tail}").format(points=_points(dup), tail=tail)
    tri = collinear_triples(m.X)
    if tri:
        return tr("Not in general position ({points} lie on one line): {tail}").format(
            points=_points(tri[0]), tail=tail)
    return tr("Not in general position (some points are degenerate): {tail}").format(tail=tail)
