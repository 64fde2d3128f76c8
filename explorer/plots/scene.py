"""The description of a figure that the page draws: still layers, panels, and moving tracks.

One description of the moving parts, two renderers. A figure that the page draws (the
dashboard's :class:`explorer.app.pagefigure.PageFigure`) is described by

* two **still layers**, PNG images that matplotlib draws once per run and per size: ``below``
  (every still artist under the split in z order: axes, grid, ticks, labels, legends) and
  ``above`` (still artists over the split, e.g. the data points over the half-plane shading);
* its **panels**: each axes' drawn box in CSS pixels and its data limits, so that the page maps
  data coordinates to pixels exactly as matplotlib does (:meth:`Panel.to_px`);
* its **tracks**: the moving parts, each a :class:`Track` (what it is, in which panel, under or
  over the ``above`` layer, its z order and style) with per-step arrays in data coordinates,
  sent in :class:`Chunk` s of steps.

Layers, bottom to top: ``below``, the tracks with ``layer="under"``, ``above``, the tracks with
``layer="over"``; within a layer tracks are drawn by increasing ``z``. NaN coordinates mean "not
drawn at this step". The same per-step arrays drive matplotlib's artists for whole frames
(exports, animations, notebooks), and a test checks that both agree.

Track kinds and their per-step arrays (first axis: the step within the chunk):

=========== ================================================ ===================================
kind        arrays                                           draws
=========== ================================================ ===================================
polyline    ``xy`` (S, V, 2)                                 an open line through the vertices
polygon     ``xy`` (S, V, 2)                                 a closed, filled polygon
arrow       ``xy`` (S, 2, 2)                                 from ``xy[0]`` to a head at ``xy[1]``
points      ``xy`` (S, P, 2), opt. ``c`` (S, P) uint8,       markers; ``c`` indexes style colors,
            opt. ``s`` (S, P)                                ``s`` gives each one's diameter
text        ``xy`` (S, 2), ``t`` (S,) int32, ``ha``, ``va``  one text, ``t`` indexes ``strings``
prefix      static ``data`` (M, 2); ``n`` (S,) int32,        the first ``n`` vertices of ``data``
            opt. ``tail`` (S, 2), opt. ``start`` (S,) int32  then the ``tail`` point (from
                                                             vertex ``start`` on, if given)
vline       ``x`` (S,)                                       a vertical line across the panel
raster      ``bits`` (S, R, ceil(C/8)) uint8; static ``data``  an R x C image of two colours
            ``[[x0, y0], [x1, y1], [C, R]]``                 (bit set: ``colors[1]``), row 0 at
                                                             ``y0``, over the extent, smoothed
points3d    ``xyz`` (S, P, 3) or static ``data`` (P, 3),     markers at projected 3-D points;
            opt. ``s`` (S, P)                                ``s`` gives each one's diameter
polyline3d  ``xyz`` (S, V, 3) or static ``data`` (V, 3)      a projected 3-D line (NaN breaks)
polygon3d   ``xyz`` (S, V, 3)                                a projected, filled 3-D polygon
hull3d      ``xyz`` (S, V, 3)                                the filled convex hull of projected
                                                             3-D points (a convex solid's outline)
arrow3d     ``xyz`` (S, 2, 3)                                a projected 3-D arrow, head at the end
axes3d      none (the panel's ``view3d``)                    a 3-D box, its axes' names, ends
=========== ================================================ ===================================

The 3-D kinds live in a panel with a ``view3d`` (:mod:`explorer.plots.view3d`): the page
projects them with the view's azimuth and elevation, which dragging in the panel turns.

``ha``/``va`` are uint8 codes of :data:`HA` and :data:`VA`. Styles are in CSS pixels (see
:data:`KIND_STYLES`, each kind's keys). The wire format (JSON headers, binary buffers) is
:meth:`Scene.header` and :meth:`Chunk.message`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

_LINE = ("color", "alpha", "width", "dash")
_AREA = (*_LINE, "fill", "fill_alpha", "hatch", "hatch_gap", "hatch_color", "hatch_alpha",
         "hatch_width")
_MARKER = (*_LINE, "fill", "fill_alpha", "size", "marker", "colors")
_HEADED = (*_LINE, "head", "size")
#: The kinds of moving part and the style keys each one draws with (all optional; colours
#: "#RRGGBB", sizes in CSS px; explorer/app/pagefigure.py says what each key means). The page's
#: ``KINDS`` (explorer/app/static/kinds.js: each kind's ``style``) declares the same kinds and
#: keys: tests/test_kinds_agree.py checks, and tests/js/style.test.mjs that each kind paints with
#: exactly its keys.
KIND_STYLES = {
    "polyline": _LINE, "polygon": _AREA, "arrow": _HEADED, "points": _MARKER,
    "text": ("color", "alpha", "size", "font", "weight", "box"), "prefix": _HEADED,
    "vline": _LINE, "raster": ("colors",), "points3d": _MARKER, "polyline3d": _LINE,
    "polygon3d": _AREA, "axes3d": (*_LINE, "font", "size"), "hull3d": _AREA,
    "arrow3d": _HEADED,
}
KINDS = tuple(KIND_STYLES)
LAYERS = ("under", "over")
HA = ("left", "center", "right")
VA = ("top", "center", "bottom", "baseline")
#: Style keys a track may set: those of every kind (a track's keys are checked against these).
STYLE_KEYS = tuple(dict.fromkeys(k for keys in KIND_STYLES.values() for k in keys))
#: Arrays of each kind, with their dtypes (per step, unless the kind says "static").
ARRAYS = {"polyline": {"xy": "float32"}, "polygon": {"xy": "float32"},
          "arrow": {"xy": "float32"}, "points": {"xy": "float32", "c": "uint8", "s": "float32"},
          "text": {"xy": "float32", "t": "int32", "ha": "uint8", "va": "uint8"},
          "prefix": {"n": "int32", "tail": "float32", "start": "int32"}, "vline": {"x": "float32"},
          "raster": {"bits": "uint8"}, "points3d": {"xyz": "float32", "s": "float32"},
          "polyline3d": {"xyz": "float32"}, "polygon3d": {"xyz": "float32"}, "axes3d": {},
          "hull3d": {"xyz": "float32"}, "arrow3d": {"xyz": "float32"}}


@dataclass(frozen=True)
class Panel:
    """An axes as the page sees it: its drawn box in CSS px (top-left origin) and its limits.

    Parameters
    ----------
    name : str
    x, y, w, h : float
        The axes' box (after matplotlib applied its aspect) in CSS px from the figure's top left.
    xlim, ylim : tuple of float
        Data limits (linear axes).
    clip : bool, default True
        Tracks in this panel are clipped to the box.
    legend : tuple of float, optional
        The axes' legend as drawn: ``(x, y, w, h, type_px)``, its box in CSS px from the
        figure's top left and its smallest type in CSS px; empty when it has none. The page
        does not draw from it (the legend is in a still layer); it says what the reader sees
        (``pePanels`` on the page, for tests).
    title : tuple of float, optional
        The axes' title as drawn: ``(x, y, w, h)`` in CSS px from the figure's top left; empty
        when it has none. A click on it shows the panel large (:mod:`explorer.plots.enlarge`).
    heading : str, optional
        The title's words (its left and centre titles), as the still layer draws them: what the
        reader sees (``pePanels`` on the page, for tests; e.g. "3 features, in the plane of w").
    """

    name: str
    x: float
    y: float
    w: float
    h: float
    xlim: tuple[float, float]
    ylim: tuple[float, float]
    clip: bool = True
    legend: tuple = ()
    title: tuple = ()
    heading: str = ""

    def to_px(self, xy) -> np.ndarray:
        """Data coordinates ``(..., 2)`` to CSS px from the figure's top left (NaN stays NaN)."""
        xy = np.asarray(xy, dtype=float)
        (x0, x1), (y0, y1) = self.xlim, self.ylim
        px = self.x + (xy[..., 0] - x0) / (x1 - x0) * self.w
        py = self.y + self.h - (xy[..., 1] - y0) / (y1 - y0) * self.h
        return np.stack([px, py], axis=-1)

    def to_data(self, px: float, py: float) -> tuple[float, float]:
        """CSS px from the figure's top left to data coordinates (pointer input)."""
        (x0, x1), (y0, y1) = self.xlim, self.ylim
        return (x0 + (px - self.x) / self.w * (x1 - x0),
                y0 + (self.y + self.h - py) / self.h * (y1 - y0))

    def header(self) -> dict:
        out = {"name": self.name, "x": float(self.x), "y": float(self.y), "w": float(self.w),
               "h": float(self.h), "xlim": [float(v) for v in self.xlim],
               "ylim": [float(v) for v in self.ylim], "clip": bool(self.clip)}
        if self.legend:
            out["legend"] = [round(float(v), 2) for v in self.legend]
        if self.title:
            out["title"] = [round(float(v), 2) for v in self.title]
        if self.heading:
            out["heading"] = self.heading
        return out


