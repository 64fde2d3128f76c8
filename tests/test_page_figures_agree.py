"""Every page-drawn figure (each subclass of :class:`explorer.plots.page_figure.PageFigure`
that makes a figure, found in its registry ``FIGURES``): at several steps ``k`` of each example,
the matplotlib artists that ``show(k)`` moved equal the page chunk's arrays for ``k`` mapped
with the scene's panels: positions and visibility within half a CSS px, texts and alignment,
markers' sizes and the colours their codes ``c`` pick (issue 31, step 2).

A new page-drawn figure fails :func:`test_every_page_figure_has_examples` until it gets an
example here; the figures' own tests check more (still layers, edits, 3-D views, rasters, an
artist that draws two tracks).
"""

import numpy as np
import pytest
from scene_checks import check_track, expected
from test_margins_figure import _cached

import explorer.plots  # noqa: F401 - every figure module, so that the registry is complete
from explorer import cover, xor
from explorer.perceptron import train
from explorer.perceptron.race import race
from explorer.plots import GeneralizationFigure, MarginsFigure, PerceptronFigure
from explorer.plots.cover import CoverFigure
from explorer.plots.generalization_scene import LOSS_STYLE as LOSSES
from explorer.plots.page_figure import FIGURES, PageFigure
from explorer.plots.race import RaceFigure
from explorer.plots.recursion import RecursionFigure
from explorer.plots.xor import XorFigure
from explorer.shared import datasets

W, H = 1040, 547


def _xor(code, view, **kw):
    f = XorFigure()
    f.set_scene(xor.build_scene(code, **kw), view)
    return f


def _margins(case, layout):
    X, y, cmp, sgd, path = _cached(case)
    f = MarginsFigure(overlay=layout)
    f.set_data(X, y, cmp, path=path, sgd=sgd)
    return f


def _margins3d():
    """Iris' three features, soft margin (C = 1): the 3-D view (explorer.plots.margin3d)."""
    from explorer.app.margins.model import MarginsModel

    m = MarginsModel(dataset="iris3")
    f = MarginsFigure()
    f.set_data(m.X, m.y, m.comparison, path=m.path, sgd=m.sgd)
    return f


def _generalization(name, shown):
    ds = datasets.load(name)
    f = GeneralizationFigure()
    f.set_run(ds.X, ds.y, train(ds.X, ds.y, max_epochs=4))
    f.set_losses(shown)
    return f


def _race(name, rules, **kw):
    ds = datasets.load(name)
    f = RaceFigure()
    f.set_race(race(ds.X, ds.y, rules=rules, **kw))
    return f


def _perceptron(name, data=None, **kw):
    ds = datasets.load(name, **(data or {}))
    f = PerceptronFigure()
    f.set_run(train(ds.X, ds.y, **kw), ds.X, ds.y)
    return f


def _recursion(M_max, N_max):
    f = RecursionFigure()
    f.set_table(cover.recursion_table(M_max, N_max))
    return f


def _cover(Ms, mode, trials):
    """The curves view with a Monte Carlo run: the figure and its scene's ``run``."""
    plan = cover.monte_carlo_plan(Ms[:2], trials=trials)
    mc = cover.monte_carlo_points(plan, trials=trials, seed=0).points
    return CoverFigure(), {"run": (cover.cover_curves(Ms), mode, mc)}


#: Figures whose matplotlib picture of a step is their own, not their tracks put on artists.
#: The recursion's table: a cell is one matplotlib text whose words change ("·", its number,
#: the number just filled in bold), three text tracks on the page; its shaded cells and outline
#: are the table's cells' faces and a rectangle, checked by colour and bounds in
#: tests/test_cover_scene.py::test_the_recursion_steps_are_tracks_drawn_alike. Here, at each
#: step, ``track_artists()`` names the cell text drawing each text track shown: those are
#: exactly the chunk's text tracks shown, each where and what the page draws.
OWN_PICTURE = {"RecursionFigure"}
#: Figures whose ``show(k)`` is not a step: the Cover figure's draws what was set (its views
#: have no steps but the curves view's Monte Carlo points, drawn by ``show_step(k)``, as the
#: Cover tab's page does; its chunks carry no narration, which the tab writes).
SHOW_STEP = {"CoverFigure"}

