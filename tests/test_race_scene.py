"""The race's figure as a scene (issue 22): matplotlib's artists after ``show(k)`` draw what the
page is sent (the chunks' arrays mapped with the scene's panels), for 2 to 4 rules."""

import numpy as np
import pytest
from scene_checks import actual, agree, expected

from explorer.perceptron.race import race, race_text
from explorer.plots.race import RaceFigure, plane_name
from explorer.shared import datasets

W, H = 1300, 640
KOSKI = datasets.load("koski")
BLOBS = datasets.load("overlapping", n=20, seed=2)
CASES = [
    (KOSKI, ["classic", "margin"], dict(order=[4, 2, 0, 1, 3, 5], max_epochs=50)),
    (KOSKI, ["classic", "pocket", "averaged"], dict(order="cyclic", max_epochs=20)),
    (BLOBS, ["classic", "svm_sgd", "relaxation", "pocket"], dict(order="shuffle", seed=4,
                                                                 max_epochs=3, rho=0.01)),
    # four features: each racer drawn in the plane of its own w, the points moving tracks
    (datasets.load("iris", features="all", classes="versicolor_vs_virginica"),
     ["classic", "svm_sgd", "pocket"], dict(order="shuffle", seed=1, max_epochs=2, rho=0.01)),
]


def _check(rf, scene, chunk, row, track, art, what):
    want = expected(scene, chunk, track, row)
    got = actual(rf.fig, scene.height, art, track.kind)
    if track.kind == "polygon":  # a polygon of one vertex draws nothing in either
        got["visible"] = got["visible"] and len(got["px"]) >= 3
    agree(got, want, track.kind, what)


@pytest.mark.parametrize("data,rules,kw", CASES)
def test_matplotlib_draws_what_the_chunks_describe(data, rules, kw):
    r = race(data.X, data.y, rules=rules, **kw)
    rf = RaceFigure()
    rf.set_race(r)
    scene = rf.scene(width=W, height=H, ratio=1.0, chunk=16)
    assert [p.name for p in scene.panels] == [plane_name(i) for i in range(len(rules))] + \
        ["mistakes"]
    assert scene.panels[0].name == "plane"  # clicks in the first plane edit the data
    sides = {round(p.w, 3) for p in scene.panels[:-1]} | {round(p.h, 3) for p in scene.panels[:-1]}
    assert len(sides) == 1  # square planes, all the same size and limits
    assert len({(p.xlim, p.ylim) for p in scene.panels[:-1]}) == 1
    arts = rf.track_artists()
    tracks = {t.name: t for t in scene.tracks}
    assert set(arts) == set(tracks)
    rng = np.random.default_rng(0)
    n = r.n_steps
    for k in sorted({0, 1, 2, n // 2, n, *rng.integers(0, n + 1, 3)}):
        chunk = rf.chunk(k // scene.chunk)
        row = k - chunk.start
        assert rf.show(k) == chunk.narration[row] == race_text(r, k)
        assert chunk.status[row] == rf.status_text(k)
        rf.fig.canvas.draw()
        for name, track in tracks.items():
            _check(rf, scene, chunk, row, track, arts[name], f"step {k}, {name}")


def test_each_plane_says_its_updates_mistakes_and_where_its_rule_stopped():
    r = race(KOSKI.X, KOSKI.y, rules=["classic", "margin"], order="cyclic", max_epochs=50)
    rf = RaceFigure()
    rf.set_race(r)
    classic, margin = r.runs
    u, m = r.updates(r.n_steps), r.mistakes(r.n_steps)
    assert rf.status_line(0, 0) == "0 updates · 0 mistakes"
    assert rf.status_line(0, r.n_steps) == f"{u[0]} updates · {m[0]} mistakes · converged"
    assert rf.status_line(0, classic.n_steps - 1).endswith("mistakes")
    assert rf.status_line(1, 1) == "1 update · 1 mistake"
    assert rf.status_line(1, r.n_steps) == f"{u[1]} updates · {m[1]} mistakes · converged"
    assert m[1] < u[1]
    assert rf.status_text(r.n_steps).startswith(
        f"step {r.n_steps} of {r.n_steps} · updates (mistakes): classic {u[0]} ({m[0]}) · "
        f"margin {u[1]} ({m[1]})")
    assert rf.mistakes_ax.get_ylabel() == "updates"  # the curves count updates


def test_scene_needs_a_race():
    with pytest.raises(ValueError, match="set_race"):
        RaceFigure().scene(width=W, height=H)


@pytest.mark.parametrize("width", [1300, 1100, 700])  # one row, two, the counts alone
def test_each_planes_line_keeps_to_its_column_at_any_width(width):
    """Issue 30, item 3: the planes' lines grew to "129 updates · 6 mistakes · stopped"; where
    a column is too narrow for one row they take two (the counts alone in a narrower one),
    never the next plane's room."""
    r = race(KOSKI.X, KOSKI.y, rules=["classic", "margin", "relaxation", "pocket"], eta=0.2,
             w0=[1.0, 0.5], order=[4, 2, 0, 1, 3, 5], max_epochs=50)
    rf = RaceFigure()
    rf.set_race(r)
    rf.fit(width, int(width * 0.55))
    rf.show(r.n_steps)
    rf.fig.canvas.draw()
    renderer = rf.fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in rf.status]
    for left, right in zip(boxes[:-1], boxes[1:], strict=True):
        assert left.x1 < right.x0, (width, rf.status_rows)
    assert boxes[-1].x1 <= rf.fig.bbox.width
    for box, plane in zip(boxes, rf.planes, strict=True):  # over its plane, under its title
        assert box.y0 >= plane.ax.get_window_extent(renderer).y1
        assert box.y1 <= plane.ax.title.get_window_extent(renderer).y0 + 1
    texts = [" ".join(t.get_text().split("\n")) for t in rf.status]
    assert texts[2].replace(" · ", " ") == ("129 updates 6 mistakes stopped" if
                                            rf.status_rows < 3 else "129 updates 6 mistakes")
    assert all(t.get_text().count("\n") < 2 for t in rf.status)  # at most two rows
