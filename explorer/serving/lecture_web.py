"""The lecture's addresses on the hall server: the presenter's key, the follower's page, and
the two websockets between them (issue 32; the relay itself is :mod:`explorer.serving.lecture`).

``GET {base}present?key=K``
    With the right key: two cookies (the key, ``HttpOnly``, and ``pe_lecture=present``, which the
    page's JavaScript reads) and a redirect to the dashboard, which then publishes. With a wrong
    or missing key: a page that says so (403) and gives the students' address. jupyter_server
    writes ``key=[secret]`` in its log for any parameter named like a key.
``GET {base}follow``
    The students' page: no kernel, the page figure's JavaScript and a websocket.
``GET {base}lecture/static/NAME.js``
    That page's modules (``follow.js`` and the page figure's modules it imports) and style
    sheet, served as files: the browser joins ES modules itself, so there is no build step.
``WS {base}lecture/publish``
    The presenter's page publishes frames; refused (close code 4003) without the key's cookie.
``WS {base}lecture/follow``
    Frames to a follower; a follower sends only its answers to the question open (text,
    :mod:`explorer.serving.answers`), counted and sent on to the presenter as a tally; anything
    else it sends is dropped and counted in the log.
``GET {base}lecture/qr.svg``
    The students' address (``…/follow`` as the asking browser reached the server: its scheme,
    ``X-Forwarded-Proto`` behind a proxy, and ``Host``) as a QR code, for the presenter's
    screen; the address is the SVG's ``<title>``.
``GET {base}lecture/status``
    ``{"followers": n, "max_followers": m, "presenting": bool}``.
"""

from __future__ import annotations

import asyncio
import hmac
import html
import json
import logging
import re
import time
from pathlib import Path

from tornado import web, websocket

from ..shared import cjk_font, i18n
from ..shared.i18n import N_, tr
from ..shared.page_words import page_words
from . import answers as _answers
from .lecture import FOLLOWER_RATE, MAX_FRAME, PRESENTER_RATE, FrameError, Lecture, RateLimit, decode

__all__ = ["KEY_COOKIE", "FLAG_COOKIE", "lecture_handlers"]

log = logging.getLogger("explorer.lecture")

