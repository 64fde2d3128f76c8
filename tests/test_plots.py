"""Drawing: the blitted live render equals a full redraw; exports are real files."""

import io

import numpy as np
import pytest
from figure_checks import assert_blit_matches_full_draw
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from explorer.perceptron import train
from explorer.plots import PerceptronFigure
from explorer.plots.export import figure_bytes, frame_steps, gif_bytes, html_animation
from explorer.shared import datasets


def _agg_figure(blit):
    fig = Figure(figsize=(13, 6.8), dpi=50)
    FigureCanvasAgg(fig)
    return PerceptronFigure(fig, dpi=50, blit=blit)


@pytest.fixture(scope="module")
def run():
    ds = datasets.load("separable", n=60, seed=3, margin=0.1)
    return ds, train(ds.X, ds.y, max_epochs=30)


def test_blitted_render_matches_full_redraw(run):
    ds, tr = run
    live, ref = _agg_figure(True), _agg_figure(False)
    live.set_run(tr, ds.X, ds.y)
    ref.set_run(tr, ds.X, ds.y, live.info)
    assert_blit_matches_full_draw(live, ref, (0, 3, 17, tr.n_steps, 5))


def test_steps_change_pixels(run):
    ds, tr = run
    pf = _agg_figure(True)
    pf.set_run(tr, ds.X, ds.y)
    pf.render(0)
    a = np.asarray(pf.fig.canvas.buffer_rgba()).copy()
    pf.render(1)
    b = np.asarray(pf.fig.canvas.buffer_rgba()).copy()
    pf.render(0)
    c = np.asarray(pf.fig.canvas.buffer_rgba()).copy()
    assert not np.array_equal(a, b) and np.array_equal(a, c)


def test_png_and_svg_bytes(run):
    ds, tr = run
    pf = _agg_figure(True)
    pf.set_run(tr, ds.X, ds.y)
    pf.render(4)
    png = figure_bytes(pf, "png")
    assert Image.open(io.BytesIO(png)).size == (650, 340)  # 13 x 6.8 in at 50 dpi
    svg = figure_bytes(pf, "svg").decode()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    with pytest.raises(ValueError, match="fmt must be 'png' or 'svg'"):
        figure_bytes(pf, "bmp")


def test_gif_and_html_animation():
    ds = datasets.load("koski")
    tr = train(ds.X, ds.y, eta=0.2, w0=[1, 0.5], order=[4, 2, 0, 1, 3, 5])
    calls = []
    gif = gif_bytes(tr, ds.X, ds.y, progress=lambda i, n: calls.append((i, n)))
    img = Image.open(io.BytesIO(gif))
    assert img.format == "GIF" and img.n_frames == tr.n_steps + 1
    assert calls[-1] == (tr.n_steps, tr.n_steps + 1)
    page = html_animation(tr, ds.X, ds.y)
    assert page.count('"data:image/png;base64,') == tr.n_steps + 1  # every frame embedded
    assert page.count("url(data:image/png;base64,") == 1  # and the backdrop behind them
    assert "<script src=" not in page  # plays with nothing fetched


def test_frame_steps_keeps_every_update_of_long_runs():
    ds = datasets.load("overlapping", n=200, seed=1)
    tr = train(ds.X, ds.y, max_epochs=20)
    steps = frame_steps(tr, max_frames=240)
    assert len(steps) <= 240 and steps[0] == 0 and steps[-1] == tr.n_steps
    assert np.all(np.diff(steps) > 0)


def test_weight_walk_draws_each_segment_once_however_long_the_cycle():
    """XOR cycles through four weight vectors: after 4 000 steps the walk is still the same
    four segments (drawn once each), ending at the current weights; the arrows stay capped."""
    from explorer.perceptron.replay import describe_run, frame
    from explorer.plots.weights import MAX_ARROWS

    ds = datasets.load("xor")
    tr = train(ds.X, ds.y, max_epochs=1000)
    fig = _agg_figure(False)
    fig.set_run(tr, ds.X, ds.y)
    ws = fig.weights
    info = describe_run(tr, ds.X, ds.y)
    f = frame(tr, ds.X, ds.y, 4000, info=info)
    ws.show(f)
    x, y = (np.asarray(v, dtype=float) for v in ws.path.get_data())
    pts = np.column_stack([x, y])[np.isfinite(x)]
    W = tr.weights[: f.n_updates + 1, :2]
    segs = {(tuple(a), tuple(b)) for a, b in zip(W[:-1], W[1:], strict=True)}
    assert len(x) <= 3 * len(segs) + 2
    assert {tuple(p) for p in W} <= {tuple(p) for p in pts}
    np.testing.assert_allclose(pts[-1], f.w[:2])
    assert ws.arrows.N <= MAX_ARROWS
