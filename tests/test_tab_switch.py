"""What a tab switch costs the kernel (issue 21: tab switch -> figure shown <= 1 s): a tab
opened after the page measured the window is made at the size the window gives its figure,
so its still layers are drawn once.

Measured in Chromium by ``benchmarks/bench_browser.py`` (``tab_switch_first_s``); here only the
behaviour.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from explorer.app.dashboard import TABS, Dashboard
from explorer.app.layout import fit_figure
from explorer.plots import layers

LATER = [key for key, _, _ in TABS[1:]]
ROOT = Path(__file__).resolve().parents[1]


def _measured() -> Dashboard:
    """A dashboard on the Perceptron tab whose page has measured a 1200 × 900 window."""
    d = Dashboard(query="")
    d.bridge.width, d.bridge.height = 1200, 900
    d.bridge.figure_top, d.bridge.figure_width = 170, 853
    return d


@pytest.fixture
def layer_draws(monkeypatch):
    """The figure sizes (pixels) at which still layers are drawn from now on."""
    sizes = []
    draw = layers.still_layers

    def counted(fig, moving, **kwargs):
        sizes.append(tuple(round(v) for v in fig.bbox.size))
        return draw(fig, moving, **kwargs)

    monkeypatch.setattr(layers, "still_layers", counted)
    return sizes


@pytest.mark.parametrize("key", LATER)
def test_a_tab_opened_after_the_window_was_measured_is_drawn_once_at_its_size(key, layer_draws):
    d = _measured()
    fitted = fit_figure(window_width=1200, window_height=900, figure_top=170, figure_width=853,
                        sidebar=True, lecture=False)
    assert fitted.width == 851  # the measured column, not the size guessed before
    layer_draws.clear()
    d.tabs.selected_index = d.tab_keys.index(key)
    view = d.views[key]
    assert view.fitted == fitted
    assert (view.page.scene["width"], view.page.scene["height"]) == (fitted.width,
                                                                      fitted.height)
    assert len(layer_draws) == 1, layer_draws


def test_a_view_made_outside_the_dashboard_is_drawn_at_the_guessed_size():
    from explorer.app.margins import MarginsView

    guessed = fit_figure(window_width=1366, window_height=768, sidebar=True, lecture=False)
    view = MarginsView()
    assert view.fitted == guessed
    assert view.page.scene["width"] == guessed.width


class _Loop:
    """A kernel's event loop that records what is scheduled and runs nothing."""

    def __init__(self):
        self.later = []

    def call_later(self, delay, fn, *args):
        self.later.append((delay, fn, args))
        return self

    def cancel(self):
        pass


def test_in_a_kernel_the_dashboard_imports_the_other_tabs_after_the_first_picture(monkeypatch):
    from explorer.app import jobs

    dashboard = sys.modules["explorer.app.dashboard"]
    loop = _Loop()
    monkeypatch.setattr(dashboard, "kernel_loop", lambda: loop)
    monkeypatch.setattr(jobs, "kernel_loop", lambda: loop)
    d = Dashboard(query="")
    preload = [(delay, args) for delay, fn, args in loop.later if fn is dashboard.preload_later]
    assert preload == [(dashboard.PRELOAD_AFTER_S, (d.tab_table,))]
    assert dashboard.PRELOAD_AFTER_S >= 2.5  # not before the page has its picture


def test_preloading_imports_what_opening_each_tab_would():
    """In a fresh interpreter: the page's first tab imports none of the others' modules; the
    preload imports them, and then opening every tab imports nothing more of ours or of
    scikit-learn's data sets."""
    out = subprocess.run([sys.executable, "-c", """
import json, sys
from explorer.app.dashboard import TABS, Dashboard, preload_later
theirs = [t.split(":")[0] for _, _, t in TABS[1:]] + ["sklearn.datasets",
                                                      "explorer.xor.kernel_perceptron"]
d = Dashboard(query="")
before = [m for m in theirs if m in sys.modules]
preload_later().join(120)
after = [m for m in theirs if m in sys.modules]
loaded = set(sys.modules)
for i in range(1, len(TABS)):
    d.tabs.selected_index = i
new = sorted(m for m in set(sys.modules) - loaded if m.startswith(("explorer", "sklearn"))
             and not m.endswith((".data", ".descr")))  # folders of data files, read as such
print(json.dumps({"before": before, "after": after, "theirs": theirs, "new": new}))
"""], capture_output=True, text=True, check=True, cwd=ROOT,
        env={"MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin"})
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["before"] == [] and got["after"] == got["theirs"]
    assert got["new"] == [], got["new"]


