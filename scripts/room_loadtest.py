"""Load test of the lecture's room (``make loadtest``, after the hall's): one presenter, many
followers (issue 32's targets).

Starts ``perceptron-explorer --hall`` on a free 127.0.0.1 port with a presenter key, opens the
presenter's dashboard and 3 followers in Debian's Chromium, and plays the part of the other
followers with small websocket clients (``--followers``, 500) in a process of their own, each
reading every frame as a follower's page does. Measures, on loopback:

1. ``room_flood_open_last_s``: the simulated followers arriving at once, the seconds until the
   last one has the whole state (the figure on screen, whole);
2. ``room_mb_per_follower``: the server's RSS with them connected, less before, per follower;
3. ``room_step_to_follower_median_ms`` / ``_p95_ms``: the presenter's Step (the click, in its
   page) to each Chromium follower drawing that step (its canvas), all followers connected;
4. ``room_follow_play_fraction``: the presenter plays at 10 steps/s for ``--play-seconds``;
   the steps a Chromium follower drew over the steps the presenter drew;
5. ``room_server_cpu_fraction``: the server's CPU time over that play, per second of it;
6. ``room_followers``: followers still connected and receiving at the end;
7. ``room_ask_to_question_median_ms`` / ``_p95_ms`` (issue 33): the presenter asks (key q) to
   the question on each follower, the 3 in Chromium (the card on screen) and the simulated
   ones (the frame that carries it read);
8. ``room_answer_to_tally_median_ms`` / ``_p95_ms``: the simulated followers answer, spread
   over :data:`ANSWER_SPREAD_S` seconds; each answer (the i-th sent) to the presenter's card
   counting i answers (on screen);
9. ``room_answers_cpu_fraction``: the server's CPU time over those seconds, per second.

The clocks of the followers' process and of Chromium are the machine's (epoch), so 7 and 8
compare times taken in different processes on one machine.

Writes ``benchmarks/results/room.json`` and prints a table. Usage::

    python scripts/room_loadtest.py [--followers 500] [--play-seconds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from loadtest import percentile  # noqa: E402  (scripts/, beside this one)

from explorer.serving.serve import free_port  # noqa: E402

KEY = "room-load-test-key"
TARGETS = {"room_followers": (">=", 500), "room_step_to_follower_median_ms": ("<=", 50),
           "room_step_to_follower_p95_ms": ("<=", 100), "room_follow_play_fraction": (">=", 0.98),
           "room_flood_open_last_s": ("<=", 10), "room_mb_per_follower": ("<=", 1),
           "room_server_cpu_fraction": ("<=", 0.5),
           "room_ask_to_question_p95_ms": ("<=", 200), "room_answer_to_tally_p95_ms": ("<=", 500),
           "room_answers_cpu_fraction": ("<=", 1.0)}
#: The simulated followers' answers are spread over this many seconds after the question came.
ANSWER_SPREAD_S = 9.0
#: The seconds the question phase takes, with margins (the simulated followers stay for it).
QUESTION_S = 30.0
#: A run long enough to play 10 steps/s for a while (the Perceptron tab, many points).
PLAY_LINK = "?tab=perceptron&dataset=separable&n=200&seed=1&max_epochs=50"


# ------------------------------------------------------------------ simulated followers
async def _followers(url: str, n: int, seconds: float) -> dict:
    """``n`` followers arriving at once; each reads frames until ``seconds`` have passed."""
    from tornado.websocket import websocket_connect

    from explorer.serving.lecture import decode

    t0 = time.monotonic()
    whole, frames, errors = [], [0] * n, []
    asked, answered = [], []  # epoch s: a question's frame read; an answer sent

    def answer(ws, fig, qid, choice):
        answered.append(time.time())
        ws.write_message(json.dumps({"t": "answer", "fig": fig, "id": qid, "choice": choice}))

    async def one(i):
        try:
            ws = await websocket_connect(url, max_message_size=64 * 2**20)
        except Exception as exc:  # noqa: BLE001 - counted
            errors.append(repr(exc))
            return
        got_view, seen = False, None
        while time.monotonic() - t0 < seconds:
            try:
                msg = await asyncio.wait_for(ws.read_message(), timeout=1.0)
            except asyncio.TimeoutError:
                continue
            if msg is None:
                errors.append("closed")
                return
            frames[i] += 1
            head = decode(msg).header
            if not got_view and head["t"] == "view":
                got_view = True
                whole.append(time.monotonic() - t0)
            q = head.get("set", {}).get("question") if head["t"] == "state" else None
            if q and q.get("phase") == "open" and q["id"] != seen:
                seen = q["id"]
                asked.append(time.time())
                asyncio.get_running_loop().call_later(0.5 + ANSWER_SPREAD_S * i / n, answer, ws,
                                                      head["fig"], q["id"], q["choices"][i % 2][0])
        ws.close()

    await asyncio.gather(*(one(i) for i in range(n)))
    return {"whole_s": whole, "frames": frames, "errors": errors[:5], "n_errors": len(errors),
            "asked_at": asked, "answered_at": answered}


def followers_main(url: str, n: int, seconds: float, out: str) -> None:
    result = asyncio.run(_followers(url, n, seconds))
    Path(out).write_text(json.dumps(result))


# ------------------------------------------------------------------ the room
def _rss_mb(pid: int) -> float:
    import psutil

    return psutil.Process(pid).memory_info().rss / 2**20


def _cpu_s(pid: int) -> float:
    import psutil

    t = psutil.Process(pid).cpu_times()
    return t.user + t.system


#: In a page, from now on: each step its page figure (``sel``) draws, with when (epoch ms), in
#: ``window.peDrawn``; false until the figure is there. The time is the figure's own record of
#: the draw (``peDrawnAt``: its pixels are on the canvas, painted at the end of that animation
#: frame), read at the watcher's next frame; the watcher's frame itself is not in the delay (it
#: was until 2026-11-27, adding up to a frame: a watcher registered before the figure's draw
#: runs first in the frame and sees the step one frame later).
RECORD = """(sel) => { const r = document.querySelector(sel);
  if (!r) return false; if (window.peDrawn) return true; window.peDrawn = [];
  let last = r.peStep;
  const look = () => { const k = r.peStep; if (k !== last) { last = k;
    window.peDrawn.push([k, performance.timeOrigin + r.peDrawnAt]); }
    requestAnimationFrame(look); };
  requestAnimationFrame(look); return true; }"""
FOLLOWED = ".pe-follow-figure .pe-pagefigure"


def _steps(page, presenter, n: int) -> list[float]:
    """The presenter clicks Step ``n`` times; each Chromium follower's delay to draw it, ms."""
    delays = []
    for f in page:
        f.evaluate("() => { window.peDrawn = []; }")
    for _ in range(n):
        t = presenter.evaluate("""() => { const b = document.querySelector('.pe-pf-btn.pe-step');
            const t = performance.timeOrigin + performance.now(); b.click(); return t; }""")
        time.sleep(0.4)
        for f in page:
            for _step, at in f.evaluate("() => window.peDrawn"):
                if at >= t:
                    delays.append(at - t)
                    break
    return delays


