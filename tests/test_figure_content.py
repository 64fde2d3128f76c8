"""What the Perceptron figure draws: the right artists with the right data, readable without colour.

Each test reads artists' data back from a figure drawn on an Agg canvas and compares it with the
frame or the run it should show.
"""

from dataclasses import replace

import numpy as np
import pytest
from figure_checks import assert_blit_matches_full_draw
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from explorer.perceptron import train
from explorer.perceptron.replay import frame
from explorer.plots import PerceptronFigure
from explorer.shared import datasets
from explorer.shared.geometry import clip_line, convex_hull_polygon

KOSKI = datasets.load("koski")
XOR = datasets.load("xor")
OVERLAP = datasets.load("overlapping", n=40)


def _figure(blit=False, dpi=50, hand=False):
    fig = Figure(figsize=(13, 6.8), dpi=dpi)
    FigureCanvasAgg(fig)
    pf = PerceptronFigure(fig, dpi=dpi, blit=blit)
    pf.hand = hand
    return pf


def _koski_run():
    return train(KOSKI.X, KOSKI.y, eta=0.2, w0=[1, 0.5], order=[4, 2, 0, 1, 3, 5])


def _line(artist):
    x, y = artist.get_data()
    return np.column_stack([x, y])


def _same_segment(got, want):
    if want is None:  # w = 0, or the line misses the view: nothing drawn
        assert len(got) == 0
        return
    assert len(got) == 2
    if not np.allclose(got, want, atol=1e-9):
        np.testing.assert_allclose(got, want[::-1], atol=1e-9)


