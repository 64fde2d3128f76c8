"""The next slide's picture for the presenter view (issue 33, item 2).

The presenter view (``static/presenter.js``) shows a small picture of the next slide: what the
projected page will show when the lecturer moves on, the slide's tab's figure at its saved state
and step. It is the tab's own PNG export (:meth:`explorer.app.tab.TabView._still`) of that
state, drawn smaller: the tab's model (no widgets) is built from the slide's state, and the
view's export methods run on it in a twin of the view: an instance of its class made without
its ``__init__`` (so no widget and nothing sent to the page; the one use of that here), given
the model, the page's figure size, the slide's points as a saved state's and the controls the
state does not hold at their first values (``preview_widgets`` of the view class). Nothing on
the page changes.

:class:`NextSlidePreview` draws it in the background (a :class:`~explorer.app.jobs.Job`) after
the slide changes, once the presenter view has been opened, keeps the pictures per slide (its
tab, state and the figure's size) and gives them to the page bridge's ``preview`` trait, which
only the presenter window reads: never the link, never the room's followers (``lecture.js``
sends the page figure's traits only). A slide that cannot be drawn gets a short reason, shown
under its title, never a traceback.
"""

from __future__ import annotations

import base64
import hashlib
import inspect
import io
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace

from .datachoice import from_source
from .jobs import Job, kernel_loop
from .layout import FigureFit

__all__ = ["PREVIEW_WIDTH", "Preview", "NextSlidePreview", "slide_key", "slide_preview",
           "slide_still"]

_log = logging.getLogger(__name__)

#: The picture's width in pixels (its height follows the figure's).
PREVIEW_WIDTH = 480
#: Pictures kept (a lecture's slides at one or two window sizes); the oldest go first.
CACHE_SLIDES = 48
#: The figure's size before the page has measured its window (a projector's 16:9).
DEFAULT_FIT = FigureFit(width=1200, height=640, scale=1.0)
#: The 3-D view's angles of a tab made afresh (the XOR tab's lifted view).
_AZIM, _ELEV = -60.0, 25.0


@dataclass(frozen=True)
class Preview:
    """A slide's picture (``png``) or, when it could not be drawn, why (``reason``)."""

    png: bytes | None
    reason: str = ""

    @property
    def src(self) -> str:
        """The picture as a ``data:`` address for the presenter window ("" without one)."""
        return "" if not self.png else ("data:image/png;base64,"
                                        + base64.b64encode(self.png).decode("ascii"))


def slide_key(*, tab: str, state: dict) -> str:
    """A short name of a slide's picture: the same tab and state give the same key."""
    text = json.dumps({"tab": tab, "state": state}, sort_keys=True, default=str)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def _twin(view_cls: type, model, *, fitted: FigureFit):
    """A ``view_cls`` made without its ``__init__`` (no widget, nothing sent to the page), its
    export methods reading ``model`` (see the module docstring)."""
    twin = view_cls.__new__(view_cls)
    stand_ins = {"model": model, "fitted": fitted,
                 "data_origin": from_source("playlist"), "edit_base": None,  # as a slide opens
                 "paged": SimpleNamespace(figure=None),  # no side panel chosen: the figure's own
                 "figure": SimpleNamespace(lifted=SimpleNamespace(azim=_AZIM, elev=_ELEV)),
                 # the Perceptron tab's 3-D view (three features): drawn from its first angles
                 "_figure": SimpleNamespace(solid=None, plane=None)}
    stand_ins.update({name: SimpleNamespace(value=value)
                      for name, value in getattr(view_cls, "preview_widgets", {}).items()})
    for name, value in stand_ins.items():
        if not isinstance(inspect.getattr_static(view_cls, name, None), property):
            setattr(twin, name, value)
    return twin


def slide_still(*, view_cls: type, state: dict, fitted: FigureFit,
                width: int | None = None) -> bytes:
    """The PNG the tab ``view_cls`` exports for ``state`` with its figure at ``fitted``
    (:meth:`~explorer.app.tab.TabView._still`), made ``width`` pixels wide (None: as the
    export is). ``ValueError`` if the tab refuses the state."""
    model = view_cls.model_class()
    if not model.set_state(state):
        raise ValueError(model.refusal.why if model.refusal is not None else model.message)
    png = _twin(view_cls, model, fitted=fitted)._still("png")
    return png if width is None else shrink(png, width=width)


