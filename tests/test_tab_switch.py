"""What a tab switch costs the kernel (issue 21: tab switch -> figure shown <= 1 s): a tab
opened after the page measured the window is made at the size the window gives its figure,
so its still layers are drawn once.

Measured in Chromium by ``benchmarks/bench_browser.py`` (``tab_switch_first_s``); here only the
behaviour.
"""

from __future__ import annotations

import pytest

from explorer.app.dashboard import TABS, Dashboard
from explorer.app.layout import fit_figure
from explorer.plots import layers

LATER = [key for key, _, _ in TABS[1:]]


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
