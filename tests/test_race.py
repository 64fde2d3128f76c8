"""Rules racing in sync (issue 22, explorer.perceptron.race): the same point at the same step for every
rule, each run exactly what the rule does alone, and narration that names what differs."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.perceptron import train
from explorer.perceptron.race import Race, race, race_frame, race_text
from explorer.perceptron.replay import frame
from explorer.perceptron.rules import RULES
from explorer.shared import datasets

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
    assert r.updates(k) == (classic.n_updates, margin.n_updates)
    assert r.updates(0) == r.mistakes(0) == (0, 0)
    assert r.mistakes(k)[0] == classic.n_updates  # the classic rule updates on its mistakes
    assert r.mistakes(k)[1] < margin.n_updates  # the margin rule on correct points too
    assert set(r.update_steps()) == set(classic.update_steps) | set(margin.update_steps)
    text = race_text(r, k)
    assert f"Classic perceptron stopped at step {classic.n_steps} with " \
           f"{classic.n_updates} updates and {classic.n_updates} mistakes." in text
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
    assert "Margin perceptron: y·f(x) = 0.5 < 1, updates (update 1); not a mistake, as " \
           "y·f(x) > 0." in text
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


# ------------------------------------------------------------------ issue 30, item 3
def _oracle_mistakes(traj, X, y) -> np.ndarray:
    """Mistakes in steps 1..k for every k, from each step's frame: visited points whose
    ``y·f(x)`` under the weights before the step is at most 0 (whatever the rule did)."""
    per_step = [int(np.sum(frame(traj, X, y, k).margins <= 0)) for k in range(1, traj.n_steps + 1)]
    return np.concatenate([[0], np.cumsum(per_step)]).astype(int)


@settings(max_examples=20, deadline=None)
@given(rules=st.lists(st.sampled_from(sorted(RULES)), min_size=2, max_size=4, unique=True),
       order=st.sampled_from(["cyclic", "shuffle", "random"]), seed=st.integers(0, 1000),
       batch=st.integers(1, 3))
def test_a_race_counts_as_mistakes_only_points_with_y_f_at_most_0(rules, order, seed, batch):
    """Issue 30, item 3: a race counted every update as a mistake. A mistake is a visited
    point with y·f(x) <= 0; the margin perceptron, the SVM by SGD and relaxation also update
    on points classified right, and the counts say so at every step."""
    X, y = BLOBS.X, BLOBS.y
    r = race(X, y, rules=rules, order=order, seed=seed, max_epochs=3, rho=0.01, batch_size=batch)
    for i, t in enumerate(r.runs):
        want = _oracle_mistakes(t, X, y)
        for k in range(r.n_steps + 1):
            assert r.mistakes(k)[i] == want[min(k, t.n_steps)], (t.rule, k)
            assert r.updates(k)[i] == t.updates_until(min(k, t.n_steps))


def test_the_margin_rules_updates_on_koskis_points_are_mostly_not_mistakes():
    """Koski's example as the example lecture races it (slide 3): of the margin perceptron's
    13 updates only 5 meet a point with y·f(x) <= 0, and the narration says which is which."""
    r = race(KOSKI.X, KOSKI.y, rules=["classic", "margin"], eta=0.2, w0=[1.0, 0.5],
             order=[4, 2, 0, 1, 3, 5], max_epochs=50)
    classic, margin = r.runs
    assert (classic.n_updates, margin.n_updates) == (3, 13)
    assert r.mistakes(r.n_steps) == (3, 5) and r.updates(r.n_steps) == (3, 13)
    text = race_text(r, 7)
    assert "Margin perceptron: y·f(x) = 0.8 < 1, updates (update 4); not a mistake, as " \
           "y·f(x) > 0." in text, text
    assert "Classic perceptron: y·f(x) = 0.8 > 0, no update." in text
    assert "mistake 4" not in text
    assert "Classic perceptron: y·f(x) = −1 ≤ 0, a mistake: updates (update 1, mistake 1)." \
        in race_text(r, 1)
    assert "Classic perceptron stopped at step 12 with 3 updates and 3 mistakes." in \
        race_text(r, r.n_steps)


def test_mistakes_without_an_update_count_too():
    """A rule whose condition misses some mistakes (a threshold below 0, or ``< 0``) still
    counts them: a mistake is the point's, not the rule's."""
    from explorer.perceptron.replay.step import mistake_steps

    X, y = np.array([[1.0, 0.0], [-1.0, 0.5]]), np.array([1.0, -1.0])
    lax = train(X, y, rule="classic", threshold=-0.5, w0=[0.0, 0.0], max_epochs=2)
    assert lax.n_updates == 0 and lax.n_steps == 2  # y·f(x) = 0 > −0.5: no update
    np.testing.assert_array_equal(mistake_steps(lax, X, y), [1, 2])  # both on the boundary
    strict = train(X, y, rule="margin", threshold=0.0, w0=[0.0, 0.0], max_epochs=1)
    assert strict.n_updates == 0
    np.testing.assert_array_equal(mistake_steps(strict, X, y), [1, 2])
