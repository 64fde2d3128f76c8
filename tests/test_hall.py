"""Lecture-hall serving (``perceptron-explorer --hall``): its Voila options, the cap on pages
with its "room is full" page, and no traceback on a page whose notebook fails."""

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import nbformat
import pytest

from explorer import serve

ROOT = Path(__file__).resolve().parents[1]


def _dry(capsys, *argv):
    assert serve.main(["--port", "9123", "--dry-run", *argv]) == 0
    return capsys.readouterr().out.split()


def test_hall_options_reach_voila(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    args = _dry(capsys, "--hall", "--max-pages", "7", "--preheat", "3")
    assert args[1:3] == ["-m", "explorer.hall"]
    assert "--HallVoila.max_pages=7" in args
    assert "--VoilaConfiguration.multi_kernel_manager_class=explorer.hall.HallKernelManager" in args
    assert "--VoilaConfiguration.preheat_kernel=True" in args
    assert "--VoilaConfiguration.default_pool_size=3" in args
    assert "--VoilaConfiguration.show_tracebacks=False" in args
    assert "--MappingKernelManager.cull_connected=False" in args
    # A closed page frees its kernel within idle timeout + interval: well inside 2 minutes.
    idle = int(next(a for a in args if "cull_idle_timeout=" in a).split("=")[1])
    every = int(next(a for a in args if "cull_interval=" in a).split("=")[1])
    assert idle + every <= 90
    # The hall notebook: imports first (preheated), the page after the visitor's request.
    nb = nbformat.read(args[3], as_version=4)
    assert "wait_for_request()" in nb.cells[1].source and "dashboard()" in nb.cells[1].source
    assert "import" in nb.cells[0].source and "dashboard()" not in nb.cells[0].source


def test_default_mode_keeps_its_options(capsys):
    args = _dry(capsys)
    assert args[1:3] == ["-m", "voila"]
    assert "--MappingKernelManager.cull_idle_timeout=600" in args
    assert not any("preheat" in a or "HallVoila" in a for a in args)
    assert "--VoilaConfiguration.show_tracebacks=False" in args


def test_bad_hall_numbers_are_refused(capsys):
    with pytest.raises(SystemExit):
        serve.main(["--hall", "--max-pages", "-1", "--dry-run"])
    assert "--max-pages must be in 0..1000" in capsys.readouterr().err


def _get(url, timeout=120):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read().decode("utf-8", "replace"), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace"), dict(e.headers)


@pytest.fixture
def capped_server(tmp_path):
    """A hall server with a cap of one page, serving a small notebook whose cell fails."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("print('hall page up')"),
                nbformat.v4.new_code_cell("raise ValueError('secret internals 42')")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    path = tmp_path / "failing.ipynb"
    nbformat.write(nb, path)
    port = serve.free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    log = open(tmp_path / "server.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "explorer.serve", "--hall", "--port", str(port), "--notebook",
         str(path), "--max-pages", "1", "--preheat", "0"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                _get(base + "hall/status", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError((tmp_path / "server.log").read_text()) from None
                time.sleep(0.3)
        yield base
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait(5)
        log.close()


def test_second_page_gets_the_room_full_page_and_no_traceback(capped_server):
    import json

    status, body, _ = _get(capped_server)
    assert status == 200 and "hall page up" in body
    # The failing cell: a short notice, never the traceback or the error's text.
    assert "Traceback" not in body and "secret internals 42" not in body
    assert json.loads(_get(capped_server + "hall/status")[1])["pages"] == 1

    status, body, headers = _get(capped_server + "?tab=margins")
    assert status == 503
    assert "The room is full: 1 of 1 places are taken; try again in a minute." in \
        " ".join(body.split())
    assert headers.get("Retry-After") == "60"
    assert "Traceback" not in body
    assert json.loads(_get(capped_server + "hall/status")[1])["pages"] == 1  # none started
