"""The Generalization tab without a browser: its model, its view, the background simulation."""

import threading
import time

import numpy as np
import pytest

from explorer import generalization as G  # noqa: E402
from explorer.app import Dashboard  # noqa: E402
from explorer.app.generalization import SPEC, GeneralizationModel, GeneralizationView  # noqa: E402
from explorer.generalization import losses as L  # noqa: E402

SMALL = dict(ns="4, 8, 16", trials="20")


@pytest.fixture
def view():
    v = GeneralizationView(autorun=False)
    assert v.model.update(**SMALL)
    return v


def test_timeline_moves_the_loss_markers(view):
    m = view.model
    assert m.n_steps > 0 and view.timeline.n_steps == m.n_steps
    before = view.changed
    k = int(m.traj.update_steps[2])
    view.timeline.go(k)
    assert m.step == k and view.changed > before
    w, b = m.traj.state(k)
    z = m.y * (m.X @ w + b)
    pts = view.figure.losses.points["hinge"].get_offsets()
    inside = np.abs(z) <= view.figure.losses.half
    np.testing.assert_allclose(pts[inside, 1], L.hinge(z[inside]))
    assert f"Step {k} of {m.n_steps}" in view.messages.text


@pytest.mark.parametrize("name,text,words", [
    ("trials", "abc", "trials must be a whole number"),
    ("gamma", "0.01", "margin γ must be a number from 0.05"),
    ("ns", "10, 5", "increasing"),
    ("ns", "20000, 10000, 5000", "increasing"),
])
def test_bad_values_are_refused_and_kept(view, name, text, words):
    before = (view.model.traj, list(view.model.ns), view.model.trials)
    view.text[name].value = text
    assert words in view.messages.refused
    assert (view.model.traj, list(view.model.ns), view.model.trials) == before
    assert view.text[name].value == SPEC.field(name).format(getattr(view.model, name))


def test_too_much_work_is_refused_with_the_limit(view):
    view.text["trials"].value = "2000"
    view.text["ns"].value = "1000, 2000"
    assert "limit 1,500,000" in view.messages.refused
    assert view.model.ns == [4, 8, 16]


def test_simulation_runs_in_the_background_stops_and_continues():
    m = GeneralizationModel(ns=[4, 8, 16, 32], trials=40, seed=3)
    posted, lock = [], threading.Lock()

    def post(fn):  # as the kernel would: queue the work for the owner's thread
        with lock:
            posted.append(fn)

    assert m.start_simulation(post)
    assert m.sim_running and m.sim_busy
    assert not m.start_simulation(post) and "already running" in m.message
    time.sleep(0.15)
    m.stop_simulation()
    assert m.wait_simulation(20)
    for fn in list(posted):
        fn()
    assert not m.sim_running and "Stopped" in m.sim_note
    kept = 0 if m.curve is None else len(m.curve.ns)
    assert kept < 4
    assert m.start_simulation()  # continues with the missing sizes only
    assert m.wait_simulation(60)
    full = G.stability_curve(ns=(4, 8, 16, 32), trials=40, seed=3, dim=m.dim, gamma=m.gamma)
    np.testing.assert_array_equal(m.curve.ns, full.ns)
    np.testing.assert_array_equal(m.curve.margin_rate, full.margin_rate)
    np.testing.assert_array_equal(m.curve.stability_bound, full.stability_bound)
    assert "Done" in m.sim_note and m.sim_done == m.sim_total
    assert not m.start_simulation() and "Every size is done" in m.sim_note
    m.update(seed=4)
    assert m.curve is None


def test_view_draws_the_simulation_and_progress(view):
    m = view.model
    before = view.changed
    assert m.start_simulation()
    assert m.wait_simulation(60)
    assert view.progress.value == pytest.approx(1.0) and view.b_stop.disabled
    np.testing.assert_allclose(view.figure.stability.bound.get_data()[1], m.curve.stability_bound)
    assert view.changed > before
    assert "Hardt & Recht's bound" in view.messages.text
    assert "Done: 3 sizes × 20 trials" in view.sim_label.value


def test_real_data_and_the_classic_rule(view):
    view.w_dataset.value = "breast_cancer"
    view.w_rule.value = "classic"
    m = view.model
    assert m.X.shape == (398, 30) and m.traj.rule == "classic"
    assert view.text["n_run"].disabled
    assert m.risk.rows[1].key == "breast_cancer"


def test_loss_checkboxes_are_state(view):
    view.w_losses["squared"].value = False
    assert not view.model.show_squared
    assert not view.figure.losses.curves["squared"].get_visible()
    assert "squared" not in view.messages.text


def test_state_round_trip(view):
    view.w_dataset.value = "iris"
    view.w_losses["logistic"].value = False
    view.text["gamma"].value = "0.3"
    view.timeline.go(5)
    values, problems = SPEC.from_query(SPEC.to_query(view.save_state()))
    assert problems == []
    other = GeneralizationView(autorun=False)
    assert other.load_state(values)
    o = other.model
    assert (o.dataset, o.gamma, o.show_logistic, o.step, o.ns) == ("iris", 0.3, False, 5, [4, 8, 16])
    np.testing.assert_array_equal(o.X, view.model.X)
    assert not other.load_state({"trials": 1}) and "trials must be" in o.message


def test_link_opens_the_generalization_tab():
    d = Dashboard(query="tab=generalization&trials=10&ns=5,10&dataset=iris_setosa&step=3")
    v = d.views["generalization"]
    assert v.model.trials == 10 and v.model.dataset == "iris_setosa" and v.model.step == 3
