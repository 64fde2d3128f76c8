"""The Cover tab on the page-drawn figure (issue 21), without a browser: what the kernel sends
the page (scenes, chunks, static tracks) and what it hears back (clicks in data coordinates, the
settled step of the recursion).

The issue: Monte Carlo points stream into the page as they are computed; the recursion steps in
the page; a new dichotomy set is drawn without a whole-figure redraw (174 ms a click on ipympl).
"""

import numpy as np
import pytest

from explorer import cover
from explorer.app.cover import CoverView
from explorer.app.cover.page import mc_status
from explorer.app.cover.scenes import curves_text
from explorer.plots.recursion_scene import recursion_text
from explorer.plots.scene import Chunk


@pytest.fixture
def view():
    v = CoverView()
    page = v.page
    v.sent = []  # every message to the page: (content, buffers)
    page.send = lambda content, buffers=None: v.sent.append((content, buffers))
    return v


def _kinds(view):
    return [c["type"] for c, _ in view.sent]


def _statics(view):
    return [c for c, _ in view.sent if c["type"] == "static"]


def _click(view, panel, x, y):
    view.page._on_msg(view.page, {"type": "pointer", "panel": panel, "x": x, "y": y,
                                  "mode": view.page.pointer_mode}, [])


def _page_arrays(view, sent):
    """The static arrays the page holds after ``sent`` (static messages, merged as the page
    merges them): track -> (field -> bytes, texts)."""
    held = {}
    for content, buffers in sent:
        if content["type"] != "static":
            continue
        if not content.get("merge"):
            held = {}
        b = 0
        for track, fields in content["arrays"].items():
            got = {}
            for name in fields:
                got[name] = buffers[b]
                b += 1
            texts = None
            if "t" in fields:  # an index into the message's strings: what it says counts
                t = np.frombuffer(got.pop("t"), dtype="int32")
                texts = tuple(content["strings"][i] for i in t)
            held[track] = (got, texts)
    return held


def test_a_tile_chosen_sends_one_static_track_not_a_scene(view):
    """Choosing a dichotomy (the menu or a click on its tile) outlines its tile: one static
    message with the outline's track alone; no scene, no still layers."""
    view.w_view.value = "dichotomies"
    run, below = view.page.scene["run"], view.page.below
    view.sent.clear()
    view.w_dich.value = int(view.model.page_ids[5])
    assert _kinds(view) == ["static"]
    (msg,) = _statics(view)
    assert list(msg["arrays"]) == ["tiles_selected"] and msg["merge"]
    assert view.page.scene["run"] == run and view.page.below is below
    # the outline sent is the one matplotlib draws around tile 5
    sel = view.figure.tiles.selected
    assert sel.get_visible() and view.figure.tiles.chosen == 5
    xy = np.frombuffer(view.sent[0][1][0], dtype="float32").reshape(-1, 2)
    np.testing.assert_allclose(xy[0], (sel.get_x(), sel.get_y()), atol=1e-6)
    # the same choice again sends nothing new
    view.sent.clear()
    view.w_dich.value = int(view.model.page_ids[5])
    assert view.sent == []


