"""The XOR figure (explorer.plots.xor): what each view draws, checked against the core."""

import io

import numpy as np
import pytest

from explorer import xor
from explorer.plots.xor import XorFigure
from explorer.plots.xor_ways import plane_in_box, zero_segments


@pytest.fixture(scope="module")
def fig():
    f = XorFigure()
    f.fit(1100, 620)
    return f


@pytest.fixture(scope="module")
def scene():
    return xor.build_scene(xor.XOR, coding="01")


def test_plane_in_box_lies_on_the_plane_and_in_the_box():
    w, b = np.array([1.0, -2.0, 0.5]), 0.3
    P = plane_in_box(w, b, [-1, -1, -1], [1, 1, 1])
    assert len(P) >= 3
    np.testing.assert_allclose(P @ w + b, 0, atol=1e-9)
    assert np.all(np.abs(P) <= 1 + 1e-9)
    assert len(plane_in_box(w, 10.0, [-1, -1, -1], [1, 1, 1])) == 0  # misses the box


def test_zero_segments_follow_the_hyperbola():
    xs = ys = np.linspace(-2, 2, 81)
    gx, gy = np.meshgrid(xs, ys)
    segs = zero_segments(xs, ys, gx * gy - 0.5)
    pts = np.vstack(segs)
    np.testing.assert_allclose(pts[:, 0] * pts[:, 1], 0.5, atol=0.02)


def test_cycling_view_marks_the_cycle_and_the_pocket(fig, scene):
    fig.set_scene(scene, "cycling")
    text = fig.show(4)
    assert "cycle of length 4 found at step 4" in fig.upd_note.get_text()
    assert "cycle of length 4 found at step 4" in text
    assert fig.show(3) and fig.upd_note.get_text() == ""
    assert fig.ax_upd.get_visible() and not fig.lifted.ax.get_visible()


def test_proof_view_star_is_the_centre_of_the_0_1_square(fig, scene):
    fig.set_scene(scene, "proof")
    fig.show(0)
    x, y = fig.cert.get_data()
    np.testing.assert_allclose([x[0], y[0]], [0.5, 0.5], atol=1e-9)


def test_grid_view_shows_sixteen_tiles_two_without_a_line(fig, scene):
    fig.set_scene(scene, "grid")
    fig.show(0)
    assert all(t.get_visible() for t in fig.tiles)
    lines = [len(art[2].get_xdata()) > 0 for art in fig._tile_art]
    # constants' lines fall outside the box; XOR and XNOR cycle and have none
    assert not lines[xor.XOR] and not lines[xor.XNOR]
    assert sum("✓" in t.get_title() for t in fig.tiles) == 14
    assert fig.tile_at(fig.tiles[9]) == 9 and fig.tile_at(fig.ax) is None


def test_the_tiles_are_made_when_the_grid_view_first_needs_them_and_drawn_as_if_made_at_once(
        scene):
    """Issue 21 (tab switch): the 16 tiles are a third of the figure's making and only the grid
    view shows them: a figure opened on another view has none, and one that turns to the grid
    later draws exactly what a figure made with its tiles at once draws."""
    later = XorFigure()
    assert len(later.fig.axes) == 8  # the plane, and the other views' panels
    later.fit(1100, 620)
    later.set_scene(scene, "cycling")
    assert later.tile_at(later.ax) is None and len(later.fig.axes) == 8
    later.set_view("grid")
    at_once = XorFigure()
    assert len(at_once.tiles) == 16  # made before the fit and the scene, as they used to be
    at_once.fit(1100, 620)
    at_once.set_scene(scene, "grid")
    assert len(later.fig.axes) == len(at_once.fig.axes) == 24
    a, b = (f.scene(width=1100, height=620) for f in (later, at_once))
    assert a.panels == b.panels and [p.name for p in a.panels][1:3] == ["tile0", "tile1"]
    assert a.below == b.below and a.above == b.above
    assert [t.get_title() for t in later.tiles] == [t.get_title() for t in at_once.tiles]


def test_feature_view_plane_separates_the_lifted_points(fig, scene):
    fig.set_scene(scene, "feature")
    n = scene.steps("feature")
    fig.show(n)
    w, b = scene.lifted.trajectory.state(n)
    assert fig.lifted.plane.get_visible() and len(fig.lifted.poly) >= 3
    np.testing.assert_allclose(fig.lifted.poly @ w + b, 0, atol=1e-9)  # the plane, in 3-D
    Z = xor.lift(scene.X)
    np.testing.assert_array_equal(np.sign(Z @ w + b), scene.y)
    assert len(fig.curve.get_segments()) >= 1


def test_kernel_view_bars_are_the_dual_weights(fig, scene):
    fig.set_scene(scene, "kernel")
    n = scene.steps("kernel")
    fig.show(n)
    heights = [bar.get_height() for bar in fig.duals.bars]
    np.testing.assert_array_equal(heights, scene.kernel.alpha(n))
    assert len(fig.curve.get_segments()) >= 1


def test_layers_view_draws_both_hidden_lines(fig, scene):
    fig.set_scene(scene, "layers")
    text = fig.show(scene.steps("layers"))
    assert len(fig.line.get_xdata()) == 2 and len(fig.line2.get_xdata()) == 2
    assert "4 of 4 right" in text and fig.hidden.ax.get_visible()


@pytest.mark.parametrize("view", xor.VIEWS)
def test_every_view_saves_a_png(fig, scene, view):
    fig.set_scene(scene, view)
    fig.show(min(2, scene.steps(view)))
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    assert buf.getvalue()[:4] == b"\x89PNG"


def test_unknown_view_is_refused(fig, scene):
    with pytest.raises(ValueError, match="view must be one of"):
        fig.set_scene(scene, "nonsense")


def test_blitting_moves_only_the_current_views_artists(scene):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(13, 6.8), dpi=80)
    FigureCanvasAgg(fig)
    xf = XorFigure(fig, blit=True)
    xf.set_scene(scene, "kernel")
    xf.render(0)
    before = np.asarray(fig.canvas.buffer_rgba()).copy()
    xf.render(scene.steps("kernel"))
    assert all(bar.get_animated() for bar in xf.duals.bars) and xf.pos.get_animated()
    assert not np.array_equal(before, np.asarray(fig.canvas.buffer_rgba()))
    xf.set_view("feature")  # the lifted view: every step is a full draw, nothing animated
    assert xf.dynamic_artists() == [] and not xf.duals.bars[0].get_animated()
    xf.render(1)


def test_the_cycles_legend_entry_is_drawn_while_its_span_waits(fig, scene):
    """The span is hidden until the run finds the cycle; its legend entry is always drawn
    (made while the span is visible)."""
    fig.set_scene(scene, "cycling")
    fig.show(0)
    assert not fig.upd_cycle.get_visible()
    handles = fig.upd_legend.legend_handles
    assert [t.get_text() for t in fig.upd_legend.get_texts()][1] == "the cycle, once found"
    assert handles[1].get_visible()
