"""The lecture relay (issue 32): frames, the latest state, slow followers, and the hall's
addresses for it (presenter key, follower page, the two websockets), on tornado in-process."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from pathlib import Path

import pytest
from tornado import httpclient, httpserver, testing, web, websocket

from explorer.serving import lecture_web
from explorer.serving.lecture import (
    KEEP_CHUNKS,
    FrameError,
    Lecture,
    Outbox,
    RateLimit,
    decode,
    encode,
)
from explorer.serving.lecture_web import FLAG_COOKIE, KEY_COOKIE, TOO_FAST, lecture_handlers
from explorer.serving.proxy import CADDY_SITE, nginx_site

ROOT = Path(__file__).resolve().parents[1]


def frame(header, *buffers):
    return decode(encode(header, tuple(buffers)))


def headers_of(datas):
    return [decode(d).header for d in datas]


def state(fig, **traits):
    return frame({"t": "state", "fig": fig, "set": traits})


def chunk(fig, run, index, payload=b"\x00" * 8):
    return frame({"t": "msg", "fig": fig, "msg": {"type": "chunk", "run": run, "index": index}},
                 payload)


def view(fig, step):
    return frame({"t": "view", "fig": fig, "step": step})


def focus(fig, blackout=False, title="Perceptron"):
    return frame({"t": "focus", "fig": fig, "blackout": blackout, "title": title})


# ------------------------------------------------------------------ frames
def test_a_frame_keeps_its_header_and_buffers_byte_for_byte():
    data = encode({"t": "msg", "fig": 1, "msg": {"type": "chunk"}}, (b"abc", b"", b"\x01\x02"))
    f = decode(data)
    assert f.header["sizes"] == [3, 0, 2] and f.data == data
    assert data.endswith(b"abc\x01\x02")


@pytest.mark.parametrize("data, words", [
    (b"\x00\x00", "4 bytes"),
    (b"\x00\x00\x00\x09{}", "header is 9 bytes"),
    (b"\x00\x00\x00\x02{]", "not JSON"),
    (encode({"t": "shout", "fig": 1}), "'t' must be one of"),
    (encode({"t": "view", "fig": 1, "step": 2})[:-1], "has 28 after it"),
    (encode({"t": "view", "fig": 1, "step": 2.5}), "whole step"),
    (encode({"t": "state", "set": {}}), "names its figure"),
    (encode({"t": "msg", "fig": 1, "msg": {}}, (b"ab",)) + b"c", "do not add up"),
    ("text", "is bytes"),
])
def test_frames_that_are_not_frames_are_refused_with_words(data, words):
    with pytest.raises(FrameError, match=words):
        decode(data)


# ------------------------------------------------------------------ the latest state
def test_a_late_follower_gets_the_figure_on_screen_whole_focus_first():
    lec = Lecture()
    for f in (state(1, scene={"run": 3, "chunk": 8}, controls=[["step"]]), chunk(1, 3, 0),
              chunk(1, 3, 1), view(1, 9), state(2, scene={"run": 1}), focus(1)):
        lec.publish(f)
    got = headers_of(lec.snapshot())
    assert [h["t"] for h in got] == ["focus", "state", "msg", "msg", "view"]
    assert got[1]["set"] == {"scene": {"run": 3, "chunk": 8}, "controls": [["step"]]}
    assert [h["msg"]["index"] for h in got[2:4]] == [0, 1] and got[4]["step"] == 9
    lec.publish(focus(2))  # another tab: the other figure, whole
    assert [h.get("fig") for h in headers_of(lec.snapshot())] == [2, 2]


def test_the_still_layers_are_kept_as_bytes_and_sent_whole():
    lec = Lecture()
    lec.publish(focus(1))
    png, other = b"\x89PNG" + bytes(range(200)), b"\x89PNG-above"
    lec.publish(frame({"t": "state", "fig": 1, "set": {"step": 0}, "bin": ["below", "above"]},
                      png, other))
    lec.publish(frame({"t": "state", "fig": 1, "set": {"step": 2}, "bin": ["above"]}, b"new"))
    whole = decode(lec.snapshot()[1])
    assert whole.header["set"] == {"step": 2} and whole.header["bin"] == ["below", "above"]
    assert whole.buffers == [png, b"new"]
    with pytest.raises(FrameError, match="names each of its buffers"):
        decode(encode({"t": "state", "fig": 1, "set": {}, "bin": []}, (b"x",)))


def test_frames_of_a_figure_not_on_screen_are_kept_not_sent():
    lec = Lecture()
    lec.publish(focus(1))
    box = lec.join("a")
    box.refill([])
    assert lec.publish(view(2, 4)) == [] and box.take() is None
    lec.publish(view(1, 5))
    assert decode(box.take()).header["step"] == 5


def test_a_new_run_forgets_the_chunks_of_old_runs_and_chunks_stay_bounded():
    lec = Lecture()
    lec.publish(focus(1))
    lec.publish(state(1, scene={"run": 1, "chunk": 10}))
    lec.publish(chunk(1, 1, 0))
    lec.publish(chunk(1, 2, 0))  # the next run's chunk, before its scene
    lec.publish(state(1, scene={"run": 2, "chunk": 10}))
    assert [h["msg"]["run"] for h in headers_of(lec.snapshot()) if h["t"] == "msg"] == [2]
    lec.publish(view(1, 995))
    for i in range(100):
        lec.publish(chunk(1, 2, i))
    kept = [h["msg"]["index"] for h in headers_of(lec.snapshot()) if h["t"] == "msg"]
    assert len(kept) == KEEP_CHUNKS and 99 in kept and 0 not in kept  # far from step 995 go


def static(fig, run, tracks, *, merge=True, narration=None):
    msg = {"type": "static", "run": run, "merge": merge, "narration": narration,
           "arrays": {t: {"xy": ["float32", [1, 2]]} for t in tracks}}
    return frame({"t": "msg", "fig": fig, "msg": msg}, *(b"\x00" * 8 for _ in tracks))


def test_a_drags_merges_keep_what_a_late_follower_needs_not_their_history():
    lec = Lecture()
    lec.publish(focus(1))
    lec.publish(state(1, scene={"run": 1, "chunk": 8}))
    lec.publish(static(1, 1, ["points", "line"], merge=False))
    lec.publish(static(1, 1, ["band"], narration="Dragging point 3."))
    for _ in range(100):  # the drag: the point and the line again and again
        lec.publish(static(1, 1, ["points", "line"]))
    lec.publish(static(1, 1, ["points"]))
    kept = [(h["msg"]["merge"], sorted(h["msg"]["arrays"]), h["msg"]["narration"])
            for h in headers_of(lec.snapshot()) if h["t"] == "msg"]
    assert kept == [(False, ["line", "points"], None), (True, ["band"], "Dragging point 3."),
                    (True, ["line", "points"], None), (True, ["points"], None)]
    lec.publish(static(1, 1, ["band"]))  # its tracks again, but not its narration: both stay
    lec.publish(static(1, 1, ["x"], merge=False))  # a whole static part ends them all
    assert [sorted(h["msg"]["arrays"]) for h in headers_of(lec.snapshot())
            if h["t"] == "msg"] == [["x"]]


def test_views_waiting_for_a_slow_follower_collapse_to_the_latest():
    box = Outbox(limit=10_000)
    box.put("state", b"s")
    for k in range(50):
        box.put("view", view(1, k).data)
    assert len(box.frames) == 2 and decode(box.frames[-1][1]).header["step"] == 49


def test_a_follower_that_falls_behind_gets_the_latest_state_not_the_backlog():
    lec = Lecture(outbox_limit=2000)
    lec.publish(focus(1))
    lec.publish(state(1, scene={"run": 1, "chunk": 4}, controls=[]))
    slow, fast = lec.join("slow"), lec.join("fast")
    fast.refill([])
    for i in range(30):  # 30 chunks of 100 bytes: past the slow one's 2000 bytes
        lec.publish(chunk(1, 1, i, b"x" * 100))
        while fast.take() is not None:
            pass
    assert slow.behind and not slow.frames and slow.size == 0
    lec.catch_up(slow)
    got = []
    while (d := slow.take()) is not None:
        got.append(decode(d).header)
    assert got[0]["t"] == "focus" and got[1]["t"] == "state"
    assert sorted(h["msg"]["index"] for h in got if h["t"] == "msg") == list(range(30))


def test_a_full_lecture_turns_a_follower_away():
    lec = Lecture(max_followers=2)
    assert lec.join("a") and lec.join("b") and lec.join("c") is None
    lec.leave("a")
    assert lec.join("c") is not None


# ------------------------------------------------------------------ the hall's addresses
KEY = "k3y-for-the-test"


class Served:
    """The lecture's routes on a loopback port, for one test run in a thread of its own (so no
    other event loop of the session, e.g. Playwright's, is running there)."""

    def __init__(self):
        self.lecture = Lecture(max_followers=2)
        app = web.Application(lecture_handlers("/", key=KEY, lecture=self.lecture))
        sock, self.port = testing.bind_unused_port()
        self.server = httpserver.HTTPServer(app)
        self.server.add_sockets([sock])

    def get_url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def ws(self, path, cookie=None):
        req = httpclient.HTTPRequest(self.get_url(path).replace("http", "ws"),
                                     headers={"Cookie": cookie} if cookie else {})
        return websocket.websocket_connect(req)


