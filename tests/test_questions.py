"""The questions of "predict, then reveal" (explorer.app.questions, issue 33 item 1): each
question's truth against a reference computed apart (a plain perceptron loop, an LP), where
each fits, and the question's state the page gets (no truth before the reveal)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linprog

from explorer import cover
from explorer.app.question_state import QuestionState, read_message
from explorer.app.questions import QUESTIONS, LabellingShown, RunShown, first_fitting, questions_for
from explorer.cover.counting import dichotomies
from explorer.perceptron import train
from explorer.shared import datasets

KOSKI = dict(eta=0.2, w0=[1.0, 0.5], order=[4, 2, 0, 1, 3, 5], max_epochs=50)


def koski():
    ds = datasets.load("koski")
    return np.asarray(ds.X, float), np.asarray(ds.y, float)


def plain_perceptron(X, y, *, eta, w0, order, max_epochs):
    """The classic rule step by step in plain Python: each step's update flag, and whether a
    whole pass made no update before ``max_epochs`` passes."""
    w, b, flags = np.array(w0, float), 0.0, []
    for _ in range(max_epochs):
        quiet = True
        for i in order:
            if y[i] * (X[i] @ w + b) <= 0:
                w, b = w + eta * y[i] * X[i], b + eta * y[i]
                flags.append(True)
                quiet = False
            else:
                flags.append(False)
        if quiet:
            return flags, True
    return flags, False


def shown(traj, X, y, k, **kw):
    return RunShown(traj, X, y, k, **kw)


def test_next_update_is_the_plain_loops_update_at_every_step_of_koskis_example():
    X, y = koski()
    traj = train(X, y, **KOSKI)
    flags, converged = plain_perceptron(X, y, **KOSKI)
    assert traj.n_steps == len(flags) and converged
    q = QUESTIONS["next_update"]
    for k, updates in enumerate(flags):
        posed = q.pose(shown(traj, X, y, k))
        assert posed.truth == ("yes" if updates else "no"), k
        assert posed.reveal_step == k + 1
        point = KOSKI["order"][k % 6] + 1
        assert f"visits point {point} " in posed.detail
        assert posed.explain.startswith("Yes:" if updates else "No:")
    assert q.pose(shown(traj, X, y, traj.n_steps)) is None  # no next step at the end


def test_next_update_of_a_mini_batch_is_the_trajectorys_record_and_names_the_points():
    ds = datasets.load("separable", n=30, dim=2, seed=3, margin=0.1)
    X, y = np.asarray(ds.X), np.asarray(ds.y)
    traj = train(X, y, batch_size=4, order="shuffle", seed=1, max_epochs=20)
    q = QUESTIONS["next_update"]
    for k in range(traj.n_steps):
        posed = q.pose(shown(traj, X, y, k))
        assert posed.truth == ("yes" if traj.updated[k] else "no")
        members = [int(i) + 1 for i in np.atleast_1d(traj.picked[k]) if i >= 0]
        assert f"points {members[0]} " in posed.detail
    assert traj.updated.any() and not traj.updated.all()  # both answers were checked


@pytest.mark.parametrize("name, settings, truth, words", [
    ("koski", KOSKI, "yes", "the run stops at step"),
    ("xor", dict(max_epochs=30), "no", "no line separates these data"),
    ("koski", dict(KOSKI, max_epochs=1), "no", "more epochs would get there"),
    ("koski", dict(rule="relaxation", max_epochs=5), "no", "no mistake bound"),
])
def test_converge_says_whether_a_pass_without_update_ends_the_run(name, settings, truth, words):
    X, y = (koski() if name == "koski" else
            (np.asarray(datasets.load("xor").X, float), np.asarray(datasets.load("xor").y, float)))
    traj = train(X, y, **settings)
    separable = bool(linprog(np.zeros(3), A_ub=-(y[:, None] * np.c_[X, np.ones(len(X))]),
                             b_ub=-np.ones(len(X)), bounds=[(None, None)] * 3).status == 0)
    posed = QUESTIONS["converge"].pose(shown(traj, X, y, 0, separable=separable))
    if settings.get("rule", "classic") == "classic":  # the plain loop is the classic rule
        _, converged = plain_perceptron(X, y, eta=settings.get("eta", 1.0),
                                        w0=settings.get("w0", [0.0, 0.0]),
                                        order=settings.get("order", range(len(X))),
                                        max_epochs=settings["max_epochs"])
        assert converged == (truth == "yes")
    assert posed.truth == truth and traj.converged == (truth == "yes")
    assert words in posed.explain and posed.reveal_step == traj.n_steps


def test_the_run_questions_do_not_fit_a_race_you_choose_or_the_runs_end():
    X, y = koski()
    traj = train(X, y, **KOSKI)
    assert "racing" in first_fitting("perceptron", shown(traj, X, y, 0, racing=True))[1]
    assert "you choose" in first_fitting("perceptron", shown(traj, X, y, 0, chosen=True))[1]
    q, why = first_fitting("perceptron", shown(traj, X, y, traj.n_steps))
    assert q is None and "last step" in why
    assert first_fitting("perceptron", shown(traj, X, y, 2))[0].name == "next_update"
    assert [q.name for q in questions_for("perceptron")] == ["next_update", "converge", "boundary"]
    assert first_fitting("margins", None) == (None, "this tab has no questions yet")


def lp_separable(X, y) -> bool:
    """A line with y (w·x + b) >= 1 on every point exists (scipy's LP, apart from the tab's)."""
    A = -(y[:, None] * np.c_[X, np.ones(len(X))])
    return linprog(np.zeros(3), A_ub=A, b_ub=-np.ones(len(X)),
                   bounds=[(None, None)] * 3).status == 0


def test_separable_is_the_lps_verdict_on_every_dichotomy_of_five_points():
    X = cover.random_points(5, seed=4)
    d = dichotomies(X)
    q = QUESTIONS["separable"]
    seen = set()
    for j, y in enumerate(d.labelings):
        s = LabellingShown(X, y, bool(d.separable[j]), f"dichotomy #{j}", panels=("tiles",))
        if np.all(y == y[0]):
            assert q.pose(s) is None and "same label" in q.why_not(s)
            continue
        posed = q.pose(s)
        assert posed.truth == ("yes" if lp_separable(X, y) else "no"), j
        assert posed.hide == ("tiles",) and len(posed.sketch["points"]) == 5
        seen.add(posed.truth)
    assert seen == {"yes", "no"}


def test_xor_is_not_separable_and_and_is():
    V, d = cover.boolean_functions_2()
    q = QUESTIONS["separable"]
    for name, truth in (("XOR", "no"), ("AND", "yes")):
        j = cover.BOOLEAN_NAMES_2.index(name)
        posed = q.pose(LabellingShown(V, d.labelings[j], bool(d.separable[j]), name))
        assert posed.truth == truth == ("yes" if lp_separable(V, d.labelings[j]) else "no")
    assert "Dichotomies" in q.why_not(None)


def test_the_page_gets_no_truth_before_the_reveal_and_answers_change_the_tally():
    X, y = koski()
    traj = train(X, y, **KOSKI)
    q = QUESTIONS["next_update"]
    s = QuestionState(7, q, q.pose(shown(traj, X, y, 3)))
    page = s.page_json()
    assert page["truth"] is None and page["explain"] == "" and page["phase"] == "open"
    assert "Yes" not in str(page["detail"]) and page["tally"] == {"yes": 0, "no": 0}
    s = s.answered("yes").answered("no")
    assert s.answer == "no" and s.tally == {"yes": 0, "no": 1}
    assert s.answered("maybe") is None and s.answered(None) is None
    r = s.revealing()
    assert r.answered("yes") is None  # an answer after the reveal is not taken
    assert r.page_json()["truth"] == "no" and r.page_json()["verdict"] == "right"
    assert r.page_json()["explain"].startswith("No:")


@pytest.mark.parametrize("content", [
    None, "answer", {"type": "nope"}, {"type": "answer", "id": "1", "choice": "yes"},
    {"type": "answer", "id": 1}, {"type": "answer", "id": 1, "choice": "x" * 100},
    {"type": "reveal", "id": True}, {"type": "reveal", "id": 0}, {"type": "ask", "step": -1},
    {"type": "ask", "step": 1.5},
])
def test_malformed_messages_are_read_as_none(content):
    assert read_message(content) is None


def test_messages_are_read():
    assert read_message({"type": "ask", "step": 3}) == {"type": "ask", "step": 3, "again": False}
    assert read_message({"type": "ask", "again": True})["again"] is True
    assert read_message({"type": "answer", "id": 2, "choice": "no"})["choice"] == "no"
    assert read_message({"type": "close", "id": 2}) == {"type": "close", "id": 2}
