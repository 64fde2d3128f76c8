"""A lecture's one state, kept by the hall server and fanned out to followers (issue 32).

The presenter's page publishes what its page-drawn figures receive and show; the hall server
keeps the latest of it (:class:`Lecture`) and sends it on to every follower's page, which draws
the same figure with the same JavaScript and no kernel. This module is the relay's logic, with
no sockets: :mod:`explorer.serving.lecture_web` connects it to tornado.

Frames
    A frame is ``[4-byte big-endian header length][header, JSON in UTF-8][buffers]``, the
    header's ``"sizes"`` giving the buffers' lengths (absent or ``[]``: none). The presenter's
    page (``explorer/app/static/lecture.js``) writes these headers:

    ``{"t": "state", "fig": F, "set": {trait: value, ...}, "bin": [trait, ...]}``
        traits of figure ``F``'s model that changed (the scene, the step...), the ones that are
        bytes (the still layers, PNG) as buffers named in ``"bin"``;
    ``{"t": "msg", "fig": F, "msg": {...}, "sizes": [...]}``
        a message the kernel sent figure ``F`` (a chunk of steps, a static part), with buffers;
    ``{"t": "view", "fig": F, "step": k}``
        the step figure ``F`` has drawn;
    ``{"t": "focus", "fig": F, "blackout": bool, "title": str}``
        the figure on the presenter's screen (``F`` null: none), blacked out or not, its tab.

    Frames go to followers as they came (the bytes are not encoded again), a new figure's
    whole state first (:meth:`Lecture.snapshot`).

Answers
    While a question is open on the presenter's figure (its ``question`` trait), followers'
    pages send their answers as text messages, counted in memory by
    :class:`explorer.serving.answers.Answers` (:meth:`Lecture.answer`).

Slow followers
    Each follower has a :class:`Outbox`: a "view" frame replaces a view still waiting, and a
    follower whose waiting frames pass :data:`OUTBOX_LIMIT` bytes has them dropped and gets the
    whole latest state instead. Nothing waits without bound and no follower slows another.
"""

from __future__ import annotations

import json
import struct
from collections import OrderedDict, deque
from dataclasses import dataclass, field

from .answers import Answers

__all__ = ["Frame", "FrameError", "Lecture", "Outbox", "RateLimit", "covers", "decode", "encode",
           "OUTBOX_LIMIT", "MAX_FRAME", "MAX_FOLLOWERS", "PRESENTER_RATE", "FOLLOWER_RATE"]

#: The most bytes a follower may have waiting before it is sent the latest state instead.
OUTBOX_LIMIT = 8 * 2**20
#: The largest frame the presenter may publish (a figure's two still layers are far smaller).
MAX_FRAME = 32 * 2**20
#: Followers one lecture serves by default.
MAX_FOLLOWERS = 1000
#: Chunks of steps kept per figure and run (the farthest from the presenter's step go first).
KEEP_CHUNKS = 48
KINDS = ("state", "msg", "view", "focus")
#: The presenter's frames a second, sustained, and the burst allowed above it. Play at 60 steps
#: a second sends about 60 step frames a second for the figure on screen; a new run's scene and
#: first chunks come as a burst.
PRESENTER_RATE = (500.0, 2000)
#: A follower's messages a second, and its burst: its page sends only its answers to a question
#: (a click each; the browser's own pings are not messages), so this only stops a page that
#: floods the server.
FOLLOWER_RATE = (5.0, 50)


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once.

    ``allow(now)`` takes a token if there is one and says whether the message may pass; ``now``
    is a time in seconds (``time.monotonic()``), given so that tests choose it.
    """

    def __init__(self, rate: float, burst: int, *, now: float = 0.0):
        if not rate > 0 or int(burst) < 1:
            raise ValueError(f"rate must be > 0 and burst at least 1; got {rate!r}, {burst!r}")
        self.rate, self.burst = float(rate), int(burst)
        self.tokens, self.at = float(self.burst), float(now)

    def allow(self, now: float) -> bool:
        """Whether a message at ``now`` is within the limit (it takes a token if so)."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class FrameError(ValueError):
    """A frame that is not one this relay reads (its ``str`` says what was wrong)."""


@dataclass(frozen=True)
class Frame:
    """One frame: its header and its bytes as they came."""

    header: dict
    data: bytes

    @property
    def buffers(self) -> list[bytes]:
        (n,) = struct.unpack(">I", self.data[:4])
        out, at = [], 4 + n
        for size in self.header.get("sizes", []):
            out.append(self.data[at:at + size])
            at += size
        return out

    @property
    def kind(self) -> str:
        return self.header["t"]

    @property
    def fig(self):
        return self.header.get("fig")


