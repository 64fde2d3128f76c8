"""Margins tab, Drag mode, in Chromium: the page's frames while a point is dragged, and how far
the max-margin band is behind the pointer (issue 21: at least 50 frames/s, at most 50 ms).

Voila serves the dashboard at ``?tab=margins&dataset=koski&hard=true`` (1366x768, device pixel
ratio 1). A support vector is pressed and moved for :data:`SECONDS` s by pointer events
dispatched on the figure's canvas at every animation frame (one move a frame, as a browser
delivers a real pointer's moves), along a small loop around where it was, so the solution
changes at every move but the figure's layout does not. Timed inside the page with
``performance.now()``:

* **frames while dragging**: animation frames in which the figure canvas was drawn (one or
  more ``drawImage`` calls onto it), over the drag's duration;
* **band behind the pointer**: the kernel re-solves for each move the page sends it (at most
  one every 30 ms, the latest position) and answers with the new solution (a "static"
  message). For each answer: the first drawing of the canvas after it arrived, minus the time
  the pointer reached the position the answer is for (the last move dispatched before that
  position was sent). Answers are matched to moves sent in order (the kernel answers each
  move); the note says how many moves were sent and answered.

Messages are seen by wrapping the page's ``WebSocket`` before Voila's scripts run; canvas draws
by wrapping its context's ``drawImage`` (as ``bench_browser`` does).
"""

from __future__ import annotations

import pathlib
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
import _voila as V  # noqa: E402

QUERY = "?tab=margins&dataset=koski&hard=true"
FIGURE = ".pe-pagefigure"
SECONDS = 4.0
#: The loop the dragged point follows around where it was pressed (CSS px).
RADIUS_PX = 18.0
TURNS = 2

# Before any page script: note the time of each pointer move sent to the kernel and of each
# "static" answer received (the Jupyter websocket carries binary frames with JSON inside).
WS_JS = """
(() => {
  const dec = new TextDecoder();
  const text = (d) => typeof d === "string" ? d : (d instanceof ArrayBuffer ? dec.decode(d)
    : (ArrayBuffer.isView(d) ? dec.decode(d) : ""));
  window.__peSent = [];
  window.__peAnswers = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (d) {
    const t = performance.now();
    const s = text(d);
    if (s.includes('"pointer"') && s.includes('"drag"') && s.includes('"move"')) window.__peSent.push(t);
    return send.call(this, d);
  };
  const Orig = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new Orig(...args);
    ws.addEventListener("message", (ev) => {
      const t = performance.now();
      const s = text(ev.data);
      if (s.includes('"static"') && s.includes('"custom"')) window.__peAnswers.push(t);
    });
    return ws;
  };
  window.WebSocket.prototype = Orig.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
})();
"""

DRAG_JS = """
async (c, [x0, y0, radius, turns, seconds]) => {
  const ctx = c.getContext("2d");
  const draws = [];
  const orig = ctx.drawImage;
  ctx.drawImage = function (...a) { draws.push(performance.now()); return orig.apply(this, a); };
  const r = c.getBoundingClientRect();
  const fire = (type, x, y) => c.dispatchEvent(new PointerEvent(type, {
    clientX: r.left + x, clientY: r.top + y, button: 0, buttons: type === "pointerup" ? 0 : 1,
    pointerId: 7, pointerType: "mouse", isPrimary: true, bubbles: true, cancelable: true }));
  window.__peSent.length = 0;
  window.__peAnswers.length = 0;
  fire("pointerdown", x0, y0);
  const moves = [];
  const t0 = performance.now();
  await new Promise((done) => {
    const tick = () => {
      const s = (performance.now() - t0) / 1000;
      if (s >= seconds) return done();
      const a = 2 * Math.PI * turns * s / seconds;
      // a loop through the pressed point: (x0, y0) at a = 0
      const x = x0 + radius * Math.sin(a), y = y0 + radius * (1 - Math.cos(a));
      fire("pointermove", x, y);
      moves.push(performance.now());
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const t1 = performance.now();
  fire("pointerup", x0, y0);
  await new Promise((d) => setTimeout(d, 500));
  ctx.drawImage = orig;
  return { t0, t1, moves, draws, sent: [...window.__peSent], answers: [...window.__peAnswers] };
}
"""


