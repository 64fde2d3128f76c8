"""Kernels forked from the fork server (explorer/serving/forkserver.py) through jupyter_client's
provisioner API (explorer/serving/fork_provisioner.py): a real kernel, started, run, interrupted,
restarted and shut down as jupyter_server does, sharing the fork server's imports."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(os.name == "nt", reason="fork: POSIX only")
ROOT = Path(__file__).resolve().parent.parent


def _run_loop(main) -> None:
    """``asyncio.run(main())`` in a thread of its own: an earlier test may leave an event loop
    running in this one."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, main()).result()


def test_only_ipykernel_commands_are_forked():
    from explorer.serving.forkserver import kernel_args

    assert kernel_args(["/x/python", "-m", "ipykernel_launcher", "-f", "k.json"]) == ["-f", "k.json"]
    with pytest.raises(ValueError, match="expected a command running '-m ipykernel_launcher'"):
        kernel_args(["R", "--slave", "-f", "k.json"])
    with pytest.raises(ValueError, match="as a list of str"):
        kernel_args("python -m ipykernel_launcher")


def _private_and_rss_mb(pid: int) -> tuple[float, float]:
    fields = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        key, value = line.split(":", 1)
        fields[key] = int(value.split()[0]) / 1024
    return fields["Private_Clean"] + fields["Private_Dirty"], fields["Rss"]


async def _run(kc, code: str, timeout: float = 60) -> tuple[str, dict]:
    out = []
    reply = await kc.execute_interactive(
        code, timeout=timeout,
        output_hook=lambda m: out.append(m["content"].get("text", "")))
    return "".join(out), reply["content"]


async def _widget_states(kc, timeout: float = 30) -> dict:
    """Ask the kernel for every widget's state in one message, as the page does when it opens
    (ipywidgets' control comm); the answer's ``states``, or AssertionError if the comm is
    refused (the page then asks for each widget on its own)."""
    import uuid

    from ipywidgets._version import __control_protocol_version__

    comm_id = uuid.uuid4().hex
    for msg_type, content in (
            ("comm_open", {"comm_id": comm_id, "target_name": "jupyter.widget.control",
                           "data": {}}),
            ("comm_msg", {"comm_id": comm_id, "data": {"method": "request_states"}})):
        kc.shell_channel.send(kc.session.msg(
            msg_type, content, metadata={"version": __control_protocol_version__}))
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        assert left > 0, "no answer to request_states"
        msg = await kc.get_iopub_msg(timeout=left)
        content = msg["content"]
        if content.get("comm_id") != comm_id:
            continue
        assert msg["msg_type"] != "comm_close", "the kernel refused the widgets' control comm"
        if msg["msg_type"] == "comm_msg" and content["data"].get("method") == "update_states":
            return content["data"]["states"]


