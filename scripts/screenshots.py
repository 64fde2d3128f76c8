"""Screenshots of every dashboard tab for the README, from the real dashboard (``make screenshots``).

Serves ``notebooks/dashboard.ipynb`` with ``python -m explorer.serving.serve`` on a free 127.0.0.1 port,
opens each tab by its link in Debian's Chromium (Playwright, never a downloaded browser) at
1366 × 768, waits until the tab has drawn, and writes ``docs/screenshots/<tab>.png``. Extra
shots (a link each) show states worth a picture of their own. Every tab is also shot in each
other language the dashboard speaks (its link with ``lang=``), into
``docs/screenshots/<language>/<tab>.png`` (issue 35).

Usage: ``python scripts/screenshots.py [--out docs/screenshots] [--only TAB ...]
[--languages sv de ...]`` (``--languages`` with no code: English only)
"""

from __future__ import annotations

import argparse
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
SIZE = (1366, 768)
#: (file name, link query, lecture mode) beyond one default shot per tab.
EXTRA = [
    ("perceptron-lecture", "?tab=perceptron&dataset=xor&step=9", True),
    ("margins-side-by-side", "?tab=margins&dataset=overlapping&layout=side&step=300", False),
    ("perceptron-race", "?tab=perceptron&race=margin,svm_sgd,averaged&step=14", True),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(port: int) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "explorer.serving.serve", "--port", str(port)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/static/favicon.ico", timeout=2)
            return proc
        except urllib.error.HTTPError:
            return proc
        except OSError:
            time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGKILL)
    raise SystemExit("Voila did not start within 90 s")


def _shoot(browser, url: str, path: pathlib.Path, lecture: bool) -> float:
    page = browser.new_page(viewport={"width": SIZE[0], "height": SIZE[1]})
    t0 = time.monotonic()
    page.goto(url)
    page.locator(".pe-narration:visible, .pe-pf-narration:visible").first.wait_for(
        timeout=120_000)
    page.wait_for_selector("canvas", timeout=120_000)
    page.wait_for_timeout(4000)  # the page fits the figure to the window, then redraws
    if lecture:
        page.keyboard.press("l")
        page.wait_for_timeout(3000)
    page.screenshot(path=str(path))
    page.close()
    return time.monotonic() - t0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--languages", nargs="*", default=None,
                        help="the other languages to shoot every tab in (default: all offered)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from playwright.sync_api import sync_playwright

    from explorer.app.dashboard import TABS
    from explorer.shared import i18n

    out = pathlib.Path(args.out)
    shots = [(key, f"?tab={key}", False) for key, _, _ in TABS] + EXTRA
    languages = [c for c in i18n.LANGUAGES if c != i18n.DEFAULT] if args.languages is None \
        else [i18n.check_language(c) for c in args.languages]
    shots += [(f"{code}/{key}", f"?tab={key}&lang={code}", False)
              for code in languages for key, _, _ in TABS]
    if args.only:
        shots = [s for s in shots if s[0].split("/")[-1] in args.only]
    port = _free_port()
    server = _serve(port)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                         args=["--no-sandbox"])
            for name, query, lecture in shots:
                path = out / f"{name}.png"
                path.parent.mkdir(parents=True, exist_ok=True)
                took = _shoot(browser, f"http://127.0.0.1:{port}/{query}", path, lecture)
                print(f"{path.relative_to(ROOT)}  ({took:.1f} s)", flush=True)
            browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
