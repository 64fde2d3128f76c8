"""Rules racing in sync in the Perceptron tab (issue 22): ticking rules under "Race against"
puts one plane per rule on the page, on one timeline; the race lives in links, files and
exports, and what cannot race is refused in words."""

import io

import numpy as np
import pytest
from PIL import Image

from explorer.app import PerceptronView, dashboard
from explorer.app.pagefigure import Pointer
from explorer.app.perceptron.model import SPEC
from explorer.perceptron.race import race_text
from explorer.plots.race import RaceFigure


@pytest.fixture
def view():
    return PerceptronView()


def _tick(view, *rules, on=True):
    for rule in rules:
        view.w_race.boxes[rule].value = on


def test_ticking_rules_races_them_on_one_timeline(view):
    m, page = view.model, view.page
    assert m.racing is None and [p["name"] for p in page.scene["panels"]][0] == "plane"
    _tick(view, "margin", "pocket")
    assert m.race == ["margin", "pocket"]
    assert m.racing.rules == ("classic", "margin", "pocket")
    assert isinstance(view.figure, RaceFigure)
    names = [p["name"] for p in page.scene["panels"]]
    assert names == ["plane", "plane2", "plane3", "mistakes"]
    # one timeline: the longest run's steps, jumps at any rule's update
    assert view.timeline.n_steps == page.scene["n_steps"] == m.n_steps == m.racing.n_steps
    assert m.n_steps > m.trajectory.n_steps  # the margin rule runs on after the classic stops
    view.timeline.act("end")
    assert m.step == m.racing.n_steps
    assert view.messages.text == race_text(m.racing, m.step)
    assert view.timeline.status(m.step).startswith(
        f"step {m.step} of {m.n_steps} · updates (mistakes): classic 3 (3) · margin 13 (5)")
    view.timeline.act("reset")
    view.timeline.act("next_update")
    assert m.step == int(m.racing.update_steps()[0])
    _tick(view, "margin", "pocket", on=False)
    assert m.racing is None and m.race == []
    assert [p["name"] for p in page.scene["panels"]][:2] == ["plane", "weights"]
    assert view.timeline.n_steps == m.trajectory.n_steps


def test_the_tabs_own_rule_cannot_be_ticked_and_four_is_the_most(view):
    m = view.model
    assert view.w_race.boxes["classic"].disabled
    _tick(view, "margin", "pocket", "averaged")
    assert len(m.racing.rules) == 4
    view.w_race.boxes["relaxation"].value = True  # a fifth rule: refused, the boxes put back
    assert m.race == ["margin", "pocket", "averaged"] and m.refusal is not None
    assert "race against must have at most 3 names; got 4" in view.messages.refused
    assert not view.w_race.boxes["relaxation"].value
    view.w_rule.value = "margin"  # the tab's rule among those ticked: three rules race
    assert m.racing.rules == ("margin", "pocket", "averaged")
    assert view.w_race.boxes["margin"].disabled and not view.w_race.boxes["classic"].disabled


def test_a_race_is_in_the_link_and_opens_from_it():
    d = dashboard(query="tab=perceptron&race=svm_sgd,relaxation&step=4")
    v = d.tabs.children[0]
    assert v.model.racing.rules == ("classic", "svm_sgd", "relaxation")
    assert v.model.step == 4
    assert "&race=svm_sgd,relaxation&" in SPEC.to_query(v.save_state())
    values, problems = SPEC.from_query("tab=perceptron&race=svm_sgd,hebb")
    assert problems and "race against" in problems[0] and "'hebb' is not one of them" in \
        problems[0]


def test_you_choose_and_a_race_exclude_each_other_in_words(view):
    m = view.model
    _tick(view, "margin")
    view.w_edit.value = "choose"
    assert m.refusal is not None and not m.choose_mode and m.racing is not None
    assert "clear 'race against' or leave 'you choose'" in view.messages.refused


def test_clicks_in_the_first_plane_edit_the_data_every_rule_races_on(view):
    m = view.model
    _tick(view, "margin")
    view.w_edit.value = "add+"
    view._on_pointer(Pointer("plane", 0.0, 1.8, "add+"))
    assert len(m.X) == 7 and m.edited
    assert all(len(t.params) and t.picked.max() < 7 for t in m.racing.runs)
    np.testing.assert_array_equal(m.racing.X, m.X)
    assert view.timeline.status(0).endswith("7 points (edited)")


