"""Kernels forked from one process that has imported everything once (POSIX only).

A dashboard kernel imports about 1800 modules (numpy, scipy, scikit-learn, matplotlib,
IPython, the widgets, the package) before it draws anything: about 3 s of one core and about
120 MB of memory that is the same in every kernel. The fork server does those imports once
(:data:`PRELOAD`), then forks a kernel for each request. A forked kernel starts in a fraction
of a second and shares the imported modules' memory pages with the fork server and with every
other kernel, copy-on-write: only what it changes afterwards is its own. Measured in
docs/performance.md ("kernel private memory").

:class:`~explorer.serving.fork_provisioner.ForkProvisioner` is the jupyter_client kernel
provisioner that asks this server for its kernels (``perceptron-explorer`` and its hall use it;
``--no-fork`` starts every kernel as its own process, the usual way).

The protocol: one request per connection on a Unix socket, a JSON line
``{"argv": [...], "env": {...}, "cwd": "..."}`` where ``argv`` is the kernel's command
(``python -m ipykernel_launcher -f <connection file>``); the answer is ``{"pid": n}`` or
``{"error": "..."}``. The child starts a new session (its own process group, as jupyter_client
starts kernels), takes the request's working directory and environment, names itself after the
command (so ``ps`` and the tools that look for kernels by their connection file see a kernel),
and runs ipykernel. The fork server reaps its children and stops when its parent (the server)
is gone.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import signal
import socket
import sys

#: What a dashboard kernel imports, done once here before any kernel is forked. Nothing here
#: may start a thread (a fork copies only the thread that forks).
PRELOAD = (
    "ipykernel.kernelapp", "ipykernel.ipkernel", "ipywidgets", "anywidget",
    "numpy", "scipy.optimize", "scipy.stats", "scipy.spatial", "sklearn.svm",
    "sklearn.model_selection", "sklearn.datasets", "sklearn.decomposition",
    "matplotlib.figure", "matplotlib.backends.backend_agg",
    "explorer.app.dashboard", "explorer.app.perceptron.view", "explorer.app.margins",
    "explorer.app.cover", "explorer.app.xor", "explorer.app.generalization",
    "explorer.shared.svm", "explorer.shared.separability", "explorer.xor.kernel_perceptron",
    "explorer.plots.export", "PIL.PngImagePlugin",
)
#: This module, as the fork server's command runs it (``python -m explorer.serving.forkserver``).
MODULE = "explorer.serving.forkserver"
#: The module a kernel command runs (``python -m ipykernel_launcher ...``).
LAUNCHER = "ipykernel_launcher"
#: The IPython extension that registers the widgets' comm targets in a forked kernel.
WIDGETS_EXTENSION = "ipywidgets"
#: Seconds between checks that the parent is still there.
PARENT_CHECK_S = 1.0
#: Longest request accepted (a kernel's environment is a few kB).
MAX_REQUEST_BYTES = 1 << 20


def kernel_args(argv: list[str]) -> list[str]:
    """The arguments after ``-m ipykernel_launcher`` in a kernel command.

    Raises ValueError for a command that does not run ipykernel's launcher (a fork runs only
    that: any other kernel is started the usual way).
    """
    if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
        raise ValueError(f"expected the kernel command as a list of str; got {argv!r}")
    for i in range(len(argv) - 1):
        if argv[i] == "-m" and argv[i + 1] == LAUNCHER:
            return argv[i + 2:]
    raise ValueError(f"expected a command running '-m {LAUNCHER}'; got {argv!r}")


def _reap(*_) -> None:
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def _read_request(conn: socket.socket) -> dict:
    data = b""
    while not data.endswith(b"\n"):
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
        if len(data) > MAX_REQUEST_BYTES:
            raise ValueError(f"a request is at most {MAX_REQUEST_BYTES} bytes")
    request = json.loads(data)
    if not isinstance(request, dict):
        raise ValueError(f"expected a JSON object; got {type(request).__name__}")
    env, cwd = request.get("env"), request.get("cwd")
    if not isinstance(env, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                            for k, v in env.items()):
        raise ValueError("expected env as an object of strings")
    if not isinstance(cwd, str) or not os.path.isdir(cwd):
        raise ValueError(f"expected cwd as an existing directory; got {cwd!r}")
    request["args"] = kernel_args(request.get("argv"))  # checked here, used by the child
    return request


def _run_kernel(request: dict, listener: socket.socket) -> None:
    """In the forked child: become the kernel the request asks for (never returns)."""
    code = 1
    try:
        listener.close()
        for sig in (signal.SIGCHLD, signal.SIGTERM):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.setsid()
        argv = request["argv"]
        with contextlib.suppress(ImportError):  # before the environment changes: it moves it
            from setproctitle import setproctitle

            setproctitle(" ".join(argv))
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        # ipykernel read JPY_PARENT_PID when the fork server imported it: the parent it
        # watches (it exits when that parent is gone) is named here, this fork server
        # ipywidgets registers its comm targets when imported inside a kernel; here it was
        # imported before there was one, so the kernel registers them as an IPython extension
        # (without them the page cannot ask for every widget's state in one message and asks
        # for each widget on its own, one round trip per widget)
        sys.argv = [LAUNCHER, *request["args"], f"--IPKernelApp.parent_handle={os.getppid()}",
                    f"--IPKernelApp.extensions={WIDGETS_EXTENSION}"]
        from ipykernel import kernelapp

        kernelapp.launch_new_instance()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0
    except BaseException:  # noqa: BLE001 - a kernel that fails says why on stderr and exits
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def serve(path: str) -> None:
    """Import :data:`PRELOAD`, then fork a kernel for each request on the socket ``path``."""
    parent = os.getppid()
    for name in PRELOAD:
        importlib.import_module(name)
    gc.collect()
    gc.freeze()  # the collector leaves the preloaded objects alone: their pages stay shared
    signal.signal(signal.SIGCHLD, _reap)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops this
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    listener.bind(path + ".new")
    os.rename(path + ".new", path)  # ready when the socket appears
    listener.listen(64)
    listener.settimeout(PARENT_CHECK_S)
    while os.getppid() == parent:
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            continue
        with conn:
            conn.settimeout(10)
            try:
                request = _read_request(conn)
            except (ValueError, OSError) as exc:
                with contextlib.suppress(OSError):
                    conn.sendall(json.dumps({"error": str(exc)}).encode() + b"\n")
                continue
            pid = os.fork()
            if pid == 0:
                conn.close()
                _run_kernel(request, listener)
            with contextlib.suppress(OSError):
                conn.sendall(json.dumps({"pid": pid}).encode() + b"\n")
    with contextlib.suppress(OSError):
        os.unlink(path)


def stat_fields(pid: int | str) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the command's name (the state first, then the
    parent's pid, ...), or None if there is no such process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].decode("ascii", "replace").split()
    except (OSError, IndexError):
        return None


def _processes() -> dict[int, tuple[int, str]]:
    """``{pid: (parent pid, command line)}`` of every process, from /proc."""
    out = {}
    for d in os.scandir("/proc"):
        if not d.name.isdigit():
            continue
        fields = stat_fields(d.name)
        if fields is None:
            continue
        try:
            ppid = int(fields[1])
            with open(f"/proc/{d.name}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except (OSError, ValueError, IndexError):
            continue
        out[int(d.name)] = (ppid, cmd)
    return out


def server_kernels(server_pid: int) -> list[int]:
    """Pids of the kernels a server runs: its children running ipykernel's launcher, and the
    kernels its fork server forked (they carry the kernel's command line). A kernel's own
    subprocesses are not kernels, even while, between fork and exec, they carry its command
    line."""
    procs = _processes()
    parents = {server_pid, *fork_servers(server_pid, procs=procs)}
    return sorted(pid for pid, (ppid, cmd) in procs.items() if ppid in parents and LAUNCHER in cmd)


def fork_servers(server_pid: int, *, procs: dict | None = None) -> list[int]:
    """Pids of the fork servers a server started (one, or none with ``--no-fork``)."""
    procs = _processes() if procs is None else procs
    return sorted(pid for pid, (ppid, cmd) in procs.items()
                  if ppid == server_pid and MODULE in cmd)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m explorer.serving.forkserver SOCKET_PATH")
    serve(sys.argv[1])
