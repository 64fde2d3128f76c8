"""Lecture-hall serving: one Voila server shared by a room, with a cap on open pages.

This module is server-side only (it imports Voila, tornado and jupyter_server); the core and the
app never import it. ``perceptron-explorer --hall`` (see :mod:`explorer.serving.serve`) runs
:class:`HallVoila`, which is Voila 0.5 with two additions:

* **A cap on pages, held as reservations** (:class:`~explorer.serving.room.Room`). Each open
  dashboard page owns one kernel (about 150-250 MB here). A request takes a place *before* a
  kernel is started or taken from the pool, in the same tick of the event loop as the check, so
  no interleaving of requests can exceed ``max_pages``; the place is given back if the start
  fails. Past the cap a visitor gets a short HTML page, status 503 with ``Retry-After``, "The
  room is full: N of N places are taken; try again in a minute", instead of a new kernel. At
  most ``max_starting`` kernels start at once (each start costs seconds of a core); a visitor
  past that gets, at once, a short "starting, please wait" page (503, ``Retry-After``) that asks
  again by itself a few seconds later, so every request is answered within a bounded time and
  none waits behind a queue of starts. The preheated pool is part of the cap: it refills only
  while no visitor's kernel is starting and only while pages + pool kernels stay within
  ``max_pages``, so the kernels alive never exceed the cap. A kernel taken from the pool is
  replaced :data:`REFILL_DELAY_S` seconds later, once its page has opened. Optionally
  (``max_per_address``) one address can hold at most that many places. Kernels talk to the
  server over Unix sockets (``explorer.serving.serve``), so two starts can never collide on a
  TCP port.
* **A status endpoint** ``/hall/status`` (JSON: pages, pooled, starting, max_pages), read by
  the load test (``scripts/loadtest.py``) and handy for a lecturer; Voila 0.5 does not expose
  ``/api/kernels``.

Voila does the rest through its own options, set by ``explorer.serving.serve.voila_args``: preheated
kernels (``--preheat_kernel --pool_size``), culling of kernels with no page connected
(``MappingKernelManager.cull_*``), no tracebacks on the page (``show_tracebacks=False``).

The preheated notebook (:data:`HALL_CELLS`) imports everything, draws the opening run once
(:func:`explorer.app.dashboard.warm_up`) and builds the opening page
(:func:`~explorer.app.dashboard.ready_dashboard`) before anyone asks for a page, then waits
(``voila.utils.wait_for_request``) for the request: an address without a link gets the page
built already, one with a link (``?tab=…&step=…``), which a preheated kernel would otherwise
never see, gets a page built from it (:func:`~explorer.app.dashboard.for_request`).
"""

from __future__ import annotations

import asyncio
import contextvars
import html
import json
import random
import re
import uuid

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Integer, Unicode

from ..shared import cjk_font, i18n
from ..shared.i18n import query_lang, tr, tr_n
from .lecture import MAX_FOLLOWERS, Lecture
from .lecture_web import lecture_handlers
from .page import ExplorerVoila, PageHandler, page_handlers
from .room import DEFAULT_MAX_STARTING, Place, Room
from .voila_adapter import has_pool, mix_in, pools

#: The notebook served in hall mode: imports while preheating, the page after the request.
HALL_CELLS = (
    ("code", "from explorer.app.dashboard import for_request, ready_dashboard, warm_up\n"
             "from voila.utils import wait_for_request\n\nwarm_up()\n"
             "ready = ready_dashboard()  # the opening page, built before anyone asks"),
    ("code", "wait_for_request()  # preheated: the visitor's link arrives here\n\n"
             "for_request(ready)"),
)

RETRY_AFTER_S = 60
#: Seconds after which the "starting, please wait" page asks again (a little jitter is added,
#: so a room that arrived at once does not come back at once).
STARTING_RETRY_S = 4
#: Seconds between a visitor taking a preheated kernel and the pool starting its replacement.
#: A kernel's start (its imports and the opening page: seconds of one core) would otherwise
#: share the server's cores with the page being opened (its static files, the kernel answering
#: the page's widgets): measured in docs/performance.md ("page open -> interactive, preheated").
REFILL_DELAY_S = 3.0
#: The cookie that keeps a waiting visitor's place in the queue (first come, first served).
TICKET_COOKIE = "pe_hall_ticket"
_TICKET = re.compile(r"[0-9a-f]{32}")

