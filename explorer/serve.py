"""Serve the Perceptron Explorer dashboard with Voila: the ``perceptron-explorer`` command.

    perceptron-explorer [--port 8866]      # --port 0 picks a free port

Voila runs in this process, on 127.0.0.1 only, never opens a browser, and culls kernels that have
been idle (no running cell, no open page) for ten minutes. The kernel is this environment's
``python3`` ipykernel: jupyter_client runs a kernelspec whose command is plain ``python`` with
``sys.executable``, and ``JUPYTER_PREFER_ENV_PATH=1`` makes the environment's kernelspec win over a
user-wide one.

Hidden options, for tests and trials: ``--notebook PATH`` serves another notebook, ``--dry-run``
prints the Voila command line instead of running it, ``--cull-idle-timeout``/``--cull-interval``
change the culling (seconds).
"""

from __future__ import annotations

import argparse
import errno
import os
import shlex
import socket
import sys
from pathlib import Path

HOST = "127.0.0.1"
DEFAULT_PORT = 8866
CULL_IDLE_TIMEOUT = 600  # seconds a kernel may sit idle with no page connected
CULL_INTERVAL = 60  # seconds between culling sweeps
DASHBOARD = "dashboard.ipynb"


DASHBOARD_CELLS = (
    ("code", "%matplotlib widget\nfrom explorer.app import dashboard\n\ndashboard()"),
)


def find_dashboard() -> Path:
    """Locate ``dashboard.ipynb``: the source checkout first; after a plain ``pip install``
    (no checkout), write the same two-cell notebook to a cache folder and serve that."""
    here = Path(__file__).resolve().parent
    checkout = here.parent / "notebooks" / DASHBOARD
    if checkout.is_file():
        return checkout
    import nbformat

    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "perceptron-explorer"
    cache.mkdir(parents=True, exist_ok=True)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(src) if kind == "markdown" else
                nbformat.v4.new_code_cell(src) for kind, src in DASHBOARD_CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    path = cache / DASHBOARD
    nbformat.write(nb, path)
    return path


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


def voila_args(
    notebook: Path,
    port: int,
    *,
    cull_idle_timeout: int = CULL_IDLE_TIMEOUT,
    cull_interval: int = CULL_INTERVAL,
) -> list[str]:
    """Arguments for ``python -m voila`` (Voila 0.5) that serve ``notebook`` on ``HOST:port``."""
    return [
        str(notebook),
        "--no-browser",
        f"--Voila.ip={HOST}",
        f"--port={port}",
        # We chose the port (and checked it is free): never let Voila wander to another one,
        # or the URL we print would be wrong.
        "--Voila.port_retries=0",
        "--theme=light",
        "--strip_sources=True",
        f"--MappingKernelManager.cull_idle_timeout={cull_idle_timeout}",
        f"--MappingKernelManager.cull_interval={cull_interval}",
    ]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="perceptron-explorer",
        description="Serve the Perceptron Explorer dashboard (Voila) on 127.0.0.1.",
    )
    p.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"TCP port on {HOST} (default {DEFAULT_PORT}; 0 picks a free port)",
    )
    p.add_argument("--notebook", type=Path, default=None, help=argparse.SUPPRESS)
    p.add_argument("--dry-run", action="store_true", help=argparse.SUPPRESS)
    hidden = argparse.SUPPRESS
    p.add_argument("--cull-idle-timeout", type=int, default=CULL_IDLE_TIMEOUT, help=hidden)
    p.add_argument("--cull-interval", type=int, default=CULL_INTERVAL, help=hidden)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    opts = parser.parse_args(argv)

    if opts.notebook is not None:
        notebook = opts.notebook.resolve()
        if not notebook.is_file():
            parser.error(f"no such notebook: {notebook}")
    else:
        try:
            notebook = find_dashboard()
        except FileNotFoundError as exc:
            parser.error(str(exc))

    if not 0 <= opts.port <= 65535:
        parser.error(f"--port must be in 0..65535, not {opts.port}")
    port = opts.port or free_port()
    args = voila_args(
        notebook, port, cull_idle_timeout=opts.cull_idle_timeout, cull_interval=opts.cull_interval
    )

    if opts.dry_run:
        print(shlex.join([sys.executable, "-m", "voila", *args]))
        return 0

    if not port_is_free(port):
        print(
            f"perceptron-explorer: port {port} on {HOST} is in use; "
            "pick another with --port N, or --port 0 for any free one",
            file=sys.stderr,
        )
        return 1

    # The kernel must be this environment's ipykernel (see module docstring).
    os.environ["JUPYTER_PREFER_ENV_PATH"] = "1"

    url = f"http://{HOST}:{port}/"
    print(f"Perceptron Explorer: serving {notebook.name} at {url}", flush=True)
    print("Press Ctrl-C to stop.", flush=True)

    from voila.app import Voila  # imported late: it pulls in jupyter_server and tornado

    Voila.launch_instance(argv=args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
