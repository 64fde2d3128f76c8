"""Measure the hub of ``make hub`` (docs/serving.md, "One machine with a hub"), in Chromium:

1. cold: one student logs in on an empty hub; seconds from pressing "Sign in" to an interactive
   dashboard (the figure drawn and the Perceptron tab at "step 0 of 12 · 0 updates"), and to the
   first Step answered;
2. warm: the same student, whose server is still running, opens the dashboard again in a new
   browser (log in again): a pre-spawned server;
3. a cohort: N students press "Sign in" within a second, past ``concurrent_spawn_limit``; what
   each sees and when each dashboard is interactive (a student told "Too many users trying to log
   in right now" tries again 10 s later, as the page asks);
4. memory per student: RSS and PSS of each single-user server and of its kernel;
5. the limit: one student more than ``active_server_limit`` logs in; what they see.

    python scripts/hub_measure.py [--cohort 6] [--out benchmarks/results/hub.json]

Writes the figures as JSON and prints a summary, with what else was running on the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))
import _voila as V  # noqa: E402
from _hub import HubServer  # noqa: E402

PASSWORD = "measure-the-hub"
# Set in every page: the moment (Date.now()) the dashboard first became interactive.
READY_JS = """
setInterval(() => {
  if (window.__peReady) return;
  const where = document.querySelector('.pe-where');
  const canvas = document.querySelector('canvas.pe-canvas');
  if (where && canvas && canvas.width && where.innerText.startsWith('step 0 of 12 · 0 updates'))
    window.__peReady = Date.now();
}, 50);
"""
TOO_MANY = "Too many users trying to log in"
FULL = "The class is full"


def machine() -> dict:
    """The machine and what else was running on it (CPU over one second, top 5 by CPU)."""
    procs = list(psutil.process_iter(["pid", "name", "cmdline"]))
    for p in procs:
        try:
            p.cpu_percent(None)
        except psutil.Error:
            pass
    time.sleep(1.0)
    busy = []
    for p in procs:
        try:
            busy.append((p.cpu_percent(None), " ".join(p.info["cmdline"] or [p.info["name"]])[:80]))
        except psutil.Error:
            continue
    busy.sort(reverse=True)
    return {"cpus": os.cpu_count(), "memory_gb": round(psutil.virtual_memory().total / 2**30, 1),
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "processes": len(procs), "busiest": [f"{c:.0f}% {cmd}" for c, cmd in busy[:5]],
            "python": platform.python_version()}


def student(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.set_default_timeout(120_000)
    context.add_init_script(READY_JS)
    return context, context.new_page()


def sign_in(page, hub, name: str) -> float:
    """Log in; the epoch ms at which "Sign in" was pressed."""
    page.goto(hub.url + "hub/login")
    page.fill("#username_input", name)
    page.fill("#password_input", PASSWORD)
    t0 = page.evaluate("Date.now()")
    page.click("#login_submit", no_wait_after=True)
    return t0


def ready_at(page) -> float | None:
    try:
        return page.evaluate("window.__peReady || null")
    except Exception:  # noqa: BLE001 - navigating
        return None


def first_step(page) -> float:
    """Seconds from pressing Step to the status line showing step 1."""
    from test_dashboard import wait_for_fitted

    wait_for_fitted(page)
    t0 = time.monotonic()
    V.click_button(page, "Step ▶", timeout=60)
    V.wait_for_text(page, "pe-where", lambda t: t.startswith("step 1 of 12"), timeout=60)
    return time.monotonic() - t0


def memory(hub) -> dict[str, dict]:
    """Per student: RSS and PSS (MB) of the single-user server and of its kernels."""
    out = {}
    for name, server in hub.servers().items():
        kernels = [p for p in server.children(recursive=True)]
        mb = {}
        for label, group in (("server", [server]), ("kernel", kernels)):
            rss = pss = 0
            for p in group:
                info = p.memory_full_info()
                rss += info.rss
                pss += getattr(info, "pss", info.rss)
            mb[f"{label}_rss_mb"] = round(rss / 2**20)
            mb[f"{label}_pss_mb"] = round(pss / 2**20)
        mb["kernels"] = len(kernels)
        out[name] = mb
    return out


def cohort(browser, hub, names: list[str], timeout: float = 600.0) -> dict[str, dict]:
    """Everyone presses "Sign in" at once; follow each page until its dashboard is interactive."""
    pages = {n: student(browser) for n in names}
    start = {n: sign_in(pages[n][1], hub, n) for n in names}
    seen: dict[str, dict] = {n: {"refused": 0} for n in names}
    retry_at: dict[str, float] = {}
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any("ready_s" not in s and "full" not in s
                                               for s in seen.values()):
        for n in names:
            s, page = seen[n], pages[n][1]
            if "ready_s" in s or "full" in s:
                continue
            at = ready_at(page)
            if at:
                s["ready_s"] = round((at - start[n]) / 1000, 1)
                continue
            if n in retry_at:
                if time.monotonic() >= retry_at[n]:
                    del retry_at[n]
                    page.goto(hub.url + "hub/spawn", wait_until="commit")
                continue
            try:
                text = page.locator("body").inner_text(timeout=1000)
            except Exception:  # noqa: BLE001 - navigating
                continue
            if TOO_MANY in text:
                s["refused"] += 1
                s.setdefault("message", next(line.strip() for line in text.splitlines()
                                             if TOO_MANY in line))
                retry_at[n] = time.monotonic() + 10
            elif FULL in text:
                s["full"] = " ".join(text.split())[:200]
        time.sleep(0.25)
    return seen, pages


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cohort", type=int, default=6)
    ap.add_argument("--spawn-limit", type=int, default=4)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "hub.json")
    opts = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    result = {"machine_before": machine()}
    folder = Path(tempfile.mkdtemp(prefix="hub-measure-"))
    limit = opts.cohort + 1  # the cold/warm student and the cohort; one more is past it
    hub = HubServer(folder / "state", folder / "hub.log", password=PASSWORD,
                    active_server_limit=limit, concurrent_spawn_limit=opts.spawn_limit)
    hub.start()
    result["limits"] = {"active_server_limit": limit, "concurrent_spawn_limit": opts.spawn_limit}
    try:
        with sync_playwright() as pw:
            browser = V.launch_chromium(pw)
            # 1. cold
            ctx, page = student(browser)
            t0 = sign_in(page, hub, "first")
            page.wait_for_function("window.__peReady", timeout=300_000, polling=100)
            result["cold_login_to_interactive_s"] = round((ready_at(page) - t0) / 1000, 1)
            result["cold_first_step_s"] = round(first_step(page), 2)
            ctx.close()
            # 2. warm: the server is running; a new browser, a new login, a new kernel
            time.sleep(3)
            ctx, page = student(browser)
            t0 = sign_in(page, hub, "first")
            page.wait_for_function("window.__peReady", timeout=300_000, polling=100)
            result["warm_login_to_interactive_s"] = round((ready_at(page) - t0) / 1000, 1)
            result["warm_first_step_s"] = round(first_step(page), 2)
            # 3. a cohort at once
            names = [f"s{i:02d}" for i in range(opts.cohort)]
            seen, pages = cohort(browser, hub, names)
            result["cohort"] = seen
            ready = sorted(s["ready_s"] for s in seen.values() if "ready_s" in s)
            result["cohort_ready_s"] = {"n": len(ready), "first": ready[0] if ready else None,
                                        "median": statistics.median(ready) if ready else None,
                                        "last": ready[-1] if ready else None}
            # 4. memory, every student's page open and idle
            time.sleep(5)
            mem = memory(hub)
            result["memory"] = mem
            totals = [m["server_rss_mb"] + m["kernel_rss_mb"] for m in mem.values()]
            ptotals = [m["server_pss_mb"] + m["kernel_pss_mb"] for m in mem.values()]
            result["memory_per_student_mb"] = {
                "rss_median": statistics.median(totals), "pss_median": statistics.median(ptotals),
                "server_rss_median": statistics.median(m["server_rss_mb"] for m in mem.values()),
                "kernel_rss_median": statistics.median(m["kernel_rss_mb"] for m in mem.values())}
            # 5. one more than the limit
            ctx2, extra = student(browser)
            sign_in(extra, hub, "late")
            extra.wait_for_function(f"window.__peReady || document.body.innerText.includes({FULL!r})",
                                    timeout=120_000, polling=200)
            result["past_the_limit"] = " ".join(extra.locator("body").inner_text().split())[:300]
            result["machine_after"] = machine()
            browser.close()
    finally:
        hub.stop()
        opts.out.parent.mkdir(parents=True, exist_ok=True)
        opts.out.write_text(json.dumps(result, indent=1))
    print(json.dumps({k: v for k, v in result.items() if k not in ("cohort", "memory")},
                     indent=1))
    print(f"written: {opts.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