def served(test):
    """Run ``async def test(self)`` against a fresh :class:`Served`, in its own thread."""

    def run():
        failed = []

        async def main():
            here = Served()
            try:
                await asyncio.wait_for(test(here), timeout=30)
            finally:
                here.server.stop()

        def thread():
            try:
                asyncio.run(main())
            except BaseException as exc:  # noqa: BLE001 - raised again in the test's thread
                failed.append(exc)

        t = threading.Thread(target=thread)
        t.start()
        t.join(60)
        assert not t.is_alive(), "the test's server did not stop"
        if failed:
            raise failed[0]

    run.__name__, run.__doc__ = test.__name__, test.__doc__  # not wraps: pytest would read
    return run                                               # the wrapped one's parameters

@served
async def test_the_key_opens_presenting_and_nothing_else_does(srv):
    client = httpclient.AsyncHTTPClient()
    for query in ("", "?key=", "?key=wrong"):
        r = await client.fetch(srv.get_url("/present" + query), raise_error=False,
                               follow_redirects=False)
        body = r.body.decode()
        assert r.code == 403 and "Not the presenter" in body and "/follow" in body
        assert KEY not in body and "Set-Cookie" not in r.headers
    r = await client.fetch(srv.get_url(f"/present?key={KEY}"), raise_error=False,
                           follow_redirects=False)
    cookies = r.headers.get_list("Set-Cookie")
    assert r.code == 302 and r.headers["Location"] == "/"
    assert any(c.startswith(f"{KEY_COOKIE}={KEY}") and "HttpOnly" in c for c in cookies)
    assert any(c.startswith(f"{FLAG_COOKIE}=present") for c in cookies)


