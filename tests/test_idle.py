"""An untouched page costs its kernel nothing (issue 19, item 1).

In a kernel, IPython runs matplotlib's post-execute hook after every message from the page; it
redraws each figure pyplot knows that was left stale. A figure left stale by its own drawing (a
moving legend drawn over the cached background marks the figure stale) was redrawn, its image
answered by the page with a message, which redrew it again: with the Pocket or the Averaged rule,
or on the Cover tab, an idle page kept its kernel busy for ever. Here the hook is run as a kernel
would run it after each message, and no tab may ask its page for a new image.
"""

import matplotlib
import matplotlib.pyplot as plt  # noqa: E402
import pytest

from explorer.app.dashboard import TABS, _load  # noqa: E402
from explorer.perceptron import RULES  # noqa: E402


def _redraws_after_messages(view, messages: int = 3) -> int:
    """How many times the view's canvas asks the page for a new image when the kernel has
    handled ``messages`` messages and drawn nothing on purpose."""
    canvas = view.figure.fig.canvas
    asked = []
    original = canvas.draw_idle
    canvas.draw_idle = lambda *a, **k: asked.append(1)
    was = matplotlib.is_interactive()
    matplotlib.interactive(True)  # as in a kernel with the widget backend
    try:
        for _ in range(messages):
            plt._draw_all_if_interactive()  # IPython's post_execute hook of matplotlib
    finally:
        matplotlib.interactive(was)
        canvas.draw_idle = original
    return len(asked)


def _settle(view) -> None:
    """Draw the step shown the way the page's first request does (a whole frame), then a step."""
    view.figure.fig.canvas.draw()
    if view.timeline.n_steps:
        view.timeline.go(1)


@pytest.mark.parametrize("rule", list(RULES))
def test_an_idle_perceptron_page_asks_for_no_image(rule):
    from explorer.app import PerceptronView

    view = PerceptronView()
    view.model.update(rule=rule)
    _settle(view)
    assert _redraws_after_messages(view) == 0


@pytest.mark.parametrize("key,target", [(k, t) for k, _, t in TABS])
def test_an_idle_tab_asks_for_no_image(key, target):
    view = _load(target)()
    _settle(view)
    assert _redraws_after_messages(view) == 0
