"""Panels titled "so far" draw steps 0 to k and nothing later, in every tab (issue 19, item 5).

At step 0 the XOR tab's "Updates so far" and "Training points wrong" drew the whole run, which
answers "will it ever stop?" before the first step; the Perceptron tab drew the future faint.
The rule, stated in each such panel's legend (:data:`explorer.plots.style.SO_FAR`): every curve
stops at the step shown; lines that are formulas (a bound) or cursors are named here.
"""

import numpy as np
import pytest

from explorer import xor
from explorer.perceptron import train
from explorer.plots import PerceptronFigure
from explorer.plots import style as S
from explorer.plots.xor import XorFigure
from explorer.shared import datasets


def _max_x(ax, *, skip=()) -> float:
    """The largest step any visible line of ``ax`` reaches, lines in ``skip`` left out."""
    xs = [np.max(np.asarray(line.get_xdata(), dtype=float)) for line in ax.get_lines()
          if line.get_visible() and line not in skip and len(line.get_xdata())]
    return max(xs) if xs else 0.0


@pytest.fixture(scope="module")
def xor_fig():
    f = XorFigure()
    f.fit(1100, 620)
    f.set_scene(xor.build_scene(xor.XOR), "cycling")
    return f


@pytest.mark.parametrize("k", [0, 3, 10])
def test_xor_cycling_panels_stop_at_the_step_shown(xor_fig, k):
    f = xor_fig
    f.set_view("cycling")
    n = f.xor_scene.run.trajectory.n_steps
    assert n > 10
    f.show(k)
    assert _max_x(f.ax_upd) <= k
    assert _max_x(f.ax_err, skip=(f.err_cursor,)) <= k
    # staircases (steps-post) through (j, value at j), j = 0..k, and nothing after
    assert len(f.upd_curve.get_xdata()) == 2 * k + 1 and len(f.err_now.get_xdata()) == 2 * k + 1
    t = f.xor_scene.run.trajectory
    assert list(f.upd_curve.get_xdata()[0::2]) == list(range(k + 1))
    assert list(f.upd_curve.get_ydata()[0::2]) == [t.updates_until(j) for j in range(k + 1)]
    # the cycle is marked from the step where the run finds it, not before
    assert f.upd_cycle.get_visible() == (k >= f.xor_scene.run.cycle.step)
    # the axes still span the whole run (they stay still while it plays)
    assert f.ax_upd.get_xlim()[1] == n and f.ax_err.get_xlim()[1] == n


def test_xor_so_far_panels_say_the_rule(xor_fig):
    f = xor_fig
    labels = [t.get_text() for t in f.upd_legend.get_texts()]
    assert any(S.SO_FAR in t for t in labels)
    assert any(S.SO_FAR in t.get_text() for t in f.err_legend.get_texts())
    assert "so far" in f.ax_err.get_title(loc="left")
    kernel = [t.get_text() for t in f.ax_kupd.get_legend().get_texts()]
    assert any(S.SO_FAR in t for t in kernel)


@pytest.mark.parametrize("k", [0, 2, 5])
def test_xor_kernel_updates_stop_at_the_step_shown(xor_fig, k):
    f = xor_fig
    f.set_view("kernel")
    run = f.xor_scene.kernel
    assert run.n_steps > 5
    f.show(k)
    assert _max_x(f.ax_kupd) <= k
    assert list(f.k_curve.get_ydata()[0::2]) == [run.updates_until(j) for j in range(k + 1)]
    f.set_view("cycling")


@pytest.fixture(scope="module")
def perceptron_fig():
    ds = datasets.load("separable", n=30, seed=3)
    traj = train(ds.X, ds.y, rule="classic")
    f = PerceptronFigure(dpi=50)
    f.set_run(traj, ds.X, ds.y)
    return f, traj


def test_perceptron_mistakes_and_proof_draw_nothing_after_the_step(perceptron_fig):
    f, traj = perceptron_fig
    n = traj.n_steps
    assert n > 20
    for k in (0, n // 2):
        f.show(k)
        m = f.mistakes
        assert _max_x(m.ax, skip=(m.bound, m.cursor)) <= k
        u = traj.updates_until(k)
        p = f.proof
        # the measured quantities stop at the updates made by step k; the guarantees are
        # formulas of u, drawn over the run's range
        assert _max_x(p.ax, skip=(p.dot_low, p.norm_up, p.cursor)) <= u
    assert S.SO_FAR in f.mistakes.bound_text.get_text().replace("\n", " ")


@pytest.mark.parametrize("code", [xor.XOR, 1])  # XOR cycles; AND (0001) stops early
@pytest.mark.parametrize("view", ["cycling", "kernel"])
def test_xor_so_far_panels_blit_as_a_full_draw_draws_them(view, code):
    """The curves that now grow with the step are moving artists: a blitted step shows what a
    full draw shows (the cycle's band appearing included)."""
    from figure_checks import assert_blit_matches_full_draw
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    scene = xor.build_scene(code)
    figs = []
    for blit in (True, False):
        fig = Figure(figsize=(13, 6.8), dpi=60)
        FigureCanvasAgg(fig)
        f = XorFigure(fig, blit=blit)
        f.set_scene(scene, view)
        figs.append(f)
    n = scene.steps(view)
    assert_blit_matches_full_draw(*figs, (0, 3, 5, n, 2))