@served
async def test_the_follow_page_and_the_hall_s_pages_get_the_shipped_chinese_font(srv):
    """The lecture's and the hall's own pages take Chinese from the shipped font (first of
    their font list, for Chinese only: explorer/shared/cjk_font.py), which the lecture's routes
    serve as it is shipped."""
    from explorer.serving import hall
    from explorer.shared import cjk_font

    client = httpclient.AsyncHTTPClient()
    face = re.compile(r'@font-face \{ font-family: "([^"]+)";[^}]*src: url\("([^"]+)"\)')
    body = re.compile(r'body \{\{? font-family: ([^;]+);')
    page = (await client.fetch(srv.get_url("/follow"))).body.decode()
    family, url = face.search(page).groups()
    assert family == cjk_font.FAMILY and url == "/lecture/font/NotoSansSC-subset.otf"
    assert body.search(page).group(1).startswith(f'"{cjk_font.FAMILY}", system-ui')
    r = await client.fetch(srv.get_url(url))
    assert r.code == 200 and r.body == cjk_font.PATH.read_bytes()
    for bad in ("OFL.txt", "x.otf", "..%2Fi18n.py"):
        r = await client.fetch(srv.get_url(f"/lecture/font/{bad}"), raise_error=False)
        assert r.code == 404, bad
    for shown in (hall.full_page(taken=2, places=2, again="/", lang="zh", base="/room/"),
                  hall.starting_page(retry=4, why="…", again="/", lang="zh", base="/room/")):
        assert face.search(shown).groups() == (family, "/room" + url)
        assert body.search(shown).group(1).startswith(f'"{cjk_font.FAMILY}", system-ui')


