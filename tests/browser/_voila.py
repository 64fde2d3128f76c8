"""Helpers for the end-to-end browser tests: a Voila server in a subprocess, Debian's Chromium
driven by Playwright (sync API), and small page helpers for ipywidgets pages with the
dashboard's page-drawn figure (explorer.app.pagefigure: one ``canvas.pe-canvas`` per figure).

Playwright never downloads a browser here: we always launch /usr/bin/chromium.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
# No internet on these machines: the background-networking flags stop Chromium's own connections.
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
REPO_ROOT = Path(__file__).resolve().parents[2]

# The canvas of a page-drawn figure.
CANVAS = "canvas.pe-canvas"


def chromium_available() -> bool:
    return os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class VoilaServer:
    """``python -m explorer.serving.serve`` in a subprocess, on a free 127.0.0.1 port.

    ``notebook=None`` serves the real dashboard. Output goes to ``log_path``.
    """

    def __init__(self, notebook: Path | None, log_path: Path, *, extra_args: tuple[str, ...] = ()):
        self.notebook = notebook
        self.log_path = Path(log_path)
        self.extra_args = tuple(extra_args)
        self.port: int | None = None
        self.proc: subprocess.Popen | None = None
        self._log = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self, timeout: float = 60.0) -> VoilaServer:
        self.port = free_port()
        cmd = [sys.executable, "-m", "explorer.serving.serve", "--port", str(self.port)]
        if self.notebook is not None:
            cmd += ["--notebook", str(self.notebook)]
        cmd += list(self.extra_args)
        env = dict(os.environ)
        # Works from a source checkout even when the package is not pip-installed.
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(REPO_ROOT), env.get("PYTHONPATH", "")) if p
        )
        env["PYTHONUNBUFFERED"] = "1"
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            cmd,
            cwd=REPO_ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: kernels included, killable at once
        )
        self._wait_ready(timeout)
        return self

    def _wait_ready(self, timeout: float) -> None:
        # Poll a static file: GET / would start (and leave behind) a kernel each time.
        probe = self.url + "voila/static/favicon.ico"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"Voila exited with code {self.proc.returncode} before answering:\n"
                    + self.log_tail()
                )
            try:
                with urllib.request.urlopen(probe, timeout=2):
                    return
            except urllib.error.HTTPError:
                return  # it answered; that is all we wait for
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise TimeoutError(f"Voila did not answer at {self.url} within {timeout:.0f} s:\n"
                           + self.log_tail())

    def log_tail(self, n: int = 40) -> str:
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return "(no log)"
        return "\n".join(lines[-n:])

    def stop(self, timeout: float = 15.0) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            # Voila handles SIGTERM: stops its loop and shuts its kernels down.
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                pass
        if proc is not None:
            try:  # anything left in the group (a stuck kernel): kill it
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            proc.wait(5)
        if self._log is not None:
            self._log.close()
            self._log = None


def start_presenter_hall(log: Path, *, key: str, max_pages: int, extra_args=()) -> VoilaServer:
    """The lecture hall server (``--hall``, one kernel preheated, at most ``max_pages`` pages)
    whose presenter's key is ``key``: the room's tests. The server takes the key from the
    environment at its start, and the environment forgets it at once."""
    os.environ["PE_PRESENTER_KEY"] = key
    try:
        return VoilaServer(None, log, extra_args=(
            "--hall", "--preheat", "1", "--max-pages", str(max_pages), *extra_args)).start()
    finally:
        os.environ.pop("PE_PRESENTER_KEY", None)


# ---------------------------------------------------------------- browser


def launch_chromium(playwright):
    """Debian's Chromium via Playwright; Playwright gives it a fresh temporary profile."""
    return playwright.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
    )


