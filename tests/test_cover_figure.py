"""What the Cover figure draws: artists' data read back and compared with the core's results."""

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from explorer import cover
from explorer.cover.counting import cover_fraction, dichotomies
from explorer.plots.cover import CoverFigure
from explorer.plots.dichotomy_grid import PLANE_BOX, collinear_triples


@pytest.fixture(scope="module")
def fig():
    f = Figure()
    FigureCanvasAgg(f)
    cf = CoverFigure(f)
    cf.fit(1040, 547)
    return cf


def _pixels(cf):
    cf.fig.canvas.draw()
    return np.asarray(cf.fig.canvas.buffer_rgba()).copy()


def test_curves_and_capacity_marks(fig):
    curves = cover.cover_curves([2, 10, 1000])
    fig.set_view("curves")
    fig.curves.set_data(curves, mode="ratio")
    for c in curves:
        x, P = fig.curves.curve_xy(c.M)
        np.testing.assert_allclose(x * (c.M + 1), c.N, atol=1e-9)
        assert P[c.capacity] == 0.5 == cover_fraction(c.capacity, c.M)
    caps = np.column_stack(fig.curves.cap_dots.get_data())
    np.testing.assert_array_equal(caps, [[2.0, 0.5]] * 3)
    assert fig.curves.cap_line.get_visible()
    fig.curves.set_data(curves, mode="n")
    caps = np.column_stack(fig.curves.cap_dots.get_data())
    np.testing.assert_array_equal(caps[:, 0], [6, 22, 2002])
    assert not fig.curves.cap_line.get_visible()
    assert [t.get_text() for t in fig.curves.legend.get_texts()][:3] == ["M = 2", "M = 10",
                                                                          "M = 1000"]
    with pytest.raises(ValueError, match="mode"):
        fig.curves.set_data(curves, mode="log")


def test_changing_m_changes_the_picture(fig):
    fig.set_view("curves")
    fig.curves.set_data(cover.cover_curves([1, 1000]))
    a = _pixels(fig)
    fig.curves.set_data(cover.cover_curves([1, 20]))
    b = _pixels(fig)
    assert np.mean(np.any(a != b, axis=-1)) > 0.001


def test_blitted_m_change_matches_a_full_draw():
    figs = []
    for blit in (True, False):
        f = Figure()
        FigureCanvasAgg(f)
        cf = CoverFigure(f, blit=blit)
        cf.fit(1040, 547)
        figs.append(cf)
    live, ref = figs
    live.curves.set_data(cover.cover_curves([1, 1000]))
    live.redraw(static_key="ratio")
    pts = cover.monte_carlo_points(cover.monte_carlo_plan([3], trials=10), trials=10, seed=0)
    live.curves.set_data(cover.cover_curves([3, 40, 1000]), mc=pts.points)
    live.redraw(static_key="ratio")  # only the curves, dots and legend are drawn again
    ref.curves.set_data(cover.cover_curves([3, 40, 1000]), mc=pts.points)
    got = np.asarray(live.fig.canvas.buffer_rgba()).copy()
    want = _pixels(ref)
    strong = np.any(np.abs(got.astype(int) - want) > 40, axis=-1)
    assert strong.mean() < 5e-4


def test_monte_carlo_error_bars(fig):
    pts = cover.monte_carlo_points(cover.monte_carlo_plan([2], trials=20), trials=20, seed=0)
    fig.curves.set_data(cover.cover_curves([2, 5]), mc=pts.points)
    i = fig.curves.Ms.index(2)
    x, est = fig.curves.mc_dots[i].get_data()
    np.testing.assert_allclose(est, [p.estimate for p in pts.points])
    np.testing.assert_allclose(x, [p.N / 3 for p in pts.points])
    segs = fig.curves.mc_bars[i].get_segments()
    for s, p in zip(segs, pts.points, strict=True):
        assert s[1, 1] - s[0, 1] == pytest.approx(min(p.estimate + 2 * p.stderr, 1)
                                                  - max(p.estimate - 2 * p.stderr, 0))
    assert len(fig.curves.mc_dots[1 - i].get_xdata()) == 0  # no estimates for M = 5


def test_tiles_mark_the_non_separable_and_draw_separators(fig):
    X = np.array([[-0.8, -0.6], [0.0, 0.0], [0.8, 0.6], [0.5, -0.7]])
    d = dichotomies(X)
    ids = np.arange(16)
    w, b = cover.separators(X, d.labelings, ids)
    fig.set_view("dichotomies")
    triples = fig.plane.set_data(X)
    assert triples == collinear_triples(X) == [(0, 1, 2)]
    fig.tiles.set_data(X, d.labelings, d.separable, ids, w=w, b=b)
    assert (fig.tiles.ncols, fig.tiles.nrows) == (4, 4)
    assert len(fig.tiles.bad.get_paths()) == 16 - d.count == 4
    assert len(fig.tiles.seps.get_segments()) == d.count - 2
    n_pos = sum(int((d.labelings[j] > 0).sum()) for j in ids)
    assert len(fig.tiles.pos.get_offsets()) == n_pos
    for k in range(16):  # a click in the middle of tile k finds tile k
        x, y = k % 4 + 0.5, -(k // 4) - 0.5
        assert fig.tiles.tile_at(x, y) == k
    assert fig.tiles.tile_at(5.0, -0.5) is None
    fig.tiles.select(5)
    assert fig.tiles.selected.get_visible()
    assert fig.plane.ax.get_xlim() == PLANE_BOX[:2]


def test_boolean_counts_and_the_failing_bound(fig):
    fig.set_view("boolean")
    rows = cover.boolean_table(count_up_to=2)
    fig.bool_counts.set_data(rows)
    x, y = fig.bool_counts.counted.get_data()
    np.testing.assert_array_equal(x, [1, 2])
    np.testing.assert_allclose(y, np.log2([4, 14]))
    _, bound = fig.bool_counts.bound.get_data()
    np.testing.assert_array_equal(bound, np.arange(1, 9) ** 2)
    assert "the bound fails" in fig.bool_counts.note.get_text()
    assert fig.bool_counts.ax.get_visible() and not fig.curves.ax.get_visible()


def test_views_fit_inside_the_figure(fig):
    for view in ("curves", "dichotomies", "boolean"):
        fig.set_view(view)
        fig.fit(1040, 547, scale=1.0)
        fig.fig.canvas.draw()
        r = fig.fig.canvas.get_renderer()
        for ax in fig.fig.axes:
            if ax.get_visible():
                box = ax.get_tightbbox(r)
                assert box.x0 >= -1 and box.y0 >= -1, (view, ax.get_title())
                assert box.x1 <= fig.fig.bbox.width + 1 and box.y1 <= fig.fig.bbox.height + 1
    with pytest.raises(ValueError, match="view"):
        fig.set_view("table")
