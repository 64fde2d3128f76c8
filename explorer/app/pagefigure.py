"""The dashboard's own figure widget: matplotlib draws what stays still, the page what moves.

A :class:`PageFigure` receives a run once: a :class:`~explorer.plots.scene.Scene` (the still
PNG layers, the panels with their data -> CSS px mapping, the moving tracks' headers) and, in
chunks of steps, the tracks' per-step arrays as binary buffers. The page
(``static/pagefigure.js`` and the ES modules it imports: ``transport.js``, ``runs.js``,
``input.js``, ``drawing.js``, ``kinds.js`` with ``kinds_plane.js``, ``kinds_xor.js`` and
``kinds_cover.js``, ``keys.js``; shipped with the package and joined into one module when this
module is imported (:mod:`explorer.app.esm_join`), no build step, nothing from the network; a new
kind of moving part is a new entry of a kinds table, ``KINDS`` of ``kinds.js``, and of
:data:`explorer.plots.scene.KIND_STYLES`)
then draws every step itself and runs the transport (Reset, Back, Step, Play at 1-20 steps/s,
the jumps, the slider and the keys, as :class:`explorer.app.timeline.Timeline` labels and binds
them): the kernel learns the step once it has settled (the ``step`` trait), never before the
pixels change. The page asks for chunks ahead of need and, when one is late, waits at the last
step it has and says so in its status line. Clicks inside a panel arrive as data coordinates
(:meth:`PageFigure.on_pointer`), with instant feedback drawn in the page. A panel with a 3-D
view (its header's ``view3d``, :class:`explorer.plots.view3d.Panel3D`) turns as it is dragged,
in the page at frame rate; the kernel hears the azimuth and elevation where the drag ends
(:meth:`PageFigure.on_view3d`).

Static tracks: a track whose arrays are the same at every step of a run (e.g. the data and a
solution that do not move with the step but do move while the data are edited) gets them
from a "static" message (:meth:`PageFigure.send_static`, one row per array) instead of the
chunks: sent with the scene (``show_scene(static=...)``) and again whenever they change, with
an optional narration that stands until the next run; ``send_static(changed_only=True)``
sends only the tracks that changed since, which the page merges into those it has. A static
chunk's ``tail`` (:class:`~explorer.plots.scene.Chunk`) is words the page adds after every
step's narration until the next scene (or the next ``tail``): a summary that changes while the
steps' own narrations stay costs no chunk sent again.
Pointer mode "drag": pressing on a vertex of a ``drag_tracks`` points track and moving it is
drawn in the page at frame rate (the vertex follows the pointer, kept inside its panel); the
kernel hears the pointer with ``phase`` "down" (wherever the press was), "move" (at most every
30 ms) and "up", in data coordinates, and answers with static tracks; the page draws the
dropped vertex where it was dropped until the kernel's next static message or scene.

The protocol (traits and messages) is the contract of issue 20 (the scene's wire format is
:meth:`Scene.header` and :meth:`Chunk.message`).

Track styles, as the page reads them (all optional; colours "#RRGGBB", sizes in CSS px):
``color``/``alpha`` the stroke (and text) colour and opacity; ``width`` the line width (1.5;
polygons 0: no edge); ``dash`` a list of dash lengths; ``fill``/``fill_alpha`` a polygon's fill
(default its colour) or a filled marker's; ``hatch`` "/", "\\\\" or "x" (diagonal lines anchored
to the figure, ``hatch_gap`` apart (8), in ``hatch_color`` at ``hatch_alpha``); ``size`` a
marker's diameter (8) or a text's font size (12); ``marker`` "o" (disc), "s" (square), "D",
"^", "v", "P" (filled plus), "X" (filled x), "*" (star; these three from ``kinds_cover.js``),
"ring", "box" (open square), "x", "+" (a filled marker's edge is drawn where its ``color``
differs from its ``fill``, as matplotlib draws it); ``colors`` the colours a points track's ``c`` indexes;
``head`` an arrow head's length (10) or [length, width]; ``font``/``weight`` a text's family and
weight; ``box`` a white (or the given colour's) box behind a text. Polylines break at NaN
vertices; polygons skip them (padding), so a polygon of fewer vertices fits the same array.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import anywidget
import numpy as np
import traitlets as T

from ..plots.scene import ARRAYS_DTYPE, FIGURE, Chunk, Scene
from ..plots.style import NEG, POS
from ..shared.i18n import N_, tr
from ..shared.page_words import page_words
from . import labels
from .esm_join import join
from .question_state import MESSAGES as QUESTION_MESSAGES
from .timeline import KEY_ACTIONS

STATIC = Path(__file__).parent / "static"
#: The page's JavaScript: the ES module whose ``export default`` anywidget renders; it and the
#: modules it imports are joined into one (:func:`explorer.app.esm_join.join`).
ENTRY = "widget.js"
#: What a click in a panel means (the tab decides; "view": clicks do nothing).
POINTER_MODES = ("view", "add+", "add-", "remove", "choose", "drag")
#: A pointer message's phase: a click, or a drag's press, moves and release ("drag" mode).
PHASES = ("click", "down", "move", "up")
#: The transport's buttons: action, label, tooltip, CSS class. The same labels, tooltips and
#: classes as explorer.app.timeline.Timeline's (tests/test_pagefigure.py checks); the speed
#: slider follows Play.
#: Labels and tooltips in English (the catalogs' keys): the page gets them in its language
#: (:func:`controls`).
CONTROLS = (
    ("reset", N_("Reset"), N_("Back to step 0 (Home or r)"), "pe-reset"),
    ("back", N_("◀ Back"), N_("Back one step (← or PageUp)"), "pe-back"),
    ("step", N_("Step ▶"), N_("Forward one step (→ or PageDown)"), "pe-step"),
    ("play", N_("▶ Play"), N_("Play or pause (space)"), "pe-play"),
    ("prev_update", N_("⇤ Update"), N_("Previous update ([)"), "pe-prev-update"),
    ("next_update", N_("Update ⇥"), N_("Next update (])"), "pe-next-update"),
    ("epoch_end", N_("Epoch end"), N_("End of this epoch (e)"), "pe-epoch-end"),
    ("end", N_("End"), N_("Last step of the run (End)"), "pe-end"),
    ("cycle_start", N_("Cycle start"), N_("First step of the cycle: from there the weights repeat"),
     "pe-cycle-start"),
)


def controls() -> list[list[str]]:
    """The transport's buttons (:data:`CONTROLS`), their labels and tooltips in the current
    language."""
    return [[action, tr(label), tr(tip), css] for action, label, tip, css in CONTROLS]


@dataclass(frozen=True)
class Pointer:
    """A click inside a panel, in that panel's data coordinates, in the page's pointer mode
    (``phase``: "click", or "down", "move", "up" of a drag)."""

    panel: str
    x: float
    y: float
    mode: str
    phase: str = "click"


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_real(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _static_mark(fields: dict, strings) -> tuple:
    """What a static track's arrays draw (its texts resolved): equal marks, equal drawings."""
    out = []
    for key in sorted(fields):
        arr = np.ascontiguousarray(fields[key], dtype=ARRAYS_DTYPE.get(key, "float32"))
        if key == "t":  # an index into the message's strings: what it says counts
            out.append((key, tuple(strings[int(i)] if 0 <= int(i) < len(strings) else ""
                                   for i in arr.reshape(-1))))
        else:
            out.append((key, arr.shape, arr.tobytes()))
    return tuple(out)


