"""The export panel every tab reuses: stills (PNG, SVG) and animations (GIF, HTML) as links.

Stills are drawn at once. Animations run in a background thread, so the kernel keeps
answering the other widgets meanwhile; a progress bar counts the frames, Cancel stops the
work within a frame, and a new run (:meth:`ExportPanel.clear`) cancels it and removes the old
link. Only one export runs at a time. A failure shows one short line, never a traceback. A
note (:meth:`ExportPanel.describe`) says what an animation will show (all steps, or how a long
run is sampled), or that nothing plays in the view shown (GIF and HTML are then disabled).
"""

from __future__ import annotations

import base64
import html
import logging
import re
from collections.abc import Callable

import ipywidgets as W

from ..plots.animation import ExportCancelled
from ..shared.i18n import N_
from .jobs import Job
from .labels import label
from .lazy import BuiltOnUse, disclosure

__all__ = ["ExportPanel", "export_section", "file_stem"]

_log = logging.getLogger(__name__)

#: Above this a data: link is slow to send to the page and to open: the panel says so.
LINK_WARN_BYTES = 8 * 1024 * 1024
#: How long :meth:`ExportPanel.clear` waits for a cancelled export to stop.
CLEAR_WAIT_S = 1.0
MIME = {"png": "image/png", "svg": "image/svg+xml", "gif": "image/gif", "html": "text/html"}
TOOLTIPS = {
    "png": "This step as a PNG image, sized for slides",
    "svg": "This step as an SVG vector image",
    "gif": "The run as an animated GIF",
    "html": "The run as an HTML page that plays offline, with its own controls",
}
BUSY_TEXT = "An export is already running: wait for it to finish or press Cancel."
STILL_ONLY = "Nothing plays in this view: PNG and SVG only."


def file_stem(*parts) -> str:
    """A file name from parts saying the tab and its state: lower case, words joined by "-",
    nothing but letters, digits, dots and dashes (``file_stem("margins", "C = 0.5")`` is
    ``"margins-c-0.5"``)."""
    text = "-".join(str(p) for p in parts if str(p))
    stem = re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-.")
    return stem[:120] or "export"


def _size(n: int) -> str:
    if n >= 100_000:
        return f"{n / 1e6:.1f} MB"
    return f"{n / 1e3:.0f} kB" if n >= 1000 else f"{n} bytes"


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "…"


