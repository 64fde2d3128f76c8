"""The hub's configuration (``make hub``: explorer/serving/jupyterhub_config.py and the launcher
explorer/serving/hub.py) without running it: what the file sets, that docs/serving.md gives Zero to
JupyterHub the same values under the same names, and the launcher's clear refusals.
The hub itself runs in tests/browser/test_hub.py."""

from __future__ import annotations

import ast
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import yaml
from traitlets.config.loader import PyFileConfigLoader

from explorer.serving import hub
from explorer.serving.serve import (
    HALL_CULL_IDLE_TIMEOUT,
    HALL_CULL_INTERVAL,
    HALL_KERNEL_ENV,
    NODELAY_CONNECTION,
    TEMPLATE,
    TEMPLATES,
    kernel_settings,
)

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "serving.md").read_text()
HALL_SETTINGS = kernel_settings(cull_idle_timeout=HALL_CULL_IDLE_TIMEOUT,
                                cull_interval=HALL_CULL_INTERVAL)


def load_config(monkeypatch, tmp_path, **env):
    """The configuration file as JupyterHub loads it, with ``PE_HUB_*`` variables ``env``."""
    for key in list(os.environ):
        if key.startswith("PE_HUB_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("PE_HUB_STATE", str(tmp_path / "state"))
    monkeypatch.setenv("PE_HUB_PASSWORD", "a-class-password")
    for key, value in env.items():
        monkeypatch.setenv(f"PE_HUB_{key.upper()}", str(value))
    loader = PyFileConfigLoader(hub.CONFIG_FILE.name, path=str(hub.CONFIG_FILE.parent))
    return loader.load_config()


def _block(language: str, after: str) -> str:
    """The first ```language block of docs/serving.md after the text ``after``."""
    start = DOC.index(after)
    match = re.search(rf"```{language}\n(.*?)```", DOC[start:], re.S)
    assert match, f"no {language} block after {after!r} in docs/serving.md"
    return match.group(1)


def test_the_file_sets_the_class_hub(monkeypatch, tmp_path):
    c = load_config(monkeypatch, tmp_path)
    assert (c.JupyterHub.ip, c.JupyterHub.hub_ip) == ("127.0.0.1", "127.0.0.1")
    assert c.JupyterHub.port == hub.DEFAULT_PORT
    assert c.JupyterHub.db_url == f"sqlite:///{tmp_path / 'state' / 'jupyterhub.sqlite'}"
    assert c.JupyterHub.authenticator_class == "shared-password"
    assert c.SharedPasswordAuthenticator.user_password == "a-class-password"
    assert c.Authenticator.allow_all is True
    assert c.JupyterHub.spawner_class == "simple"
    assert c.Spawner.default_url == hub.DEFAULT_URL == "/voila/render/notebooks/dashboard.ipynb"
    # each server gets the hall's settings of pages and kernels, named as Voila alone gets them
    for name, value in HALL_SETTINGS.items():
        assert f"--{name}={value}" in c.Spawner.args
    # kernel messages sent at once (explorer/serving/nodelay.py)
    assert f"--ServerApp.kernel_websocket_connection_class={NODELAY_CONNECTION}" in c.Spawner.args
    # the dashboard's page template (no stylesheets from a CDN), found through JUPYTER_PATH
    assert f"--VoilaConfiguration.template={TEMPLATE}" in c.Spawner.args
    assert c.Spawner.environment["JUPYTER_PATH"].split(os.pathsep)[0] == str(TEMPLATES)
    assert HALL_KERNEL_ENV.items() <= c.Spawner.environment.items()
    assert c.JupyterHub.active_server_limit == hub.ACTIVE_SERVER_LIMIT
    assert c.JupyterHub.concurrent_spawn_limit == hub.CONCURRENT_SPAWN_LIMIT
    assert c.JupyterHub.shutdown_on_logout is True
    (culler,) = c.JupyterHub.services
    assert culler["command"][1:] == ["-m", "jupyterhub_idle_culler",
                                     f"--timeout={hub.CULL_TIMEOUT}",
                                     f"--cull-every={hub.CULL_EVERY}"]
    assert "delete:servers" in c.JupyterHub.load_roles[0]["scopes"]


def test_the_launcher_sets_ports_limits_and_the_list_of_names(monkeypatch, tmp_path):
    names = tmp_path / "names.txt"
    names.write_text("# section A\nann\nbob  # late\n\n")
    env = hub.hub_environment(state=tmp_path / "state", port=9000, api_port=9001,
                              proxy_api_port=9002, proxy=Path("/x/chp"), active_server_limit=3,
                              concurrent_spawn_limit=1, cull_timeout=60, cull_every=10,
                              users=names)
    c = load_config(monkeypatch, tmp_path,
                    **{k.removeprefix("PE_HUB_").lower(): v for k, v in env.items()})
    assert (c.JupyterHub.port, c.JupyterHub.hub_port) == (9000, 9001)
    assert c.ConfigurableHTTPProxy.api_url == "http://127.0.0.1:9002"
    assert c.ConfigurableHTTPProxy.command == ["/x/chp"]
    assert (c.JupyterHub.active_server_limit, c.JupyterHub.concurrent_spawn_limit) == (3, 1)
    assert c.JupyterHub.services[0]["command"][-2:] == ["--timeout=60", "--cull-every=10"]
    assert c.Authenticator.allowed_users == {"ann", "bob"}
    assert "allow_all" not in c.Authenticator


def test_zero_to_jupyterhub_gets_the_same_values_under_the_same_names():
    z2jh = yaml.safe_load(_block("yaml", "### JupyterHub (Zero to JupyterHub"))
    config = z2jh["hub"]["config"]["JupyterHub"]
    assert config["active_server_limit"] == hub.ACTIVE_SERVER_LIMIT
    assert config["concurrent_spawn_limit"] == hub.CONCURRENT_SPAWN_LIMIT
    assert config["shutdown_on_logout"] is True
    assert z2jh["cull"] == {"enabled": True, "timeout": hub.CULL_TIMEOUT,
                            "every": hub.CULL_EVERY}
    assert z2jh["singleuser"]["defaultUrl"] == hub.DEFAULT_URL
    assert z2jh["singleuser"]["extraEnv"] == HALL_KERNEL_ENV
    # each user's server: the same settings of pages and kernels, as a jupyter_server_config.py
    lines = _block("python", "jupyter_server_config.py").strip().splitlines()
    settings = {name: ast.literal_eval(value) for name, value in
                (re.fullmatch(r"c\.(\w+\.\w+) = (.+)", line).groups() for line in lines)}
    assert settings == HALL_SETTINGS | {
        "ServerApp.kernel_websocket_connection_class": NODELAY_CONNECTION}


def test_the_docs_show_the_file_the_hub_runs():
    assert "explorer/serving/jupyterhub_config.py" in DOC and "make hub" in DOC
    assert hub.CONFIG_FILE == ROOT / "explorer" / "serving" / "jupyterhub_config.py"


def test_the_class_password_is_kept_and_a_short_one_refused(monkeypatch, tmp_path):
    monkeypatch.delenv("PE_HUB_PASSWORD", raising=False)
    made = hub.class_password(tmp_path)
    assert len(made) >= hub.PASSWORD_MIN and hub.class_password(tmp_path) == made
    monkeypatch.setenv("PE_HUB_PASSWORD", "short")
    with pytest.raises(ValueError, match="at least 8 characters; got 5"):
        hub.class_password(tmp_path)


def test_without_npm_the_launcher_says_what_to_install(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(hub.shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match=r"install Node.js 18\+ and npm"):
        hub.ensure_proxy(tmp_path / "proxy")
    monkeypatch.setattr(hub, "PROXY_PREFIX", tmp_path / "proxy")
    assert hub.main(["--state", str(tmp_path / "state")]) == 1
    assert "configurable-http-proxy, runs on Node.js" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--port", "70000"], "--port must be in 0..65535, not 70000"),
    (["--active-server-limit", "0"], "--active-server-limit must be at least 1, not 0"),
    (["--users", "no-such-file.txt"], "no such list of users: no-such-file.txt"),
])
def test_the_launcher_refuses_bad_options(argv, message, capsys):
    with pytest.raises(SystemExit):
        hub.main(argv)
    assert message in capsys.readouterr().err


