"""A 3-D view drawn in projection, the same way by matplotlib and by the page.

The XOR tab's lifted view shows points in ``(x1, x2, x1 x2)``. Rather than matplotlib's 3-D
axes (which only the kernel can turn), the view is a plain 2-D axes showing an orthographic
projection (:func:`project`) of the box ``lo <= z <= hi`` scaled to the cube ``[-1, 1]^3``:
the page receives the 3-D vertices (the ``*3d`` track kinds of :mod:`explorer.plots.scene`)
and the view's azimuth and elevation in the panel's ``view3d`` (:class:`Panel3D`), projects
them with the same formula and turns the view as it is dragged, with no kernel round trip;
matplotlib draws the same projection for exports (:class:`Lifted3D`).

Projection (angles in degrees, as matplotlib's ``view_init``): a point ``u`` of the cube goes
to ``x = -sin(a) u1 + cos(a) u2``, ``y = -sin(e) cos(a) u1 - sin(e) sin(a) u2 + cos(e) u3``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np
from matplotlib.colors import to_rgba
from matplotlib.patches import Polygon

from ..shared.i18n import N_, tr
from ..shared.number_format import ROUNDOFF, number_text
from . import style as S
from . import tracks as T
from .scene import Panel, Track
from .xor_ways import plane_in_box

AZIM, ELEV = -60.0, 25.0
#: Half the width of the view in projected units (the cube's corners reach sqrt(3)).
HALF = 2.1
#: The cube's 12 edges, as vertex pairs, and its corners.
CORNERS = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float)
EDGES = [(a, b) for a in range(8) for b in range(a + 1, 8) if bin(a ^ b).count("1") == 1]
#: Where each axis is named and its values written: the edge along it, pushed out of the cube.
AXIS_EDGE = (np.array([0.0, -1.0, -1.0]), np.array([1.0, 0.0, -1.0]), np.array([-1.0, -1.0, 0.0]))
NAME_OUT, TICK_OUT = 1.38, 1.14


def cube_project(u, *, azim: float, elev: float) -> np.ndarray:
    """Cube coordinates ``(..., 3)`` to the view's plane ``(..., 2)`` (NaN stays NaN)."""
    u = np.asarray(u, dtype=float)
    a, e = np.radians(float(azim)), np.radians(float(elev))
    x = -np.sin(a) * u[..., 0] + np.cos(a) * u[..., 1]
    y = (-np.sin(e) * np.cos(a) * u[..., 0] - np.sin(e) * np.sin(a) * u[..., 1]
         + np.cos(e) * u[..., 2])
    return np.stack([x, y], axis=-1)


def to_cube(xyz, lo, hi) -> np.ndarray:
    """Data coordinates in the box ``lo..hi`` to the cube ``[-1, 1]^3``."""
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    return (np.asarray(xyz, dtype=float) - (lo + hi) / 2) / ((hi - lo) / 2)


def project(xyz, *, azim: float, elev: float, lo, hi) -> np.ndarray:
    """Data coordinates ``(..., 3)`` in the box ``lo..hi`` to the view's plane ``(..., 2)``."""
    return cube_project(to_cube(xyz, lo, hi), azim=azim, elev=elev)


def box_lines() -> np.ndarray:
    """The cube's edges as one polyline in cube coordinates, NaN rows between edges."""
    rows = []
    for a, b in EDGES:
        rows += [CORNERS[a], CORNERS[b], [np.nan] * 3]
    return np.array(rows, dtype=float)


#: The lifted view's title.
TITLE = N_("Lifted: (x₁, x₂, x₁·x₂), drag to rotate")


@dataclass(frozen=True)
class Panel3D(Panel):
    """A panel showing a 3-D view: its limits are in projected units; ``view3d`` in the header
    tells the page the angles, the box, and the axes' names and values (cube coordinates)."""

    azim: float = AZIM
    elev: float = ELEV
    lo: tuple = (-1.0, -1.0, -1.0)
    hi: tuple = (1.0, 1.0, 1.0)
    labels: tuple = ()  # ((u1, u2, u3), text, "name" or "tick")
    home: tuple = (AZIM, ELEV)  # the view a "reset view" brings back

    @classmethod
    def of(cls, panel: Panel, **view) -> Panel3D:
        return cls(**{f.name: getattr(panel, f.name) for f in fields(Panel)}, **view)

    def header(self) -> dict:
        return super().header() | {"view3d": {
            "azim": float(self.azim), "elev": float(self.elev),
            "home": [float(v) for v in self.home],
            "lo": [float(v) for v in self.lo], "hi": [float(v) for v in self.hi],
            "labels": [[*(float(c) for c in u), str(text), kind] for u, text, kind in self.labels]}}