def encode(header: dict, buffers: tuple[bytes, ...] = ()) -> bytes:
    """A frame's bytes: ``header`` (``"sizes"`` set from ``buffers``) and the buffers."""
    head = dict(header)
    if buffers:
        head["sizes"] = [len(b) for b in buffers]
    text = json.dumps(head, separators=(",", ":")).encode()
    return struct.pack(">I", len(text)) + text + b"".join(buffers)


def decode(data: bytes) -> Frame:
    """Read a frame the presenter published; :class:`FrameError` if it is not one."""
    if not isinstance(data, (bytes, bytearray)):
        raise FrameError(f"a frame is bytes; got {type(data).__name__}")
    if len(data) < 4:
        raise FrameError(f"a frame starts with 4 bytes of header length; got {len(data)} bytes")
    (n,) = struct.unpack(">I", data[:4])
    if n > len(data) - 4:
        raise FrameError(f"the header is {n} bytes but the frame has {len(data) - 4} after it")
    try:
        header = json.loads(data[4:4 + n].decode())
    except (UnicodeDecodeError, ValueError) as exc:
        raise FrameError(f"the header is not JSON: {exc}") from None
    if not isinstance(header, dict) or header.get("t") not in KINDS:
        raise FrameError(f"the header's 't' must be one of {KINDS}")
    sizes = header.get("sizes", [])
    if (not isinstance(sizes, list) or not all(isinstance(s, int) and s >= 0 for s in sizes)
            or sum(sizes) != len(data) - 4 - n):
        raise FrameError("the header's 'sizes' do not add up to the bytes after it")
    kind, fig = header["t"], header.get("fig")
    if kind != "focus" and not isinstance(fig, (int, str)):
        raise FrameError(f"a {kind!r} frame names its figure ('fig')")
    if kind == "state" and not isinstance(header.get("set"), dict):
        raise FrameError("a 'state' frame carries its traits in 'set'")
    if kind == "state" and not (isinstance(header.get("bin", []), list)
                                and len(header.get("bin", [])) == len(sizes)):
        raise FrameError("a 'state' frame names each of its buffers in 'bin'")
    if kind == "msg" and not isinstance(header.get("msg"), dict):
        raise FrameError("a 'msg' frame carries the message in 'msg'")
    if kind == "view" and not isinstance(header.get("step"), int):
        raise FrameError("a 'view' frame gives the whole step drawn ('step')")
    return Frame(header, bytes(data))


def covers(new: dict, old: dict) -> bool:
    """Whether static message ``new`` leaves nothing of ``old`` standing (a page applies them in
    order): a whole static part ends every part before it; a merge ends an earlier merge whose
    tracks it all sends again, and whose narration and tail, if any, it sets again. So a drag's
    hundreds of merges keep one, and a late follower is sent what it needs, not the history.
    The presenter's page keeps its own copy by the same rule (``lecture.js``, ``covers``)."""
    if not new.get("merge"):
        return True
    return (bool(old.get("merge")) and old.get("run") == new.get("run")
            and set(old.get("arrays") or {}) <= set(new.get("arrays") or {})
            and all(not isinstance(old.get(k), str) or isinstance(new.get(k), str)
                    for k in ("narration", "tail")))


@dataclass
class _Figure:
    """What one of the presenter's figures has: traits, static parts and chunks of its runs."""

    state: dict = field(default_factory=dict)
    binary: dict = field(default_factory=dict)   # traits that are bytes (the still layers)
    statics: list = field(default_factory=list)   # the last whole static part, then merges
    chunks: OrderedDict = field(default_factory=OrderedDict)  # (run, index) -> Frame
    view: Frame | None = None

    @property
    def run(self):
        return (self.state.get("scene") or {}).get("run")

    def take(self, frame: Frame) -> None:
        h = frame.header
        if frame.kind == "state":
            self.state.update(h["set"])
            self.binary.update(zip(h.get("bin", []), frame.buffers, strict=True))
            if "scene" in h["set"]:
                self._forget_other_runs()
        elif frame.kind == "view":
            self.view = frame
        elif h["msg"].get("type") == "chunk":
            self.chunks[(h["msg"].get("run"), h["msg"].get("index"))] = frame
            self._evict()
        elif h["msg"].get("type") == "static":
            msg = h["msg"]
            kept = [f for f in self.statics if not covers(msg, f.header["msg"])]
            self.statics = [*kept, frame] if msg.get("merge") else [frame]

    def _forget_other_runs(self) -> None:
        run = self.run
        runs = list(dict.fromkeys(r for r, _ in self.chunks))  # oldest first
        keep = {run, *(runs[-1:])}  # the scene's run, and chunks come ahead of their scene
        for key in [k for k in self.chunks if k[0] not in keep]:
            del self.chunks[key]
        self.statics = [f for f in self.statics if f.header["msg"].get("run") in keep]

    def _evict(self) -> None:
        if len(self.chunks) <= KEEP_CHUNKS:
            return
        step = self.view.header["step"] if self.view is not None else 0
        size = max(int((self.state.get("scene") or {}).get("chunk") or 1), 1)
        here = step // size
        by_distance = sorted(self.chunks, key=lambda k: (k[0] == self.run,
                                                         -abs((k[1] or 0) - here)))
        for key in by_distance[:len(self.chunks) - KEEP_CHUNKS]:
            del self.chunks[key]

    def frames(self, fig) -> list[bytes]:
        """This figure's whole state as frames, in the order a follower needs them."""
        head = {"t": "state", "fig": fig, "set": self.state}
        if self.binary:
            head["bin"] = list(self.binary)
        out = [encode(head, tuple(self.binary.values()))]
        out += [f.data for f in self.statics]
        out += [f.data for (run, _), f in self.chunks.items() if run == self.run]
        if self.view is not None:
            out.append(self.view.data)
        return out


