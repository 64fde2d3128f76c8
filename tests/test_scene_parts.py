"""The Perceptron figure as a scene (issue 20): one description of the moving parts, drawn by
matplotlib (``show``) and by the page (the scene's tracks and chunks), and both agree.

At sampled steps of several runs, every moving artist's geometry after ``show(k)``, read back
through matplotlib's transforms in CSS px, equals the chunk's arrays at ``k`` mapped with the
scene's panels (positions and visibility, within half a CSS pixel). Compositing the still
layers with the moving artists drawn alone gives the picture of a full matplotlib draw.
"""

import json

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from scene_checks import TOL, actual, close, expected, image, over
from test_degenerate import DATA

from explorer.perceptron import train
from explorer.perceptron.replay import frame
from explorer.plots import PerceptronFigure
from explorer.plots.figure import SPLIT_Z
from explorer.plots.layers import layer_dpi, render, still_artists
from explorer.plots.scene import FIGURE, HA, VA
from explorer.plots.tracks import px_per_pt
from explorer.shared import datasets

KOSKI = datasets.load("koski")
XOR = datasets.load("xor")
OVERLAP = datasets.load("overlapping", n=40)
W, H = 1040, 544


def _runs():
    tiny_X, tiny_y = DATA["tiny"]
    tiny = type("Data", (), {"X": tiny_X, "y": tiny_y})
    zeros = type("Data", (), dict(zip(("X", "y"), DATA["zero vectors"], strict=True)))
    chosen = [4, 2, 0, 1, 3, 5, 2]
    return {
        "koski": (train(KOSKI.X, KOSKI.y, eta=0.2, w0=[1, 0.5], order=[4, 2, 0, 1, 3, 5]),
                  KOSKI, False),
        "xor cycling": (train(XOR.X, XOR.y, max_epochs=60), XOR, False),
        "pocket": (train(OVERLAP.X, OVERLAP.y, rule="pocket", max_epochs=5), OVERLAP, False),
        "averaged": (train(OVERLAP.X, OVERLAP.y, rule="averaged", max_epochs=5), OVERLAP,
                     False),
        "batch 3": (train(OVERLAP.X, OVERLAP.y, batch_size=3, max_epochs=4), OVERLAP, False),
        "you choose": (train(KOSKI.X, KOSKI.y, order=chosen, max_steps=len(chosen)), KOSKI,
                       True),
        "no offset": (train(OVERLAP.X, OVERLAP.y, fit_intercept=False, rule="margin",
                            max_epochs=3), OVERLAP, False),
        "regularized": (train(KOSKI.X, KOSKI.y, rule="regularized", rho=0.05, max_epochs=6),
                        KOSKI, False),
        "you choose, nothing yet": (train(KOSKI.X, KOSKI.y, order=[0], max_steps=0), KOSKI,
                                    True),
        "tiny": (train(tiny_X, tiny_y, fit_intercept=False, max_epochs=20), tiny, False),
        "tiny with offset": (train(tiny_X, tiny_y, max_epochs=20), tiny, False),
        # w stays 0 (only b moves): one class's shading fills the plane, the walk stands still
        "zero vectors": (train(*DATA["zero vectors"], max_epochs=10), zeros, False),
    }


RUNS = _runs()


def _figure(run, *, chunk=64, ratio=1.0):
    traj, ds, hand = RUNS[run]
    fig = Figure()
    FigureCanvasAgg(fig)
    pf = PerceptronFigure(fig)
    pf.hand = hand
    pf.set_run(traj, ds.X, ds.y)
    scene = pf.scene(width=W, height=H, scale=1.0, ratio=ratio, chunk=chunk)
    return pf, scene