class ExportPanel(BuiltOnUse, W.VBox):
    """Buttons PNG, SVG, GIF, HTML with a progress bar, a Cancel button and a download link.

    The parts are made when first used (:class:`~explorer.app.lazy.BuiltOnUse`): a view shows
    the panel in a closed section (:func:`export_section`) that makes them when opened.

    Parameters
    ----------
    basename : str or callable ``(ext) -> str``
        File name without extension, e.g. ``"perceptron"``, or a function of the extension
        (``"png"``, ``"svg"``, ``"gif"``, ``"html"``) called when an export starts, so that
        the name says the state exported; the attribute may be changed later.
    still : callable ``(fmt) -> bytes``
        PNG (``fmt="png"``) or SVG (``fmt="svg"``) bytes of what the tab shows.
    animate : callable ``(kind, progress, cancelled) -> bytes``, optional
        GIF bytes (``kind="gif"``) or the HTML page encoded as UTF-8 (``kind="html"``). It is
        called in a background thread and should call ``progress(i, n)`` after frame ``i`` of
        ``n`` and stop (e.g. raise :class:`~explorer.plots.export.ExportCancelled`) when
        ``cancelled()`` returns True. Without it the GIF and HTML buttons are hidden.

    Attributes
    ----------
    b_png, b_svg, b_gif, b_html, b_cancel : ipywidgets.Button
    progress : ipywidgets.IntProgress
    progress_label : ipywidgets.Label
        ``"frame 12 of 120"``.
    links : ipywidgets.HTML
        The download link (CSS class ``pe-export-link``).
    status : ipywidgets.HTML
        One line about the last export (CSS class ``pe-export-status``).
    note : ipywidgets.HTML
        What an animation shows (CSS class ``pe-export-note``), set by :meth:`describe`.
    """

    def __init__(self, *, basename: str | Callable[[str], str], still: Callable[[str], bytes],
                 animate: Callable[[str, Callable, Callable], bytes] | None = None, **kwargs):
        if not callable(basename) and (not isinstance(basename, str) or not basename):
            raise TypeError(f"expected basename to be a non-empty str or callable; got {basename!r}")
        if not callable(still):
            raise TypeError(f"expected still to be callable; got {type(still).__name__}")
        if animate is not None and not callable(animate):
            raise TypeError(f"expected animate to be callable or None; got {type(animate).__name__}")
        self.basename = basename
        self._still = still
        self._animate = animate
        self._job = Job("export")  # a new export or clear(): older workers stay silent
        self._playable = True
        self._note = ""
        super().__init__([], **kwargs)  # the parts are made when first used (_build)
        self.add_class("pe-export")

    def _build(self) -> None:
        # one Layout per button: a Layout is shared state, and hiding GIF must not hide PNG
        self.b_png, self.b_svg, self.b_gif, self.b_html = (
            W.Button(description=kind.upper(), tooltip=TOOLTIPS[kind],
                     layout=W.Layout(width="auto", min_width="60px"))
            for kind in ("png", "svg", "gif", "html"))
        self.b_cancel = label(
            W.Button(button_style="warning", layout=W.Layout(width="auto", display="none")),
            description=N_("Cancel"), tooltip=N_("Stop the export now"))
        self.progress = W.IntProgress(value=0, min=0, max=1, layout=W.Layout(width="140px"))
        self.progress_label = W.Label("")
        self.progress_box = W.HBox([self.progress, self.progress_label],
                                   layout=W.Layout(display="none", align_items="center"))
        self.links = W.HTML().add_class("pe-export-link")
        self.status = W.HTML().add_class("pe-export-status")
        self.note = W.HTML().add_class("pe-export-note")
        self.b_png.on_click(lambda _: self._export_still("png"))
        self.b_svg.on_click(lambda _: self._export_still("svg"))
        self.b_gif.on_click(lambda _: self.start("gif"))
        self.b_html.on_click(lambda _: self.start("html"))
        self.b_cancel.on_click(lambda _: self.cancel())
        if self._animate is None:
            self.b_gif.layout.display = self.b_html.layout.display = "none"
        buttons = W.HBox([self.b_png, self.b_svg, self.b_gif, self.b_html, self.b_cancel],
                         layout=W.Layout(flex_flow="row wrap"))
        self.children = [buttons, self.progress_box, self.status, self.links, self.note]
        self._show_note()

    # ------------------------------------------------------------------ state
    def describe(self, note: str, *, playable: bool = True) -> None:
        """Say what an animation shows (``note``, e.g. how a long run is sampled); with
        ``playable=False`` the view has nothing to play: GIF and HTML are disabled and the
        note says so."""
        self._playable, self._note = bool(playable), note
        if self.built:
            self._show_note()

    def _show_note(self) -> None:
        for b in (self.b_gif, self.b_html):
            b.disabled = not self._playable
        text = self._note if self._playable else (self._note or STILL_ONLY)
        self.note.value = (f"<div class='pe-help'>{html.escape(text)}</div>" if text else "")

    def _name(self, ext: str) -> str:
        name = self.basename(ext) if callable(self.basename) else self.basename
        return f"{name}.{ext}"

    @property
    def busy(self) -> bool:
        """An animation export is running."""
        return self._job.busy

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the running export to end; True if none runs any more."""
        return self._job.wait(timeout)

    def clear(self) -> None:
        """Remove the link and cancel a running export (call it when the run changes)."""
        running = self._job.cancel(wait=CLEAR_WAIT_S)  # what it reports from now on is dropped
        if not self.built:
            return  # nothing shown yet, and no export ran
        self.links.value = ""
        self._running(False)
        self._say("Export cancelled" if running else "")

    def cancel(self) -> None:
        """Ask the running export to stop; the panel then says "Export cancelled"."""
        if self.busy:
            self._job.stop()
            self._say("Cancelling…")

    # ------------------------------------------------------------------ exports
    def _export_still(self, fmt: str) -> None:
        if self.busy:
            self._say(BUSY_TEXT)
            return
        self._say(f"Drawing the {fmt.upper()}…")
        try:
            name = self._name(fmt)
            data = self._bytes(self._still(fmt))
        except Exception as exc:  # any failure becomes one line in the panel
            _log.debug("still export failed", exc_info=True)
            self.links.value = ""
            self._say(f"Export failed: {_short(exc)}")
            return
        self._post(data, fmt, name)

    def start(self, kind: str) -> bool:
        """Start the ``"gif"`` or ``"html"`` export in a background thread (the buttons do).

        Returns False (and says so in the panel) when one is already running or the view has
        nothing to play.
        """
        if kind not in ("gif", "html"):
            raise ValueError(f"expected kind 'gif' or 'html'; got {kind!r}")
        if self._animate is None:
            raise ValueError("expected an animate callable; this panel was made without one")
        if not self._playable:
            self._say(STILL_ONLY)
            return False
        try:
            name = self._name(kind)
        except Exception as exc:  # a name that cannot be made is a failure like any other
            _log.debug("export name failed", exc_info=True)
            self._say(f"Export failed: {_short(exc)}")
            return False
        if self.busy:
            self._say(BUSY_TEXT)
            return False
        self.links.value = ""
        self.progress.max, self.progress.value = 1, 0
        self.progress_label.value = "starting"
        self._running(True)
        self._say(f"Making the {kind.upper()}…")
        self._job.start(lambda report: self._work(kind, name, report))
        return True

    def _work(self, kind: str, name: str, report) -> None:
        def progress(i: int, n: int) -> None:
            report.post(lambda: self._progress(i, n))

        data, error = None, None
        try:
            data = self._bytes(self._animate(kind, progress, report.stopped))
        except ExportCancelled:
            pass
        except Exception as exc:  # any failure becomes one line in the panel
            _log.debug("%s export failed", kind, exc_info=True)
            error = exc
        # delivered only if not cleared meanwhile (the run this was made from is gone)
        report.post(lambda: self._done(kind, name, data, error, report.stopped()))

    def _progress(self, i: int, n: int) -> None:
        self.progress.max = max(int(n), 1)
        self.progress.value = int(i) + 1
        self.progress_label.value = f"frame {int(i) + 1} of {int(n)}"

    def _done(self, kind: str, name: str, data, error, stopped: bool) -> None:
        self._running(False)
        if error is not None:
            self._say(f"Export failed: {_short(error)}")
        elif stopped or data is None:
            self._say("Export cancelled")
        else:
            self._post(data, kind, name)

    # ------------------------------------------------------------------ display
    @staticmethod
    def _bytes(data) -> bytes:
        if isinstance(data, str):
            return data.encode("utf-8")
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"expected the export as bytes; got {type(data).__name__}")
        return bytes(data)

    def _post(self, data: bytes, ext: str, name: str) -> None:
        name = html.escape(name, quote=True)
        b64 = base64.b64encode(data).decode("ascii")
        self.links.value = (f'<a download="{name}" href="data:{MIME[ext]};base64,{b64}" '
                            f'title="Download {name}">⬇ {name}</a> ({_size(len(data))})')
        note = ""
        if len(data) > LINK_WARN_BYTES:
            note = f" It is large ({_size(len(data))}): the link may be slow to open."
        self._say(f"{ext.upper()} ready.{note}")

    def _running(self, on: bool) -> None:
        self.b_cancel.layout.display = None if on else "none"
        self.progress_box.layout.display = None if on else "none"

    def _say(self, text: str) -> None:
        self.status.value = (f"<div role='status' aria-live='polite'>{html.escape(text)}</div>"
                             if text else "")


def export_section(panel: ExportPanel) -> W.Accordion:
    """The closed section under a settings column's "Export" heading, which makes ``panel``
    when first opened."""
    kinds = ("PNG", "SVG", "GIF", "HTML") if panel._animate is not None else ("PNG", "SVG")
    return disclosure(" · ".join(kinds), panel)
