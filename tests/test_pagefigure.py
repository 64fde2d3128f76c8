"""The page-drawn figure's kernel side (explorer.app.pagefigure): traits, chunk answers, pointer
clicks, and messages the page could send by mistake. The page itself is tested in Chromium
(tests/browser/test_pagefigure_browser.py)."""

import math
import re
import sys
from fnmatch import fnmatch
from pathlib import Path

import numpy as np
import pytest

from explorer.app.bridge import PageBridge
from explorer.app.esm_join import join, modules
from explorer.app.pagefigure import CONTROLS, ENTRY, STATIC, PageFigure, Pointer
from explorer.app.timeline import KEY_ACTIONS, Timeline
from explorer.plots.scene import FIGURE, Chunk, Panel, Scene, Track

sys.path.insert(0, str(Path(__file__).parent / "browser"))
import _pagefigure_demo as demo  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _scene(n_steps=1000, chunk=100, tracks=None):
    plane = Panel("plane", x=10, y=20, w=200, h=100, xlim=(-1, 1), ylim=(0, 2))
    tracks = tracks or (Track("line", "plane", "polyline"), Track("note", FIGURE, "text"))
    return Scene(width=400, height=200, ratio=2.0, panels=(plane,), tracks=tracks,
                 below=b"\x89PNG below", above=b"", n_steps=n_steps, chunk=chunk)


def _chunk(index, scene):
    steps = scene.chunk_range(index)
    k = np.arange(steps.start, steps.stop, dtype=float)
    return Chunk(start=steps.start, count=len(steps),
                 arrays={"line": {"xy": np.stack([np.stack([k, k], -1)] * 3, axis=1)}},
                 narration=tuple(f"step {s}" for s in steps))


@pytest.fixture
def fig():
    f = PageFigure()
    f.sent = []
    f.send = lambda content, buffers=None: f.sent.append((content, buffers))
    return f


def _show(f, scene, run=1, **kw):
    asked = []

    def chunks(i):
        asked.append(i)
        return _chunk(i, scene)

    f.show_scene(scene, run=run, chunks=chunks, **kw)
    return asked


def _page_says(f, content, buffers=()):
    """A custom message from the page, as ipywidgets delivers it."""
    f._handle_msg({"content": {"data": {"method": "custom", "content": content}},
                   "buffers": list(buffers)})


def test_a_scene_sets_the_traits_and_sends_the_chunks_around_its_step(fig):
    scene = _scene()
    asked = _show(fig, scene, run=7, step=555, transport={"updates": [9, 3], "epoch": 50})
    assert fig.scene == scene.header() | {"run": 7, "pushed": [5, 6], "keep": False}
    assert fig.below == scene.below and fig.above == b""
    assert fig.transport == {"updates": [3, 9], "epoch": 50, "cycle_start": None,
                             "status_suffix": ""}
    assert fig.step == 555 and not fig.playing
    assert asked == [5, 6]
    assert [c["index"] for c, _ in fig.sent] == [5, 6]
    content, buffers = fig.sent[0]
    assert content == _chunk(5, scene).message(run=7, index=5)[0]
    xy = np.frombuffer(buffers[0], dtype=np.float32).reshape(100, 3, 2)
    np.testing.assert_array_equal(xy[:, 0, 0], np.arange(500, 600))
    # the last chunk has no successor: its predecessor goes with it
    fig.sent.clear()
    _show(fig, scene, run=8, step=1000)
    assert [c["index"] for c, _ in fig.sent] == [10, 9]


def test_the_page_asks_for_a_chunk_of_the_run_shown_and_gets_it(fig):
    scene = _scene()
    asked = _show(fig, scene, run=3, first=0)
    assert fig.sent == [] and asked == []
    _page_says(fig, {"type": "chunk", "run": 3, "index": 10})
    assert asked == [10]
    (content, buffers), = fig.sent
    assert (content["run"], content["index"], content["start"], content["count"]) == (3, 10, 1000, 1)
    assert content["narration"] == ["step 1000"]
    assert len(buffers) == 1 and len(buffers[0]) == 1 * 3 * 2 * 4


