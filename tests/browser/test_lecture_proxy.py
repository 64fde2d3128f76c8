"""A real room reaches the hall through Debian's nginx with TLS at a path (issue 32, item 6):
the presenter and two followers in Chromium at ``https://127.0.0.1:PORT/perceptron/``, the
hall behind it on 127.0.0.1 with ``--base-url /perceptron/``, stepping in sync. nginx runs with
the block docs/serving.md gives (:func:`explorer.serving.proxy.nginx_site`) and a self-signed
certificate made for the test."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time

import pytest
from _voila import (
    FOLLOWER_AT,
    FOLLOWER_SAYS,
    click_button,
    free_port,
    start_presenter_hall,
    wait_for_canvas,
    wait_for_text,
)

from explorer.serving.proxy import nginx_site

pytestmark = pytest.mark.browser

KEY = "a-key-for-the-proxy-test-0002"
PREFIX = "/perceptron/"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def _need(tool: str) -> None:
    if shutil.which(tool) or os.path.exists(f"/usr/sbin/{tool}"):
        return
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{tool} is missing (.ci/run installs it)", pytrace=False)
    pytest.skip(f"{tool} is not installed (apt-get install {tool})")


def _wait_port(port: int, proc, log, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"nginx exited ({proc.returncode}): {log.read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nginx did not listen on {port}: {log.read_text()}")


@pytest.fixture(scope="module")
def room(_browser_prereqs, tmp_path_factory):
    _need("nginx")
    _need("openssl")
    tmp = tmp_path_factory.mktemp("proxy")
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    hall = start_presenter_hall(tmp / "hall.log", key=KEY, max_pages=4,
                                extra_args=("--base-url", PREFIX))
    port = free_port()
    for d in ("client", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp / d).mkdir()
    site = nginx_site(port=hall.port, prefix=PREFIX, listen=f"127.0.0.1:{port}",
                      server_name="127.0.0.1", cert=str(cert), key=str(key))
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers read the test's files
    (tmp / "nginx.conf").write_text(
        f"{user}daemon off;\nworker_processes 1;\npid {tmp}/nginx.pid;\n"
        f"error_log {tmp}/error.log info;\nevents {{ worker_connections 256; }}\n"
        f"http {{\n access_log {tmp}/access.log;\n client_body_temp_path {tmp}/client;\n"
        f" proxy_temp_path {tmp}/proxy;\n fastcgi_temp_path {tmp}/fastcgi;\n"
        f" uwsgi_temp_path {tmp}/uwsgi;\n scgi_temp_path {tmp}/scgi;\n{site}}}\n")
    log = tmp / "error.log"
    proc = subprocess.Popen([NGINX, "-p", str(tmp), "-c", str(tmp / "nginx.conf"), "-e",
                             str(log)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        _wait_port(port, proc, log)
        yield f"https://127.0.0.1:{port}{PREFIX}", hall
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(10)
        hall.stop()


def test_presenter_and_followers_step_in_sync_through_nginx_with_tls(chromium_browser, room):
    url, hall = room
    contexts = [chromium_browser.new_context(viewport={"width": 1280, "height": 800},
                                             ignore_https_errors=True) for _ in range(3)]
    for c in contexts:
        c.set_default_timeout(120_000)
    presenter, *followers = (c.new_page() for c in contexts)
    presenter.goto(url + f"present?key={KEY}")
    assert presenter.url == url
    wait_for_canvas(presenter, timeout=120)  # the kernel's websocket came through the proxy
    for f in followers:
        f.goto(url + "follow")
    for f in followers:
        f.wait_for_function(FOLLOWER_AT, arg=0, timeout=60_000)
    for k in (1, 2):
        click_button(presenter, "Step ▶")
        said = wait_for_text(presenter, "pe-pf-narration",
                             lambda t, k=k: t.startswith(f"Step {k},"), timeout=30)
        for f in followers:
            f.wait_for_function(FOLLOWER_AT, arg=k, timeout=30_000)
            f.wait_for_function(FOLLOWER_SAYS, arg=said, timeout=30_000)
    presenter.wait_for_function("() => /2 following/.test((document.querySelector("
                                "'.pe-presenting') || {}).textContent)")
    # what the browsers asked went through nginx, over TLS, under the prefix
    assert all(p.url.startswith(url) for p in (presenter, *followers))
    for c in contexts:
        c.close()
