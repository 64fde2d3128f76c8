"""The Cover tab's core (explorer.cover) against closed forms, the counting module and itself."""

import threading
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from explorer import cover
from explorer.cover.counting import MUROGA, cover_count, cover_fraction, dichotomies


def test_curves_equal_cover_fraction_exactly():
    curves = cover.cover_curves([1, 2, 5, 20, 100, 1000])
    assert [c.M for c in curves] == [1, 2, 5, 20, 100, 1000]
    for c in curves:
        assert len(c.N) == int(np.ceil(3 * (c.M + 1))) + 1
        sample = np.unique(np.r_[0, 1, c.M, c.M + 1, c.M + 2, c.capacity, len(c.N) - 1,
                                 np.linspace(0, len(c.N) - 1, 25).astype(int)])
        for N in sample:
            assert c.P[N] == cover_fraction(int(N), c.M)
        assert c.P[c.capacity] == 0.5  # Sayed (60.81): half separable at N = 2(M + 1)
    # the fall sharpens: P at 1.5 and 2.5 times (M + 1) moves towards 1 and 0 as M grows
    lo = [c.P[int(1.5 * (c.M + 1))] for c in curves[2:]]  # from M = 5 (N a whole number)
    hi = [c.P[int(2.5 * (c.M + 1))] for c in curves[2:]]
    assert lo == sorted(lo) and hi == sorted(hi, reverse=True)
    assert hi[-1] < 1e-20 and lo[-1] > 1 - 1e-12


def test_closed_form_small_cases():
    c = cover.cover_curves([2])[0]
    assert c.P[4] == Fraction(14, 16)  # Sayed Fig. 60.12
    for N in range(1, 10):
        assert cover_count(N, 1) == 2 * N and c.P[N] == Fraction(cover_count(N, 2), 2**N)


@pytest.mark.parametrize("bad,kind", [([], ValueError), ([0], ValueError), ([1001], ValueError),
                                      ([1.5], TypeError), ("1,2", TypeError), ([2, 2], ValueError),
                                      (list(range(1, 10)), ValueError)])
def test_bad_m_values_are_refused(bad, kind):
    with pytest.raises(kind, match="expected|must"):
        cover.cover_curves(bad)


def test_recursion_table_equals_the_closed_form_and_fills_in_order():
    t = cover.recursion_table(6, 14)
    for m in range(7):
        for N in range(1, 15):
            assert t.S[m, N - 1] == cover_count(N, m)
            if N <= m + 1:
                assert t.S[m, N - 1] == 2**N
    assert len(t.order) == 7 * 14 and len(set(t.order)) == len(t.order)
    seen = set()
    for m, N in t.order:  # every cell after its two summands
        if not t.is_edge(m, N):
            assert (m, N - 1) in seen and (m - 1, N - 1) in seen
        seen.add((m, N))
    with pytest.raises(ValueError, match="N_max must be <= 24"):
        cover.recursion_table(3, 25)


def test_grid_count_equals_dichotomies_and_collinear_falls_below():
    X = cover.random_points(5, seed=3)
    d = dichotomies(X)
    assert d.general_position and d.count == cover_count(5, 2) == d.formula
    idx = np.flatnonzero(d.separable)
    w, b = cover.separators(X, d.labelings, idx)
    drawn = ~np.isnan(b)
    assert drawn.sum() == d.count - 2  # all but the two constant labelings get a line
    for k in np.flatnonzero(drawn):
        y = d.labelings[idx[k]]
        assert np.all(y * (X @ w[k] + b[k]) > 0)
    line = np.array([[-0.8, -0.8], [0.0, 0.0], [0.8, 0.8], [0.6, -0.6]])
    dl = dichotomies(line)
    assert not dl.general_position and dl.count < cover_count(4, 2)
    assert dl.count == 12  # the middle point of the three cannot differ from both ends


