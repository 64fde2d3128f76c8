"""Serve the Perceptron Explorer dashboard with Voila: the ``perceptron-explorer`` command.

    perceptron-explorer [--port 8866]      # --port 0 picks a free port

Voila runs in this process (:class:`explorer.serving.page.ExplorerVoila`), on 127.0.0.1 only,
never opens a browser; a page that is left asks for its kernel to be shut down (accepted: see
:mod:`explorer.serving.page`), and kernels idle with no page connected (a page closed without that
request) are culled after ten minutes. The kernel is this environment's
``python3`` ipykernel: jupyter_client runs a kernelspec whose command is plain ``python`` with
``sys.executable``, and ``JUPYTER_PREFER_ENV_PATH=1`` makes the environment's kernelspec win over a
user-wide one.

A room of students (``make hall``)::

    perceptron-explorer --hall [--max-pages 60] [--preheat 4]

serves the same dashboard from one shared server for a lecture hall (see docs/serving.md):
kernels preheated in a pool, a page whose tab is closed gives its kernel back at once (its
shutdown request), or within about a minute and a half when that request is lost (cull kernels
with no page connected after 60 s of quiet, checked every 15 s),
and past ``--max-pages`` open pages a visitor gets a short "the room is full" page, not a new
kernel (:mod:`explorer.serving.hall`). Tracebacks are never sent to the page, in either mode.

Hidden options, for tests and trials: ``--notebook PATH`` serves another notebook, ``--dry-run``
prints the Voila command line instead of running it, ``--cull-idle-timeout``/``--cull-interval``
change the culling (seconds).
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import os
import re
import secrets
import shlex
import socket
import sys
from pathlib import Path

HOST = "127.0.0.1"
#: --base-url: "/" or "/a/b/" of plain path segments
BASE_URL = re.compile(r"/(?:[A-Za-z0-9._-]+/)*")
DEFAULT_PORT = 8866
CULL_IDLE_TIMEOUT = 600  # seconds a kernel may sit idle with no page connected
CULL_INTERVAL = 60  # seconds between culling sweeps
DASHBOARD = "dashboard.ipynb"
# Lecture hall (--hall): a page closed frees its kernel within HALL_CULL_IDLE + HALL_CULL_INTERVAL.
HALL_MAX_PAGES = 60
HALL_PREHEAT = 4
HALL_CULL_IDLE_TIMEOUT = 60
HALL_CULL_INTERVAL = 15
#: The kernel provisioner that forks kernels (entry point in pyproject.toml).
FORK_PROVISIONER = "explorer-fork-provisioner"
#: The page's Voila template, found through JUPYTER_PATH (:data:`TEMPLATES`).
TEMPLATE = "explorer"
#: The Jupyter data folder that holds it (``voila/templates/explorer``).
TEMPLATES = Path(__file__).parent / "jupyter"
#: The kernel websocket connection with Nagle's algorithm off (explorer.serving.nodelay).
NODELAY_CONNECTION = "explorer.serving.nodelay.NoDelayConnection"
# One BLAS/OpenMP thread per kernel: sixty kernels on two cores must not each start a pool.
HALL_KERNEL_ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


DASHBOARD_CELLS = (
    ("code", "from explorer.app import dashboard\n\ndashboard()"),
)


def jupyter_path(existing: str = "") -> str:
    """``JUPYTER_PATH`` with this package's Jupyter data folder (:data:`TEMPLATES`, where
    Voila finds the page's template) first, then ``existing``."""
    return os.pathsep.join(p for p in (str(TEMPLATES), existing) if p)


def install_template(prefix: str | Path) -> list[Path]:
    """Make the Voila of the Jupyter server of the environment at ``prefix`` (its server
    extension: ``/voila/render/...`` on Binder, see binder/postBuild) render with the dashboard's
    template: copy :data:`TEMPLATE` into ``prefix/share/jupyter/voila/templates``, where Voila
    looks, and name it in ``prefix/etc/jupyter/voila.json``, the configuration file Voila's
    server extension reads (kept, if there is one, but for the template). Returns the two paths
    written."""
    import json
    import shutil

    prefix = Path(prefix)
    folder = prefix / "share" / "jupyter" / "voila" / "templates" / TEMPLATE
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(TEMPLATES / "voila" / "templates" / TEMPLATE, folder)
    config = prefix / "etc" / "jupyter" / "voila.json"
    settings = json.loads(config.read_text()) if config.is_file() else {}
    settings.setdefault("VoilaConfiguration", {})["template"] = TEMPLATE
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps(settings, indent=2) + "\n")
    return [folder, config]


def _write_notebook(path: Path, cells) -> Path:
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(src) if kind == "markdown" else
                nbformat.v4.new_code_cell(src) for kind, src in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