@pytest.mark.parametrize("content", [
    None, "chunk", 3, [], {}, {"type": "nonsense"},
    {"type": "chunk"}, {"type": "chunk", "run": 2, "index": 0},             # an old run
    {"type": "chunk", "run": 3, "index": -1}, {"type": "chunk", "run": 3, "index": 11},
    {"type": "chunk", "run": 3, "index": "2"}, {"type": "chunk", "run": 3, "index": 1.0},
    {"type": "chunk", "run": 3, "index": True}, {"type": "chunk", "run": "3", "index": 1},
    {"type": "chunk", "run": 3, "index": 10 ** 30},
    {"type": "pointer"}, {"type": "pointer", "panel": "plane", "x": 0, "y": 1},
    {"type": "pointer", "panel": "plane", "x": 0, "y": 1, "mode": "view"},
    {"type": "pointer", "panel": "plane", "x": 0, "y": 1, "mode": "delete"},
    {"type": "pointer", "panel": "nowhere", "x": 0, "y": 1, "mode": "add+"},
    {"type": "pointer", "panel": FIGURE, "x": 0, "y": 1, "mode": "add+"},
    {"type": "pointer", "panel": "plane", "x": "0", "y": 1, "mode": "add+"},
    {"type": "pointer", "panel": "plane", "x": math.nan, "y": 1, "mode": "add+"},
    {"type": "pointer", "panel": "plane", "x": 0, "y": math.inf, "mode": "add+"},
    {"type": "pointer", "panel": "plane", "x": True, "y": 1, "mode": "add+"},
    {"type": "pointer", "panel": ["plane"], "x": 0, "y": 1, "mode": "add+"},
    {"type": "pointer", "panel": "plane", "x": 0, "y": 1, "mode": "drag"},
    {"type": "pointer", "panel": "plane", "x": 0, "y": 1, "mode": "drag", "phase": "click"},
    {"type": "pointer", "panel": "plane", "x": 0, "y": 1, "mode": "add+", "phase": "down"},
    {"type": "pointer", "panel": "plane", "x": 0, "y": 1, "mode": "drag", "phase": "lift"},
    {"type": "key"}, {"type": "key", "key": "q"}, {"type": "key", "key": ["l"]},
])
def test_bad_or_stale_messages_from_the_page_are_ignored(fig, content):
    scene = _scene()
    asked = _show(fig, scene, run=3, first=0)
    clicks, keys = [], []
    fig.on_pointer(clicks.append)
    fig.on_key(keys.append)
    fig.forward_keys = ["l"]
    fig._handle_custom_msg(content, [])  # raises if the widget does; no traceback printed
    assert (asked, fig.sent, clicks, keys) == ([], [], [], [])


def test_a_click_reaches_the_tab_in_data_coordinates(fig):
    _show(fig, _scene(), run=1)
    clicks = []
    fig.on_pointer(clicks.append)
    _page_says(fig, {"type": "pointer", "panel": "plane", "x": -0.25, "y": 1.5, "mode": "add-"})
    _page_says(fig, {"type": "pointer", "panel": "plane", "x": 1, "y": 0, "mode": "choose"})
    assert clicks == [Pointer("plane", -0.25, 1.5, "add-"), Pointer("plane", 1.0, 0.0, "choose")]
    fig.pointer_done()
    assert fig.sent[-1] == ({"type": "pointer_done"}, None)


def test_a_drag_reaches_the_tab_as_press_moves_and_release(fig):
    _show(fig, _scene(), run=1)
    fig.pointer_mode = "drag"
    moves = []
    fig.on_pointer(moves.append)
    for phase, x in (("down", 0.1), ("move", 0.2), ("move", 0.3), ("up", 0.4)):
        _page_says(fig, {"type": "pointer", "panel": "plane", "x": x, "y": 1, "mode": "drag",
                         "phase": phase})
    assert [(p.phase, p.x) for p in moves] == [("down", 0.1), ("move", 0.2), ("move", 0.3),
                                               ("up", 0.4)]
    assert {p.mode for p in moves} == {"drag"}


def test_static_tracks_are_sent_apart_and_replaced(fig):
    tracks = (Track("line", "plane", "polyline"), Track("data", "plane", "points"))
    scene = _scene(tracks=tracks)
    static = Chunk(start=0, count=1, arrays={"data": {"xy": np.zeros((1, 3, 2))}})
    _show(fig, scene, run=4, first=1, static=static)
    assert fig.sent[0][0]["type"] == "static" and fig.sent[0][0]["run"] == 4
    assert fig.sent[1][0]["type"] == "chunk"  # the statics come before the first chunk
    fig.sent.clear()
    moved = Chunk(start=0, count=1, arrays={"data": {"xy": np.ones((1, 4, 2))}})
    fig.send_static(moved, narration="4 points: an edit")
    content, buffers = fig.sent[0]
    assert content["narration"] == "4 points: an edit" and content["arrays"] == {
        "data": {"xy": ["float32", [1, 4, 2]]}}
    assert np.frombuffer(buffers[0], dtype=np.float32).tolist() == [1.0] * 8
    with pytest.raises(ValueError, match="one row"):
        fig.send_static(Chunk(start=0, count=2, arrays={"data": {"xy": np.ones((2, 1, 2))}}))
    with pytest.raises(ValueError, match="not in the scene"):
        fig.send_static(Chunk(start=0, count=1, arrays={"other": {"xy": np.ones((1, 1, 2))}}))