#: In a follower's page: when the question's card is first on screen (epoch ms), in
#: ``window.peAsked``.
RECORD_CARD = """() => { window.peAsked = null; const look = () => {
    if (document.querySelector('.pe-follow-figure .pe-q-card'))
      window.peAsked = performance.timeOrigin + performance.now();
    else requestAnimationFrame(look); }; requestAnimationFrame(look); }"""
#: In the presenter's page: each count of answers its card shows, with when (epoch ms).
RECORD_COUNT = """() => { window.peCounts = []; let last = '';
  const look = () => { const c = document.querySelector('.pe-pagefigure .pe-q-count');
    const t = c ? c.textContent : '';
    if (t !== last) { last = t; window.peCounts.push([parseInt(t, 10) || 0,
      performance.timeOrigin + performance.now()]); }
    if (!window.peCountsDone) requestAnimationFrame(look); };
  requestAnimationFrame(look); }"""


def _question(presenter, fpages, server_pid: int) -> dict:
    """The presenter asks (q); the followers' pages see it; the simulated followers answer
    over :data:`ANSWER_SPREAD_S` s; the server's CPU over them; then Reveal."""
    for f in fpages:
        f.evaluate(RECORD_CARD)
    presenter.evaluate(RECORD_COUNT)
    presenter.locator(".pe-pagefigure canvas.pe-canvas").first.click()
    t_ask = presenter.evaluate("() => performance.timeOrigin + performance.now()")
    presenter.keyboard.press("q")
    presenter.wait_for_selector(".pe-pagefigure .pe-q-card")
    cpu0, t0 = _cpu_s(server_pid), time.monotonic()
    time.sleep(ANSWER_SPREAD_S + 1.0)
    cpu = (_cpu_s(server_pid) - cpu0) / (time.monotonic() - t0)
    time.sleep(3)  # the last tallies
    presenter.evaluate("() => { window.peCountsDone = true; }")
    counts = presenter.evaluate("() => window.peCounts")
    chromium = [f.evaluate("() => window.peAsked") for f in fpages]
    presenter.click(".pe-pagefigure .pe-q-reveal")
    presenter.wait_for_selector(".pe-pagefigure .pe-q-card[data-phase='revealed']")
    return {"t_ask_ms": t_ask, "chromium_asked_ms": chromium, "presenter_counts": counts,
            "room_answers_cpu_fraction": round(cpu, 3)}