def test_each_home_gets_its_own_dashboard_and_a_short_socket_folder(tmp_path):
    class User:
        id, name = 7, "a-student-with-a-rather-long-name-indeed"

    class Spawner:
        user = User()
        home_dir = str(tmp_path / "deep" / "state" / "homes" / User.name)

    hub.prepare_home(Spawner())
    copy = Path(Spawner.home_dir) / hub.DASHBOARD_PATH
    assert copy.read_text() == (ROOT / "notebooks" / "dashboard.ipynb").read_text()
    socket = Path(hub.runtime_dir(Spawner())) / ("kernel-" + "0" * 36 + "-ipc-4")
    assert len(str(socket)) < 108  # sizeof(sockaddr_un.sun_path)
    # one folder per hub, removed when it stops; each server's removed when the server stops
    assert socket.parent.parent == hub.runtime_root(tmp_path / "deep" / "state")
    socket.parent.mkdir(parents=True)
    (socket.parent / "jupyter_cookie_secret").write_text("secret")
    hub.remove_runtime_dir(Spawner())
    assert not socket.parent.exists()
    socket.parent.parent.rmdir()


def test_a_stopped_server_takes_its_runtime_files_with_it(monkeypatch, tmp_path):
    c = load_config(monkeypatch, tmp_path)
    assert c.Spawner.environment["JUPYTER_RUNTIME_DIR"] is hub.runtime_dir
    assert c.Spawner.post_stop_hook is hub.remove_runtime_dir


