"""What the Margins figure draws: artists' data read back and compared with the core's results."""

import io

import numpy as np
import pytest
from figure_checks import assert_blit_matches_full_draw
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from explorer import margins
from explorer.perceptron import train
from explorer.plots import MarginsFigure
from explorer.shared import datasets
from explorer.shared.geometry import convex_hull_polygon

CASES = {
    "separable": (("separable", dict(n=40, seed=0)), None),
    "soft": (("overlapping", dict(n=60, seed=0)), 1.0),
    "loose": (("overlapping", dict(n=60, seed=0)), 0.01),
    "xor": (("xor", {}), None),
    "iris": (("iris", {}), None),
}


def _inputs(case, *, n_epochs=20):
    (name, kw), C = CASES[case]
    ds = datasets.load(name, **kw)
    X, y = ds.X, ds.y
    tr = train(X, y, max_epochs=50)
    cmp = margins.compare(X, y, C=C, perceptron_w=tr.final_w, perceptron_b=tr.final_b)
    rho = 0.01 if C is None else margins.sayed_rho(C, len(y))
    run = train(X, y, rule="svm_sgd", eta=0.05, rho=rho, order="shuffle", max_epochs=n_epochs,
                seed=0)
    sgd = margins.sgd_progress(run, X, y)
    path = margins.support_path(X, y, Cs=np.logspace(-3, 2, 8))
    return X, y, cmp, sgd, path


_CACHE = {}


def _cached(case):
    if case not in _CACHE:
        _CACHE[case] = _inputs(case)
    return _CACHE[case]


def _figure(case, *, blit=False, size=(1040, 547), scale=1.0):
    X, y, cmp, sgd, path = _cached(case)
    fig = Figure()
    FigureCanvasAgg(fig)
    mf = MarginsFigure(fig, blit=blit)
    mf.fit(*size, scale=scale)
    mf.set_data(X, y, cmp, path=path, sgd=sgd)
    return mf


def _xy(artist):
    x, y = artist.get_data()
    return np.column_stack([np.asarray(x, float), np.asarray(y, float)])


def _on_line(points, w, b, level, box):
    """Two points on ``<w, x> + b = level`` at the border of ``box``."""
    assert points.shape == (2, 2)
    np.testing.assert_allclose(points @ w + b, [level, level], atol=1e-9 * max(1, abs(level)))
    xmin, xmax, ymin, ymax = box
    for p in points:
        on_edge = min(abs(p[0] - xmin), abs(p[0] - xmax), abs(p[1] - ymin), abs(p[1] - ymax))
        assert on_edge < 1e-9 * (xmax - xmin)


def _empty(polygon):
    """A polygon patch reduced to one point: nothing drawn."""
    xy = polygon.get_xy()
    return bool(np.all(xy == xy[0]))


def _legend_labels(legend):
    return [t.get_text() for t in legend.get_texts()]


# --------------------------------------------------------------------------- the plane
@pytest.mark.parametrize("case", ["separable", "soft", "iris"])
def test_support_vectors_ringed_by_alpha(case):
    mf = _figure(case)
    X, fit = mf.X, mf.comparison.svm
    sv = np.asarray(fit.support)
    np.testing.assert_array_equal(mf.plane.rings.get_offsets(), X[sv])
    sizes, alpha = mf.plane.rings.get_sizes(), np.asarray(fit.alpha)[sv]
    assert len(sizes) == len(sv) > 0
    # ring sizes are in the order of the dual weights: larger alpha, larger ring
    np.testing.assert_array_equal(np.sign(np.subtract.outer(sizes, sizes)),
                                  np.sign(np.subtract.outer(alpha, alpha)))
    assert sizes.min() > mf.plane.pos.get_sizes()[0]  # a ring goes round its point