def _cache_dir() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "perceptron-explorer"


def find_hall_dashboard() -> Path:
    """The dashboard notebook for ``--hall``: the same page, split so a preheated kernel does
    the imports ahead of time and builds the page from the visitor's link (explorer.serving.hall)."""
    from .hall import HALL_CELLS

    return _write_notebook(_cache_dir() / "hall" / DASHBOARD, HALL_CELLS)


def find_dashboard() -> Path:
    """Locate ``dashboard.ipynb``: the source checkout first; after a plain ``pip install``
    (no checkout), write the same two-cell notebook to a cache folder and serve that."""
    here = Path(__file__).resolve().parent
    checkout = here.parents[1] / "notebooks" / DASHBOARD
    if checkout.is_file():
        return checkout
    return _write_notebook(_cache_dir() / DASHBOARD, DASHBOARD_CELLS)


def public_host(ip: str) -> str:
    """The address to print for a server listening on ``ip``: this machine's address on its
    network when it listens on every interface (no packet is sent to find it)."""
    if ipaddress.ip_address(ip).is_unspecified:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect(("10.255.255.255", 1))  # a UDP "connect" only picks the route
                return s.getsockname()[0]
        except OSError:
            return socket.gethostname()
    return ip


def free_port(host: str = HOST) -> int:
    """A TCP port on ``host`` that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def port_is_free(port: int, host: str = HOST) -> bool:
    """Whether a server could listen on ``host:port`` now. Like the server itself, the check
    uses SO_REUSEADDR, so connections of a dashboard just stopped (TIME_WAIT) do not count."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                return False
            raise
    return True


def kernel_settings(*, cull_idle_timeout: int, cull_interval: int) -> dict[str, object]:
    """The settings of the dashboard's pages and kernels, as ``{"Class.trait": value}``: the same
    whichever way it is served (``perceptron-explorer``, the hall, each user's server under
    JupyterHub: explorer/serving/jupyterhub_config.py).

    A kernel with no page connected and quiet for ``cull_idle_timeout`` seconds is shut down (the
    culler looks every ``cull_interval`` s); a kernel whose page is open is never culled.
    """
    settings: dict[str, object] = {
        "VoilaConfiguration.theme": "light",
        "VoilaConfiguration.strip_sources": True,
        "MappingKernelManager.cull_idle_timeout": cull_idle_timeout,
        "MappingKernelManager.cull_interval": cull_interval,
        # Kernels with a page connected are never culled: an open page keeps its kernel.
        "MappingKernelManager.cull_connected": False,
        # Voila's default, stated: a failing cell shows a short notice, never a traceback.
        "VoilaConfiguration.show_tracebacks": False,
    }
    if os.name != "nt":
        # Kernels talk to the server over Unix sockets named after their connection file, not
        # TCP ports: two kernels started at once can never pick the same port (jupyter_client
        # finds free ports, then binds them later), and no port is open to other users.
        settings["KernelManager.transport"] = "ipc"
    return settings