@contextlib.contextmanager
def served_chromium(prefix: str, *, extra_args=()):
    """``(server, browser)``: the dashboard served by Voila (its log in a new temporary folder
    named ``prefix``…) and Debian's Chromium, both stopped on leaving."""
    from playwright.sync_api import sync_playwright

    log = Path(tempfile.mkdtemp(prefix=prefix)) / "voila.log"
    server = VoilaServer(None, log, extra_args=tuple(extra_args)).start()
    try:
        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            try:
                yield server, browser
            finally:
                browser.close()
    finally:
        server.stop()


# FNV-1a over the canvas's RGBA words, plus its size; "" while the canvas is blank or 0x0.
_CANVAS_SIGNATURE_JS = """
(c) => {
  if (!c || !c.width || !c.height) return "";
  const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  const words = new Uint32Array(data.buffer);
  let h = 0x811c9dc5, first = words[0], uniform = true;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w !== first) uniform = false;
    h = Math.imul(h ^ w, 0x01000193) >>> 0;
  }
  if (uniform) return "";  // nothing drawn yet (transparent or a flat fill)
  return c.width + "x" + c.height + ":" + h.toString(16);
}
"""


#: A function for ``page.evaluate``/:func:`wait_until_quiet`: the signature of the canvas of the
#: page figure on screen (figures of hidden tabs do not count); "" if none is drawn.
SHOWN_CANVAS_SIGNATURE = (
    "() => (" + _CANVAS_SIGNATURE_JS + ")([...document.querySelectorAll('" + CANVAS + "')]"
    ".find((c) => c.offsetParent !== null))"
)


def canvas_locator(page, index: int = 0, within: str | None = None):
    """The canvas of the ``index``-th figure (optionally inside CSS ``within``)."""
    root = page.locator(within) if within else page
    return root.locator(CANVAS).nth(index)


def canvas_signature(page, index: int = 0, within: str | None = None) -> str:
    """A short fingerprint of the canvas pixels (compare two grabs with ==); "" if not drawn."""
    return canvas_locator(page, index, within).evaluate(_CANVAS_SIGNATURE_JS)


def canvas_png(page, index: int = 0, within: str | None = None) -> bytes:
    """The canvas pixels exactly as drawn, as PNG bytes (for saving or image diffs)."""
    import base64

    url = canvas_locator(page, index, within).evaluate("(c) => c.toDataURL('image/png')")
    return base64.b64decode(url.split(",", 1)[1])


def wait_for_canvas(page, index: int = 0, within: str | None = None,
                    timeout: float = 60.0) -> str:
    """Wait until the canvas exists and shows a drawn (non-uniform) image; return its signature."""
    loc = canvas_locator(page, index, within)
    loc.wait_for(state="attached", timeout=timeout * 1000)
    handle = loc.element_handle(timeout=timeout * 1000)
    page.wait_for_function(
        f"(c) => ({_CANVAS_SIGNATURE_JS})(c) !== ''", arg=handle, polling="raf",
        timeout=timeout * 1000,
    )
    return canvas_signature(page, index, within)


def wait_for_canvas_change(page, before: str, index: int = 0, within: str | None = None,
                           timeout: float = 10.0) -> str:
    """Wait until the canvas signature differs from ``before``; return the new one."""
    handle = canvas_locator(page, index, within).element_handle(timeout=timeout * 1000)
    page.wait_for_function(
        "([c, before]) => { const s = (" + _CANVAS_SIGNATURE_JS + ")(c);"
        " return s !== '' && s !== before; }",
        arg=[handle, before], polling="raf", timeout=timeout * 1000,
    )
    return canvas_signature(page, index, within)


def button(page, text: str, within: str | None = None):
    """The ipywidgets Button whose description is exactly ``text``."""
    root = page.locator(within) if within else page
    return root.get_by_role("button", name=text, exact=True)


def click_button(page, text: str, within: str | None = None, timeout: float = 10.0) -> None:
    """Click (a real mouse click) the button whose description is ``text``."""
    button(page, text, within).click(timeout=timeout * 1000)