def _transport(transport: dict | None, n_steps: int) -> dict:
    """The ``transport`` trait, checked: 1-based update steps, pass length, cycle start."""
    t = dict(transport or {})
    unknown = set(t) - {"updates", "epoch", "cycle_start", "status_suffix"}
    if unknown:
        raise ValueError(f"transport keys must be updates, epoch, cycle_start, status_suffix; "
                         f"got {sorted(unknown)}")
    updates = sorted(int(u) for u in t.get("updates", ()))
    if updates and not (1 <= updates[0] and updates[-1] <= n_steps):
        raise ValueError(f"update steps must lie in 1..{n_steps}; got {updates[0]}..{updates[-1]}")
    epoch = int(t.get("epoch", 0))
    if epoch < 0:
        raise ValueError(f"epoch must be 0 (none) or a number of steps; got {epoch}")
    cycle = t.get("cycle_start")
    return {"updates": updates, "epoch": epoch,
            "cycle_start": None if cycle is None else int(cycle),
            "status_suffix": str(t.get("status_suffix", ""))}


class PageFigure(anywidget.AnyWidget):
    """A figure the page draws (see the module docstring).

    Traits
    ------
    scene : dict
        ``Scene.header()`` plus ``run`` (changes with every new run or size) and ``pushed``
        (the chunks sent with it).
    below, above : bytes
        The still PNG layers.
    transport : dict
        ``{"updates": [...], "epoch": int, "cycle_start": int or None, "status_suffix": str}``.
    name : str
        The figure's accessible name.
    pointer_mode : str
        One of :data:`POINTER_MODES`.
    lecture : bool
        Larger controls.
    show_transport : bool
        False hides the transport's buttons, slider and status line (e.g. a view with no
        steps to move through; its keys are ``key_actions``).
    step : int
        The settled step (the page writes it; the kernel may set it, and the page shows it).
    playing : bool
        Whether the page is playing (page -> kernel).
    ratio : float
        The page's device pixel ratio (page -> kernel): draw the still layers at it.
    forward_keys : list of str
        Keys the page sends to the kernel (:meth:`on_key`) besides those it handles itself
        (in the dashboard the page bridge forwards the others, e.g. "l").
    controls, key_actions : list, dict
        The transport's buttons (:data:`CONTROLS`) and keys (the timeline's ``KEY_ACTIONS``).
    pointer_colors : dict
        Pointer mode -> the colour of the page's feedback on a click.
    drag_tracks : list of str
        The points tracks whose vertices a drag moves (pointer mode "drag").
    enlarge : bool
        Whether a click on a panel's title, or the key z, asks for that panel large (issue
        33, :meth:`on_enlarge`; the scene's ``enlargeable`` panels): z shows the panel under
        the pointer (or the first, the data plane), z again, Escape or a click on its title
        goes back.
    question : dict
        The question open on the figure, as the page draws it ({}: none; the page's view of a
        :class:`~explorer.app.question_state.QuestionState`, ``page_json``). While it is open
        the page's transport waits.
    ask_keys : list of str
        Keys that ask a question: the page stops Play and sends the step it shows
        (:meth:`on_question`).

    For tests the page keeps ``element.peDisplayList`` (every track of the frame on the canvas:
    its vertices in CSS px, whether drawn, its text), ``element.peStep`` (the step drawn) and
    ``element.peRun`` (the ``run`` of the last scene received) on the widget's element (class
    ``pe-pagefigure``).
    """

    _esm = join(STATIC, ENTRY)
    _css = STATIC / "pagefigure.css"

    scene = T.Dict().tag(sync=True)
    below = T.Bytes(b"").tag(sync=True)
    above = T.Bytes(b"").tag(sync=True)
    transport = T.Dict().tag(sync=True)
    name = T.Unicode("Figure").tag(sync=True)
    pointer_mode = T.Enum(POINTER_MODES, default_value="view").tag(sync=True)
    pointer_colors = T.Dict({"add+": POS, "add-": NEG}).tag(sync=True)
    lecture = T.Bool(False).tag(sync=True)
    show_transport = T.Bool(True).tag(sync=True)
    # set by the page: no echo back (ipywidgets echoes every update it receives; one view has
    # no use for it, and it was one message more for every settled step)
    step = T.Int(0).tag(sync=True, echo_update=False)
    playing = T.Bool(False).tag(sync=True, echo_update=False)
    ratio = T.Float(1.0).tag(sync=True, echo_update=False)
    controls = T.List(default_value=[list(c) for c in CONTROLS]).tag(sync=True)
    words = T.Dict().tag(sync=True)
    key_actions = T.Dict(default_value=dict(KEY_ACTIONS)).tag(sync=True)
    forward_keys = T.List(T.Unicode()).tag(sync=True)
    drag_tracks = T.List(T.Unicode()).tag(sync=True)
    enlarge = T.Bool(True).tag(sync=True)
    question = T.Dict().tag(sync=True)
    ask_keys = T.List(T.Unicode()).tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._relabel()
        labels.on_language(self._relabel)
        self._run: int | None = None
        self._scene: Scene | None = None
        self._chunks: Callable[[int], Chunk | None] | None = None
        self._static_marks: dict = {}  # track -> what its static arrays were when last sent
        self._static_tail: str | None = None  # the narration's tail the page has
        self._pointer: list[Callable[[Pointer], object]] = []
        self._key: list[Callable[[str], object]] = []
        self._view3d: list[Callable[[str, float, float], object]] = []
        self._enlarge: list[Callable[[str], object]] = []
        self._question: list[Callable[[dict], object]] = []
        self.on_msg(self._on_msg)

    def _relabel(self) -> None:
        """The page's own words and the transport's in the current language (again at each
        change of it: the page writes them again, the run and the step stay)."""
        self.words = page_words()
        self.controls = controls()

    # ------------------------------------------------------------------ kernel -> page
    def show_scene(self, scene: Scene, *, run: int, chunks: Callable[[int], Chunk | None],
                   transport: dict | None = None, step: int = 0, first: int = 2,
                   static: Chunk | None = None, keep_step: bool = False) -> None:
        """Show a new run (or the same run at a new size): ``run`` must differ from the last.

        ``chunks(i)`` returns the :class:`Chunk` of steps ``scene.chunk_range(i)``, or None if
        it is not computed yet (then call :meth:`send_chunk` when it is, on the kernel's thread,
        e.g. with ``loop.call_soon_threadsafe``). The ``first`` chunks
        around ``step`` go with the scene; the page asks for the others as it needs them.
        ``static``: the arrays of the static tracks (:meth:`send_static`), sent first.
        ``keep_step``: the same run drawn again (a new size, more words): the page stays at the
        step it shows, which may be ahead of ``step`` (the kernel hears it when it settles).
        """
        if not isinstance(scene, Scene):
            raise TypeError(f"scene must be an explorer.plots.scene.Scene; got {type(scene)}")
        if not _is_int(run):
            raise TypeError(f"run must be an int; got {run!r}")
        if run == self._run:
            raise ValueError(f"run must change with every scene (the page keeps the chunks of "
                             f"run {run}); got {run} again")
        if not callable(chunks):
            raise TypeError(f"chunks must be a function of the chunk index; got {chunks!r}")
        panels = {p.name for p in scene.panels} | {FIGURE}
        for t in scene.tracks:
            if t.panel not in panels:
                raise ValueError(f"track {t.name!r} is in panel {t.panel!r}; panels: "
                                 f"{sorted(panels)}")
            if t.name.strip().isdigit():  # the page's JSON objects would reorder such keys
                raise ValueError(f"track names must not be numbers; got {t.name!r}")
        names = [t.name for t in scene.tracks]
        if len(set(names)) != len(names):
            raise ValueError(f"track names must be unique; got {names}")
        transport = _transport(transport, scene.n_steps)
        k = int(min(max(int(step), 0), scene.n_steps))
        last = scene.n_steps // scene.chunk
        c = k // scene.chunk
        order = [c] + [i for d in range(1, last + 1) for i in (c + d, c - d) if 0 <= i <= last]
        pushed = order[:max(int(first), 0)]
        self._run, self._scene, self._chunks = run, scene, chunks
        self._static_marks = {}
        self._static_tail = None
        with self.hold_sync():
            self.scene = scene.header() | {"run": run, "pushed": pushed, "keep": bool(keep_step)}
            self.below = bytes(scene.below)
            self.above = bytes(scene.above)
            self.transport = transport
            if not keep_step:  # a new run stops Play; the same run drawn again plays on
                self.playing = False
            self.step = k
        if static is not None:
            self.send_static(static)
        for i in pushed:
            self.send_chunk(i)

    def send_chunk(self, index: int) -> bool:
        """Send chunk ``index`` of the run shown; False if it is not there (or not computed)."""
        scene = self._scene
        if scene is None or self._chunks is None or not 0 <= index <= scene.n_steps // scene.chunk:
            return False
        chunk = self._chunks(index)
        if chunk is None:
            return False
        steps = scene.chunk_range(index)
        if (chunk.start, chunk.count) != (steps.start, len(steps)):
            raise ValueError(f"chunk {index} must hold steps {steps.start}..{steps.stop - 1}; got "
                             f"{chunk.start}..{chunk.start + chunk.count - 1}")
        content, buffers = chunk.message(run=self._run, index=index)
        self.send(content, buffers)
        return True

    def send_static(self, static: Chunk, *, narration: str | None = None,
                    changed_only: bool = False) -> int:
        """Replace the arrays of the run's static tracks: ``static`` holds one row of each
        (``count == 1``); ``narration`` (if given) stands as the figure's description until
        the next run. With ``changed_only`` only the tracks whose arrays (or texts) differ
        from those last sent in this run go, merged into the page's (nothing is sent when
        none changed and there is no narration nor a new ``static.tail``). Returns how many
        tracks were sent."""
        if self._scene is None:
            raise ValueError("send_static needs a scene: call show_scene first")
        if static.count != 1:
            raise ValueError(f"static arrays must have one row; got {static.count}")
        names = {t.name for t in self._scene.tracks}
        unknown = set(static.arrays) - names
        if unknown:
            raise ValueError(f"static arrays for tracks not in the scene: {sorted(unknown)}")
        marks = {name: _static_mark(fields, static.strings)
                 for name, fields in static.arrays.items()}
        merge = bool(changed_only)
        new_tail = static.tail is not None and static.tail != self._static_tail
        if merge:
            keep = [n for n in static.arrays if self._static_marks.get(n) != marks[n]]
            if not keep and narration is None and not new_tail:
                return 0
            static = replace(static, arrays={n: static.arrays[n] for n in keep})
            self._static_marks.update(marks)
        else:
            self._static_marks = marks
        if static.tail is not None:
            self._static_tail = static.tail
        content, buffers = static.message(run=self._run, index=0)
        content["type"] = "static"
        if merge:
            content["merge"] = True
        if narration is not None:
            content["narration"] = str(narration)
        self.send(content, buffers)
        return len(static.arrays)

    def go(self, step: int) -> None:
        """Show ``step`` (clamped to the run) in the page now, even if the trait holds it
        already (the page may be showing another step that has not settled yet)."""
        n = self._scene.n_steps if self._scene is not None else 0
        k = int(min(max(int(step), 0), n))
        self.step = k
        self.send({"type": "go", "step": k})

    def ask_here(self) -> None:
        """Have the page ask a question at the step it shows (it stops Play first): the
        page answers with an "ask" message (:meth:`on_question`)."""
        self.send({"type": "ask"})

    def pointer_done(self) -> None:
        """Clear the page's feedback of clicks and let go of a drag (e.g. when it was refused)."""
        self.send({"type": "pointer_done"})

    # ------------------------------------------------------------------ page -> kernel
    def on_pointer(self, callback: Callable[[Pointer], object]) -> None:
        """Call ``callback(Pointer)`` for every click inside a panel (not in "view" mode)."""
        self._pointer.append(callback)

    def on_key(self, callback: Callable[[str], object]) -> None:
        """Call ``callback(key)`` for the keys of ``forward_keys`` pressed on the page."""
        self._key.append(callback)

    def on_question(self, callback: Callable[[dict], object]) -> None:
        """Call ``callback(content)`` for the page's question messages (types of
        :data:`explorer.app.question_state.MESSAGES`, unchecked: the callback reads them)."""
        self._question.append(callback)

    def on_view3d(self, callback: Callable[[str, float, float], object]) -> None:
        """Call ``callback(panel, azim, elev)`` when a drag has turned a panel's 3-D view."""
        self._view3d.append(callback)

    def on_enlarge(self, callback: Callable[[str], object]) -> None:
        """Call ``callback(panel)`` when the page asks for ``panel`` large ("" : back); the
        name is the page's word, checked by the callback."""
        self._enlarge.append(callback)

    def _on_msg(self, _widget, content, _buffers) -> None:
        """Messages from the page; anything malformed or stale is ignored."""
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        if kind == "chunk":
            run, index = content.get("run"), content.get("index")
            if _is_int(run) and run == self._run and _is_int(index):
                self.send_chunk(index)
        elif kind == "pointer":
            pointer = self._read_pointer(content)
            if pointer is not None:
                for callback in self._pointer:
                    callback(pointer)
        elif kind == "view3d":
            panel, azim, elev = (content.get(k) for k in ("panel", "azim", "elev"))
            names = {p.name for p in self._scene.panels} if self._scene is not None else set()
            if panel in names and _is_real(azim) and _is_real(elev):
                for callback in self._view3d:
                    callback(panel, float(azim), max(-90.0, min(90.0, float(elev))))
        elif kind == "enlarge":
            panel = content.get("panel")
            if isinstance(panel, str) and len(panel) <= 100:
                for callback in self._enlarge:
                    callback(panel)
        elif kind in QUESTION_MESSAGES:
            for callback in self._question:
                callback(content)
        elif kind == "key":
            key = content.get("key")
            if isinstance(key, str) and key in self.forward_keys:
                for callback in self._key:
                    callback(key)

    def _read_pointer(self, content: dict) -> Pointer | None:
        scene = self._scene
        panel, x, y, mode = (content.get(k) for k in ("panel", "x", "y", "mode"))
        phase = content.get("phase", "click")
        if scene is None or mode not in POINTER_MODES[1:] or not (_is_real(x) and _is_real(y)):
            return None
        if not isinstance(panel, str) or panel not in {p.name for p in scene.panels}:
            return None
        if phase not in PHASES or (phase == "click") == (mode == "drag"):
            return None
        return Pointer(panel, float(x), float(y), mode, phase)

