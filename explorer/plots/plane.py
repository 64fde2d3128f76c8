"""The data plane: points by class, the current hyperplane, its normal, the step's update.

Beside the current iterate it draws the pocket or averaged classifier (rules that report one),
the two classes' convex hulls and a point in both when the data are not separable, and in
"you choose" mode the points that still fail the test. Helpers live in :mod:`.overlays`.
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_rgba
from matplotlib.font_manager import FontProperties
from matplotlib.patches import FancyArrowPatch, Polygon
from matplotlib.textpath import TextPath

from ..perceptron.replay import StepFrame
from . import plane_parts
from . import style as S
from .overlays import build_legend, certificate_artists, hull_segments, set_hulls, update_label

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
    change) and :meth:`show` moves the rest for a :class:`~explorer.perceptron.replay.StepFrame`.
    """

    def __init__(self, ax, *, title: str = "Data plane"):
        self.ax = ax
        S.style_axes(ax, title=title, xlabel="x₁", ylabel="x₂")
        ax.set_aspect("equal", adjustable="box")
        ax.set_anchor("N")  # free room below the square for the legend
        # Light colour plus hatching (rising for +1, falling for -1) so the sides read in
        # greyscale; the hatch takes the edge colour, and the edge itself is not stroked.
        # Drawn just above the grid (zorder 0.5), as the blitted frame draws them over it.
        self.shade_pos = Polygon([[0, 0]], closed=True, facecolor=to_rgba(S.POS_SHADE, S.SHADE_ALPHA),
                                 edgecolor=to_rgba(S.POS, S.HATCH_ALPHA), hatch=S.POS_HATCH,
                                 linewidth=0, zorder=0.6)
        self.shade_neg = Polygon([[0, 0]], closed=True, facecolor=to_rgba(S.NEG_SHADE, S.SHADE_ALPHA),
                                 edgecolor=to_rgba(S.NEG, S.HATCH_ALPHA), hatch=S.NEG_HATCH,
                                 linewidth=0, zorder=0.6)
        ax.add_patch(self.shade_pos)
        ax.add_patch(self.shade_neg)
        self.pos = ax.scatter([], [], s=S.POINT_SIZE, marker=S.POS_MARKER, c=S.POS,
                              edgecolors="white", linewidths=0.8, zorder=3)
        self.neg = ax.scatter([], [], s=S.POINT_SIZE, marker=S.NEG_MARKER, c=S.NEG,
                              edgecolors="white", linewidths=0.8, zorder=3)
        (self.ghost,) = ax.plot([], [], color=S.GHOST, lw=1.6, ls="--", zorder=2)
        (self.line,) = ax.plot([], [], color=S.LINE, lw=2.8, zorder=4)
        (self.band_hi,) = ax.plot([], [], color=S.LINE, lw=1.2, ls=":", zorder=2)
        (self.band_lo,) = ax.plot([], [], color=S.LINE, lw=1.2, ls=":", zorder=2)
        (self.kept_line,) = ax.plot([], [], color=S.KEPT, lw=2.6, ls=S.KEPT_STYLE, zorder=4.5)
        self.hull_pos, self.hull_neg, self.cert = certificate_artists(ax)
        self.normal = FancyArrowPatch((0, 0), (0, 0), arrowstyle="-|>", mutation_scale=22,
                                      color=S.LINE, lw=2.2, zorder=5)
        self.update = FancyArrowPatch((0, 0), (0, 0), arrowstyle="-|>", mutation_scale=22,
                                      color=S.UPDATE, lw=2.6, zorder=6)
        ax.add_patch(self.normal)
        ax.add_patch(self.update)
        self.picked = ax.scatter([], [], s=S.POINT_SIZE * 4.5, facecolors="none",
                                 edgecolors=S.PICKED, linewidths=2.4, zorder=5)
        self.failing = ax.scatter([], [], s=S.POINT_SIZE * 8, facecolors="none",
                                  edgecolors=S.TRIGGER, linewidths=2.0, linestyles="--", zorder=5)
        self.labels = []
        self.normal_text = ax.text(0, 0, "", fontsize=S.TEXT_SIZE, fontweight="bold", zorder=6)
        self.update_text = ax.text(0, 0, "", fontsize=S.TEXT_SIZE, color=S.UPDATE,
                                   fontweight="bold", zorder=6)
        for t in (self.normal_text, self.update_text):
            t.set_clip_path(ax.patch)
        self.box = (-1.0, 1.0, -1.0, 1.0)
        self.X = _EMPTY
        self.y = np.zeros(0)
        self.moving = False  # the points move with the step (set_data)
        self.n = 0
        self.hand = False
        self.kept_kind = None
        self.update_label = update_label(False)
        self.band = None
        self.hull_segments = []  # edges of the drawn hulls (the update label avoids them)
        self.spots = _EMPTY  # the points and their numbers
        self.kept_anchor = (np.nan, np.nan)  # the legend's kept text, CSS px (set by a scene)
        self._side_pt = None
        self._widths = {}
        self.legend, self.kept_text = build_legend(self)
        self.legend_layout = None  # (columns, where, shift, dpi) of the legend made

    # ------------------------------------------------------------------ data
    def set_data(self, X, y, *, box=None, numbers: bool | None = None,
                 moving: bool = False) -> None:
        """Place the points; number them (1-based, as in the narration) when there are few.
        ``moving``: the points move with the step (data of more than two features drawn in
        each step's plane, :mod:`explorer.plots.plane_of_w`; ``X`` is where they start, and
        they are not numbered)."""
        X = np.asarray(X, dtype=float)[:, :2]
        y = np.asarray(y, dtype=float)
        self.X, self.y = X, y
        self.n = len(X)
        self.moving = bool(moving)
        numbers = False if moving else numbers
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
                                        color="#333333", zorder=4, clip_on=True)
                           for i, (px, py) in enumerate(X)]
            for t in self.labels:
                t.set_clip_path(self.ax.patch)

    def set_overlays(self, X, y, *, band=None, kept_kind=None, certificate=None,
                     hand: bool = False, batch: bool = False) -> None:
        """Lay out what depends on the run, not the step: the legend's entries, the class
        hulls and their common point (non-separable data), "you choose" rings, and the
        update arrow's label (``batch``: a mini-batch's summed update, Sayed (60.23))."""
        X = np.asarray(X, dtype=float)[:, :2]
        y = np.asarray(y, dtype=float)
        self.hand = bool(hand)
        self.kept_kind = kept_kind
        self.update_label = update_label(batch)
        self.band = band
        set_hulls(self, X, y, certificate)
        self.hull_segments = hull_segments(self)
        if not hand:
            self.failing.set_offsets(_EMPTY)
        self._legend_args = dict(band=band, kept_kind=kept_kind, n=len(X),
                                 certificate=certificate, hand=hand, batch=bool(batch))
        ncol, where, shift = (self.legend_layout or (3, "below", 0.0))[:3]
        self.legend_layout = None  # new entries: made again, where the last one was
        self.set_legend_columns(ncol, where=where, shift=shift)

    def set_legend_columns(self, ncol: int, *, where: str = "below", shift: float = 0.0) -> None:
        """Rebuild the legend in ``ncol`` columns (fewer columns: narrower, more rows),
        ``where`` the plane's figure puts it ("below" the plane, ``shift`` px left of its
        centre, or "beside" it: :func:`explorer.plots.room.hang_legend`)."""
        layout = (ncol, where, shift, self.ax.figure.dpi)
        if self.legend_layout == layout and self.legend is not None:
            return  # made so already, at this size
        self.legend, self.kept_text = build_legend(self, ncol=ncol, where=where, shift=shift,
                                                   **self._legend_args)
        self.legend_layout = layout

    def dynamic_artists(self) -> list:
        """Artists that change from step to step (drawn over a cached background).

        The hulls and their common point change only with the run, but are drawn with the
        moving artists so that the half-plane shading stays below them.
        """
        arts = [self.shade_pos, self.shade_neg, self.hull_pos, self.hull_neg, self.pos,
                self.neg, *self.labels, self.ghost, self.band_hi, self.band_lo, self.line,
                self.kept_line, self.normal, self.normal_text, self.picked, self.failing,
                self.update, self.update_text, self.cert]
        if self.kept_text is not None:
            arts.append(self.legend)  # its pocket/averaged entry counts the errors per step
        return arts

    # ------------------------------------------------------------------ step
    def measure(self) -> None:
        """Note the axes' side in points (the update label's room), once the layout is done."""
        fig = self.ax.figure
        pos = self.ax.get_position()
        self._side_pt = min(pos.width * fig.get_figwidth(), pos.height * fig.get_figheight()) * 72

    def tracks(self, pt: float) -> list:
        """The moving parts as :class:`~explorer.plots.scene.Track` s (``pt``: CSS px per
        point); see :mod:`explorer.plots.plane_parts`."""
        return plane_parts.tracks(self, pt)

    def artists(self) -> dict:
        """Track name -> the artist that draws it."""
        return plane_parts.artists(self)

    def parts(self, f: StepFrame, *, band=None, hand=None, coords=None,
              origin=(0.0, 0.0)) -> dict:
        """The moving parts at frame ``f``, numpy only (:func:`plane_parts.parts`)."""
        return plane_parts.parts(self, f, band=band, hand=hand, coords=coords, origin=origin)

    def show(self, f: StepFrame, *, band: float | None = None, hand: bool | None = None,
             coords=None, origin=(0.0, 0.0)) -> None:
        """Draw the classifier of frame ``f``: its :meth:`parts` applied to the artists.
        ``band`` draws ``f(x) = ±band`` (margin rules) and ``hand`` rings the points still
        failing; both default to the run's, as laid out by :meth:`set_overlays`. ``coords``:
        where the step draws the points and ``origin`` the origin (see
        :func:`plane_parts.parts`)."""
        plane_parts.apply(self, self.parts(f, band=band, hand=hand, coords=coords,
                                           origin=origin))

    def text_half(self, text: str):
        """Half width and height of a label (bold, ``TEXT_SIZE``) as fractions of the span."""
        side_pt = self._side_pt
        if side_pt is None:
            self.measure()
            side_pt = self._side_pt
        if text not in self._widths:  # measured once, in points, without a renderer
            path = TextPath((0, 0), text, size=S.TEXT_SIZE, prop=FontProperties(weight="bold"))
            self._widths[text] = path.get_extents().width
        return self._widths[text] / 2 / max(side_pt, 1.0), S.TEXT_SIZE * 0.6 / max(side_pt, 1.0)