#: The pseudo-panel whose coordinates are CSS px already (legend texts, notes).
FIGURE = "figure"


@dataclass(frozen=True)
class Track:
    """One moving part (see the module docstring for the kinds and their arrays).

    ``data`` holds static arrays (a ``prefix`` track's polyline), sent once with the scene.
    """

    name: str
    panel: str
    kind: str
    layer: str = "over"
    z: float = 0.0
    style: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"track kind must be one of {KINDS}; got {self.kind!r}")
        if self.layer not in LAYERS:
            raise ValueError(f"track layer must be one of {LAYERS}; got {self.layer!r}")
        unknown = set(self.style) - set(STYLE_KEYS)
        if unknown:
            raise ValueError(f"unknown style keys {sorted(unknown)} for track {self.name!r}; "
                             f"expected some of {STYLE_KEYS}")

    def header(self) -> dict:
        out = {"name": self.name, "panel": self.panel, "kind": self.kind, "layer": self.layer,
               "z": float(self.z), "style": dict(self.style)}
        if "data" in self.data:  # NaN (a gap) as null: Jupyter's messages refuse NaN
            data = np.asarray(self.data["data"], dtype=float).round(6)
            out["data"] = [[None if v != v else v for v in row] for row in data.tolist()]
        return out


@dataclass(frozen=True)
class Scene:
    """Everything the page needs to draw a run, but the per-step arrays.

    Parameters
    ----------
    width, height : int
        The figure's size in CSS px.
    ratio : float
        Device pixels per CSS px of the still layers.
    panels : tuple of Panel
    tracks : tuple of Track
    below, above : bytes
        PNG still layers (``above`` may be empty: nothing still over the moving parts).
    n_steps : int
        The run's last step (steps are ``0..n_steps``).
    chunk : int
        Steps per :class:`Chunk`.
    enlarged : str
        The panel shown large over the whole figure, the others left out ("" : none).
    enlargeable : tuple of str
        The panels a click on their title (or a key) may show large
        (:mod:`explorer.plots.enlarge`); the enlarged one while one is.
    """

    width: int
    height: int
    ratio: float
    panels: tuple
    tracks: tuple
    below: bytes
    above: bytes
    n_steps: int
    chunk: int = 256
    enlarged: str = ""
    enlargeable: tuple = ()

    def panel(self, name: str) -> Panel:
        for p in self.panels:
            if p.name == name:
                return p
        raise KeyError(f"no panel {name!r}; panels: {[p.name for p in self.panels]}")

    def header(self) -> dict:
        """The JSON part of the scene (the still layers travel as bytes beside it)."""
        return {"width": int(self.width), "height": int(self.height), "ratio": float(self.ratio),
                "panels": [p.header() for p in self.panels],
                "tracks": [t.header() for t in self.tracks],
                "n_steps": int(self.n_steps), "chunk": int(self.chunk),
                "enlarged": str(self.enlarged), "enlargeable": [str(n) for n in self.enlargeable]}

    def chunk_range(self, index: int) -> range:
        """The steps of chunk ``index``."""
        start = int(index) * self.chunk
        if not 0 <= start <= self.n_steps:
            raise ValueError(f"chunk index must be in 0..{self.n_steps // self.chunk}; "
                             f"got {index}")
        return range(start, min(start + self.chunk, self.n_steps + 1))