@pytest.mark.parametrize("case", ["separable", "soft", "iris"])
def test_svm_line_and_band(case):
    mf = _figure(case)
    fit, box = mf.comparison.svm, mf.plane.box
    w, b = np.asarray(fit.w), fit.b
    _on_line(_xy(mf.plane.line), w, b, 0.0, box)
    _on_line(_xy(mf.plane.band_hi), w, b, 1.0, box)
    _on_line(_xy(mf.plane.band_lo), w, b, -1.0, box)
    slab = mf.plane.slab.get_xy()
    f = slab @ w + b
    assert len(slab) >= 4 and np.all(np.abs(f) <= 1 + 1e-9)
    assert f.max() == pytest.approx(1.0) and f.min() == pytest.approx(-1.0)
    # the band's half-width, drawn, is the margin stated: 1 / ||w||
    hi, lo = _xy(mf.plane.band_hi), _xy(mf.plane.band_lo)
    u = w / np.linalg.norm(w)
    assert (hi[0] - lo[0]) @ u == pytest.approx(2 * mf.comparison.svm_margin)


@pytest.mark.parametrize("case", ["soft", "loose"])
def test_slack_segments_are_the_cores(case):
    mf = _figure(case)
    cmp = mf.comparison
    segs = np.asarray(mf.plane.slacks.get_segments())
    assert len(segs) == len(cmp.slack_index) > 0
    np.testing.assert_array_equal(segs[:, 0], cmp.slack_start)
    np.testing.assert_array_equal(segs[:, 1], cmp.slack_end)
    np.testing.assert_array_equal(_xy(mf.plane.slack_ends), cmp.slack_end)
    assert f"Σsᵢ = {cmp.hinge_total:.3g}" in " ".join(_legend_labels(mf.plane.legend))


def test_hard_margin_has_no_slack_segments():
    mf = _figure("separable")
    assert len(mf.plane.slacks.get_segments()) == 0
    assert not any("slack" in t for t in _legend_labels(mf.plane.legend))


def test_xor_hard_margin_draws_the_certificate():
    mf = _figure("xor")
    p = mf.plane
    assert mf.comparison.svm is None
    assert p.cert.get_visible()
    np.testing.assert_allclose(_xy(p.cert), [[0.0, 0.0]], atol=1e-12)
    for art, cls in ((p.hull_pos, 1), (p.hull_neg, -1)):
        assert art.get_visible()
        np.testing.assert_allclose(_xy(art), convex_hull_polygon(mf.X[mf.y == cls]))
    assert len(p.line.get_xdata()) == 0 and len(p.rings.get_offsets()) == 0
    labels = _legend_labels(p.legend)
    assert "in both hulls" in labels and "hulls of +1 / −1" in labels
    assert "no hard margin" in p.legend.get_title().get_text()
    assert "hulls meet" in mf.duals.note.get_text()


def test_soft_margin_on_xor_has_no_line():
    X, y = datasets.load("xor").X, datasets.load("xor").y
    cmp = margins.compare(X, y, C=1.0, perceptron_w=[0.3, 0.1], perceptron_b=0.0)
    mf = MarginsFigure()
    FigureCanvasAgg(mf.fig)
    mf.set_data(X, y, cmp)
    assert len(mf.plane.line.get_xdata()) == 0 and _empty(mf.plane.slab)
    assert "SVM: w = 0, no line" in _legend_labels(mf.plane.legend)
    assert not mf.plane.cert.get_visible()  # the soft margin exists: no certificate drawn


@pytest.mark.parametrize("case", ["separable", "soft"])
def test_perceptron_line_and_its_margin(case):
    mf = _figure(case)
    cmp, box = mf.comparison, mf.plane.box
    wp, bp = np.asarray(cmp.perceptron_w), cmp.perceptron_b
    _on_line(_xy(mf.plane.perc), wp, bp, 0.0, box)
    slab = mf.plane.perc_slab.get_xy()
    m = cmp.perceptron_margin
    labels = " ".join(_legend_labels(mf.plane.legend))
    assert f"perceptron: margin {m:.3g}".replace("-", "−") in labels
    if m > 0:  # its band reaches exactly its nearest point
        dist = (slab @ wp + bp) / np.linalg.norm(wp)
        assert dist.max() == pytest.approx(m) and dist.min() == pytest.approx(-m)
    else:
        assert _empty(mf.plane.perc_slab) and f"{cmp.perceptron_errors} wrong" in labels


