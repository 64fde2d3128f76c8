"""The Generalization figure draws what the core computed: losses, markers, rates, bars."""

import io

import numpy as np
import pytest
from figure_checks import assert_blit_matches_full_draw
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from explorer import generalization as G
from explorer.generalization import losses as L
from explorer.perceptron import train
from explorer.plots.generalization import GeneralizationFigure
from explorer.plots.generalization_scene import LOSS_STYLE


@pytest.fixture(scope="module")
def curve():
    return G.stability_curve(ns=(3, 10, 40, 200), trials=20, dim=2, gamma=0.3, seed=2)


@pytest.fixture
def fig_run():
    s = G.sample_margin(n=30, gamma=0.2, seed=3)
    traj = train(s.X, s.y, rule="margin", fit_intercept=False, max_epochs=50)
    f = GeneralizationFigure()
    f.set_run(s.X, s.y, traj)
    return f, np.array(s.X), np.array(s.y), traj


def test_loss_curves_are_the_core_losses(fig_run):
    f, *_ = fig_run
    for name, fn in L.LOSSES.items():
        z, v = f.losses.curves[name].get_data()
        np.testing.assert_allclose(v, fn(z))
        assert z.min() < 0 < 1 < z.max()


def test_markers_are_each_examples_loss_at_step_k(fig_run):
    f, X, y, traj = fig_run
    k = traj.update_steps[3]
    text = f.show(int(k))
    w, b = traj.state(int(k))
    z = y * (X @ w + b)  # computed here, independently of the figure
    for name in LOSS_STYLE:
        pts = f.losses.points[name].get_offsets()
        inside = np.abs(z) <= f.losses.half
        np.testing.assert_allclose(pts[inside, 0], z[inside])
        top = f.losses.ax.get_ylim()[1]
        np.testing.assert_allclose(pts[inside, 1], np.minimum(L.LOSSES[name](z[inside]), top))
    assert f"Step {k} of {traj.n_steps}" in text
    assert f"hinge {np.mean(L.hinge(z)):.3g}" in text


def test_hiding_losses_hides_their_curves_and_points(fig_run):
    f, *_ = fig_run
    f.set_losses(("hinge", "zero_one"))
    assert f.losses.curves["hinge"].get_visible() and not f.losses.curves["squared"].get_visible()
    assert not f.losses.points["logistic"].get_visible()
    labels = [t.get_text() for t in f.losses.legend.get_texts()]
    assert labels == [LOSS_STYLE["zero_one"][0], LOSS_STYLE["hinge"][0]]
    assert "squared" not in f.show(0)
    with pytest.raises(ValueError, match="expected some of"):
        f.set_losses(("cubic",))


def test_stability_panel_draws_the_curve_on_log_axes(fig_run, curve):
    f, *_ = fig_run
    f.set_stability(curve, ns=curve.ns, trials=curve.trials)
    p = f.stability
    assert p.ax.get_xscale() == "log" and p.ax.get_yscale() == "log"
    seen = curve.margin_rate > 0
    x, v = p.rate.get_data()
    np.testing.assert_array_equal(x, curve.ns[seen])
    np.testing.assert_allclose(v, curve.margin_rate[seen])
    xz, vz = p.zero.get_data()
    np.testing.assert_array_equal(xz, curve.ns[~seen])
    np.testing.assert_allclose(vz, 3 / curve.trials)
    np.testing.assert_allclose(p.bound.get_data()[1], curve.stability_bound)
    np.testing.assert_allclose(p.vc.get_data()[1], curve.vc)
    np.testing.assert_allclose(p.worst.get_data()[1], 3 / (0.3**2 * (curve.ns + 1)))
    assert len(p.errbars.get_segments()) == int(seen.sum())
    lo, hi = p.ax.get_ylim()
    # the probability axis stops just above 1; the bounds above 1 are said in the legend
    assert lo < min(3 / curve.trials, curve.margin_rate[seen].min()) and 1 < hi <= 1.3
    f.set_stability(None)
    assert len(p.rate.get_data()[0]) == 0