def test_monte_carlo_is_reproducible_per_point_and_stoppable():
    plan = cover.monte_carlo_plan([1, 2], trials=30)
    assert (2, 6) in plan and all(M in (1, 2) for M, _ in plan)
    full = cover.monte_carlo_points(plan, trials=30, seed=7)
    assert not full.stopped and len(full.points) == len(plan)
    calls = {"n": 0}

    def stop():  # stop in the middle of the fourth point
        calls["n"] += 1
        return calls["n"] > 3 * 30 + 10

    cut = cover.monte_carlo_points(plan, trials=30, seed=7, stop=stop)
    assert cut.stopped and len(cut.points) == 3
    assert cut.points == full.points[:3]
    alone = cover.monte_carlo_point(plan[5][1], plan[5][0], trials=30, seed=7)
    assert alone == full.points[5]
    other = cover.monte_carlo_points(plan, trials=30, seed=8)
    assert other.points != full.points


def test_monte_carlo_agrees_with_the_formula():
    pt = cover.monte_carlo_point(8, 2, trials=400, seed=1)
    assert pt.formula == cover_fraction(8, 2) == Fraction(2 * (1 + 7 + comb(7, 2)), 2**8)
    assert abs(pt.estimate - pt.formula) < 4 * max(pt.stderr, 0.01)


def test_monte_carlo_limits_are_explained():
    with pytest.raises(ValueError, match="M <= 100"):
        cover.monte_carlo_plan([1000], trials=10)
    with pytest.raises(ValueError, match="at most 60000 LP checks"):
        cover.monte_carlo_plan([1, 2, 5, 20, 100], trials=2000)


def test_stop_from_another_thread():
    ev = threading.Event()
    ev.set()
    run = cover.monte_carlo_points(cover.monte_carlo_plan([2], trials=10), trials=10, seed=0,
                                   stop=ev.is_set)
    assert run.stopped and run.points == ()


def test_boolean_table_and_functions():
    rows = cover.boolean_table(count_up_to=3)
    assert [r.separable for r in rows] == [MUROGA[m] for m in range(1, 9)]
    assert [r.counted for r in rows] == [True] * 3 + [False] * 5
    assert rows[3].functions == 65536 and rows[1].fraction == 14 / 16
    assert [r.bound_holds for r in rows] == [False] + [True] * 7  # 4 > 2^(1^2)
    V, d = cover.boolean_functions_2()
    assert d.count == 14
    assert sorted(np.flatnonzero(~d.separable)) == [6, 9]
    assert cover.BOOLEAN_NAMES_2[6] == "XOR" and cover.BOOLEAN_NAMES_2[9] == "XNOR"
    for j, name in ((8, "AND"), (14, "OR"), (7, "NAND")):  # label +1 where the function is 1
        f = (d.labelings[j] > 0).astype(int)
        a1, a2 = V[:, 0].astype(int), V[:, 1].astype(int)
        want = {"AND": a1 & a2, "OR": a1 | a2, "NAND": 1 - (a1 & a2)}[name]
        assert cover.BOOLEAN_NAMES_2[j] == name and np.array_equal(f, want)


def test_words_for_the_notebook():
    from explorer import cover as C

    text = C.describe_curves(C.cover_curves([1, 1000]))
    assert "M =    1: P at 2(M+1) = 0.5" in text and "M = 1000: P at 2(M+1) = 0.5" in text
    assert C.recursion_matches_formula(C.recursion_table(4, 8))
    rows = C.boolean_table(count_up_to=2)
    lines = C.describe_boolean_table(rows).splitlines()
    assert lines[0].startswith("M = 1: 4 of 2^2 (counted here)") and "bound 2^1 holds: False" in lines[0]
    assert "Muroga (1971)" in lines[2]
    run = C.monte_carlo_points(C.monte_carlo_plan([2], trials=20)[:2], trials=20, seed=0)
    assert len(C.describe_monte_carlo(run).splitlines()) == len(run.points)
