"""Weight space: the walk of ``(w1, w2)``, one arrow per update, and the version space.

Without an offset every point ``x_i`` allows the half-plane of weights ``y_i <w, x_i> > 0``;
their intersection, the version space, is a cone (Sayed, Fig. 60.3 shows one constraint). The
classic update adds ``eta y x``, the inward normal of the violated constraint, so the walk
steps towards the cone.
"""

from __future__ import annotations

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.patches import Polygon

from ..geometry import cone_polygon, version_space_cone
from ..replay import StepFrame
from ..trajectory import Trajectory
from . import style as S

MAX_ARROWS = 300  # arrows drawn for the most recent updates; the path shows all of them


class WeightSpace:
    """Draws the path of the first two weights of a run up to the step shown."""

    def __init__(self, ax, *, title: str = "Weight space"):
        self.ax = ax
        S.style_axes(ax, title=title, xlabel="w₁", ylabel="w₂")
        ax.set_aspect("equal", adjustable="box")
        ax.axhline(0, color="#BBBBBB", lw=0.8, zorder=0.5)
        ax.axvline(0, color="#BBBBBB", lw=0.8, zorder=0.5)
        self.cone = Polygon([[0, 0]], closed=True, facecolor=S.UPDATE, alpha=0.18,
                            edgecolor=S.UPDATE, lw=1.2, zorder=0.8, visible=False)
        ax.add_patch(self.cone)
        self.constraints = LineCollection([], colors="#AAAAAA", linewidths=0.8, zorder=0.6)
        ax.add_collection(self.constraints)
        (self.path,) = ax.plot([], [], color=S.LINE, lw=1.2, alpha=0.5, zorder=2)
        self.arrows = None
        self.current = ax.scatter([], [], s=90, c=S.LINE, zorder=5, label="w now")
        self.start = ax.scatter([], [], s=60, marker="D", c=S.GHOST, zorder=4, label="start")
        self.note = ax.text(0.02, 0.02, "", transform=ax.transAxes, fontsize=S.TICK_SIZE,
                            color="#333333", zorder=6,
                            bbox=dict(facecolor="white", alpha=0.8, edgecolor="none", pad=1.5))
        self.W = np.zeros((1, 2))

    def set_run(self, traj: Trajectory, X, y) -> None:
        """Prepare the path and version space of a new run."""
        W = traj.weights[:, :2]
        self.W = W
        self.start.set_offsets(W[:1])
        if self.arrows is not None:
            self.arrows.remove()
        deltas = np.diff(W, axis=0)
        # at most MAX_ARROWS arrows exist; each step moves them to the latest updates (a long
        # run's thousands of arrows would cost a quarter of a second per frame to lay out)
        n = max(min(len(deltas), MAX_ARROWS), 1)
        self.arrows = self.ax.quiver(
            np.full(n, W[0, 0]), np.full(n, W[0, 1]), np.zeros(n), np.zeros(n),
            angles="xy", scale_units="xy", scale=1, color=S.UPDATE, width=0.006, minlength=0,
            zorder=3)
        self.deltas = deltas
        # the walk as its distinct segments, in order of first use, separated by NaN rows: a
        # run that cycles (XOR) retraces a few segments thousands of times, and drawing each
        # pass again cost tens of milliseconds per frame for the same picture
        if len(deltas):
            segs = np.stack([W[:-1], W[1:]], axis=1)
            _, first = np.unique(segs.reshape(len(segs), -1), axis=0, return_index=True)
            new = np.zeros(len(segs), dtype=bool)
            new[first] = True
            ordered = segs[new]
            coords = np.concatenate([ordered, np.full((len(ordered), 1, 2), np.nan)], axis=1)
            self._walk = coords.reshape(-1, 2)
            self._walk_count = np.concatenate([[0], np.cumsum(new)])
        else:
            self._walk, self._walk_count = np.zeros((0, 2)), np.zeros(1, dtype=int)
        # every point of the walk (start, each update, and the decayed states in between,
        # which are shorter) lies inside the square [-lim, lim]^2 with a margin for markers
        lim = max(float(np.abs(W).max()) if W.size else 1.0, 1e-6) * 1.15
        for art in self.dynamic_artists():
            art.set_clip_on(True)
            art.set_clip_path(self.ax.patch)  # kept when drawn alone by draw_artist (blitting)
        fit = traj.params["fit_intercept"]
        X = np.asarray(X, dtype=float)[:, :2]
        if not fit and X.shape[0]:
            cone = version_space_cone(X, y)
            segs = []
            for v in X * np.asarray(y)[:, None]:
                nrm = np.linalg.norm(v)
                if nrm > 0:
                    p = np.array([-v[1], v[0]]) / nrm * lim * 2
                    segs.append([-p, p])
            self.constraints.set_segments(segs)
            if cone is not None:
                self.cone.set_xy(cone_polygon(cone, lim * 3))
                self.cone.set_visible(True)
                self.note.set_text("green: version space,\nw with y·⟨w, x⟩ ≥ 0 for all points")
            else:
                self.cone.set_visible(False)
                self.note.set_text("no version space: no w through\nthe origin separates the data")
        else:
            self.constraints.set_segments([])
            self.cone.set_visible(False)
            self.note.set_text("")
        self.ax.set_xlabel("w₁" + ("   (offset b not shown)" if fit else ""), fontsize=S.LABEL_SIZE)
        self.ax.set_xlim(-lim, lim)
        self.ax.set_ylim(-lim, lim)

    def dynamic_artists(self) -> list:
        return [a for a in (self.path, self.arrows, self.current) if a is not None]

    def show(self, f: StepFrame) -> None:
        """Show the walk up to the updates made by step ``f.k``."""
        u = f.n_updates
        walk = self._walk[: 3 * int(self._walk_count[min(u, len(self._walk_count) - 1)])]
        pts = np.vstack([walk, self.W[u: u + 1], f.w[None, :2]])
        self.path.set_data(pts[:, 0], pts[:, 1])
        self.current.set_offsets(f.w[None, :2])
        if self.arrows is not None and len(self.deltas):
            n = self.arrows.N
            lo = max(0, u - n)
            origins = np.repeat(self.W[:1], n, axis=0)
            uv = np.zeros((n, 2))
            origins[: u - lo] = self.W[lo:u]
            uv[: u - lo] = self.deltas[lo:u]
            self.arrows.set_offsets(origins)
            self.arrows.set_UVC(uv[:, 0], uv[:, 1])