def test_risk_bars_are_the_table(fig_run):
    f, *_ = fig_run
    table = G.risk_table(seed=1)
    f.set_risk(table)
    widths = [b.get_width() for b in f.risk.bars]
    expect = [100 * getattr(r, attr) for r in table.rows for attr, *_ in f.risk.PARTS]
    np.testing.assert_allclose(widths, expect)
    assert "Breast cancer" in f.risk.names[1].get_text()


def test_fit_and_export(fig_run, curve):
    f, *_ = fig_run
    f.set_stability(curve, ns=curve.ns, trials=curve.trials)
    f.fit(1000, 560, scale=1.2)
    w, h = f.fig.get_size_inches() * f.fig.dpi
    assert (round(w), round(h)) == (1000, 560)
    buf = io.BytesIO()
    f.savefig(buf, format="png")
    assert buf.getvalue()[:4] == b"\x89PNG"
    with pytest.raises(ValueError, match="expected shapes"):
        f.set_run(np.zeros((3, 2)), np.zeros(2), f.traj)


def test_blitted_steps_match_a_full_redraw(curve):
    """The live widget blits the loss markers (a step moves nothing else)."""
    s = G.sample_margin(n=30, gamma=0.2, seed=3)
    traj = train(s.X, s.y, rule="margin", fit_intercept=False, max_epochs=50)
    figs = []
    for blit in (True, False):
        fig = Figure()
        FigureCanvasAgg(fig)
        gf = GeneralizationFigure(fig, blit=blit)
        gf.fit(1040, 547)
        gf.set_run(s.X, s.y, traj)
        gf.set_stability(curve, ns=curve.ns, trials=20)
        figs.append(gf)
    live, ref = figs
    assert live.dynamic_artists() and all(a.get_animated() for a in live.dynamic_artists())
    assert_blit_matches_full_draw(live, ref, (0, 1, traj.n_steps // 2, traj.n_steps, 2))
    live.set_losses(("hinge",))  # a change of what is shown: the next render draws it all
    ref.set_losses(("hinge",))
    assert_blit_matches_full_draw(live, ref, (3,))


def test_probability_axis_is_capped_at_1_and_the_cut_bounds_are_said(fig_run, curve):
    """Issue 19: most of the log axis lay above 1, where the bounds say nothing. Now the axis
    stops just above 1, the bounds above 1 are named with the n up to which they are, and the
    legend sits in a band at the bottom that no curve enters."""
    f, *_ = fig_run
    f.set_stability(curve, ns=curve.ns, trials=curve.trials)
    p = f.stability
    lo, hi = p.ax.get_ylim()
    assert 1.0 < hi <= 1.3
    above = np.log10(hi) - np.log10(1.0)
    assert above / (np.log10(hi) - np.log10(lo)) < 0.05  # almost none of the axis is above 1
    title = p.legend.get_title().get_text()
    over = curve.ns[curve.worst_bound > 1]
    assert "says nothing" in title and f"3/(γ²(n+1)) to n = {over.max()}" in title
    assert ("VC to n" in title) == bool(np.any(curve.vc > 1))
    r = f.fig._get_renderer()
    box = p.legend.get_window_extent(r)
    for line in (p.vc, p.worst, p.bound, p.mistakes, p.rate, p.zero, p.error):
        x, v = line.get_data()
        if len(x):  # no value under the legend (lower left), every value in view
            pts = p.ax.transData.transform(np.column_stack([x, v]))
            under = pts[pts[:, 0] <= box.x1 + 3]
            assert not len(under) or under[:, 1].min() > box.y1, line.get_label()
            assert np.all(np.asarray(v) >= lo)
    feet = np.array([seg[0] for seg in p.errbars.get_segments()])
    assert np.all(feet[:, 1] >= lo)


def test_the_legend_keeps_its_frame_while_its_title_says_other_bounds_and_sizes(curve):
    """Issue 21: the legend's title (the bounds cut off above 1, and up to which n) changed its
    words with every size a simulation finished, and with them the legend's frame, which the
    page has in its still layers: each size drew them again. Now the title's box is as large
    as any words of as many lines (two bounds a line, sizes of the plan's digits), so the
    frame is the same whichever bounds are above 1 and up to which n."""
    from dataclasses import replace

    from explorer.plots.generalization_scene import BOUND_NAMES

    f = GeneralizationFigure()
    f.fit(1040, 547)
    p = f.stability
    p.set_plan(curve.ns, trials=curve.trials)
    r = f.fig._get_renderer()
    frames = {}  # lines of the title -> the legend's frames
    i = np.arange(len(curve.ns))
    for above in ((1, 0, 0, 0), (2, 1, 0, 0), (3, 3, 1, 0), (4, 4, 4, 4), (2, 0, 4, 1),
                  (0, 1, 0, 2)):  # per bound (BOUND_NAMES): how many sizes are above 1
        values = {a: np.where(i < k, 2.0, 0.05) for (a, _), k in zip(BOUND_NAMES, above,
                                                                      strict=True)}
        p.set_curve(replace(curve, **values))
        words = p.legend.get_title().get_text()
        for (_, name), k in zip(BOUND_NAMES, above, strict=True):  # the right words
            assert (f"{name} to n = {curve.ns[k - 1]}" in words) == (k > 0), words
        frames.setdefault(words.count("\n") + 1, set()).add(
            tuple(np.round(p.legend.get_window_extent(r).bounds, 6)))
    assert all(len(boxes) == 1 for boxes in frames.values()), frames
    assert set(frames) == {2, 3}  # a head line, then one or two of bounds


# ---------------------------------------------------------------- issue 30, item 19
def _extent(text, f):
    from explorer.plots.tracks import figure_renderer

    return text.get_window_extent(figure_renderer(f.fig))


def _meet(a, b) -> bool:
    return min(a.x1, b.x1) > max(a.x0, b.x0) and min(a.y1, b.y1) > max(a.y0, b.y0)


@pytest.mark.parametrize("size", [None, (984, 510, 0.932), (1224, 510, 0.932),
                                  (1852, 772, 2.045), (1240, 530, 1.6)])
def test_the_risk_title_clears_the_loss_panels_x_label(fig_run, size):
    """Notebook 05 draws the figure at its default size, where the risk panel's title ran
    into the loss panel's x label; the page fits it (``size``: width, height, type scale)."""
    f, *_ = fig_run
    if size is not None:
        f.fit(*size[:2], scale=size[2])
    f.set_risk(G.risk_table(seed=0))
    f.fig.canvas.draw()
    title, label = f.risk.ax._left_title, f.losses.ax.xaxis.label
    assert title.get_text() == "Empirical risk vs test error" and label.get_text()
    assert not _meet(_extent(title, f), _extent(label, f))
    assert _extent(title, f).y0 < _extent(label, f).y0  # the title below the label


def test_the_risk_panel_before_a_table_says_so_and_shows_no_axis(fig_run):
    f, *_ = fig_run
    f.fig.canvas.draw()
    ax = f.risk.ax
    shown = [t for t in ax.get_xticklabels() + ax.get_yticklabels()
             if t.get_visible() and t.get_text() and ax.xaxis.get_visible()]
    assert shown == []
    assert f.risk.empty.get_visible() and f.risk.empty.get_text().startswith("not computed yet")
    assert not any(b.get_visible() for b in f.risk.bars)
    f.set_risk(G.risk_table(seed=0))
    f.fig.canvas.draw()
    assert ax.xaxis.get_visible() and not f.risk.empty.get_visible()
    assert any(t.get_text() for t in ax.get_xticklabels())
    f.set_risk(None)  # and back
    assert not ax.xaxis.get_visible() and f.risk.empty.get_visible()


@pytest.mark.parametrize("size", [None, (984, 510, 0.932), (1852, 772, 2.045)])
def test_the_risk_rows_names_start_clear_of_the_axis_line(fig_run, size):
    """The rows' names ("Iris vers./virg.: 70 train / 30 test") began on the axis line, which
    covered their first letter at the page's sizes ("|ris")."""
    f, *_ = fig_run
    if size is not None:
        f.fit(*size[:2], scale=size[2])
    f.set_risk(G.risk_table(seed=0))
    f.fig.canvas.draw()
    spine = f.risk.ax.spines["left"].get_window_extent()
    for name in f.risk.names:
        assert name.get_text() and _extent(name, f).x0 >= spine.x1 + 1, name.get_text()
