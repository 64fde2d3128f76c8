"""One machine, one server per student: JupyterHub on 127.0.0.1 (``make hub``).

    python -m explorer.serving.hub [--port 8000] [--users FILE]

starts a real JupyterHub configured by ``explorer/serving/jupyterhub_config.py`` (the file
docs/serving.md shows): students log in with the class password (and, with ``--users``, a name
from the lecturer's list), each gets a Jupyter server of their own that opens straight on the
dashboard (:data:`DEFAULT_URL`), with the hall's kernel settings
(:func:`explorer.serving.serve.kernel_settings`). The hub's limits are :data:`ACTIVE_SERVER_LIMIT`
servers running and :data:`CONCURRENT_SPAWN_LIMIT` starting at once; the idle culler
(``jupyterhub-idle-culler``) stops a server idle for :data:`CULL_TIMEOUT` seconds, and logging
out stops it at once.

Everything lives in one git-ignored folder, ``.hub/`` at the top of the checkout:
``.hub/proxy`` holds the hub's proxy, ``configurable-http-proxy``, installed there from the npm
registry on first use (:func:`ensure_proxy`; needs Node.js and npm), and ``.hub/state`` (or
``--state DIR``) the hub's database, cookie secret, class password and each user's home folder.
The servers' runtime files go to a folder under the system's temporary folder
(:func:`runtime_root`), removed when the hub stops: the launcher stays the hub's parent, and
Ctrl-C stops the hub and everything it started within :data:`STOP_GRACE_S` seconds
(:func:`run_hub`).

This launcher and the configuration file talk through environment variables (``PE_HUB_*``,
:func:`hub_environment`), so a test can run the same configuration on free ports with its own
state folder and small limits.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .serve import HOST, find_dashboard, free_port

CHECKOUT = Path(__file__).resolve().parents[2]
HUB_DIR = CHECKOUT / ".hub"
PROXY_PREFIX = HUB_DIR / "proxy"
PROXY_PACKAGE = "configurable-http-proxy@5"
PROXY_COMMAND = "node_modules/.bin/configurable-http-proxy"  # in the --prefix folder
CONFIG_FILE = Path(__file__).resolve().parent / "jupyterhub_config.py"
DEFAULT_PORT = 8000

# Where each user's server opens: the dashboard, rendered by Voila as a server extension, from the
# copy of notebooks/dashboard.ipynb in the user's home folder.
DASHBOARD_PATH = "notebooks/dashboard.ipynb"
DEFAULT_URL = f"/voila/render/{DASHBOARD_PATH}"

# The hub's limits: docs/serving.md gives the same values to Zero to JupyterHub's config.yaml.
# One user costs a Jupyter server and the dashboard's kernel (about 7 s of a core to start);
# docs/serving.md has the figures measured here.
ACTIVE_SERVER_LIMIT = 40  # servers running at once; the next student is told to try again later
CONCURRENT_SPAWN_LIMIT = 4  # servers starting at once (two per core)
CULL_TIMEOUT = 900  # seconds without activity after which the idle culler stops a server
CULL_EVERY = 300  # seconds between the culler's sweeps
PASSWORD_MIN = 8  # jupyterhub's SharedPasswordAuthenticator refuses a shorter class password
#: Seconds the hub has, after Ctrl-C, to stop its servers (with their kernels), its proxy and the
#: idle culler by itself; whatever still runs then is killed (:func:`run_hub`).
STOP_GRACE_S = 4.0


def ensure_proxy(prefix: Path | None = None) -> Path:
    """The ``configurable-http-proxy`` command, installed from the npm registry into ``prefix``
    (default :data:`PROXY_PREFIX`; ``npm install --prefix``) unless it is there already. Raises
    RuntimeError, saying what to install, when npm is missing or the install fails."""
    prefix = PROXY_PREFIX if prefix is None else Path(prefix)
    command = prefix / PROXY_COMMAND
    if command.is_file():
        return command
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        raise RuntimeError(
            "JupyterHub's proxy, configurable-http-proxy, runs on Node.js: install Node.js 18+ "
            "and npm (Debian/Ubuntu: apt-get install nodejs npm), then run this again; found "
            f"node={shutil.which('node')}, npm={npm}")
    prefix.mkdir(parents=True, exist_ok=True)
    print(f"Installing {PROXY_PACKAGE} into {prefix} (npm) ...", flush=True)
    done = subprocess.run([npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund",
                           "--loglevel=error", PROXY_PACKAGE],
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0 or not command.is_file():
        raise RuntimeError(f"npm install {PROXY_PACKAGE} failed (exit {done.returncode}):\n"
                           f"{done.stdout}{done.stderr}")
    return command


def class_password(state: Path) -> str:
    """The class password: ``$PE_HUB_PASSWORD``, else the one kept in ``state/class_password``
    (made up the first time, so a restarted hub keeps it)."""
    given = os.environ.get("PE_HUB_PASSWORD", "")
    if given:
        if len(given) < PASSWORD_MIN:
            raise ValueError(f"the class password must have at least {PASSWORD_MIN} characters; "
                             f"got {len(given)}")
        return given
    kept = state / "class_password"
    if not kept.is_file():
        kept.write_text(secrets.token_urlsafe(9) + "\n")
        kept.chmod(0o600)
    return kept.read_text().strip()


def allowed_users(path: Path | None) -> set[str]:
    """The lecturer's list: one name a line, ``#`` starts a comment; an empty set = anyone."""
    if path is None:
        return set()
    names = {line.split("#", 1)[0].strip() for line in Path(path).read_text().splitlines()}
    return {n for n in names if n}


