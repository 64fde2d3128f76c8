""""Where will the boundary move?" (issue 33, item 1; explorer.app.point_question): a question
answered by a place on the data plane. Its truth against the perceptron's update worked out by
hand (w + eta y x), where it fits (an update step, two features), the state and messages of a
place (validated, rounded, changeable until the reveal, judged swept or not), and the flow in
the dashboard: ask, click, reveal takes the step; a room's places join the tally and the dots."""

from __future__ import annotations

import numpy as np
import pytest
from test_asking import page_says, question, tab

from explorer.app.dashboard import Dashboard
from explorer.app.point_question import swept_share
from explorer.app.question_state import QuestionState, read_message
from explorer.app.questions import QUESTIONS, RunShown, first_fitting
from explorer.perceptron import train
from explorer.plots.plane import data_box
from explorer.shared import datasets
from explorer.shared.plane_point import MAX_DOTS, read_point, swept

KOSKI = dict(eta=0.2, w0=[1.0, 0.5], order=[4, 2, 0, 1, 3, 5], max_epochs=50)
Q = QUESTIONS["boundary"]


def koski():
    ds = datasets.load("koski")
    X, y = np.asarray(ds.X, float), np.asarray(ds.y, float)
    return train(X, y, **KOSKI), X, y


def by_hand(X, y, k_points):
    """The classic rule's first updates by hand: the line (w1, w2, b) after each visited point
    that is a mistake."""
    w, b, lines = np.array(KOSKI["w0"]), 0.0, [np.r_[KOSKI["w0"], 0.0]]
    for i in k_points:
        if y[i] * (X[i] @ w + b) <= 0:
            w, b = w + KOSKI["eta"] * y[i] * X[i], b + KOSKI["eta"] * y[i]
        lines.append(np.r_[w, b])
    return lines


def test_the_truth_is_the_next_line_of_the_update_and_a_place_is_right_when_swept_over():
    t, X, y = koski()
    lines = by_hand(X, y, KOSKI["order"][:3])
    box = data_box(X)
    for k in range(3):  # the first three steps update (Koski's example)
        posed = Q.pose(RunShown(t, X, y, k, box=box))
        assert posed is not None and posed.reveal_step == k + 1 and posed.truth == "swept"
        np.testing.assert_allclose(posed.point["before"], lines[k], atol=1e-12)
        np.testing.assert_allclose(posed.point["after"], lines[k + 1], atol=1e-12)
        assert posed.point["box"] == list(box) and posed.point["panel"] == "plane"
        assert f"Step {k + 1} visits point {KOSKI['order'][k] + 1} " in posed.detail
        assert "% of the plane changed sides" in posed.explain
    before, after = lines[0], lines[1]
    for p in [(-1.0, 0.2), (0.5, -1.5), (1.5, 1.5), (-0.2, 0.1)]:
        f0, f1 = before @ np.r_[p, 1], after @ np.r_[p, 1]
        assert swept(before, after, p) == ((f0 > 0) != (f1 > 0))


def test_it_fits_only_before_an_update_with_a_boundary_on_two_features():
    t, X, y = koski()
    box = data_box(X)
    assert "makes no update" in Q.why_not(RunShown(t, X, y, 3, box=box))
    assert "last step" in Q.why_not(RunShown(t, X, y, t.n_steps, box=box))
    assert "not drawn" in Q.why_not(RunShown(t, X, y, 0, box=None))
    t0 = train(X, y, eta=0.2, order=KOSKI["order"], max_epochs=50)  # w starts at 0
    assert "no boundary yet" in Q.why_not(RunShown(t0, X, y, 0, box=box))
    X3 = np.c_[X, np.ones(len(X))]
    t3 = train(X3, y, eta=0.2, order=KOSKI["order"], max_epochs=50)
    assert "two features" in Q.why_not(RunShown(t3, X3, y, 1, box=box))
    # the other run questions come first: q asks "Will the next point …" then this
    assert first_fitting("perceptron", RunShown(t, X, y, 0, box=box))[0].name == "next_update"


def test_the_swept_share_is_the_area_between_two_lines():
    box = (-1.0, 1.0, -1.0, 1.0)
    assert swept_share((1, 0, 0), (1, 0, -0.5), box) == pytest.approx(0.25, abs=0.02)
    assert swept_share((1, 0, 0), (-1, 0, 0), box) == 1.0  # every place changes sides
    assert swept_share((1, 0, 0), (2, 0, 0), box) == 0.0


