"""One panel, large (issue 33, item 3): a panel laid over the whole figure and back, in the
kernel's scenes (explorer/plots/enlarge.py, PageFigure.scene), and bad names from the page
ignored."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from matplotlib.figure import Figure

from explorer.app.dashboard import TABS
from explorer.app.layout import fit_figure
from explorer.app.perceptron.model import PerceptronModel
from explorer.app.timeline import KEYS_HELP
from explorer.plots import PerceptronFigure
from explorer.plots.enlarge import room_box
from explorer.plots.scene import FIGURE
from explorer.plots.tracks import css_dpi

SIZES = [(1024, 768), (1366, 768), (1920, 1080)]


def _perceptron(w, h, **params):
    fit = fit_figure(window_width=w, window_height=h, sidebar=False, lecture=True,
                     figure_top=260)
    m = PerceptronModel(**params)
    pf = PerceptronFigure(Figure())
    pf.fit(fit.width, fit.height, scale=fit.scale)
    pf.set_run(m.trajectory, m.X, m.y, m.info)
    return pf, m, fit


def _scene(figure, fit):
    return figure.scene(width=fit.width, height=fit.height, scale=fit.scale)


def _same(a, b) -> bool:
    """Two scenes' headers alike to 0.01 CSS px (a layout made again after other layouts may
    differ in the last bits of a float)."""
    def rounded(v):
        if isinstance(v, float):
            return round(v, 2)
        if isinstance(v, dict):
            return {k: rounded(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [rounded(x) for x in v]
        return v
    return rounded(a.header()) == rounded(b.header())


def _room_css(figure):
    """The room an enlarged panel fills, in CSS px: (left, top, width, height)."""
    fig = figure.fig
    c = css_dpi(fig) / fig.dpi
    left, bottom, width, height = room_box(fig)
    return left * c, (fig.bbox.height - bottom - height) * c, width * c, height * c


@pytest.mark.parametrize("w,h", SIZES)
def test_each_panel_fills_the_figure_alone_and_back_gives_the_same_scene(w, h):
    pf, _, fit = _perceptron(w, h)
    before = _scene(pf, fit)
    names = [p.name for p in before.panels]
    assert before.enlargeable == tuple(names) and before.enlarged == ""
    assert names[0] == "plane" and all(p.title for p in before.panels)  # a click finds them
    arts = pf.track_artists()
    for name in names:
        assert pf.set_enlarged(name)
        large = _scene(pf, fit)
        assert [p.name for p in large.panels] == [name] and large.enlarged == name
        assert large.enlargeable == (name,)  # a click on its title goes back
        (p,), (x, y, rw, rh) = large.panels, _room_css(pf)
        old = before.panel(name)
        # the plane is as tall as the figure already: it keeps its size, the others grow
        assert p.w * p.h >= old.w * old.h * (0.99 if name == "plane" else 1.5), name
        assert p.x >= x - 1 and p.y >= y - 1 and p.x + p.w <= x + rw + 1 and p.y + p.h <= y + rh + 1
        assert max(p.w / rw, p.h / rh) > 0.97, (name, p, (x, y, rw, rh))  # fills a side
        assert {t.panel for t in large.tracks} <= {name, FIGURE}
        assert all(arts[t.name].axes is pf._named()[name].ax
                   for t in large.tracks if t.panel == FIGURE)
        assert {t.name for t in before.tracks if t.panel == name} <= {t.name for t in large.tracks}
        assert large.below != before.below
        chunk = pf.chunk(0)  # the steps of the panel shown, and their words
        assert set(chunk.arrays) == {t.name for t in large.tracks} and chunk.narration
    assert pf.set_enlarged("")
    back = _scene(pf, fit)
    assert back.header() == before.header()
    assert back.below == before.below and back.above == before.above


def test_the_enlarged_plane_keeps_its_square_and_its_legend_beside_it_on_the_figure():
    pf, _, fit = _perceptron(1366, 768, dataset="overlapping", rule="pocket")
    pf.set_enlarged("plane")
    scene = _scene(pf, fit)
    (p,) = scene.panels
    assert abs(p.w - p.h) < 1.5
    lx, ly, lw, lh, type_px = p.legend
    assert lx >= p.x + p.w and lx + lw <= fit.width + 1 and ly + lh <= fit.height + 1
    kept = next(t for t in scene.tracks if t.name == "kept_text")  # the legend's own words
    xy = pf.chunk(0).arrays[kept.name]["xy"][0]
    assert lx - 1 <= xy[0] <= lx + lw + 1 and ly - 1 <= xy[1] <= ly + lh + 1


def test_a_change_while_enlarged_then_back_is_the_figure_as_if_never_enlarged():
    """New data and the crowded figure's other row while the weight space is large; back, the
    scene is the one a figure that was never enlarged makes."""
    pf, _, fit = _perceptron(1024, 768)
    pf.set_enlarged("weights")
    _scene(pf, fit)
    m = PerceptronModel(dataset="xor", max_epochs=3)
    pf.set_run(m.trajectory, m.X, m.y, m.info)
    assert _scene(pf, fit).enlarged == "weights"
    pf.set_focus(1)  # the proof's row: the weight space is no longer shown
    assert _scene(pf, fit).enlarged == ""  # so none is large
    pf.set_focus(0)
    pf.set_enlarged("mistakes")
    _scene(pf, fit)
    pf.set_enlarged("")
    fresh, _, _ = _perceptron(1024, 768, dataset="xor", max_epochs=3)
    assert _same(_scene(pf, fit), _scene(fresh, fit))


def test_bad_names_from_the_page_are_ignored_without_a_new_scene():
    from explorer.app.pagerun import PageRun
    from explorer.app.timeline import Transport

    pf, m, fit = _perceptron(1366, 768)
    run = PageRun(pf, Transport(), fit, name="Figure")
    run.show()
    first = run.page.scene["run"]
    for content in ({"type": "enlarge", "panel": "nope"}, {"type": "enlarge", "panel": 3},
                    {"type": "enlarge"}, {"type": "enlarge", "panel": "x" * 10_000},
                    {"type": "enlarge", "panel": ""}, "enlarge"):
        run.page._on_msg(run.page, content, [])
    assert run.page.scene["run"] == first and pf.enlarged == ""
    assert not pf.set_enlarged(None) and not pf.set_enlarged("proof ")
    run.page._on_msg(run.page, {"type": "enlarge", "panel": "weights"}, [])
    assert run.page.scene["run"] == first + 1 and run.page.scene["enlarged"] == "weights"
    assert [p["name"] for p in run.page.scene["panels"]] == ["weights"]
    run.page._on_msg(run.page, {"type": "enlarge", "panel": ""}, [])
    assert run.page.scene["enlarged"] == "" and len(run.page.scene["panels"]) == 3


def _view(key):
    module, cls = dict((k, t) for k, _, t in TABS)[key].split(":")
    fit = fit_figure(window_width=1366, window_height=768, sidebar=False, lecture=True)
    return getattr(importlib.import_module(module), cls)(fitted=fit), fit


@pytest.mark.parametrize("key", ["margins", "xor", "generalization"])
def test_the_other_tabs_figures_enlarge_their_first_panel_and_back(key):
    view, fit = _view(key)
    f = view.paged.figure
    before = _scene(f, fit)
    names = before.enlargeable
    assert names and names[0] == before.panels[0].name
    assert f.set_enlarged(names[0])
    large = _scene(f, fit)
    assert [p.name for p in large.panels] == [names[0]]
    assert large.panels[0].h >= before.panels[0].h - 1
    assert {t.panel for t in large.tracks} <= {names[0], FIGURE}
    f.set_enlarged("")
    back = _scene(f, fit)
    assert back.header() == before.header() and back.below == before.below
    assert np.isfinite([p.w for p in back.panels]).all()


def test_the_keys_help_names_the_key():
    assert "z or a click on a panel's title: that panel large" in KEYS_HELP
