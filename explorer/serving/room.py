"""The lecture hall's places as reservations (:class:`Room`): who may open a page now, pure
bookkeeping with no I/O. :mod:`explorer.serving.hall` asks it before it starts or hands out a
kernel, tells it when the kernel exists and when the request ends.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

#: Kernels starting at once by default: a start costs seconds of one core.
DEFAULT_MAX_STARTING = max(2, os.cpu_count() or 2)
#: A queued visitor whose page has not asked again for this long has left (it asks every 4-7 s).
QUEUE_FORGET_S = 12.0


@dataclass(eq=False)
class Place:
    """One visitor's place in the room: taken before their kernel exists."""

    address: str
    pooled: bool = False  # served by a preheated kernel (nothing to start)
    kernel_id: str | None = None


class Room:
    """The hall's places as reservations: pure bookkeeping, no I/O (tested on its own).

    Parameters
    ----------
    max_pages : int
        Most pages holding a kernel at once; 0 = no cap.
    max_starting : int, default: the number of cores, at least 2
        Most page requests being served at once without a pooled kernel (a request is
        "starting" from its admission until its page is sent: the kernel's start and the
        dashboard's first run, seconds of a core each).
    max_per_address : int, default 0
        Most places one client address may hold; 0 = no limit (a room behind one NAT shares
        an address).

    A request calls :meth:`admit` with the kernels that pages hold now and the pool's size; it
    gets a :class:`Place` (or the reason it gets none: ``"full"``, ``"busy"``, ``"yours"``),
    :meth:`bind` once its kernel exists (then the kernel counts as a page) and :meth:`release`
    when the request ends, whatever happened.

    Visitors told "busy" wait in a queue, first come first served: a request carries its
    ``ticket`` (the page keeps it in a cookie), and while others have waited longer it is not
    admitted ahead of them, so nobody is passed over again and again by luckier retries. A
    ticket holds a place in the queue once it comes back (``returning``: the browser kept the
    cookie), counted from its first visit; a client that keeps no cookie is never queued and
    never holds anyone up. A ticket not seen for :data:`QUEUE_FORGET_S` seconds has left.
    """

    def __init__(self, *, max_pages: int, max_starting: int = DEFAULT_MAX_STARTING,
                 max_per_address: int = 0):
        if max_pages < 0 or max_starting < 1 or max_per_address < 0:
            raise ValueError(f"a room needs max_pages >= 0, max_starting >= 1 and "
                             f"max_per_address >= 0; got {max_pages}, {max_starting}, "
                             f"{max_per_address}")
        self.max_pages = int(max_pages)
        self.max_starting = int(max_starting)
        self.max_per_address = int(max_per_address)
        self.starting: list[Place] = []
        self.owners: dict[str, str] = {}  # kernel id -> address of the place that started it
        self.queue: dict[str, list] = {}  # ticket -> [first seen, last seen, came back]

    def taken(self, pages) -> int:
        """Places taken: kernels held by pages, and requests still being served (a kernel
        is counted once, whether its request has ended or not)."""
        return len(set(pages) | self._bound()) + sum(p.kernel_id is None for p in self.starting)

    def _bound(self) -> set[str]:
        return {p.kernel_id for p in self.starting if p.kernel_id is not None}

    def admit(self, *, pages, pool: int, address: str = "", ticket: str | None = None,
              returning: bool = False, now: float | None = None) -> Place | str:
        """A place for a new request, or why not: ``"full"`` (no place), ``"busy"`` (no
        pooled kernel and ``max_starting`` kernels already starting, or visitors who have
        waited longer come first: the request's ``ticket`` is queued), ``"yours"`` (this
        address holds ``max_per_address`` places). ``returning``: the ticket came back from
        the visitor's browser; ``now``: the clock (tests)."""
        pages = set(pages)
        now = time.monotonic() if now is None else float(now)
        for t in [t for t, q in self.queue.items() if now - q[1] > QUEUE_FORGET_S]:
            del self.queue[t]
        bound = self._bound()
        for kid in [k for k in self.owners if k not in pages and k not in bound]:
            del self.owners[kid]  # its kernel is gone (culled, or its start failed)
        if self.max_pages and self.taken(pages) >= self.max_pages:
            self.queue.pop(ticket, None)
            return "full"
        free = max(0, pool) + max(0, self.max_starting
                                  - sum(not p.pooled for p in self.starting))
        if ticket is not None:
            q = self.queue.setdefault(ticket, [now, now, False])
            q[1], q[2] = now, q[2] or returning
        if self._ahead(ticket) >= free:
            return "busy"
        if self.max_per_address:
            mine = sum(1 for k in pages - self._bound() if self.owners.get(k) == address)
            mine += sum(1 for p in self.starting if p.address == address)
            if mine >= self.max_per_address:
                self.queue.pop(ticket, None)
                return "yours"
        place = Place(address, pooled=pool > 0)
        self.starting.append(place)
        self.queue.pop(ticket, None)
        return place

    def _ahead(self, ticket: str | None) -> int:
        """Visitors queued before ``ticket`` who came back (all of them for a new visitor)."""
        mine = self.queue.get(ticket)
        first = float("inf") if mine is None else mine[0]
        return sum(1 for t, q in self.queue.items() if q[2] and t != ticket and q[0] <= first)

    def position(self, ticket: str | None) -> int:
        """This visitor's place in the queue: 1 + those who came before it."""
        return 1 + self._ahead(ticket)

    def bind(self, place: Place, kernel_id: str) -> None:
        """The place's kernel has its id (it counts once, as a page, from now on, even while
        jupyter_server lists it as starting)."""
        place.kernel_id = kernel_id
        self.owners[kernel_id] = place.address

    def release(self, place: Place) -> None:
        """The request ended (page sent, or failed): its kernel, if any, is now a page like
        the others, and a place whose kernel never came is given back."""
        self.starting = [p for p in self.starting if p is not place]

    def pool_target(self, *, pages, pool_size: int) -> int:
        """How many kernels the preheated pool may hold now: none while a visitor's kernel is
        starting (the room is arriving: it should not also pay for refilling the pool), and
        never more than the places left (pages + pool kernels stay within the cap)."""
        if self.starting:
            return 0
        if not self.max_pages:
            return pool_size
        return max(0, min(pool_size, self.max_pages - len(set(pages))))