def shrink(png: bytes, *, width: int) -> bytes:
    """``png`` made ``width`` pixels wide (its height in proportion), in 256 colours."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        w, h = im.size
        small = im.convert("RGB").resize((width, max(1, round(h * width / w))),
                                         Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    small.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(buf, format="PNG",
                                                                       optimize=True)
    return buf.getvalue()


def slide_preview(*, view_cls: type, state: dict, fitted: FigureFit,
                  width: int = PREVIEW_WIDTH) -> Preview:
    """:func:`slide_still` ``width`` pixels wide, or a :class:`Preview` saying in one short
    sentence why there is none."""
    try:
        return Preview(png=slide_still(view_cls=view_cls, state=state, fitted=fitted,
                                       width=width))
    except Exception as exc:  # any failure becomes one line in the presenter view
        _log.info("no preview of a %s slide", getattr(view_cls, "title", "?"), exc_info=True)
        why = " ".join(str(exc).split()).rstrip(".") or type(exc).__name__
        why = why if len(why) <= 160 else why[:157] + "…"
        return Preview(png=None, reason=f"No picture of this slide: {why}.")


class NextSlidePreview:
    """The next slide's picture, drawn in the background and given to the page bridge.

    Parameters
    ----------
    view_of : callable ``(tab) -> type``
        The view class of the tab called ``tab`` (it has ``model_class``).
    playlist : callable ``() -> Playlist``
        The lecture's playlist (:class:`explorer.app.playlist.Playlist`).
    fitted : callable ``() -> FigureFit or None``
        The size of the figure on the page (None before the page measured it).
    bridge : PageBridge
        Opens the presenter window (:meth:`~explorer.app.bridge.PageBridge.open_presenter`) and
        gives it ``{"id", "src", "reason"}`` (its ``preview`` trait).
    post : callable ``(fn) -> None``, optional
        Runs ``fn`` on the kernel's thread (default: the kernel loop's, or at once outside one).
    width : int
        The picture's width in pixels.
    """

    def __init__(self, *, view_of: Callable[[str], type], playlist: Callable[[], object],
                 fitted: Callable[[], FigureFit | None], bridge,
                 post: Callable[[Callable[[], object]], None] | None = None,
                 width: int = PREVIEW_WIDTH):
        self._view_of, self._playlist, self._fitted, self._bridge = view_of, playlist, fitted, bridge
        if post is None:
            loop = kernel_loop()
            post = (lambda fn: loop.call_soon_threadsafe(fn)) if loop is not None else None
        self._job = Job("slide-preview", post=post)
        self.width = int(width)
        self.cache: OrderedDict[tuple, Preview] = OrderedDict()
        self.active = False  # drawn only once the presenter view has been opened
        self._wanted: tuple | None = None
        self._lock = threading.Lock()
        self._drawing = False

    def _next(self):
        p = self._playlist()
        k = p.current
        after = (k + 1) if k is not None else 0
        return p.entries[after] if after < len(p) else None

    def follow(self, info: dict) -> dict:
        """``info`` (:meth:`~explorer.app.playlist_ui.PlaylistPanel.presenter_info`) with the
        next slide's picture's ``id``; its picture is drawn if not kept yet."""
        entry = self._next()
        if entry is None or info.get("next") is None:
            return info
        key = slide_key(tab=entry.tab, state=entry.state)
        if self.active:
            self.request(entry)
        return {**info, "next": {**info["next"], "id": key}}

    def open(self) -> None:
        """Open the presenter view's window: from now on the next slide's picture is drawn."""
        self.active = True
        entry = self._next()
        if entry is not None:
            self.request(entry)
        self._bridge.open_presenter()

    def request(self, entry) -> None:
        """Show ``entry``'s picture: at once if kept, else after the background draws it (one
        drawing at a time: the worker then draws the slide wanted last, if another)."""
        fitted = self._fitted() or DEFAULT_FIT
        key = slide_key(tab=entry.tab, state=entry.state)
        with self._lock:
            self._wanted = (key, fitted, entry.tab, dict(entry.state))
            kept = self.cache.get((key, fitted))
            start = kept is None and not self._drawing
            self._drawing = self._drawing or start
        if kept is not None:
            self._deliver(key, kept)
        elif start:
            self._job.wait(5.0)  # a worker that found nothing more to draw is ending
            self._job.start(self._work)

    def _work(self, report) -> None:
        """Draw the slide wanted, then the one wanted meanwhile, until none is missing."""
        while True:
            with self._lock:
                key, fitted, tab, state = self._wanted
                if (key, fitted) in self.cache:
                    self._drawing = False
                    return
            result = self._draw(tab, state, fitted)
            with self._lock:
                self.cache[(key, fitted)] = result
                while len(self.cache) > CACHE_SLIDES:
                    self.cache.popitem(last=False)
            report.post(lambda key=key, fitted=fitted, result=result:
                        self._kept(key, fitted, result))

    def _draw(self, tab: str, state: dict, fitted: FigureFit) -> Preview:
        try:
            view_cls = self._view_of(tab)
        except Exception as exc:  # an unknown tab: the text preview says so
            return Preview(png=None, reason=f"No picture of this slide: {exc}.")
        return slide_preview(view_cls=view_cls, state=state, fitted=fitted, width=self.width)

    def _kept(self, key: str, fitted: FigureFit, result: Preview) -> None:
        if self._wanted is not None and self._wanted[:2] == (key, fitted):
            self._deliver(key, result)  # still the next slide: shown

    def _deliver(self, key: str, result: Preview) -> None:
        self._bridge.preview = {"id": key, "src": result.src, "reason": result.reason}

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the picture being drawn (tests); True if none is being drawn any more."""
        return self._job.wait(timeout)