def _short_page(title: str, head: str, body: str, *, lang: str, base: str = "/") -> str:
    """The hall's own pages: large, plain, readable on a phone (``title``, ``head`` and
    ``body`` are HTML, already translated and filled in; ``base``: the server's base URL,
    under which it serves the shipped Chinese font, :data:`explorer.shared.cjk_font.ROUTE`)."""
    style = (cjk_font.font_face_css(base + cjk_font.ROUTE) + "\n "
             f"body {{ font-family: {cjk_font.stack('system-ui', 'sans-serif')}; margin: 0; "
             "display: flex; "
             "min-height: 100vh; align-items: center; justify-content: center; "
             "background: #fff; color: #111; }\n"
             " main { max-width: 36rem; padding: 2rem; text-align: center; "
             "font-size: 1.25rem; }\n"
             " h1 { font-size: 2rem; margin: 0 0 1rem; }\n a { color: #0b57d0; }")
    return (f"<!DOCTYPE html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"{head}<title>Perceptron Explorer: {title}</title>\n<style>\n {style}\n"
            f"</style></head>\n<body><main role=\"main\">\n{body}\n</main></body></html>\n")


def page_language(query: str, accept_language: str | None) -> str:
    """The language of a hall page: the link's ``lang=``, else the browser's
    ``Accept-Language``, else English (:func:`explorer.shared.i18n.pick`)."""
    return i18n.pick(query_lang(query), i18n.accepted(accept_language))


def starting_page(*, retry: int, why: str, again: str, lang: str = i18n.DEFAULT,
                  base: str = "/") -> str:
    """The page of a visitor who waits for a page to start (``why``: plain text, translated;
    ``again``: the address to ask again, HTML-escaped; ``base``: the server's base URL)."""
    with i18n.using(lang):
        tries = tr("This page tries again by itself in {retry} seconds.").format(retry=retry)
        head, now = html.escape(tr("Starting…")), html.escape(tr("Try now"))
        return _short_page(
            html.escape(tr("starting")), f'<meta http-equiv="refresh" content="{retry}">\n',
            f"<h1>{head}</h1>\n<p class=\"pe-hall-starting\">"
            f"{html.escape(why)} {html.escape(tries)}</p>\n"
            f'<p><a href="{again}">{now}</a></p>', lang=lang, base=base)


def full_page(*, taken: int, places: int, again: str, per_address: bool = False,
              lang: str = i18n.DEFAULT, base: str = "/") -> str:
    """The page of a visitor for whom there is no place (``per_address``: the places one
    address may take are taken; ``base``: the server's base URL)."""
    with i18n.using(lang):
        if per_address:
            said = tr("The room is full: {taken} of {places} places are open from your "
                      "address; try again in a minute.")
        else:
            said = tr("The room is full: {taken} of {places} places are taken; try again in "
                      "a minute.")
        said = said.format(taken=taken, places=places)
        frees = tr("A place frees itself when someone closes their page.")
        head, retry = html.escape(tr("The room is full")), html.escape(tr("Try again"))
        return _short_page(
            html.escape(tr("the room is full")), "",
            f"<h1>{head}</h1>\n<p class=\"pe-hall-full\">"
            f"{html.escape(said)}</p>\n<p>{html.escape(frees)} "
            f'<a href="{again}">{retry}</a></p>', lang=lang, base=base)


def waiting_reason(starting: int, ahead: int) -> str:
    """Why a visitor waits: how many pages are starting and how many came before."""
    first = tr_n("{n} page is starting for other visitors;",
                 "{n} pages are starting for other visitors;", starting).format(n=starting)
    if ahead <= 0:
        return first + " " + tr("yours is next.")
    return f"{first} " + tr_n(
        "{n} visitor came before you, and you keep your place in the queue.",
        "{n} visitors came before you, and you keep your place in the queue.",
        ahead).format(n=ahead)


#: The place of the page request being served (set by HallPageHandler, read by the kernel
#: manager when it starts that request's kernel).
CURRENT_PLACE: contextvars.ContextVar[Place | None] = contextvars.ContextVar(
    "pe_hall_place", default=None)


class HallKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager for the hall: culls concurrently, binds each started
    page kernel to its visitor's :class:`Place`, and retries a failed start once.

    The stock culler awaits each shutdown in turn (a few seconds each on a busy machine), so
    sixty closed pages took 160 s to free; here the idle checks and shutdowns run together.
    """

    #: The hall's places (set by :class:`HallVoila`); None outside a hall.
    hall_room: Room | None = None

    async def start_kernel(self, *args, **kwargs):
        env = kwargs.get("env") or {}
        place = None if env.get("VOILA_PREHEAT") == "True" else CURRENT_PLACE.get()
        room = self.hall_room if place is not None else None

        def named(kw):
            # The kernel's id is chosen here and bound to the place before the kernel exists:
            # jupyter_server lists a kernel while it is still starting, and a listed kernel
            # not yet bound would be counted twice (as a page and as its request).
            if room is not None and kwargs.get("kernel_id") is None:
                kw = {**kw, "kernel_id": str(uuid.uuid4())}
                room.bind(place, kw["kernel_id"])
            return kw

        try:
            kernel_id = await super().start_kernel(*args, **named(kwargs))
        except Exception:  # noqa: BLE001 - e.g. a kernel that died while starting: once more
            self.log.warning("A kernel failed to start; trying once more", exc_info=True)
            kernel_id = await super().start_kernel(*args, **named(kwargs))
        if room is not None:
            room.bind(place, kernel_id)
        return kernel_id

    async def cull_kernels(self):
        async def one(kernel_id):
            try:
                await self.cull_kernel_if_idle(kernel_id)
            except Exception:  # noqa: BLE001 - as the stock culler: log and go on
                self.log.exception("The following exception was encountered while checking "
                                   "the idle duration of kernel %s", kernel_id)

        await asyncio.gather(*(one(k) for k in self.list_kernel_ids()))
        refill = getattr(self, "refill", None)
        if refill is not None:
            refill(delay=0)  # culled pages free places the pool may take again


class HallPool:
    """What the hall changes in Voila's preheated pool (mixed into the kernel manager class
    Voila builds around :class:`HallKernelManager`, see :func:`hall_kernel_manager`): the pool
    fills only up to :meth:`Room.pool_target`, and a page that takes a pooled kernel binds it
    to its place."""

    def fill_if_needed(self, delay=None, notebook_name=None, **kwargs):
        room = self.hall_room
        if delay is None:  # a visitor took a pooled kernel: let the page open first
            delay = REFILL_DELAY_S
        if room is None or notebook_name is None:
            return super().fill_if_needed(delay=delay, notebook_name=notebook_name, **kwargs)
        config = self.kernel_pools_config
        default = config.get("default", {})
        size = int(config.get(notebook_name, default).get("pool_size",
                                                          default.get("pool_size", 1)))
        pages = set(self.list_kernel_ids()) - pooled_kernel_ids(self)
        target = room.pool_target(pages=pages, pool_size=size)
        if self.get_pool_size(notebook_name) >= target:
            return None
        # Voila fills to the configured size: ask it for `target` kernels this once.
        self.kernel_pools_config = {**config, notebook_name: {**default, "pool_size": target}}
        try:
            return super().fill_if_needed(delay=delay, notebook_name=notebook_name, **kwargs)
        finally:
            self.kernel_pools_config = config

    def refill(self, *, delay: float = REFILL_DELAY_S) -> None:
        """Fill the pool again if the room allows, its starts ``delay`` seconds from now
        (after a request ends, :data:`REFILL_DELAY_S`: its page is still opening; after pages
        are culled, at once)."""
        for name in list(pools(self)):
            self.fill_if_needed(delay=delay, notebook_name=name)

    async def get_rendered_notebook(self, *args, **kwargs):
        place = CURRENT_PLACE.get()
        task, cache, kernel_id = await super().get_rendered_notebook(*args, **kwargs)
        if place is not None and self.hall_room is not None:
            self.hall_room.bind(place, kernel_id)
        return task, cache, kernel_id


def hall_kernel_manager(kernel_manager, room: Room):
    """Give the kernel manager Voila built its room, and its pool the hall's rules."""
    kernel_manager.hall_room = room
    if has_pool(kernel_manager):
        mix_in(kernel_manager, HallPool, prefix="Hall")
    return kernel_manager

def pooled_kernel_ids(kernel_manager) -> set[str]:
    """Ids of preheated kernels still waiting in Voila's pool (no page has them yet)."""
    ids = set()
    for pool in pools(kernel_manager).values():
        for task in pool:
            if task.done() and not task.cancelled() and task.exception() is None:
                ids.add(task.result()["kernel_id"])
    return ids


def pages_in_use(kernel_manager) -> tuple[int, int]:
    """``(pages, pooled)``: kernels held by pages, and preheated kernels waiting in the pool."""
    pooled = pooled_kernel_ids(kernel_manager)
    running = set(kernel_manager.list_kernel_ids())
    return len(running - pooled), len(running & pooled)


