"""The XOR figure as a scene (issue 21): one description of each view's moving parts, drawn by
matplotlib (``show``) and by the page (the scene's tracks and chunks), and both agree.

At sampled steps of each view that plays a run, every moving artist's geometry after
``show(k)``, read back through matplotlib's transforms in CSS px, equals the chunk's arrays at
``k`` mapped with the scene's panels (within half a CSS pixel); the region images equal the
chunk's bits; the lifted 3-D view's parts are the projection of the 3-D vertices the page
receives, at the view's azimuth and elevation.
"""

import io

import numpy as np
import pytest
from matplotlib.patches import Rectangle
from PIL import Image
from scene_checks import actual, agree, close, expected, finite, to_css

from explorer import xor
from explorer.plots.layers import layer_dpi, render, still_artists
from explorer.plots.tracks import pieces as split
from explorer.plots.view3d import Panel3D, box_lines, cube_project, project
from explorer.plots.xor import XorFigure
from explorer.plots.xor_parts import SPLIT_Z, STEPPED, joined, staircase
from explorer.plots.xor_ways import region_rgba

W, H = 1040, 544

SCENES = {
    "xor ±1": dict(code=xor.XOR),
    "xor 0/1, degree 3": dict(code=xor.XOR, coding="01", degree=3, pair="and_nor"),
    "and": dict(code=1, passes=3),
    "xnor, degree 1": dict(code=xor.XNOR, degree=1, pair="one_only"),
}
_BUILT = {}


def _scene(name):
    if name not in _BUILT:
        kw = dict(SCENES[name])
        _BUILT[name] = xor.build_scene(kw.pop("code"), **kw)
    return _BUILT[name]


def _figure(name, view, *, chunk=16, ratio=1.0):
    f = XorFigure()
    f.set_scene(_scene(name), view)
    return f, f.scene(width=W, height=H, scale=1.0, ratio=ratio, chunk=chunk)


