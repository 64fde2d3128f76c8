"""The Cover figure as a scene (issue 21): one description of the moving parts, drawn by
matplotlib (``show_step``, the tiles' ``set_data``) and by the page (the scene's tracks, the
chunks of Monte Carlo points, the static arrays of the tiles and the placed points), and both
agree: every track's artist, read back through matplotlib's transforms in CSS px, equals the
arrays mapped with the scene's panels (within half a CSS pixel), texts and visibility too.
Compositing the still layers with the moving artists drawn alone gives a full draw.
"""


import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from scene_checks import actual, close, expected, finite, image, over, pieces, to_css

from explorer import cover
from explorer.cover.counting import dichotomies
from explorer.plots.cover import CoverFigure
from explorer.plots.layers import layer_dpi, render, still_artists

W, H = 1040, 547
LINE4 = np.array([[-0.8, -0.6], [0.0, 0.0], [0.8, 0.6], [0.5, -0.7]])


@pytest.fixture(scope="module")
def mc():
    plan = cover.monte_carlo_plan([2, 5], trials=10)
    return cover.monte_carlo_points(plan, trials=10, seed=0).points


def _figure():
    f = Figure()
    FigureCanvasAgg(f)
    return CoverFigure(f)






def _check_collection(cf, scene, source, names, art, what):
    """Tracks ``names`` (polylines or polygons) together against one collection's paths."""
    fig, ax = cf.fig, art.axes
    want = []
    for name in names:
        track = next(t for t in scene.tracks if t.name == name)
        xy = np.asarray(source.arrays[name]["xy"][0], dtype=float)
        want += pieces(scene.panel(track.panel).to_px(xy))
    if isinstance(art, LineCollection):
        got = [to_css(fig, scene.height, ax.transData.transform(s)) for s in art.get_segments()]
    else:
        got = [to_css(fig, scene.height, ax.transData.transform(p.vertices[:4]))
               for p in art.get_paths()]
    assert len(got) == len(want), f"{what}: {len(got)} vs {len(want)}"
    for g, e in zip(got, want, strict=True):
        close(g, e, what)


def _check(cf, scene, source, row, track, art, what):
    if isinstance(art, (LineCollection, PolyCollection)):
        return  # checked by _check_collection
    fig = cf.fig
    want = expected(scene, source, track, row)
    if isinstance(art, Rectangle):  # the chosen tile's outline
        x, y, w, h = art.get_x(), art.get_y(), art.get_width(), art.get_height()
        corners = np.array([(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)])
        got = {"visible": art.get_visible(),
               "px": to_css(fig, scene.height, art.axes.transData.transform(corners))}
    elif art is None:  # a number of a point not placed
        got = {"visible": False}
    else:
        got = actual(fig, scene.height, art, track.kind)
    assert got["visible"] == want["visible"], what
    if not want["visible"]:
        return
    close(got["px"], want["px"], what)
    if track.kind == "text":
        assert (got["text"], got["ha"], got["va"]) == (want["text"], want["ha"], want["va"]), what