class Lifted3D:
    """The four points lifted to ``(x1, x2, x1 x2)``, the stems down to the floor that show the
    height ``x1 x2``, and the perceptron's plane there, in projection on a 2-D axes.

    Parameters
    ----------
    ax : matplotlib Axes
        A plain 2-D axes (its axis is hidden; the box and its labels are drawn instead).
    """

    NAMES = ("x₁", "x₂", "x₁·x₂")

    def __init__(self, ax):
        self.ax = ax
        ax.set_title(tr(TITLE), fontsize=S.TITLE_SIZE, loc="left")
        ax.set_aspect("equal", adjustable="box")
        ax.set_anchor("N")
        ax.set_xlim(-HALF, HALF)
        ax.set_ylim(-HALF, HALF)
        ax.set_xticks([])
        ax.set_yticks([])
        for side in ax.spines.values():
            side.set_visible(False)
        (self.box,) = ax.plot([], [], color="#9A9A9A", lw=0.9, zorder=1)
        (self.stems,) = ax.plot([], [], color="#888888", lw=1.0, ls=":", zorder=1.5)
        self.plane = Polygon(np.zeros((3, 2)), closed=True, facecolor=to_rgba(S.LINE, 0.18),
                             edgecolor=S.LINE, linewidth=1.5, zorder=2)
        ax.add_patch(self.plane)
        self.pos = ax.scatter([], [], s=S.POINT_SIZE * 1.6, marker=S.POS_MARKER, c=S.POS,
                              edgecolors="white", zorder=3, label=tr("class +1"))
        self.neg = ax.scatter([], [], s=S.POINT_SIZE * 1.6, marker=S.NEG_MARKER, c=S.NEG,
                              edgecolors="white", zorder=3, label=tr("class −1"))
        self.texts = []
        self.azim, self.elev = AZIM, ELEV
        self.lo, self.hi = np.full(3, -1.5), np.full(3, 1.5)
        self.Z, self.y = np.zeros((0, 3)), np.zeros(0)
        self.labels = ()
        self.poly = np.zeros((0, 3))

    # ------------------------------------------------------------------ layout
    def set_data(self, Z, y) -> None:
        """Place the lifted points ``Z`` (n, 3), labels ``y``; fix the box around them."""
        self.Z, self.y = np.asarray(Z, dtype=float), np.asarray(y, dtype=float)
        self.ax.set_title(tr(TITLE), fontsize=S.TITLE_SIZE, loc="left")  # the language now
        self.pos.set_label(tr("class +1"))
        self.neg.set_label(tr("class −1"))
        lo, hi = self.Z.min(axis=0), self.Z.max(axis=0)
        pad = 0.25 * np.maximum(hi - lo, 1.0)
        self.lo, self.hi = lo - pad, hi + pad
        labels = []
        for i, edge in enumerate(AXIS_EDGE):
            labels.append((tuple(edge * NAME_OUT), self.NAMES[i], "name"))
            for v in np.unique(self.Z[:, i]):
                u = edge * TICK_OUT
                u[i] = to_cube(np.where(np.arange(3) == i, v, 0.0), self.lo, self.hi)[i]
                labels.append((tuple(u), number_text(v, noise=ROUNDOFF), "tick"))
        self.labels = tuple(labels)
        for t in self.texts:
            t.remove()
        self.texts = [self.ax.text(0, 0, text, ha="center", va="center", zorder=1.2,
                                   fontsize=S.LABEL_SIZE if kind == "name" else S.TICK_SIZE - 1,
                                   color="#222222" if kind == "name" else "#555555")
                      for _, text, kind in self.labels]
        self.set_view(self.azim, self.elev)

    def set_view(self, azim: float, elev: float) -> None:
        """Turn the view (degrees; elevation within -90..90) and move what it shows."""
        self.azim, self.elev = float(azim), float(np.clip(float(elev), -90.0, 90.0))
        parts = self.still_parts()
        T.set_polyline(self.box, parts["box"])
        T.set_polyline(self.stems, parts["stems"])
        for coll, key in ((self.pos, "pos"), (self.neg, "neg")):
            coll.set_offsets(parts[key])
        for t, xy in zip(self.texts, parts["labels"], strict=True):
            t.set_position(tuple(xy))
        self.show_plane(self.poly)

    def project(self, xyz) -> np.ndarray:
        return project(xyz, azim=self.azim, elev=self.elev, lo=self.lo, hi=self.hi)

    def stems3d(self) -> np.ndarray:
        """A stem from each point down to the box's floor, NaN rows between them."""
        rows = []
        for z in self.Z:
            rows += [z, [z[0], z[1], self.lo[2]], [np.nan] * 3]
        return np.array(rows, dtype=float).reshape(-1, 3)

    def still_parts(self) -> dict:
        """What turns with the view but not with the step, in the view's plane."""
        cube = dict(azim=self.azim, elev=self.elev)
        return {"box": cube_project(box_lines(), **cube), "stems": self.project(self.stems3d()),
                "pos": self.project(self.Z[self.y > 0]).reshape(-1, 2),
                "neg": self.project(self.Z[self.y < 0]).reshape(-1, 2),
                "labels": [cube_project(np.array(u), **cube) for u, _, _ in self.labels]}

    # ------------------------------------------------------------------ the page
    def panel(self, panel: Panel) -> Panel3D:
        return Panel3D.of(panel, azim=self.azim, elev=self.elev, lo=tuple(self.lo),
                          hi=tuple(self.hi), labels=self.labels)

    def tracks(self, name: str, pt: float) -> list:
        box = T.line_style(self.box, pt)
        names = [t for t, (_, _, kind) in zip(self.texts, self.labels, strict=True)
                 if kind == "name"]
        ticks = [t for t, (_, _, kind) in zip(self.texts, self.labels, strict=True)
                 if kind == "tick"]
        if names:
            box["font"] = T.text_style(names[0], pt)["font"]
        if ticks:
            box["size"] = T.text_style(ticks[0], pt)["font"]
        return [Track("lift_box", name, "axes3d", z=self.box.get_zorder(), style=box),
                Track("lift_stems", name, "polyline3d", z=self.stems.get_zorder(),
                      style=T.line_style(self.stems, pt), data={"data": self.stems3d()}),
                Track("lift_plane", name, "polygon3d", z=self.plane.get_zorder(),
                      style=T.polygon_style(self.plane, pt)),
                Track("lift_pos", name, "points3d", z=self.pos.get_zorder(),
                      style=T.points_style(self.pos, pt, marker=S.POS_MARKER),
                      data={"data": self.Z[self.y > 0]}),
                Track("lift_neg", name, "points3d", z=self.neg.get_zorder(),
                      style=T.points_style(self.neg, pt, marker=S.NEG_MARKER),
                      data={"data": self.Z[self.y < 0]})]

    def artists(self) -> dict:
        return {"lift_box": self.box, "lift_stems": self.stems, "lift_plane": self.plane,
                "lift_pos": self.pos, "lift_neg": self.neg}

    def moving(self) -> list:
        return [*self.artists().values(), *self.texts]

    def parts(self, w, b) -> dict:
        poly = plane_in_box(w, b, self.lo, self.hi)
        return {"lift_plane": {"xyz": poly if len(poly) >= 3 else np.zeros((0, 3))},
                "lift_box": {}, "lift_stems": {}, "lift_pos": {}, "lift_neg": {}}

    def show_plane(self, poly) -> None:
        """The plane's polygon (3-D vertices; fewer than 3 finite: hidden)."""
        poly = np.asarray(poly, dtype=float).reshape(-1, 3)
        poly = poly[np.isfinite(poly).all(axis=1)]
        self.poly = poly
        T.set_polygon(self.plane, self.project(poly) if len(poly) else np.zeros((0, 2)))

    def show(self, w, b) -> None:
        self.show_plane(self.parts(w, b)["lift_plane"]["xyz"])


__all__ = ["Lifted3D", "Panel3D", "project", "cube_project", "to_cube", "box_lines"]