def test_a_static_tail_follows_every_narration_and_goes_alone_when_only_it_changes(fig):
    """A static chunk's ``tail``: words the page adds after every step's narration (issue 21:
    a simulation's summary, which changed every chunk's narration, so the page was sent the
    chunks it held again). Sent with the statics; with ``changed_only``, a new tail goes even
    when no track changed, and nothing goes when neither did."""
    tracks = (Track("line", "plane", "polyline"), Track("data", "plane", "points"))
    data = {"data": {"xy": np.zeros((1, 3, 2))}}
    _show(fig, _scene(tracks=tracks), run=1, first=0,
          static=Chunk(start=0, count=1, arrays=data, tail=" n = 5: a summary."))
    assert fig.sent[0][0]["type"] == "static" and fig.sent[0][0]["tail"] == " n = 5: a summary."
    fig.sent.clear()
    assert fig.send_static(Chunk(start=0, count=1, arrays=data, tail=" n = 5: a summary."),
                           changed_only=True) == 0
    assert fig.sent == []
    assert fig.send_static(Chunk(start=0, count=1, arrays=data, tail=" n = 10: another."),
                           changed_only=True) == 0  # no track, but the tail
    content, buffers = fig.sent[-1]
    assert (content["tail"], content["arrays"], buffers) == (" n = 10: another.", {}, [])
    assert fig.send_static(Chunk(start=0, count=1, arrays=data), changed_only=True) == 0
    assert len(fig.sent) == 1  # no tail given: the page keeps its own
    _show(fig, _scene(tracks=tracks), run=2, first=0, static=Chunk(start=0, count=1, arrays=data))
    assert "tail" not in fig.sent[-1][0]  # a new scene: no tail until one is sent
    assert "tail" not in _chunk(0, _scene()).message(run=2, index=0)[0]
    js = PageFigure()._esm  # the page's scripts, joined
    assert "+ this.staticTail" in js and 'this.staticTail = "";' in js


def test_keys_the_page_does_not_handle_reach_the_kernel_only_if_asked_for(fig):
    keys = []
    fig.on_key(keys.append)
    _page_says(fig, {"type": "key", "key": "l"})
    fig.forward_keys = ["l", "L"]
    _page_says(fig, {"type": "key", "key": "l"})
    assert keys == ["l"]
    assert fig.key_actions == KEY_ACTIONS


def test_the_kernel_sends_the_page_to_a_step(fig):
    _show(fig, _scene(n_steps=300, chunk=100), run=1, first=0)
    fig.go(250)
    fig.go(250)  # again: the page may show another step that has not settled yet
    fig.go(900)
    assert fig.step == 300
    assert fig.sent == [({"type": "go", "step": 250}, None)] * 2 + [({"type": "go", "step": 300}, None)]


def test_a_chunk_computed_later_is_sent_when_ready(fig):
    scene = _scene()
    ready = set()
    fig.show_scene(scene, run=1, chunks=lambda i: _chunk(i, scene) if i in ready else None)
    _page_says(fig, {"type": "chunk", "run": 1, "index": 4})
    assert fig.sent == []
    ready.add(4)
    assert fig.send_chunk(4) and fig.sent[0][0]["index"] == 4
    assert not fig.send_chunk(11)


def test_a_chunk_of_the_wrong_steps_is_a_bug_of_the_tab(fig):
    scene = _scene()
    fig.show_scene(scene, run=1, chunks=lambda i: _chunk(0, scene), first=0)
    with pytest.raises(ValueError, match="chunk 2 must hold steps 200..299; got 0..99"):
        fig.send_chunk(2)


