"""The kernel's side of the page-drawn figure's transport (explorer.app.timeline.Transport).

The page has the buttons, slider, Play and keys; the kernel keeps a Transport with no widgets,
which must move exactly as the widget Timeline does (the other tabs'), and a settled step
must cost no message to the page (it cost four: the hidden timeline's slider and status, the
narration, and ipywidgets' echo of the step).
"""

from __future__ import annotations

import ipywidgets
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.app.timeline import KEY_ACTIONS, Timeline, Transport

ACTIONS = ["step", "back", "reset", "end", "next_update", "prev_update", "epoch_end",
           "cycle_start", "play"]


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 40), updates=st.sets(st.integers(1, 40), max_size=8),
       epoch=st.integers(0, 9), cycle=st.one_of(st.none(), st.integers(0, 45)),
       start=st.integers(-3, 45),
       moves=st.lists(st.one_of(st.sampled_from(ACTIONS), st.integers(-5, 50),
                                st.sampled_from(sorted(KEY_ACTIONS))), max_size=25))
def test_the_transport_moves_as_the_timeline_does(n, updates, epoch, cycle, start, moves):
    ups = sorted(u for u in updates if u <= n)
    a, b = Timeline(), Transport()
    for t in (a, b):
        t.set_run(n, updates=ups, epoch=epoch, start=start)
        t.set_cycle(cycle)
    assert a.step == b.step
    for move in moves:
        for t in (a, b):
            if isinstance(move, int):
                t.go(move)
            elif move in KEY_ACTIONS:
                t.handle_key(move)
            else:
                t.act(move)
        assert (a.step, a.play.playing) == (b.step, b.play.playing), move


def test_a_settled_step_sends_nothing_to_the_page(monkeypatch):
    from explorer.app.perceptron.model import PerceptronModel
    from explorer.app.perceptron.view import PerceptronView

    view = PerceptronView(PerceptronModel(dataset="separable", n=200))
    sent = []
    real = ipywidgets.Widget._send
    monkeypatch.setattr(ipywidgets.Widget, "_send",
                        lambda self, msg, buffers=None: (sent.append((type(self).__name__, msg)),
                                                         real(self, msg, buffers))[1])
    page = view.paged.page
    for k in range(5, 15):
        # what ipywidgets does with the page's update: the trait changes under its lock
        page.set_state({"step": k})
        assert view.model.step == k and view.timeline.step == k
        assert view.messages.text.startswith(f"Step {k},")
    assert sent == []


def test_a_transport_refuses_unknown_actions():
    with pytest.raises(ValueError, match="unknown timeline action 'fly'"):
        Transport().act("fly")
