"""A real JupyterHub (``python -m explorer.serving.hub``, the command ``make hub`` runs) in a
subprocess, on free 127.0.0.1 ports with its state folder in a temporary folder, for the browser
test of the hub (tests/browser/test_hub.py) and the measurements (scripts/hub_measure.py).

The hub's proxy, configurable-http-proxy, is installed from the npm registry into the checkout's
git-ignored ``.hub/proxy`` on first use and kept there for the next runs
(:func:`explorer.serving.hub.ensure_proxy`), so neither needs ``make hub`` to have been run.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from _voila import REPO_ROOT, free_port

SINGLEUSER = "jupyterhub.singleuser"


class HubServer:
    """The hub, its proxy, its idle culler and the users' servers: one process tree."""

    def __init__(self, state: Path, log_path: Path, *, password: str,
                 active_server_limit: int, concurrent_spawn_limit: int = 2,
                 cull_timeout: int = 900, cull_every: int = 300,
                 activity_interval: int | None = None):
        self.state = Path(state)
        self.log_path = Path(log_path)
        self.password = password
        self.options = ["--active-server-limit", str(active_server_limit),
                        "--concurrent-spawn-limit", str(concurrent_spawn_limit),
                        "--cull-timeout", str(cull_timeout), "--cull-every", str(cull_every)]
        if activity_interval is not None:
            self.options += ["--activity-interval", str(activity_interval)]
        self.port: int | None = None
        self.proc: subprocess.Popen | None = None
        self._log = None
        self._seen: dict[int, object] = {}  # every process of the tree seen, to stop them all

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self, timeout: float = 120.0) -> HubServer:
        from explorer.serving.hub import ensure_proxy

        ensure_proxy()  # before the clock starts: the first run downloads it (a few seconds)
        self.port = free_port()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(REPO_ROOT), env.get("PYTHONPATH", "")) if p)
        env["PYTHONUNBUFFERED"] = "1"
        env["PE_HUB_PASSWORD"] = self.password
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "explorer.serving.hub", "--port", str(self.port),
             "--state", str(self.state), *self.options],
            cwd=REPO_ROOT, env=env, stdin=subprocess.DEVNULL, stdout=self._log,
            stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the hub exited with code {self.proc.returncode}:\n"
                                   + self.log_tail())
            try:
                with urllib.request.urlopen(self.url + "hub/health", timeout=2) as r:
                    if r.status == 200:
                        self.processes()
                        return self
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.25)
        self.stop()
        raise TimeoutError(f"the hub did not answer at {self.url} in {timeout:.0f} s:\n"
                           + self.log_tail())

    def processes(self) -> list:
        """Every live process of the hub's tree (psutil), remembered for :meth:`stop`."""
        import psutil

        try:
            hub = psutil.Process(self.proc.pid)
            tree = [hub, *hub.children(recursive=True)]
        except psutil.NoSuchProcess:
            tree = []
        for p in tree:
            self._seen.setdefault(p.pid, p)
        return tree

    def servers(self) -> dict[str, object]:
        """The running single-user servers, by user name (``JUPYTERHUB_USER`` of the process)."""
        import psutil

        found = {}
        for p in self.processes():
            try:
                if SINGLEUSER in " ".join(p.cmdline()):
                    found[p.environ().get("JUPYTERHUB_USER", "?")] = p
            except psutil.Error:
                continue
        return found

    def wait_for_servers(self, predicate, timeout: float, what: str) -> dict[str, object]:
        deadline = time.monotonic() + timeout
        while True:
            now = self.servers()
            if predicate(now):
                return now
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: after {timeout:.0f} s the servers running are "
                                     f"{sorted(now)}\n{self.log_tail()}")
            time.sleep(0.5)

    def log_tail(self, n: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no log)"

    def stop(self, timeout: float = 60.0) -> None:
        """SIGTERM the hub (it stops its servers, culler and proxy), then kill what is left."""
        import psutil

        proc, self.proc = self.proc, None
        if proc is not None:
            self.proc = proc
            self.processes()
            self.proc = None
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout)
                except subprocess.TimeoutExpired:
                    pass
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            proc.wait(5)
        for p in self._seen.values():  # the users' servers run in sessions of their own
            try:
                p.kill()
            except psutil.Error:
                pass
        self._seen.clear()
        if self._log is not None:
            self._log.close()
            self._log = None


def login(page, url: str, name: str, password: str) -> None:
    """Log in on the hub's own login page, as a student does."""
    page.goto(url + "hub/login")
    page.fill("#username_input", name)
    page.fill("#password_input", password)
    page.click("#login_submit")
