"""Rules racing in sync (issue 22, explorer.race): the same point at the same step for every
rule, each run exactly what the rule does alone, and narration that names what differs."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import datasets
from explorer.perceptron import train
from explorer.race import Race, race, race_frame, race_text
from explorer.rules import RULES

KOSKI = datasets.load("koski")
BLOBS = datasets.load("overlapping", n=24, seed=5)


@settings(max_examples=25, deadline=None)
@given(rules=st.lists(st.sampled_from(sorted(RULES)), min_size=2, max_size=4, unique=True),
       order=st.sampled_from(["cyclic", "shuffle", "random", "sequence"]),
       seed=st.integers(0, 1000), batch=st.integers(1, 3))
def test_every_rule_visits_the_same_point_at_the_same_step_and_runs_as_alone(
        rules, order, seed, batch):
    X, y = BLOBS.X, BLOBS.y
    kw = dict(order=[3, 1, 4, 1, 5, 9, 2, 6] if order == "sequence" else order, seed=seed,
              max_epochs=4, rho=0.01, batch_size=batch)
    r = race(X, y, rules=rules, **kw)
    assert r.rules == tuple(rules)
    for rule, traj in zip(rules, r.runs, strict=True):
        alone = train(X, y, rule=rule, **kw)  # the oracle: the rule trained by itself
        np.testing.assert_array_equal(traj.picked, alone.picked)
        np.testing.assert_array_equal(traj.weights, alone.weights)
    shortest = min(t.n_steps for t in r.runs)
    for t in r.runs:  # one visiting order: equal picks wherever both still run
        np.testing.assert_array_equal(t.picked[:shortest], r.runs[0].picked[:shortest])
    assert r.n_steps == max(t.n_steps for t in r.runs)


def test_a_rule_that_stopped_holds_its_last_state_and_count():
    r = race(KOSKI.X, KOSKI.y, rules=["classic", "margin"], order="cyclic", max_epochs=50)
    classic, margin = r.runs
    assert classic.n_steps < margin.n_steps == r.n_steps  # margin wants y·f(x) >= 1 too
    k = r.n_steps
    f = race_frame(r, 0, k)
    w, b = classic.state(classic.n_steps)
    np.testing.assert_array_equal(f.w, w)
    assert f.b == b and f.picked == () and not f.updated and f.update_vector is None
    assert r.mistakes(k) == (classic.n_updates, margin.n_updates)
    assert r.mistakes(0) == (0, 0)
    assert set(r.update_steps()) == set(classic.update_steps) | set(margin.update_steps)
    text = race_text(r, k)
    assert f"Classic perceptron stopped at step {classic.n_steps} with " \
           f"{classic.n_updates} mistakes." in text
    assert "Margin perceptron: Converged" in text


def test_the_narration_says_which_rule_updates_and_why_the_other_does_not():
    """One point x = (1, 0), y = +1, from w = (0.5, 0), b = 0: y·f(x) = 0.5, over the classic
    threshold 0 (no update) and under the margin rule's 1 (an update)."""
    X, y = np.array([[1.0, 0.0]]), np.array([1.0])
    r = race(X, y, rules=["classic", "margin"], w0=[0.5, 0.0], max_epochs=3)
    assert r.runs[0].n_updates == 0 and r.runs[1].updated[0]
    text = race_text(r, 1)
    assert text.startswith("Step 1, point 1 (1, 0), label +1.")
    assert "Classic perceptron: y·f(x) = 0.5 > 0, no update." in text
    assert "Margin perceptron: y·f(x) = 0.5 < 1, updates (mistake 1)." in text
    assert "What differs: Margin perceptron updates; Classic perceptron does not." in text
    assert race_text(r, 0).startswith("Start: Classic perceptron and Margin perceptron begin "
                                      "at w = (0.5, 0), b = 0")


def test_rules_that_agree_at_a_step_are_said_to():
    r = race(KOSKI.X, KOSKI.y, rules=["classic", "pocket", "averaged"], order="cyclic")
    assert "All running rules agree here." in race_text(r, 1)


@pytest.mark.parametrize("rules,match", [
    (["classic"], "2 to 4 rules"),
    (["classic", "margin", "pocket", "averaged", "relaxation"], "2 to 4 rules"),
    (["classic", "classic"], "distinct"),
    (["classic", "hebb"], "unknown rule"),
    ("classic", "list of rule names"),
])
def test_a_race_refuses_what_is_not_two_to_four_rules(rules, match):
    with pytest.raises((ValueError, TypeError), match=match):
        race(KOSKI.X, KOSKI.y, rules=rules)


def test_a_race_sets_rule_and_threshold_itself_and_needs_a_plain_seed():
    with pytest.raises(TypeError, match="sets rule per rule"):
        race(KOSKI.X, KOSKI.y, rules=["classic", "margin"], rule="classic")
    with pytest.raises(TypeError, match="integer seed"):
        race(KOSKI.X, KOSKI.y, rules=["classic", "margin"], order="shuffle",
             seed=np.random.default_rng(0))
    assert isinstance(race(KOSKI.X, KOSKI.y, rules=["classic", "margin"]), Race)
