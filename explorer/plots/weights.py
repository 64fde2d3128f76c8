"""Weight space: the walk of ``(w1, w2)``, one arrow per update, and the version space.

Without an offset every point ``x_i`` allows the half-plane of weights ``y_i <w, x_i> > 0``;
their intersection, the version space, is a cone (Sayed, Fig. 60.3 shows one constraint). The
classic update adds ``eta y x``, the inward normal of the violated constraint, so the walk
steps towards the cone. With an offset the version space lives in ``(w1, w2, b)``; the panel
shows its slice at the current ``b`` (a convex polygon, which moves as ``b`` changes), or says
that no ``w`` separates the data at this ``b``.

The axes are a square ``[-lim, lim]^2`` with a round ``lim`` (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6
or 8 times a power of ten) holding the whole walk and at least one update's length
``eta max ||x_i||``, so a run still at ``w = 0`` shows the scale of its first step.
"""

from __future__ import annotations

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.patches import Polygon

from ..perceptron.replay import StepFrame
from ..perceptron.trajectory import Trajectory
from ..shared.geometry import cone_polygon, slice_exists, version_space_cone, version_space_slice
from ..shared.i18n import N_, tr
from ..shared.number_format import number_text
from . import style as S
from .placement import CORNERS, free_corner
from .scene import Track
from .tracks import NAN_SEG as T_NAN_SEG
from .tracks import (
    figure_renderer,
    hex_alpha,
    hidden_text,
    line_style,
    points_style,
    polygon_style,
    set_polygon,
    text_style,
)

PANEL = "weights"

MAX_ARROWS = 300  # arrows drawn for the most recent updates; the path shows all of them
#: Mantissas of the axes' half-width (times a power of ten).
ROUND_LIMITS = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)
SLICE_NOTE = N_("green: version space at the current b:\nevery point has y·(⟨w, x⟩ + b) > 0")
EMPTY_NOTE = N_("no (w, b) separates the data:\nthe version space is empty")
CONE_NOTE = N_("green: version space:\nevery point has y·⟨w, x⟩ > 0")
NO_CONE_NOTE = N_("no version space: no line through\nthe origin separates the data")
#: Each note's short form, for a panel too narrow for the whole note at readable type (a large
#: type scale in a narrow column: lecture mode on a wide screen).
SHORT_NOTES = {SLICE_NOTE: N_("green: version\nspace at this b"),
               EMPTY_NOTE: N_("no (w, b)\nseparates\nthe data"),
               CONE_NOTE: N_("green: version\nspace"), NO_CONE_NOTE: N_("no version\nspace")}


def many_weights_note(M: int, *, fit: bool) -> tuple[str, str]:
    """The panel's note for data of ``M > 2`` features, and its short form: what the walk
    shows, and why the version space is not drawn."""
    long = (tr("the walk of w₁, w₂ of {m} weights;\nthe version space has {d} dimensions (w, b)")
            if fit else tr("the walk of w₁, w₂ of {m} weights;\nthe version space has {d} "
                           "dimensions"))
    return (long.format(m=M, d=M + 1 if fit else M),
            tr("w₁, w₂ of\n{m} weights").format(m=M))


def round_limit(x: float) -> float:
    """The smallest value of :data:`ROUND_LIMITS` times a power of ten that is ``>= x``
    (``x > 0`` finite; anything else gives 1)."""
    if not (np.isfinite(x) and x > 0):
        return 1.0
    power = 10.0 ** np.floor(np.log10(x))
    for m in ROUND_LIMITS:
        if m * power >= x * (1 - 1e-12):
            return float(m * power)
    return float(10 * power)  # pragma: no cover - log10 rounding


def weight_limit(traj: Trajectory, X) -> float:
    """Half-width of the weight-space axes: a round number above 1.15 times the largest
    ``|w_j|`` of the run and above one update's length ``eta max ||x_i||`` (1 when both are 0)."""
    W = traj.weights[:, :2]
    walk = float(np.abs(W).max()) if W.size else 0.0
    X = np.asarray(X, dtype=float)
    step = float(traj.params.get("eta", 1.0)) * (float(np.sqrt(np.einsum("ij,ij->i", X, X).max()))
                                                  if X.size else 0.0)
    return round_limit(1.15 * max(walk, step))