def click_and_time_canvas(page, text: str, index: int = 0, within: str | None = None,
                          timeout: float = 10.0) -> float:
    """Click button ``text`` and return seconds until the canvas pixels change.

    Timed inside the page (performance.now() at the click, then checked every animation frame),
    so the figure excludes Playwright's own round trips.
    """
    btn = button(page, text, within).element_handle(timeout=timeout * 1000)
    canvas = canvas_locator(page, index, within).element_handle(timeout=timeout * 1000)
    ms = page.evaluate(
        "async ([btn, c, timeoutMs]) => { const sig = " + _CANVAS_SIGNATURE_JS + ";"
        """
          const before = sig(c);
          const t0 = performance.now();
          btn.click();
          while (performance.now() - t0 < timeoutMs) {
            await new Promise(requestAnimationFrame);
            const s = sig(c);
            if (s !== '' && s !== before) return performance.now() - t0;
          }
          return -1;
        }""",
        [btn, canvas, timeout * 1000],
    )
    if ms < 0:
        raise AssertionError(f"canvas did not change within {timeout} s of clicking {text!r}")
    return ms / 1000.0


def wait_until_quiet(page, js: str, *, quiet_ms: int = 1000, timeout_ms: int = 20_000,
                     what: str = "the page") -> None:
    """Wait until the page's answer to ``js`` (a function in the page, e.g. the sizes of some
    boxes) has not changed for ``quiet_ms``; fail after ``timeout_ms`` saying ``what`` kept
    changing."""
    last, since, waited = page.evaluate(js), 0, 0
    while since < quiet_ms:
        assert waited < timeout_ms, f"{what} kept changing"
        page.wait_for_timeout(100)
        waited += 100
        now = page.evaluate(js)
        since = since + 100 if now == last else 0
        last = now


def widget_text(page, css_class: str, index: int = 0) -> str:
    """Visible text of the ``index``-th element with class ``css_class`` (from widget.add_class)."""
    return page.locator(f".{css_class}").nth(index).inner_text()


def wait_for_text(page, css_class: str, predicate, index: int = 0,
                  timeout: float = 10.0) -> str:
    """Poll widget_text until ``predicate(text)`` holds (or == when given a str); return it."""
    check = predicate if callable(predicate) else (lambda t: t == predicate)
    deadline = time.monotonic() + timeout
    text = None
    while True:
        text = widget_text(page, css_class, index)
        if check(text):
            return text
        if time.monotonic() > deadline:
            raise AssertionError(f".{css_class} text is {text!r} after {timeout} s")
        page.wait_for_timeout(25)


# The page figure (explorer/app/static/pagefigure.js) writes its status, its narration and its
# root's ``data-waiting`` in the frame that draws a step. While the step's chunk is on the way
# the status already names the wanted step ("step k of n" and waiting words) with ``data-waiting``
# "true" and the narration empty: a test that means "step k is on screen" waits for all three.
_STEP_DRAWN_JS = r"""([css, index, k, narrated]) => {
  const root = [...document.querySelectorAll(css)].filter((e) => e.offsetParent !== null)[index];
  if (!root || root.dataset.waiting !== "false") return false;
  const where = root.querySelector(".pe-where"), said = root.querySelector(".pe-pf-narration");
  const at = where && /\bstep (\d+) of /.exec(where.textContent);
  if (!at || Number(at[1]) !== k) return false;
  return !narrated || (!!said && said.textContent.trim() !== "");
}"""


# A follower's figure has drawn step k / says these words. The figure is rebuilt on a new scene,
# so between the two it is absent: the predicates must not throw (Playwright fails at once on
# a predicate that throws).
FOLLOWER_AT = ("(k) => (document.querySelector('.pe-follow-figure .pe-pagefigure') || {})"
               ".peStep === k")
FOLLOWER_SAYS = ("(said) => (document.querySelector('.pe-follow-figure .pe-pf-narration')"
                 " || {}).textContent === said")


