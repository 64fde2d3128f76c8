"""Each panel's limits show what the panel is about (issue 19, item 7): the Margins plane shows
the band's edges (or says they lie beyond it), the dual weights are scaled to the weights and
not to C, the SGD objective's distance to its minimum reads at a glance, and the opening view
of the Margins tab is readable. (The Generalization tab's probability axis: see
tests/test_generalization_figure.py.)"""

import numpy as np
import pytest

from explorer.app.margins.model import MarginsModel
from explorer.margins import gap_words
from explorer.plots import MarginsFigure
from explorer.shared.geometry import clip_line


def _figure(**params):
    m = MarginsModel(**params)
    f = MarginsFigure()
    f.fit(1100, 580)
    f.set_data(m.X, m.y, m.comparison, path=m.path, sgd=m.sgd)
    return m, f


def _band_in_view(f, m) -> bool:
    fit = m.comparison.svm
    x0, x1 = f.plane.ax.get_xlim()
    y0, y1 = f.plane.ax.get_ylim()
    return all(clip_line(np.asarray(fit.w), float(fit.b), (x0, x1, y0, y1), level=level)
               is not None for level in (-1.0, 1.0))


def test_the_plane_shows_both_edges_of_a_wide_soft_band():
    """C = 0.01 on overlapping blobs: the band (margin 6.3) was wider than the axes and no
    margin line was visible."""
    m, f = _figure(dataset="overlapping", log_c=-2)
    assert m.comparison.svm_margin > 5
    assert _band_in_view(f, m)
    assert f.plane.band_shown()
    # the data are still more than a dot: at least a fifth of the view's side
    side = np.ptp(m.X, axis=0).max()
    x0, x1 = f.plane.ax.get_xlim()
    assert side / (x1 - x0) > 0.2


@pytest.mark.parametrize("dataset", ["overlapping", "separable", "koski"])
@pytest.mark.parametrize("log_c", [-2.5, -2.0, -1.0, 0.0, 1.0, 2.0])
def test_band_edges_are_shown_or_said_to_lie_beyond(dataset, log_c):
    try:
        m, f = _figure(dataset=dataset, log_c=log_c)
    except ValueError:  # a C whose SGD step is refused for these data: nothing drawn
        return
    labels = [t for _h, t in f.plane._entries]
    if _band_in_view(f, m):
        assert not any("beyond this view" in t for t in labels)
    else:
        assert any("beyond this view" in t for t in labels)


def test_a_band_far_wider_than_the_data_is_said_not_drawn_at_a_dot():
    m, f = _figure(dataset="overlapping", log_c=-3)  # margin 63
    assert not _band_in_view(f, m)
    assert any("band f = ±1 beyond this view: 1/‖w‖ = 63.1" in t for _h, t in f.plane._entries)


def _bar_heights(f):
    """|alpha_i y_i| of each bar drawn (a bar's corners: (x, 0), (x, h), (x + w, h), ...)."""
    return [abs(float(path.vertices[1, 1])) for coll in (f.duals.pos, f.duals.neg)
            for path in coll.get_paths()]


def test_dual_weights_are_scaled_to_the_weights_not_to_c():
    """Koski's points at C = 100: every alpha is about 1, the axis ran to ±100, the bars were
    slivers of 1 % of it."""
    m, f = _figure(dataset="koski", log_c=2)
    alpha = np.asarray(m.comparison.svm.alpha)[np.asarray(m.comparison.svm.support)]
    assert alpha.max() < 2 and m.C == pytest.approx(100)
    lo, hi = f.duals.ax.get_ylim()
    heights = _bar_heights(f)
    assert len(heights) == len(alpha)
    assert min(heights) / max(abs(lo), hi) > 0.15  # every bar clearly visible
    assert max(heights) / max(abs(lo), hi) > 0.6  # the tallest fills most of the axis
    labels = [t.get_text() for t in f.duals.legend.get_texts()]
    assert "C = 100: off scale" in labels
    assert len(f.duals.cap_hi.get_xdata()) == 0  # C is said, not drawn far above the bars


def test_c_is_drawn_where_it_is_near_the_weights():
    m, f = _figure(dataset="overlapping", log_c=0)
    lo, hi = f.duals.ax.get_ylim()
    assert hi >= m.C and list(f.duals.cap_hi.get_ydata()) == [m.C, m.C]
    ticks = [f.duals.ax.yaxis.get_major_formatter()(v) for v in f.duals.ax.get_yticks()]
    assert "C" in ticks and "−C" in ticks


def test_the_objective_gap_reads_at_every_size():
    assert gap_words(1.0, 0.5933) == "1, 69 % above its minimum 0.5933"
    assert gap_words(1.0, 0.001707) == "1, 586 times its minimum 0.001707"
    assert gap_words(0.5933, 0.5933) == "0.5933, at its minimum 0.5933"
    assert gap_words(1.0, 0.0) == "1, its minimum 0"
    m, f = _figure(dataset="koski", log_c=2)
    text = f.show(0)
    assert "times its minimum" in text and "%" not in text  # was "58 478.6 % above"


def test_the_opening_margins_view_is_readable():
    """The default (overlapping blobs, C = 1) was a thicket of 26 rings; the opening view now
    has few support vectors, both lines and the band in view."""
    m, f = _figure()
    assert len(m.comparison.svm.support) <= 10
    assert _band_in_view(f, m) and m.comparison.gamma is not None


def test_a_soft_line_off_the_data_is_said_to_be_beyond_the_view_too():
    """Separable data at C = 0.01: the soft margin's line lies far from the data (all of them
    inside its band); the legend says the line is beyond the view, not only the band."""
    m, f = _figure(dataset="separable", log_c=-2)
    labels = [t for _h, t in f.plane._entries]
    assert len(f.plane.line.get_xdata()) == 0 and not _band_in_view(f, m)
    assert "SVM line and band f = ±1 beyond this view: 1/‖w‖ = 6.5" in labels
