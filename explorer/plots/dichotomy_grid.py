"""Small point sets and their dichotomies, drawn for the Cover tab.

* :class:`PointSetPlane`: the ``N`` points of a small set in the plane, numbered (a person
  places them by clicking), with the lines through any three that are collinear.
* :class:`TileGrid`: a page of dichotomies as a grid of small tiles in one axes: each tile shows
  the points with their labels (+1 blue circles, -1 vermillion squares), the maximum-margin
  separating line of a separable dichotomy, and a grey hatched background with a cross for one
  that is not separable (Sayed Fig. 60.12 draws the same 16 tiles for four points).
* :class:`BooleanCounts`: ``log2`` of the number of Boolean functions of ``M`` inputs, of the
  linearly separable ones (counted here or from Muroga 1971), and of the bound ``2^(M^2)``
  (Sayed (60.85)), which fails at ``M = 1``.
"""

from __future__ import annotations

import itertools

import numpy as np
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.patches import Rectangle
from matplotlib.ticker import FuncFormatter

from ..shared.geometry import clip_line
from ..shared.i18n import N_, tr
from . import style as S
from .placement import place_labels
from .tracks import figure_renderer

__all__ = ["BooleanCounts", "PointSetPlane", "TileGrid", "PLANE_BOX", "tile_parts", "tile_cell"]

PLANE_BOX = (-1.15, 1.15, -1.15, 1.15)
BAD_FACE = to_rgba("#7F7F7F", 0.22)
_PAD = 0.08  # free border of a tile, as a share of its side


def collinear_triples(X, *, tol: float = 1e-9) -> list[tuple[int, int, int]]:
    """Index triples of points that lie on one line (|cross product| below ``tol``·scale)."""
    X = np.asarray(X, dtype=float)
    out = []
    scale = max(1.0, float(np.abs(X).max())) ** 2 if len(X) else 1.0
    for i, j, k in itertools.combinations(range(len(X)), 3):
        a, b = X[j] - X[i], X[k] - X[i]
        if abs(a[0] * b[1] - a[1] * b[0]) <= tol * scale:
            out.append((i, j, k))
    return out


class PointSetPlane:
    """The small point set: numbered points, lines through collinear triples."""

    def __init__(self, ax):
        self.ax = ax
        S.style_axes(ax, title=tr("Points (click to place)"), xlabel="x₁", ylabel="x₂")
        ax.set_aspect("equal", adjustable="box")
        ax.set_anchor("N")
        ax.set_xlim(*PLANE_BOX[:2])
        ax.set_ylim(*PLANE_BOX[2:])
        self.lines = LineCollection([], colors=S.TRIGGER, linewidths=2.0, linestyles="--",
                                    zorder=2)
        ax.add_collection(self.lines)
        self.points = ax.scatter([], [], s=S.POINT_SIZE * 3.2, marker="o", c="white",
                                 edgecolors=S.LINE, linewidths=1.6, zorder=3)
        self.numbers = []
        self.X = np.zeros((0, 2))
        self.segments = []

    def set_data(self, X) -> list:
        """Draw the points; returns the collinear triples found (their lines are drawn)."""
        X = np.asarray(X, dtype=float).reshape(-1, 2)
        self.X = X
        self.ax.set_title(tr("Points (click to place)"), fontsize=S.TITLE_SIZE, loc="left")
        self.points.set_offsets(X)
        for t in self.numbers:
            t.remove()
        self.numbers = [self.ax.text(x, y, str(i + 1), ha="center", va="center",
                                     fontsize=S.TICK_SIZE, zorder=4)
                        for i, (x, y) in enumerate(X)]
        self.place_numbers()
        triples = collinear_triples(X)
        segs = []
        for tri in triples:
            P = X[list(tri)]
            d = P[np.argmax(np.linalg.norm(P - P[0], axis=1))] - P[0]
            if np.linalg.norm(d) == 0:
                continue
            w = np.array([-d[1], d[0]])
            seg = clip_line(w, -float(w @ P[0]), PLANE_BOX)
            if seg is not None:
                segs.append(seg)
        self.lines.set_segments(segs)
        self.segments = segs
        return triples


    def place_numbers(self) -> None:
        """Each point's number on it, or beside it where another number or point is in the
        way (:func:`~explorer.plots.placement.place_labels`): no two numbers overlap as drawn
        at the figure's size now (call again after a resize)."""
        if not self.numbers:
            return
        ax, fig = self.ax, self.ax.figure
        ax.apply_aspect()
        radius = np.sqrt(self.points.get_sizes().max()) / 2 * fig.dpi / 72
        place_labels(self.numbers, ax.transData.transform(self.X), radius=radius,
                     renderer=figure_renderer(fig), inside=ax.get_window_extent(),
                     to_data=ax.transData.inverted().transform)

    def number_parts(self) -> list:
        """Each number's place as drawn: ``{"xy", "text", "ha", "va"}`` (data coordinates)."""
        return [{"xy": np.asarray(t.get_position(), dtype=float), "text": t.get_text(),
                 "ha": t.get_ha(), "va": t.get_va()} for t in self.numbers]


