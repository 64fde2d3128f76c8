"""The XOR tab without a browser: its model, its view, bad input, links and the hand-off."""

import numpy as np
import pytest

from explorer import xor  # noqa: E402
from explorer.app.pagefigure import Pointer  # noqa: E402
from explorer.app.perceptron import SPEC as PERCEPTRON_SPEC  # noqa: E402
from explorer.app.xor import SPEC, XorModel, XorView  # noqa: E402


@pytest.fixture(scope="module")
def view():
    return XorView()


def test_playing_xor_reaches_the_cycle_and_says_so(view):
    view.load_state({})
    m = view.model
    assert m.function == xor.XOR and m.view == "cycling" and m.n_steps == 24
    view.timeline.go(3)
    assert "cycle of length" not in view.messages.text
    before = view.changed
    view.timeline.act("step")
    assert m.step == 4 and view.changed == before + 1
    assert "cycle of length 4 found at step 4" in view.messages.text
    view.timeline.act("end")
    assert m.scene.run.trajectory.updates_until(m.step) == 24  # every step updates
    assert "1 of 4 points wrong" in view.messages.text  # the pocket: 3 of 4 right


def test_proof_view_draws_the_hulls_crossing_at_the_centre(view):
    view.w_view.value = "proof"
    x, y = view.figure.cert.get_data()
    np.testing.assert_allclose([x[0], y[0]], [0.0, 0.0], atol=1e-9)
    assert view.figure.hull_pos.get_visible() and "hulls cross" in view.messages.text
    assert view.timeline.n_steps == 0


def test_clicking_a_tile_opens_that_function(view):
    """The 16 functions: the page sends a click in a tile's panel (explorer.app.pagefigure)."""
    view.w_view.value = "grid"
    assert view.page.pointer_mode == "choose"
    assert [p["name"] for p in view.page.scene["panels"]][1:3] == ["tile0", "tile1"]
    view._on_pointer(Pointer("plane", 0.0, 0.0, "choose"))  # not a tile: nothing opens
    assert view.model.view == "grid"
    view._on_pointer(Pointer("tile1", 0.0, 0.0, "choose"))
    m = view.model
    assert m.function == 1 and m.view == "cycling" and m.scene.run.trajectory.converged
    assert view.w_function.value == 1 and view.page.pointer_mode == "view"


def test_the_page_gets_one_scene_per_view_and_settles_steps_without_messages(view):
    """The page draws the steps (issue 21): a step it settled costs no message back to it, a
    step moved by the kernel is one small message, a new view is one scene and its chunks."""
    view.load_state({"view": "kernel"})
    page = view.page
    assert page.scene["n_steps"] == view.model.n_steps > 0
    assert {t["kind"] for t in page.scene["tracks"]} >= {"raster", "polygon", "prefix"}
    sent = []
    original = page.send
    page.send = lambda content, buffers=None: (sent.append(content.get("type")),
                                               original(content, buffers))[1]
    try:
        run = page.scene["run"]
        page.step = 3  # as the page writes the step it shows, once settled
        assert view.model.step == 3 and sent == []
        assert view.messages.text.startswith("Kernel perceptron") and "step 3 of" in view.messages.text
        view.timeline.act("step")  # the kernel moves the step
        assert view.model.step == 4 and sent == ["go"]
        sent.clear()
        view.w_view.value = "feature"
        assert page.scene["run"] == run + 1 and sent == ["chunk"] * len(page.scene["pushed"])
        lift = [p for p in page.scene["panels"] if p["name"] == "lift"][0]
        assert lift["view3d"]["azim"] == view.figure.lifted.azim
    finally:
        page.send = original


def test_turning_the_lifted_view_in_the_page_reaches_the_export(view):
    """The page turns the 3-D view itself; where the drag ends, the kernel's figure follows,
    and the export draws the view as turned."""
    view.load_state({"view": "feature"})
    view.page._on_msg(view.page, {"type": "view3d", "panel": "lift", "azim": 10.0,
                                  "elev": 200.0}, [])
    assert (view.figure.lifted.azim, view.figure.lifted.elev) == (10.0, 90.0)
    frames = view._export_frames()
    assert (frames.figure.lifted.azim, frames.figure.lifted.elev) == (10.0, 90.0)
    view.page._on_msg(view.page, {"type": "view3d", "panel": "nowhere", "azim": 0.0,
                                  "elev": 0.0}, [])
    assert view.figure.lifted.azim == 10.0  # a message about no panel is ignored
    view.paged.show()
    lift = [p for p in view.page.scene["panels"] if p["name"] == "lift"][0]
    assert (lift["view3d"]["azim"], lift["view3d"]["elev"]) == (10.0, 90.0)


def test_empty_grid_selection_is_refused_and_state_kept(view):
    view.load_state({"function": 6})
    scene = view.model.scene
    view.w_pick.value = None
    view.b_open.click()
    assert "choose a function" in view.messages.refused
    assert view.model.scene is scene
    view.w_pick.value = 9
    view.b_open.click()
    assert view.model.function == xor.XNOR and view.w_pick.value is None


@pytest.mark.parametrize("text,words", [("abc", "kernel degree must be a whole number"),
                                        ("9", "kernel degree must be a whole number from 1 to 6"),
                                        ("2.5", "kernel degree must be a whole number")])
def test_bad_kernel_degree_is_refused_and_kept(view, text, words):
    view.load_state({"view": "kernel", "degree": 3})
    scene = view.model.scene
    view.text["degree"].value = text
    assert words in view.messages.refused
    assert view.model.scene is scene and view.model.degree == 3
    assert view.text["degree"].value == "3"


@pytest.mark.parametrize("v", ["feature", "layers", "kernel"])
def test_each_way_out_classifies_all_four_points_at_the_end(view, v):
    view.load_state({"view": v})
    view.timeline.act("end")
    text = view.messages.text
    assert ("4 of 4 right" in text) or ("converged: the plane separates all four" in text)


def test_kernel_degree_one_never_separates_xor(view):
    view.load_state({"view": "kernel", "degree": 1})
    view.timeline.act("end")
    assert "4 of 4 right" not in view.messages.text


def test_state_round_trips_through_a_link(view):
    view.load_state({"view": "kernel", "coding": "01", "degree": 3, "function": 9, "step": 5})
    values, problems = SPEC.from_query(SPEC.to_query(view.save_state()))
    assert not problems and values == view.save_state()
    assert values["step"] == 5 and view.timeline.step == 5
    other = XorView(XorModel())
    assert other.load_state(values) and other.model.scene.kernel.degree == 3


def test_send_points_uses_the_perceptron_tabs_fields(view):
    view.load_state({"coding": "01"})
    view.b_send.click()
    assert view.handoff.tab == "perceptron"
    state = view.handoff.state()
    values = PERCEPTRON_SPEC.validate(state)  # every field name and value is accepted
    assert values["rule"] == "pocket"
    assert [p[:2] for p in values["points"]] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    view.handoff = None
    view.load_state({"function": 0})
    view.b_send.click()
    assert view.handoff is None and "one class only" in view.messages.refused


def test_bad_link_is_refused_with_the_defaults_kept(view):
    view.load_state({"function": 9})
    assert not view.load_state({"function": 16})
    assert "function number" in view.messages.refused and view.model.function == 9