def test_texts_state_gamma_and_sayeds_parameters():
    mf = _figure("separable")
    title = mf.plane.legend.get_title().get_text()
    assert f"margin γ(S) = 1/‖w*‖ = {mf.comparison.gamma:.3g}" in title
    assert "61.4" in mf.plane.ax.get_title(loc="left")
    soft = _figure("soft")
    cmp = soft.comparison
    title = soft.plane.legend.get_title().get_text()
    assert f"η = N·C = {60 * 1.0:.3g}" in title and f"ρ = 1/(2η) = {1 / 120:.3g}" in title
    assert "not separable" in title
    assert f"1/‖w‖ = {cmp.svm_margin:.3g}" in " ".join(_legend_labels(soft.plane.legend))
    assert "C = 1" in soft.plane.ax.get_title(loc="left")


def test_numbers_name_the_support_vectors():
    mf = _figure("separable")  # 40 points: only the support vectors are numbered
    sv = np.asarray(mf.comparison.svm.support)
    assert sorted(int(t.get_text()) for t in mf.plane.labels) == sorted((sv + 1).tolist())
    for t in mf.plane.labels:
        np.testing.assert_allclose(t.xy, mf.X[int(t.get_text()) - 1])
    # the dual-weight axis names the same points
    ticks = [mf.duals._tick(float(r)) for r in range(len(sv))]
    assert ticks == [str(i + 1) for i in sv]


# --------------------------------------------------------------------------- side panels
@pytest.mark.parametrize("case", ["separable", "soft"])
def test_dual_weight_bars(case):
    mf = _figure(case)
    fit, y = mf.comparison.svm, mf.y
    sv = np.asarray(fit.support)
    want = np.asarray(fit.alpha)[sv] * y[sv]
    bars = {}
    for coll in (mf.duals.pos, mf.duals.neg):
        for v in coll.get_paths():
            xy = v.vertices
            bars[round(float(xy[:4, 0].mean()), 9)] = float(xy[1, 1])
    got = np.array([bars[round(float(r), 9)] for r in range(len(sv))])
    np.testing.assert_allclose(got, want)
    # w = sum alpha_i y_i x_i (Sayed (61.44)) from the bars themselves
    np.testing.assert_allclose(got @ mf.X[sv], fit.w, atol=1e-7)
    if fit.C is not None:
        np.testing.assert_allclose(mf.duals.cap_hi.get_ydata(), [fit.C, fit.C])


def test_support_path_panel():
    mf = _figure("soft")
    path = mf.path
    np.testing.assert_array_equal(_xy(mf.path_panel.sv), np.column_stack([path.Cs, path.sv_fraction]))
    np.testing.assert_array_equal(_xy(mf.path_panel.err), np.column_stack([path.Cs, path.error_rate]))
    assert list(mf.path_panel.now.get_xdata()) == [1.0, 1.0] and mf.path_panel.now.get_visible()
    assert "C now = 1" in _legend_labels(mf.path_panel.legend)
    hard = _figure("separable")
    assert not hard.path_panel.now.get_visible()


def test_objective_panel_and_show():
    mf = _figure("soft")
    sgd = mf.sgd
    np.testing.assert_array_equal(_xy(mf.objective.curve), np.column_stack([sgd.steps, sgd.objective]))
    np.testing.assert_allclose(mf.objective.optimum.get_ydata(), [sgd.optimum] * 2)
    for k in (0, 5, 317, sgd.traj.n_steps):
        text = mf.show(k)
        w, b = sgd.traj.state(k)
        line = _xy(mf.plane.sgd)
        if np.any(w):
            _on_line(line, w, b, 0.0, mf.plane.box)
        else:
            assert len(line) == 0
        assert list(mf.objective.cursor.get_xdata()) == [k, k]
        np.testing.assert_allclose(_xy(mf.objective.dot), [[k, sgd.objective_at(k)]])
        assert f"Step {k} of {sgd.traj.n_steps}" in text
    # the exact solution the run approaches, dashed
    _on_line(_xy(mf.plane.target), np.asarray(sgd.target.w), sgd.target.b, 0.0, mf.plane.box)
    assert mf.plane.target.get_linestyle() == "--"