def _walk_polyline(W):
    """The walk ``W`` (rows: the weights after each update) as its distinct segments in order
    of first use, joined where one starts at the end of the one before: returns the vertices
    (NaN rows between pieces), the distinct segments after each update ``u`` (``count[u]``),
    and the vertices that draw the first ``c`` distinct segments (``end[c]``)."""
    W = np.asarray(W, dtype=float).reshape(-1, 2)
    if len(W) < 2:
        return np.zeros((0, 2)), np.zeros(1, dtype=int), np.zeros(1, dtype=int)
    segs = np.stack([W[:-1], W[1:]], axis=1)
    _, first = np.unique(segs.reshape(len(segs), -1), axis=0, return_index=True)
    new = np.zeros(len(segs), dtype=bool)
    new[first] = True
    ordered = segs[new]
    joined = np.zeros(len(ordered), dtype=bool)
    joined[1:] = np.all(ordered[1:, 0] == ordered[:-1, 1], axis=1)
    ends = np.cumsum(np.where(joined, 1, 3) - np.r_[1, np.zeros(len(ordered) - 1, int)])
    data = np.full((int(ends[-1]), 2), np.nan)
    data[ends - 1] = ordered[:, 1]
    data[ends[~joined] - 2] = ordered[~joined, 0]
    return (data, np.concatenate([[0], np.cumsum(new)]),
            np.concatenate([[0], ends]).astype(int))


