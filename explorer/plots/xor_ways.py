"""Panels of the XOR figure's "ways out": the hidden layer and the dual weights (the lifted 3-D
view is :mod:`explorer.plots.view3d`), and the drawing helpers they share (a two-colour region
image, a curved boundary as segments, a plane clipped to a box in 3-D).

Artists are created once in each panel's constructor and moved with ``set_data``,
``set_segments`` or ``set_height``.
"""

from __future__ import annotations

import numpy as np
from contourpy import LineType, contour_generator
from matplotlib.colors import to_rgba
from matplotlib.ticker import MaxNLocator

from ..shared.geometry import clip_line
from ..shared.i18n import N_, tr
from . import style as S

__all__ = ["region_rgba", "zero_segments", "plane_in_box", "HiddenPanel",
           "DualBars", "set_line"]

POS_TINT = to_rgba(S.POS, 0.16)
NEG_TINT = to_rgba(S.NEG, 0.10)


def region_rgba(F: np.ndarray) -> np.ndarray:
    """An RGBA image: the class +1 tint where ``F >= 0``, the class -1 tint elsewhere."""
    img = np.empty(F.shape + (4,))
    img[...] = NEG_TINT
    img[F >= 0] = POS_TINT
    return img


def zero_segments(xs, ys, F) -> list:
    """The curve ``F = 0`` on a grid (``F[j, i]`` at ``(xs[i], ys[j])``) as a list of (m, 2)
    arrays, for a LineCollection."""
    if not (np.nanmin(F) < 0 <= np.nanmax(F)):
        return []
    gen = contour_generator(xs, ys, F, line_type=LineType.Separate)
    return [seg for seg in gen.lines(0.0) if len(seg) >= 2]


def set_line(artist, w, b, box) -> None:
    """Put ``<w, x> + b = 0`` clipped to ``box`` into a Line2D (empty when ``w = 0``)."""
    seg = clip_line(np.asarray(w, dtype=float), float(b), box) if np.any(w) else None
    if seg is None:
        artist.set_data([], [])
    else:
        artist.set_data(seg[:, 0], seg[:, 1])


def plane_in_box(w, b, lo, hi) -> np.ndarray:
    """The polygon where ``<w, z> + b = 0`` cuts the box ``lo <= z <= hi`` in 3-D, (m, 3),
    its corners in order around the polygon (empty when the plane misses the box)."""
    w = np.asarray(w, dtype=float)
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    if not np.any(w):
        return np.zeros((0, 3))
    corners = np.array([[(lo, hi)[i][0], (lo, hi)[j][1], (lo, hi)[k][2]]
                        for i in (0, 1) for j in (0, 1) for k in (0, 1)])
    val = corners @ w + b
    pts = []
    for a in range(8):
        for c in range(a + 1, 8):
            if bin(a ^ c).count("1") != 1:
                continue  # not an edge of the cube
            va, vc = val[a], val[c]
            if va == 0:
                pts.append(corners[a])
            if (va < 0 < vc) or (vc < 0 < va):
                pts.append(corners[a] + va / (va - vc) * (corners[c] - corners[a]))
    if len(pts) < 3:
        return np.zeros((0, 3))
    P = np.unique(np.round(np.array(pts), 12), axis=0)
    centre = P.mean(axis=0)
    n = w / np.linalg.norm(w)
    u = np.cross(n, [1.0, 0, 0] if abs(n[0]) < 0.9 else [0, 1.0, 0])
    u /= np.linalg.norm(u)
    v = np.cross(n, u)
    ang = np.arctan2((P - centre) @ v, (P - centre) @ u)
    return P[np.argsort(ang)]