def test_a_tile_clicked_in_the_page_is_chosen_and_opened(view):
    view.w_view.value = "dichotomies"
    m, tiles = view.model, view.figure.tiles
    j = int(np.flatnonzero(m.dich.separable)[3])
    k = list(m.page_ids).index(j)
    view.sent.clear()
    _click(view, "tiles", k % tiles.ncols + 0.5, -(k // tiles.ncols) - 0.5)
    assert view.w_dich.value == j and view.handoff is not None
    np.testing.assert_array_equal(view.handoff.y, m.dich.labelings[j])
    assert _kinds(view) == ["static"] and list(_statics(view)[0]["arrays"]) == ["tiles_selected"]


def test_a_new_point_set_with_the_same_grid_sends_the_changed_static_tracks(view):
    """Three on a line after four random points: 16 tiles still, so the still layers hold; the
    tracks that changed go in one message (not the grid's title if it reads the same), and the
    page, merging them, holds exactly the arrays of the new set."""
    view.w_view.value = "dichotomies"
    run = view.page.scene["run"]
    before = list(view.sent)
    view.sent.clear()
    assert view.model.collinear_example()
    assert _kinds(view) == ["static"] and view.page.scene["run"] == run
    (msg,) = _statics(view)
    assert msg["merge"] and "plane_points" in msg["arrays"] and "plane_lines" in msg["arrays"]
    assert len(msg["arrays"]) < len(view.figure.statics().arrays)
    assert msg["narration"] == view.messages.text
    assert "below Cover's S(2, 4) = 14" in msg["narration"]
    held = _page_arrays(view, before + view.sent)
    content, buffers = view.figure.statics().message(run=run, index=0)
    want = _page_arrays(view, [(content | {"type": "static"}, buffers)])
    assert held == want


def test_points_placed_and_removed_by_clicks_in_the_page(view):
    view.w_view.value = "dichotomies"
    m = view.model
    view.b_random.click()
    n = len(m.X)
    assert view.page.pointer_mode == "add+"
    _click(view, "plane", 0.1, -0.2)
    assert len(m.X) == n + 1 and m.points[-2:] == [0.1, -0.2]
    view.w_click.value = "remove"
    assert view.page.pointer_mode == "remove"
    view.sent.clear()
    _click(view, "plane", 0.9, 0.9)  # nothing there: refused, the page's feedback goes
    assert "no point there" in view.messages.refused and len(m.X) == n + 1
    assert {"type": "pointer_done"} in [c for c, _ in view.sent]
    _click(view, "plane", 0.1, -0.2)
    assert len(m.X) == n
    _click(view, "nowhere", 0.0, 0.0)  # not a panel of the scene: ignored
    assert len(m.X) == n


def test_each_view_sets_the_pages_transport_keys_and_clicks(view):
    page = view.page
    want = {"curves": ("view", True), "dichotomies": ("add+", True),
            "boolean": ("choose", True), "recursion": ("view", False)}
    for name, (mode, still) in want.items():
        view.w_view.value = name
        assert page.pointer_mode == mode, name
        assert page.show_transport == (not still), name
        assert bool(page.key_actions) == (not still), name
        assert view.keys_help.layout.display == ("none" if still else ""), name


@pytest.fixture(scope="module")
def mc():
    plan = cover.monte_carlo_plan([1, 2], trials=10)
    return cover.monte_carlo_points(plan, trials=10, seed=0).points


def test_monte_carlo_points_grow_the_run_over_the_same_still_layers(view, mc):
    """Points as they come: the first makes a scene (the legend gains its Monte Carlo entry),
    the next ones grow that run (the page asks only for the new steps; the still layers are
    not sent again); the page shows the last step, narrated as the kernel narrates."""
    m = view.model
    assert m.update(ms="1, 2", trials=10, seed=0)
    view.sent.clear()
    m.mc = mc[:1]
    runs = [view.page.scene["run"]]
    below = view.page.below
    for n in (3, 7, len(mc)):
        m.mc = mc[:n]
        assert view.page.scene["run"] != runs[-1]
        runs.append(view.page.scene["run"])
        assert view.page.below is below  # no new still layers
        assert view.page.scene["n_steps"] == n and view.page.step == n
    chunks = [c for c, _ in view.sent if c["type"] == "chunk" and c["run"] == runs[-1]]
    last = next(c for c in chunks if c["start"] <= len(mc) < c["start"] + c["count"])
    i = len(mc) - last["start"]
    assert last["narration"][i] == curves_text(m) == view.messages.text
    assert last["status"][i] == mc_status(len(mc), len(mc))
    assert "Monte Carlo: 10 points" not in last["narration"][0]
    # the kernel heard the last step: its figure shows every point
    dots = sum(len(d.get_xdata()) for d in view.figure.curves.mc_dots)
    assert dots == len(mc)
    # the same points again send nothing; a new x-axis is a new scene
    view.sent.clear()
    view.redraw()
    assert view.sent == []
    m.update(xaxis="n")
    assert view.page.below is not below


def test_the_recursion_steps_in_the_page_and_the_kernel_hears_the_settled_step(view):
    view.w_view.value = "recursion"
    m, page = view.model, view.page
    run = page.scene["run"]
    assert page.scene["n_steps"] == m.n_steps
    chunk = view.drawn.chunk(0)
    assert chunk.narration[3] == recursion_text(m.table, 3)
    view.sent.clear()
    page.step = 3  # the page settled on step 3: its pixels changed before this message
    assert m.step == 3 and view.timeline.step == 3
    assert view.messages.text == recursion_text(m.table, 3)
    assert view.sent == [] and page.scene["run"] == run  # nothing to send back
    assert "<td class='now'>" in view.table.value
    assert view.handle_key("End") and m.step == m.n_steps == page.step  # a key the kernel got
    view.text["rec_m"].value = "3"  # a new table: a new scene
    assert page.scene["run"] != run and page.scene["n_steps"] == m.n_steps


def test_in_the_other_views_the_pages_step_is_not_the_recursions(view):
    """The curves view's steps are Monte Carlo points: the page settling there leaves the
    recursion's step alone."""
    m = view.model
    m.go(2)
    view.w_view.value = "curves"
    view.page.step = 0
    assert m.step == 2


def test_send_static_changed_only_sends_what_differs():
    from explorer.app.pagefigure import PageFigure
    from explorer.plots.scene import Panel, Scene, Track

    page = PageFigure()
    sent = []
    page.send = lambda content, buffers=None: sent.append((content, buffers))
    panel = Panel("p", 0, 0, 100, 100, (0, 1), (0, 1))
    scene = Scene(width=100, height=100, ratio=1.0, panels=(panel,),
                  tracks=(Track("a", "p", "points"), Track("b", "p", "text")), below=b"",
                  above=b"", n_steps=0, chunk=1)

    def static(a, text):
        return Chunk(start=0, count=1, arrays={
            "a": {"xy": np.array([a], dtype=float)},
            "b": {"xy": np.zeros((1, 2)), "t": np.array([1]), "ha": np.array([0]),
                  "va": np.array([0])}}, strings=("other", text))

    page.show_scene(scene, run=1, chunks=lambda i: Chunk(0, 1, {}), static=static([[0, 0]], "x"))
    sent.clear()
    assert page.send_static(static([[0, 0]], "x"), changed_only=True) == 0 and sent == []
    assert page.send_static(static([[1, 0]], "x"), changed_only=True) == 1
    assert list(sent[-1][0]["arrays"]) == ["a"] and sent[-1][0]["merge"]
    # a text is compared by what it says, not by its index in the strings
    same = Chunk(start=0, count=1, arrays={"b": {"xy": np.zeros((1, 2)), "t": np.array([0]),
                                                 "ha": np.array([0]), "va": np.array([0])}},
                 strings=("x",))
    assert page.send_static(same, changed_only=True) == 0
    assert page.send_static(static([[1, 0]], "y"), changed_only=True) == 1
    assert list(sent[-1][0]["arrays"]) == ["b"]
    page.show_scene(scene, run=2, chunks=lambda i: Chunk(0, 1, {}))  # a new run: all again
    assert page.send_static(static([[1, 0]], "y"), changed_only=True) == 2


def test_leaving_the_recursion_while_it_plays_stops_playing(view):
    """The dashboard writes the link once the timeline stops playing: a view left while the
    page played must not leave the kernel's timeline playing."""
    view.w_view.value = "recursion"
    view.page.playing = True  # the page plays
    assert view.timeline.play.playing
    view.w_view.value = "dichotomies"
    assert not view.timeline.play.playing and not view.page.playing
