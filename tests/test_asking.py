"""Predict, then reveal, alone, in the dashboard without a browser (explorer.app.asking, issue 33
item 1): ask with the button or the page's key, answer, change the answer, reveal (the step is
taken, the verdict right or wrong), and what a question is not: an edit, a part of the link, or
a reason for a traceback when the page sends something stale or malformed."""

from __future__ import annotations

import pytest

from explorer.app.dashboard import Dashboard


@pytest.fixture(scope="module")
def dash():
    return Dashboard(query="")


def page_says(view, **content):
    """A message from the tab's page figure, as the page sends it."""
    view.paged.page._on_msg(view.paged.page, content, [])


def question(view) -> dict:
    return view.paged.page.question


def tab(dash, key):
    dash.tabs.selected_index = dash.tab_keys.index(key)
    return dash.active


def test_ask_answer_change_and_reveal_takes_the_step_and_says_right(dash):
    view = tab(dash, "perceptron")
    view.load_state(view.spec.defaults())
    link, undo = dash.share.value, dash.history.histories["perceptron"].current
    assert dash.asking.ask()
    q = question(view)
    assert q["phase"] == "open" and q["name"] == "next_update" and q["truth"] is None
    assert "Step 1 visits point 5" in q["detail"] and view.model.step == 0
    page_says(view, type="answer", id=q["id"], choice="no")
    page_says(view, type="answer", id=q["id"], choice="yes")  # changed before the reveal
    assert question(view)["answer"] == "yes" and question(view)["tally"] == {"yes": 1, "no": 0}
    page_says(view, type="reveal", id=q["id"])
    q = question(view)
    assert view.model.step == 1 and q["phase"] == "revealed"
    assert (q["truth"], q["verdict"]) == ("yes", "right") and q["explain"].startswith("Yes:")
    # no edit: the link says step 1 as any step does, and undo has nothing new to undo
    assert "step=1" in dash.share.value and "step=1" not in link
    assert "question" not in dash.share.value and "answer" not in dash.share.value
    assert dash.history.histories["perceptron"].current.edits == undo.edits


def test_a_wrong_answer_is_told_wrong_with_the_truth(dash):
    view = tab(dash, "perceptron")
    view.model.go(3)
    dash.asking.ask()
    q = question(view)
    page_says(view, type="answer", id=q["id"], choice="yes")
    page_says(view, type="reveal", id=q["id"])
    q = question(view)
    assert view.model.step == 4 and (q["truth"], q["verdict"]) == ("no", "wrong")
    page_says(view, type="close", id=q["id"])
    assert question(view) == {}


def test_stale_unknown_and_malformed_messages_are_ignored(dash):
    view = tab(dash, "perceptron")
    view.model.go(0)
    dash.asking.ask()
    q = question(view)
    for content in ({"type": "answer", "id": q["id"], "choice": "maybe"},
                    {"type": "answer", "id": q["id"] - 1, "choice": "no"},
                    {"type": "reveal", "id": q["id"] + 5}, {"type": "answer", "id": "x"},
                    {"type": "answer"}, {"type": "ask", "step": "two"}, {"type": "close"}):
        page_says(view, **content)
    assert question(view) == q and view.model.step == 0
    page_says(view, type="reveal", id=q["id"])
    page_says(view, type="answer", id=q["id"], choice="no")  # after the reveal: not taken
    page_says(view, type="reveal", id=q["id"])  # twice: the step is taken once
    assert question(view)["answer"] is None and view.model.step == 1
    assert question(view)["verdict"] == ""  # revealed with no answer: the truth, no verdict
    assert not view.messages.refused


def test_the_pages_key_asks_at_the_step_it_shows_and_again_asks_the_next_question(dash):
    view = tab(dash, "perceptron")
    view.model.go(0)
    page_says(view, type="ask", step=2)  # q while the page shows step 2
    assert view.model.step == 2 and "Step 3 visits" in question(view)["detail"]
    page_says(view, type="ask", step=2, again=True)  # q again, unanswered
    q = question(view)
    assert q["name"] == "converge" and q["words"] == "Will this rule converge?"
    page_says(view, type="answer", id=q["id"], choice="yes")
    page_says(view, type="reveal", id=q["id"])
    assert view.model.step == view.model.trajectory.n_steps
    assert question(view)["verdict"] == "right"
    page_says(view, type="ask", step=view.model.step)  # at the run's end nothing fits:
    assert question(view)["phase"] == "revealed"  # the answer shown stays, and the tab says why
    assert "No question asked: the run's last step is shown" in view.messages.refused