class HiddenPanel:
    """The hidden layer's coordinates ``(h1, h2)`` of the four corners, the output unit's line
    at the step shown, and its half-planes."""

    def __init__(self, ax):
        self.ax = ax
        S.style_axes(ax, title=tr("Hidden layer and the output unit's line"), xlabel="h₁",
                     ylabel="h₂")
        ax.set_aspect("equal", adjustable="box")
        ax.set_anchor("N")
        self.box = (-1.8, 1.8, -1.8, 1.8)
        self.shape = (90, 90)  # the image's rows and columns
        self.image = ax.imshow(np.zeros((2, 2, 4)), extent=self.box, origin="lower",
                               interpolation="bilinear", zorder=0.5)
        # the points over the moving line and tint (the page's upper still layer)
        self.pos = ax.scatter([], [], s=S.POINT_SIZE * 1.4, marker=S.POS_MARKER, c=S.POS,
                              edgecolors="white", zorder=5)
        self.neg = ax.scatter([], [], s=S.POINT_SIZE * 1.4, marker=S.NEG_MARKER, c=S.NEG,
                              edgecolors="white", zorder=5)
        (self.line,) = ax.plot([], [], color=S.LINE, lw=2.6, zorder=4)
        self.labels = []
        ax.set_xlim(self.box[:2])
        ax.set_ylim(self.box[2:])

    def set_data(self, H, y, names) -> None:
        ax = self.ax
        ax.set_title(tr("Hidden layer and the output unit's line"), fontsize=S.TITLE_SIZE,
                     loc="left")  # in the language shown now
        self.pos.set_offsets(H[y > 0] if np.any(y > 0) else np.zeros((0, 2)))
        self.neg.set_offsets(H[y < 0] if np.any(y < 0) else np.zeros((0, 2)))
        ax.set_xlabel(f"h₁ = {names[0]}", fontsize=S.LABEL_SIZE)
        ax.set_ylabel(f"h₂ = {names[1]}", fontsize=S.LABEL_SIZE)
        for t in self.labels:
            t.remove()
        self.labels = []
        groups = {}
        for i, h in enumerate(H):
            groups.setdefault(tuple(h), []).append(str(i + 1))
        for h, idx in groups.items():
            # translators: {numbers} is one point number or several, "1, 3"
            corner = tr("corner {numbers}").format(numbers=", ".join(idx))
            self.labels.append(ax.annotate(corner, h, xytext=(8, 8),
                                           textcoords="offset points", fontsize=S.TICK_SIZE,
                                           color="#333333", zorder=6))

    def grid(self):
        """The image's sample points ``(hx, hy)``, each of shape :attr:`shape`."""
        xs = np.linspace(*self.box[:2], self.shape[1])
        ys = np.linspace(*self.box[2:], self.shape[0])
        return np.meshgrid(xs, ys)

    def show(self, w, b) -> None:
        hx, hy = self.grid()
        self.image.set_data(region_rgba(w[0] * hx + w[1] * hy + b))
        set_line(self.line, w, b, self.box)


#: The kernel perceptron's dual weights' title.
DUAL_TITLE = N_("Dual weights αᵢ: f(x) = Σ αᵢ yᵢ K(xᵢ, x)")


class DualBars:
    """The kernel perceptron's dual weights ``alpha_i`` (updates made on point ``i``), one bar
    per point, hatched by class; ``f(x) = sum alpha_i y_i K(x_i, x)``."""

    def __init__(self, ax):
        self.ax = ax
        S.style_axes(ax, title=tr(DUAL_TITLE), xlabel=tr("point"),
                     ylabel=tr("αᵢ (updates on point i)"))
        self.bars = ax.bar(range(4), np.zeros(4), color=[S.POS] * 4, zorder=3)
        self.values = [ax.text(i, 0, "", ha="center", va="bottom", fontsize=S.TICK_SIZE)
                       for i in range(4)]
        self.top = 1

    def set_data(self, y, top: int) -> None:
        self.ax.set_title(tr(DUAL_TITLE), fontsize=S.TITLE_SIZE, loc="left")  # the language now
        self.ax.set_xlabel(tr("point"))
        self.ax.set_ylabel(tr("αᵢ (updates on point i)"))
        self.ax.set_xticks(range(4), [f"{i + 1} ({'+' if v > 0 else '−'}1)"
                                      for i, v in enumerate(y)])
        for bar, v in zip(self.bars, y, strict=True):
            bar.set_facecolor(to_rgba(S.POS if v > 0 else S.NEG, 0.85))
            bar.set_edgecolor(S.POS if v > 0 else S.NEG)
            bar.set_hatch(S.POS_HATCH if v > 0 else S.NEG_HATCH)
        self.top = max(int(top), 1)
        self.ax.set_ylim(0, self.top * 1.25)
        self.ax.yaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))

    def show(self, alpha) -> None:
        for bar, t, a in zip(self.bars, self.values, alpha, strict=True):
            bar.set_height(float(a))
            t.set_position((bar.get_x() + bar.get_width() / 2, float(a)))
            t.set_text(str(int(a)))