def _steps(n):
    rng = np.random.default_rng(0)
    return sorted({min(k, n) for k in (0, 1, 2, 3, n // 2, n, *rng.integers(0, n + 1, 4))})




def _check_track(pf, scene, chunk, track, row, art, k):
    kind = "marks" if track.name.endswith("_marks") else track.kind
    want = expected(scene, chunk, track, row)
    got = actual(pf.fig, scene.height, art, kind)
    what = f"step {k}, {track.name}"
    assert got["visible"] == want["visible"], what
    if not want["visible"]:
        return
    if "segments" in want:
        assert len(got["segments"]) == len(want["segments"]), what
        for g, e in zip(got["segments"], want["segments"], strict=True):
            close(g, e, what)
    elif "x" in want:
        assert abs(got["x"] - want["x"]) <= TOL, what
    else:
        close(got["px"], want["px"], what)
    if track.kind == "text":
        assert (got["text"], got["ha"], got["va"]) == (want["text"], want["ha"], want["va"]), what
    if "c" in want:  # each ring's colour is the style colour its code picks
        colors = [to_hex(c) for c in got["edge"]]
        assert colors == [track.style["colors"][c] for c in want["c"]], what


@pytest.mark.parametrize("run", list(RUNS))
def test_matplotlib_draws_what_the_chunks_describe(run):
    _agree(run)


def test_the_weight_arrows_window_agrees_when_capped(monkeypatch):
    """Past MAX_ARROWS distinct segments only the latest keep an arrow, in both drawings."""
    from explorer.plots import weights

    monkeypatch.setattr(weights, "MAX_ARROWS", 5)
    _agree("pocket")


def _agree(run):
    pf, scene = _figure(run)
    arts = pf.track_artists()
    tracks = {t.name: t for t in scene.tracks}
    assert set(arts) == set(tracks)
    chunks = {}
    for k in _steps(scene.n_steps):
        index = k // scene.chunk
        chunk = chunks.setdefault(index, pf.chunk(index))
        row = k - chunk.start
        f = pf.show(k)
        pf.fig.canvas.draw()  # the legend places its texts when drawn
        assert chunk.narration[row] == f.text
        for name, track in tracks.items():
            if name in ("walk", "walk_decay"):
                continue
            _check_track(pf, scene, chunk, track, row, arts[name], k)
        # the walk's path is the prefix of distinct segments, then the decay since the update
        walk = expected(scene, chunk, tracks["walk"], row)
        decay = expected(scene, chunk, tracks["walk_decay"], row)
        got = actual(pf.fig, scene.height, pf.weights.path, "polyline")
        close(got["px"], np.vstack([walk["px"], decay["px"]]), f"step {k}, walk")


def test_every_moving_artist_is_a_track_or_still_for_stacking_only():
    pf, scene = _figure("pocket")
    pf.hand = True
    plane = pf.plane
    stacking = {id(a) for a in (plane.hull_pos, plane.hull_neg, plane.cert, plane.pos,
                                plane.neg, *plane.labels, plane.legend)}
    moving = {id(a) for a in pf.moving_artists()}
    dynamic = {id(a) for a in pf.dynamic_artists()}
    assert dynamic - stacking <= moving
    assert moving - dynamic == {id(plane.kept_text)}  # inside the legend, which is dynamic
    layers = {t.name: t.layer for t in scene.tracks}
    assert layers["shade_pos"] == layers["shade_neg"] == "under"
    assert all(a.get_zorder() >= SPLIT_Z for a in (plane.pos, plane.neg, *plane.labels))
    assert json.loads(json.dumps(scene.header(), allow_nan=False))["n_steps"] == scene.n_steps


@pytest.mark.parametrize("rule", ["pocket", "averaged"])
def test_the_kept_legend_entry_does_not_move_the_legend_as_its_count_changes(rule):
    """The legend is a still layer: its entries stay put while the pocket's count changes
    (the count's entry is laid out as wide as its widest count). Before, a legend whose
    widest entry in a column was the count moved by half a digit's width when the count
    lost a digit (3.5 px at 1400 × 700)."""
    traj, ds, _ = RUNS[rule]
    for width, height in ((1040, 544), (1400, 700)):
        fig = Figure()
        FigureCanvasAgg(fig)
        pf = PerceptronFigure(fig)
        pf.set_run(traj, ds.X, ds.y)
        pf.fit(width, height)
        boxes, texts = [], set()
        for k in (0, 1, 5, traj.n_steps // 3, traj.n_steps):
            pf.show(k)
            fig.canvas.draw()
            texts.add(pf.plane.kept_text.get_text())
            r = fig.canvas.get_renderer()
            boxes.append([t.get_window_extent(r).bounds[:2] for t in pf.plane.legend.get_texts()
                          if t is not pf.plane.kept_text])
        assert len({len(t) for t in texts}) > 1  # counts of different widths were shown
        np.testing.assert_allclose(boxes, [boxes[0]] * len(boxes), atol=1e-6)






def _figure_texts(pf, scene, chunk, row):
    """The figure-panel text tracks (the legend's count) drawn by matplotlib from the chunk
    alone: a text at its CSS px, in its style (its legend is a still layer)."""
    pt = px_per_pt(pf.fig)
    out = []
    for t in scene.tracks:
        if t.panel != FIGURE:
            continue
        a = chunk.arrays[t.name]
        x, y = (float(v) for v in a["xy"][row])
        out.append(pf.fig.text(x / scene.width, 1 - y / scene.height,
                               chunk.strings[int(a["t"][row])], color=t.style["color"],
                               fontsize=t.style["font"] / pt, fontweight=t.style["weight"],
                               ha=HA[int(a["ha"][row])], va=VA[int(a["va"][row])]))
    return out


@pytest.mark.parametrize("run", ["koski", "pocket", "you choose"])
def test_layers_and_tracks_composite_to_a_full_draw(run):
    """below + the "under" tracks + above + the "over" tracks, each drawn by matplotlib alone,
    is the full draw but for where a moving part crosses a still one of the other layer (the
    cursor over the bound's text, the walk's arrows over its start marker)."""
    pf, scene = _figure(run, chunk=256)
    arts = pf.track_artists()
    layer_of = {}
    for t in scene.tracks:
        assert layer_of.setdefault(id(arts[t.name]), t.layer) == t.layer  # one layer an artist
    moving = pf.moving_artists()
    still = [a for a in still_artists(pf.fig) if all(a is not m for m in moving)]
    dpi = layer_dpi(pf.fig, scene.ratio)
    chunk = pf.chunk(0)
    for k in (1, scene.n_steps // 2, scene.n_steps):
        pf.show(k)
        img = image(scene.below)
        for layer in ("under", "above", "over"):
            if layer == "above":
                img = over(img, image(scene.above))
                continue
            keep = {id(a) for a in moving if layer_of[id(a)] == layer}
            hide = [*still, *(a for a in moving if id(a) not in keep)]
            texts = _figure_texts(pf, scene, chunk, k) if layer == "over" else []
            img = over(img, image(render(pf.fig, hide=hide, dpi=dpi, transparent=True)))
            for t in texts:
                t.remove()
        full = image(render(pf.fig, hide=[], dpi=dpi, transparent=False))
        assert img.shape == full.shape == (H, W, 4)
        strong = np.any(np.abs(img - full)[..., :3] > 40 / 255, axis=-1)
        assert strong.mean() < 2e-4, f"step {k}: {strong.sum()} pixels differ"


def test_chunks_are_small_and_narrate_each_step():
    pf, scene = _figure("pocket", chunk=256)
    traj, ds, _ = RUNS["pocket"]
    chunk = pf.chunk(0)
    content, buffers = chunk.message(run=1, index=0)
    per_step = sum(map(len, buffers)) / chunk.count
    assert per_step < 1500, per_step
    assert chunk.status[5] == pf.status(5) == \
        f"step 5 of {traj.n_steps} · {traj.updates_until(5)} updates · 40 points"
    assert chunk.narration[7] == frame(traj, ds.X, ds.y, 7, info=pf.info).text
    with pytest.raises(ValueError, match="chunk index"):
        pf.chunk(scene.n_steps // 256 + 1)


def test_still_layers_are_drawn_at_the_pixel_ratio():
    pf, scene = _figure("koski", ratio=2.0)
    for png in (scene.below, scene.above):
        assert image(png).shape == (2 * H, 2 * W, 4)
    above = image(scene.above)
    assert above[..., 3].min() == 0 and above[..., 3].max() == 1  # transparent around the points
    plane = scene.panel("plane")
    x, y = plane.to_px(KOSKI.X[:1])[0] * 2
    assert above[int(round(y)), int(round(x)), 3] == 1  # a point is in the upper layer