def test_without_sgd_or_path():
    X, y, cmp, _, _ = _cached("separable")
    mf = MarginsFigure()
    FigureCanvasAgg(mf.fig)
    mf.set_data(X, y, cmp)
    assert mf.show(4) == "" and len(mf.plane.sgd.get_xdata()) == 0
    assert mf.objective.note.get_text() == "no SGD run"
    assert mf.path_panel.note.get_text() == "no path computed"
    mf.fig.canvas.draw()
    assert not mf.objective.ax.get_yticks().size and not mf.path_panel.ax.get_xticks().size
    # the same figure with a run and a path gets its ticks back
    _, _, _, sgd, path = _cached("separable")
    mf.set_data(X, y, cmp, path=path, sgd=sgd)
    mf.fig.canvas.draw()
    for ax in (mf.objective.ax, mf.path_panel.ax):
        labels = [t.get_text() for t in ax.get_yticklabels() + ax.get_xticklabels()]
        assert sum(bool(t) for t in labels) >= 4, ax.get_title(loc="left")


def test_set_data_rejects_other_data():
    X, y, cmp, sgd, _ = _cached("separable")
    mf = MarginsFigure()
    with pytest.raises(ValueError, match=r"X: expected points of at least two features"):
        mf.set_data(X[:, :1], y, cmp)
    with pytest.raises(ValueError, match="comparison: expected one computed on these 39 points"):
        mf.set_data(X[:-1], y[:-1], cmp)
    with pytest.raises(TypeError, match="comparison: expected a MarginComparison"):
        mf.set_data(X, y, {"C": None})
    with pytest.raises(ValueError, match="overlay: expected one of"):
        MarginsFigure(overlay="side by side")