def test_the_question_goes_when_the_tab_shows_something_else(dash):
    view = tab(dash, "perceptron")
    view.load_state(view.spec.defaults())
    dash.asking.ask()
    view.model.go(2)  # another step (a link, undo): the question was about step 0
    assert question(view) == {} and dash.asking.state is None
    dash.asking.ask()
    assert view.model.update(eta="0.5")  # a new run
    assert question(view) == {}


def test_the_button_while_playing_asks_the_page_for_its_step(dash, monkeypatch):
    view = tab(dash, "perceptron")
    page = view.paged.page
    sent = []
    monkeypatch.setattr(page, "send", lambda content, buffers=None: sent.append(content))
    page.playing = True
    assert not dash.asking.ask() and sent == [{"type": "ask"}] and question(view) == {}
    page_says(view, type="ask", step=1)  # the page stopped at step 1 and asks there
    assert not page.playing and question(view)["phase"] == "open" and view.model.step == 1
    dash.asking.close()


def test_cover_asks_about_the_labelling_chosen_and_veils_the_tiles(dash):
    view = tab(dash, "cover")
    m = view.model
    assert m.update(view="dichotomies")
    step = m.step
    for j in (5, 6):
        view.w_dich.value = j
        assert dash.asking.ask()
        q = question(view)
        assert q["hide"] == ["tiles"] and len(q["sketch"]["points"]) == len(m.X)
        assert f"dichotomy #{j}" in q["detail"] and q["truth"] is None
        page_says(view, type="answer", id=q["id"], choice="yes")
        page_says(view, type="reveal", id=q["id"])
        q = question(view)
        truth = "yes" if m.dich.separable[j] else "no"
        assert q["truth"] == truth and q["hide"] == [] and m.step == step
        assert ("line" in q["sketch"]) == (truth == "yes")
    view.w_dich.value = 0  # another tile: the question goes (all one label: none to ask)
    assert question(view) == {}
    assert not dash.asking.ask() and "same label" in view.messages.refused
    assert m.update(view="curves")
    assert not dash.asking.ask() and "Dichotomies or the Boolean view" in view.messages.refused


def test_a_tab_without_questions_says_so(dash):
    view = tab(dash, "margins")
    assert not dash.asking.ask()
    assert "questions are asked in the Perceptron and Cover tabs" in view.messages.refused


def test_a_rooms_tally_joins_the_card_beside_the_truth_and_stale_or_malformed_ones_do_not(dash):
    """In a lecture's room the presenter's page passes the hall server's counts on (issue 33,
    item 1, the room): the card counts them with the presenter's own answer, and keeps them
    at the reveal; a tally for another question, or malformed, changes nothing."""
    view = tab(dash, "perceptron")
    view.load_state(view.spec.defaults())
    dash.asking.ask()
    q = question(view)
    page_says(view, type="tally", id=q["id"], tally={"yes": 2, "no": 1})
    assert question(view)["tally"] == {"yes": 2, "no": 1} and question(view)["truth"] is None
    page_says(view, type="answer", id=q["id"], choice="no")  # the presenter's own, beside
    assert question(view)["tally"] == {"yes": 2, "no": 2}
    page_says(view, type="tally", id=q["id"], tally={"yes": 3, "no": 1, "maybe": 9})
    assert question(view)["tally"] == {"yes": 3, "no": 2}
    before = question(view)
    for content in ({"type": "tally", "id": q["id"] - 1, "tally": {"yes": 40}},
                    {"type": "tally", "id": q["id"], "tally": {"yes": -1}},
                    {"type": "tally", "id": q["id"], "tally": {"yes": 1.5}},
                    {"type": "tally", "id": q["id"], "tally": {"yes": True}},
                    {"type": "tally", "id": q["id"], "tally": [1, 2]},
                    {"type": "tally", "id": q["id"], "tally": {f"k{i}": 1 for i in range(17)}},
                    {"type": "tally", "id": q["id"]}):
        page_says(view, **content)
    assert question(view) == before
    page_says(view, type="reveal", id=q["id"])
    # the server's last count, of answers taken before it heard of the reveal, still comes
    page_says(view, type="tally", id=q["id"], tally={"yes": 4, "no": 1})
    q = question(view)
    assert q["phase"] == "revealed" and q["truth"] == "yes" and q["tally"] == {"yes": 4, "no": 2}
    page_says(view, type="close", id=q["id"])