def wait_for_step(page, k: int, *, index: int = 0, within: str | None = None,
                  narrated: bool = True, timeout: float = 30.0) -> str:
    """Wait until the ``index``-th shown page figure (inside CSS ``within``; figures of hidden
    tabs do not count) has DRAWN step ``k``: its status says "step k of" (at its start, or
    after a title: "Cycling · XOR · step 3 of 24"), it waits for
    nothing (root ``data-waiting`` is "false") and, with ``narrated``, its narration is
    written. Returns the status line. ``within`` must be plain CSS (``querySelectorAll``)."""
    css = f"{within} .pe-pagefigure" if within else ".pe-pagefigure"
    try:
        page.wait_for_function(_STEP_DRAWN_JS, arg=[css, index, k, narrated], polling="raf",
                               timeout=timeout * 1000)
    except Exception as exc:  # say what the page showed instead
        fig = page.locator(f"{css} >> visible=true").nth(index)
        shown = fig.evaluate(
            "(r) => [r.dataset.waiting, (r.querySelector('.pe-where') || {}).textContent,"
            " (r.querySelector('.pe-pf-narration') || {}).textContent]", timeout=5000)
        raise AssertionError(f"step {k} not drawn after {timeout} s: (waiting, status, "
                             f"narration) = {shown!r}") from exc
    return page.locator(f"{css} >> visible=true").nth(index).locator(".pe-where").inner_text()


def panel_heading(page, name: str = "plane") -> str | None:
    """The heading of panel ``name`` of the page figure on screen (``pePanels``), or None."""
    return page.evaluate(
        "(name) => ([...document.querySelectorAll('.pe-pagefigure')].find(n => n.offsetParent)"
        ".pePanels.find(p => p.name === name) || {}).heading", name)


def choose_click_mode(page, label: str, mode: str, *, within: str = "",
                      timeout_ms: int = 30_000) -> None:
    """Click the click-mode button ``label`` ("Add +1") and wait until the page figure on screen
    has the mode from the kernel (its ``data-pointer-mode``, ``mode`` e.g. "add+"): a click on
    the figure before that is a click in the old mode (a loaded machine, CI)."""
    page.locator(f"{within} button:text-is('{label}')".strip()).click()
    page.wait_for_function(
        "(mode) => [...document.querySelectorAll('.pe-pagefigure')].some("
        "n => n.offsetParent && n.dataset.pointerMode === mode)", arg=mode, timeout=timeout_ms)


def wait_for_link(page, pattern: str, *, timeout_ms: int = 30_000) -> str:
    """Wait until the top bar's link matches the regular expression ``pattern``; returns it."""
    waited = 0
    while not re.search(pattern, value := page.locator(".pe-share input").input_value()):
        assert waited < timeout_ms, f"the link is {value!r}; expected {pattern}"
        page.wait_for_timeout(100)
        waited += 100
    return value


def press_keys(page, *keys: str, focus: str | None = None, delay_ms: float = 0) -> None:
    """Press keys (Playwright names: "ArrowRight", "Space", "Shift+Tab", "a"), after focusing
    CSS ``focus`` if given (e.g. an ipyevents target or the canvas, which has tabindex=0)."""
    if focus is not None:
        page.locator(focus).first.focus()
    for key in keys:
        page.keyboard.press(key, delay=delay_ms)


KERNEL_ID = re.compile(r'"kernelId"\s*:\s*"([0-9a-f-]{36})"')


def kernel_process(page):
    """The page's own kernel process, a ``psutil.Process`` (its connection file is named after
    the kernel id that Voila writes into the page)."""
    import psutil

    kernel_id = KERNEL_ID.search(page.content()).group(1)
    for proc in psutil.process_iter(["cmdline"]):
        if any(kernel_id in part for part in (proc.info["cmdline"] or [])):
            return proc
    raise AssertionError(f"no process for kernel {kernel_id}")