# --------------------------------------------------------------------------- live drawing
@pytest.mark.parametrize("case", ["separable", "soft", "xor"])
def test_blitted_render_matches_full_redraw(case):
    live, ref = _figure(case, blit=True), _figure(case)
    assert live.dynamic_artists() and all(a.get_animated() for a in live.dynamic_artists())
    n = live.sgd.traj.n_steps
    assert_blit_matches_full_draw(live, ref, (0, 3, n // 3, n, 7))


def test_moving_artists_are_exactly_the_step_dependent_ones():
    mf = _figure("soft", blit=True)
    moving = {mf.plane.sgd, mf.objective.cursor, mf.objective.dot}
    assert set(mf.dynamic_artists()) == moving
    assert all(a.get_animated() for a in moving)
    # and nothing else changes with the step: every other artist's data stay put
    others = [a for ax in mf.fig.axes for a in ax.get_children()
              if a not in moving and hasattr(a, "get_data")]
    before = [np.array(a.get_data(), dtype=object) for a in others]
    mf.show(77)
    after = [np.array(a.get_data(), dtype=object) for a in others]
    assert all(np.array_equal(x, y) for x, y in zip(before, after, strict=True))


def test_blitted_panels_match_a_full_draw_closely():
    """Inside the objective panel nothing is shaded, so blitting must match a full draw there
    almost pixel for pixel (the shared check allows a few hundred pixels for the shading)."""
    live, ref = _figure("soft", blit=True), _figure("soft")
    for k in (0, 50, 400):
        live.render(k)
        got = np.asarray(live.fig.canvas.buffer_rgba()).astype(int)
        ref.show(k)
        ref.fig.canvas.draw()
        want = np.asarray(ref.fig.canvas.buffer_rgba()).astype(int)
        bb = live.objective.ax.get_window_extent()
        H = got.shape[0]
        rows = slice(int(H - bb.y1), int(H - bb.y0))
        cols = slice(int(bb.x0), int(bb.x1))
        strong = np.any(np.abs(got[rows, cols] - want[rows, cols]) > 40, axis=-1)
        assert strong.sum() <= 10, f"step {k}: {strong.sum()} pixels differ in the objective panel"


def test_steps_change_only_the_moving_artists():
    mf = _figure("soft", blit=True)
    mf.render(0)
    a = np.asarray(mf.fig.canvas.buffer_rgba()).copy()
    mf.render(40)
    b = np.asarray(mf.fig.canvas.buffer_rgba()).copy()
    mf.render(0)
    c = np.asarray(mf.fig.canvas.buffer_rgba()).copy()
    assert not np.array_equal(a, b) and np.array_equal(a, c)
    # the difference lies in the plane (the SGD line) and the objective panel (its cursor)
    diff = np.any(a != b, axis=-1)
    rows, cols = np.nonzero(diff)
    H = diff.shape[0]
    boxes = [ax.get_window_extent() for ax in (mf.plane.ax, mf.objective.ax)]
    inside = np.zeros(len(rows), bool)
    for bb in boxes:
        inside |= ((cols >= bb.x0 - 2) & (cols <= bb.x1 + 2) & (H - rows >= bb.y0 - 2)
                   & (H - rows <= bb.y1 + 2))
    assert inside.all()


def test_savefig_includes_the_moving_artists():
    mf = _figure("soft", blit=True)
    mf.render(30)
    buf = io.BytesIO()
    mf.savefig(buf, format="png")
    img = np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"))
    green = np.all(np.abs(img.astype(int) - [0, 158, 115]) < 30, axis=-1)  # the SGD line
    assert green.sum() > 200
    assert all(a.get_animated() for a in mf.dynamic_artists())  # restored for blitting


# --------------------------------------------------------------------------- fit
SIZES = [(1040, 547, 1.0), (1300, 560, 1.3)]


@pytest.mark.parametrize("layout", ["overlaid", "side"])
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("w,h,scale", SIZES)
def test_nothing_is_cut_off_or_overlaps(case, w, h, scale, layout):
    mf = _figure(case, size=(w, h), scale=scale)
    mf.set_overlay(layout)
    mf.show(mf.sgd.traj.n_steps // 2)
    renderer = mf.fig.canvas.get_renderer()
    mf.fig.draw(renderer)
    W, H = mf.fig.bbox.width, mf.fig.bbox.height
    assert abs(W - w) < 1.5 and abs(H - h) < 1.5
    boxes = {}
    for ax in mf.fig.axes:  # ticks, labels, titles, legends, texts
        if not ax.get_visible():
            continue
        box = ax.get_tightbbox(renderer)
        assert box.x0 >= -1 and box.y0 >= -1 and box.x1 <= W + 1 and box.y1 <= H + 1, (
            f"{ax.get_title(loc='left')!r} leaves the figure ({W:.0f}x{H:.0f}): {box}")
        plane = next((p for p in mf._planes() if p.ax is ax), None)
        if plane is not None:  # its legend, below it or beside it (issue 30), on its own
            extra = [a for a in ax.get_default_bbox_extra_artists() if a is not plane.legend]
            box = ax.get_tightbbox(renderer, bbox_extra_artists=extra)
            boxes[plane.legend] = plane.legend.get_window_extent(renderer)
        boxes[ax] = box
    # no panel or plane's legend runs into another
    axes = list(boxes)

    def name(a):
        return "a plane's legend" if hasattr(a, "get_texts") else a.get_title(loc="left")

    for i, a in enumerate(axes):
        for b in axes[i + 1:]:
            if a is getattr(b, "axes", None) or b is getattr(a, "axes", None):
                continue  # a plane and its own legend
            assert not boxes[a].overlaps(boxes[b]), f"{name(a)!r} runs into {name(b)!r}"
    # legends inside the side panels stay inside them
    for panel in (mf.duals, mf.objective, mf.path_panel):
        if panel.legend is not None and panel.legend.get_visible() and panel.ax.get_visible():
            leg = panel.legend.get_window_extent(renderer)
            ax = panel.ax.get_window_extent(renderer)
            assert ax.x0 - 1 <= leg.x0 and leg.x1 <= ax.x1 + 1 and ax.y0 - 1 <= leg.y0 \
                and leg.y1 <= ax.y1 + 1, panel.ax.get_title(loc="left")
    # the data plane keeps a useful size
    plane = mf.plane.ax.get_window_extent(renderer)
    share = 0.5 if layout == "overlaid" else 0.4  # two planes side by side are smaller
    assert plane.height >= share * H and abs(plane.width - plane.height) < 2


def test_fit_grows_type_with_scale():
    mf = _figure("separable", size=(1300, 560), scale=1.0)
    dpi = mf.fig.dpi
    mf.fit(1300, 560, scale=1.3)
    assert mf.fig.dpi == pytest.approx(1.3 * dpi)
    with pytest.raises(ValueError, match="positive size and scale"):
        mf.fit(0, 560)


def test_preview_moves_points_and_solution_without_a_full_draw():
    mf = _figure("soft", blit=True)
    X, y, cmp, sgd, path = _cached("soft")
    mf.set_editing(True)
    draws = []
    mf.fig.canvas.mpl_connect("draw_event", lambda e: draws.append(e))
    mf.render(0)
    assert len(draws) == 1  # the background, without the data's artists
    X2 = X.copy()
    X2[0] = X.mean(axis=0)  # dragged to the middle: inside the box
    cmp2 = margins.compare(X2, y, C=1.0, perceptron_w=cmp.perceptron_w,
                           perceptron_b=cmp.perceptron_b)
    assert mf.preview(X2, y, cmp2)
    assert len(draws) == 1  # blitted, not drawn again
    shown = np.vstack([mf.plane.pos.get_offsets(), mf.plane.neg.get_offsets()])
    assert any(np.allclose(p, X2[0]) for p in shown) and not any(np.allclose(p, X[0]) for p in shown)
    np.testing.assert_allclose(mf.plane.rings.get_offsets(), X2[cmp2.svm.support])
    _on_line(_xy(mf.plane.line), np.asarray(cmp2.svm.w), cmp2.svm.b, 0.0, mf.plane.box)
    segs = mf.plane.slacks.get_segments()
    lengths = [float(np.linalg.norm(s[1] - s[0])) for s in segs]
    w2 = np.asarray(cmp2.svm.w)
    hinge = np.maximum(0.0, 1.0 - y * (X2 @ w2 + cmp2.svm.b))  # Sayed (61.12), from the fit
    expected = hinge[hinge > 1e-9] / np.linalg.norm(w2)
    np.testing.assert_allclose(sorted(lengths), sorted(expected), rtol=1e-9)


def test_preview_declines_what_needs_a_new_layout():
    mf = _figure("soft", blit=True)
    X, y, cmp, _, _ = _cached("soft")
    assert not mf.preview(X, y, cmp)  # not editing: nothing cached for it
    mf.set_editing(True)
    mf.render(0)
    far = X.copy()
    far[0] = [100.0, 100.0]  # outside the plane's box
    cmp_far = margins.compare(far, y, C=1.0, perceptron_w=cmp.perceptron_w,
                              perceptron_b=cmp.perceptron_b)
    assert not mf.preview(far, y, cmp_far)
    mf.set_editing(False)
    assert mf.plane.pos not in mf.dynamic_artists() and mf._background is None


def test_side_by_side_puts_each_separator_in_its_own_plane():
    mf = _figure("soft")
    X, y, cmp, sgd, path = _cached("soft")
    mf.set_overlay("side")
    left, right = mf.perc_plane, mf.plane
    assert left.ax.get_visible() and not mf.path_panel.ax.get_visible()
    assert left.ax.get_position().x1 < right.ax.get_position().x0  # perceptron's plane first
    assert left.ax.get_xlim() == right.ax.get_xlim() and left.ax.get_ylim() == right.ax.get_ylim()
    _on_line(_xy(left.perc), np.asarray(cmp.perceptron_w), cmp.perceptron_b, 0.0, left.box)
    assert _xy(right.perc).size == 0 and _xy(left.line).size == 0
    assert len(left.rings.get_offsets()) == 0
    np.testing.assert_allclose(right.rings.get_offsets(), X[cmp.svm.support])
    labels = [t.get_text() for t in left.legend.get_texts()]
    assert any(t.startswith("perceptron: margin") for t in labels)
    assert not any("SVM" in t or "support" in t for t in labels)
    assert not any(t.startswith("perceptron") for t in (x.get_text() for x in right.legend.get_texts()))
    mf.set_overlay("overlaid")
    assert not left.ax.get_visible() and mf.path_panel.ax.get_visible()
    _on_line(_xy(right.perc), np.asarray(cmp.perceptron_w), cmp.perceptron_b, 0.0, right.box)
