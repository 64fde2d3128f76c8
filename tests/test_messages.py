"""Refusals in every tab (issue 19, item 4): a refusal takes its own line in the page's flow
(never floating over the figure or a control), stays through redraws that are no action of the
user's (a resize), and goes at the next valid change, in every tab."""

import pytest

from explorer.app import Dashboard  # noqa: E402
from explorer.app.cover import CoverView  # noqa: E402
from explorer.app.generalization import GeneralizationView  # noqa: E402
from explorer.app.generalization import model as gen_model  # noqa: E402
from explorer.app.layout import CSS, FigureFit  # noqa: E402
from explorer.app.margins import MarginsView  # noqa: E402
from explorer.app.perceptron import PerceptronView  # noqa: E402
from explorer.app.xor import XorView  # noqa: E402


def _generalization():
    v = GeneralizationView(autorun=False)
    assert v.model.update(ns="4, 8", trials="20")
    return v


def _text(name, value):
    return lambda v: setattr(v.text[name], "value", value)


# tab: (make the view, a refused action, a valid one)
TABS = {
    "perceptron": (PerceptronView, _text("eta", "abc"), _text("eta", "0.5")),
    "margins": (MarginsView, _text("eta", "abc"),
                lambda v: setattr(v.w_c, "value", 10.0)),
    "cover": (CoverView, _text("trials", "abc"), _text("seed", "3")),
    "xor": (XorView, _text("eta", "abc"), _text("passes", "5")),
    "generalization": (_generalization, _text("trials", "abc"), _text("seed", "3")),
}


@pytest.fixture(params=sorted(TABS))
def tab(request):
    make, bad, good = TABS[request.param]
    return make(), bad, good


def test_a_refusal_takes_its_own_line_above_the_figure():
    """Before, the refusal sat in an absolutely positioned box over the figure's top (and, in
    the Generalization tab, over Run, Stop and the progress bar, taking their clicks)."""
    v = _generalization()
    area = v.messages
    assert area.refusal in area.children  # in the flow of the message area itself
    assert "pe-toasts" not in CSS
    floating = [rule for rule in CSS.split("}") if "position: absolute" in rule]
    assert not [r for r in floating if "pe-message" in r or "pe-refusal" in r], floating
    main = v.shell.main.children[0].children
    assert main.index(v.messages) < main.index(v.figure_box)


def test_a_valid_change_clears_the_refusal(tab):
    view, bad, good = tab
    bad(view)
    assert view.messages.refused.startswith("Not applied")
    assert view.messages.refusal.layout.display != "none"
    view.fit(FigureFit(900, 480, 1.0))  # a resize is no action of the user's: it stays
    assert view.messages.refused
    good(view)
    assert view.messages.refused == "" and view.messages.refusal.layout.display == "none"


def test_a_valid_change_clears_a_refusal_the_model_did_not_make(tab):
    """A refusal said by the page (a bad link, a bad file) goes at the next valid change too."""
    view, _bad, good = tab
    view.messages.refuse("The link's state was not used: something. Showing the defaults.")
    good(view)
    assert view.messages.refused == ""


def test_the_generalization_refusal_goes_when_the_simulation_runs_again():
    v = _generalization()
    m = v.model
    v.text["dim"].value = "abc"
    assert "dimension d" in v.messages.refused
    assert m.start_simulation()  # Run simulation: an action
    assert m.wait_simulation(60)
    assert v.messages.refused == ""


def test_the_already_running_refusal_goes_when_the_simulation_ends():
    v = _generalization()
    m = v.model
    posted = []
    assert m.start_simulation(posted.append)  # results wait in `posted`, as in a kernel
    assert not m.start_simulation(posted.append)
    assert v.messages.refused == gen_model.RUNNING.text and v.model.refusal == gen_model.RUNNING
    assert m.wait_simulation(60)
    for fn in posted:
        fn()
    assert not m.sim_running and v.messages.refused == ""


def test_the_dashboard_measures_again_when_a_refusal_comes_or_goes():
    d = Dashboard(query="?tab=generalization&ns=4,8&trials=20")
    view = d.active
    before = d.bridge.measure
    view.messages.refuse("Not applied: something.")
    assert d.bridge.measure > before
    before = d.bridge.measure
    view.messages.clear_refusal()
    assert d.bridge.measure > before