@pytest.mark.parametrize("mode", ["ratio", "n"])
def test_the_monte_carlo_points_are_steps_that_matplotlib_draws_alike(mc, mode):
    cf = _figure()
    curves = cover.cover_curves([2, 5, 20])
    scene = cf.scene(width=W, height=H, run=(curves, mode, mc), chunk=8)
    assert scene.n_steps == len(mc)
    assert {t.name for t in scene.tracks} == {f"mc_{w}_{i}" for w in ("dots", "bars")
                                              for i in range(3)}
    arts = cf.track_artists()
    for k in sorted({0, 1, 2, 9, len(mc) // 2, len(mc)}):
        chunk = cf.chunk(k // scene.chunk)
        row = k - chunk.start
        cf.show_step(k)
        shown = 0
        for track in scene.tracks:
            art, what = arts[track.name], f"{mode}, step {k}, {track.name}"
            if isinstance(art, LineCollection):
                _check_collection(cf, scene, _Row(chunk, row), [track.name], art, what)
            else:
                _check(cf, scene, chunk, row, track, art, what)
                shown += len(finite(chunk.arrays[track.name]["xy"][row]))
        assert shown == k  # one more point a step: M = 20 has none (M > the plan's)


class _Row:
    """A chunk's row as a one-row source (for :func:`_check_collection`)."""

    def __init__(self, chunk, row):
        self.arrays = {n: {k: np.asarray(v)[row:row + 1] for k, v in a.items()}
                       for n, a in chunk.arrays.items()}


def _tiles(cf, X, *, page_ids=None, chosen=3):
    d = dichotomies(X)
    ids = np.arange(2 ** len(X)) if page_ids is None else page_ids
    w, b = cover.separators(X, d.labelings, ids)
    cf.plane.set_data(X)
    cf.tiles.set_data(X, d.labelings, d.separable, ids, w=w, b=b,
                      title=f"{d.count} of {2 ** len(X)} separable")
    cf.tiles.select(chosen)
    return d


def _agree_statics(cf, scene, static):
    arts = cf.track_artists()
    tracks = {t.name: t for t in scene.tracks}
    assert set(static.arrays) == set(tracks) == set(arts)
    for prefix, g in cf._grids().items():
        _check_collection(cf, scene, static, [f"{prefix}_seps"], g.seps, f"{prefix}_seps")
        bad = [f"{prefix}_bad_{k}" for k in range(g.count)]
        _check_collection(cf, scene, static, bad, g.bad, f"{prefix}_bad")
    if cf.view == "dichotomies":
        _check_collection(cf, scene, static, ["plane_lines"], cf.plane.lines, "plane_lines")
    for name, track in tracks.items():
        _check(cf, scene, static, 0, track, arts[name], name)


def test_the_tiles_and_placed_points_are_static_tracks_drawn_alike():
    cf = _figure()
    cf.set_view("dichotomies")
    cf.fit(W, H)
    d = _tiles(cf, LINE4)
    scene = cf.scene(width=W, height=H)
    assert scene.n_steps == 0 and cf.chunk(0).arrays == {}
    static = cf.statics()
    cf.fig.canvas.draw()
    _agree_statics(cf, scene, static)
    shown = sum(np.isfinite(static.arrays[f"tiles_bad_{k}"]["xy"][0]).all() for k in range(16))
    assert shown == 16 - d.count == 4
    assert static.strings[static.arrays["tiles_title"]["t"][0]] == "12 of 16 separable"


def test_a_new_point_set_with_the_same_grid_is_new_static_arrays():
    """Random points after the collinear four: the still layers hold (restage gives the new
    arrays, which agree with the artists); five points make a new grid (a new scene)."""
    cf = _figure()
    cf.set_view("dichotomies")
    cf.fit(W, H)
    _tiles(cf, LINE4)
    scene = cf.scene(width=W, height=H)
    X = np.random.default_rng(3).uniform(-1, 1, (4, 2))
    d = _tiles(cf, X, chosen=7)
    static = cf.restage()
    assert static is not None
    cf.fig.canvas.draw()
    _agree_statics(cf, scene, static)
    assert static.strings[static.arrays["tiles_title"]["t"][0]] == f"{d.count} of 16 separable"
    before = cf.statics()
    assert not np.allclose(before.arrays["tiles_pos"]["xy"][0][:2], LINE4[:2])
    _tiles(cf, np.vstack([X, [[0.1, 0.9]]]))
    assert cf.restage() is None


def test_the_boolean_tiles_are_static_tracks_drawn_alike():
    from explorer.app.cover.scenes import BOOL_BOX

    cf = _figure()
    cf.set_view("boolean")
    cf.fit(W, H)
    V, d = cover.boolean_functions_2()
    ids = np.arange(16)
    w, b = cover.separators(V, d.labelings, ids)
    cf.bool_tiles.set_data(V, d.labelings, d.separable, ids, w=w, b=b, box=BOOL_BOX,
                           names=cover.BOOLEAN_NAMES_2, marked=(6, 9), title="M = 2")
    cf.bool_tiles.select(6)
    cf.bool_counts.set_data(cover.boolean_table(count_up_to=2))
    scene = cf.scene(width=W, height=H)
    static = cf.statics()
    cf.fig.canvas.draw()
    _agree_statics(cf, scene, static)
    weights = {t.name: t.style["weight"] for t in scene.tracks if "_label_" in t.name}
    assert weights["bool_tiles_label_6"] == weights["bool_tiles_label_9"] == "bold"
    assert weights["bool_tiles_label_0"] == "normal"


def test_a_run_grows_without_a_new_scene(mc):
    cf = _figure()
    curves = cover.cover_curves([2, 5])
    scene = cf.scene(width=W, height=H, run=(curves, "ratio", mc[:3]), chunk=4)
    grown = cf.grow(mc[:7])
    assert grown is not None and grown.n_steps == 7 and grown.below is scene.below
    chunk = cf.chunk(1)  # steps 4..7, the new points among them
    assert chunk.start == 4 and chunk.count == 4
    dots = sum(len(finite(chunk.arrays[n]["xy"][3])) for n in ("mc_dots_0", "mc_dots_1"))
    assert dots == 7
    assert cf.grow(mc[1:8]) is None  # not a continuation
    empty = _figure()
    empty.scene(width=W, height=H, run=(curves, "ratio", ()))
    assert empty.grow(mc[:1]) is None  # the legend gains its Monte Carlo entry






def test_layers_and_tracks_composite_to_a_full_draw(mc):
    cf = _figure()
    scene = cf.scene(width=W, height=H, run=(cover.cover_curves([2, 5]), "ratio", mc))
    cf.show_step(len(mc) // 2)  # (a new legend, as the still layer's)
    moving = cf.moving_artists()
    still = [a for a in still_artists(cf.fig) if all(a is not m for m in moving)]
    dpi = layer_dpi(cf.fig, scene.ratio)
    img = over(image(scene.below),
                image(render(cf.fig, hide=still, dpi=dpi, transparent=True)))
    img = over(img, image(scene.above))
    full = image(render(cf.fig, hide=[], dpi=dpi, transparent=False))
    assert img.shape == full.shape == (H, W, 4)
    strong = np.any(np.abs(img - full)[..., :3] > 40 / 255, axis=-1)
    assert strong.mean() < 5e-4, f"{strong.sum()} pixels differ"


@pytest.mark.parametrize("M_max,N_max", [(4, 10), (2, 5)])
def test_the_recursion_steps_are_tracks_drawn_alike(M_max, N_max):
    """At sampled steps the recursion table's cells (numbers, dots, the bold number just
    filled), the shaded cells and the outline agree with the table matplotlib draws."""
    from explorer.plots.recursion import RecursionFigure
    from explorer.plots.recursion_scene import NOW, SOURCE, interior_cells

    f = Figure()
    FigureCanvasAgg(f)
    rf = RecursionFigure(f)
    t = cover.recursion_table(M_max, N_max)
    rf.set_table(t)
    scene = rf.scene(width=W, height=H, chunk=16)
    cells = interior_cells(t)
    assert scene.n_steps == len(cells)
    tracks = {tr.name: tr for tr in scene.tracks}
    for k in sorted({0, 1, 2, len(cells) // 2, len(cells)}):
        chunk = rf.chunk(k // scene.chunk)
        row = k - chunk.start
        assert chunk.narration[row] == rf.show(k)
        assert chunk.status[row] == f"{k} of {len(cells)} cells filled by the recursion (60.73)"
        rf.fig.canvas.draw()  # the cells place their texts when drawn
        now = cells[k - 1] if k else None
        for m, N in cells:
            text = rf.grid[(m + 1, N)].get_text()
            name = "now" if (m, N) == now else (f"todo_{m}_{N}" if text.get_text() == "·"
                                                 else f"cell_{m}_{N}")
            want = expected(scene, chunk, tracks[name], row)
            assert want["visible"] and want["text"] == text.get_text(), (k, m, N)
            close(actual(f, scene.height, text, "text")["px"], want["px"], f"{k}, {name}")
            assert tracks[name].style["weight"] == text.get_fontweight()
        shown = [n for n in tracks if tracks[n].kind == "text"
                 and expected(scene, chunk, tracks[n], row)["visible"]]
        assert len(shown) == len(cells)  # one text a cell
        faces = {key: c.get_facecolor()[:3] for key, c in rf.grid.get_celld().items()}
        for name, color in (("now_fill", NOW), ("source_0", SOURCE), ("source_1", SOURCE)):
            want = expected(scene, chunk, tracks[name], row)
            assert want["visible"] == (k > 0)
            if k:
                panel = scene.panel("table")
                x, y = panel.to_data(*want["px"].mean(axis=0))
                r = int((1 - y) * (M_max + 2))
                c = int(x * (N_max + 1))
                from matplotlib.colors import to_rgb
                assert np.allclose(faces[(r, c)], to_rgb(color)), (k, name)
        box = expected(scene, chunk, tracks["outline"], row)
        assert box["visible"] == rf.outline.get_visible()
        if k:
            o = rf.outline
            x, y, w, h = o.get_x(), o.get_y(), o.get_width(), o.get_height()
            corners = np.array([(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)])
            close(to_css(f, scene.height, rf.ax.transAxes.transform(corners)), box["px"],
                   f"{k}, outline")


def test_a_click_in_the_page_finds_the_tile_matplotlib_draws_there():
    """The page sends a click in the "tiles" panel in data coordinates (its panel mapping):
    the tile found is the one whose frame holds that pixel in matplotlib's drawing."""
    cf = _figure()
    cf.set_view("dichotomies")
    cf.fit(W, H)
    _tiles(cf, LINE4)
    scene = cf.scene(width=W, height=H)
    panel = scene.panel("tiles")
    ax = cf.tiles.ax
    for k, frame in enumerate(cf.tiles.parts["frames"]):
        centre = np.mean(frame, axis=0)
        px = to_css(cf.fig, H, ax.transData.transform([centre]))[0]
        assert cf.tiles.tile_at(*panel.to_data(*px)) == k
    assert cf.tiles.tile_at(*panel.to_data(panel.x + panel.w + 5, panel.y + 5)) is None



def _page():
    from explorer.app.pagefigure import PageFigure

    f = PageFigure()
    f.sent = []
    f.send = lambda content, buffers=None: f.sent.append((content, buffers))
    return f


def test_the_page_figure_takes_every_view_and_a_growing_run(mc):
    """What step 2 wires: each view's scene passes the widget's checks, its header is JSON
    (no NaN), the statics go before the chunks, and a grown run is a new header over the same
    still layers."""
    import json

    from explorer.plots.recursion import RecursionFigure

    page = _page()
    cf = _figure()
    curves = cover.cover_curves([2, 5])
    scene = cf.scene(width=W, height=H, run=(curves, "ratio", mc[:3]), chunk=4)
    page.show_scene(scene, run=1, chunks=cf.chunk, step=3)
    json.dumps(page.scene, allow_nan=False)
    below = page.below
    grown = cf.grow(mc[:6])
    page.sent.clear()
    page.show_scene(grown, run=2, chunks=cf.chunk, step=6)
    assert page.below == below and page.scene["n_steps"] == 6
    assert [c["index"] for c, _ in page.sent] == [1, 0]
    for view in ("dichotomies", "boolean"):
        cf.set_view(view)
        cf.fit(W, H)
        if view == "dichotomies":
            _tiles(cf, LINE4)
        else:
            V, d = cover.boolean_functions_2()
            cf.bool_tiles.set_data(V, d.labelings, d.separable, np.arange(16), title="M = 2")
            cf.bool_counts.set_data(cover.boolean_table(count_up_to=2))
        scene = cf.scene(width=W, height=H)
        page.sent.clear()
        page.show_scene(scene, run=3 if view == "boolean" else 4, chunks=cf.chunk,
                        static=cf.statics())
        json.dumps(page.scene, allow_nan=False)
        assert [c["type"] for c, _ in page.sent] == ["static", "chunk"]
    f = Figure()
    FigureCanvasAgg(f)
    rf = RecursionFigure(f)
    rf.set_table(cover.recursion_table(4, 10))
    scene = rf.scene(width=W, height=H, chunk=64)
    page.show_scene(scene, run=5, chunks=rf.chunk, step=scene.n_steps)
    json.dumps(page.scene, allow_nan=False)
    assert page.step == scene.n_steps


def test_an_edge_summand_keeps_its_number_over_its_shading():
    """Step 1 fills S(1, 2) from S(1, 1) and S(0, 1), two edge cells, which the page shades
    (polygons over the still ``below`` layer): their numbers must be over the shading (the
    ``above`` layer), not under it, as matplotlib draws them. (They were in ``below``: the page
    drew the shaded summands empty.)"""
    from explorer.plots.recursion import RecursionFigure

    f = Figure()
    FigureCanvasAgg(f)
    rf = RecursionFigure(f)
    rf.set_table(cover.recursion_table(4, 10))
    scene = rf.scene(width=W, height=H)
    below = image(scene.below)
    above = image(scene.above) if scene.above else np.zeros_like(below)  # b"": no layer
    panel = scene.panel("table")
    for m, N in ((1, 1), (0, 1), (0, 5)):  # the summands of step 1, and an edge cell
        x, y, w, h = rf._box(m, N)
        (x0, y1), (x1, y0) = panel.to_px(np.array([[x, y], [x + w, y + h]]))
        inner = (slice(int(y0) + 3, int(y1) - 2), slice(int(x0) + 3, int(x1) - 2))
        ink = above[inner][..., 3] > 0.5
        assert ink.sum() > 5, (m, N)  # its number, in the layer over the shading
        dark = (below[inner][..., :3].max(axis=-1) < 0.6)
        assert not dark.any(), (m, N)  # nothing of it left under the shading