@served
async def test_the_follow_page_names_its_script_and_carries_no_key(srv):
    client = httpclient.AsyncHTTPClient()
    page = (await client.fetch(srv.get_url("/follow"))).body.decode()
    assert 'src="/lecture/static/follow.js"' in page and KEY not in page
    js = (await client.fetch(srv.get_url("/lecture/static/follow.js"))).body.decode()
    assert "class Follower" in js and 'from "./pagefigure.js"' in js
    for name in re.findall(r'from "\./([a-z0-9_]+\.js)"', js):  # the browser imports these
        r = await client.fetch(srv.get_url(f"/lecture/static/{name}"))
        assert r.code == 200 and "javascript" in r.headers["Content-Type"]
    for bad in ("nothing.js", "..%2Fpagefigure.py", "package.json"):
        r = await client.fetch(srv.get_url(f"/lecture/static/{bad}"), raise_error=False)
        assert r.code == 404, bad


@served
async def test_frames_reach_followers_and_a_followers_words_are_ignored(srv):
    pub = await srv.ws("/lecture/publish", f"{KEY_COOKIE}={KEY}")
    assert json.loads(await pub.read_message()) == {"followers": 0, "max_followers": 2}
    pub.write_message(focus(1).data, binary=True)
    pub.write_message(state(1, scene={"run": 1, "chunk": 4}, controls=[]).data, binary=True)
    a = await srv.ws("/lecture/follow")
    got = [decode(await a.read_message()).header for _ in range(2)]
    assert [h["t"] for h in got] == ["focus", "state"]
    # a follower that writes what a presenter would: nothing changes for anyone
    a.write_message(view(1, 7).data, binary=True)
    a.write_message(focus(2).data, binary=True)
    pub.write_message(view(1, 3).data, binary=True)
    assert decode(await a.read_message()).header == {"t": "view", "fig": 1, "step": 3}
    b = await srv.ws("/lecture/follow")
    got = [decode(await b.read_message()).header for _ in range(3)]
    assert got[0]["fig"] == 1 and got[2] == {"t": "view", "fig": 1, "step": 3}
    status = json.loads((await httpclient.AsyncHTTPClient().fetch(
        srv.get_url("/lecture/status"))).body)
    assert status == {"followers": 2, "max_followers": 2, "presenting": True}
    # the presenter hears the count (at most once a second): 1, then 2, or 2 at once
    heard = [json.loads(await pub.read_message())["followers"]]
    if heard[-1] != 2:
        heard.append(json.loads(await pub.read_message())["followers"])
    assert heard in ([2], [1, 2]), heard
    c = await srv.ws("/lecture/follow")  # a third: the lecture holds two
    assert await c.read_message() is None and c.close_code == 4029
    for s in (pub, a, b):
        s.close()


@served
async def test_the_students_address_as_a_qr_code_is_the_one_the_browser_reached(srv):
    client = httpclient.AsyncHTTPClient()
    r = await client.fetch(srv.get_url("/lecture/qr.svg"))
    svg = r.body.decode()
    assert r.headers["Content-Type"] == "image/svg+xml" and svg.startswith("<svg")
    assert f"<title>http://127.0.0.1:{srv.port}/follow</title>" in svg
    r = await client.fetch(srv.get_url("/lecture/qr.svg"), headers={
        "Host": "lecture.example.org", "X-Forwarded-Proto": "https"})
    assert "<title>https://lecture.example.org/follow</title>" in r.body.decode()
    # the same code segno makes for that address (so a phone's camera reads that address)
    import io

    import segno
    out = io.BytesIO()
    segno.make("https://lecture.example.org/follow", error="m").save(
        out, kind="svg", scale=10, border=2, title="https://lecture.example.org/follow",
        svgclass="pe-qr", lineclass=None, xmldecl=False)
    assert r.body == out.getvalue()


