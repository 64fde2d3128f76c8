"""The Margins figure as a scene (issue 21): one description of the moving parts, drawn by
matplotlib (``show``, ``set_data``, ``draft``) and by the page (the scene's tracks, its chunks of
SGD steps and its static arrays of the data and their solution), and both agree.

At sampled steps of several runs and both layouts, every track's artist after ``show(k)``,
read back through matplotlib's transforms in CSS px, equals the chunk's (or the static) arrays
mapped with the scene's panels (positions, visibility, texts, ring sizes, within half a CSS
pixel); the same holds for an edit's parts. Compositing the still layers with the moving
artists drawn alone gives the picture of a full matplotlib draw.
"""


import numpy as np
import pytest
from matplotlib.collections import LineCollection
from matplotlib.colors import to_hex
from scene_checks import actual, agree, close_segments, expected, finite, image, over
from test_margins_figure import _cached

from explorer import margins
from explorer.plots import MarginsFigure
from explorer.plots.layers import layer_dpi, render, still_artists
from explorer.plots.margin_scene import SPLIT_Z
from explorer.plots.tracks import px_per_pt

W, H = 1040, 547
RUNS = [("separable", "overlaid"), ("soft", "overlaid"), ("loose", "overlaid"),
        ("xor", "overlaid"), ("iris", "overlaid"), ("soft", "side"), ("xor", "side")]


def _figure(case, layout="overlaid", *, chunk=64, ratio=1.0):
    X, y, cmp, sgd, path = _cached(case)
    mf = MarginsFigure(overlay=layout)
    mf.set_data(X, y, cmp, path=path, sgd=sgd)
    mf.summary = "summary"
    scene = mf.scene(width=W, height=H, scale=1.0, ratio=ratio, chunk=chunk)
    return mf, scene


