"""The live figure fitted to the window: nothing is cut off or runs into another panel, at the
sizes and type scales the dashboard uses (1024 to 1920 px wide, lecture mode included)."""

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from explorer.app.layout import fit_figure
from explorer.app.perceptron.model import PerceptronModel
from explorer.plots import PerceptronFigure

WINDOWS = [(1024, 768, False, False), (1366, 768, True, False), (1366, 768, True, True),
           (1920, 1080, True, False), (1920, 1080, True, True), (1280, 1024, True, False)]


@pytest.mark.parametrize("case", [dict(), dict(dataset="xor", max_epochs=3),
                                  dict(dataset="overlapping", rule="pocket")],
                         ids=["koski", "xor", "pocket"])
@pytest.mark.parametrize("w,h,sidebar,lecture", WINDOWS)
def test_nothing_is_cut_off(case, w, h, sidebar, lecture):
    m = PerceptronModel(**case)
    fit = fit_figure(window_width=w, window_height=h, sidebar=sidebar, lecture=lecture,
                     figure_top=260 if lecture else 225)
    assert fit.width <= w and fit.height <= h - 225
    pf = PerceptronFigure(Figure())
    FigureCanvasAgg(pf.fig)
    pf.fit(fit.width, fit.height, scale=fit.scale)
    pf.set_run(m.trajectory, m.X, m.y, m.info)
    pf.show(m.trajectory.n_steps // 2)
    renderer = pf.fig.canvas.get_renderer()
    pf.fig.draw(renderer)
    W, H = pf.fig.bbox.width, pf.fig.bbox.height
    assert abs(W - fit.width) < 1.5 and abs(H - fit.height) < 1.5
    for ax in pf.fig.axes:  # what is drawn: ticks in view, labels, title, legend, texts
        box = ax.get_tightbbox(renderer)
        assert box.x0 >= -1 and box.y0 >= -1 and box.x1 <= W + 1 and box.y1 <= H + 1, (
            f"{ax.get_title()!r} leaves the figure ({W:.0f}x{H:.0f}): {box}")
    legend = pf.plane.legend.get_window_extent(renderer)
    assert legend.y0 >= -1, legend
    for ax in (pf.weights.ax, pf.mistakes.ax, pf.proof.ax):
        other = ax.get_tightbbox(renderer)
        assert not legend.overlaps(other) or legend.x1 <= other.x0 + 2, (
            f"the data plane's legend runs into {ax.get_title()!r}")


def test_type_grows_in_lecture_mode():
    normal = fit_figure(window_width=1920, window_height=1080, sidebar=True, lecture=False)
    big = fit_figure(window_width=1920, window_height=1080, sidebar=True, lecture=True)
    pf = PerceptronFigure(Figure())
    pf.fit(normal.width, normal.height, scale=normal.scale)
    dpi_normal = pf.fig.dpi
    pf.fit(big.width, big.height, scale=big.scale)
    assert pf.fig.dpi > 1.2 * dpi_normal  # points are larger on screen: type, markers, lines