#: Figure class name -> {example name: a function making the figure with its data}.
EXAMPLES = {
    "XorFigure": {"xor cycling": lambda: _xor(xor.XOR, "cycling"),
                  "xor kernel": lambda: _xor(xor.XOR, "kernel"),
                  "and, layers": lambda: _xor(1, "layers", passes=3),
                  "xor 0/1 feature": lambda: _xor(xor.XOR, "feature", coding="01", degree=3,
                                                  pair="and_nor")},
    "MarginsFigure": {"soft overlaid": lambda: _margins("soft", "overlaid"),
                      "xor side": lambda: _margins("xor", "side"),
                      # three features: a 3-D view (its 3-D tracks: tests/test_margin3d.py)
                      "iris 3-D, soft overlaid": _margins3d},
    "GeneralizationFigure": {"koski, all losses": lambda: _generalization("koski", LOSSES),
                             "overlapping, two": lambda: _generalization(
                                 "overlapping", ("zero_one", "hinge"))},
    "RaceFigure": {"koski, classic and margin": lambda: _race("koski", ["classic", "margin"],
                                                              max_epochs=50),
                   "overlapping, four": lambda: _race("overlapping", ["classic", "svm_sgd",
                                                                      "relaxation", "pocket"],
                                                      order="shuffle", seed=4, max_epochs=3,
                                                      rho=0.01)},
    "PerceptronFigure": {"koski": lambda: _perceptron("koski", eta=0.2, w0=[1, 0.5]),
                         "pocket": lambda: _perceptron("overlapping", rule="pocket",
                                                       max_epochs=3),
                         # three features: a 3-D view (its 3-D tracks: tests/test_data3d.py)
                         "iris 3-D, pocket": lambda: _perceptron(
                             "iris", data={"features": (2, 3, 0)}, rule="pocket",
                             max_epochs=2),
                         # four features, drawn in each step's plane of w: the points move
                         "iris 4-D, averaged": lambda: _perceptron(
                             "iris", data={"features": "all",
                                           "classes": "versicolor_vs_virginica"},
                             rule="averaged", max_epochs=2)},
    "RecursionFigure": {"4 x 10": lambda: _recursion(4, 10),
                        "2 x 5": lambda: _recursion(2, 5)},
    "CoverFigure": {"curves, N / (M + 1)": lambda: _cover([2, 5, 20], "ratio", 10),
                    "curves, N (log)": lambda: _cover([3, 8], "n", 12)},
}
CASES = [(figure, name) for figure in sorted(FIGURES) for name in EXAMPLES.get(figure, {})]


def _steps(n):
    rng = np.random.default_rng(3)
    return sorted({min(k, n) for k in (0, 1, 2, n // 2, n, *rng.integers(0, n + 1, 3))})


def test_every_page_figure_has_examples():
    assert {"XorFigure", "MarginsFigure"} <= set(FIGURES)
    assert all(issubclass(cls, PageFigure) for cls in FIGURES.values())
    missing = sorted(set(FIGURES) - set(EXAMPLES))
    assert not missing, f"page-drawn figures without an example in this test: {missing}"


@pytest.mark.parametrize("figure,example", CASES)
def test_matplotlib_artists_equal_the_page_chunks(figure, example):
    f = EXAMPLES[figure][example]()
    f, run = f if isinstance(f, tuple) else (f, {})  # the data a scene is made with, if any
    assert type(f).__name__ == figure
    scene = f.scene(width=W, height=H, scale=1.0, ratio=1.0, chunk=16, **run)
    declared = f.stepped_tracks()
    assert declared
    checked, chunks = 0, {}
    for k in _steps(scene.n_steps):
        index = k // scene.chunk
        chunk = chunks.setdefault(index, f.chunk(index))
        row = k - chunk.start
        if figure in SHOW_STEP:
            f.show_step(k)
            assert not f.narrated and chunk.narration == chunk.status == ()
        else:
            shown = f.show(k)
            shown = getattr(shown, "text", shown)  # the perceptron's figure returns its frame
            assert shown == chunk.narration[row].removeprefix(getattr(f, "summary", "") + ". ")
        arts = f.track_artists()
        if figure in OWN_PICTURE:
            f.fig.draw_without_rendering()  # a table places its cells' texts when drawn
            texts = {t.name for t in declared if t.kind == "text"
                     and expected(scene, chunk, t, row)["visible"]}
            assert set(arts) == texts, f"{figure} {example} at step {k}"
            stepped = [t for t in declared if t.name in arts]
        else:
            assert {t.name for t in declared} <= set(arts)
            ids = [id(arts[t.name]) for t in declared]
            # an artist that draws two tracks (the weight space's walk and its decay, one
            # path) is checked against both by its figure's own test
            stepped = [t for t in declared if ids.count(id(arts[t.name])) == 1]
        for track in stepped:
            what = f"{figure} {example}: {track.name} at step {k}"
            checked += check_track(f.fig, scene, chunk, row, track, arts[track.name], what)
    assert checked > 0
