"""What opening the page costs: the solvers load after the first picture, the first image is
drawn once (by the page's request), and a preheated kernel has done the rest ahead.

Measured in docs/performance.md ("page open -> interactive"); here only the behaviour.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from explorer.app.dashboard import warm_up
from explorer.app.perceptron.model import PerceptronModel, solvers_loaded
from explorer.perceptron.replay import PENDING_NOTE, describe_run
from explorer.plots import PerceptronFigure


def _fresh(code: str) -> dict:
    """Run ``code`` in a new interpreter (nothing imported yet); it prints one JSON line."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin"})
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_first_run_is_shown_before_the_solvers_load_then_described_exactly():
    got = _fresh("""
import json, sys
from explorer.app.perceptron.model import PerceptronModel
from explorer.perceptron.replay import describe_run
m = PerceptronModel(describe_later=True)
before = {"pending": m.info.pending, "bound": m.info.bound.value, "proof": m.info.proof is None,
          "loaded": sorted(k for k in ("sklearn", "scipy.optimize") if k in sys.modules),
          "steps": m.trajectory.n_steps}
changed = m.describe()
ref = describe_run(m.trajectory, m.X, m.y)
print(json.dumps({**before, "changed": changed, "again": m.describe(), "after": m.info.pending,
                  "bound_after": m.info.bound.value, "ref": ref.bound.value,
                  "separable": m.info.separable}))
""")
    assert got["pending"] and got["bound"] is None and got["proof"]
    assert got["loaded"] == []  # neither scikit-learn nor scipy.optimize on the way to the page
    assert got["steps"] > 0  # the run itself is all there
    assert got["changed"] and not got["again"] and not got["after"]
    assert got["bound_after"] == pytest.approx(got["ref"]) and got["separable"] is True


def test_once_the_solvers_are_loaded_the_run_is_described_at_once():
    warm_up()  # imports them
    m = PerceptronModel(describe_later=True, dataset="xor")
    assert not m.info.pending and m.info.separable is False
    m2 = PerceptronModel()  # the default: described when built
    assert not m2.info.pending and m2.info.bound.value is not None
    assert not m2.describe()


def test_pending_panels_say_the_bound_is_coming_not_that_there_is_none():
    m = PerceptronModel(describe_later=True)
    from explorer.perceptron.replay import pending_run

    fig = PerceptronFigure()
    fig.set_run(m.trajectory, m.X, m.y, pending_run(m.trajectory))
    fig.show(0)
    text = fig.mistakes.bound_text.get_text()
    assert "\nmistake bound:\n" in text and "being worked out" in text
    assert "no mistake bound" not in text
    assert PENDING_NOTE in fig.proof.note.get_text().replace("\n", " ")
    fig.set_run(m.trajectory, m.X, m.y, describe_run(m.trajectory, m.X, m.y))
    assert "\nbound (dashed) =" in fig.mistakes.bound_text.get_text()


def test_warm_up_does_ahead_what_the_first_open_would_do():
    got = _fresh("""
import json, sys
from explorer.app.dashboard import warm_up
from explorer.app.perceptron.model import solvers_loaded
assert not solvers_loaded()
warm_up()
from explorer.app.dashboard import PRELOAD_MODULES, TABS
tabs = [t.split(":")[0] for _, _, t in TABS] + list(PRELOAD_MODULES)
print(json.dumps({"loaded": solvers_loaded(), "view": "explorer.app.perceptron.view" in sys.modules,
                  "widgets_made": __import__("ipywidgets").Widget.widgets.__len__(),
                  "tabs": [m for m in tabs if m not in sys.modules]}))
""")
    # the other tabs' modules too (a tab switch), see tests/test_tab_switch.py
    assert got == {"loaded": True, "view": True, "widgets_made": 0, "tabs": []}


def test_warm_up_runs_in_process_too():
    warm_up()
    assert solvers_loaded()
    assert np.isfinite(PerceptronModel().info.bound.value)


def test_a_page_opening_on_a_preheated_kernel_gets_its_first_chunk_before_the_resize(
        monkeypatch):
    """The window's size and the page's first chunk request arrive together: the chunk of the
    scene the page already has is answered first (it can draw and step at once), and the still
    layers at the new size follow after RESIZE_DELAY_S, drawn once for several sizes."""
    import asyncio

    from explorer.app import pagerun
    from explorer.app.dashboard import dashboard
    from explorer.app.layout import FigureFit

    d = dashboard()
    paged = d.active.paged
    page = paged.page
    sent = []
    page.send = lambda content, buffers=None: sent.append(content)
    old = page.scene["run"]
    scenes = []
    page.observe(lambda ch: scenes.append((ch["new"]["width"], ch["new"]["run"])), names="scene")

    async def opening():
        monkeypatch.setattr(pagerun, "kernel_loop", asyncio.get_running_loop)
        w = paged.fitted.width
        paged.resize(FigureFit(w - 100, 400, 1.0))  # the first measure of the window
        paged.resize(FigureFit(w - 60, 420, 1.0))   # and the next, a moment later
        page._handle_custom_msg({"type": "chunk", "run": old, "index": 0}, [])
        assert [(c["type"], c["run"]) for c in sent] == [("chunk", old)] and scenes == []
        await asyncio.sleep(pagerun.RESIZE_DELAY_S * 2)
        assert scenes == [(w - 60, old + 1)]  # drawn once, at the last size

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:  # a loop of its own (an earlier test may leave one here)
        pool.submit(asyncio.run, opening()).result()


def test_a_preheated_kernel_gives_its_ready_page_to_an_address_without_a_link(monkeypatch):
    """The hall builds the opening page before the visitor comes (its still layers drawn
    then, not in front of the visitor); a link's page is built from the link."""
    from explorer.app.dashboard import for_request, ready_dashboard

    ready = ready_dashboard()
    monkeypatch.setenv("QUERY_STRING", "")
    assert for_request(ready) is ready
    ready = ready_dashboard()
    monkeypatch.setenv("QUERY_STRING", "tab=perceptron&dataset=xor&step=3")
    page = for_request(ready)
    assert page is not ready and ready.comm is None  # the unused page is closed
    assert page.active.model.dataset == "xor" and page.active.model.step == 3