def prepare_home(spawner) -> None:
    """``Spawner.pre_spawn_hook``: the user's home folder holds its own copy of the dashboard
    notebook, so each server opens on its own files."""
    notebook = Path(spawner.home_dir) / DASHBOARD_PATH
    notebook.parent.mkdir(parents=True, exist_ok=True)
    if not notebook.is_file():
        shutil.copyfile(find_dashboard(), notebook)


def runtime_root(state: Path) -> Path:
    """The folder, under the system's temporary folder, of the users' Jupyter runtime folders of
    the hub whose state folder is ``state`` (:func:`runtime_dir`); removed when the hub stops
    (:func:`run_hub`)."""
    digest = hashlib.sha1(str(state).encode()).hexdigest()[:8]
    return Path(tempfile.gettempdir()) / f"pe-hub-{digest}"


def runtime_dir(spawner) -> str:
    """The user's Jupyter runtime folder (``jpserver-*.json``, the server's cookie secret, the
    kernels' connection files, and with ``KernelManager.transport`` = ``ipc`` their Unix
    sockets): a short path under the temporary folder, since a socket's path may not exceed 107
    bytes and the home folder may be deep. One folder per hub (its state folder) and user id; a
    value of ``Spawner.environment`` (called with the spawner)."""
    return str(runtime_root(Path(spawner.home_dir).parents[1]) / str(spawner.user.id))


def remove_runtime_dir(spawner) -> None:
    """``Spawner.post_stop_hook``: a stopped server's runtime folder goes with it (logout, the
    idle culler, the hub stopping)."""
    shutil.rmtree(runtime_dir(spawner), ignore_errors=True)


def _remember_tree(pid: int, seen: dict) -> None:
    """Add every process under ``pid`` to ``seen`` (pid -> psutil.Process): once the hub has
    exited, the processes it started are no longer under it."""
    import psutil

    try:
        children = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return
    for proc in children:
        seen.setdefault(proc.pid, proc)


