"""One typed hand-off of points between tabs (explorer.app.handoff): how a tab opens points is
declared once, every sender sends the same value, and the dashboard opens it in the target."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.app.dashboard import Dashboard
from explorer.app.handoff import OPENING, Handoff
from explorer.app.margins.model import SPEC as MARGINS_SPEC
from explorer.app.perceptron.model import SPEC as PERCEPTRON_SPEC

SPECS = {"perceptron": PERCEPTRON_SPEC, "margins": MARGINS_SPEC}
X = np.array([[0.0, 0.0], [1.0, 0.5], [-1.0, 2.0]])
Y = np.array([-1, 1, 1])


@pytest.mark.parametrize("tab", sorted(OPENING))
def test_what_a_tab_opens_is_a_valid_state_of_that_tab(tab):
    state = Handoff(tab=tab, X=X, y=Y).state()
    values = SPECS[tab].validate(SPECS[tab].defaults() | state)
    assert [tuple(p) for p in values["points"]] == [(0.0, 0.0, -1), (1.0, 0.5, 1), (-1.0, 2.0, 1)]


def test_settings_override_the_opening_and_the_arrays_are_frozen():
    h = Handoff(tab="perceptron", X=X, y=Y, settings={"eta": 0.5, "rule": "pocket"})
    assert h.state()["eta"] == 0.5 and h.state()["rule"] == "pocket"
    assert h.state()["order"] == "cyclic"
    with pytest.raises(ValueError, match="read-only"):
        h.X[0, 0] = 3.0


@pytest.mark.parametrize("kwargs,words", [
    ({"tab": "cover", "X": X, "y": Y}, "tab must be one of ['margins', 'perceptron']; got 'cover'"),
    ({"tab": "margins", "X": X[:, :1], "y": Y}, "expected X of shape (n, M), M >= 2"),
    ({"tab": "margins", "X": X, "y": Y[:2]},
     "expected X of shape (n, M), M >= 2, and y of shape (n,)"),
])
def test_a_bad_handoff_is_refused_in_words(kwargs, words):
    with pytest.raises(ValueError) as err:
        Handoff(**kwargs)
    assert words in str(err.value)


def test_every_sender_opens_its_points_in_the_target_tab():
    d = Dashboard(query="tab=margins&dataset=koski")
    margins = d.views["margins"]
    margins.b_send.click()  # Margins -> Perceptron
    p = d.views["perceptron"]
    np.testing.assert_array_equal(p.model.X, margins.model.X)
    assert p.model.eta == 1.0 and p.model.order == "cyclic"
    p.model.add_point(0.5, 0.5, 1)
    p.b_send.click()  # Perceptron -> Margins, with the point just added
    assert len(d.views["margins"].model.X) == len(margins.model.X) == 7
    d.tabs.selected_index = d.tab_keys.index("xor")
    xor_view = d.views["xor"]
    xor_view.b_send.click()  # XOR -> Perceptron, with the pocket rule
    assert p.model.rule == "pocket" and len(p.model.X) == 4
    assert d.active is p