def _steps(n):
    rng = np.random.default_rng(1)
    return sorted({min(k, n) for k in (0, 1, 2, n // 2, n, *rng.integers(0, n + 1, 3))})




def _check(mf, scene, source, row, track, art, what):
    """The page's instruction for ``track`` (``source`` is a chunk or the static arrays) against
    what ``art`` shows."""
    fig, pt = mf.fig, px_per_pt(mf.fig)
    want = expected(scene, source, track, row)
    if isinstance(art, LineCollection):  # the slack segments: one polyline broken by NaN
        close_segments(fig, scene, source, track, row, art, what)
        return
    got = actual(fig, scene.height, art, track.kind)
    if track.kind == "polygon":  # a polygon of one vertex draws nothing in either
        got["visible"] = got["visible"] and len(got["px"]) >= 3
    if not agree(got, want, track.kind, what):
        return
    arrays = source.arrays[track.name]
    if "s" in arrays:  # each ring's diameter
        s = np.asarray(arrays["s"][row], dtype=float)
        np.testing.assert_allclose(np.sqrt(art.get_sizes()) * pt, s, rtol=1e-5, err_msg=what)
    if "c" in want:  # filled markers: the fill is the colour the code picks
        faces = [to_hex(c) for c in art.get_facecolors()]
        faces = faces * len(want["c"]) if len(faces) == 1 else faces
        assert faces == [track.style["colors"][c] for c in want["c"]], what


def _agree(mf, scene, steps):
    arts = mf.track_artists()
    tracks = {t.name: t for t in scene.tracks}
    assert set(arts) == set(tracks)
    static = mf.statics()
    chunks = {}
    for k in steps:
        index = k // scene.chunk
        chunk = chunks.setdefault(index, mf.chunk(index))
        row = k - chunk.start
        mf.show(k)
        mf.fig.canvas.draw()  # annotations place their texts when drawn
        assert chunk.narration[row] == mf.narration(k)
        assert chunk.status[row] == mf.status(k)
        assert set(chunk.arrays) | set(static.arrays) == set(tracks)
        assert not set(chunk.arrays) & set(static.arrays)
        for name, track in tracks.items():
            source, r = (chunk, row) if name in chunk.arrays else (static, 0)
            _check(mf, scene, source, r, track, arts[name], f"step {k}, {name}")


@pytest.mark.parametrize("case,layout", RUNS)
def test_matplotlib_draws_what_the_chunks_and_statics_describe(case, layout):
    mf, scene = _figure(case, layout)
    assert scene.n_steps == mf.sgd.traj.n_steps
    _agree(mf, scene, _steps(scene.n_steps))


def test_a_log_objective_is_mapped_in_log_units():
    mf, scene = _figure("separable")  # the opening view's data
    assert mf.objective.ax.get_yscale() == "log"
    lo, hi = mf.objective.ax.get_ylim()
    assert scene.panel("objective").ylim == pytest.approx((np.log10(lo), np.log10(hi)))
    chunk = mf.chunk(0)
    value = mf.sgd.objective_at(3)
    assert chunk.arrays["dot"]["xy"][3, 0, 1] == pytest.approx(np.log10(value), rel=1e-6)


@pytest.mark.parametrize("case,C,share", [("soft", 1.0, 1.0), ("separable", None, 0.05)])
def test_an_edit_is_described_and_drawn_alike(case, C, share):
    """A point dragged towards the middle: the draft's static arrays (the points, the SVM's
    line, band, rings and slacks of the new solution, numbers hidden) agree with the artists,
    which show the new solution."""
    mf, scene = _figure(case)
    X, y, cmp, _, _ = _cached(case)
    X2 = X.copy()
    X2[0] = (1 - share) * X[0] + share * X.mean(axis=0)
    cmp2 = margins.compare(X2, y, C=C, perceptron_w=cmp.perceptron_w,
                           perceptron_b=cmp.perceptron_b)
    static = mf.draft(X2, y, cmp2)
    assert static is not None and static.count == 1
    mf.fig.canvas.draw()
    arts = mf.track_artists()
    for track in scene.tracks:
        if track.name in static.arrays:
            _check(mf, scene, static, 0, track, arts[track.name], f"draft, {track.name}")
    np.testing.assert_allclose(mf.plane.rings.get_offsets(), X2[cmp2.svm.support])
    numbers = [t for t in scene.tracks if "_number" in t.name]
    assert len(numbers) == len(mf.plane.labels) and (case == "soft" or numbers)
    assert all(not a.get_visible() for a in mf.plane.labels)
    shown = finite(static.arrays["plane_pos"]["xy"][0])
    assert any(np.allclose(p, X2[0]) for p in shown) or \
        any(np.allclose(p, X2[0]) for p in finite(static.arrays["plane_neg"]["xy"][0]))
    # what needs a new layout is declined: a point outside the box, the hard margin vanishing
    far = X.copy()
    far[0] = [100.0, 100.0]
    assert mf.draft(far, y, margins.compare(far, y, C=C, perceptron_w=cmp.perceptron_w,
                                            perceptron_b=cmp.perceptron_b)) is None


def test_the_layers_split_the_still_artists_and_the_tracks_stack_between_them():
    mf, scene = _figure("soft", "side")
    layers = {t.name: t.layer for t in scene.tracks}
    assert layers["sgd"] == layers["cursor"] == layers["dot"] == "over"
    assert all(layers[f"plane_{n}"] == "under" for n in ("pos", "neg", "line", "rings", "slab"))
    assert layers["perc_plane_pos"] == "under"
    moving = {id(a) for a in mf.moving_artists()}
    for a in (mf.plane.perc, mf.plane.target, mf.plane.legend, mf.perc_plane.perc):
        assert id(a) not in moving and a.get_zorder() >= SPLIT_Z  # still, over the data
    assert {p.name for p in scene.panels} == {"plane", "perc_plane", "duals", "objective"}






@pytest.mark.parametrize("case", ["soft", "xor"])
def test_layers_and_tracks_composite_to_a_full_draw(case):
    """below + the "under" tracks + above + the "over" tracks, each drawn by matplotlib alone,
    is the full draw but where a translucent moving part crosses a still one of the other
    layer (the grey slab and the perceptron's band blend in the other order)."""
    mf, scene = _figure(case, chunk=256)
    arts = mf.track_artists()
    layer_of = {id(arts[t.name]): t.layer for t in scene.tracks}
    moving = mf.moving_artists()
    still = [a for a in still_artists(mf.fig) if all(a is not m for m in moving)]
    dpi = layer_dpi(mf.fig, scene.ratio)
    for k in (1, scene.n_steps // 2):
        mf.show(k)
        img = image(scene.below)
        for layer in ("under", "above", "over"):
            if layer == "above":
                img = over(img, image(scene.above))
                continue
            keep = {id(a) for a in moving if layer_of[id(a)] == layer}
            hide = [*still, *(a for a in moving if id(a) not in keep)]
            img = over(img, image(render(mf.fig, hide=hide, dpi=dpi, transparent=True)))
        full = image(render(mf.fig, hide=[], dpi=dpi, transparent=False))
        assert img.shape == full.shape == (H, W, 4)
        strong = np.any(np.abs(img - full)[..., :3] > 40 / 255, axis=-1)
        assert strong.mean() < 5e-4, f"step {k}: {strong.sum()} pixels differ"


def test_chunks_are_small_and_the_statics_go_once():
    mf, scene = _figure("soft", chunk=256)
    chunk = mf.chunk(0)
    content, buffers = chunk.message(run=1, index=0)
    assert set(content["arrays"]) == {"sgd", "cursor", "dot"}
    assert sum(map(len, buffers)) / chunk.count < 64  # 2 + 1 + 1 vertices a step
    assert chunk.status[5] == f"SGD step 5 of {scene.n_steps} · {len(mf.X)} points"
    assert chunk.narration[5].startswith("summary. Step 5 of ")
    with pytest.raises(ValueError, match="chunk index"):
        mf.chunk(scene.n_steps // 256 + 1)


def test_without_an_sgd_run_the_scene_has_one_step():
    X, y, cmp, _, path = _cached("separable")
    mf = MarginsFigure()
    mf.set_data(X, y, cmp, path=path, sgd=None)
    scene = mf.scene(width=W, height=H)
    chunk = mf.chunk(0)
    assert scene.n_steps == 0 and chunk.count == 1
    assert not np.isfinite(chunk.arrays["sgd"]["xy"]).any()
    assert not np.isfinite(chunk.arrays["cursor"]["x"]).any()
    _agree(mf, scene, [0])