def _end_all(procs, deadline: float) -> None:
    """Wait until ``deadline`` (time.monotonic) for ``procs`` to exit, then kill the rest."""
    import psutil

    def running(proc) -> bool:
        try:
            return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
        except psutil.Error:
            return False

    def wait(procs, until):
        alive = [p for p in procs if running(p)]
        while alive and time.monotonic() < until:
            time.sleep(0.05)
            alive = [p for p in alive if running(p)]
        return alive

    alive = wait(procs, deadline)
    for proc in alive:
        try:
            proc.kill()
        except psutil.Error:
            pass
    wait(alive, time.monotonic() + 5)


def run_hub(command: list[str], *, runtime: Path, grace: float = STOP_GRACE_S, **popen) -> int:
    """Run JupyterHub (``command``; ``popen``: more arguments of ``subprocess.Popen``) until it
    exits or this process is asked to stop (Ctrl-C, SIGTERM, SIGHUP); then leave nothing
    behind: every process it started ended, and the users' runtime folder ``runtime``
    (:func:`runtime_root`) removed. Returns 0 once stopped on request, else the hub's exit code.

    The hub runs in a session of its own with no terminal, so Ctrl-C reaches this process
    alone, which passes one SIGINT on: the hub stops the idle culler, the proxy and the servers,
    and their kernels end with them. Past ``grace`` seconds (a second Ctrl-C: at once), what
    still runs is killed: servers and kernels keep nothing (a page's state is its link), and
    the next start says a server killed so "appears to have stopped while the Hub was down".
    Left to itself, JupyterHub waits up to 30 s for each process that has not stopped at its
    SIGINT (``LocalProcessSpawner.interrupt_timeout``; "Cleaning up 1 services..."), and the
    servers' runtime files stayed in the temporary folder.
    """
    import psutil

    asked: list[float] = []  # when each stop was asked for

    def ask(signum, frame):
        asked.append(time.monotonic())

    stops = (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None))  # no SIGHUP: Windows
    previous = {sig: signal.signal(sig, ask) for sig in stops if sig is not None}
    t0 = time.monotonic()
    hub = subprocess.Popen(command, stdin=subprocess.DEVNULL, start_new_session=True, **popen)
    seen = {hub.pid: psutil.Process(hub.pid)}
    code, passed_on = None, False
    try:
        while code is None:
            _remember_tree(hub.pid, seen)
            if asked and not passed_on:
                passed_on = True
                print(f"Stopping the hub: its servers, proxy and idle culler (at most "
                      f"{grace:.0f} s; Ctrl-C again stops at once) ...", flush=True)
                hub.send_signal(signal.SIGINT)
            if asked and (len(asked) > 1 or time.monotonic() > asked[0] + grace):
                break
            try:
                code = hub.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                pass
    finally:
        if len(asked) > 1:
            deadline = 0.0
        else:
            deadline = (asked[0] if asked else time.monotonic()) + grace
        _end_all(list(seen.values()), deadline)
        hub.wait()
        shutil.rmtree(runtime, ignore_errors=True)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if asked:
        print(f"The hub stopped ({time.monotonic() - asked[0]:.1f} s); nothing of it is left "
              f"running, and its runtime files ({runtime}) are removed.", flush=True)
        return 0
    print(f"The hub exited with code {code} after {time.monotonic() - t0:.0f} s.", flush=True)
    return code


