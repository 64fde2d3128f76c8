"""The data plane: points by class, the current hyperplane, its normal, the step's update."""

from __future__ import annotations

import numpy as np
from matplotlib.patches import FancyArrowPatch, Polygon

from ..geometry import clip_line, half_plane_polygon
from ..replay import StepFrame
from . import style as S

_EMPTY = np.zeros((0, 2))


def data_box(X, *, pad: float = 0.15):
    """Axes limits ``(xmin, xmax, ymin, ymax)`` around the points and the origin, padded."""
    X = np.asarray(X, dtype=float)[:, :2]
    lo = np.minimum(X.min(axis=0), 0.0)
    hi = np.maximum(X.max(axis=0), 0.0)
    span = np.maximum(hi - lo, 1e-9)
    side = max(span.max(), 1.0)
    center = (lo + hi) / 2
    half = side / 2 * (1 + 2 * pad)
    return (center[0] - half, center[0] + half, center[1] - half, center[1] + half)


class DataPlane:
    """Draws a 2-D dataset and the classifier of one step.

    Artists are made once in ``__init__``; :meth:`set_data` places the points (when the data
    change) and :meth:`show` moves the rest for a :class:`~explorer.replay.StepFrame`.
    """

    def __init__(self, ax, *, title: str = "Data plane"):
        self.ax = ax
        S.style_axes(ax, title=title, xlabel="x₁", ylabel="x₂")
        ax.set_aspect("equal", adjustable="box")
        self.shade_pos = Polygon([[0, 0]], closed=True,
                                 facecolor=S.POS_SHADE, alpha=S.SHADE_ALPHA, edgecolor="none",
                                 zorder=0.5)
        self.shade_neg = Polygon([[0, 0]], closed=True, facecolor=S.NEG_SHADE,
                                 alpha=S.SHADE_ALPHA, edgecolor="none", zorder=0.5)
        ax.add_patch(self.shade_pos)
        ax.add_patch(self.shade_neg)
        self.pos = ax.scatter([], [], s=S.POINT_SIZE, marker=S.POS_MARKER, c=S.POS,
                              edgecolors="white", linewidths=0.8, zorder=3, label="class +1")
        self.neg = ax.scatter([], [], s=S.POINT_SIZE, marker=S.NEG_MARKER, c=S.NEG,
                              edgecolors="white", linewidths=0.8, zorder=3, label="class −1")
        (self.ghost,) = ax.plot([], [], color=S.GHOST, lw=1.6, ls="--", zorder=2,
                                label="previous boundary")
        (self.line,) = ax.plot([], [], color=S.LINE, lw=2.8, zorder=4, label="boundary f(x) = 0")
        (self.band_hi,) = ax.plot([], [], color=S.LINE, lw=1.2, ls=":", zorder=2)
        (self.band_lo,) = ax.plot([], [], color=S.LINE, lw=1.2, ls=":", zorder=2)
        self.normal = FancyArrowPatch((0, 0), (0, 0), arrowstyle="-|>", mutation_scale=22,
                                      color=S.LINE, lw=2.2, zorder=5)
        self.update = FancyArrowPatch((0, 0), (0, 0), arrowstyle="-|>", mutation_scale=22,
                                      color=S.UPDATE, lw=2.6, zorder=6)
        ax.add_patch(self.normal)
        ax.add_patch(self.update)
        self.picked = ax.scatter([], [], s=S.POINT_SIZE * 4.5, facecolors="none",
                                 edgecolors=S.PICKED, linewidths=2.4, zorder=5)
        self.labels = []
        self.normal_text = ax.text(0, 0, "", fontsize=S.TEXT_SIZE, fontweight="bold", zorder=6)
        self.update_text = ax.text(0, 0, "", fontsize=S.TEXT_SIZE, color=S.UPDATE,
                                   fontweight="bold", zorder=6)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=2, fontsize=S.TICK_SIZE,
                  frameon=False)
        self.box = (-1.0, 1.0, -1.0, 1.0)
        self.X = _EMPTY

    # ------------------------------------------------------------------ data
    def set_data(self, X, y, *, box=None, numbers: bool | None = None) -> None:
        """Place the points; number them (1-based, as in the narration) when there are few."""
        X = np.asarray(X, dtype=float)[:, :2]
        y = np.asarray(y, dtype=float)
        self.X = X
        self.pos.set_offsets(X[y > 0] if len(X) else _EMPTY)
        self.neg.set_offsets(X[y < 0] if len(X) else _EMPTY)
        self.box = data_box(X) if box is None else box
        xmin, xmax, ymin, ymax = self.box
        self.ax.set_xlim(xmin, xmax)
        self.ax.set_ylim(ymin, ymax)
        for t in self.labels:
            t.remove()
        self.labels = []
        if numbers is None:
            numbers = len(X) <= 30
        if numbers:
            off = 0.025 * (xmax - xmin)
            self.labels = [self.ax.text(px + off, py + off, str(i + 1), fontsize=S.TICK_SIZE,
                                        color="#333333", zorder=4)
                           for i, (px, py) in enumerate(X)]

    def dynamic_artists(self) -> list:
        """Artists that change from step to step (drawn over a cached background)."""
        return [self.shade_pos, self.shade_neg, self.pos, self.neg, *self.labels, self.ghost,
                self.band_hi, self.band_lo, self.line, self.normal, self.normal_text, self.picked,
                self.update, self.update_text]

    # ------------------------------------------------------------------ step
    def show(self, f: StepFrame, *, band: float | None = None) -> None:
        """Draw the classifier of frame ``f``; ``band`` draws ``f(x) = ±band`` (margin rules)."""
        w, b = f.w[:2], f.b
        self._set_line(self.line, w, b)
        if f.k > 0 and (not np.array_equal(f.w_prev, f.w) or f.b_prev != f.b):
            self._set_line(self.ghost, f.w_prev[:2], f.b_prev)
        else:
            self.ghost.set_data([], [])
        if band:
            self._set_line(self.band_hi, w, b, level=band)
            self._set_line(self.band_lo, w, b, level=-band)
        else:
            self.band_hi.set_data([], [])
            self.band_lo.set_data([], [])
        if np.any(w):
            self.shade_pos.set_xy(_closed(half_plane_polygon(w, b, self.box, sign=1)))
            self.shade_neg.set_xy(_closed(half_plane_polygon(w, b, self.box, sign=-1)))
        else:  # f(x) = b everywhere: the whole plane gets one label (+1 when b >= 0)
            xmin, xmax, ymin, ymax = self.box
            full = [[xmin, ymin], [xmax, ymin], [xmax, ymax], [xmin, ymax]]
            (self.shade_pos if b >= 0 else self.shade_neg).set_xy(full)
            (self.shade_neg if b >= 0 else self.shade_pos).set_xy([[0, 0]])
        self._set_normal(w, b)
        if f.picked:
            pts = self.X[list(f.picked)]
            self.picked.set_offsets(pts)
            self.picked.set_edgecolors(
                [S.TRIGGER if i in f.triggered else S.PICKED for i in f.picked])
            self.picked.set_linewidths([3.6 if i in f.triggered else 2.4 for i in f.picked])
        else:
            self.picked.set_offsets(_EMPTY)
        if f.updated and f.update_vector is not None and np.any(f.update_vector[:2]):
            u = f.update_vector[:2]
            self.update.set_positions((0.0, 0.0), tuple(u))
            self.update.set_visible(True)
            self.update_text.set_position(tuple(u * 1.04))
            self.update_text.set_text("η·y·x")
            self.update_text.set_visible(True)
        else:
            self.update.set_visible(False)
            self.update_text.set_visible(False)

    def _set_line(self, artist, w, b, *, level: float = 0.0) -> None:
        seg = clip_line(w, b, self.box, level=level) if np.any(w) else None
        if seg is None:
            artist.set_data([], [])
        else:
            artist.set_data(seg[:, 0], seg[:, 1])

    def _set_normal(self, w, b) -> None:
        norm = float(np.linalg.norm(w))
        if norm == 0:
            self.normal.set_visible(False)
            self.normal_text.set_visible(False)
            return
        # anchor: the boundary point nearest the centre of the view, arrow of fixed length
        xmin, xmax, ymin, ymax = self.box
        c = np.array([(xmin + xmax) / 2, (ymin + ymax) / 2])
        u = w / norm
        anchor = c - (c @ w + b) / norm * u
        length = 0.16 * (xmax - xmin)
        tip = anchor + length * u
        inside = xmin <= anchor[0] <= xmax and ymin <= anchor[1] <= ymax
        self.normal.set_visible(inside)
        self.normal.set_positions(tuple(anchor), tuple(tip))
        self.normal_text.set_visible(inside)
        self.normal_text.set_position(tuple(tip + 0.03 * (xmax - xmin) * u))
        self.normal_text.set_text("w")


def _closed(poly):
    poly = np.asarray(poly, dtype=float)
    return poly if len(poly) >= 3 else np.zeros((1, 2))