class WeightSpace:
    """Draws the path of the first two weights of a run up to the step shown."""

    def __init__(self, ax, *, title: str = N_("Weight space")):
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
        # static, so under everything that moves (a blitted frame draws those over it, and a
        # full draw must give the same picture)
        self._note = ""  # the note's whole text (a narrow panel shows its short form)
        self.note = ax.text(0.02, 0.02, "", transform=ax.transAxes, fontsize=S.TICK_SIZE,
                            color="#333333", zorder=0.7,
                            bbox=dict(facecolor="white", alpha=0.8, edgecolor="none", pad=1.5))
        # with an offset: the slice of the version space at the current b (moves with b), and
        # why there is none at this b (shown only then: text costs milliseconds per frame)
        self.slice = Polygon([[0, 0]], closed=True, facecolor=S.UPDATE, alpha=0.18,
                             edgecolor=S.UPDATE, lw=1.2, zorder=0.8, visible=False)
        ax.add_patch(self.slice)
        self.slice_note = ax.text(0.02, 0.98, "", transform=ax.transAxes, fontsize=S.TICK_SIZE,
                                  color="#333333", zorder=6, va="top", visible=False,
                                  bbox=dict(facecolor="white", alpha=0.8, edgecolor="none",
                                            pad=1.5))
        self.W = np.zeros((1, 2))
        self._slices = None  # b -> (polygon, why none) for the run shown; None: no slices
        self._limits = None
        self._walk, self._walk_count, self._walk_end = _walk_polyline(self.W)
        self._slice_args = None
        self._slice_corner = CORNERS[3]  # where the note on the slice at this b goes

    def set_run(self, traj: Trajectory, X, y, *, separable: bool | None = None) -> None:
        """Prepare the path and version space of a new run.

        With an offset (or a fixed ``b0 != 0``) the version space is shown as its slice at the
        current ``b``; ``separable`` says why a slice missing from the view is missing: False
        when no ``(w, b)`` separates the data (every slice is empty), None while that is not
        known (no linear program is solved then), True to decide it (:func:`slice_exists`).
        """
        W = traj.weights[:, :2]
        self.W = W
        self.start.set_offsets(W[:1])
        if self.arrows is not None:
            self.arrows.remove()
        # the walk as its distinct segments, in order of first use: a run that cycles (XOR)
        # retraces a few segments thousands of times, and drawing each pass again cost tens of
        # milliseconds per frame for the same picture. One polyline: a segment that starts
        # where the one before it ended continues it, any other starts after a NaN row.
        self._walk, self._walk_count, self._walk_end = _walk_polyline(W)
        # one arrow on each of the latest MAX_ARROWS distinct segments (a long run's thousands
        # of arrows would cost a quarter of a second per frame to lay out)
        n = max(min(len(self._walk_end) - 1, MAX_ARROWS), 1)
        self.arrows = self.ax.quiver(
            np.full(n, W[0, 0]), np.full(n, W[0, 1]), np.zeros(n), np.zeros(n),
            angles="xy", scale_units="xy", scale=1, color=S.UPDATE, width=0.006, minlength=0,
            zorder=3)
        # every point of the walk (start, each update, and the decayed states in between,
        # which are shorter) lies inside the square [-lim, lim]^2 with a margin for markers
        lim = weight_limit(traj, X)
        for art in self.dynamic_artists():
            art.set_clip_on(True)
            art.set_clip_path(self.ax.patch)  # kept when drawn alone by draw_artist (blitting)
        fit = traj.params["fit_intercept"]
        short = None  # the note's short form, when not in SHORT_NOTES
        M = np.asarray(X, dtype=float).shape[1]
        plane = M == 2  # the version space is drawn in 2-D
        X = np.asarray(X, dtype=float)[:, :2]
        b0 = float(traj.params.get("b0", 0.0))
        self._slices = None
        self.slice.set_visible(False)
        self.slice_note.set_visible(False)
        if (fit or b0 != 0) and X.shape[0] and plane:
            # the slice at the current b (at b0 for ever without an offset), drawn by show()
            self._slices, self._exists = {}, {}
            self._slice_args = (X, np.asarray(y, dtype=float), (-lim, lim, -lim, lim), separable)
            self.constraints.set_segments([])
            self.cone.set_visible(False)
            self._note = EMPTY_NOTE if separable is False else SLICE_NOTE
        elif not plane:
            self.constraints.set_segments([])
            self.cone.set_visible(False)
            self._note, short = many_weights_note(M, fit=fit or b0 != 0)
        elif not fit and X.shape[0]:
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
                self._note = CONE_NOTE
            else:
                self.cone.set_visible(False)
                self._note = NO_CONE_NOTE
        else:
            self.constraints.set_segments([])
            self.cone.set_visible(False)
            self._note = ""
        self.ax.set_xlabel(tr("w₁   (slice at the current b)") if fit and plane else "w₁",
                           fontsize=S.LABEL_SIZE)
        self.ax.set_xlim(-lim, lim)
        self.ax.set_ylim(-lim, lim)
        self._limits = (-lim, lim)
        self._say(self._note, short=short)
        if self._note:
            self._place_note(traj)

    def _say(self, text: str, *, short: str | None = None) -> None:
        """Show ``text`` as the panel's note, inside the axes: its type shrinks to fit (to 85 %,
        and never under READABLE_PX when it was over it), and past that the note's short form
        is shown."""
        self._note = text
        note, ax = self.note, self.ax
        note.set_fontsize(S.TICK_SIZE)
        text, short = tr(text) if text else text, tr(short) if short else short
        note.set_text(text)
        if not text:
            return
        fig = ax.figure
        renderer = figure_renderer(fig)
        ax.apply_aspect()
        room = 0.96 * ax.get_window_extent(renderer).width
        floor = max(0.85, S.readable_share(S.TICK_SIZE, fig.dpi))  # of the full size
        for words in (text, short or tr(SHORT_NOTES.get(self._note, self._note))):
            note.set_text(words)
            note.set_fontsize(S.TICK_SIZE)
            wide = note.get_window_extent(renderer).width
            if wide <= room / floor:  # fits at the floor or above
                break
        size = S.TICK_SIZE
        for _ in range(4):  # rendered widths are not proportional to the type: measure again
            if wide <= room:
                break
            size *= room / wide * 0.995  # (under the floor: no room)
            note.set_fontsize(size)
            wide = note.get_window_extent(renderer).width

    def _place_note(self, traj: Trajectory) -> None:
        """Put the note in the corner the run leaves freest (:func:`free_corner`): the fewest
        pieces of the walk under it, with room for the markers of w and of the start, then the
        least of the green area (the cone, or the slices at the first and the last b). The
        note on the slice at this b (when there is none to show) takes the next freest."""
        ax, fig = self.ax, self.ax.figure
        to_px = ax.transData.transform
        walk = to_px(self._walk) if len(self._walk) else np.zeros((0, 2))
        W = to_px(self.W)
        ends = [np.vstack([walk[:-1], W]), np.vstack([walk[1:], W])]
        if traj.decay != 1.0 and traj.n_updates:  # w shrinks towards 0 between updates
            steps = np.r_[traj.update_steps, traj.n_steps]
            gaps = np.diff(np.r_[0, steps])[1:]
            ends[0] = np.vstack([ends[0], W[:len(gaps)]])
            ends[1] = np.vstack([ends[1], to_px(self.W[:len(gaps)] * traj.decay ** gaps[:, None])])
        if self._slices is not None:
            shaded = [self._slice_at(float(b))[0] for b in (traj.biases[0], traj.biases[-1])]
        else:
            shaded = [self.cone.get_xy()] if self.cone.get_visible() else []
        marker = max(self.current.get_sizes().max(), self.start.get_sizes().max())
        ranked = free_corner(self.note, figure_renderer(fig), segments=ends,
                             pad=np.sqrt(marker) / 2 * fig.dpi / 72 + 1,
                             shaded=[to_px(s) for s in shaded if len(s) >= 3])
        self._slice_corner = x, y, ha, va = ranked[1]  # the note on the slice at this b
        self.slice_note.set_position((x, y))
        self.slice_note.set_ha(ha)
        self.slice_note.set_va(va)

    def dynamic_artists(self) -> list:
        return [a for a in (self.slice, self.slice_note, self.path, self.arrows, self.current)
                if a is not None]

    def _exists_for(self, sign: float) -> bool:
        """:func:`slice_exists` for every ``b`` of this sign (the slices of a cone are scaled
        copies of each other), once per run and sign."""
        if sign not in self._exists:
            X, y, _, _ = self._slice_args
            self._exists[sign] = slice_exists(X, y, float(sign))
        return self._exists[sign]

    def _slice_at(self, b: float):
        """``(polygon, why)``: the version space's slice at ``b`` inside the view and, when it
        has none there, why ("" when the static note already says it); cached per run and b."""
        if b not in self._slices:
            X, y, box, separable = self._slice_args
            poly = version_space_slice(X, y, b, box)
            shown = number_text(b)
            if len(poly) or separable is False:
                note = ""
            elif separable is None:
                note = tr("no w in this view separates\nthe data at b = {b}").format(b=shown)
            elif self._exists_for(np.sign(b)):
                note = tr("the version space at b = {b}\nlies outside this view").format(b=shown)
            else:
                note = tr("no w separates the data\nat this b = {b}").format(b=shown)
            if len(self._slices) > 4096:
                self._slices.clear()
            self._slices[b] = (poly, note)
        return self._slices[b]

    # ------------------------------------------------------------------ step
    def tracks(self, pt: float) -> list:
        """The moving parts as :class:`~explorer.plots.scene.Track` s (``pt``: CSS px per
        point): the version space's slice and its note, the walk (a prefix of its distinct
        segments, then the decay since the last update), its arrows, and the current point."""
        panel = self.ax.get_position()
        shaft = float(self.arrows.width * panel.width * self.ax.figure.get_figwidth() * 72)  # pt
        arrows = {"color": hex_alpha(S.UPDATE)[0], "alpha": 1.0, "width": round(shaft * pt, 3),
                  "head": round(self.arrows.headlength * shaft * pt, 3),
                  "size": round(self.arrows.headwidth * shaft * pt, 3)}
        return [
            Track("slice", PANEL, "polygon", z=self.slice.get_zorder(),
                  style=polygon_style(self.slice, pt)),
            Track("slice_note", PANEL, "text", z=self.slice_note.get_zorder(),
                  style=text_style(self.slice_note, pt)),
            Track("walk", PANEL, "prefix", z=self.path.get_zorder(),
                  style=line_style(self.path, pt), data={"data": self._walk}),
            Track("walk_decay", PANEL, "polyline", z=self.path.get_zorder(),
                  style=line_style(self.path, pt)),
            Track("arrows", PANEL, "prefix", z=self.arrows.get_zorder(), style=arrows,
                  data={"data": self._walk}),
            Track("current", PANEL, "points", z=self.current.get_zorder(),
                  style=points_style(self.current, pt)),
        ]

    def artists(self) -> dict:
        """Track name -> the artist that draws it (the path draws the walk and its decay)."""
        return {"slice": self.slice, "slice_note": self.slice_note, "walk": self.path,
                "walk_decay": self.path, "arrows": self.arrows, "current": self.current}

    def parts(self, f: StepFrame) -> dict:
        """The moving parts at frame ``f`` (numpy only): the walk up to the updates made by
        step ``f.k``, the arrows of its latest :data:`MAX_ARROWS` distinct segments."""
        u = int(f.n_updates)
        c = int(self._walk_count[min(u, len(self._walk_count) - 1)])
        n = int(self._walk_end[c])
        first = max(0, c - self.arrows.N)  # the first segment that keeps its arrow
        w = np.asarray(f.w, dtype=float)[:2]
        last = self.W[min(u, len(self.W) - 1)]
        out = {"walk": {"n": n},
               "walk_decay": {"xy": T_NAN_SEG.copy() if np.array_equal(last, w)
                              else np.array([last, w])},
               "arrows": {"n": n, "start": int(self._walk_end[first + 1]) - 2 if c else 0},
               "current": {"xy": w[None, :]}}
        poly, why = (np.zeros((0, 2)), "")
        if self._slices is not None:
            poly, why = self._slice_at(float(f.b))
        out["slice"] = {"xy": poly if len(poly) >= 3 else np.zeros((0, 2))}
        lim = self.ax.get_xlim() if self._limits is None else self._limits
        x, y, ha, va = self._slice_corner
        at = lim[0] + np.array([x, y]) * (lim[1] - lim[0])
        out["slice_note"] = ({"xy": at, "text": why, "ha": ha, "va": va} if why
                             else hidden_text(ha, va))
        return out

    def show(self, f: StepFrame) -> None:
        """Show the walk up to the updates made by step ``f.k``: :meth:`parts` applied."""
        p = self.parts(f)
        walk = self._walk[: p["walk"]["n"]]
        decay = p["walk_decay"]["xy"]
        pts = np.vstack([walk, decay]) if np.isfinite(decay).all() else walk
        self.path.set_data(pts[:, 0], pts[:, 1])
        self.current.set_offsets(p["current"]["xy"])
        set_polygon(self.slice, p["slice"]["xy"])
        self.slice_note.set_text(p["slice_note"]["text"])  # in axes coordinates: not moved
        self.slice_note.set_visible(bool(np.isfinite(p["slice_note"]["xy"]).all()))
        pts = self._walk[p["arrows"]["start"]: p["arrows"]["n"]]
        ok = np.isfinite(pts[:-1]).all(axis=1) & np.isfinite(pts[1:]).all(axis=1)
        tails, heads = pts[:-1][ok], pts[1:][ok]  # each segment of the prefix is an arrow
        n = self.arrows.N
        origins = np.repeat(self.W[:1], n, axis=0)
        uv = np.zeros((n, 2))
        origins[: len(tails)] = tails
        uv[: len(tails)] = heads - tails
        self.arrows.set_offsets(origins)
        self.arrows.set_UVC(uv[:, 0], uv[:, 1])