def voila_args(
    notebook: Path,
    port: int,
    *,
    cull_idle_timeout: int = CULL_IDLE_TIMEOUT,
    cull_interval: int = CULL_INTERVAL,
    max_pages: int | None = None,
    preheat: int = 0,
    max_starting: int | None = None,
    max_per_address: int = 0,
    fork: bool = True,
    ip: str = HOST,
    base_url: str = "/",
) -> list[str]:
    """Arguments for Voila 0.5 (``python -m explorer.serving.page``, Voila with the page handler
    of :mod:`explorer.serving.page`) that serve ``notebook`` on ``HOST:port``.

    With ``fork`` (not on Windows) every kernel is forked from one process that has imported
    everything once (:mod:`explorer.serving.forkserver`): kernels start in a fraction of a
    second and share the imported modules' memory.

    ``max_pages`` (lecture hall: not None) adds the options of :class:`explorer.serving.hall.HallVoila`
    (``python -m explorer.serving.hall``): at most that many pages open (0 = no cap). ``preheat`` > 0
    keeps that many kernels started and the notebook's imports done, ready for the next page.
    ``max_starting`` (default: the hall's, one per core and at least 2) kernels may start at
    once; ``max_per_address`` > 0 limits the places one client address may hold. ``ip`` is
    the address listened on (``0.0.0.0``: every interface) and ``base_url`` the path the pages
    are served under (``/perceptron/`` behind a proxy that forwards that path).
    """
    args = [
        str(notebook),
        "--no-browser",
        f"--Voila.ip={ip}",
        f"--port={port}",
        # We chose the port (and checked it is free): never let Voila wander to another one,
        # or the URL we print would be wrong.
        "--Voila.port_retries=0",
        # Voila's "lab" page without stylesheets from the internet (serving/jupyter/voila/...)
        f"--VoilaConfiguration.template={TEMPLATE}",
        # each kernel message to the page is sent at once, not held for the page's next one
        f"--Voila.kernel_websocket_connection_class={NODELAY_CONNECTION}",
    ]
    args += [f"--{name}={value}" for name, value in
             kernel_settings(cull_idle_timeout=cull_idle_timeout, cull_interval=cull_interval).items()]
    if fork and os.name != "nt":
        args.append(f"--KernelProvisionerFactory.default_provisioner_name={FORK_PROVISIONER}")
    if base_url != "/":  # behind a reverse proxy at a path (docs/serving.md)
        args.append(f"--Voila.base_url={base_url}")
    if preheat > 0:
        args += ["--VoilaConfiguration.preheat_kernel=True",
                 f"--VoilaConfiguration.default_pool_size={preheat}"]
    if max_pages is not None:
        if max_starting is not None:
            args.append(f"--HallVoila.max_starting={max_starting}")
        if max_per_address:
            args.append(f"--HallVoila.max_per_address={max_per_address}")
        args += [f"--HallVoila.max_pages={max_pages}",
                 # cull closed pages' kernels together, not one by one (explorer.serving.hall)
                 "--VoilaConfiguration.multi_kernel_manager_class="
                 "explorer.serving.hall.HallKernelManager"]
    return args


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="perceptron-explorer",
        description="Serve the Perceptron Explorer dashboard (Voila), on 127.0.0.1 unless --ip says.",
    )
    p.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"TCP port on {HOST} (default {DEFAULT_PORT}; 0 picks a free port)",
    )
    p.add_argument(
        "--ip",
        default=HOST,
        help=f"address to listen on (default {HOST}, this machine only; 0.0.0.0 serves every "
        "network interface: put a reverse proxy with TLS in front, docs/serving.md)",
    )
    p.add_argument(
        "--base-url",
        default="/",
        help="path the dashboard is served under, e.g. /perceptron/ behind a reverse proxy "
        "(default /)",
    )
    p.add_argument(
        "--hall",
        action="store_true",
        help="serve a lecture hall from this one server: preheated kernels, a cap on open "
        "pages, kernels of closed pages freed within ~75 s (docs/serving.md)",
    )
    p.add_argument(
        "--max-pages",
        type=int,
        default=HALL_MAX_PAGES,
        help=f"with --hall: most pages open at once, 0 = no cap (default {HALL_MAX_PAGES})",
    )
    p.add_argument(
        "--preheat",
        type=int,
        default=HALL_PREHEAT,
        help=f"with --hall: kernels kept started ahead of visitors (default {HALL_PREHEAT})",
    )
    p.add_argument(
        "--max-starting",
        type=int,
        default=None,
        help="with --hall: most visitors' kernels starting at once (default: one per core, at "
        "least 2); the next visitor gets a page that tries again by itself",
    )
    p.add_argument(
        "--max-per-address",
        type=int,
        default=0,
        help="with --hall: most pages one client address may open, 0 = no limit (default; a "
        "room behind one NAT shares an address)",
    )
    p.add_argument(
        "--no-fork",
        action="store_true",
        help="start each page's kernel as a process of its own, importing everything (by "
        "default kernels are forked from one process that imported everything once: faster "
        "starts, about 100 MB less memory a page)",
    )
    p.add_argument("--notebook", type=Path, default=None, help=argparse.SUPPRESS)
    p.add_argument("--dry-run", action="store_true", help=argparse.SUPPRESS)
    hidden = argparse.SUPPRESS
    p.add_argument("--cull-idle-timeout", type=int, default=None, help=hidden)
    p.add_argument("--cull-interval", type=int, default=None, help=hidden)
    return p


def _checked(parser, opts):
    """The notebook to serve, once the options are in range (else ``parser.error`` exits
    with a message naming the option)."""
    if opts.notebook is not None:
        notebook = opts.notebook.resolve()
        if not notebook.is_file():
            parser.error(f"no such notebook: {notebook}")
    elif opts.hall:
        notebook = find_hall_dashboard()
    else:
        try:
            notebook = find_dashboard()
        except FileNotFoundError as exc:
            parser.error(str(exc))

    if not 0 <= opts.port <= 65535:
        parser.error(f"--port must be in 0..65535, not {opts.port}")
    try:
        opts.ip = str(ipaddress.ip_address(opts.ip))
    except ValueError:
        parser.error(f"--ip must be an IP address such as 127.0.0.1 or 0.0.0.0, not {opts.ip!r}")
    if not BASE_URL.fullmatch(opts.base_url):
        parser.error("--base-url must be a path that starts and ends with '/' (letters, digits, "
                     f"'-', '_', '.'), such as /perceptron/; not {opts.base_url!r}")
    if opts.hall and not 0 <= opts.max_pages <= 1000:
        parser.error(f"--max-pages must be in 0..1000 (0 = no cap), not {opts.max_pages}")
    if opts.hall and not 0 <= opts.preheat <= 50:
        parser.error(f"--preheat must be in 0..50, not {opts.preheat}")
    if opts.hall and opts.max_pages and opts.preheat > opts.max_pages:
        parser.error(f"--preheat ({opts.preheat}) must not exceed --max-pages "
                     f"({opts.max_pages}): preheated kernels take places too")
    if opts.hall and opts.max_starting is not None and not 1 <= opts.max_starting <= 100:
        parser.error(f"--max-starting must be in 1..100, not {opts.max_starting}")
    if opts.hall and not 0 <= opts.max_per_address <= 1000:
        parser.error(f"--max-per-address must be in 0..1000 (0 = no limit), not "
                     f"{opts.max_per_address}")
    return notebook