def test_a_race_exports_as_one_animation_and_one_still(view):
    _tick(view, "margin")
    view.timeline.go(3)
    png = view._still("png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    gif = view._animate("gif", None, None)
    assert gif[:6] == b"GIF89a"
    frames = Image.open(io.BytesIO(gif)).n_frames
    assert frames == view.model.n_steps + 1  # every step of the longest run
    assert "classic-vs-margin" in view._export_name("gif")


def test_a_race_goes_on_with_your_own_data(view):
    """Points read from a CSV (the Data panel) keep the race: every rule runs on them."""
    rng = np.random.default_rng(7)
    X = rng.uniform(-2, 2, size=(15, 2))
    y = np.where(X[:, 0] - X[:, 1] > 0.2, 1.0, -1.0)
    _tick(view, "relaxation", "averaged")
    assert view._use_data(X, y)
    m = view.model
    assert m.racing.rules == ("classic", "relaxation", "averaged") and m.edited
    np.testing.assert_array_equal(m.racing.X, X)
    assert all(t.picked.max() < 15 for t in m.racing.runs)
    assert view.timeline.status(0).endswith("15 points (edited)")


def test_the_example_lectures_race_counts_updates_and_mistakes_apart():
    """Issue 30, item 3: slide 3 of the example lecture, step 7, said "Margin perceptron:
    y·f(x) = 0.8 < 1, updates (mistake 4)" of a point classified right. The narration, each
    plane's line, the timeline's status and the export's caption now say updates and count
    mistakes (y·f(x) <= 0) apart."""
    import json
    from pathlib import Path

    import explorer.app

    course = Path(explorer.app.__file__).parent / "playlists" / "course.json"
    slide = json.loads(course.read_text())["playlist"][2]
    assert slide["state"]["race"] == ["margin"]
    view = PerceptronView()
    assert view.load_state(SPEC.validate(slide["state"]))
    view.timeline.go(7)
    text = view.messages.text
    assert "Margin perceptron: y·f(x) = 0.8 < 1, updates (update 4); not a mistake, as " \
           "y·f(x) > 0." in text, text
    assert "mistake 4" not in text
    rf = view.figure
    assert [rf.status_line(i, 7) for i in range(2)] == ["3 updates · 3 mistakes",
                                                       "4 updates · 3 mistakes"]
    assert [s.get_text() for s in rf.status] == ["3 updates · 3 mistakes",
                                                 "4 updates · 3 mistakes"]
    assert view.timeline.status(7).startswith("step 7 of 48 · updates (mistakes): classic 3 (3) "
                                              "· margin 4 (3)")
    frames = view._export_frames()
    alt = frames.render(48)
    assert "13 updates · 5 mistakes · converged" in [s.get_text() for s in frames.figure.status]
    assert "with 3 updates and 3 mistakes" in alt and "(mistake" not in alt


def test_a_race_says_the_verdict_on_its_data_once_the_solvers_have_loaded():
    """Issue 30, item 4: the race's last step says what more epochs would do with the data's
    separability verdict (the first rule's description), once it is known; before, a sentence
    true either way."""
    from explorer.app.perceptron.model import PerceptronModel
    from explorer.perceptron.replay import pending_run

    view = PerceptronView(model=PerceptronModel(dataset="koski", race=["relaxation"]))
    m = view.model
    m.info = pending_run(m.trajectory, m.X, m.y)  # as while the solvers load
    view._race_figure.info = m.info
    view.timeline.act("end")
    before = view.messages.text
    assert "Relaxation (Agmon–Motzkin): Stopped at max epochs (50) without converging: 129 " \
           "updates so far. The sources give no mistake bound for Relaxation (Agmon–Motzkin), " \
           "so nothing guarantees that more epochs would make it stop." in before, before
    view._described()
    after = view.messages.text
    assert "The data are linearly separable, but the sources give no mistake bound for " \
           "Relaxation (Agmon–Motzkin), so nothing guarantees" in after, after
    assert "would converge" not in after and m.step == m.n_steps