def _legend_labels(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


# ---------------------------------------------------------------- pocket and averaged
@pytest.mark.parametrize("rule", ["pocket", "averaged"])
def test_kept_classifier_is_drawn_with_its_error_count(rule):
    tr = train(OVERLAP.X, OVERLAP.y, rule=rule, max_epochs=5)
    pf = _figure(blit=True)
    pf.set_run(tr, OVERLAP.X, OVERLAP.y)
    plane = pf.plane
    assert plane.kept_line.get_linestyle() == "-." and plane.kept_line.get_color() != \
        plane.line.get_color()
    assert plane.legend in plane.dynamic_artists() and plane.legend.get_animated()
    seen = set()
    for k in (0, 1, 40, tr.n_steps // 2, tr.n_steps):
        f = pf.render(k)
        w, b = (tr.averaged_state(k) if rule == "averaged" else (f.kept_w, f.kept_b))
        if rule == "averaged":
            np.testing.assert_allclose(f.kept_w, w)
        _same_segment(_line(plane.kept_line), clip_line(w, b, plane.box))
        wrong = int(np.sum(np.where(OVERLAP.X @ w + b >= 0, 1, -1) != OVERLAP.y))
        assert f.kept_errors == wrong
        assert plane.kept_text.get_text() == f"{rule}: {wrong} of 40 wrong"
        assert f"{rule}: {wrong} of 40 wrong" in _legend_labels(plane.ax)
        seen.add(wrong)
    if rule == "pocket":  # the pocket at the end is the trainer's pocket_w
        np.testing.assert_array_equal(f.kept_w, tr.pocket_w)
    assert len(seen) > 1  # the legend text really changes with the step


def test_classic_run_has_no_kept_line():
    pf = _figure()
    pf.set_run(_koski_run(), KOSKI.X, KOSKI.y)
    pf.show(2)
    assert len(pf.plane.kept_line.get_xdata()) == 0
    assert not any(lbl.startswith(("pocket", "averaged")) for lbl in _legend_labels(pf.plane.ax))
    assert pf.plane.legend not in pf.plane.dynamic_artists()


# ---------------------------------------------------------------- non-separable data
def test_xor_draws_the_certificate_and_both_hulls():
    tr = train(XOR.X, XOR.y, max_epochs=10)
    pf = _figure()
    pf.set_run(tr, XOR.X, XOR.y)
    f = pf.show(tr.n_steps)
    plane = pf.plane
    assert plane.cert.get_visible()
    np.testing.assert_allclose(_line(plane.cert), [[0.0, 0.0]], atol=1e-9)
    for art, cls in ((plane.hull_pos, 1), (plane.hull_neg, -1)):
        assert art.get_visible()
        want = convex_hull_polygon(XOR.X[XOR.y == cls])  # a diagonal of the square
        np.testing.assert_allclose(_line(art), want)
        assert len(want) == 2
    assert plane.hull_pos.get_linestyle() != plane.hull_neg.get_linestyle()  # greyscale
    labels = _legend_labels(plane.ax)
    assert "in both hulls" in labels and "hulls of +1 / −1" in labels
    assert ("The data are not linearly separable: the point (0, 0) lies in the convex hulls of "
            "both classes, so no line separates them and the updates never stop.") in f.text


def test_hulls_are_closed_polygons_for_bigger_classes():
    tr = train(OVERLAP.X, OVERLAP.y, max_epochs=2)
    pf = _figure()
    pf.set_run(tr, OVERLAP.X, OVERLAP.y)
    assert pf.info.separable is False
    for art, cls in ((pf.plane.hull_pos, 1), (pf.plane.hull_neg, -1)):
        want = convex_hull_polygon(OVERLAP.X[OVERLAP.y == cls])
        np.testing.assert_allclose(_line(art), np.vstack([want, want[:1]]))
    cert = pf.info.certificate
    np.testing.assert_allclose(_line(pf.plane.cert)[0], cert.point)


def test_separable_data_draw_no_certificate():
    pf = _figure()
    pf.set_run(_koski_run(), KOSKI.X, KOSKI.y)
    pf.show(1)
    for art in (pf.plane.hull_pos, pf.plane.hull_neg, pf.plane.cert):
        assert not art.get_visible()
    assert "in both hulls" not in _legend_labels(pf.plane.ax)


# ---------------------------------------------------------------- "you choose" mode
def test_hand_mode_rings_the_failing_points():
    run = train(KOSKI.X, KOSKI.y, eta=0.2, w0=[1, 0.5], order=[4], max_steps=1)
    pf = _figure(hand=True)
    pf.set_run(run, KOSKI.X, KOSKI.y)
    assert "still wrong: pick one" in _legend_labels(pf.plane.ax)
    for k, want in ((0, (2, 4)), (1, (2,))):
        f = pf.show(k)
        assert f.failing == want
        np.testing.assert_allclose(pf.plane.failing.get_offsets(), KOSKI.X[list(want)])
    assert pf.plane.failing.get_linestyle()[0][1] is not None  # dashed ring
    assert "1 point still fails the test (point 3): pick it next." in f.text
    viewer = _figure(hand=False)
    viewer.set_run(run, KOSKI.X, KOSKI.y)
    viewer.show(0)
    assert len(viewer.plane.failing.get_offsets()) == 0
    assert "still wrong: pick one" not in _legend_labels(viewer.plane.ax)


# ---------------------------------------------------------------- nonzero start: proof and bound
def test_koski_default_fills_the_proof_panel_and_bound():
    tr = _koski_run()
    pf = _figure()
    pf.set_run(tr, KOSKI.X, KOSKI.y)
    pf.show(3)
    pq = pf.info.proof
    assert pq is not None and pf.proof.note.get_text() == ""
    np.testing.assert_allclose(pf.proof.dot_low.get_ydata(), pq.dot_lower)
    np.testing.assert_allclose(pf.proof.norm_up.get_ydata(), np.sqrt(pq.norm_sq_upper))
    assert pq.dot_lower[0] == pytest.approx(pq.dot[0]) and pq.dot[0] != 0  # starts at w0
    np.testing.assert_allclose(pf.proof.dot_line.get_ydata(), pq.dot[:4])
    labels = [t.get_text() for t in pf.proof.legend.get_texts()]
    assert labels[2:] == ["≥ a + u·η·γ", "≤ √(c + u·η²H²)"]
    bound = pf.info.bound.value
    assert bound >= 3 and np.allclose(pf.mistakes.bound.get_ydata(), bound)
    assert f"bound (dashed) = {bound:.4g}" in pf.mistakes.bound_text.get_text()


# ---------------------------------------------------------------- greyscale and labels
def test_half_planes_and_proof_curves_differ_without_colour():
    pf = _figure()
    plane, proof = pf.plane, pf.proof
    assert plane.shade_pos.get_hatch() and plane.shade_neg.get_hatch()
    assert plane.shade_pos.get_hatch() != plane.shade_neg.get_hatch()
    assert plane.shade_pos.get_linewidth() == 0 and plane.shade_neg.get_linewidth() == 0
    curves = (proof.dot_line, proof.norm_line, proof.dot_low, proof.norm_up)
    looks = {(c.get_linestyle(), c.get_marker(), c.get_markerfacecolor() == "white")
             for c in curves}
    assert len(looks) == 4


def test_data_plane_legend_names_rings_arrow_and_band():
    ds = datasets.load("separable", n=30, seed=2)
    pf = _figure()
    pf.set_run(train(ds.X, ds.y, rule="margin"), ds.X, ds.y)
    labels = _legend_labels(pf.plane.ax)
    for want in ("class +1", "class −1", "predicts +1 (f ≥ 0)", "predicts −1 (f < 0)",
                 "boundary now", "boundary before", "visited / triggered update", "update η·y·x",
                 "band f(x) = ±1"):
        assert want in labels
    pf.set_run(_koski_run(), KOSKI.X, KOSKI.y)
    assert not any(lbl.startswith("band") for lbl in _legend_labels(pf.plane.ax))


def _display_box(artist, renderer):
    return artist.get_window_extent(renderer)


def test_texts_and_legends_do_not_cover_the_curves():
    tr = _koski_run()
    pf = _figure(dpi=80)
    pf.set_run(tr, KOSKI.X, KOSKI.y)
    for k in (0, 1, 2, 3, 12):
        pf.show(k)
        pf.fig.canvas.draw()
        r = pf.fig.canvas.get_renderer()
        # the bound's text sits in the band the y-limit keeps free above every curve
        box = _display_box(pf.mistakes.bound_text, r)
        ax = pf.mistakes.ax
        for line in (pf.mistakes.curve, pf.mistakes.bound):
            pts = ax.transData.transform(_line(line))
            assert not any(box.contains(*p) for p in pts)
            assert pts[:, 1].max() < box.y0
        # the proof legend sits in the band the y-limit keeps free above its curves
        legend = pf.proof.legend.get_window_extent(r)
        proof = pf.proof
        for line in (proof.dot_line, proof.norm_line, proof.dot_low, proof.norm_up):
            if len(line.get_xdata()):
                pts = proof.ax.transData.transform(_line(line))
                assert pts[:, 1].max() + 3 < legend.y0  # markers included
        assert not legend.overlaps(proof.ax.title.get_window_extent(r))
        # the data plane's legend is below the plane or, where that would shrink the plane,
        # beside it (issue 30), inside the figure
        lb = pf.plane.legend.get_window_extent(r)
        plane = pf.plane.ax.bbox
        assert (lb.y1 < plane.y0 or lb.x0 > plane.x1) and lb.y0 >= 0
        assert lb.x1 <= pf.fig.bbox.width + 1 and lb.y1 <= pf.fig.bbox.height + 1
        # the label of the update arrow does not sit on the boundary line
        if pf.plane.update_text.get_visible():
            tb = _display_box(pf.plane.update_text, r)
            seg = _line(pf.plane.line)
            t = np.linspace(0, 1, 400)[:, None]
            along = pf.plane.ax.transData.transform(seg[0] + t * (seg[1] - seg[0]))
            assert not any(tb.contains(*p) for p in along), f"step {k}"


def test_update_label_sits_beside_the_arrow_away_from_the_line():
    tr = _koski_run()
    pf = _figure(dpi=80)
    pf.set_run(tr, KOSKI.X, KOSKI.y)
    f = pf.show(1)
    w, b = f.w, f.b
    x, y = pf.plane.update_text.get_position()
    u = f.update_vector
    # on the far side of the arrow from the boundary: farther from the line than the arrow's middle
    dist = abs(np.dot(w, [x, y]) + b) / np.linalg.norm(w)
    assert dist > abs(np.dot(w, u / 2) + b) / np.linalg.norm(w)


# ---------------------------------------------------------------- weight space stays inside
@pytest.mark.parametrize("name,kw", [("koski", {}), ("overlapping", dict(n=40)), ("xor", {})])
def test_weight_walk_is_clipped_to_its_axes(name, kw):
    ds = datasets.load(name, **kw)
    tr = train(ds.X, ds.y, max_epochs=10) if name != "koski" else _koski_run()
    pf = _figure(blit=True, dpi=60)
    pf.set_run(tr, ds.X, ds.y)
    ws = pf.weights
    lo, hi = ws.ax.get_xlim(), ws.ax.get_ylim()
    W = tr.weights[:, :2]
    assert np.all((W[:, 0] > lo[0]) & (W[:, 0] < lo[1]) & (W[:, 1] > hi[0]) & (W[:, 1] < hi[1]))
    for art in ws.dynamic_artists():
        assert art.get_clip_on() and (art.get_clip_path() is not None or art.get_clip_box())
    canvas = pf.fig.canvas
    for k in (1, tr.n_steps // 2, tr.n_steps):
        pf.render(k)
        canvas.get_renderer().clear()  # draw the walk alone, as blitting does
        for art in ws.dynamic_artists():
            pf.fig.draw_artist(art)
        rgba = np.asarray(canvas.buffer_rgba())
        inside = np.zeros(rgba.shape[:2], bool)
        bb, H = ws.ax.bbox, rgba.shape[0]
        inside[H - int(np.ceil(bb.y1)) - 1: H - int(np.floor(bb.y0)) + 1,
               int(np.floor(bb.x0)) - 1: int(np.ceil(bb.x1)) + 1] = True
        assert rgba[..., 3][inside].max() > 0  # something was drawn ...
        assert rgba[..., 3][~inside].max() == 0  # ... and nothing outside the axes


# ---------------------------------------------------------------- blitting contract
def test_show_creates_no_artists_and_blit_matches_full_draw():
    tr = train(OVERLAP.X, OVERLAP.y, rule="pocket", max_epochs=3)
    live, ref = _figure(blit=True, hand=True), _figure(blit=False, hand=True)
    live.set_run(tr, OVERLAP.X, OVERLAP.y)
    ref.set_run(tr, OVERLAP.X, OVERLAP.y, live.info)

    def count(pf):
        return [len(ax.get_children()) for ax in pf.fig.axes]

    before = count(live)
    assert_blit_matches_full_draw(live, ref, (0, 5, 60, tr.n_steps))
    assert count(live) == before
    moving = live.dynamic_artists()
    for art in (live.plane.kept_line, live.plane.failing, live.plane.cert, live.plane.legend):
        assert art in moving and art.get_animated()


def test_frame_and_figure_agree_on_narration():
    tr = train(XOR.X, XOR.y, max_epochs=10)
    pf = _figure()
    pf.set_run(tr, XOR.X, XOR.y)
    assert pf.show(tr.n_steps).text == frame(tr, XOR.X, XOR.y, tr.n_steps, info=pf.info).text


# ---------------------------------------------------------------- weight space (issue 19)
def _green_patches(ax):
    from matplotlib.patches import Polygon

    return [p for p in ax.patches if isinstance(p, Polygon) and p.get_visible()]


def test_version_space_slice_is_drawn_with_the_offset_on():
    """Koski's example fits an offset: the weight panel shows the version space's slice at the
    current b at every step, and the final w (which separates) lies in it."""
    from matplotlib.path import Path

    from explorer.shared.geometry import version_space_slice

    tr = _koski_run()
    pf = _figure()
    pf.set_run(tr, KOSKI.X, KOSKI.y)
    ws = pf.weights
    lim = ws.ax.get_xlim()[1]
    for k in range(tr.n_steps + 1):
        f = pf.show(k)
        shown = _green_patches(ws.ax)
        assert len(shown) == 1, k
        want = version_space_slice(KOSKI.X, KOSKI.y, f.b, (-lim, lim, -lim, lim))
        np.testing.assert_allclose(shown[0].get_xy()[: len(want)], want)
        assert not ws.slice_note.get_visible()
    assert Path(shown[0].get_xy()).contains_point(tr.final_w)
    assert "slice at the current b" in ws.ax.get_xlabel()
    from explorer.plots.weights import SHORT_NOTES, SLICE_NOTE  # a narrow panel: the short form

    assert SLICE_NOTE.startswith("green: version space at the current b")
    assert ws.note.get_text() in (SLICE_NOTE, SHORT_NOTES[SLICE_NOTE])


def test_an_empty_slice_says_why():
    X, y = np.array([[1.0, 0.0], [2.0, 0.0]]), np.array([-1.0, 1.0])  # separable only for b < 0
    tr = train(X, y, max_epochs=20)
    pf = _figure()
    pf.set_run(tr, X, y)
    ws = pf.weights
    pf.show(0)  # b = 0
    assert not _green_patches(ws.ax) and ws.slice_note.get_visible()
    assert ws.slice_note.get_text() == "no w separates the data\nat this b = 0"
    f = pf.show(1)  # b = -1: 0.5 < w1 < 1
    assert f.b == -1 and len(_green_patches(ws.ax)) == 1 and not ws.slice_note.get_visible()
    pf.set_run(tr, X, y, replace(pf.info, separable=None, pending=True))  # verdict not known yet
    pf.show(0)
    assert ws.slice_note.get_text() == "no w in this view separates\nthe data at b = 0"
    tx = train(XOR.X, XOR.y, max_epochs=5)
    pf.set_run(tx, XOR.X, XOR.y)
    pf.show(3)
    assert not _green_patches(ws.ax) and not ws.slice_note.get_visible()
    from explorer.plots.weights import EMPTY_NOTE, SHORT_NOTES

    assert EMPTY_NOTE == "no (w, b) separates the data:\nthe version space is empty"
    assert ws.note.get_text() in (EMPTY_NOTE, SHORT_NOTES[EMPTY_NOTE])


def test_a_fixed_offset_is_sliced_not_coned():
    """Without fitting b but from b0 != 0 the version space is the slice at b0 (it was the
    cone through the origin, which belongs to b = 0)."""
    X, y = np.array([[1.0, 0.0], [2.0, 0.0]]), np.array([-1.0, 1.0])
    tr = train(X, y, fit_intercept=False, b0=-1.5, max_epochs=20)
    pf = _figure()
    pf.set_run(tr, X, y)
    pf.show(tr.n_steps)
    shown = _green_patches(pf.weights.ax)
    assert len(shown) == 1
    np.testing.assert_allclose(sorted(set(np.round(shown[0].get_xy()[:, 0], 9))), [0.75, 1.5])


@pytest.mark.parametrize("case,lim", [("start only", 2.0), ("tiny data", 2e-12),
                                      ("no update from (3, 3)", 4.0), ("koski", 1.5)])
def test_weight_space_limits_are_round_and_never_a_millionth(case, lim):
    """A run still at w = 0 showed ±1e-6; the limits now hold the walk and one update's length,
    rounded up."""
    if case == "start only":
        tr, X, y = train(XOR.X, XOR.y, max_steps=0), XOR.X, XOR.y  # w = 0, first step 1.41
    elif case == "tiny data":
        X, y = XOR.X * 1e-12, XOR.y
        tr = train(X, y, max_steps=0)
    elif case == "no update from (3, 3)":
        X, y = np.array([[1.0, 1.0], [-1.0, -1.0]]), np.array([1.0, -1.0])
        tr = train(X, y, w0=[3.0, 3.0], eta=0.1)
        assert tr.n_updates == 0
    else:
        tr, X, y = _koski_run(), KOSKI.X, KOSKI.y
    pf = _figure()
    pf.set_run(tr, X, y)
    pf.show(0)
    ax = pf.weights.ax
    assert ax.get_xlim() == pytest.approx((-lim, lim)) and ax.get_ylim() == pytest.approx((-lim, lim))
