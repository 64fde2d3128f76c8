"""A jupyter_client kernel provisioner that forks kernels from the fork server (POSIX only).

``perceptron-explorer`` names it as the default provisioner of its kernels
(``--KernelProvisionerFactory.default_provisioner_name``, see
:func:`explorer.serving.serve.voila_args`); jupyter_client finds it by the entry point
``explorer-fork-provisioner`` (pyproject.toml). It is jupyter_client's local provisioner
with one change: the kernel process comes from :mod:`explorer.serving.forkserver`, started
the first time a kernel is asked for and shared by every kernel of this server. Everything
else (connection files, signals to the kernel's process group, interrupts, restarts, shutdown)
is the local provisioner's. If the fork server cannot give a kernel, the kernel is started the
usual way and the log says why.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from jupyter_client.provisioning import LocalProvisioner

from .forkserver import MODULE, stat_fields

#: Seconds the fork server may take to import everything before it answers.
STARTUP_S = 180.0
#: Seconds a fork may take to be answered.
FORK_S = 30.0


def _stat(pid: int) -> tuple[str, int] | None:
    """``(state, start time)`` of a process from /proc, or None if there is none."""
    fields = stat_fields(pid)
    return None if fields is None else (fields[0], int(fields[19]))


class ForkedKernel:
    """What jupyter_client asks of a kernel's ``Popen``, for a kernel forked by the fork
    server: it is that server's child, not ours, so it is watched through /proc (its start
    time tells it from a later process given the same pid)."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int):
        self.pid = pid
        self.returncode: int | None = None
        stat = _stat(pid)
        self._started = stat[1] if stat is not None else None
        self._signal = 0

    def poll(self) -> int | None:
        if self.returncode is None:
            stat = _stat(self.pid)
            if stat is None or stat[0] in ("Z", "X") or stat[1] != self._started:
                # the fork server reaped it: its status is not ours to read
                self.returncode = -self._signal
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"kernel {self.pid}", timeout)
            time.sleep(0.05)
        return self.returncode

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signum)
                if signum in (signal.SIGKILL, signal.SIGTERM):
                    self._signal = signum

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


class ForkServer:
    """The fork server of this process (one for all its kernels), started when first needed
    and started again if it has died."""

    def __init__(self):
        self.proc: subprocess.Popen | None = None
        self.path: str | None = None
        self._lock: asyncio.Lock | None = None

    async def fork(self, argv: list[str], *, env: dict[str, str], cwd: str) -> int:
        """A kernel running ``argv`` forked with ``env`` in ``cwd``: its pid."""
        path = await self._ready()
        reader, writer = await asyncio.open_unix_connection(path)
        try:
            writer.write(json.dumps({"argv": argv, "env": env, "cwd": cwd}).encode() + b"\n")
            await writer.drain()
            line = await asyncio.wait_for(reader.readline(), FORK_S)
        finally:
            writer.close()
        reply = json.loads(line or b"{}")
        if "pid" not in reply:
            raise ValueError(reply.get("error", "the fork server closed the connection"))
        return int(reply["pid"])

    def start(self) -> None:
        """Start the fork server now, if it is not running (it imports for a few seconds:
        ``perceptron-explorer`` starts it with the server, before any page asks)."""
        if self.proc is None or self.proc.poll() is not None:
            self._start()

    async def _ready(self) -> str:
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            self.start()
            deadline = time.monotonic() + STARTUP_S
            while not os.path.exists(self.path):
                if self.proc.poll() is not None:
                    raise OSError(f"the fork server exited with code {self.proc.returncode}")
                if time.monotonic() > deadline:
                    raise OSError(f"the fork server did not start within {STARTUP_S:.0f} s")
                await asyncio.sleep(0.05)
            return self.path

    def _start(self) -> None:
        self.stop()
        self.path = os.path.join(tempfile.mkdtemp(prefix="pe-fork-"), "kernels.sock")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", MODULE, self.path],
            stdin=subprocess.DEVNULL, env=dict(os.environ))

    def stop(self) -> None:
        """Stop the fork server (its kernels are jupyter_server's to stop) and remove its
        socket."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(5)
        if self.path is not None:
            shutil.rmtree(os.path.dirname(self.path), ignore_errors=True)


#: The fork server of this process.
FORK_SERVER = ForkServer()
atexit.register(FORK_SERVER.stop)


class ForkProvisioner(LocalProvisioner):
    """jupyter_client's local provisioner, its kernels forked by :data:`FORK_SERVER`."""

    async def launch_kernel(self, cmd: list[str], **kwargs):
        env = dict(kwargs.get("env") or os.environ)
        cwd = str(kwargs.get("cwd") or os.getcwd())
        try:
            pid = await FORK_SERVER.fork(list(cmd), env=env, cwd=cwd)
        except (OSError, ValueError, asyncio.TimeoutError) as exc:
            self.log.warning("The fork server gave no kernel (%s): starting it the usual way",
                             exc)
            return await super().launch_kernel(cmd, **kwargs)
        self.process = ForkedKernel(pid)
        self.pid = pid
        self.pgid = pid  # the kernel starts a new session: its process group is its pid
        self.cwd = cwd
        return self.connection_info


__all__ = ["FORK_SERVER", "ForkProvisioner", "ForkServer", "ForkedKernel"]
