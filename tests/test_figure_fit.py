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
    shown = [ax for ax in pf.fig.axes if ax.get_visible()]  # a crowded figure shows one row
    for ax in shown:  # what is drawn: ticks in view, labels, title, legend, texts
        box = ax.get_tightbbox(renderer)
        assert box.x0 >= -1 and box.y0 >= -1 and box.x1 <= W + 1 and box.y1 <= H + 1, (
            f"{ax.get_title()!r} leaves the figure ({W:.0f}x{H:.0f}): {box}")
    legend = pf.plane.legend.get_window_extent(renderer)
    assert legend.y0 >= -1, legend
    note, box = pf.weights.note.get_window_extent(renderer), pf.weights.ax.get_window_extent(renderer)
    assert note.x0 >= box.x0 - 1 and note.x1 <= box.x1 + 1, (
        f"the weight space's note {pf.weights.note.get_text()!r} leaves its panel")
    for ax in (pf.weights.ax, pf.mistakes.ax, pf.proof.ax):
        if not ax.get_visible():
            continue
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



def _smallest_text_px(fig) -> tuple[float, str]:
    """The smallest visible text of a figure in CSS px, and what it says."""
    from matplotlib.text import Text

    from explorer.plots.tracks import px_per_pt

    fig.canvas.draw()
    sizes = [(t.get_fontsize() * px_per_pt(fig), t.get_text()) for t in fig.findobj(Text)
             if t.get_visible() and t.get_text().strip()
             and (t.axes is None or t.axes.get_visible())]
    return min(sizes)


@pytest.mark.parametrize("tab", ["perceptron", "perceptron&dataset=overlapping&rule=pocket",
                                 "perceptron&dataset=xor&rule=averaged", "margins", "cover",
                                 "xor", "generalization", "perceptron&race=margin,svm_sgd"])
def test_lecture_mode_type_is_readable_from_the_back_at_1920(tab):
    """Lecture mode at 1920 × 1080 (the figure's top where the page measures it, about 240 px):
    every text of the tab's figure, ticks, legends and labels, is at least 20 CSS px."""
    from explorer.app.dashboard import dashboard
    from explorer.plots.style import READABLE_PX

    d = dashboard(query=f"tab={tab}")
    view = d.active
    view.fit(fit_figure(window_width=1920, window_height=1080, sidebar=False, lecture=True,
                        figure_top=250))
    fig = view.figure.fig
    px, text = _smallest_text_px(fig)
    assert px >= READABLE_PX, f"{tab}: {text!r} is {px:.1f} px"


@pytest.mark.parametrize("w,h", [(1024, 768), (1366, 768), (1920, 1080)])
def test_the_margins_plane_keeps_its_room_in_lecture_mode_and_titles_their_column(w, h):
    """Issue 22: in lecture mode the Margins plane shrank to about 190 px under a legend taller
    than the plot, and at 1024 px its title ran into the dual weights'. The legend's heading
    (C in Sayed's terms, also in the narration) gives way first, and a title that cannot fit
    at readable size drops its bracketed source; titles stay over their own columns."""
    from explorer.app.dashboard import dashboard

    d = dashboard(query="tab=margins")
    view = d.active
    view.fit(fit_figure(window_width=w, window_height=h, sidebar=False, lecture=True,
                        figure_top=250))
    mf = view.figure
    fig = mf.fig
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    side = mf.plane.ax.get_window_extent(renderer).height
    assert side >= 0.4 * fig.bbox.height, f"the plane is {side:.0f} of {fig.bbox.height:.0f} px"
    legend = mf.plane.legend.get_window_extent(renderer)
    assert legend.y0 >= -1 and legend.height < 1.2 * side
    titles = [ax.title if ax.title.get_text() else ax._left_title for ax in fig.axes
              if ax.get_visible()]
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in titles
             if t.get_text() and t.get_visible()]
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1:]:
            assert not box_a.overlaps(box_b), f"{a!r} runs into {b!r}"
