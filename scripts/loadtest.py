"""Load test of the lecture-hall server (``make loadtest``): many dashboard pages, ten stepping.

Starts ``perceptron-explorer --hall`` on a free 127.0.0.1 port (loopback only) and plays the
part of the students' browsers with a small client that speaks what the page speaks: it asks
for the dashboard page (Voila renders it and gives the page a kernel), opens the kernel's
websocket ``/api/kernels/<id>/channels`` and talks the Jupyter messaging protocol with the
ipywidgets comm protocol on top (the ``jupyter.widget.control`` comm's ``request_states``
gives every widget's state) and the page-drawn figure's (explorer.app.pagefigure: the page
steps the figure itself and writes the settled step). A browser per session would be far too
heavy on this machine, and what the server sees is the same.

Phases, each bounded in time:

1. open pages up to 10, 30 then 60 (``--sessions``), spread over the tabs (``--tabs``: page
   i opens tab i mod 5, each at a link whose figure has steps, :data:`TAB_LINKS`); *render
   success* = the page came back with a kernel, and the widget states with the tab's figure
   arrived on the websocket;
2. at each level, ``--active`` sessions (60: every page) step their tab continuously (``--rate``
   steps/s each, for ``--step-seconds``) while the others sit connected. The page draws each
   step itself and tells the kernel the settled step: a step's latency is the time from
   sending that settled step to the kernel being idle again, what a step costs the server;
3. the server's memory (RSS and PSS of Voila + every kernel, from /proc via psutil);
4. one page more than the cap must get the "room is full" page (status 503);
5. all websockets closed (a tab closed without its unload beacon: Voila issue 1458), then the
   seconds until the server holds no page kernel (``/hall/status``, and kernel processes);
6. a flood (``--flood``, 150): that many visitors at the same moment, each following the
   hall's "starting" page as a browser does; the kernels alive (never more than the places)
   and the server's memory are sampled meanwhile, and each answer's time is kept.

Writes ``benchmarks/results/loadtest.json`` and prints a table. Usage::

    python scripts/loadtest.py [--sessions 10,30,60] [--active 60] [--rate 3]
                               [--step-seconds 30] [--out benchmarks/results/loadtest.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psutil
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
TARGET_SESSIONS = 60
TARGET_P95_S = 0.1
TARGET_RELEASE_S = 120
OPEN_TIMEOUT_S = 240  # per page: a kernel start waits its turn on two cores
STEP_TIMEOUT_S = 5.0  # a settled step the kernel has not handled after this long has failed
RELEASE_TIMEOUT_S = 170
FLOOD_TIMEOUT_S = 420  # a visitor of the flood gives up following "starting" pages after this
REQUEST_TIMEOUT_S = 120  # one page request unanswered this long counts as hung
MAX_TOTAL_S = 25 * 60  # hard stop of the whole run
# The page's websocket protocol. Without it the server falls back to the legacy framing, which
# Voila 0.5's kernel websocket handler misreads as v1 (a huge offset count): its loop spins.
WS_PROTOCOL = "v1.kernel.websocket.jupyter.org"
CONTROL_PROTOCOL = "1.0.0"  # ipywidgets 8: the jupyter.widget.control comm, checked at open
KERNEL_ID = re.compile(r'"kernelId"\s*:\s*"([0-9a-f-]{36})"')
#: Per tab, a link that opens it with a figure that has steps (Cover's recursion; a small
#: Generalization simulation, so sixty pages do not each run the default one).
TAB_LINKS = {"perceptron": "?tab=perceptron", "margins": "?tab=margins",
             "cover": "?tab=cover&view=recursion", "xor": "?tab=xor",
             "generalization": "?tab=generalization&trials=2&ns=5,10"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def percentile(values, q):
    """The ``q``-th percentile (0-100) of ``values``: the nearest of them (None if none)."""
    if not values:
        return None
    xs = sorted(values)
    k = min(len(xs) - 1, max(0, round(q / 100 * (len(xs) - 1))))
    return xs[k]


# ---------------------------------------------------------------- one simulated page


def pack_v1(channel: str, parts: list[bytes]) -> bytes:
    """A message in jupyter_server's websocket protocol v1 (what JupyterLab and Voila pages
    speak): 8-byte little-endian offset count, the offsets, the channel, then the parts."""
    chan = channel.encode()
    offsets = [8 * (len(parts) + 3)]
    offsets.append(offsets[-1] + len(chan))
    for part in parts:
        offsets.append(offsets[-1] + len(part))
    head = len(offsets).to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets)
    return head + chan + b"".join(parts)


def unpack_v1(raw: bytes) -> tuple[str, list[bytes]]:
    """``(channel, [header, parent_header, metadata, content, *buffers])`` from a v1 frame."""
    n = int.from_bytes(raw[:8], "little")
    offs = [int.from_bytes(raw[8 * (i + 1):8 * (i + 2)], "little") for i in range(n)]
    parts = [raw[a:b] for a, b in zip(offs[1:-1], offs[2:], strict=True)]
    return raw[offs[0]:offs[1]].decode(), parts


class Session:
    """One student's page: the HTTP request, the kernel websocket, the widget models."""

    def __init__(self, base: str, index: int, tab: str = "perceptron"):
        self.base = base
        self.index = index
        self.tab = tab
        self.session_id = uuid.uuid4().hex
        self.kernel_id = None
        self.ws = None
        self.states: dict[str, dict] = {}
        self.figure = None  # the page-drawn figure's model (explorer.app.pagefigure)
        self._figure_step = 0
        self._figure_n = 0
        self._idle: dict[str, asyncio.Event] = {}
        self.ok = False
        self.error = None
        self.open_s = None
        self.latencies: list[float] = []
        self.failed_steps = 0
        self._states_ready = asyncio.Event()
        self._closed = False

    # -- protocol
    def _msg(self, msg_type: str, content: dict, channel: str = "shell") -> dict:
        return {
            "header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "loadtest",
                       "session": self.session_id, "date": "", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "content": content, "channel": channel,
            "buffers": [],
        }

    def _send(self, msg_type: str, content: dict, metadata: dict | None = None) -> str:
        msg = self._msg(msg_type, content)
        msg["metadata"] = metadata or {}
        parts = [json.dumps(msg[k]).encode() for k in ("header", "parent_header", "metadata",
                                                         "content")]
        self.ws.write_message(pack_v1("shell", parts), binary=True)
        return msg["header"]["msg_id"]

    def _comm(self, comm_id: str, data: dict) -> str:
        return self._send("comm_msg", {"comm_id": comm_id, "data": data})

    def _custom(self, model_id: str, content: dict) -> None:
        self._comm(model_id, {"method": "custom", "content": content})

    def _on_message(self, raw) -> None:
        if raw is None:
            self._closed = True
            return
        channel, parts = unpack_v1(raw)
        if channel != "iopub":
            return
        header, content = json.loads(parts[0]), json.loads(parts[3])
        mtype = header["msg_type"]
        if mtype == "status" and content.get("execution_state") == "idle":
            done = self._idle.get(json.loads(parts[1]).get("msg_id", ""))
            if done is not None:
                done.set()  # the kernel has handled that message
            return
        if mtype == "comm_msg":
            data = content.get("data", {})
            comm_id = content.get("comm_id")
            method = data.get("method")
            if method == "update_states":
                self.states.update(data.get("states", {}))
                self._states_ready.set()
            elif method == "update" and comm_id == self.figure:
                scene = data.get("state", {}).get("scene")
                if isinstance(scene, dict) and "n_steps" in scene:  # a new run (Generalization)
                    self._figure_n = int(scene["n_steps"])
        elif mtype == "comm_open":
            data = content.get("data", {})
            if "state" in data:
                self.states[content["comm_id"]] = {"state": data["state"]}

    # -- life cycle
    async def open(self, http: AsyncHTTPClient) -> None:
        t0 = time.monotonic()
        try:
            resp = await visit(http, self.base + TAB_LINKS[self.tab], deadline=t0 + OPEN_TIMEOUT_S)
            if resp.code != 200:
                raise HTTPClientError(resp.code)
            found = KERNEL_ID.search(resp.body.decode("utf-8", "replace"))
            if not found:
                raise RuntimeError("no kernel id in the page")
            self.kernel_id = found.group(1)
            ws_url = (self.base.replace("http://", "ws://") + f"api/kernels/{self.kernel_id}"
                      f"/channels?session_id={self.session_id}")
            self.ws = await websocket_connect(ws_url, on_message_callback=self._on_message,
                                              max_message_size=64 * 2**20, connect_timeout=60,
                                              subprotocols=[WS_PROTOCOL])
            control = uuid.uuid4().hex
            self._send("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                                     "data": {}}, {"version": CONTROL_PROTOCOL})
            self._comm(control, {"method": "request_states"})
            await asyncio.wait_for(self._states_ready.wait(), 60)
            self._find_models()
            self.ok = self.figure is not None
            if not self.ok:
                raise RuntimeError("the widgets arrived without the tab's figure")
            self.open_s = time.monotonic() - t0
        except HTTPClientError as exc:
            self.error = f"HTTP {exc.code}"
        except Exception as exc:  # noqa: BLE001 - reported, not raised: one page of many
            self.error = f"{type(exc).__name__}: {exc}"[:200]

    def _find_models(self) -> None:
        for mid, entry in self.states.items():
            st = entry.get("state", {})
            if "scene" in st and "transport" in st and self.figure is None:
                self.figure = mid  # the page-drawn figure: the page steps, the kernel settles
                self._figure_step = int(st.get("step", 0))
                self._figure_n = int(st.get("scene", {}).get("n_steps", 0))

    async def click_step(self) -> None:
        """One "Step ▶" click: the page draws the step itself and the kernel hears the settled
        step, timed from sending it until the kernel is idle again (what the click costs the
        server); after the run's last step, step 0."""
        n = max(self._figure_n, 1)
        self._figure_step = (self._figure_step + 1) % (n + 1)
        t0 = time.monotonic()
        msg_id = self._comm(self.figure, {"method": "update", "state": {"step": self._figure_step},
                                          "buffer_paths": []})
        done = self._idle[msg_id] = asyncio.Event()
        try:
            await asyncio.wait_for(done.wait(), STEP_TIMEOUT_S)
            self.latencies.append(time.monotonic() - t0)
        except asyncio.TimeoutError:
            self.failed_steps += 1
        finally:
            self._idle.pop(msg_id, None)

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
            self.ws = None


async def visit(http, url: str, *, deadline: float, answers: list | None = None):
    """Ask for a page as a browser does with the hall's pages: a "starting, please wait" page
    (503 with Retry-After, explorer.serving.hall) is asked again after Retry-After seconds, until the
    dashboard or the "room is full" page comes back. ``answers`` collects each answer's time."""
    cookies: dict[str, str] = {}  # kept as a browser does (the hall's queue ticket)
    while True:
        t = time.monotonic()
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else {}
        # the deadline only decides whether to ask again: one request may take its time
        resp = await http.fetch(HTTPRequest(url, headers=headers,
                                            request_timeout=REQUEST_TIMEOUT_S),
                                raise_error=False)
        for line in resp.headers.get_list("Set-Cookie"):
            name, _, value = line.split(";", 1)[0].partition("=")
            cookies[name.strip()] = value.strip()
        if answers is not None:
            answers.append(time.monotonic() - t)
        body = resp.body.decode("utf-8", "replace") if resp.body else ""
        if resp.code != 503 or "pe-hall-starting" not in body:
            return resp
        wait = float(resp.headers.get("Retry-After", "5"))
        if time.monotonic() + wait > deadline:
            return resp
        await asyncio.sleep(wait)


# ---------------------------------------------------------------- the server


class Server:
    def __init__(self, max_pages: int, preheat: int, log: Path):
        self.port = _free_port()
        self.base = f"http://{HOST}:{self.port}/"
        self.max_pages, self.preheat, self.log = max_pages, preheat, log
        self.proc = None

    def start(self) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1",
                   PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get(
                       "PYTHONPATH", "")) if p))
        cmd = [sys.executable, "-m", "explorer.serving.serve", "--hall", "--port", str(self.port),
               "--max-pages", str(self.max_pages), "--preheat", str(self.preheat)]
        self._log = open(self.log, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                                     stdout=self._log, stderr=subprocess.STDOUT,
                                     start_new_session=True)

    async def status(self, http) -> dict:
        resp = await http.fetch(self.base + "hall/status", request_timeout=20)
        return json.loads(resp.body)

    async def wait_ready(self, http, timeout=120.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited ({self.proc.returncode}); see {self.log}")
            try:
                st = await self.status(http)
                if st["pooled"] >= min(self.preheat, 1):
                    return
            except (OSError, HTTPClientError):
                pass
            await asyncio.sleep(0.5)
        raise TimeoutError(f"the server did not come up within {timeout:.0f} s; see {self.log}")

    def processes(self) -> list[psutil.Process]:
        try:
            root = psutil.Process(self.proc.pid)
            return [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def kernel_processes(self) -> int:
        from explorer.serving.forkserver import server_kernels

        return len(server_kernels(self.proc.pid))

    def memory(self) -> dict:
        rss = pss = 0
        n = 0
        for p in self.processes():
            try:
                info = p.memory_full_info()
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            rss += info.rss
            pss += getattr(info, "pss", info.rss)
            n += 1
        avail = psutil.virtual_memory().available
        return {"processes": n, "rss_mb": round(rss / 2**20), "pss_mb": round(pss / 2**20),
                "system_available_mb": round(avail / 2**20)}

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.wait(5)
        self._log.close()


# ---------------------------------------------------------------- phases


async def _open_many(sessions, http, concurrency: int) -> float:
    sem = asyncio.Semaphore(concurrency)

    async def one(s):
        async with sem:
            await s.open(http)

    t0 = time.monotonic()
    await asyncio.gather(*(one(s) for s in sessions))
    return time.monotonic() - t0


async def _step_phase(active, seconds: float, rate: float) -> None:
    period = 1.0 / rate
    deadline = time.monotonic() + seconds

    async def run(s):
        await asyncio.sleep(s.index % 10 * period / 10)  # spread the clicks a little
        while time.monotonic() < deadline and s.ws is not None:
            t0 = time.monotonic()
            await s.click_step()
            await asyncio.sleep(max(0.0, period - (time.monotonic() - t0)))

    await asyncio.gather(*(run(s) for s in active))


async def _flood(server, http, n: int) -> dict:
    """``n`` visitors at the same moment, each following the "starting" page as a browser
    does; the kernels alive and the server's memory are sampled while the flood runs."""
    peak = {"kernels": 0, "rss_mb": 0}
    done = asyncio.Event()

    async def sample():
        while not done.is_set():
            peak["kernels"] = max(peak["kernels"], server.kernel_processes())
            peak["rss_mb"] = max(peak["rss_mb"], server.memory()["rss_mb"])
            await asyncio.sleep(0.25)

    sockets = []

    async def one(i):
        answers: list[float] = []
        try:
            resp = await visit(http, server.base + f"?tab=perceptron&flood={i}",
                               deadline=time.monotonic() + FLOOD_TIMEOUT_S, answers=answers)
            body = resp.body.decode("utf-8", "replace") if resp.body else ""
            kind = ("page" if resp.code == 200 else "full" if "room is full" in body else
                    "starting" if "pe-hall-starting" in body else f"HTTP {resp.code}")
            found = KERNEL_ID.search(body) if kind == "page" else None
            if found:  # stay on the page, as a browser does: its kernel's websocket stays open
                sockets.append(await websocket_connect(
                    server.base.replace("http://", "ws://") + f"api/kernels/{found.group(1)}"
                    f"/channels?session_id={uuid.uuid4().hex}", connect_timeout=60,
                    subprotocols=[WS_PROTOCOL],
                    # read every message: an unread one stops tornado's client answering pings
                    on_message_callback=lambda _m: None))
        except Exception as exc:  # noqa: BLE001 - counted, not raised
            kind = type(exc).__name__
        return kind, answers

    sampler = asyncio.ensure_future(sample())
    t0 = time.monotonic()
    outcomes = await asyncio.gather(*(one(i) for i in range(n)))
    wall = time.monotonic() - t0
    done.set()
    await sampler
    for ws in sockets:
        ws.close()
    kinds: dict[str, int] = {}
    for kind, _ in outcomes:
        kinds[kind] = kinds.get(kind, 0) + 1
    every = [t for _, answers in outcomes for t in answers]
    return {"requests": n, "outcomes": kinds, "all_answered_s": round(wall, 1),
            "answer_max_s": _round(max(every) if every else None),
            "answer_p95_s": _round(percentile(every, 95)),
            "answers": len(every), "peak_kernels": peak["kernels"],
            "peak_rss_mb": peak["rss_mb"], "max_pages": server.max_pages,
            "within_cap": peak["kernels"] <= server.max_pages}


async def _full_page(base: str, http) -> dict:
    try:
        resp = await http.fetch(base, request_timeout=60, raise_error=False)
    except OSError as exc:
        return {"status": None, "error": str(exc)}
    body = resp.body.decode("utf-8", "replace") if resp.body else ""
    return {"status": resp.code, "room_full_text": "The room is full" in body,
            "traceback_on_page": "Traceback" in body}


async def run(opts) -> dict:
    AsyncHTTPClient.configure(None, max_clients=64)
    http = AsyncHTTPClient()
    out_dir = Path(opts.out).parent
    out_dir.mkdir(parents=True, exist_ok=True)
    levels = sorted(set(opts.sessions))
    server = Server(max(levels), opts.preheat, out_dir / "loadtest-server.log")
    t_start = time.monotonic()
    result = {
        "machine": {"cpus": os.cpu_count(), "memory_gb": round(psutil.virtual_memory().total /
                                                               2**30, 1),
                    "python": platform.python_version()},
        "settings": {"sessions": levels, "tabs": opts.tabs, "active": opts.active,
                     "rate_per_s": opts.rate,
                     "step_seconds": opts.step_seconds, "preheat": opts.preheat,
                     "max_pages": max(levels), "open_concurrency": opts.concurrency},
        "targets": {"sessions": TARGET_SESSIONS, "p95_step_s": TARGET_P95_S,
                    "release_s": TARGET_RELEASE_S},
        "levels": [],
    }
    server.start()
    sessions: list[Session] = []
    try:
        await server.wait_ready(http)
        result["idle_server"] = server.memory()
        for level in [] if opts.flood_only else levels:
            if time.monotonic() - t_start > MAX_TOTAL_S - 240:
                print(f"time limit: level {level} skipped", flush=True)
                break
            new = [Session(server.base, i, opts.tabs[i % len(opts.tabs)])
                   for i in range(len(sessions), level)]
            sessions += new
            print(f"opening {len(new)} pages (to {level}) …", flush=True)
            open_wall = await _open_many(new, http, opts.concurrency)
            ok = [s for s in sessions if s.ok]
            opened = [s.open_s for s in new if s.ok]
            errors = sorted({s.error for s in sessions if s.error})
            print(f"  {len(ok)}/{level} pages rendered in {open_wall:.0f} s; stepping …",
                  flush=True)
            active = ok[: opts.active]
            for s in active:
                s.latencies, s.failed_steps = [], 0
            await asyncio.sleep(2)
            await _step_phase(active, opts.step_seconds, opts.rate)
            lat = [x for s in active for x in s.latencies]
            failed = sum(s.failed_steps for s in active)
            mem = server.memory()
            status = await server.status(http)
            row = {
                "sessions": level, "rendered": len(ok), "errors": errors,
                "open_wall_s": round(open_wall, 1),
                "open_page_p50_s": _round(statistics.median(opened) if opened else None),
                "open_page_max_s": _round(max(opened) if opened else None),
                "active": len(active), "steps": len(lat), "failed_steps": failed,
                "steps_per_s": round(len(lat) / opts.step_seconds, 1),
                "step_p50_s": _round(percentile(lat, 50)),
                "step_p95_s": _round(percentile(lat, 95)),
                "step_max_s": _round(max(lat) if lat else None),
                "memory": mem, "server_status": status,
                "load_average_1m": round(os.getloadavg()[0], 2),
            }
            result["levels"].append(row)
            print(f"  p50 {row['step_p50_s']} s, p95 {row['step_p95_s']} s, "
                  f"{failed} failed; PSS {mem['pss_mb']} MB", flush=True)

        if opts.flood_only:
            print(f"flood: {opts.flood} visitors at once, {server.max_pages} places …",
                  flush=True)
            result["flood"] = await _flood(server, http, opts.flood)
            return result
        result["over_cap"] = await _full_page(server.base, http)
        # Close every page the way a tab does when its unload beacon is lost (Voila #1458).
        for s in sessions:
            s.close()
        t_close = time.monotonic()
        released = None
        trace = []
        while time.monotonic() - t_close < RELEASE_TIMEOUT_S:
            st = await server.status(http)
            kernels = server.kernel_processes()
            trace.append((round(time.monotonic() - t_close), st["pages"], kernels))
            if st["pages"] == 0 and kernels <= st["pooled"]:
                released = time.monotonic() - t_close
                break
            await asyncio.sleep(2)
        result["release"] = {"seconds": _round(released), "timeout_s": RELEASE_TIMEOUT_S,
                             "trace": trace[:: max(1, len(trace) // 20)],
                             "memory_after": server.memory()}
        if opts.flood:
            print(f"flood: {opts.flood} visitors at once, {server.max_pages} places …",
                  flush=True)
            result["flood"] = await _flood(server, http, opts.flood)
    finally:
        for s in sessions:
            s.close()
        server.stop()
    result["total_s"] = round(time.monotonic() - t_start)
    return result


def _round(x, nd=3):
    return None if x is None else round(x, nd)


def table(result: dict) -> str:
    lines = ["sessions  rendered  step p50  step p95  failed  steps/s   RSS MB   PSS MB",
             "--------  --------  --------  --------  ------  -------  -------  -------"]
    for r in result["levels"]:
        lines.append(f"{r['sessions']:8d}  {r['rendered']:8d}  {_fmt(r['step_p50_s'])}  "
                     f"{_fmt(r['step_p95_s'])}  {r['failed_steps']:6d}  {r['steps_per_s']:7.1f}"
                     f"  {r['memory']['rss_mb']:7d}  {r['memory']['pss_mb']:7d}")
    rel = result.get("release", {})
    cap = result.get("over_cap", {})
    lines.append(f"over the cap: HTTP {cap.get('status')}, room-full page "
                 f"{cap.get('room_full_text')}, traceback {cap.get('traceback_on_page')}")
    lines.append(f"kernels freed after closing all pages: {rel.get('seconds')} s "
                 f"(target <= {TARGET_RELEASE_S} s)")
    fl = result.get("flood")
    if fl:
        lines.append(f"flood of {fl['requests']} at once: {fl['outcomes']}; peak kernels "
                     f"{fl['peak_kernels']} of {fl['max_pages']} places, peak RSS "
                     f"{fl['peak_rss_mb']} MB; longest answer {fl['answer_max_s']} s, all "
                     f"answered in {fl['all_answered_s']} s")
    lines.append(f"targets: {TARGET_SESSIONS} sessions interactive, step p95 <= "
                 f"{TARGET_P95_S} s with every page stepping; total run {result.get('total_s')} s")
    return "\n".join(lines)


def _fmt(x) -> str:
    return f"{x:8.3f}" if x is not None else "     n/a"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sessions", default="10,30,60",
                   type=lambda s: [int(x) for x in s.split(",") if x.strip()])
    p.add_argument("--active", type=int, default=60)
    p.add_argument("--rate", type=float, default=3.0, help="clicks per second per active page")
    p.add_argument("--step-seconds", type=float, default=30.0)
    p.add_argument("--tabs", default=",".join(TAB_LINKS),
                   help="the tabs the pages open, page i opening tab i mod their number")
    p.add_argument("--preheat", type=int, default=4)
    p.add_argument("--concurrency", type=int, default=8, help="pages requested at once")
    p.add_argument("--flood", type=int, default=150,
                   help="at the end, this many visitors at the same moment (0: none)")
    p.add_argument("--flood-only", action="store_true",
                   help="only the flood, against a hall of max(--sessions) places")
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "loadtest.json"))
    opts = p.parse_args(argv)
    if not opts.sessions or min(opts.sessions) < 1 or max(opts.sessions) > 100:
        p.error("--sessions: counts in 1..100")
    if not 0 < opts.rate <= 20 or not 1 <= opts.step_seconds <= 120:
        p.error("--rate in (0, 20] and --step-seconds in [1, 120]")
    opts.tabs = [t.strip() for t in opts.tabs.split(",") if t.strip()]
    if not opts.tabs or set(opts.tabs) - set(TAB_LINKS):
        p.error(f"--tabs: some of {', '.join(TAB_LINKS)}")
    result = asyncio.run(asyncio.wait_for(run(opts), MAX_TOTAL_S))
    Path(opts.out).write_text(json.dumps(result, indent=1))
    print(table(result))
    print(f"written: {opts.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