def test_a_place_is_validated_and_rounded():
    box = (-2.0, 2.0, -1.0, 3.0)
    assert read_point([0.123456789, 2.0], box) == (0.1235, 2.0)  # 4 decimals: 4/10000 resolved
    for bad in ([0, 3.5], [-2.1, 0], [float("nan"), 0], [float("inf"), 0], [1], [1, 2, 3],
                "1,2", None, [True, 0], ["1", "2"], {"x": 1}):
        assert read_point(bad, box) is None, bad
    assert read_point([1, 1], None) is None


def posed_state(k=0):
    t, X, y = koski()
    return QuestionState(7, Q, Q.pose(RunShown(t, X, y, k, box=data_box(X))))


def test_the_state_of_a_place_no_truth_before_the_reveal_then_the_verdict_and_dots():
    s = posed_state()
    before, after = s.posed.point["before"], s.posed.point["after"]
    j = s.page_json()
    assert j["kind"] == "point" and "after" not in j["point"] and j["truth"] is None
    assert j["answer"] is None and j["count"] == 0 and j["dots"] == []
    hit, miss = (0.1, 0.0), (1.5, 1.5)
    assert swept(before, after, hit) and not swept(before, after, miss)
    assert s.answered([9.0, 9.0]) is None and s.answered("yes") is None  # outside, not a place
    s = s.answered(list(miss)).answered(list(hit))  # changed: the latest kept
    assert s.page_json()["answer"] == list(hit) and s.page_json()["count"] == 1
    s = s.counted({"answers": 3}, [list(hit), list(miss), [50.0, 0.0]])  # one outside: left out
    assert s.page_json()["count"] == 4 and s.page_json()["dots"] == []  # no dots before
    r = s.revealing()
    j = r.page_json()
    assert j["verdict"] == "right" and j["point"]["after"] == after and j["truth"] == "swept"
    assert j["tally"] == {"swept": 2, "kept": 1}  # the room's two dots and the page's own
    assert j["dots"] == [[*hit, 1], [*miss, 0]]
    assert r.answered(list(miss)) is None  # after the reveal: not taken
    assert posed_state().answered(list(miss)).revealing().page_json()["verdict"] == "wrong"


def test_the_pages_messages_for_a_place():
    assert read_message({"type": "answer", "id": 2, "point": [0.5, -1]}) == {
        "type": "answer", "id": 2, "choice": [0.5, -1.0]}
    for bad in ([0.5], [0.5, "1"], [float("nan"), 0], [True, 1], "0.5,1", None):
        assert read_message({"type": "answer", "id": 2, "point": bad}) is None
    ok = read_message({"type": "tally", "id": 2, "tally": {"answers": 2}, "points": [[0, 1]]})
    assert ok["points"] == [[0, 1]]
    for bad in ([[0, 1]] * (MAX_DOTS + 1), [[0]], [[0, float("inf")]], "x"):
        assert read_message({"type": "tally", "id": 2, "tally": {"answers": 1},
                             "points": bad}) is None


@pytest.fixture(scope="module")
def dash():
    return Dashboard(query="")


def test_alone_ask_click_on_the_plane_and_reveal_takes_the_step(dash):
    view = tab(dash, "perceptron")
    view.load_state(view.spec.defaults())
    view.model.go(0)
    page_says(view, type="ask", step=0)
    q = question(view)
    assert q["name"] == "next_update"
    page_says(view, type="ask", step=0, again=True)
    page_says(view, type="ask", step=0, again=True)  # q again, twice: the place question
    q = question(view)
    assert q["name"] == "boundary" and q["kind"] == "point" and q["choices"]
    assert q["point"]["box"] == list(view.figure.plane.box)
    page_says(view, type="answer", id=q["id"], point=[99.0, 0.0])  # outside the plane
    page_says(view, type="answer", id=q["id"], choice="swept")  # not a place
    assert question(view)["answer"] is None
    page_says(view, type="answer", id=q["id"], point=[0.1, 0.0])
    assert question(view)["answer"] == [0.1, 0.0] and view.model.step == 0
    page_says(view, type="reveal", id=q["id"])
    q = question(view)
    assert view.model.step == 1 and q["phase"] == "revealed" and q["verdict"] == "right"
    w, b = view.model.trajectory.state(1)
    assert q["point"]["after"] == pytest.approx([*w, b])
    page_says(view, type="close", id=q["id"])
    assert not view.messages.refused


def test_the_place_question_refuses_where_no_update_follows(dash):
    view = tab(dash, "perceptron")
    view.load_state(view.spec.defaults())
    view.model.go(3)
    dash.asking.close()
    question_, why = dash.asking._choose("perceptron", __import__(
        "explorer.app.asking", fromlist=["x"]).perceptron_shown(view), after="converge")
    assert question_.name == "next_update"  # going round: the place question does not fit
    assert "makes no update" in QUESTIONS["boundary"].why_not(
        __import__("explorer.app.asking", fromlist=["x"]).perceptron_shown(view))