def _announce(opts, notebook, port: int, *, idle: int, interval: int,
              key: str = "") -> None:
    """Set the environment the server and its kernels read, and say where it serves."""
    # The kernel must be this environment's ipykernel (see module docstring).
    os.environ["JUPYTER_PREFER_ENV_PATH"] = "1"
    # the page's template (TEMPLATE) is found in this package's Jupyter data folder
    os.environ["JUPYTER_PATH"] = jupyter_path(os.environ.get("JUPYTER_PATH", ""))
    if opts.hall:
        for name, value in HALL_KERNEL_ENV.items():
            os.environ.setdefault(name, value)

    url = f"http://{public_host(opts.ip)}:{port}{opts.base_url}"
    print(f"Perceptron Explorer: serving {notebook.name} at {url}", flush=True)
    if not ipaddress.ip_address(opts.ip).is_loopback:
        print(f"perceptron-explorer: listening on {opts.ip}, not this machine only: anyone on "
              "the network can open the dashboard, without TLS. In front of a room, put a "
              "reverse proxy with TLS before it (docs/serving.md).", file=sys.stderr, flush=True)
    if opts.hall:
        cap = f"at most {opts.max_pages} pages" if opts.max_pages else "no cap on pages"
        print(f"Lecture hall: {cap}, {opts.preheat} kernels preheated, kernels of closed "
              f"pages freed after {idle} s (checked every {interval} s); status at "
              f"{url}hall/status", flush=True)
        print(f"Present (yours alone, keep it secret): {url}present?key={key}", flush=True)
        print(f"Students follow at: {url}follow", flush=True)
    print("Press Ctrl-C to stop.", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    opts = parser.parse_args(argv)

    notebook = _checked(parser, opts)
    idle = opts.cull_idle_timeout
    interval = opts.cull_interval
    if idle is None:
        idle = HALL_CULL_IDLE_TIMEOUT if opts.hall else CULL_IDLE_TIMEOUT
    if interval is None:
        interval = HALL_CULL_INTERVAL if opts.hall else CULL_INTERVAL
    port = opts.port or free_port(opts.ip)
    args = voila_args(
        notebook, port, cull_idle_timeout=idle, cull_interval=interval,
        max_pages=opts.max_pages if opts.hall else None,
        preheat=opts.preheat if opts.hall else 0,
        max_starting=opts.max_starting if opts.hall else None,
        max_per_address=opts.max_per_address if opts.hall else 0,
        fork=not opts.no_fork,
        ip=opts.ip,
        base_url=opts.base_url,
    )
    module = "explorer.serving.hall" if opts.hall else "explorer.serving.page"

    if opts.dry_run:
        print(shlex.join([sys.executable, "-m", module, *args]))
        return 0

    if not port_is_free(port, opts.ip):
        print(
            f"perceptron-explorer: port {port} on {opts.ip} is in use; "
            "pick another with --port N, or --port 0 for any free one",
            file=sys.stderr,
        )
        return 1

    # The lecture's presenter key (explorer.serving.lecture_web): PE_PRESENTER_KEY keeps one
    # across restarts; it reaches the server by its constructor, never a command line.
    key = (os.environ.pop("PE_PRESENTER_KEY", "") or secrets.token_urlsafe(18)) if opts.hall else ""
    _announce(opts, notebook, port, idle=idle, interval=interval, key=key)

    if not opts.no_fork and os.name != "nt":
        # the fork server imports while Voila starts: the first page need not wait for it
        from .fork_provisioner import FORK_SERVER

        FORK_SERVER.start()

    # Imported late: they pull in Voila, jupyter_server and tornado.
    if opts.hall:
        from .hall import HallVoila as App
    else:
        from .page import ExplorerVoila as App

    App.launch_instance(argv=args, **({"presenter_key": key} if opts.hall else {}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
