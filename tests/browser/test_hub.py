"""The dashboard through a real JupyterHub (``make hub``: explorer/serving/jupyterhub_config.py),
in Chromium: the class password, one server per student opening on the dashboard and asking
nothing of the internet, the limits, the logout and the idle culler, that nobody reaches another
student's server or files, and that Ctrl-C stops it all within seconds, leaving nothing behind.

The hub runs as ``make hub`` runs it (``python -m explorer.serving.hub``) on free 127.0.0.1 ports,
with its state folder in a temporary folder and small limits: two servers at once, servers
idle for CULL_TIMEOUT s stopped. Its proxy comes from the npm registry into the checkout's
git-ignored ``.hub/proxy`` on first use (kept for the next runs). Without Node.js and npm, or
without jupyterhub, the test is skipped, except in CI (CI=true), where that is a failure.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import sys
import time

import pytest
from _hub import HubServer, login
from _voila import button, click_button, wait_for_canvas, wait_for_text, widget_text
from playwright.sync_api import expect
from test_dashboard import wait_for_fitted

from explorer.serving.hub import DEFAULT_URL, STOP_GRACE_S, runtime_root

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"),
                       reason="the hub's local spawner and proxy are tested on Linux"),
]

PASSWORD = "lecture-hall-7"
LIMIT = 2  # servers running at once: two students get one, a third is told the class is full
CULL_TIMEOUT, CULL_EVERY, ACTIVITY = 45, 5, 5  # seconds (make hub: 900, 300 and 300)
STATUS = "pe-where"  # the Perceptron tab's "step k of N · ..." beside the timeline
STEP = "Step ▶"


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def _require(ok: bool, reason: str) -> None:
    if not ok:
        if _in_ci():
            pytest.fail(f"{reason} (CI=true: the hub's test must run in CI)", pytrace=False)
        pytest.skip(reason)


@pytest.fixture(scope="module")
def hub(_browser_prereqs, tmp_path_factory):
    _require(shutil.which("node") is not None and shutil.which("npm") is not None,
             "the hub's proxy (configurable-http-proxy) needs Node.js and npm: apt-get install "
             "nodejs npm")
    try:
        import jupyterhub  # noqa: F401
        import jupyterhub_idle_culler  # noqa: F401
    except ImportError:
        _require(False, "jupyterhub is not installed: pip install -e '.[test]'")
    folder = tmp_path_factory.mktemp("hub")
    server = HubServer(folder / "state", folder / "hub.log", password=PASSWORD,
                       active_server_limit=LIMIT, concurrent_spawn_limit=LIMIT,
                       cull_timeout=CULL_TIMEOUT, cull_every=CULL_EVERY,
                       activity_interval=ACTIVITY)
    server.start()
    yield server
    t0 = time.monotonic()
    server.stop()
    print(f"\n[hub] stopped in {time.monotonic() - t0:.1f} s; log: {server.log_path}")


def _student(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.set_default_timeout(60_000)
    return context, context.new_page()


def _opens_on_the_dashboard_and_steps(page, hub, name: str) -> float:
    """Wait for the student's dashboard (their own server, straight on the dashboard), press
    Step once and see the step counter move; return seconds until the figure was drawn."""
    t0 = time.monotonic()
    wait_for_canvas(page, timeout=240)
    drawn = time.monotonic() - t0
    assert page.url.split("?")[0] == f"{hub.url}user/{name}{DEFAULT_URL}", page.url
    wait_for_text(page, STATUS, lambda t: t.startswith("step 0 of 12 · 0 updates · 6 points"),
                  timeout=60)
    expect(button(page, STEP)).to_be_enabled()
    wait_for_fitted(page)  # the page measures its layout again 0.5 s and 2 s after opening
    click_button(page, STEP, timeout=30)
    wait_for_text(page, STATUS, lambda t: t.startswith("step 1 of 12 · 1 update"), timeout=30)
    return drawn


def test_a_bad_password_gets_a_clear_message(page, hub):
    login(page, hub.url, "ann", "not-the-password")
    page.get_by_text("Invalid username or password").wait_for(timeout=30_000)
    assert "/hub/login" in page.url
    assert "Traceback" not in page.content()
    assert hub.servers() == {}


def test_a_class_through_the_hub(chromium_browser, hub, tmp_path):
    (ctx_a, ann), (ctx_b, bob), (ctx_c, cat) = (_student(chromium_browser) for _ in range(3))
    try:
        # Two students log in at once; each lands on their own dashboard and steps it.
        asked = []  # every request of ann's pages
        ann.on("request", lambda r: asked.append(r.url))
        t0 = time.monotonic()
        login(ann, hub.url, "ann", PASSWORD)
        login(bob, hub.url, "bob", PASSWORD)
        for page, name in ((ann, "ann"), (bob, "bob")):
            _opens_on_the_dashboard_and_steps(page, hub, name)
        print(f"\n[hub] two students logged in -> both dashboards stepped: "
              f"{time.monotonic() - t0:.1f} s")
        # The page asks nothing of the internet: Voila's server extension names MathJax on
        # cdnjs, the dashboard's template (explorer/serving/jupyter/voila/templates/explorer)
        # Voila's own copy (as tests/browser/test_dashboard.py checks without the hub).
        assert any("/voila/render/" in u for u in asked), asked
        elsewhere = [u for u in asked if not u.startswith((hub.url, "data:", "blob:"))]
        assert elsewhere == [], elsewhere
        servers = hub.servers()
        assert sorted(servers) == ["ann", "bob"]
        for name, proc in servers.items():  # each server runs in its own home, on its own files
            home = hub.state / "homes" / name
            assert proc.cwd() == str(home)
            assert (home / "notebooks" / "dashboard.ipynb").is_file()
        assert widget_text(ann, STATUS).startswith("step 1 of 12")

        # Nobody reaches another student's server or files: the page, the files, the API.
        for path in (DEFAULT_URL, "/files/notebooks/dashboard.ipynb", "/api/contents/notebooks"):
            answer = ctx_a.request.get(f"{hub.url}user/bob{path}")
            assert answer.status == 403, (path, answer.status, answer.url)
        answer = ann.goto(f"{hub.url}user/bob{DEFAULT_URL}")
        assert answer.status == 403 and "You do not have permission" in ann.content()
        assert ann.locator("canvas").count() == 0

        # A third student, past the limit of two servers, is told the class is full.
        login(cat, hub.url, "cat", PASSWORD)
        cat.get_by_text("The class is full").wait_for(timeout=60_000)
        text = cat.locator("body").inner_text()
        assert f"All {LIMIT} places of this hub are taken" in text, text
        assert "Traceback" not in cat.content()
        cat.screenshot(path=str(tmp_path / "class-full.png"))
        assert sorted(hub.servers()) == ["ann", "bob"]

        # Logging out frees the server at once.
        ann.goto(hub.url + "hub/logout")
        hub.wait_for_servers(lambda s: "ann" not in s, 60, "ann logged out")

        # A closed page's server is stopped by the idle culler.
        t_closed = time.monotonic()
        ctx_b.close()
        hub.wait_for_servers(lambda s: not s, CULL_TIMEOUT + 3 * CULL_EVERY + 60,
                             "bob closed his page")
        print(f"[hub] bob's page closed -> server culled: {time.monotonic() - t_closed:.1f} s")
        log = hub.log_path.read_text(errors="replace")
        assert re.search(r"Culling server bob \(inactive for", log), hub.log_tail()
    finally:
        for context in (ctx_a, ctx_b, ctx_c):
            try:
                context.close()
            except Exception:  # noqa: BLE001 - closed already
                pass


def test_ctrl_c_stops_the_hub_within_seconds_and_leaves_nothing_behind(chromium_browser,
                                                                       tmp_path):
    """Ctrl-C on ``make hub`` with a student's dashboard open: every process of the hub (its
    proxy, idle culler, the student's server and kernel) ends within a few seconds, and the
    users' runtime folder in the system's temporary folder (``jpserver-*.json``, the server's
    cookie secret, the kernel's connection file and sockets) is removed. Before, Ctrl-C took
    5-30 s ("Cleaning up 1 services...": JupyterHub waits up to 30 s for each process that
    has not stopped at its SIGINT) and the folder stayed."""
    hub = HubServer(tmp_path / "state", tmp_path / "hub.log", password=PASSWORD,
                    active_server_limit=LIMIT).start()
    context, page = _student(chromium_browser)
    try:
        login(page, hub.url, "ann", PASSWORD)
        wait_for_canvas(page, timeout=240)
        runtime = runtime_root(hub.state.resolve())
        assert any(runtime.glob("*/jpserver-*.json")), sorted(runtime.rglob("*"))
        assert any(runtime.glob("*/kernel-*.json")), sorted(runtime.rglob("*"))
        tree = hub.processes()
        assert {"ann"} == set(hub.servers())
        assert len(tree) >= 5  # the launcher, the hub, its proxy and culler, ann's server, ...
        launcher, hub.proc = hub.proc, None  # stopped here, by Ctrl-C; stop() only cleans up

        t0 = time.monotonic()
        os.killpg(launcher.pid, signal.SIGINT)  # Ctrl-C: the terminal's foreground group
        code = launcher.wait(timeout=60)
        took = time.monotonic() - t0
        print(f"\n[hub] Ctrl-C -> stopped in {took:.1f} s")
        assert code == 0, hub.log_tail()
        assert took < STOP_GRACE_S + 3, hub.log_tail()
        left = [p for p in tree if p.is_running() and p.status() != "zombie"]
        assert left == [], [(p.pid, p.cmdline()) for p in left]
        assert not runtime.exists(), sorted(runtime.rglob("*"))
    finally:
        context.close()
        hub.stop()
