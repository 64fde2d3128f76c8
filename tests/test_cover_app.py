"""The Cover tab without a browser: its model, its view, Monte Carlo in the background and the
hand-off of dichotomies and Boolean functions to the Perceptron tab."""

import threading
import time

import numpy as np
import pytest

from explorer import cover  # noqa: E402
from explorer.app import Dashboard  # noqa: E402
from explorer.app.cover import SPEC, CoverModel, CoverView  # noqa: E402
from explorer.cover.counting import cover_count, cover_fraction, dichotomies  # noqa: E402


@pytest.fixture(scope="module")
def view():
    return CoverView()


def _click(view, ax, x, y):
    """A click in the page's figure, as the page sends it: the panel of ``ax``, in its data
    coordinates, in the page's pointer mode (explorer.app.pagefigure)."""
    panel = next(name for name, a in view.figure.panel_axes().items() if a is ax)
    view.page._on_msg(view.page, {"type": "pointer", "panel": panel, "x": float(x),
                                  "y": float(y), "mode": view.page.pointer_mode}, [])


def test_curves_drawn_are_cover_fraction(view):
    view.w_view.value = "curves"
    view.text["ms"].value = "3, 50, 1000"
    assert view.model.ms == [3, 50, 1000]
    for M in (3, 50, 1000):
        x, P = view.figure.curves.curve_xy(M)
        N = np.rint(x * (M + 1)).astype(int)
        assert np.array_equal(P, [cover_fraction(int(n), M) for n in N])
        assert P[list(N).index(2 * (M + 1))] == 0.5
    view.w_xaxis.value = "n"
    x, P = view.figure.curves.curve_xy(50)
    assert x[0] == 1 and view.figure.curves.ax.get_xscale() == "log"
    assert P[list(x).index(102)] == 0.5
    view.w_xaxis.value = "ratio"


@pytest.mark.parametrize("text,words", [("1, 2, x", "M values must be whole numbers"),
                                        ("0, 5", "out of range"),
                                        ("2.5", "not a whole number"),
                                        ("1,2,3,4,5,6,7,8,9", "at most 8"),
                                        ("5, 5", "distinct")])
def test_bad_m_values_are_refused_and_kept(view, text, words):
    view.w_view.value = "curves"
    view.text["ms"].value = "1, 2"
    before = view.model.curves
    view.text["ms"].value = text
    assert words in view.messages.refused
    assert view.model.curves is before and view.text["ms"].value == "1, 2"


def test_m_change_redraws(view):
    view.w_view.value = "curves"
    n = view.changed
    view.text["ms"].value = "7"
    assert view.changed > n and view.figure.curves.Ms == (7,)


def test_grid_count_equals_dichotomies_and_general_position(view):
    view.w_view.value = "dichotomies"
    m = view.model
    view.text["n_points"].value = "5"
    d = dichotomies(m.X)
    assert m.dich.count == d.count == cover_count(5, 2) == 22
    tiles = view.figure.tiles
    assert tiles.count == 32 and len(tiles.bad.get_paths()) == 32 - d.count
    assert len(tiles.seps.get_segments()) == d.count - 2  # the two constant ones have no line
    assert "as Cover's formula S(2, 5) = 22 says" in view.messages.text


def test_three_on_a_line_falls_below_the_formula(view):
    view.w_view.value = "dichotomies"
    view.b_line.click()
    m = view.model
    assert not m.dich.general_position and m.dich.count == 12 < cover_count(4, 2)
    assert "below Cover's S(2, 4) = 14" in view.messages.text
    assert len(view.figure.plane.lines.get_segments()) == 1  # the line through 0, 1, 2


def test_clicks_place_and_remove_points(view):
    view.w_view.value = "dichotomies"
    view.b_random.click()
    m = view.model
    n = len(m.X)
    assert not m.points and not view.text["n_points"].disabled
    view.w_click.value = "add"
    _click(view, view.figure.plane.ax, 0.1, -0.2)
    assert len(m.X) == n + 1 and m.points[-2:] == [0.1, -0.2]
    assert view.text["n_points"].disabled
    view.w_click.value = "remove"
    _click(view, view.figure.plane.ax, 0.1, -0.2)
    assert len(m.X) == n
    view.w_click.value = "add"


