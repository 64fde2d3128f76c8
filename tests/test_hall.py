"""Lecture-hall serving (``perceptron-explorer --hall``): its Voila options, the cap on pages
with its "room is full" page, and no traceback on a page whose notebook fails."""

import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

from explorer.serving import serve

ROOT = Path(__file__).resolve().parents[1]


def _dry(capsys, *argv):
    assert serve.main(["--port", "9123", "--dry-run", *argv]) == 0
    return capsys.readouterr().out.split()


def test_hall_options_reach_voila(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    args = _dry(capsys, "--hall", "--max-pages", "7", "--preheat", "3")
    assert args[1:3] == ["-m", "explorer.serving.hall"]
    assert "--HallVoila.max_pages=7" in args
    assert "--VoilaConfiguration.multi_kernel_manager_class=explorer.serving.hall.HallKernelManager" in args
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
    assert "wait_for_request()" in nb.cells[1].source and "for_request(ready)" in nb.cells[1].source
    assert "import" in nb.cells[0].source and "ready = ready_dashboard()" in nb.cells[0].source


def test_default_mode_keeps_its_options(capsys):
    args = _dry(capsys)
    assert args[1:3] == ["-m", "explorer.serving.page"]
    assert "--MappingKernelManager.cull_idle_timeout=600" in args
    assert not any("preheat" in a or "HallVoila" in a for a in args)
    assert "--VoilaConfiguration.show_tracebacks=False" in args


def test_bad_hall_numbers_are_refused(capsys):
    with pytest.raises(SystemExit):
        serve.main(["--hall", "--max-pages", "-1", "--dry-run"])
    assert "--max-pages must be in 0..1000" in capsys.readouterr().err


def _get(url, timeout=120, opener=None, headers=None):
    """(status, body, headers); ``opener`` keeps cookies as a browser does (the queue ticket)."""
    if headers:
        url = urllib.request.Request(url, headers=headers)
    try:
        with (opener.open if opener else urllib.request.urlopen)(url, timeout=timeout) as r:
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
        [sys.executable, "-m", "explorer.serving.serve", "--hall", "--port", str(port), "--notebook",
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
    # in the browser's language, or the link's (issue 35)
    status, body, _ = _get(capped_server + "?tab=margins",
                           headers={"Accept-Language": "sv-SE,sv;q=0.9,en;q=0.5"})
    assert status == 503 and '<html lang="sv">' in body
    assert "Salen är full: 1 av 1 platser är tagna" in body
    status, body, _ = _get(capped_server + "?tab=margins&lang=de",
                           headers={"Accept-Language": "sv"})
    assert status == 503 and "Der Raum ist voll: 1 von 1 Plätzen sind belegt" in body


# ---------------------------------------------------------------------------- the room's places
def test_hall_starting_options_reach_voila(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    args = _dry(capsys, "--hall", "--max-pages", "7", "--preheat", "3", "--max-starting", "2",
                "--max-per-address", "2")
    assert "--HallVoila.max_starting=2" in args and "--HallVoila.max_per_address=2" in args
    # kernels on Unix sockets: two starts can never race for a TCP port
    assert "--KernelManager.transport=ipc" in args


def test_the_pool_must_fit_in_the_room(capsys):
    with pytest.raises(SystemExit):
        serve.main(["--hall", "--max-pages", "2", "--preheat", "3", "--dry-run"])
    assert "preheated kernels take places too" in capsys.readouterr().err


def test_a_room_refuses_past_its_cap_counting_requests_still_starting():
    from explorer.serving.room import Room

    room = Room(max_pages=3, max_starting=5)
    places = [room.admit(pages=set(), pool=0) for _ in range(5)]
    # three requests admitted in the same instant, no kernel yet: the fourth is refused
    assert [p if isinstance(p, str) else "ok" for p in places] == ["ok"] * 3 + ["full"] * 2
    room.bind(places[0], "k0")
    assert room.taken({"k0"}) == 3  # a kernel bound to a request still starting counts once
    room.release(places[1])  # its start failed: the place comes back
    assert not isinstance(room.admit(pages={"k0"}, pool=0), str)


def test_a_room_starts_few_kernels_at_once_and_pooled_ones_do_not_wait():
    from explorer.serving.room import Room

    room = Room(max_pages=10, max_starting=2)
    assert not isinstance(room.admit(pages=set(), pool=0), str)
    assert not isinstance(room.admit(pages=set(), pool=0), str)
    assert room.admit(pages=set(), pool=0) == "busy"  # a "starting" page, asked again later
    assert not isinstance(room.admit(pages=set(), pool=1), str)  # a preheated kernel is ready


def test_visitors_who_wait_are_served_first_come_first_served():
    """A visitor told "busy" keeps a place in the queue (its ticket, kept by the browser in a
    cookie): luckier retries of those who came later never pass it (seen in the load test:
    one page waited 188 s while others that arrived after it were served)."""
    from explorer.serving.room import Room

    room = Room(max_pages=10, max_starting=1)

    def ask(ticket, now, pages=frozenset(), pool=0):
        return room.admit(pages=set(pages), pool=pool, ticket=ticket, now=now,
                          returning=ticket in room.queue)

    a = ask("a", 0)
    assert not isinstance(a, str)
    assert ask("b", 1) == "busy" and ask("c", 2) == "busy"
    assert ask("b", 4) == "busy" and ask("c", 5) == "busy"  # their pages ask again
    assert (room.position("b"), room.position("c"), room.position("new")) == (1, 2, 3)
    room.bind(a, "ka")
    room.release(a)  # a start slot is free: b's, although c and a newcomer ask first
    assert ask("c", 6, {"ka"}) == "busy"
    assert ask("new", 6, {"ka"}) == "busy"
    b = ask("b", 7, {"ka"})
    assert not isinstance(b, str) and "b" not in room.queue and room.position("c") == 1
    # a preheated kernel goes to the head of the queue too
    assert ask("new", 8, {"ka"}, pool=1) == "busy"
    assert not isinstance(ask("c", 8, {"ka"}, pool=1), str)


def test_a_client_without_cookies_is_never_queued_and_holds_nobody_up():
    from explorer.serving.room import Room

    room = Room(max_pages=10, max_starting=1)
    a = room.admit(pages=set(), pool=0, ticket="a", now=0)
    for i in range(20):  # retries that each come with a new ticket (no cookie kept)
        assert room.admit(pages=set(), pool=0, ticket=f"x{i}", now=i / 10) == "busy"
    room.release(a)
    assert not isinstance(room.admit(pages=set(), pool=0, ticket="late", now=3), str)


def test_a_visitor_who_left_the_queue_is_forgotten_and_a_full_room_empties_it():
    from explorer.serving.room import QUEUE_FORGET_S, Room

    room = Room(max_pages=2, max_starting=1)
    a = room.admit(pages=set(), pool=0, ticket="a", now=0)
    for t in ("gone", "c"):
        assert room.admit(pages=set(), pool=0, ticket=t, now=0) == "busy"
        assert room.admit(pages=set(), pool=0, ticket=t, now=1, returning=True) == "busy"
    room.bind(a, "ka")
    room.release(a)
    # "gone" closed its tab; while it may still come back, c waits behind it
    c_again = QUEUE_FORGET_S - 0.5
    assert room.admit(pages={"ka"}, pool=0, ticket="c", now=c_again, returning=True) == "busy"
    # after QUEUE_FORGET_S without a word from "gone", c is first
    c = room.admit(pages={"ka"}, pool=0, ticket="c", now=QUEUE_FORGET_S + 1.5, returning=True)
    assert not isinstance(c, str)
    room.bind(c, "kc")
    room.release(c)
    assert room.admit(pages={"ka", "kc"}, pool=0, ticket="d", now=30) == "full"
    assert room.queue == {}  # told "full": nobody is left waiting for a start


def test_one_address_holds_at_most_its_share():
    from explorer.serving.room import Room

    room = Room(max_pages=10, max_starting=10, max_per_address=2)
    a = room.admit(pages=set(), pool=0, address="10.0.0.1")
    room.bind(a, "k1")
    room.release(a)
    assert not isinstance(room.admit(pages={"k1"}, pool=0, address="10.0.0.1"), str)
    assert room.admit(pages={"k1"}, pool=0, address="10.0.0.1") == "yours"
    assert not isinstance(room.admit(pages={"k1"}, pool=0, address="10.0.0.2"), str)
    assert not isinstance(room.admit(pages=set(), pool=0, address="10.0.0.1"), str)  # k1 culled


def test_the_pool_refills_within_the_cap_and_not_while_the_room_arrives():
    from explorer.serving.room import Room

    room = Room(max_pages=4)
    assert room.pool_target(pages=set(), pool_size=3) == 3
    assert room.pool_target(pages={"a", "b"}, pool_size=3) == 2
    assert room.pool_target(pages={"a", "b", "c", "d"}, pool_size=3) == 0
    p = room.admit(pages=set(), pool=0)
    assert room.pool_target(pages=set(), pool_size=3) == 0
    room.release(p)
    assert room.pool_target(pages=set(), pool_size=3) == 3
    with pytest.raises(ValueError, match="max_starting >= 1"):
        Room(max_pages=3, max_starting=0)


def test_no_interleaving_of_requests_exceeds_the_cap():
    """Admissions, kernel starts, failures, ends of requests and culling in any order: the
    kernels alive (pages, pooled, and requests that will start one) never exceed the cap."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=300, deadline=None)
    @given(cap=st.integers(1, 5), pool_size=st.integers(0, 5),
           ops=st.lists(st.tuples(st.sampled_from("abcrkf"), st.integers(0, 20)), max_size=60))
    def run(cap, pool_size, ops):
        from explorer.serving.room import Room

        pool_size = min(pool_size, cap)
        room = Room(max_pages=cap, max_starting=2)
        pages, pool, open_, n = set(), pool_size, [], 0
        for op, i in ops:
            if op == "a":  # a request arrives: takes a pooled kernel or will start one
                place = room.admit(pages=pages, pool=pool)
                if not isinstance(place, str):
                    if pool:
                        pool -= 1
                        n += 1
                        room.bind(place, f"k{n}")
                        pages.add(f"k{n}")
                    open_.append(place)
            elif op == "b" and open_:  # its kernel started
                place = open_[i % len(open_)]
                if place.kernel_id is None:
                    n += 1
                    room.bind(place, f"k{n}")
                    pages.add(f"k{n}")
            elif op in "rf" and open_:  # the request ends (page sent, or the start failed)
                room.release(open_.pop(i % len(open_)))
            elif op == "k" and pages:  # a closed page is culled
                pages.discard(sorted(pages)[i % len(pages)])
            elif op == "c":  # the pool refills as far as the room allows
                pool = max(pool, room.pool_target(pages=pages, pool_size=pool_size))
            unborn = sum(p.kernel_id is None for p in open_)
            assert len(pages) + pool + unborn <= cap
            assert room.taken(pages) <= cap

    run()


def _kernels(proc):
    """The kernels the server runs (explorer.serving.forkserver.server_kernels: its fork
    server's children, or its own, running ipykernel; not their children: a kernel's
    short-lived subprocess, forked before it execs, carries the same command line for a
    moment)."""
    import psutil

    from explorer.serving.forkserver import server_kernels

    out = []
    for pid in server_kernels(proc.pid):
        try:
            k = psutil.Process(pid)
            if k.status() != psutil.STATUS_ZOMBIE:
                out.append(k)
        except psutil.Error:
            pass
    return out


def _server(proc):
    """The server and its fork server (it forks the kernels)."""
    import psutil

    from explorer.serving.forkserver import fork_servers

    return [psutil.Process(pid) for pid in [proc.pid, *fork_servers(proc.pid)]]


def _rss(procs) -> float:
    import psutil

    total = 0
    for p in procs:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total / 2**20


@pytest.mark.slow
def test_a_flood_of_visitors_never_exceeds_the_cap(tmp_path):
    """Twelve visitors at once on the real dashboard, cap 3, one kernel preheated; each visitor
    does what a browser does with our pages: follows the "starting" page until it gets the
    dashboard or the "room is full" page."""
    import json
    import threading


    port = serve.free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1",
               XDG_CACHE_HOME=str(tmp_path))
    log = open(tmp_path / "server.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "explorer.serving.serve", "--hall", "--port", str(port),
         "--max-pages", "3", "--preheat", "1", "--max-starting", "2",
         "--cull-idle-timeout", "4", "--cull-interval", "2"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}/"

    def status():
        return json.loads(_get(base + "hall/status", timeout=10)[1])

    try:
        deadline = time.monotonic() + 120
        while True:  # up, and its preheated kernel ready
            try:
                if status()["pooled"] == 1:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline and proc.poll() is None, \
                (tmp_path / "server.log").read_text()
            time.sleep(0.5)
        server = _server(proc)
        server_mb = _rss(server)
        peak = {"kernels": 0, "mb": 0.0, "one_kernel_mb": 0.0}
        stop = threading.Event()

        def sample():
            while not stop.is_set():
                ks = _kernels(proc)
                if len(ks) > peak["kernels"]:
                    peak["kernels"] = len(ks)
                    peak["seen"] = [f"{k.pid} {k.create_time():.1f}" for k in ks]
                peak["mb"] = max(peak["mb"], _rss([*server, *ks]))
                for k in ks:  # the largest kernel seen (a page's kernel holds its page)
                    peak["one_kernel_mb"] = max(peak["one_kernel_mb"], _rss([k]))
                time.sleep(0.05)

        def visitor(i):
            answers = []
            browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
            while True:
                t = time.monotonic()
                code, body, headers = _get(base + f"?visitor={i}", timeout=60, opener=browser)
                answers.append(time.monotonic() - t)
                if code == 200 or "room is full" in body or len(answers) > 60:
                    return code, body, answers
                assert code == 503 and "tries again by itself" in " ".join(body.split())
                if "starting for other visitors" in body:  # queued: the ticket comes along
                    assert "pe_hall_ticket=" in headers.get("Set-Cookie", ""), headers
                assert int(headers["Retry-After"]) > 0
                time.sleep(1.0)  # a browser would wait Retry-After; quicker here

        sampler = threading.Thread(target=sample)
        sampler.start()
        try:
            with ThreadPoolExecutor(12) as pool:
                results = list(pool.map(visitor, range(12)))
        finally:
            stop.set()
            sampler.join()
        codes = [code for code, _, _ in results]
        assert codes.count(200) == 3 and codes.count(503) == 9, codes
        refused = [" ".join(body.split()) for code, body, _ in results if code == 503]
        odd = [re.sub(r"<[^>]+>", "", body.partition("<main")[2])[:300] for body in refused
               if "The room is full: 3 of 3 places are taken" not in body]
        assert not odd, "\n".join([*odd, (tmp_path / "server.log").read_text()[-3000:]])
        assert max(t for _, _, answers in results for t in answers) < 60  # none hangs
        assert peak["kernels"] <= 3, (peak, (tmp_path / "server.log").read_text()[-3000:])
        # 12 kernels would be ~2.5 GB; the cap holds memory to 3 kernels and the server.
        assert peak["mb"] <= server_mb + 3 * peak["one_kernel_mb"] + 300, (peak, server_mb)
        # nobody connects to these pages: their kernels are culled and the places come back
        deadline = time.monotonic() + 60
        while status()["pages"] > 0:
            assert time.monotonic() < deadline, status()
            time.sleep(0.5)
        code, body, _ = _get(base + "?visitor=late", timeout=60)
        assert code == 200, body[:300]
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


def test_a_page_kernel_is_bound_to_its_place_before_it_is_listed(monkeypatch):
    """jupyter_server lists a kernel while it starts: bound only afterwards, it was counted
    twice (as a page and as its request) and a flood read "4 of 3 places are taken"."""
    import asyncio

    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    from explorer.serving import hall
    from explorer.serving.room import Room

    room = Room(max_pages=3, max_starting=2)
    place = room.admit(pages=set(), pool=0)
    listed = set()
    seen = []

    async def start(self, *args, kernel_id=None, **kwargs):
        assert kernel_id is not None, "the hall names the kernel it starts"
        listed.add(kernel_id)  # listed from here on, while it starts
        seen.append(room.taken(listed))
        if len(seen) == 1:
            listed.discard(kernel_id)
            raise RuntimeError("died while starting")  # the hall tries once more
        return kernel_id

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", start)
    km = hall.HallKernelManager.__new__(hall.HallKernelManager)
    km.hall_room = room
    km.log = __import__("logging").getLogger("test")
    token = hall.CURRENT_PLACE.set(place)
    try:
        # a loop of its own, in a thread of its own (an earlier test may leave one running here);
        # the place goes with the context, as Voila's request passes it
        ctx = __import__("contextvars").copy_context()
        with ThreadPoolExecutor(1) as pool:
            kid = pool.submit(ctx.run, asyncio.run, km.start_kernel()).result()
    finally:
        hall.CURRENT_PLACE.reset(token)
    assert place.kernel_id == kid
    assert seen == [1, 1], seen  # while starting, the place and its kernel count once
    room.release(place)
    assert room.taken({kid}) == 1
    room.admit(pages={kid}, pool=0)  # the first try's kernel is forgotten, this one kept
    assert set(room.owners) == {kid}


def test_a_taken_pool_kernel_is_replaced_only_after_its_page_has_opened():
    """A visitor takes a preheated kernel: the replacement starts REFILL_DELAY_S later (its
    imports would share the server's cores with the page opening); culled pages refill at once;
    the pool's first fill (an explicit delay of 0) is not delayed."""
    from explorer.serving import hall
    from explorer.serving.room import Room

    asked = []

    class Voilas:  # what Voila's pool does with the delay it is given
        kernel_pools_config = {"default": {"pool_size": 2}}
        _pools = {"nb": []}

        def list_kernel_ids(self):
            return []

        def get_pool_size(self, notebook_name):
            return len(self._pools.get(notebook_name, []))

        def fill_if_needed(self, delay=None, notebook_name=None, **kwargs):
            asked.append(delay)

    km = type("HallVoilas", (hall.HallPool, Voilas), {})()
    km.hall_room = Room(max_pages=4)
    km.fill_if_needed(notebook_name="nb")  # Voila's get_rendered_notebook passes delay=None
    km.refill()  # the request that took it has ended
    km.fill_if_needed(delay=0, notebook_name="nb")  # the pool's first fill
    assert hall.REFILL_DELAY_S >= 2.0
    assert asked == [hall.REFILL_DELAY_S, hall.REFILL_DELAY_S, 0], asked
    asked.clear()
    km.refill(delay=0)  # after culling
    assert asked == [0]