@pytest.mark.parametrize("kwargs, error", [
    ({"scene": "a scene"}, "scene must be"),
    ({"run": 1.5}, "run must be an int"),
    ({"chunks": [1, 2]}, "chunks must be a function"),
    ({"scene": _scene(tracks=(Track("a", "side", "arrow"),))}, "track 'a' is in panel 'side'"),
    ({"scene": _scene(tracks=(Track("2", "plane", "arrow"),))}, "must not be numbers"),
    ({"scene": _scene(tracks=(Track("a", "plane", "arrow"),) * 2)}, "must be unique"),
    ({"transport": {"updates": [0]}}, r"update steps must lie in 1..1000; got 0..0"),
    ({"transport": {"epoch": -1}}, "epoch must be 0"),
    ({"transport": {"epochs": 3}}, r"transport keys must be .*; got \['epochs'\]"),
    ({"run": 4}, "run must change with every scene"),
])
def test_a_scene_that_the_page_could_not_draw_is_refused(fig, kwargs, error):
    fig.show_scene(_scene(), run=4, chunks=lambda i: None)
    args = {"scene": _scene(), "run": 1, "chunks": lambda i: None} | kwargs
    scene = args.pop("scene")
    with pytest.raises((ValueError, TypeError), match=error):
        fig.show_scene(scene, **args)


def test_the_transport_has_the_timelines_labels_tooltips_and_keys():
    t = Timeline()
    buttons = {"reset": t.b_reset, "back": t.b_back, "step": t.b_step, "prev_update": t.b_prev,
               "next_update": t.b_next, "epoch_end": t.b_epoch, "end": t.b_end,
               "cycle_start": t.b_cycle}
    for action, label, tip, css in CONTROLS:
        if action == "play":
            assert tip == t.play.tooltip and css in t.play._dom_classes
            continue
        b = buttons.pop(action)
        assert (label, tip) == (b.description, b.tooltip) and css in b._dom_classes
    assert buttons == {}
    assert PageFigure().controls == [list(c) for c in CONTROLS]


def test_the_wheel_ships_the_pages_javascript_and_it_loads_nothing_from_the_network():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["explorer.app"]
    files = sorted(p.relative_to(STATIC.parent).as_posix() for p in STATIC.iterdir())
    assert files == ["static/drawing.js", "static/enlarge.js", "static/follow.js",
                     "static/input.js",
                     "static/keys.js", "static/kinds.js", "static/kinds_cover.js",
                     "static/kinds_plane.js", "static/kinds_xor.js", "static/lecture.js",
                     "static/package.json", "static/pagefigure.css", "static/pagefigure.js",
                     "static/place.js", "static/presenter.js", "static/question.js",
                     "static/runs.js",
                     "static/transport.js",
                     "static/widget.js", "static/words.js"]
    shipped = [f for f in files if not f.endswith("package.json")]  # Node's, for the tests
    assert all(any(fnmatch(f, p) for p in patterns) for f in shipped), (shipped, patterns)
    for name in shipped:
        text = (STATIC.parent / name).read_text()
        assert not re.search(r"https?://|import\(|@import|url\(", text, re.M), name
        # the modules import only their siblings ("./name.js"), which the joiner resolves
        for spec in re.findall(r"^import\b[^;]*?[\"']([^\"']*)[\"']", text, re.M):
            assert re.fullmatch(r"\./\w+\.js", spec) and (STATIC / spec[2:]).is_file(), (name, spec)
    f = PageFigure()
    js = f._esm
    assert "export default { render }" in js and ".pe-canvas" in f._css
    assert not re.search(r"^\s*(import|export)\b(?! default \{ render \})", js, re.M)
    # every module of the folder is in the page's one module (none left out by the joiner)
    # every module of the folder is in the page's module, the follower's (the hall's /follow)
    # or the page bridge's (the presenter view's window)
    assert "class PresenterView" in PageBridge._esm.default_value
    assert sorted(set(modules(STATIC, ENTRY)) | {"follow.js", "presenter.js"}) == sorted(
        f[len("static/"):] for f in shipped if f.endswith(".js"))
    keys = join(STATIC, "keys.js")
    assert keys in js and keys in PageBridge._esm.default_value  # one key policy for both


def test_the_browser_tests_demo_scene_and_chunks_agree():
    """The synthetic run of the browser tests: every track kind, chunks of the scene's steps."""
    scene = demo.scene()
    assert {t.kind for t in scene.tracks} == {"polyline", "polygon", "arrow", "points", "text",
                                             "prefix", "vline"}
    assert scene.below.startswith(b"\x89PNG") and scene.above.startswith(b"\x89PNG")
    for i in (0, 3, scene.n_steps // scene.chunk):
        c = demo.chunk(i)
        steps = scene.chunk_range(i)
        assert (c.start, c.count) == (steps.start, len(steps))
        content, buffers = c.message(run=1, index=i)
        assert set(content["arrays"]) == {t.name for t in scene.tracks}
        assert len(buffers) == sum(len(v) for v in content["arrays"].values())
