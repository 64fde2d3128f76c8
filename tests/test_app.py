"""The Perceptron view without a browser: widgets in, drawn artists and text out."""

import types

import matplotlib
import numpy as np
import pytest

matplotlib.use("module://ipympl.backend_nbagg")

from explorer.app import PerceptronModel, PerceptronView, dashboard  # noqa: E402
from explorer.geometry import clip_line  # noqa: E402

KOSKI_STATES = [((1.0, 0.5), 0.0), ((0.6, 0.9), -0.2), ((0.2, 1.1), 0.0), ((0.5, 1.0), 0.2)]
KOSKI_PICKS = [None, 4, 2, 0]


@pytest.fixture
def view():
    return PerceptronView()


def _click(view, x, y, inside=True):
    ax = view.figure.plane.ax
    view._on_click(types.SimpleNamespace(inaxes=ax if inside else None,
                                         xdata=x if inside else None, ydata=y if inside else None))


def test_koski_steps_drawn(view):
    m = view.model
    assert m.dataset == "koski" and m.eta == 0.2 and m.trajectory.n_steps == 12
    for k, ((w, b), pick) in enumerate(zip(KOSKI_STATES, KOSKI_PICKS, strict=True)):
        if k:
            view.b_step.click()
        assert m.step == k and view.timeline.value == k
        expected = clip_line(np.array(w), b, view.figure.plane.box)
        np.testing.assert_allclose(view.drawn_line(), expected, atol=1e-9)
        offsets = view.figure.plane.picked.get_offsets()
        if pick is None:
            assert len(offsets) == 0
        else:
            np.testing.assert_allclose(offsets, m.X[[pick]])
            assert view.figure.plane.update.get_visible()
    assert view.narration.value.startswith("Step 3, point 1 (1.5, −0.5), label +1")
    view.b_back.click()
    assert m.step == 2 and view.narration.value.startswith("Step 2, point 3")
    view.b_reset.click()
    assert m.step == 0 and view.narration.value.startswith("Start")


def test_timeline_and_play_set_the_step(view):
    view.timeline.value = 7
    assert view.model.step == 7 and "Step 7" in view.narration.value
    assert view.play.max == view.model.trajectory.n_steps
    view.model.go(999)
    assert view.model.step == 12 and "Converged after 3 updates" in view.narration.value


def test_keys(view):
    view._on_key({"key": "ArrowRight"})
    view._on_key({"key": "ArrowRight"})
    assert view.model.step == 2
    view._on_key({"key": "ArrowLeft"})
    assert view.model.step == 1
    view._on_key({"key": " "})
    assert view.play.playing
    view._on_key({"key": "r"})
    assert view.model.step == 0 and not view.play.playing


@pytest.mark.parametrize("widget,bad,good", [("w_eta", -1.0, 0.2), ("w_eta", 0.0, 0.2),
                                             ("w_epochs", 0, 50), ("w_n", 0, 40)])
def test_bad_typed_values_are_refused_and_state_kept(view, widget, bad, good):
    view.b_step.click()
    traj = view.model.trajectory
    getattr(view, widget).value = bad
    assert getattr(view, widget).value == good
    assert "Not applied" in view.message.value
    assert view.model.trajectory is traj and view.model.step == 1


def test_bad_text_fields(view):
    view.w_custom.value = "5, 3, 9"
    assert "custom order must list point numbers from 1 to 6" in view.message.value
    assert view.w_custom.value == "5, 3, 1, 2, 4, 6"
    view.w_w0.value = "1, x"
    assert "start w must be numbers" in view.message.value and view.w_w0.value == "1, 0.5"
    view.w_w0.value = "1, 2, 3"
    assert "start w needs 2 numbers" in view.message.value


def test_changing_dataset_and_rule(view):
    view.w_dataset.value = "separable"
    m = view.model
    assert m.order == "cyclic" and m.eta == 1.0 and len(m.X) == 40
    assert view.w_eta.value == 1.0 and not view.w_n.disabled
    view.w_n.value = 80
    assert len(m.X) == 80
    view.w_rule.value = "margin"
    assert m.info.band == 1.0 and not view.w_forget.disabled and view.w_rho.disabled
    view.w_dataset.value = "xor"
    m.go(m.trajectory.n_steps)
    assert "without converging" in view.narration.value


def test_editing_points(view):
    m = view.model
    view.w_edit.value = "add+"
    _click(view, 0.5, -2.5)
    assert len(m.X) == 7 and m.y[-1] == 1 and m.step == 0 and m.edited
    _click(view, 0, 0, inside=False)  # outside the axes: nothing happens
    assert len(m.X) == 7
    view.w_edit.value = "remove"
    _click(view, 0.5, -2.5)
    assert len(m.X) == 6
    _click(view, 0.0, 0.0)  # no point there
    assert len(m.X) == 6 and "No point there" in view.message.value
    for _ in range(2):  # remove two of the three -1 points ...
        _click(view, *m.X[m.y < 0][0])
    assert len(m.X) == 4 and (m.y < 0).sum() == 1
    _click(view, *m.X[m.y < 0][0])  # ... the last one is refused: one class only
    assert len(m.X) == 4 and "both classes" in view.message.value


def test_you_choose_reproduces_koski(view):
    m = view.model
    view.w_edit.value = "choose"
    assert m.choose_mode and m.trajectory.n_steps == 0
    for i in (4, 2, 0):
        _click(view, *m.X[i])
    assert m.chosen == [4, 2, 0] and m.step == 3
    w, b = m.trajectory.state(3)
    np.testing.assert_allclose(w, [0.5, 1.0])
    assert "Every point now passes the test" in view.narration.value
    view.w_edit.value = "view"
    assert not m.choose_mode and m.trajectory.n_steps == 12


def test_exports(view):
    view.b_step.click()
    view.b_png.click()
    assert "data:image/png;base64," in view.links.value
    view.b_svg.click()
    assert "data:image/svg+xml;base64," in view.links.value
    view.b_html.click()
    assert "data:text/html;base64," in view.links.value
    assert view.progress.value == view.progress.max > 1


def test_model_refuses_unknown_parameters():
    m = PerceptronModel()
    with pytest.raises(TypeError, match="unknown parameters"):
        m.update(colour="red")
    assert not m.update(rule="nope") and "unknown rule 'nope'" in m.message


def test_dashboard_has_the_perceptron_tab():
    tab = dashboard()
    assert tab.titles == ("Perceptron",)
    assert isinstance(tab.children[0], PerceptronView)


def test_one_image_per_action(view):
    """ipympl's front end drops an image that arrives while the previous one loads: each
    action must send exactly one, and a new run must go out as a whole frame."""
    sent = []
    original = view.canvas.send_binary
    view.canvas.send_binary = lambda data: (sent.append(view.canvas._current_image_mode),
                                            original(data))[1]
    view.b_step.click()
    assert len(sent) == 1
    view.w_edit.value = "choose"
    _click(view, *view.model.X[4])
    assert len(sent) == 3 and sent[-1] == "full"