@served
async def test_without_the_key_nobody_publishes(srv):
    for cookie in (None, f"{KEY_COOKIE}=guess", f"{FLAG_COOKIE}=present"):
        s = await srv.ws("/lecture/publish", cookie)
        assert await s.read_message() is None and s.close_code == 4003
    f = await srv.ws("/lecture/follow")
    assert srv.lecture.snapshot() == [] and not srv.lecture.presenting
    f.close()


def test_a_rate_limit_lets_a_burst_through_then_the_rate():
    limit = RateLimit(4.0, 3, now=100.0)
    assert [limit.allow(100.0) for _ in range(4)] == [True, True, True, False]
    assert not limit.allow(100.125)      # half a token back
    assert limit.allow(100.25)           # one
    assert [limit.allow(200.0) for _ in range(4)] == [True, True, True, False]  # never > burst
    for rate, burst in ((0, 3), (-1, 3), (1, 0)):
        with pytest.raises(ValueError, match="rate must be > 0 and burst at least 1"):
            RateLimit(rate, burst)


@served
async def test_a_follower_that_floods_is_closed_and_the_others_stay(srv):
    pub = await srv.ws("/lecture/publish", f"{KEY_COOKIE}={KEY}")
    await pub.read_message()
    quiet, noisy = await srv.ws("/lecture/follow"), await srv.ws("/lecture/follow")
    for _ in range(200):
        noisy.write_message("hello")
    while (await noisy.read_message()) is not None:
        pass
    assert noisy.close_code == TOO_FAST and noisy.close_reason == "this page sent too many messages"
    pub.write_message(focus(1).data, binary=True)  # the quiet one still follows
    assert decode(await quiet.read_message()).header["t"] == "focus"
    quiet.close()
    while srv.lecture.followers:  # both gone: a place for the next
        await asyncio.sleep(0.01)
    big = await srv.ws("/lecture/follow")  # one message over 4 KB: closed by tornado (1009)
    big.write_message("x" * 5000)
    while (await big.read_message()) is not None:
        pass
    assert big.close_code == 1009
    pub.close()


@served
async def test_a_presenter_page_that_floods_is_closed_with_words(srv):
    saved = lecture_web.PRESENTER_RATE
    lecture_web.PRESENTER_RATE = (50.0, 20)
    try:
        pub = await srv.ws("/lecture/publish", f"{KEY_COOKIE}={KEY}")
    finally:
        lecture_web.PRESENTER_RATE = saved
    await pub.read_message()
    for k in range(100):
        pub.write_message(view(1, k).data, binary=True)
    while (await pub.read_message()) is not None:
        pass
    assert pub.close_code == TOO_FAST
    assert pub.close_reason == "this page sent frames faster than the room takes them"
    while srv.lecture.presenter is not None:  # its close heard by the server too
        await asyncio.sleep(0.01)


def test_the_close_code_for_too_fast_is_the_pages():
    """The page reads the server's close code (lecture.js, TOO_FAST): one number, two files."""
    js = (Path(lecture_web.__file__).parents[1] / "app" / "static" / "lecture.js").read_text()
    assert re.search(r"export const TOO_FAST = (\d+);", js).group(1) == str(TOO_FAST)


def test_the_docs_give_the_proxy_blocks_the_test_runs():
    page = (ROOT / "docs" / "serving.md").read_text(encoding="utf-8")
    assert "```nginx\n" + nginx_site() + "```" in page and CADDY_SITE in page
    site = nginx_site(port=9001, prefix="/a/", listen="127.0.0.1:8443")
    assert "proxy_pass http://127.0.0.1:9001;" in site and "location /a/ {" in site
    assert "proxy_set_header Host $http_host;" in site and "Upgrade $http_upgrade" in site
    with pytest.raises(ValueError, match="start and end with '/'"):
        nginx_site(prefix="perceptron")
