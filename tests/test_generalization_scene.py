"""The Generalization figure as a scene (issue 21): one description of the moving parts, drawn by
matplotlib (``show``, ``set_stability``) and by the page (the scene's tracks: the loss markers of
every step in chunks, the simulation's points and the stability legend's title as static tracks
that grow), and both agree.

At sampled steps of runs on margin data and on real data, with every loss or a few shown and
with the simulation empty, part done or done, every track's artist read back through
matplotlib's transforms in CSS px equals the chunk's (or the static) arrays mapped with the
scene's panels (log axes in log10 units), within half a CSS pixel; marker sizes and colours
match the tracks' styles; each line of the legend's title is a text track with the words and
the baseline matplotlib's renderer was given. Compositing the still layers with the moving
artists drawn alone gives the picture of a full matplotlib draw.
"""


import numpy as np
import pytest
from matplotlib.collections import LineCollection
from matplotlib.colors import to_hex
from matplotlib.offsetbox import OffsetBox
from scene_checks import TOL, actual, close, close_segments, drawn_lines, expected, image, over

from explorer import generalization as G
from explorer.perceptron import train
from explorer.plots.generalization import GeneralizationFigure
from explorer.plots.generalization_scene import CUT_HEAD, CUT_LINES, LOSS_STYLE, SPLIT_Z
from explorer.plots.layers import layer_dpi, render, still_artists
from explorer.plots.tracks import px_per_pt
from explorer.shared import datasets

W, H = 1040, 547
NS = (3, 10, 40, 200)


@pytest.fixture(scope="module")
def curves():
    """The simulation part done (two sizes) and done (four)."""
    full = G.stability_curve(ns=NS, trials=20, dim=2, gamma=0.3, seed=2)
    parts = [G.stability_curve(ns=(n,), trials=20, dim=2, gamma=0.3, seed=2) for n in NS]
    return {"none": None, "part": G.join_curves(parts[:2], planned=NS, stopped=True),
            "done": full}


def _run(data):
    if data == "margin":
        s = G.sample_margin(n=30, gamma=0.2, seed=3)
        X, y = np.array(s.X), np.array(s.y)
        return X, y, train(X, y, rule="margin", fit_intercept=False, max_epochs=50)
    ds = datasets.load("iris")
    X, y = np.asarray(ds.X)[:70], np.asarray(ds.y)[:70]
    return X, y, train(X, y, rule="classic", order="cyclic", max_epochs=5)


def _figure(data, curve, *, shown=tuple(LOSS_STYLE), chunk=64, ratio=1.0):
    f = GeneralizationFigure()
    f.set_losses(shown)
    f.set_stability(curve, ns=NS, trials=20)
    f.set_run(*_run(data))
    f.tail = " Simulation: summary."
    return f, f.scene(width=W, height=H, ratio=ratio, chunk=chunk)


