"""Fixtures for end-to-end tests: Voila (via explorer.serving.serve) + Debian's Chromium via Playwright.

Every test under tests/browser/ is marked ``browser`` (select with ``-m browser``, skip with
``-m "not browser"``). Without /usr/bin/chromium they are skipped, except in CI (CI=true), where
that is a failure. Helpers to use in tests live in ``tests/browser/_voila.py``.

Fixtures:
    voila              factory: voila(notebook_path_or_None) -> running VoilaServer (session-wide,
                       one server per notebook, all stopped at the end); None = the dashboard
    dashboard_url      URL of the real dashboard (notebooks/dashboard.ipynb)
    chromium_browser   one headless Chromium for the session
    page               a fresh context + page per test (1200x900); on failure a screenshot and
                       the browser console go to the test's tmp dir and the path is printed
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import _voila  # noqa: E402

_HERE = Path(__file__).parent


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if _HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)


def _require(ok: bool, reason: str) -> None:
    if ok:
        return
    if _in_ci():
        pytest.fail(f"{reason} (CI=true: browser tests must run in CI)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def _browser_prereqs():
    _require(_voila.chromium_available(),
             f"{_voila.CHROMIUM} not found: install Debian's chromium (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _require(False, "playwright (python) is not installed: pip install -e '.[test]'")


@pytest.fixture(scope="session")
def voila(_browser_prereqs, tmp_path_factory):
    servers: dict[object, _voila.VoilaServer] = {}
    logs = tmp_path_factory.mktemp("voila-logs")

    def start(notebook: Path | None = None, *extra_args: str) -> _voila.VoilaServer:
        key = (None if notebook is None else Path(notebook).resolve(), extra_args)
        if key not in servers:
            name = "dashboard" if notebook is None else Path(notebook).stem
            server = _voila.VoilaServer(key[0], logs / f"{name}-{len(servers)}.log",
                                        extra_args=extra_args)
            servers[key] = server.start()
        return servers[key]

    yield start
    for server in servers.values():
        server.stop()


@pytest.fixture(scope="session")
def dashboard_url(voila) -> str:
    return voila(None).url


@pytest.fixture(scope="session")
def chromium_browser(_browser_prereqs):
    from playwright.sync_api import expect, sync_playwright

    # Playwright's expect(...) waits 5 s by default: kernel messages on a loaded 2-core CI
    # machine can take longer, and the tests wait on what they assert, not on sleeps.
    expect.set_options(timeout=30_000)

    with sync_playwright() as pw:
        browser = _voila.launch_chromium(pw)
        yield browser
        browser.close()


#: Lines of a Voila log that explain a page that failed to open: a kernel that died and was
#: started again (its page then shows "Error displaying widget: model not found": the new
#: kernel has none of the widgets the page was rendered with), a traceback.
_TELLING = ("Restarter", "restarting kernel", "died", "Traceback")


def _server_logs(tmp_path_factory) -> str:
    """What the session's Voila logs say that may explain a failed test: their telling lines
    and their last lines."""
    out = []
    for log in sorted(tmp_path_factory.getbasetemp().glob("voila-logs*/*.log")):
        lines = log.read_text(errors="replace").splitlines()
        telling = [line for line in lines if any(t in line for t in _TELLING)]
        out += [f"[voila] {log}:", *telling[-20:], "  ... last lines:", *lines[-8:]]
    return "\n".join(out)


@pytest.fixture
def page(chromium_browser, request, tmp_path, tmp_path_factory):
    context = chromium_browser.new_context(viewport={"width": 1200, "height": 900})
    context.set_default_timeout(30_000)
    pg = context.new_page()
    console: list[str] = []
    pg.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    pg.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
    pg.console_messages_seen = console  # for tests that want to assert on them
    yield pg
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed:
        shot = tmp_path / "failure.png"
        try:
            pg.screenshot(path=str(shot), full_page=True)
        except Exception as exc:  # noqa: BLE001 - best effort
            shot = f"(screenshot failed: {exc})"
        (tmp_path / "console.txt").write_text("\n".join(console))
        print(f"\n[browser] screenshot: {shot}\n[browser] console: {tmp_path / 'console.txt'}")
        print(_server_logs(tmp_path_factory))
    context.close()