def measure(rec: dict) -> dict:
    """Frames per second and the band's lag (ms) from one drag's page-side record ``rec``
    (times in ms: ``t0``/``t1`` the drag, ``moves`` dispatched, ``draws`` of the canvas,
    ``sent`` moves sent to the kernel, ``answers`` received)."""
    t0, t1 = rec["t0"], rec["t1"]
    frame_ms = 1000 / 60
    during = [t for t in rec["draws"] if t0 <= t <= t1]
    # draws within one animation frame count once: a new frame starts after a gap
    frames = sum(1 for i, t in enumerate(during) if i == 0 or t - during[i - 1] > frame_ms / 3)
    fps = frames / ((t1 - t0) / 1000)
    moves, draws = rec["moves"], rec["draws"]
    sent = [t for t in rec["sent"] if t0 <= t <= t1 + 50]
    answers = [t for t in rec["answers"] if t >= (sent[0] if sent else t0)]
    lags, parts = [], []
    for s, a in zip(sent, answers, strict=False):
        reached = max((m for m in moves if m <= s), default=None)
        drawn = next((d for d in draws if d >= a), None)
        if reached is not None and drawn is not None:
            lags.append(drawn - reached)
            parts.append((s - reached, a - s, drawn - a))
    # where the lag goes, medians: pointer -> sent, sent -> answer, answer -> drawn
    split = tuple(statistics.median(p[i] for p in parts) for i in range(3)) if parts else ()
    return {"fps": fps, "frames": frames, "lags": lags, "sent": len(sent),
            "answered": min(len(sent), len(answers)), "split": split}


def _figures(m: dict, seconds: float) -> list[dict]:
    lags = sorted(m["lags"])
    p95 = lags[min(len(lags) - 1, int(round(0.95 * (len(lags) - 1))))] if lags else float("nan")
    note = (f"{m['frames']} frames in {seconds:.1f} s of dragging; {m['sent']} moves sent to "
            f"the kernel, {m['answered']} answered")
    if m.get("split"):
        note += ("; median pointer -> sent {:.0f} ms, sent -> answer {:.0f} ms, answer -> "
                 "drawn {:.0f} ms").format(*m["split"])
    return [
        {"key": "margins_drag_fps", "name": "Margins drag: page frames per second while dragging",
         "value": m["fps"], "unit": "frames/s", "target": ">= 50", "note": note},
        {"key": "margins_drag_band_lag_median_ms",
         "name": "Margins drag: band behind the pointer, median",
         "value": statistics.median(lags) if lags else float("nan"), "unit": "ms",
         "target": "<= 50", "note": note},
        {"key": "margins_drag_band_lag_p95_ms", "name": "Margins drag: band behind the pointer, p95",
         "value": p95, "unit": "ms", "note": note},
    ]


def run(seconds: float = SECONDS) -> list[dict]:
    if not V.chromium_available():
        return [{"name": "drag benchmark skipped", "value": float("nan"), "unit": "",
                 "note": f"{V.CHROMIUM} not found"}]
    with V.served_chromium("bench-drag-") as (server, browser):
        ctx = browser.new_context(viewport={"width": 1366, "height": 768})
        ctx.set_default_timeout(60_000)
        ctx.add_init_script(WS_JS)
        page = ctx.new_page()
        page.goto(server.url + QUERY)
        V.wait_for_canvas(page, timeout=90)
        V.wait_for_text(page, "pe-pf-narration", lambda t: "3 support vectors" in t, timeout=60)
        page.wait_for_timeout(2500)  # fitted to the window
        page.get_by_role("button", name="Drag").click()
        page.wait_for_function(
            f"() => document.querySelector('{FIGURE}').dataset.pointerMode === 'drag'")
        canvas = page.locator(f"{FIGURE} canvas.pe-canvas")
        lists = page.locator(FIGURE).evaluate("e => e.peDisplayList")
        ring = next(d for d in lists if d["track"] == "plane_rings")["px"][0]
        page.wait_for_timeout(1000)
        rec = canvas.evaluate(DRAG_JS, [ring[0], ring[1], RADIUS_PX, TURNS, seconds])
        ctx.close()
    return _figures(measure(rec), seconds)


if __name__ == "__main__":
    for fig in run():
        print(fig)
