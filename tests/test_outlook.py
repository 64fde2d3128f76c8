"""What more epochs would do (issue 30, item 4): the race said "Separable data would converge
with more epochs" of relaxation, which does not stop on Koski's example, while the single-rule
view said the sources prove no bound for it. One declaration per rule
(:attr:`explorer.perceptron.rules.Rule.convergence`) now gives both views one sentence, checked here
against long runs: a sentence that says a longer run converges is true of the rule at hand."""

import re

import numpy as np
import pytest

from explorer.perceptron import train
from explorer.perceptron.bounds import mistake_bound
from explorer.perceptron.race import race, race_text
from explorer.perceptron.replay import describe_run, frame
from explorer.perceptron.rules import RULES
from explorer.shared import datasets

KOSKI = datasets.load("koski")
SEPARABLE = datasets.load("separable", n=40, seed=3, margin=0.05)
#: (data, settings): Koski's worked example as the tab starts it, and random separable data;
#: the decay and forgetting settings under which the rules without a proof do not stop.
CASES = {
    "koski": (KOSKI, dict(eta=0.2, w0=[1.0, 0.5], order=[4, 2, 0, 1, 3, 5], rho=0.01)),
    "koski-forget": (KOSKI, dict(eta=0.2, w0=[1.0, 0.5], order=[4, 2, 0, 1, 3, 5], forget=0.9)),
    "separable": (SEPARABLE, dict(rho=0.01)),
    "separable-shuffled": (SEPARABLE, dict(order="shuffle", seed=3, rho=0.001)),
}
LONG_EPOCHS = 2000


def _claims_convergence(sentence: str) -> bool:
    return "would converge" in sentence or "a longer run converges" in sentence


def _outlook(text: str, title: str, others=()) -> str:
    """The sentence(s) after "<title>: Stopped at max epochs ... so far." (or, for the single
    view, after "Stopped at max epochs ... so far."), up to the next rule's clause."""
    head = (re.escape(title) + ": " if title else "") + \
        r"Stopped at max epochs \(\d+\) without converging: [\d,]+ updates? so far\. "
    m = re.search(head, text)
    assert m, text
    rest = text[m.end():]
    for other in others:
        rest = rest.split(f" {other}: ")[0]
    return rest


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("rule", sorted(RULES))
def test_every_rules_outlook_is_one_sentence_in_both_views_and_true_of_a_long_run(rule, case):
    data, kw = CASES[case]
    X, y = data.X, data.y
    short = train(X, y, rule=rule, max_epochs=1, **kw)
    assert not short.converged and short.stop_reason == "max_epochs"
    info = describe_run(short, X, y)
    assert info.separable
    alone = _outlook(frame(short, X, y, short.n_steps, info=info).text, "")
    rival = "relaxation" if rule != "relaxation" else "classic"
    r = race(X, y, rules=[rule, rival], max_epochs=1, **kw)
    title, other = RULES[rule].title, RULES[rival].title
    assert r.runs[0].n_steps == r.n_steps  # both stopped by the limit, narrated at the end
    raced = _outlook(race_text(r, r.n_steps, info=info), title, [other])
    assert raced == alone  # one sentence, in the race as alone
    pending = _outlook(race_text(r, r.n_steps), title, [other])  # the verdict not known yet
    long = train(X, y, rule=rule, max_epochs=LONG_EPOCHS, **kw)
    for sentence in (alone, pending):
        if _claims_convergence(sentence):
            assert long.converged, (rule, case, sentence, long.n_updates)
        if not long.converged:
            assert "nothing guarantees that more epochs would make it stop" in sentence, \
                (rule, case, sentence)
    if RULES[rule].convergence and "forget" not in kw:  # a proof: the bound is quoted, and met
        assert "at most " in alone and long.converged
        assert long.n_updates <= np.floor(info.bound.value + 1e-9)


def test_relaxation_does_not_stop_on_koskis_example():
    """The numbers the rule's declaration and docs/mathematics.md quote."""
    kw = dict(rule="relaxation", eta=0.2, w0=[1.0, 0.5], order=[4, 2, 0, 1, 3, 5])
    counts = [train(KOSKI.X, KOSKI.y, max_epochs=e, **kw) for e in (500, 5000)]
    assert [(t.n_updates, t.converged) for t in counts] == [(1029, False), (10029, False)]
    assert RULES["relaxation"].convergence == ""
    from pathlib import Path

    import explorer.perceptron.rules

    docs = Path(__file__).parents[1] / "docs" / "mathematics.md"
    for text in (explorer.perceptron.rules.__doc__, docs.read_text()):
        assert "1,029 updates in 500 epochs and 10,029 in" in " ".join(text.split())


def test_the_rules_with_a_convergence_source_are_the_rules_with_a_bound():
    """One declaration: :func:`explorer.perceptron.bounds.mistake_bound` gives a bound (from 0, one point
    per step, forgetting rate 1) exactly to the rules that declare where it is proved."""
    for name, spec in RULES.items():
        b = mistake_bound(name, SEPARABLE.X, SEPARABLE.y)
        assert (b.value is not None) == bool(spec.convergence), name
        if b.value is None:
            assert b.note == f"the sources give no mistake bound for {spec.title}"
