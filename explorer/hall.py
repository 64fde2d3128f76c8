"""Lecture-hall serving: one Voila server shared by a room, with a cap on open pages.

This module is server-side only (it imports Voila, tornado and jupyter_server); the core and the
app never import it. ``perceptron-explorer --hall`` (see :mod:`explorer.serve`) runs
:class:`HallVoila`, which is Voila 0.5 with two additions:

* **A cap on pages.** Each open dashboard page owns one kernel (about 150 MB here). When
  ``max_pages`` pages already hold a kernel, a new visitor gets a short HTML page, status 503
  with ``Retry-After``, saying "The room is full: N of N places are taken; try again in a minute",
  instead of a new kernel (and instead of Voila's default, which is to start kernels until the
  machine runs out of memory). Kernels waiting in Voila's preheated pool do not count as places.
  The cap is checked when a page is asked for: requests that arrive in the same instant can
  overshoot it by the few pages still starting.
* **A status endpoint** ``/hall/status`` (JSON: pages, pooled, max_pages), read by the load test
  (``scripts/loadtest.py``) and handy for a lecturer; Voila 0.5 does not expose ``/api/kernels``.

Voila does the rest through its own options, set by ``explorer.serve.voila_args``: preheated
kernels (``--preheat_kernel --pool_size``), culling of kernels with no page connected
(``MappingKernelManager.cull_*``), no tracebacks on the page (``show_tracebacks=False``).

The preheated notebook (:data:`HALL_CELLS`) imports everything and draws the opening run once
(:func:`explorer.app.dashboard.warm_up`) before anyone asks for a page,
then waits (``voila.utils.wait_for_request``) for the request so the dashboard is built from
the visitor's link (``?tab=…&step=…``), which a preheated kernel would otherwise never see.
"""

from __future__ import annotations

import asyncio
import html
import json

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Integer
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

#: The notebook served in hall mode: imports while preheating, the page after the request.
HALL_CELLS = (
    ("code", "%matplotlib widget\nfrom explorer.app import dashboard\n"
             "from explorer.app.dashboard import warm_up\n"
             "from voila.utils import wait_for_request\n\nwarm_up()"),
    ("code", "wait_for_request()  # preheated: the visitor's link arrives here\n\ndashboard()"),
)

RETRY_AFTER_S = 60

FULL_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Perceptron Explorer: the room is full</title>
<style>
 body {{ font-family: system-ui, sans-serif; margin: 0; display: flex; min-height: 100vh;
        align-items: center; justify-content: center; background: #fff; color: #111; }}
 main {{ max-width: 36rem; padding: 2rem; text-align: center; font-size: 1.25rem; }}
 h1 {{ font-size: 2rem; margin: 0 0 1rem; }}
 a {{ color: #0b57d0; }}
</style></head>
<body><main role="main">
<h1>The room is full</h1>
<p class="pe-hall-full">The room is full: {taken} of {places} places are taken; try again in a
minute.</p>
<p>A place frees itself when someone closes their page. <a href="{again}">Try again</a></p>
</main></body></html>
"""


class HallKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager, culling kernels all at once instead of one by one.

    The stock culler awaits each shutdown in turn (a few seconds each on a busy machine), so
    sixty closed pages took 160 s to free; here the idle checks and shutdowns run together.
    """

    async def cull_kernels(self):
        async def one(kernel_id):
            try:
                await self.cull_kernel_if_idle(kernel_id)
            except Exception:  # noqa: BLE001 - as the stock culler: log and go on
                self.log.exception("The following exception was encountered while checking "
                                   "the idle duration of kernel %s", kernel_id)

        await asyncio.gather(*(one(k) for k in list(self._kernels)))


def pooled_kernel_ids(kernel_manager) -> set[str]:
    """Ids of preheated kernels still waiting in Voila's pool (no page has them yet)."""
    ids = set()
    for pool in getattr(kernel_manager, "_pools", {}).values():
        for task in pool:
            if task.done() and not task.cancelled() and task.exception() is None:
                ids.add(task.result()["kernel_id"])
    return ids


def pages_in_use(kernel_manager) -> tuple[int, int]:
    """``(pages, pooled)``: kernels held by pages, and preheated kernels waiting in the pool."""
    pooled = pooled_kernel_ids(kernel_manager)
    running = set(kernel_manager.list_kernel_ids())
    return len(running - pooled), len(running & pooled)


class HallPageHandler(TornadoVoilaHandler):
    """Voila's page handler, refusing politely when the room is full."""

    def initialize(self, **kwargs):
        self.max_pages = int(kwargs.pop("max_pages", 0))
        super().initialize(**kwargs)

    @web.authenticated
    async def get(self, path=None):
        if self.max_pages > 0:
            taken, _ = pages_in_use(self.kernel_manager)
            if taken >= self.max_pages:
                self.log.warning("Room full (%d of %d places): refused a page", taken,
                                 self.max_pages)
                self.set_status(503)
                self.set_header("Content-Type", "text/html; charset=utf-8")
                self.set_header("Retry-After", str(RETRY_AFTER_S))
                self.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
                again = html.escape(self.request.uri or "/", quote=True)
                self.finish(FULL_PAGE.format(taken=taken, places=self.max_pages, again=again))
                return
        await super().get(path=path)


class HallStatusHandler(web.RequestHandler):
    """``GET /hall/status``: ``{"pages": n, "pooled": m, "max_pages": cap}`` (counts only)."""

    def initialize(self, kernel_manager, max_pages):
        self.kernel_manager = kernel_manager
        self.max_pages = max_pages

    def get(self):
        pages, pooled = pages_in_use(self.kernel_manager)
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps({"pages": pages, "pooled": pooled, "max_pages": self.max_pages}))


class HallVoila(Voila):
    """Voila with a cap on open pages and a status endpoint (see the module docstring)."""

    name = "perceptron-explorer-hall"
    max_pages = Integer(
        0, config=True,
        help="Most dashboard pages (kernels) open at once; 0 = no cap. Kernels waiting in the "
             "preheated pool do not count.",
    )

    def init_handlers(self):
        handlers = []
        for spec in super().init_handlers():
            if len(spec) == 3 and spec[1] is TornadoVoilaHandler:
                spec = (spec[0], HallPageHandler, {**spec[2], "max_pages": self.max_pages})
            handlers.append(spec)
        status = (self.server_url.rstrip("/") + "/hall/status", HallStatusHandler,
                  {"kernel_manager": self.kernel_manager, "max_pages": self.max_pages})
        # Before Voila's catch-all page route, or that would answer /hall/status.
        return [status, *handlers]


if __name__ == "__main__":  # ``python -m explorer.hall <Voila arguments>`` (what --dry-run prints)
    HallVoila.launch_instance()
