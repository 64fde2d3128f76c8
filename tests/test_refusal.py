"""A refusal is a value (explorer.app.tab_model.Refusal): what was wrong and what was kept.
Views and the dashboard read its fields; nobody parses the sentence the page shows."""

from __future__ import annotations

from explorer.app.dashboard import Dashboard
from explorer.app.perceptron.model import PerceptronModel
from explorer.app.tab_model import Refusal, TabModel


def test_the_sentence_is_made_from_the_fields():
    assert Refusal("η must be a number > 0; got 'abc'", kept="settings").text == (
        "Not applied: η must be a number > 0; got 'abc'. Kept the previous settings.")
    assert Refusal("keep at least one point.").text == "Not applied: keep at least one point."


def test_a_model_refuses_with_a_value_and_a_note_replaces_it():
    m = PerceptronModel()
    assert not m.update(eta="abc")
    r = m.refusal
    assert r.kept == "settings" and r.why.startswith("η must be a number")
    assert m.message == r.text
    m.message = "a note about the run"  # something else is said: the refusal is over
    assert m.refusal is None
    said = []
    m.observe(lambda ch: said.append(ch["new"]), names="refusal")
    m.refuse(r)
    m.refuse(r)  # the same refusal twice is announced twice
    assert said == [r, None, r]


def test_the_dashboard_quotes_the_reason_of_a_refused_link():
    d = Dashboard(query="tab=perceptron&dataset=koski&batch=7")
    view = d.views["perceptron"]
    refused = view.messages.refused
    assert refused == ("The link's state was not used: batch size must be at most the number "
                       "of points, 6; got 7. Showing the defaults."), refused


def test_the_base_model_starts_with_nothing_refused():
    m = TabModel()
    assert m.refusal is None and m.message == ""