class Outbox:
    """The frames waiting for one follower (see the module docstring, "Slow followers")."""

    def __init__(self, *, limit: int = OUTBOX_LIMIT):
        self.limit = limit
        self.frames: deque[tuple[str, bytes]] = deque()
        self.size = 0
        self.behind = False  # dropped its frames: the next thing it gets is the whole state
        self.wake = lambda: None  # tells its sender there is something to send (lecture_web)

    def put(self, kind: str, data: bytes) -> None:
        if self.behind:
            return
        if kind == "view" and self.frames and self.frames[-1][0] == "view":
            self.size -= len(self.frames.pop()[1])
        self.frames.append((kind, data))
        self.size += len(data)
        if self.size > self.limit:
            self.frames.clear()
            self.size = 0
            self.behind = True

    def refill(self, frames: list[bytes]) -> None:
        """Start again from ``frames`` (the whole latest state)."""
        self.frames = deque(("state", f) for f in frames)
        self.size = sum(len(f) for f in frames)
        self.behind = False

    def take(self) -> bytes | None:
        if not self.frames:
            return None
        _, data = self.frames.popleft()
        self.size -= len(data)
        return data


class Lecture:
    """The latest state of the presenter's figures, and the followers it goes to."""

    def __init__(self, *, max_followers: int = MAX_FOLLOWERS, outbox_limit: int = OUTBOX_LIMIT):
        self.max_followers = max_followers
        self.outbox_limit = outbox_limit
        self.figures: dict = {}
        self.focus: Frame | None = None
        self.followers: dict[object, Outbox] = {}
        self.presenter = None  # the presenting page's socket (set by lecture_web)
        self.count_due = False  # the presenter is told the followers' count soon
        self.answers = Answers()  # the room's answers to the question open, if any
        self.tally_due = False  # the presenter is sent the changed tallies soon
        self.report_due = False  # the answers dropped are written to the log soon

    @property
    def presenting(self) -> bool:
        return self.presenter is not None

    @property
    def focused(self):
        return None if self.focus is None else self.focus.fig

    def snapshot(self) -> list[bytes]:
        """What a follower arriving now is sent: what is on screen (the focus), then that
        figure whole."""
        fig = self.focused
        out = [self.focus.data] if self.focus is not None else []
        return out + (self.figures[fig].frames(fig) if fig in self.figures else [])

    def join(self, who) -> Outbox | None:
        """A follower arrives: its outbox, filled with the snapshot; None when the room is full."""
        if len(self.followers) >= self.max_followers:
            return None
        box = Outbox(limit=self.outbox_limit)
        box.refill(self.snapshot())
        self.followers[who] = box
        return box

    def leave(self, who) -> None:
        self.followers.pop(who, None)
        self.answers.left(who)

    def answer(self, who, message) -> str | None:
        """Follower ``who``'s message, an answer: None when taken, else why it is dropped
        (:meth:`explorer.serving.answers.Answers.take`)."""
        return self.answers.take(who, message, present=who in self.followers)

    def publish(self, frame: Frame) -> list[Outbox]:
        """Keep ``frame`` and put it in the outboxes it goes to; return those outboxes."""
        if frame.kind == "focus":
            changed = frame.fig != self.focused
            self.focus = frame
            if changed:  # a new figure on screen: followers get it whole
                frames = self.snapshot()
                for box in self.followers.values():
                    box.refill(frames)
                return list(self.followers.values())
        else:
            self.figures.setdefault(frame.fig, _Figure()).take(frame)
            if frame.kind == "state" and "question" in frame.header["set"]:
                self.answers.published(frame.fig, frame.header["set"]["question"])
            if frame.fig != self.focused:
                return []
        for box in self.followers.values():
            box.put(frame.kind, frame.data)
        return list(self.followers.values())

    def catch_up(self, box: Outbox) -> None:
        """A follower that fell behind gets the whole latest state."""
        if box.behind:
            box.refill(self.snapshot())
