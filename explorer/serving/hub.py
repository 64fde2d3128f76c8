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
import subprocess
import sys
import tempfile
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


def runtime_dir(spawner) -> str:
    """The user's Jupyter runtime folder (connection files, and with ``KernelManager.transport``
    = ``ipc`` the kernels' Unix sockets): a short path under the temporary folder, since a
    socket's path may not exceed 107 bytes and the home folder may be deep. One folder per hub
    (its state folder) and user id; a value of ``Spawner.environment`` (called with the spawner)."""
    state = hashlib.sha1(str(Path(spawner.home_dir).parents[1]).encode()).hexdigest()[:8]
    return str(Path(tempfile.gettempdir()) / f"pe-hub-{state}" / str(spawner.user.id))


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
    os.chdir(state)
    os.execv(sys.executable, [sys.executable, "-m", "jupyterhub", "-f", str(CONFIG_FILE)])


if __name__ == "__main__":
    sys.exit(main())