def _steps(n):
    rng = np.random.default_rng(1)
    return sorted({min(k, n) for k in (0, 1, 2, n // 2, n, *rng.integers(0, n + 1, 3))})






def _check_title(f, scene, static, what):
    """The legend title's text tracks (one a line, over the legend) against the lines a full
    matplotlib draw gives its renderer: the same words at the same baselines, in its style."""
    title = f.stability.title
    lines = title.get_text().split("\n") if title.get_text() else []
    assert lines[:1] == ([CUT_HEAD] if lines else []), what
    drawn = [(s, xy) for s, xy in drawn_lines(f.fig) if s in lines]
    assert [s for s, _ in drawn] == lines, what  # each line once, in order
    names = [f"sim_cut_{i}" for i in range(CUT_LINES)]
    tracks = {t.name: t for t in scene.tracks}
    for i, name in enumerate(names):
        want = expected(scene, static, tracks[name], 0)
        assert want["visible"] == (i < len(lines)), (what, name)
        if want["visible"]:
            assert (want["text"], want["ha"], want["va"]) == (lines[i], "left", "baseline")
            close(want["px"], drawn[i][1], f"{what}, {name}")
        t = tracks[name]
        assert (t.panel, t.layer) == ("figure", "over")  # over the legend's frame
        assert t.style["font"] == pytest.approx(title.get_fontsize() * px_per_pt(f.fig),
                                                abs=1e-3)


def _check(f, scene, source, row, track, art, what):
    """The page's instruction for ``track`` (from ``source``, a chunk or the statics) against
    what ``art`` shows."""
    fig = f.fig
    if track.name.startswith("sim_cut_"):
        return  # the title's lines: _check_title
    if isinstance(art, LineCollection):  # the error bars: one polyline broken by NaN rows
        close_segments(fig, scene, source, track, row, art, what)
        return
    want = expected(scene, source, track, row)
    got = actual(fig, scene.height, art, track.kind)
    assert got["visible"] == want["visible"], what
    if want["visible"]:
        close(got["px"], want["px"], what)
    if track.name.endswith("_marks") and "c" in want:  # filled with the line's marker face
        face = to_hex(art.get_markerfacecolor())
        assert [track.style["colors"][c] for c in want["c"]] == [face] * len(want["c"]), what
    if track.name.startswith("loss_"):  # white markers edged in the loss's colour, same size
        p = scene.panel(track.panel)  # inside the panel: a point beyond is drawn at its edge
        px = np.asarray(want["px"]).reshape(-1, 2)
        assert np.all((px[:, 0] >= p.x - TOL) & (px[:, 0] <= p.x + p.w + TOL)), what
        assert np.all((px[:, 1] >= p.y - TOL) & (px[:, 1] <= p.y + p.h + TOL)), what
        assert track.style["color"] == to_hex(art.get_edgecolors()[0]), what
        assert [track.style["colors"][c] for c in want["c"]] == ["#ffffff"] * len(want["c"])
        assert track.style["size"] == pytest.approx(np.sqrt(art.get_sizes()[0])
                                                    * px_per_pt(fig), rel=1e-3), what


def _agree(f, scene, steps):
    arts = f.track_artists()
    tracks = {t.name: t for t in scene.tracks}
    assert set(arts) == set(tracks)
    static, chunks = f.statics(), {}
    for k in steps:
        chunk = chunks.setdefault(k // scene.chunk, f.chunk(k // scene.chunk))
        row = k - chunk.start
        text = f.show(k)
        # the page adds the statics' tail (the simulation's summary) to every step's narration
        assert chunk.narration[row] + static.tail == text + f.tail == f.narration(k)
        assert chunk.status[row] == f.status(k)
        assert set(chunk.arrays) | set(static.arrays) == set(tracks)
        assert not set(chunk.arrays) & set(static.arrays)
        for name, track in tracks.items():
            source, r = (chunk, row) if name in chunk.arrays else (static, 0)
            _check(f, scene, source, r, track, arts[name], f"step {k}, {name}")
    _check_title(f, scene, static, f"steps {steps}")


@pytest.mark.parametrize("data,sim,shown", [
    ("margin", "done", tuple(LOSS_STYLE)), ("margin", "none", tuple(LOSS_STYLE)),
    ("iris", "part", ("hinge", "zero_one")), ("iris", "done", ("logistic",))])
def test_matplotlib_draws_what_the_chunks_and_statics_describe(curves, data, sim, shown):
    f, scene = _figure(data, curves[sim], shown=shown)
    assert scene.n_steps == f.traj.n_steps
    assert {t.name for t in scene.tracks if t.name.startswith("loss_")} == \
        {f"loss_{n}" for n in shown}
    _agree(f, scene, _steps(scene.n_steps))


def test_the_stability_panel_is_mapped_in_log_units(curves):
    f, scene = _figure("margin", curves["done"])
    p = scene.panel("stability")
    assert p.xlim == pytest.approx(tuple(np.log10(f.stability.ax.get_xlim())))
    assert p.ylim == pytest.approx(tuple(np.log10(f.stability.ax.get_ylim())))
    rate = f.statics().arrays["sim_rate"]["xy"][0]
    seen = curves["done"].margin_rate > 0
    np.testing.assert_allclose(rate[: seen.sum(), 1],
                               np.log10(curves["done"].margin_rate[seen]), rtol=1e-6)


def test_a_finished_size_grows_the_static_tracks_or_asks_for_a_new_scene(curves):
    """While the probability axis and the legend's frame stay, a finished size is only new
    static arrays (the page redraws no still layer); otherwise ``grow`` says the scene must be
    made again. Either way, matplotlib and the page draw the same points."""
    full = curves["done"]
    f, scene = _figure("margin", full)
    again = f.grow(full)  # nothing changed on the axes: static tracks
    assert again is not None and f.described
    n = len(full.ns)
    assert np.isfinite(again.arrays["sim_bound"]["xy"][0]).all(axis=1).sum() == n
    _agree(f, scene, [0])
    f, scene = _figure("margin", None)
    grown = f.grow(curves["part"])
    if grown is None:  # the probability axis moved (and the legend's title came): new layers
        assert not f.described
        scene = f.scene(width=W, height=H, chunk=64)
    bound = f.statics().arrays["sim_bound"]["xy"][0]
    assert np.isfinite(bound).all(axis=1).sum() == 2
    _agree(f, scene, [0, 3])






def test_layers_and_tracks_composite_to_a_full_draw(curves):
    """below + the "under" tracks + above + the "over" tracks (the stability legend's title),
    each drawn by matplotlib alone, is the full draw: the legends lie over every other moving
    part, and the title's words over its legend's frame."""
    f, scene = _figure("margin", curves["done"])
    title = f.stability.title
    assert {t.layer for t in scene.tracks if not t.name.startswith("sim_cut_")} == {"under"}
    moving = [a for a in f.moving_artists() if a is not title]
    assert all(a.get_zorder() <= SPLIT_Z for a in moving)
    still = [a for a in still_artists(f.fig) if all(a is not m for m in moving)]
    legend = f.stability.legend  # the title alone ("over"): its legend, all else hidden
    rest = [a for a in still if a is not legend]
    rest += [a for a in legend.findobj() if a not in (legend, title)
             and not isinstance(a, OffsetBox)]  # the frame and entries (the layout stays)
    dpi = layer_dpi(f.fig, scene.ratio)
    for k in (1, scene.n_steps // 2):
        f.show(k)
        img = image(scene.below)
        img = over(img, image(render(f.fig, hide=[*still, title], dpi=dpi, transparent=True)))
        img = over(img, image(scene.above))
        img = over(img, image(render(f.fig, hide=[*rest, *moving], dpi=dpi, transparent=True)))
        full = image(render(f.fig, hide=[], dpi=dpi, transparent=False))
        assert img.shape == full.shape == (H, W, 4)
        strong = np.any(np.abs(img - full)[..., :3] > 40 / 255, axis=-1)
        assert strong.mean() < 5e-4, f"step {k}: {strong.sum()} pixels differ"


def test_chunks_carry_the_markers_narration_and_status(curves):
    f, scene = _figure("margin", curves["done"], chunk=256)
    chunk = f.chunk(0)
    content, buffers = chunk.message(run=1, index=0)
    assert set(content["arrays"]) == {f"loss_{n}" for n in LOSS_STYLE}
    assert sum(map(len, buffers)) / chunk.count <= 5 * 30 * 9  # 30 points of 9 bytes per loss
    assert chunk.status[5] == f"step 5 of {scene.n_steps} · 30 points · {f.traj.n_updates} updates"
    assert chunk.narration[5].startswith(f"Step 5 of {scene.n_steps}: mean training losses")
    assert chunk.narration[5] == f.step_text(5)  # the summary goes once, with the statics
    static = f.statics()
    assert static.tail == " Simulation: summary."
    assert static.message(run=1, index=0)[0]["tail"] == " Simulation: summary."
    assert "tail" not in content
    with pytest.raises(ValueError, match="chunk index"):
        f.chunk(scene.n_steps // 256 + 1)
    with pytest.raises(ValueError, match="needs a run"):
        GeneralizationFigure().scene(width=W, height=H)
