"""The data plane first (issue 30, item 1), on the kernel's figures: the plane is a square as
tall as the figure allows, its legend goes beside it when below would shrink it, a crowded
figure shows one row of side panels (the tab offers the other), and no legend is under 11 CSS
px. The same sizes in the page: tests/browser/test_plane_first.py."""

import pytest
from matplotlib.legend import Legend

from explorer.app.layout import fit_figure
from explorer.plots.live import legends
from explorer.plots.style import LEGEND_MIN_PX
from explorer.plots.tracks import figure_renderer, px_per_pt

#: (window width, height, lecture, where the figure starts): a lecture hall's projector and a
#: laptop, as the page measures them (tests/browser/test_plane_first.py: 217 to 342 px).
WINDOWS = [(1024, 768, False, 217), (1024, 768, True, 300), (1280, 800, False, 265),
           (1280, 800, True, 280), (1920, 1080, True, 250)]


def _view(tab: str, window):
    from explorer.app.dashboard import dashboard

    w, h, lecture, top = window
    d = dashboard(query=f"tab={tab}")
    view = d.active
    view.fit(fit_figure(window_width=w, window_height=h, sidebar=False, lecture=lecture,
                        figure_top=top))
    return view


def _plane_ax(figure):
    return figure.ax if hasattr(figure, "ax") and not hasattr(figure, "plane") else \
        figure.plane.ax


@pytest.mark.parametrize("window", WINDOWS, ids=lambda w: f"{w[0]}x{w[1]}{'-lecture' * w[2]}")
@pytest.mark.parametrize("tab", ["perceptron", "margins", "xor"])
def test_the_plane_is_as_tall_as_the_figure_allows_and_its_legend_beside_it(tab, window):
    view = _view(tab, window)
    figure = view.paged.figure
    fig = figure.fig
    fig.canvas.draw()
    renderer = figure_renderer(fig)
    W, H = fig.bbox.width, fig.bbox.height
    plane = _plane_ax(figure).get_window_extent(renderer)
    assert min(plane.width, plane.height) >= 0.78 * H, (plane, W, H)
    assert figure.room.legend == "beside"  # below, it would take the plane's height
    legend = _plane_ax(figure).get_legend().get_window_extent(renderer)
    assert legend.x0 > plane.x1 and legend.x1 <= W + 1 and legend.y1 <= H + 1
    for ax in fig.axes:  # the side panels start under it
        if ax.get_visible() and ax is not _plane_ax(figure):
            assert not ax.get_window_extent(renderer).overlaps(legend), ax.get_title(loc="left")
    for ax in fig.axes:  # and every panel is no larger than the plane
        if ax.get_visible():
            box = ax.get_window_extent(renderer)
            assert box.width * box.height <= plane.width * plane.height + 1


@pytest.mark.parametrize("window", WINDOWS, ids=lambda w: f"{w[0]}x{w[1]}{'-lecture' * w[2]}")
@pytest.mark.parametrize("tab", ["perceptron", "margins", "xor", "cover", "generalization",
                                 "perceptron&race=margin"])
def test_no_legend_is_under_11_css_px(tab, window):
    view = _view(tab, window)
    view.paged.show()  # the page's scene: the still layers drawn as the page shows them
    fig = view.figure.fig
    fig.canvas.draw()
    floor = 20 if window[0] == 1920 and window[2] else LEGEND_MIN_PX
    # the legends the floor is applied to are every legend matplotlib finds by walking the figure
    assert {id(a) for a in legends(fig)} == {id(a) for a in fig.findobj(Legend)}
    for legend in fig.findobj(Legend):
        if not (legend.get_visible() and (legend.axes is None or legend.axes.get_visible())):
            continue
        for text in legend.get_texts():
            if text.get_visible() and text.get_text().strip():
                px = text.get_fontsize() * px_per_pt(fig)
                assert px >= floor - 0.05, (tab, text.get_text(), px)


def test_a_crowded_figure_shows_one_row_and_the_tab_offers_the_other():
    view = _view("perceptron", (1024, 768, True, 300))
    figure = view.paged.figure
    assert figure.room.crowded and figure.room.rows == (0,)
    names = {p.name for p in figure.page_scene.panels}
    assert names == {"plane", "weights", "mistakes"}
    assert view.side_choice.layout.display == ""
    assert [label for label, _ in view.side_choice.options] == list(figure.side_rows())
    view.side_choice.value = 1  # the proof beside the plane
    scene = figure.page_scene
    assert figure.room.rows == (1,) and {p.name for p in scene.panels} == {"plane", "proof"}
    assert {t.panel for t in scene.tracks} <= {"plane", "proof", "figure"}
    assert figure.proof.ax.get_visible() and not figure.weights.ax.get_visible()
    export = view._export_figure(type(figure))  # an export shows what the page shows
    export.set_run(figure.traj, figure.X, figure.y, figure.info)
    assert export.room.rows == (1,) and export.proof.ax.get_visible()


def test_a_figure_with_room_for_every_row_offers_no_choice():
    view = _view("perceptron", (1366, 768, False, 218))
    assert not view.paged.figure.room.crowded
    assert view.side_choice.layout.display == "none"


@pytest.mark.parametrize("window", [(1024, 768, False, 230), (1024, 768, True, 300),
                                    (1920, 1080, True, 260)], ids=["1024", "1024-lecture",
                                                                   "1920-lecture"])
def test_the_race_planes_use_the_figures_height(window):
    """Lecture mode at 1920 × 1080 left the race's planes at 41 % of the figure's height, with
    wide empty margins beside them."""
    view = _view("perceptron&race=margin", window)
    figure = view.paged.figure
    fig = figure.fig
    fig.canvas.draw()
    renderer = figure_renderer(fig)
    H = fig.bbox.height
    sides = [p.ax.get_window_extent(renderer) for p in figure.planes]
    assert all(min(b.width, b.height) >= 0.55 * H for b in sides), (sides, H)
    assert not sides[0].overlaps(sides[1])
    legend = figure.mistakes_ax.get_legend().get_window_extent(renderer)
    assert legend.x1 <= fig.bbox.width + 1  # the rules' names whole