def test_a_forked_kernel_runs_is_interrupted_restarted_and_shut_down(tmp_path):
    """Everything jupyter_server asks of a kernel, with the provisioner Voila is given."""
    from jupyter_client import AsyncKernelManager

    from explorer.serving.fork_provisioner import FORK_SERVER, ForkedKernel, ForkProvisioner
    from explorer.serving.forkserver import fork_servers, server_kernels

    async def main():
        km = AsyncKernelManager(kernel_name="python3", transport="ipc")
        kc = None
        try:
            from jupyter_client.provisioning.factory import KernelProvisionerFactory

            factory = KernelProvisionerFactory.instance()
            before = factory.default_provisioner_name
            factory.default_provisioner_name = "explorer-fork-provisioner"
            try:
                await km.start_kernel(env={**os.environ, "PE_TEST": "forked"}, cwd=str(ROOT))
            finally:
                factory.default_provisioner_name = before
            assert isinstance(km.provisioner, ForkProvisioner)
            assert isinstance(km.provisioner.process, ForkedKernel)  # not the usual Popen
            pid = km.provisioner.pid
            kc = km.client()
            kc.start_channels()
            await kc.wait_for_ready(timeout=120)
            text, reply = await _run(kc, "import os, sys\n"
                                     "print(os.getpid(), os.getppid(), os.getpgid(0), os.getcwd(),"
                                     " os.environ['PE_TEST'], 'numpy' in sys.modules)")
            assert reply["status"] == "ok", reply
            got_pid, parent, group, cwd, env, numpy = text.split()
            assert int(got_pid) == pid and int(group) == pid  # its own session, as usual
            assert [int(parent)] == fork_servers(os.getpid()) == [FORK_SERVER.proc.pid]
            assert cwd == str(ROOT) and env == "forked"
            assert numpy == "True"  # imported by the fork server before the fork
            assert pid in server_kernels(os.getpid())  # found by its command line
            private, rss = _private_and_rss_mb(pid)
            assert private < 0.6 * rss, (private, rss)  # most of its memory is shared

            # a page asks for all widgets' states in one message (ipywidgets was imported
            # before the kernel existed, so its comm targets must still be registered)
            _, reply = await _run(kc, "import ipywidgets; s = ipywidgets.IntSlider(value=7)")
            assert reply["status"] == "ok", reply
            states = await _widget_states(kc)
            assert any(v["model_name"] == "IntSliderModel" and v["state"]["value"] == 7
                       for v in states.values()), states

            # an interrupt stops a long cell, and the kernel lives on
            # (interrupted once the cell runs: a fixed 2 s wait could interrupt a loaded
            # kernel before it started the cell, and the cell then ran its 60 s)
            started = asyncio.Event()

            def hook(msg):
                if "sleeping" in msg["content"].get("text", ""):
                    started.set()

            run = asyncio.ensure_future(kc.execute_interactive(
                "import time; print('sleeping', flush=True); time.sleep(60)", timeout=90,
                output_hook=hook))
            await asyncio.wait_for(started.wait(), 60)
            await km.interrupt_kernel()
            reply = (await asyncio.wait_for(run, 30))["content"]
            assert reply["status"] == "error" and reply["ename"] == "KeyboardInterrupt", reply
            assert await km.is_alive()

            # a restart gives a new forked kernel; the old one is gone
            await km.restart_kernel(now=True)
            assert km.provisioner.pid != pid and isinstance(km.provisioner.process, ForkedKernel)
            assert not Path(f"/proc/{pid}").exists() or _zombie(pid)
            kc.stop_channels()
            kc = km.client()
            kc.start_channels()
            await kc.wait_for_ready(timeout=120)
            text, _ = await _run(kc, "print(6 * 7)")
            assert text.strip() == "42"
            second = km.provisioner.pid
        finally:
            if kc is not None:
                kc.stop_channels()
            await km.shutdown_kernel(now=False)
        assert not await km.is_alive()
        assert second not in server_kernels(os.getpid())

    _run_loop(main)


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_a_bad_request_is_answered_and_the_fork_server_goes_on(tmp_path):
    from explorer.serving.fork_provisioner import ForkServer

    async def main():
        server = ForkServer()
        try:
            with pytest.raises(ValueError, match="expected cwd as an existing directory"):
                await server.fork([sys.executable, "-m", "ipykernel_launcher"], env={},
                                  cwd=str(tmp_path / "nowhere"))
            with pytest.raises(ValueError, match="'-m ipykernel_launcher'"):
                await server.fork(["R"], env={}, cwd=str(tmp_path))
            assert server.proc.poll() is None
        finally:
            server.stop()
        assert not Path(server.path).exists()

    _run_loop(main)


def test_the_fork_server_stops_when_its_server_is_gone(tmp_path):
    """A server killed outright (no atexit) leaves no fork server behind."""
    code = ("import asyncio, os, sys\n"
            "from explorer.serving.fork_provisioner import FORK_SERVER\n"
            "FORK_SERVER.start()\n"
            "print(FORK_SERVER.proc.pid, flush=True)\n"
            "asyncio.run(FORK_SERVER._ready())\n"
            "print('ready', flush=True)\n"
            "os.kill(os.getpid(), 9)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=240, env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT)
    pid, ready = proc.stdout.split()
    assert ready == "ready" and proc.returncode == -signal.SIGKILL, proc.stderr
    deadline = time.monotonic() + 15
    while Path(f"/proc/{pid}").exists() and not _zombie(int(pid)):
        assert time.monotonic() < deadline, "the fork server outlived its server"
        time.sleep(0.2)