KEY_COOKIE = "pe_presenter"
FLAG_COOKIE = "pe_lecture"
STATIC = Path(__file__).resolve().parents[1] / "app" / "static"
#: A follower's messages are its answers (a few dozen bytes; over
#: :data:`explorer.serving.answers.MAX_ANSWER_BYTES` dropped); one over this closes its socket.
FOLLOWER_MAX_MESSAGE = 4096
#: The close code of a page that sent more messages than its :class:`RateLimit` allows (its
#: page says why and does not dial again).
TOO_FAST = 4008

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Perceptron Explorer: {title}</title>
<style>
 {font_face}
 body {{ font-family: {fonts}; margin: 0; background: #fff; color: #111; }}
 main {{ max-width: 40rem; margin: 10vh auto; padding: 2rem; font-size: 1.25rem; }}
 h1 {{ font-size: 2rem; margin: 0 0 1rem; }} a {{ color: #0b57d0; }}
</style></head>
<body><main role="main">
{body}
</main></body></html>
"""

_FOLLOW = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Perceptron Explorer: {title}</title>
<link rel="stylesheet" href="{base}lecture/static/pagefigure.css">
<style>
 {font_face}
 body {{ font-family: {fonts}; margin: 0; color: #111; background: #fff;
        --pe-font: clamp(15px, calc(0.6vw + 8px), 22px); font-size: var(--pe-font); }}
 .pe-follow-bar {{ display: flex; flex-wrap: wrap; gap: 0.5em 1.5em; align-items: baseline;
        padding: 0.4em 0.8em; background: #F4F8FB; border-bottom: 1px solid #CFD8DC; }}
 .pe-follow-title {{ font-weight: 600; font-size: 1.15em; }}
 .pe-follow-state {{ color: #333; }}
 .pe-follow-go {{ margin-left: auto; color: #333; }}
 .pe-follow-explore {{ display: inline-block; padding: 0.3em 0.9em; background: #1565C0;
        color: #fff; border-radius: 3px; text-decoration: none; font-weight: 600; }}
 .pe-follow-explore[hidden] {{ display: none; }}
 .pe-follow-figure {{ padding: 0.4em 0.8em; }}
 .pe-follow-figure .pe-pf-bar, .pe-follow-figure .pe-pf-slider {{ display: none; }}
 .pe-follow-figure .pe-pf-figure {{ width: auto !important; }}
 .pe-follow-figure .pe-canvas {{ width: 100% !important; height: auto !important;
        max-height: calc(100vh - 9em); object-fit: contain; object-position: left top; }}
 .pe-follow-dark {{ position: fixed; inset: 0; background: #000; color: #9E9E9E;
        display: flex; align-items: center; justify-content: center; font-size: 1.5em; }}
 .pe-follow-dark[hidden] {{ display: none; }}
</style></head>
<body data-base="{base}" data-words="{words}">
<header class="pe-follow-bar" role="banner">
 <span class="pe-follow-title">{following}</span>
 <span class="pe-follow-state" aria-live="polite">{connecting}</span>
 <span class="pe-follow-go"><a class="pe-follow-explore" href="{base}" hidden>{explore}</a>
  <span class="pe-follow-places"></span></span>
</header>
<main class="pe-follow-figure" role="main"></main>
<div class="pe-follow-dark" hidden>{dark}</div>
<script type="module" src="{base}lecture/static/follow.js"></script>
</body></html>
"""


def follow_page(*, base: str, lang: str = i18n.DEFAULT) -> str:
    """The students' page in language ``lang``: its own words, and those its script writes
    (``data-words``, :func:`explorer.shared.page_words.page_words`); the figure's come from
    the presenter's page."""
    with i18n.using(lang):
        words = {"title": tr(N_("following the lecture")), "following": tr("Following the lecture"),
                 "connecting": tr(N_("Connecting…")), "explore": tr(N_("Explore from here")),
                 "dark": tr(N_("The screen is dark for now."))}
        words = {k: html.escape(v) for k, v in words.items()}
        script = html.escape(json.dumps(page_words(), ensure_ascii=False), quote=True)
    return _FOLLOW.format(base=html.escape(base, quote=True), lang=lang, words=script, **words,
                          **_fonts(base))


def is_key(key: str, given: str) -> bool:
    """Whether ``given`` is the lecture's presenter key (never, when the lecture has none)."""
    return bool(key) and hmac.compare_digest(given.encode(), key.encode())


def _fonts(base: str) -> dict:
    """The lecture pages' fonts: the shipped Chinese font's ``@font-face`` (the file served at
    ``base`` + :data:`~explorer.shared.cjk_font.ROUTE`) and the font list ending with it."""
    return {"font_face": cjk_font.font_face_css(base + cjk_font.ROUTE),
            "fonts": cjk_font.stack("system-ui", "sans-serif")}


class PresentHandler(web.RequestHandler):
    """``GET present?key=K``: the presenter's cookies and the dashboard, or a refusal."""

    def initialize(self, key: str, base: str):
        self.key, self.base = key, base

    def get(self):
        given = self.get_query_argument("key", "")
        base = self.base
        if not is_key(self.key, given):
            self.set_status(403)
            follow = html.escape(base + "follow")
            why = "has no key" if not given else "has a key that is not this lecture's"
            self.finish(_PAGE.format(**_fonts(self.base), title="not the presenter", body=(
                f"<h1>Not the presenter's address</h1>\n<p class=\"pe-lecture-refused\">This "
                f"address {why}. Only the lecturer presents, with the address the server "
                f"printed at start.</p>\n<p>To follow the lecture, open "
                f"<a href=\"{follow}\">{follow}</a>.</p>")))
            return
        self.set_cookie(KEY_COOKIE, self.key, path=base, httponly=True, samesite="Strict")
        self.set_cookie(FLAG_COOKIE, "present", path=base, samesite="Strict")
        self.redirect(base)


class FollowPageHandler(web.RequestHandler):
    """``GET follow``: the students' page (no kernel)."""

    def initialize(self, base: str):
        self.base = base

    def get(self):
        self.set_header("Cache-Control", "no-store")
        lang = i18n.pick(i18n.query_lang(self.request.query or ""),
                         i18n.accepted(self.request.headers.get("Accept-Language")))
        self.set_header("Content-Language", lang)
        self.set_header("Vary", "Accept-Language")
        self.finish(follow_page(base=self.base, lang=lang))


class LectureStaticHandler(web.StaticFileHandler):
    """The page figure's modules and style sheet, as they are in the package: the browser
    imports the modules itself (``follow.js`` imports its siblings), so nothing is joined and
    nothing is built; only ``.js`` and ``.css`` files are served, and the shipped Chinese font
    (:data:`explorer.shared.cjk_font.ROUTE`) on a route of its own."""

    def set_extra_headers(self, path):
        self.set_header("Cache-Control", "no-cache")


def follow_url(request, base: str) -> str:
    """The students' address as ``request``'s browser reached this server."""
    scheme = request.headers.get("X-Forwarded-Proto", request.protocol).split(",")[0].strip()
    scheme = scheme if scheme in ("http", "https") else request.protocol
    return f"{scheme}://{request.host}{base}follow"


class QrHandler(web.RequestHandler):
    """``GET lecture/qr.svg``: the students' address as a QR code (SVG)."""

    def initialize(self, base: str):
        self.base = base

    def get(self):
        import io

        import segno

        url = follow_url(self.request, self.base)
        out = io.BytesIO()
        segno.make(url, error="m").save(out, kind="svg", scale=10, border=2, title=url,
                                        svgclass="pe-qr", lineclass=None, xmldecl=False)
        self.set_header("Content-Type", "image/svg+xml")
        self.set_header("Cache-Control", "no-store")
        self.finish(out.getvalue())


class LectureStatusHandler(web.RequestHandler):
    def initialize(self, lecture: Lecture):
        self.lecture = lecture

    def get(self):
        lec = self.lecture
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps({"followers": len(lec.followers),
                                "max_followers": lec.max_followers,
                                "presenting": lec.presenting}))


class PublishSocket(websocket.WebSocketHandler):
    """The presenter's page: frames in, kept and fanned out."""

    def initialize(self, lecture: Lecture, key: str):
        self.lecture, self.key = lecture, key

    @property
    def max_message_size(self):
        return MAX_FRAME

    def open(self):
        if not is_key(self.key, self.get_cookie(KEY_COOKIE, "") or ""):
            self.close(4003, "only the presenter publishes")
            return
        self.limit = RateLimit(*PRESENTER_RATE, now=time.monotonic())
        old, self.lecture.presenter = self.lecture.presenter, self  # a newer page takes over
        if old is not None and old is not self:
            old.close(4001, "presenting from another page now")
        self.tell()
        self.lecture.answers.due.update(self.lecture.answers.polls)  # a new page hears them
        tally_soon(self.lecture)

    def tell(self):
        """Tell the presenting page how many follow (a text message; frames are binary)."""
        lec = self.lecture
        self.write_message(json.dumps({"followers": len(lec.followers),
                                       "max_followers": lec.max_followers}))

    def on_message(self, message):
        if self.lecture.presenter is not self or isinstance(message, str):
            return
        if not self.limit.allow(time.monotonic()):
            log.warning("lecture: the presenter's page sent frames too fast; closed")
            self.close(TOO_FAST, "this page sent frames faster than the room takes them")
            return
        try:
            frame = decode(message)
        except FrameError as exc:
            log.warning("lecture: a presenter's frame was refused: %s", exc)
            return
        for box in self.lecture.publish(frame):
            box.wake()

    def on_close(self):
        if self.lecture.presenter is self:
            self.lecture.presenter = None


class FollowSocket(websocket.WebSocketHandler):
    """A follower: frames out, one at a time, from its outbox; in, its answers (counted)."""

    def initialize(self, lecture: Lecture):
        self.lecture = lecture

    @property
    def max_message_size(self):
        return FOLLOWER_MAX_MESSAGE

    def open(self):
        self.limit = RateLimit(*FOLLOWER_RATE, now=time.monotonic())
        box = self.lecture.join(self)
        if box is None:
            self.close(4029, f"the lecture is full: {self.lecture.max_followers} followers")
            return
        self.counted()
        self.box = box
        self.ready = asyncio.Event()
        box.wake = self.ready.set
        self.task = asyncio.ensure_future(self.send_all())
        self.ready.set()

    def on_message(self, message):
        """A follower's answer is counted (anything else is dropped: no reply, a count in the
        log); followers do not drive; a page that floods is closed."""
        if not self.limit.allow(time.monotonic()):
            log.warning("lecture: a follower's page sent messages too fast; closed")
            self.close(TOO_FAST, "this page sent too many messages")
            return
        if self.lecture.answer(self, message) is None:
            tally_soon(self.lecture)
        else:
            report_soon(self.lecture)

    async def send_all(self):
        box = self.box
        try:
            while True:
                await self.ready.wait()
                self.ready.clear()
                self.lecture.catch_up(box)
                while (data := box.take()) is not None:
                    await self.write_message(data, binary=True)
                    self.lecture.catch_up(box)
        except (websocket.WebSocketClosedError, asyncio.CancelledError):
            pass

    def on_close(self):
        box = getattr(self, "box", None)
        if box is not None:
            self.lecture.leave(self)
            self.task.cancel()
            self.counted()
            if self.lecture.answers.due:
                tally_soon(self.lecture)

    def counted(self):
        """The presenter hears the new count, at most once a second."""
        lec = self.lecture
        if lec.presenter is None or lec.count_due:
            return
        lec.count_due = True

        def tell():
            lec.count_due = False
            if lec.presenter is not None:
                try:
                    lec.presenter.tell()
                except websocket.WebSocketClosedError:
                    pass

        asyncio.get_running_loop().call_later(1.0, tell)


def tally_soon(lec: Lecture) -> None:
    """The presenter hears the tallies that changed, :data:`~explorer.serving.answers.
    TALLY_DELAY_S` after the first change (the answers between go in the same message)."""
    if lec.tally_due or lec.presenter is None:
        return
    lec.tally_due = True

    def tell():
        lec.tally_due = False
        if lec.presenter is None:
            return
        for said in lec.answers.tallies():
            try:
                lec.presenter.write_message(json.dumps(said))
            except websocket.WebSocketClosedError:
                return

    asyncio.get_running_loop().call_later(_answers.TALLY_DELAY_S, tell)


def report_soon(lec: Lecture) -> None:
    """The answers dropped go to the log as counts by reason, at most every
    :data:`~explorer.serving.answers.DROP_LOG_S` seconds."""
    if lec.report_due:
        return
    lec.report_due = True

    def write():
        lec.report_due = False
        line = lec.answers.report()
        if line:
            log.warning(line)

    asyncio.get_running_loop().call_later(_answers.DROP_LOG_S, write)


def lecture_handlers(base_url: str, *, key: str, lecture: Lecture | None = None) -> list:
    """The lecture's tornado routes under ``base_url`` (a presenter with ``key``)."""
    lecture = lecture or Lecture()
    base = base_url.rstrip("/")
    return [
        (base + "/present", PresentHandler, {"key": key, "base": base + "/"}),
        (base + "/follow", FollowPageHandler, {"base": base + "/"}),
        (base + "/lecture/status", LectureStatusHandler, {"lecture": lecture}),
        (base + "/lecture/qr.svg", QrHandler, {"base": base + "/"}),
        (base + "/lecture/publish", PublishSocket, {"lecture": lecture, "key": key}),
        (base + "/lecture/follow", FollowSocket, {"lecture": lecture}),
        (base + r"/lecture/static/([a-z0-9_]+\.(?:js|css))", LectureStaticHandler,
         {"path": str(STATIC)}),
        # the shipped Chinese font of the hall's and the lecture's pages (cjk_font.ROUTE)
        (f"{base}/{cjk_font.ROUTE.rpartition('/')[0]}/({re.escape(cjk_font.PATH.name)})",
         LectureStaticHandler, {"path": str(cjk_font.FOLDER)}),
    ]