class HallPageHandler(PageHandler):
    """The dashboard's page handler (:class:`~explorer.serving.page.PageHandler`), taking a
    place before any kernel is started (see :class:`Room`) and answering at once when there is
    none."""

    def initialize(self, **kwargs):
        self.room = kwargs.pop("room", None)
        super().initialize(**kwargs)

    def _refuse(self, page: str, retry_after: int) -> None:
        self.set_status(503)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Retry-After", str(retry_after))
        self.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
        self.finish(page)

    def _again(self) -> str:
        return html.escape(self.request.uri or "/", quote=True)

    def _language(self) -> str:
        return page_language(self.request.query or "",
                             self.request.headers.get("Accept-Language"))

    def _starting(self, why) -> None:
        """Answer "starting, wait": ``why()`` says why, in the page's language."""
        retry = STARTING_RETRY_S + random.randint(0, 3)
        lang = self._language()
        with i18n.using(lang):
            why = why()
        self._refuse(starting_page(retry=retry, why=why, again=self._again(), lang=lang,
                                   base=self.base_url), retry)

    def _ticket(self) -> tuple[str, bool]:
        """This visitor's ticket in the queue (the cookie's, or a new one) and whether it came
        back from the browser."""
        found = self.get_cookie(TICKET_COOKIE, "") or ""
        return (found, True) if _TICKET.fullmatch(found) else (uuid.uuid4().hex, False)

    @web.authenticated
    async def get(self, path=None):
        room = self.room
        if room is None:
            return await super().get(path=path)
        km = self.kernel_manager
        pooled = pooled_kernel_ids(km)
        pages = set(km.list_kernel_ids()) - pooled
        pool = sum(len(p) for p in pools(km).values())
        ticket, returning = self._ticket()
        place = room.admit(pages=pages, pool=pool, address=self.request.remote_ip or "",
                           ticket=ticket, returning=returning)
        if place == "full":
            taken = room.taken(pages)
            self.log.warning("Room full (%d of %d places): refused a page", taken,
                             room.max_pages)
            self._refuse(full_page(taken=taken, places=room.max_pages, again=self._again(),
                                   lang=self._language(), base=self.base_url), RETRY_AFTER_S)
            return
        if place == "busy":
            self.set_cookie(TICKET_COOKIE, ticket, path="/", httponly=True, samesite="Lax",
                            expires_days=1)
            starting, ahead = len(room.starting), room.position(ticket) - 1
            self._starting(lambda: waiting_reason(starting, ahead))
            return
        if place == "yours":
            self._refuse(full_page(taken=room.max_per_address, places=room.max_per_address,
                                   again=self._again(), per_address=True,
                                   lang=self._language(), base=self.base_url), RETRY_AFTER_S)
            return
        self.set_xsrf_cookie()  # the page's shutdown request when it is left sends it back
        token = CURRENT_PLACE.set(place)
        sent = False
        try:
            # No await between the admission above and the first step of the page: Voila
            # takes a pooled kernel (or starts one) in that step, so no other request can
            # slip in between the check and the reservation.
            async for chunk in self.get_generator(path=path):
                self.write(chunk)
                sent = True
                self.flush()
        except Exception:  # noqa: BLE001 - the start failed twice: answer, never hang
            if sent:
                raise
            self.log.exception("A page's kernel could not be started")
            self._starting(lambda: tr("The server could not start your page just now."))
        finally:
            CURRENT_PLACE.reset(token)
            room.release(place)
            refill = getattr(km, "refill", None)
            if refill is not None:
                refill()


class HallStatusHandler(web.RequestHandler):
    """``GET /hall/status``: ``{"pages": n, "pooled": m, "starting": s, "max_pages": cap}``
    (counts only)."""

    def initialize(self, kernel_manager, room):
        self.kernel_manager = kernel_manager
        self.room = room

    def get(self):
        pages, pooled = pages_in_use(self.kernel_manager)
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps({"pages": pages, "pooled": pooled,
                                "starting": len(self.room.starting),
                                "max_pages": self.room.max_pages}))


class HallVoila(ExplorerVoila):
    """Voila with a cap on open pages and a status endpoint (see the module docstring)."""

    name = "perceptron-explorer-hall"
    max_pages = Integer(
        0, config=True,
        help="Most dashboard pages (kernels) open at once; 0 = no cap. The preheated pool is "
             "kept within the same cap.",
    )
    max_starting = Integer(
        DEFAULT_MAX_STARTING, config=True,
        help="Most visitors' kernels starting at once; past it a visitor gets a short page "
             "that tries again by itself.",
    )
    max_per_address = Integer(
        0, config=True, help="Most places one client address may hold; 0 = no limit.")
    presenter_key = Unicode(
        "", help="The lecture's presenter key (made at start by perceptron-explorer --hall; "
                 "empty: nobody presents). Given to the constructor, never on a command line.")
    max_followers = Integer(
        MAX_FOLLOWERS, config=True, help="Most followers of the lecture (the /follow page).")

    def init_handlers(self):
        room = Room(max_pages=self.max_pages, max_starting=self.max_starting,
                    max_per_address=self.max_per_address)
        hall_kernel_manager(self.kernel_manager, room)
        handlers = page_handlers(super().init_handlers(), HallPageHandler, room=room)
        status = (self.server_url.rstrip("/") + "/hall/status", HallStatusHandler,
                  {"kernel_manager": self.kernel_manager, "room": room})
        lecture = lecture_handlers(self.server_url, key=self.presenter_key,
                                   lecture=Lecture(max_followers=self.max_followers))
        # Before Voila's catch-all page route, or that would answer /hall/status.
        return [status, *lecture, *handlers]

if __name__ == "__main__":  # ``python -m explorer.serving.hall <Voila arguments>`` (what --dry-run prints)
    HallVoila.launch_instance()