def hub_environment(*, state: Path, port: int, api_port: int, proxy_api_port: int,
                    proxy: Path, active_server_limit: int, concurrent_spawn_limit: int,
                    cull_timeout: int, cull_every: int, users: Path | None = None,
                    activity_interval: int | None = None) -> dict[str, str]:
    """The ``PE_HUB_*`` variables that jupyterhub_config.py reads (all but the password)."""
    env = {
        "PE_HUB_STATE": str(state),
        "PE_HUB_PORT": str(port),
        "PE_HUB_API_PORT": str(api_port),
        "PE_HUB_PROXY_API_PORT": str(proxy_api_port),
        "PE_HUB_PROXY": str(proxy),
        "PE_HUB_ACTIVE_SERVER_LIMIT": str(active_server_limit),
        "PE_HUB_CONCURRENT_SPAWN_LIMIT": str(concurrent_spawn_limit),
        "PE_HUB_CULL_TIMEOUT": str(cull_timeout),
        "PE_HUB_CULL_EVERY": str(cull_every),
    }
    if users is not None:
        env["PE_HUB_USERS"] = str(Path(users).resolve())
    if activity_interval is not None:
        # how often each server tells the hub it was used (jupyterhub-singleuser; default 300 s)
        env["PE_HUB_ACTIVITY_INTERVAL"] = str(activity_interval)
    return env


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m explorer.serving.hub",
        description="Run JupyterHub on 127.0.0.1: one dashboard server per student (make hub).")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"the hub's public port on {HOST} (default {DEFAULT_PORT}; 0 = any free)")
    p.add_argument("--state", type=Path, default=HUB_DIR / "state",
                   help="folder of the hub's database, secrets and homes (default .hub/state)")
    p.add_argument("--users", type=Path, default=None,
                   help="the lecturer's list of names, one a line (default: any name)")
    p.add_argument("--active-server-limit", type=int, default=ACTIVE_SERVER_LIMIT,
                   help=f"servers running at once (default {ACTIVE_SERVER_LIMIT})")
    p.add_argument("--concurrent-spawn-limit", type=int, default=CONCURRENT_SPAWN_LIMIT,
                   help=f"servers starting at once (default {CONCURRENT_SPAWN_LIMIT})")
    p.add_argument("--cull-timeout", type=int, default=CULL_TIMEOUT,
                   help=f"stop a server idle this many seconds (default {CULL_TIMEOUT})")
    p.add_argument("--cull-every", type=int, default=CULL_EVERY,
                   help=f"seconds between the culler's sweeps (default {CULL_EVERY})")
    p.add_argument("--activity-interval", type=int, default=None, help=argparse.SUPPRESS)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    opts = parser.parse_args(argv)
    if not 0 <= opts.port <= 65535:
        parser.error(f"--port must be in 0..65535, not {opts.port}")
    for name in ("active_server_limit", "concurrent_spawn_limit", "cull_timeout", "cull_every"):
        if getattr(opts, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1, not "
                         f"{getattr(opts, name)}")
    if opts.users is not None and not opts.users.is_file():
        parser.error(f"no such list of users: {opts.users}")
    try:
        proxy = ensure_proxy()
    except RuntimeError as exc:
        print(f"make hub: {exc}", file=sys.stderr)
        return 1
    state = opts.state.resolve()
    state.mkdir(parents=True, exist_ok=True)
    try:
        password = class_password(state)
    except ValueError as exc:
        parser.error(str(exc))
    port = opts.port or free_port()
    env = hub_environment(
        state=state, port=port, api_port=free_port(), proxy_api_port=free_port(), proxy=proxy,
        active_server_limit=opts.active_server_limit,
        concurrent_spawn_limit=opts.concurrent_spawn_limit, cull_timeout=opts.cull_timeout,
        cull_every=opts.cull_every, users=opts.users, activity_interval=opts.activity_interval)
    env["PE_HUB_PASSWORD"] = password
    names = sorted(allowed_users(opts.users))
    print(f"Perceptron Explorer hub: http://{HOST}:{port}/ (class password: {password}; "
          + (f"{len(names)} names allowed" if names else "any name") + ")", flush=True)
    print(f"At most {opts.active_server_limit} servers running, {opts.concurrent_spawn_limit} "
          f"starting at once; idle servers stopped after {opts.cull_timeout} s. Ctrl-C stops.",
          flush=True)
    os.environ.update(env)
    # The checkout on the path of the hub and of every server it starts (also when not installed).
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(CHECKOUT), os.environ.get("PYTHONPATH", "")) if p)
    return run_hub([sys.executable, "-m", "jupyterhub", "-f", str(CONFIG_FILE)],
                   runtime=runtime_root(state), cwd=state)


if __name__ == "__main__":
    sys.exit(main())