def _question_delays(out: dict, sim: dict) -> dict:
    """Ask -> question on every follower, and answer -> the presenter's count, in ms."""
    t_ask = out.pop("t_ask_ms")
    asked = [a * 1000 - t_ask for a in sim["asked_at"]]
    asked += [a - t_ask for a in out.pop("chromium_asked_ms") if a is not None]
    counts = out.pop("presenter_counts")
    sent = sorted(a * 1000 for a in sim["answered_at"])
    delays = []
    for i, t in enumerate(sent, start=1):  # the i-th answer: shown when the card counts i
        shown = next((at for n, at in counts if n >= i), None)
        if shown is not None:
            delays.append(max(0.0, shown - t))
    res = {"question_followers": len(asked), "answers_sent": len(sent),
           "answers_counted": max((n for n, _ in counts), default=0)}
    if asked:
        res["room_ask_to_question_median_ms"] = round(statistics.median(asked), 1)
        res["room_ask_to_question_p95_ms"] = round(percentile(asked, 95), 1)
    if delays:
        res["room_answer_to_tally_median_ms"] = round(statistics.median(delays), 1)
        res["room_answer_to_tally_p95_ms"] = round(percentile(delays, 95), 1)
    return res


def run(opts) -> dict:
    from playwright.sync_api import sync_playwright

    port = free_port()
    env = dict(os.environ, PE_PRESENTER_KEY=KEY, PYTHONUNBUFFERED="1")
    log = open(ROOT / "benchmarks" / "results" / "room-server.log", "wb")  # noqa: SIM115
    server = subprocess.Popen([sys.executable, "-m", "explorer.serving.serve", "--hall",
                               "--port", str(port), "--preheat", "1", "--max-pages", "6"],
                              cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                              start_new_session=True)
    base = f"http://127.0.0.1:{port}/"
    out: dict = {"followers_asked": opts.followers, "play_seconds": opts.play_seconds}
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.3)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-timer-throttling",
                "--disable-renderer-backgrounding", "--disable-backgrounding-occluded-windows"])
            pctx = browser.new_context(viewport={"width": 1280, "height": 800})
            pctx.set_default_timeout(180_000)
            presenter = pctx.new_page()
            presenter.goto(base + f"present?key={KEY}")
            presenter.goto(base + PLAY_LINK)
            presenter.wait_for_selector(".pe-pagefigure canvas.pe-canvas")
            presenter.wait_for_function("() => document.querySelector('.pe-pagefigure').peStep === 0")
            time.sleep(3)
            server_pid = server.pid
            rss0 = _rss_mb(server_pid)
            # 1-2: the simulated followers arrive at once and stay
            res_file = ROOT / "benchmarks" / "results" / "room-followers.json"
            stay = 120 + opts.play_seconds + QUESTION_S
            sim = subprocess.Popen([sys.executable, __file__, "--followers-only", base.replace(
                "http", "ws") + "lecture/follow", str(opts.followers), str(stay), str(res_file)])
            time.sleep(12)
            out["room_mb_per_follower"] = round((_rss_mb(server_pid) - rss0) / opts.followers, 3)
            # 3: three Chromium followers; the presenter steps
            fpages = []
            for _ in range(3):
                fp = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
                fp.goto(base + "follow")
                fp.wait_for_function(RECORD, arg=FOLLOWED, timeout=120_000)
                fpages.append(fp)
            delays = _steps(fpages, presenter, 20)
            out["room_step_to_follower_median_ms"] = round(statistics.median(delays), 1)
            out["room_step_to_follower_p95_ms"] = round(percentile(delays, 95), 1)
            out["step_samples"] = len(delays)
            # 4-5: Play at 10 steps/s
            for f in fpages:
                f.evaluate("() => { window.peDrawn = []; }")
            presenter.evaluate("""() => { const s = document.querySelector('.pe-pf-speed-input');
                s.value = '10'; s.dispatchEvent(new Event('input')); }""")
            presenter.evaluate(RECORD, ".pe-pagefigure")
            cpu0, t0 = _cpu_s(server_pid), time.monotonic()
            presenter.click(".pe-pf-btn.pe-play")
            time.sleep(opts.play_seconds)
            presenter.click(".pe-pf-btn.pe-play")
            out["room_server_cpu_fraction"] = round(
                (_cpu_s(server_pid) - cpu0) / (time.monotonic() - t0), 3)
            time.sleep(1.5)
            mine = {k for k, _ in presenter.evaluate("() => window.peDrawn")}
            fractions = [len(mine & {k for k, _ in f.evaluate("() => window.peDrawn")}) / max(len(mine), 1)
                         for f in fpages]
            out["presenter_steps_played"] = len(mine)
            out["room_follow_play_fraction"] = round(min(fractions), 3)
            out.update(_question(presenter, fpages, server_pid))
            browser.close()
        sim.wait(timeout=stay + 60)
        sim_res = json.loads(res_file.read_text())
        whole = sim_res["whole_s"]
        out["room_flood_open_last_s"] = round(max(whole), 2) if len(whole) == opts.followers else None
        out["room_flood_open_median_s"] = round(statistics.median(whole), 2) if whole else None
        out["room_followers"] = sum(1 for f in sim_res["frames"] if f > 0) + 3
        out["follower_errors"] = sim_res["n_errors"]
        out.update(_question_delays(out, sim_res))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)
    out["load_average"] = os.getloadavg()
    return out


def table(result: dict) -> str:
    rows = []
    for key, (op, target) in TARGETS.items():
        v = result.get(key)
        ok = v is not None and (v >= target if op == ">=" else v <= target)
        rows.append(f"{key:36s} {v!s:>10s}   target {op} {target}   {'ok' if ok else 'MISSED'}")
    return "\n".join(rows)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--followers-only"]:
        followers_main(argv[1], int(argv[2]), float(argv[3]), argv[4])
        return 0
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--followers", type=int, default=500)
    p.add_argument("--play-seconds", type=float, default=30)
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "room.json"))
    opts = p.parse_args(argv)
    (ROOT / "benchmarks" / "results").mkdir(parents=True, exist_ok=True)
    result = run(opts)
    Path(opts.out).write_text(json.dumps(result, indent=2))
    print(table(result))
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
