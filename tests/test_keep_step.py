"""The same run drawn again (a new size, a new pixel ratio, the bound computed after the page
opened) keeps the step the page shows: the kernel's step may be one the page has already left
(it hears the page's step only once it settles), and a redraw at the kernel's step sent the page
back (a browser test stepped to 6 and found the page at 5 again: forked kernels describe the
run just when a visitor starts stepping). A new run still opens at the kernel's step."""

from __future__ import annotations

from explorer.app.perceptron.model import PerceptronModel
from explorer.app.perceptron.view import PerceptronView


def _scenes(view):
    sent = []
    page = view.paged.page
    show = page.show_scene

    def record(scene, **kw):
        sent.append(kw.get("keep_step", False))
        return show(scene, **kw)

    page.show_scene = record
    return sent


def test_the_bound_computed_later_redraws_the_run_at_the_pages_step(monkeypatch):
    view = PerceptronView(model=PerceptronModel(describe_later=True))
    sent = _scenes(view)
    # in a kernel the run is described when the solvers have loaded (here, at once)
    monkeypatch.setattr(view.model, "describe", lambda: True)
    view._described()
    assert sent == [True] and view.paged.page.scene["keep"] is True


def test_a_new_size_keeps_the_step_and_a_new_run_does_not():
    view = PerceptronView()
    sent = _scenes(view)
    fit = view.fitted
    view.paged.resize(type(fit)(**{**fit.__dict__, "width": fit.width + 40}))
    view.paged.page.ratio = 2.0
    assert sent == [True, True]
    assert view.load_state({**view.save_state(), "eta": 0.5})  # a new run: the kernel's step
    assert sent[-1] is False and view.paged.page.scene["keep"] is False


def test_a_held_redraw_keeps_the_pages_step_unless_a_new_run_was_held_with_it():
    """Shows held while a tab is made (explorer.app.pagerun.HeldShows) are drawn on release:
    the same run drawn again still keeps the page's step, a new run among them does not."""
    from explorer.app.pagerun import HeldShows

    view = PerceptronView()
    sent = _scenes(view)
    with HeldShows() as hold:
        view.paged.show(keep=True)  # e.g. a new size while the tab was being made
    hold.release()
    assert sent == [True]
    with HeldShows() as hold:
        view.paged.show()  # a new run
        view.paged.show(keep=True)
    hold.release()
    assert sent == [True, False]
