"""Hostile requests against a running dashboard server (Voila via ``explorer.serving.serve``, loopback).

* code sent over the kernel websocket (``execute_request``) is dropped, while an allowed
  message (``kernel_info_request``) is answered on the same connection: the drop is the
  server's filter, not a broken socket;
* the page carries neither the notebook's source nor a traceback;
* files outside what the dashboard serves cannot be fetched: path traversal on the static and
  file routes, ``/api/contents``, ``/lab``, ``/tree``, ``/api/kernels`` and more (the status
  codes are recorded and printed);
* a query string cannot run code or read a file.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import pathlib
import re
import sys
import threading
import uuid

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent / "browser"))
import _voila  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE = "from explorer.app import dashboard"  # the dashboard notebook's code cell
SECRETS = ("root:x:", "[build-system]", SOURCE, '"cells":', "Traceback (most recent call last)")

PATHS = [
    "/voila/static/../../../../etc/passwd",
    "/voila/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/voila/static/..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/voila/files/../pyproject.toml",
    "/voila/files/%2e%2e/pyproject.toml",
    "/voila/files/dashboard.ipynb",
    "/voila/files/notebooks/dashboard.ipynb",
    "/voila/files//etc/passwd",
    "/voila/render/../../etc/passwd",
    "/voila/templates/../../../../etc/passwd",
    "/voila/nbextensions/../../../../etc/passwd",
    "/static/../../../../etc/passwd",
    "/files/pyproject.toml",
    "/files/notebooks/dashboard.ipynb",
    "/notebooks/dashboard.ipynb",
    "/edit/pyproject.toml",
    "/api/contents",
    "/api/contents/notebooks/dashboard.ipynb",
    "/api/contents/pyproject.toml",
    "/api/kernels",
    "/api/sessions",
    "/api/kernelspecs",
    "/api/terminals",
    "/terminals/1",
    "/lab",
    "/lab/tree/notebooks/dashboard.ipynb",
    "/tree",
    "/api/nbconvert",
    "/nbconvert/html/notebooks/dashboard.ipynb",
    "/?tab=perceptron&dataset=../../etc/passwd",
    "/?tab=perceptron&points=/etc/passwd",
    "/?__import__('os').system('id')",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("voila-security") / "voila.log"
    s = _voila.VoilaServer(None, log).start()
    yield s
    s.stop()


def _get(server, path: str, *, follow: int = 2) -> tuple[str, str]:
    """GET ``path`` as written (no client-side normalisation of "../"), following up to
    ``follow`` redirects on this server; returns the status chain (e.g. "302>403") and body."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
    conn.request("GET", path)
    resp = conn.getresponse()
    body = resp.read().decode("utf-8", errors="replace")
    conn.close()
    where = resp.getheader("Location")
    if resp.status in (301, 302, 303, 307, 308) and where and where.startswith("/") and follow:
        status, body = _get(server, where, follow=follow - 1)
        return f"{resp.status}>{status}", body
    return str(resp.status), body


@pytest.fixture(scope="module")
def page(server):
    status, body = _get(server, "/")
    assert status == "200"
    return body


def test_the_page_has_no_source_and_no_traceback(page):
    assert SOURCE not in page, "the notebook's source reached the page"
    assert "Traceback (most recent call last)" not in page
    assert "jp-RenderedText" not in page or "stderr" not in page  # no error output rendered


def test_files_outside_the_dashboard_cannot_be_fetched(server, page):
    table = []
    for path in PATHS:
        status, body = _get(server, path)
        leaked = [s for s in SECRETS if s in body]
        table.append((status, path, leaked))
    print("\nstatus  path")
    for status, path, leaked in table:
        print(f"{status:>8}  {path}{'   LEAKED ' + str(leaked) if leaked else ''}")
    assert not [t for t in table if t[2]], [t for t in table if t[2]]
    listings = [(s, p) for s, p, _ in table if p in ("/api/contents", "/api/sessions", "/tree",
                                                     "/lab", "/api/kernels") and s.endswith("200")]
    assert not listings, f"served listings or editors: {listings}"


def test_query_strings_run_no_code(server, tmp_path):
    marker = tmp_path / "pwned"
    code = f"__import__('pathlib').Path('{marker}').touch()"
    for query in (f"/?tab=perceptron&dataset={code}", f"/?tab={code}", f"/?{code}",
                  f"/?tab=perceptron&eta={code}"):
        status, body = _get(server, query.replace(" ", "%20"))
        assert status.split(">")[-1] in ("200", "400", "403", "404"), (query, status)
        assert SOURCE not in body and "Traceback" not in body
    assert not marker.exists()


def _message(msg_type: str, content: dict, session: str) -> str:
    return json.dumps({
        "header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "session": session,
                   "username": "student", "date": "2026-01-01T00:00:00Z", "version": "5.3"},
        "parent_header": {}, "metadata": {}, "content": content, "channel": "shell",
        "buffers": []})


async def _talk(url: str, marker: pathlib.Path) -> tuple[list[str], list[str]]:
    from tornado.websocket import websocket_connect

    session = uuid.uuid4().hex
    ws = await websocket_connect(f"{url}?session_id={session}")
    code = f"__import__('pathlib').Path('{marker}').touch()"
    await ws.write_message(_message("execute_request", {
        "code": code, "silent": False, "store_history": False, "user_expressions": {},
        "allow_stdin": False, "stop_on_error": True}, session))
    await ws.write_message(_message("kernel_info_request", {}, session))
    replies, loop = [], asyncio.get_running_loop()
    deadline = loop.time() + 20
    while loop.time() < deadline:
        try:
            raw = await asyncio.wait_for(ws.read_message(), timeout=deadline - loop.time())
        except asyncio.TimeoutError:
            break
        if raw is None:
            break
        if isinstance(raw, bytes):
            continue
        msg = json.loads(raw)
        replies.append(msg["header"]["msg_type"])
        if msg["header"]["msg_type"] == "kernel_info_reply":
            await asyncio.sleep(3)  # the execute_request, had it passed, would have run by now
            break
    ws.close()
    return replies, []


def test_code_sent_over_the_kernel_websocket_is_dropped(server, page, tmp_path):
    m = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page)
    assert m, "no kernel id in the page"
    marker = tmp_path / "pwned"
    url = f"ws://127.0.0.1:{server.port}/api/kernels/{m.group(1)}/channels"
    got = {}

    def talk():  # a thread of its own: Playwright's tests may leave this thread's loop running
        got["replies"] = asyncio.run(_talk(url, marker))[0]

    worker = threading.Thread(target=talk)
    worker.start()
    worker.join(90)
    replies = got.get("replies", [])
    assert "kernel_info_reply" in replies, f"the allowed message got no answer: {replies}"
    assert "execute_reply" not in replies and "execute_input" not in replies, replies
    assert not marker.exists(), "code sent over the websocket ran in the kernel"