@dataclass(frozen=True)
class Chunk:
    """Per-step arrays of every track for steps ``start .. start + count - 1``.

    Parameters
    ----------
    start, count : int
    arrays : dict
        ``{track name: {array name: ndarray}}``, each array's first axis of length ``count``.
    strings : tuple of str
        The texts that ``text`` tracks index.
    narration, status : tuple of str
        Per step: the narration (the figure's description) and the status line.
    tail : str, optional
        Of a static chunk (the arrays of static tracks, one row): words the page adds after
        every step's narration until the next scene or static chunk with a ``tail`` (e.g. the
        summary of a simulation that grows while the steps' narrations stay). None: as it was.
    """

    start: int
    count: int
    arrays: dict
    strings: tuple = ()
    narration: tuple = ()
    status: tuple = ()
    tail: str | None = None

    def message(self, *, run: int, index: int) -> tuple[dict, list]:
        """The custom message the page receives: its JSON content and its binary buffers
        (one per array, in the order of ``content["arrays"]``)."""
        spec, buffers = {}, []
        for track, fields in self.arrays.items():
            spec[track] = {}
            for name, values in fields.items():
                dtype = ARRAYS_DTYPE.get(name, "float32")
                arr = np.ascontiguousarray(values, dtype=dtype)
                if arr.shape[:1] != (self.count,):
                    raise ValueError(f"array {track}.{name} must have {self.count} rows (one a "
                                     f"step); got shape {arr.shape}")
                spec[track][name] = [dtype, list(arr.shape)]
                buffers.append(arr.tobytes())
        content = {"type": "chunk", "run": int(run), "index": int(index),
                   "start": int(self.start), "count": int(self.count), "arrays": spec,
                   "strings": list(self.strings), "narration": list(self.narration),
                   "status": list(self.status)}
        if self.tail is not None:
            content["tail"] = str(self.tail)
        return content, buffers


#: Array name -> wire dtype (one per name across kinds).
ARRAYS_DTYPE = {name: dtype for fields in ARRAYS.values() for name, dtype in fields.items()}