def _steps(n):
    rng = np.random.default_rng(1)
    return sorted({min(k, n) for k in (0, 1, 2, 3, 4, n // 2, n, *rng.integers(0, n + 1, 3))})




def _raster(f, scene, chunk, track, row, image, what):
    """The image shows the chunk's bits (class +1 tint where set) over the track's extent."""
    (x0, y0), (x1, y1), (cols, rows) = np.asarray(track.data["data"], float)
    bits = np.asarray(chunk.arrays[track.name]["bits"])[row]
    on = np.unpackbits(bits, axis=-1, count=int(cols))
    assert on.shape == (rows, cols), what
    np.testing.assert_array_equal(np.asarray(image.get_array()), region_rgba(on - 0.5), what)
    np.testing.assert_allclose(image.get_extent(), [x0, x1, y0, y1], err_msg=what)
    corners = to_css(f.fig, scene.height, image.axes.transData.transform([[x0, y0], [x1, y1]]))
    close(corners, scene.panel(track.panel).to_px([[x0, y0], [x1, y1]]), what)


def _projected(scene, chunk, track, row):
    """The page's vertices of a 3-D track at ``row``: its 3-D points projected with the
    panel's view, in CSS px."""
    p = scene.panel(track.panel)
    assert isinstance(p, Panel3D)
    a = chunk.arrays[track.name]
    xyz = np.asarray(a["xyz"][row] if "xyz" in a else track.data["data"], dtype=float)
    xy = project(xyz.reshape(-1, 3), azim=p.azim, elev=p.elev, lo=p.lo, hi=p.hi)
    return p.to_px(finite(xy)).reshape(-1, 2)


def _check(f, scene, chunk, track, row, art, k):
    what = f"{f.view} step {k}, {track.name}"
    kind = track.kind
    if kind == "raster":
        _raster(f, scene, chunk, track, row, art, what)
        return
    if kind == "axes3d":
        p = scene.panel(track.panel)
        edges = p.to_px(finite(cube_project(box_lines(), azim=p.azim, elev=p.elev)))
        close(actual(f.fig, scene.height, art, "polyline")["px"], edges, what)
        labels = [p.to_px(cube_project(np.array(u), azim=p.azim, elev=p.elev)[None])[0]
                  for u, _, _ in p.labels]
        texts = f.lifted.texts
        assert [t.get_text() for t in texts] == [text for _, text, _ in p.labels], what
        got = [to_css(f.fig, scene.height, t.get_transform().transform(t.get_position()))[0]
               for t in texts]
        close(got, labels, what)
        return
    if kind.endswith("3d"):
        want = _projected(scene, chunk, track, row)
        got = actual(f.fig, scene.height, art, "polyline" if kind == "polyline3d" else "x")
        assert got["visible"] == (len(want) >= (3 if kind == "polygon3d" else 1)), what
        if got["visible"]:
            g = got["px"]
            if kind == "polygon3d":  # the patch's vertices, as the page fills them
                want = want[np.r_[True, np.any(np.abs(np.diff(want, axis=0)) > 1e-9, axis=1)]]
            close(g, want, what)
        return
    want = expected(scene, chunk, track, row)
    if isinstance(art, Rectangle):  # a dual weight's bar: its four corners (a bar of height 0
        # is drawn by both as its edge, a line at 0)
        x, y, w, h = art.get_x(), art.get_y(), art.get_width(), art.get_height()
        xy = art.axes.transData.transform([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
        got = {"px": to_css(f.fig, scene.height, xy), "visible": art.get_visible()}
        corners = np.asarray(chunk.arrays[track.name]["xy"][row], float)
        want = {"px": scene.panel(track.panel).to_px(corners), "visible": True}
    elif track.name == "curve":  # a LineCollection: its pieces, as the NaN-broken polyline
        segs = art.get_segments()
        xy = np.vstack(segs) if segs else np.zeros((0, 2))
        got = {"px": to_css(f.fig, scene.height, art.axes.transData.transform(xy)) if len(xy)
               else xy, "visible": len(xy) > 0}
    else:
        got = actual(f.fig, scene.height, art, kind)
    agree(got, want, kind, what)


CASES = [(name, view) for view in STEPPED for name in SCENES
         if not (view == "cycling" and name == "xnor, degree 1")]


@pytest.mark.parametrize("name,view", CASES)
def test_matplotlib_draws_what_the_chunks_describe(name, view):
    f, scene = _figure(name, view)
    arts = f.track_artists()
    tracks = {t.name: t for t in scene.tracks}
    assert set(arts) == set(tracks) and "region" in tracks
    assert scene.n_steps == _scene(name).steps(view) > 0
    chunks = {}
    for k in _steps(scene.n_steps):
        index = k // scene.chunk
        chunk = chunks.setdefault(index, f.chunk(index))
        row = k - chunk.start
        text = f.show(k)
        f.fig.canvas.draw()
        assert chunk.narration[row] == text
        for tname, track in tracks.items():
            _check(f, scene, chunk, track, row, arts[tname], k)


def test_the_cycle_appears_in_the_page_when_the_run_finds_it():
    """"So far": the span and its note are drawn from the step where the cycle is found, not
    before; the narration says it from then on."""
    f, scene = _figure("xor ±1", "cycling", chunk=64)
    c = _scene("xor ±1").run.cycle
    assert c.found and c.step == 4
    chunk = f.chunk(0)
    strings = chunk.strings
    note = chunk.arrays["cycle_note"]
    span = chunk.arrays["cycle_span"]["xy"]
    for k in range(scene.n_steps + 1):
        shown = k >= c.step
        assert bool(np.isfinite(span[k]).all(axis=1).sum() >= 3) == shown, k
        assert (strings[note["t"][k]] == "cycle of length 4 found at step 4") == shown, k
        assert ("cycle of length 4 found at step 4" in chunk.narration[k]) == shown, k
    # the curves so far: step k's prefix ends at (k, updates until k)
    t = _scene("xor ±1").run.trajectory
    data = {tr.name: tr for tr in scene.tracks}["updates"].data["data"]
    for k in (0, 3, scene.n_steps):
        n = int(chunk.arrays["updates"]["n"][k])
        np.testing.assert_array_equal(data[n - 1], [k, t.updates_until(k)])


def test_a_chunk_of_raster_steps_stays_small():
    """The region images travel as packed bits: 1.8 kB a step at 120 × 120."""
    f, scene = _figure("xor ±1", "kernel", chunk=256)
    chunk = f.chunk(0)
    _, buffers = chunk.message(run=1, index=0)
    per_step = sum(map(len, buffers)) / chunk.count
    assert per_step < 6000, per_step
    assert chunk.status[0] == f"step 0 of {scene.n_steps}"
    f.status_of = lambda k: f"Kernel · XOR · step {k}"
    assert f.chunk(0).status[3] == "Kernel · XOR · step 3"


def test_the_lifted_view_turns_and_its_parts_follow():
    """Turning the view moves the projected parts (what the page does as it is dragged) and
    the next scene carries the new view; the plane's vertices stay 3-D."""
    f, scene = _figure("xor ±1", "feature")
    p = scene.panel("lift")
    assert (p.azim, p.elev) == (f.lifted.azim, f.lifted.elev)
    header = p.header()["view3d"]
    assert len(header["labels"]) == len(p.labels) >= 3 and header["lo"] == list(p.lo)
    before = f.lifted.pos.get_offsets().copy()
    f.lifted.set_view(30.0, 60.0)
    assert not np.allclose(before, f.lifted.pos.get_offsets())
    scene2 = f.scene(width=W, height=H)
    p2 = scene2.panel("lift")
    assert (p2.azim, p2.elev) == (30.0, 60.0)
    f.show(scene2.n_steps)
    chunk = f.chunk(scene2.n_steps // scene2.chunk)
    track = {t.name: t for t in scene2.tracks}["lift_plane"]
    row = scene2.n_steps - chunk.start
    xyz = np.asarray(chunk.arrays["lift_plane"]["xyz"][row], float)
    w, b = _scene("xor ±1").lifted.trajectory.state(scene2.n_steps)
    ok = np.isfinite(xyz).all(axis=1)
    np.testing.assert_allclose(xyz[ok] @ w + b, 0, atol=1e-4)  # on the perceptron's plane
    _check(f, scene2, chunk, track, row, f.lifted.plane, scene2.n_steps)
    f.lifted.set_view(0.0, 200.0)
    assert f.lifted.elev == 90.0  # clamped


@pytest.mark.parametrize("view", ["proof", "grid"])
def test_views_without_a_run_are_still_layers_with_their_panels(view):
    f, scene = _figure("xor ±1", view)
    assert scene.n_steps == 0 and scene.tracks == ()
    names = [p.name for p in scene.panels]
    assert names[0] == "plane"
    if view == "grid":
        assert names[1:] == [f"tile{c}" for c in range(16)]
    chunk = f.chunk(0)
    assert chunk.count == 1 and chunk.arrays == {}
    assert "hulls cross" in chunk.narration[0] if view == "proof" else "16" in chunk.narration[0]


def test_every_moving_artist_is_a_track_and_layers_split_at_the_points():
    f, scene = _figure("xor ±1", "cycling")
    layer = {t.name: t.layer for t in scene.tracks}
    assert layer["region"] == layer["line"] == layer["updates"] == "under"
    assert layer["ring"] == layer["updates_dot"] == "over"
    assert all(a.get_zorder() >= SPLIT_Z for a in (f.pos, f.neg, *f.numbers))
    f, scene = _figure("xor ±1", "layers")
    assert all(a.get_zorder() >= SPLIT_Z for a in (f.hidden.pos, f.hidden.neg))


@pytest.mark.parametrize("view", ["cycling", "kernel", "feature"])
def test_layers_and_tracks_composite_to_a_full_draw(view):
    """below + the "under" tracks + above + the "over" tracks, each drawn by matplotlib alone,
    is the full draw (but where a moving part crosses a still one of the other layer)."""
    f, scene = _figure("xor ±1", view, chunk=256)
    arts = f.track_artists()
    layer_of = {id(arts[t.name]): t.layer for t in scene.tracks}
    moving = f.moving_artists()
    for a in f.lifted.texts if view == "feature" else ():
        layer_of[id(a)] = layer_of[id(f.lifted.box)]
    still = [a for a in still_artists(f.fig) if all(a is not m for m in moving)]
    dpi = layer_dpi(f.fig, scene.ratio)

    def image(png):
        return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"), dtype=float) / 255

    def over(dst, src):
        a = src[..., 3:]
        out = dst.copy()
        out[..., :3] = src[..., :3] * a + dst[..., :3] * (1 - a)
        return out

    for k in (1, scene.n_steps):
        f.show(k)
        img = image(scene.below)
        for layer in ("under", "above", "over"):
            if layer == "above":
                if scene.above:
                    img = over(img, image(scene.above))
                continue
            keep = {id(a) for a in moving if layer_of[id(a)] == layer}
            hide = [*still, *(a for a in moving if id(a) not in keep)]
            img = over(img, image(render(f.fig, hide=hide, dpi=dpi, transparent=True)))
        full = image(render(f.fig, hide=[], dpi=dpi, transparent=False))
        assert img.shape == full.shape == (H, W, 4)
        strong = np.any(np.abs(img - full)[..., :3] > 40 / 255, axis=-1)
        assert strong.mean() < 5e-4, f"step {k}: {strong.sum()} pixels differ"


def test_helpers_round_trip():
    v = [0, 1, 1, 3]
    s = staircase(v)
    np.testing.assert_array_equal(s, [[0, 0], [1, 0], [1, 1], [2, 1], [2, 1], [3, 1], [3, 3]])
    pieces = [np.array([[0.0, 0], [1, 1]]), np.array([[2.0, 2], [3, 3], [4, 5]])]
    back = split(joined(pieces))
    assert len(back) == 2 and all(np.array_equal(a, b) for a, b in zip(back, pieces, strict=True))
    assert split(joined([])) == []