# A hub that ignores SIGINT, with a server in a session of its own that ignores it too: what
# JupyterHub waits 30 s for, twice. Each writes its pid to the file named by argv[1].
_STUBBORN_HUB = """
import signal, subprocess, sys, time
signal.signal(signal.SIGINT, signal.SIG_IGN)
code = "import signal, time; signal.signal(signal.SIGINT, signal.SIG_IGN); time.sleep(600)"
server = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
open(sys.argv[1], "w").write(f"{server.pid}")
time.sleep(600)
"""


def test_ctrl_c_ends_everything_the_hub_started_and_removes_its_runtime_files(tmp_path):
    """The launcher's stop (explorer.serving.hub.run_hub) without JupyterHub: Ctrl-C gives the
    hub ``grace`` seconds, then kills it and what it started, and removes the runtime folder.
    The real hub: tests/browser/test_hub.py::test_ctrl_c_stops_the_hub_within_seconds_and_..."""
    runtime = tmp_path / "pe-hub-test"
    (runtime / "1").mkdir(parents=True)
    (runtime / "1" / "jpserver-1.json").write_text("{}")
    pid_file = tmp_path / "server.pid"
    launcher = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from pathlib import Path; from explorer.serving.hub import run_hub; "
         "sys.exit(run_hub([sys.executable, '-c', sys.argv[1], sys.argv[2]], "
         "runtime=Path(sys.argv[3]), grace=1.0))",
         _STUBBORN_HUB, str(pid_file), str(runtime)],
        cwd=ROOT, start_new_session=True, stdout=subprocess.PIPE, text=True)
    tree = []
    try:
        deadline = time.monotonic() + 60
        while not pid_file.is_file() or not pid_file.read_text():
            assert time.monotonic() < deadline and launcher.poll() is None
            time.sleep(0.05)
        tree = psutil.Process(launcher.pid).children(recursive=True)
        assert len(tree) == 2  # the hub and its server
        time.sleep(0.5)  # the launcher has seen them too
        t0 = time.monotonic()
        os.killpg(launcher.pid, signal.SIGINT)
        assert launcher.wait(timeout=30) == 0
        assert time.monotonic() - t0 < 1.0 + 2
        assert not any(p.is_running() and p.status() != psutil.STATUS_ZOMBIE for p in tree)
        assert not runtime.exists()
        assert "The hub stopped" in launcher.stdout.read()
    finally:
        for proc in tree:
            if proc.is_running():
                proc.kill()
        launcher.kill()
        launcher.wait()