def test_a_new_tab_reaches_the_page_before_its_figure_is_drawn(layer_draws):
    """The tab's widgets are sent first (the page makes and lays them out meanwhile), then its
    still layers are drawn and sent."""
    d = _measured()
    order = []
    d.tabs.observe(lambda ch: order.append(("children", len(layer_draws))), names="children")
    layer_draws.clear()
    d.tabs.selected_index = d.tab_keys.index("margins")
    assert order == [("children", 0)] and len(layer_draws) == 1
    view = d.views["margins"]
    assert view.page.scene["run"] == 1 and view.page.below  # drawn once, after


def test_a_link_to_a_tab_draws_its_figure_once_at_the_links_state(layer_draws):
    d = Dashboard(query="tab=margins&dataset=overlapping&step=7")
    view = d.active
    assert view.model.dataset == "overlapping" and view.model.step == 7
    assert len(layer_draws) == 1  # not the defaults first
    assert view.page.scene["run"] == 1 and view.page.step == 7
    assert view.figure.narration(7) in view.messages.text


def test_held_shows_draw_each_figure_once_at_its_last_step(layer_draws):
    from explorer.app.margins import MarginsView
    from explorer.app.pagerun import HeldShows

    view = MarginsView()
    layer_draws.clear()
    run = view.paged
    with HeldShows() as hold:
        assert HeldShows.active() is hold
        run.show(step=2)
        run.go(5)  # e.g. a link's step, applied before the figure is drawn
        run.show(step=None)
        run.go(3)
        assert hold.held == {run: 3} and layer_draws == []
    assert HeldShows.active() is None and layer_draws == []
    assert hold.release() == [] and len(layer_draws) == 1
    assert view.page.step == 3 and view.page.scene["run"] == 2
    assert hold.release() == [] and len(layer_draws) == 1  # once


def test_a_figure_that_cannot_be_drawn_when_released_says_so_in_its_tab(monkeypatch):
    from explorer.plots import MarginsFigure

    def broken(self, **kwargs):
        raise ValueError("no room for the legend")

    monkeypatch.setattr(MarginsFigure, "scene", broken)
    d = _measured()
    d.tabs.selected_index = d.tab_keys.index("margins")  # no traceback
    assert "Could not draw this run: no room for the legend" in d.active.messages.refusal.value


def test_in_a_kernel_the_generalization_simulation_starts_once_its_tab_is_drawn(monkeypatch):
    from explorer.app.generalization import view as gview

    class Loop(_Loop):
        def call_soon(self, fn, *args):
            self.later.append((0, fn, args))

    loop = Loop()
    monkeypatch.setattr(gview, "kernel_loop", lambda: loop)
    v = gview.GeneralizationView()
    assert not v.model.sim_running  # not beside the figure's drawing
    assert [(d, fn) for d, fn, _ in loop.later] == [(0, v._autorun)]


def test_points_sent_to_a_tab_not_made_yet_are_drawn_once(layer_draws):
    d = _measured()
    perceptron = d.active
    layer_draws.clear()
    perceptron.b_send.click()  # "Open points in the Margins tab": made for them
    margins = d.active
    assert margins is d.views["margins"]
    np.testing.assert_array_equal(margins.model.X, perceptron.model.X)
    assert len(layer_draws) == 1 and margins.page.scene["run"] == 1


def test_a_slide_in_a_tab_not_made_yet_is_drawn_once(layer_draws):
    d = _measured()
    state = {**d._spec_of("xor").defaults(), "view": "proof"}
    layer_draws.clear()
    d._show_slide(type("Slide", (), {"tab": "xor", "state": state, "lang": None})())
    assert d.active.model.view == "proof"
    assert len(layer_draws) == 1 and d.active.page.scene["run"] == 1


def test_a_hold_holds_only_its_own_threads_shows(layer_draws):
    import threading

    from explorer.app.margins import MarginsView
    from explorer.app.pagerun import HeldShows

    view = MarginsView()
    layer_draws.clear()
    with HeldShows() as hold:
        with HeldShows() as inner:
            worker = threading.Thread(target=view.paged.show)  # e.g. a script's worker
            worker.start()
            worker.join(60)
            assert len(layer_draws) == 1 and hold.held == inner.held == {}
            view.paged.show()
            assert inner.held == {view.paged: None} and hold.held == {}
        assert HeldShows.active() is hold
        assert inner.release() == [] and hold.held == {view.paged: None}  # the outer holds it
    assert HeldShows.active() is None and len(layer_draws) == 1
    assert hold.release() == [] and len(layer_draws) == 2