def grid_shape(n: int, ax) -> tuple[int, int]:
    """Columns and rows that give ``n`` square tiles the largest side in ``ax``'s box."""
    pos = ax.get_position()
    fig = ax.figure
    W, H = pos.width * fig.bbox.width, pos.height * fig.bbox.height
    best = max(range(1, max(n, 1) + 1),
               key=lambda c: (min(W / c, H / int(np.ceil(n / c))), -c))
    return best, max(1, int(np.ceil(n / best)))


def tile_cell(k: int, ncols: int) -> tuple[float, float]:
    """The lower-left corner of tile ``k`` (column ``k % ncols``, row ``k // ncols``, top row
    first) in a tile grid's data coordinates (tiles are 1 × 1, the top edge at y = 0)."""
    return float(k % ncols), float(-(k // ncols) - 1)


def tile_parts(X, labelings, separable, ids, *, ncols: int, w=None, b=None, box=PLANE_BOX,
               names=None) -> dict:
    """Where a page of tiles draws its parts, in the grid's data coordinates.

    Returns a dict: ``frames`` and ``bad`` (lists of (4, 2) squares: every tile, the
    non-separable ones), ``pos``, ``neg`` (ndarray (n, 2): the points labelled +1 and -1,
    placed in their tiles), ``seps`` (list of (2, 2) segments: each separable tile's line
    ``w·x + b = 0`` clipped to ``box``), ``crosses`` (ndarray (n, 2)), ``label_xy``
    (ndarray (len(ids), 2), the caption's top centre) and ``labels`` (its text), and
    ``bad_k``, ``sep_k`` (per tile: the square or segment, None when there is none).
    Arguments as :meth:`TileGrid.set_data`.
    """
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    ids = np.asarray(ids, dtype=int)
    n = len(ids)
    x0, x1, y0, y1 = box
    inner = 1 - 2 * _PAD
    cap = 0.16 if n <= 36 else 0.2  # room for the caption at the top of the tile
    scale = np.array([inner / (x1 - x0), (inner - cap) / (y1 - y0)])

    def place(P, k):
        cx, cy = tile_cell(k, ncols)
        return (np.asarray(P) - [x0, y0]) * scale + [cx + _PAD, cy + _PAD]

    pos, neg, segs, bad, frames, crosses, label_xy, labels = [], [], [], [], [], [], [], []
    bad_k, sep_k = [], []
    for k, j in enumerate(ids):
        cx, cy = tile_cell(k, ncols)
        square = [(cx + 0.03, cy + 0.03), (cx + 0.97, cy + 0.03), (cx + 0.97, cy + 0.97),
                  (cx + 0.03, cy + 0.97)]
        frames.append(square)
        lab = np.asarray(labelings[j])
        P = place(X, k)
        pos.append(P[lab > 0])
        neg.append(P[lab < 0])
        seg = None
        if not separable[j]:
            bad.append(square)
            crosses.append((cx + 0.85, cy + 0.15))
        elif w is not None and not np.isnan(b[k]):
            seg = clip_line(w[k], b[k], box)
            if seg is not None:
                seg = place(seg, k)
                segs.append(seg)
        bad_k.append(None if separable[j] else np.array(square))
        sep_k.append(seg)
        labels.append(names[j] if names is not None else f"#{j}")
        label_xy.append((cx + 0.5, cy + 0.95))
    return {"frames": frames, "bad": bad, "seps": segs, "crosses":
            np.array(crosses, dtype=float).reshape(-1, 2),
            "pos": np.vstack(pos) if pos else np.zeros((0, 2)),
            "neg": np.vstack(neg) if neg else np.zeros((0, 2)),
            "label_xy": np.array(label_xy, dtype=float).reshape(-1, 2), "labels": labels,
            "bad_k": bad_k, "sep_k": sep_k}


class TileGrid:
    """A page of dichotomies (or Boolean functions) as tiles in one axes.

    Tile ``k`` of the page sits in column ``k % ncols``, row ``k // ncols`` (top row first); a
    point ``x`` of ``box`` is mapped into its cell. :meth:`tile_at` turns a click into ``k``.
    """

    def __init__(self, ax):
        self.ax = ax
        S.style_axes(ax, title=tr("Dichotomies"))
        ax.grid(False)
        ax.set_anchor("NW")
        ax.set_xticks([])
        ax.set_yticks([])
        for side in ("left", "bottom"):
            ax.spines[side].set_visible(False)
        self.bad = PolyCollection([], facecolors=BAD_FACE, edgecolors=to_rgba("#7F7F7F", 0.5), hatch="//",
                                  zorder=0.5)
        self.frames = PolyCollection([], facecolors="none", edgecolors="#BBBBBB", linewidths=0.8,
                                     zorder=0.6)
        ax.add_collection(self.frames)
        ax.add_collection(self.bad)
        self.seps = LineCollection([], colors=S.LINE, linewidths=1.8, zorder=2)
        ax.add_collection(self.seps)
        self.pos = ax.scatter([], [], s=22, marker=S.POS_MARKER, c=S.POS, zorder=3,
                              edgecolors="white", linewidths=0.4)
        self.neg = ax.scatter([], [], s=22, marker=S.NEG_MARKER, c=S.NEG, zorder=3,
                              edgecolors="white", linewidths=0.4)
        self.crosses = ax.scatter([], [], s=120, marker="x", c=S.NEG, linewidths=2.2, zorder=3.5)
        self.selected = Rectangle((0, 0), 1, 1, fill=False, edgecolor=S.BOUND, linewidth=3.0,
                                  zorder=5, visible=False)
        ax.add_patch(self.selected)
        self.labels = []
        self.ncols = self.nrows = 1
        self.count = 0
        self.ids = np.zeros(0, dtype=int)
        self.marked = ()
        self.chosen = None  # the tile outlined
        self.parts = None  # the last tile_parts drawn
        self._args = None  # the last set_data's arguments (relayout)

    def _cell(self, k: int):
        return tile_cell(k, self.ncols)  # lower-left corner

    def set_data(self, X, labelings, separable, ids, *, w=None, b=None, box=PLANE_BOX,
                 names=None, title: str = "", marked=()) -> None:
        """Draw tiles for the dichotomies ``ids`` (at most 64).

        Parameters
        ----------
        X : ndarray of shape (N, 2)
        labelings : ndarray of shape (2^N, N)
        separable : ndarray of shape (2^N,), bool
        ids : sequence of int
            Which dichotomies this page shows, in order.
        w, b : ndarray of shape (len(ids), 2) and (len(ids),), optional
            The line drawn in each tile (NaN: none).
        names : sequence of str, optional
            Tile captions (default ``"#j"``); captions of ``marked`` ids are drawn bold.
        """
        self._args = ((X, labelings, separable, ids),
                      {"w": w, "b": b, "box": box, "names": names, "title": title,
                       "marked": marked})
        X = np.asarray(X, dtype=float).reshape(-1, 2)
        ids = np.asarray(ids, dtype=int)
        n = len(ids)
        self.marked = tuple(int(j) for j in marked)
        self.ids = ids
        self.count = n
        ax = self.ax
        self.ncols, self.nrows = grid_shape(n, ax)
        ax.set_title(title, fontsize=S.TITLE_SIZE, loc="left")
        ax.set_xlim(0, self.ncols)
        ax.set_ylim(-self.nrows, 0)
        ax.set_aspect("equal", adjustable="box")
        for t in self.labels:
            t.remove()
        size = S.TICK_SIZE - (1 if n <= 16 else 3 if n <= 36 else 4)
        parts = tile_parts(X, labelings, separable, ids, ncols=self.ncols, w=w, b=b, box=box,
                           names=names)
        self.parts = parts
        self.labels = [ax.text(x, y, text, ha="center", va="top", fontsize=size, zorder=4,
                               fontweight="bold" if j in marked else "normal")
                       for (x, y), text, j in zip(parts["label_xy"], parts["labels"], ids,
                                                  strict=True)]
        pos, neg = parts["pos"], parts["neg"]
        segs, bad, frames, crosses = (parts["seps"], parts["bad"], parts["frames"],
                                      parts["crosses"])
        self.pos.set_offsets(pos)
        self.neg.set_offsets(neg)
        marker = 55 if n <= 16 else 24 if n <= 36 else 12
        self.pos.set_sizes([marker])
        self.neg.set_sizes([marker])
        self.seps.set_segments(segs)
        self.bad.set_verts(bad)
        self.frames.set_verts(frames)
        self.crosses.set_offsets(np.array(crosses).reshape(-1, 2))
        self.crosses.set_sizes([120 if n <= 16 else 60])
        self.select(None)

    def relayout(self) -> None:
        """Lay the last tiles out again for the axes' present box (after a resize), keeping
        the tile chosen."""
        if self._args is None:
            return
        k = self.chosen
        args, kwargs = self._args
        self.set_data(*args, **kwargs)
        self.select(k)

    def select(self, k: int | None) -> None:
        """Outline tile ``k`` of the page (None: none)."""
        if k is None or not 0 <= k < self.count:
            self.selected.set_visible(False)
            self.chosen = None
            return
        self.chosen = int(k)
        cx, cy = self._cell(k)
        self.selected.set_bounds(cx + 0.02, cy + 0.02, 0.96, 0.96)
        self.selected.set_visible(True)

    def tile_at(self, x: float, y: float) -> int | None:
        """The page position ``k`` of the tile under data point ``(x, y)``, or None."""
        if x is None or y is None or not (0 <= x < self.ncols and -self.nrows <= y < 0):
            return None
        k = int(np.floor(-y)) * self.ncols + int(np.floor(x))
        return k if k < self.count else None


#: The Boolean counts' legend: all functions, the bound, counted, quoted.
COUNT_WORDS = (N_("all functions 2^(2^M)"), N_("bound 2^(M²) (60.85)"),
               N_("separable, counted here"), N_("separable, Muroga (1971)"))


class BooleanCounts:
    """``log2`` of the counts of Sayed's Table 60.3 against ``M``, and the bound (60.85)."""

    def __init__(self, ax):
        self.ax = ax
        S.style_axes(ax, title=tr("Boolean functions of M inputs"), xlabel="M",
                     ylabel=tr("log₂ of the count (log scale)"))
        ax.set_yscale("log", base=2)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _p=None: f"{v:g}"))
        (self.total,) = ax.plot([], [], color=S.GHOST, lw=2.0, ls=":", marker="^", ms=7,
                                label=tr(COUNT_WORDS[0]))
        (self.bound,) = ax.plot([], [], color=S.BOUND, lw=2.2, ls="--", marker="D", ms=6,
                                label=tr(COUNT_WORDS[1]))
        (self.counted,) = ax.plot([], [], color=S.POS, lw=0, marker="o", ms=9,
                                  label=tr(COUNT_WORDS[2]))
        (self.muroga,) = ax.plot([], [], color=S.POS, lw=0, marker="o", ms=9, mfc="white",
                                 mew=2.0, label=tr(COUNT_WORDS[3]))
        (self.join,) = ax.plot([], [], color=S.POS, lw=1.5, zorder=1)
        self.note = ax.annotate("", (1, 2), xytext=(2.2, 1.2), fontsize=S.TICK_SIZE,
                                arrowprops=dict(arrowstyle="->", color=S.LINE))
        self.legend = ax.legend(handles=[self.total, self.bound, self.counted, self.muroga],
                                loc="upper left", fontsize=S.TICK_SIZE - 1, frameon=True,
                                framealpha=0.9, edgecolor="none")

    def set_data(self, rows) -> None:
        self.ax.set_title(tr("Boolean functions of M inputs"), fontsize=S.TITLE_SIZE, loc="left")
        self.ax.set_ylabel(tr("log₂ of the count (log scale)"))  # in the language shown now
        for text, words in zip(self.legend.get_texts(), COUNT_WORDS, strict=True):
            text.set_text(tr(words))
        M = np.array([r.M for r in rows])
        lg = np.array([np.log2(float(r.separable)) for r in rows])
        counted = np.array([r.counted for r in rows])
        self.total.set_data(M, 2.0 ** M)
        self.bound.set_data(M, M.astype(float) ** 2)
        self.counted.set_data(M[counted], lg[counted])
        self.muroga.set_data(M[~counted], lg[~counted])
        self.join.set_data(M, lg)
        self.ax.set_xlim(0.6, M.max() + 0.4)
        self.ax.set_ylim(0.7, 2.0 ** M.max() * 1.6)
        self.ax.set_xticks(M)
        fails = [r for r in rows if not r.bound_holds]
        if fails:
            r = fails[0]
            self.note.xy = (r.M, np.log2(float(r.separable)))
            self.note.set_text(tr("M = {M}: {count} > 2^{M2} = {bound}:\nthe bound fails").format(
                M=r.M, count=r.separable, M2=r.M * r.M, bound=r.bound))
            self.note.set_position((r.M + 0.5, 0.9))
        else:
            self.note.set_text("")