def test_more_than_16_points_is_explained(view):
    view.w_view.value = "dichotomies"
    view.text["n_points"].value = "17"
    assert "at most 16" in view.messages.refused and "2^N" in view.messages.refused
    m = view.model
    m.update(points=list(np.linspace(-1, 1, 32)))
    assert len(m.X) == 16
    assert not m.add_point(0.5, 0.5)
    assert "at most 16" in m.message and len(m.X) == 16
    view.w_page.value = 3  # 65 536 dichotomies: pages of 64
    assert list(m.page_ids[:2]) == [128, 129] and view.figure.tiles.count == 64
    m.random_set()


def test_link_opens_a_page_of_dichotomies():
    v = CoverView()
    values, problems = SPEC.from_query("tab=cover&view=dichotomies&n_points=9&page=3")
    assert problems == [] and v.load_state(values)
    assert v.model.page == 3 and v.model.page_ids[0] == 128 and v.w_page.value == 3
    assert v.figure.tiles.ax.get_title(loc="left").startswith(f"{v.model.dich.count} of 512 separable = ")
    v.model.update(n_points=8)  # new points: back to the first page
    assert v.model.page == 1


def test_tile_click_and_button_open_the_perceptron_tab():
    d = Dashboard(query="tab=cover&view=dichotomies&n_points=4&seed=2")
    v = d.views["cover"]
    tiles = v.figure.tiles
    j = int(np.flatnonzero(v.model.dich.separable)[3])
    k = list(v.model.page_ids).index(j)
    x, y = k % tiles.ncols + 0.5, -(k // tiles.ncols) - 0.5
    _click(v, tiles.ax, x, y)
    assert d.tabs.selected_index == 0
    p = d.views["perceptron"].model
    np.testing.assert_allclose(p.X, v.model.X)
    np.testing.assert_array_equal(p.y, v.model.dich.labelings[j])
    d.tabs.selected_index = d.tab_keys.index("cover")
    v.w_dich.value = 0
    v.b_open.click()  # all one class: refused with a reason
    assert "same label" in v.messages.refused


def test_boolean_view_table_and_xor_handoff():
    d = Dashboard(query="tab=cover&view=boolean")
    v = d.views["cover"]
    assert v.model.boolean_rows()[1] is not None  # counted in full outside a kernel
    html = v.table.value
    assert "counted here" in html and "Muroga (1971)" in html and "no: 4 &gt; 2" in html
    assert "1,882" in html and "17,561,539,552,946" in html
    assert len(v.figure.bool_tiles.bad.get_paths()) == 2
    v.w_bool.value = 6
    v.b_bool.click()
    p = d.views["perceptron"].model
    np.testing.assert_array_equal(p.X, [[0, 0], [0, 1], [1, 0], [1, 1]])
    np.testing.assert_array_equal(p.y, [-1, 1, 1, -1])


def test_recursion_fills_in_with_the_timeline(view):
    view.w_view.value = "recursion"
    m = view.model
    view.page.step = 0  # as the page writes the step it shows, once settled (Reset)
    assert m.step == 0 and m.n_steps == 4 * 9
    view.page.step = 1  # Step
    assert m.step == 1 and "S(1, 2) = S(1, 1) + S(0, 1) = 2 + 2 = 4" in view.messages.text
    assert view.handle_key("End") and m.step == m.n_steps
    # the last cell, S(4, 10) = 2 (1 + 9 + 36 + 84 + 126), from S(4, 9) = 326 and S(3, 9) = 186
    assert cover_count(10, 4) == 512
    assert "<td class='src'>186</td>" in view.table.value
    assert "<td class='src'>326</td><td class='now'>512</td>" in view.table.value
    view.text["rec_n"].value = "30"
    assert "largest N must be a whole number from 2 to 24" in view.messages.refused


def test_monte_carlo_runs_in_the_background_and_stops():
    m = CoverModel(ms=[1, 2], trials=40, seed=3)
    posted = []
    lock = threading.Lock()

    def post(fn):  # as the kernel would: queue the work for the main thread
        with lock:
            posted.append(fn)

    assert m.start_monte_carlo(post)
    assert m.mc_running and m.mc_busy
    assert not m.start_monte_carlo(post) and "already going" in m.message
    time.sleep(0.3)
    m.stop_monte_carlo()
    assert m.wait_monte_carlo(10)
    for fn in list(posted):
        fn()
    assert not m.mc_running and "Stopped after" in m.mc_note
    kept = m.mc
    full = cover.monte_carlo_points(cover.monte_carlo_plan([1, 2], trials=40), trials=40, seed=3)
    assert kept == full.points[:len(kept)]  # reproducible from the seed, wherever it stopped
    assert m.start_monte_carlo()  # continues with the missing points only
    m.wait_monte_carlo(60)
    assert sorted(m.mc, key=lambda p: (p.M, p.N)) == sorted(full.points, key=lambda p: (p.M, p.N))
    assert "Monte Carlo done" in m.mc_note
    m.update(seed=4)
    assert m.mc == ()


def test_monte_carlo_refuses_large_m():
    m = CoverModel(ms=[1000])
    assert not m.start_monte_carlo() and "M <= 100" in m.message


def test_state_round_trip():
    v = CoverView()
    v.model.update(view="dichotomies", ms="2, 40", xaxis="n", seed=5, rec_m=3)
    v.model.add_point(0.25, 0.5)
    values, problems = SPEC.from_query(SPEC.to_query(v.save_state()))
    assert problems == []
    other = CoverView()
    assert other.load_state(values)
    np.testing.assert_array_equal(other.model.X, v.model.X)
    assert other.model.ms == [2, 40] and other.model.xaxis == "n" and other.model.rec_m == 3
    assert other.model.view == "dichotomies"
    assert not other.load_state({"ms": [1, 1]}) and "distinct" in other.model.message


def _closed_form(M: int, N: int):
    """Cover's counting function, written out: S(M, N) = 2 Σ_{m ≤ M} C(N − 1, m) labellings of
    N points in general position are separable in R^M (Sayed (60.65)), of 2^N; as a fraction."""
    from fractions import Fraction
    from math import comb

    return Fraction(2 * sum(comb(N - 1, m) for m in range(M + 1)), 2 ** N)


def test_the_narration_states_the_n_it_quotes_and_the_curve_marks_it_there(view):
    """Issue 30, item 9: "At N = 2.5(M+1) P is … 0.23 (M = 2)" quoted P(2, 8) at 7.5 points
    while the curve read 0.29 at 2.5. Each M's count of points is now named, P is Cover's at
    that count, and each curve marks it at N / (M + 1), a vertex of the curve drawn."""
    import re

    view.w_view.value = "curves"
    view.text["ms"].value = "1, 2, 5, 20, 100"
    for mode in ("ratio", "n"):
        view.w_xaxis.value = mode
        text = view.messages.text
        quoted = [(int(M), int(N), float(v)) for M, N, v in
                  re.findall(r"P\((\d+), (\d+)\) = ([0-9.e−-]+)", text.replace("−", "-"))]
        assert [q[0] for q in quoted] == [1, 2, 5, 20, 100], text
        marks = np.column_stack(view.figure.curves.past_dots.get_data())
        assert len(marks) == len(quoted)
        for (M, N, v), (x, y) in zip(quoted, marks, strict=True):
            assert 2.5 * (M + 1) <= N < 2.5 * (M + 1) + 1  # the first whole N at 2.5(M + 1)
            P = _closed_form(M, N)
            assert v == float(f"{float(P):.2g}")
            assert x == (N / (M + 1) if mode == "ratio" else N) and y == float(P)
            cx, cy = view.figure.curves.curve_xy(M)
            at = np.flatnonzero(cx == x)
            assert len(at) == 1 and cy[at[0]] == y  # on the curve, at one of its points
        assert "P(2, 8) = 0.23" in text and "P(20, 53) = 0.063" in text
    view.w_xaxis.value = "ratio"


def test_the_mathematics_page_quotes_cover_at_whole_counts():
    """docs/mathematics.md says the same numbers, each at a whole count of points."""
    import re
    from pathlib import Path

    doc = (Path(__file__).parents[1] / "docs" / "mathematics.md").read_text()
    part = doc[doc.index("a quarter of the capacity further on"):][:600]
    quoted = re.findall(r"\$P\((\d+), (\d+)\) = ([0-9.]+)\$", part)
    assert len(quoted) == 4, part
    for M, N, v in quoted:
        M, N = int(M), int(N)
        assert N == cover.past_capacity(M) and 2.5 * (M + 1) <= N < 2.5 * (M + 1) + 1
        assert float(v) == float(f"{float(_closed_form(M, N)):.3g}")
