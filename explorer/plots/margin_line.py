"""The margin line: every point at its signed distance ``y f(x) / ||w||`` from the boundary, on one
axis (``docs/mathematics.md#exact-views``), the Perceptron tab's side panel for data of more than
two features, in the weight space's place.

Weight space has ``M + 1`` dimensions (``M`` without an offset) and cannot be drawn honestly for
``M > 2``; the panel says so. The margin line is exact in any dimension and is what the
convergence proof is about: the boundary is at 0, a point right of it is classified correctly,
a point at or left of it is one the perceptron updates on (the shaded, hatched side), and the
leftmost value is the run's margin ``m(w, b) = min_i y_i f(x_i) / ||w||`` at the step shown (a
dashed line). When the data are separable, the hard-margin SVM's ``gamma(S)``, the largest
margin any separator has, is a band from 0: the run's margin never passes it.

The points move at each update and stay between updates (a decaying rule moves them at every
step); across the axis they are spread by index (a fixed low-discrepancy sequence), so that the
same point keeps its height and hundreds of points stay readable. Step ``k``'s numbers are
:func:`explorer.shared.exact_views.margin_line` of ``(w_k, b_k)``; at ``w = 0`` there is no
boundary and the panel says so.
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_rgba

from ..perceptron.replay import StepFrame
from ..perceptron.trajectory import Trajectory
from ..shared.exact_views import margin_line
from ..shared.number_format import number_text
from . import style as S
from . import tracks as T
from .plane_parts import RINGS, set_rings
from .scene import Track
from .tracks import figure_renderer

PANEL = "margin"
TITLE = "Margin line (exact)"
XLABEL = "y·f(x)/‖w‖: the proof's margin"
#: Where the points are spread across the axis (axes fraction) when the panel's words leave the
#: room (:meth:`MarginLinePanel.set_run` measures them): the note (and gamma(S)) at the top,
#: the margin now's label under it, the sides' names at the bottom.
SPREAD = (0.12, 0.66)
NOTE_Y, LABELS_Y, SIDES_Y = 0.985, 0.755, 0.015
#: Gap (axes fraction) between a row of words and the points.
GAP = 0.025
ZERO_NOTE = "w = 0: no boundary yet,\nno distances to draw"
#: Runs of more points than this draw smaller markers (a share of the data plane's size).
MANY = 80
SMALL = 0.4
_GOLDEN = (np.sqrt(5.0) - 1) / 2


def weights_note(M: int, *, fit: bool) -> tuple[str, str, str]:
    """Why weight space is not drawn for data of ``M > 2`` features: whole, short and tiny."""
    n = M + 1 if fit else M
    return (f"w has {n} components{' (with b)' if fit else ''}:\nthe version space cannot be drawn",
            f"w has {n} components:\nno weight space", f"{n}-D w:\nnot drawn")


def gamma_words(separable: bool | None, gamma: float | None) -> tuple[str, str, str]:
    """The note's line on ``gamma(S)``, whole, short and tiny: its value (the green band), or why
    there is none. Always one line, so that the panel's rows do not move when the verdict
    comes."""
    if separable is None:
        return "γ(S): being worked out", "γ(S): being worked out", "γ(S): pending"
    if not separable:
        return "not separable: no γ(S), no band", "not separable: no γ(S)", "no γ(S)"
    if gamma is None:  # b held at b0 != 0 without an offset: no SVM compares
        return "no γ(S): b is held at b0 ≠ 0", "no γ(S) (b held)", "no γ(S)"
    g = number_text(gamma)
    return (f"green: γ(S) = {g}, the SVM's margin", f"green: γ(S) = {g} (SVM)",
            f"γ(S) = {g}")


def spread(n: int, lo: float = SPREAD[0], hi: float = SPREAD[1]) -> np.ndarray:
    """The points' heights across the axis: by index, a golden-ratio sequence in ``[lo, hi]``
    (fixed, so a point keeps its height from step to step)."""
    return lo + (hi - lo) * ((np.arange(n) * _GOLDEN + 0.5) % 1.0)


class MarginLinePanel:
    """Draws a run's points at their signed distances from the step's boundary.

    Parameters
    ----------
    ax : matplotlib Axes
    """

    def __init__(self, ax):
        self.ax = ax
        S.style_axes(ax, title=TITLE, xlabel=XLABEL)
        ax.set_yticks([])
        ax.set_ylim(0, 1)
        ax.grid(False, axis="y")
        self.wrong = ax.axvspan(-1, 0, facecolor=to_rgba("#7F7F7F", 0.10),
                                edgecolor=to_rgba("#7F7F7F", 0.45), hatch="\\\\", linewidth=0,
                                zorder=0.6)
        self.gamma = ax.axvspan(0, 1, facecolor=to_rgba(S.UPDATE, 0.16), edgecolor="none",
                                zorder=0.7, visible=False)
        self.zero = ax.axvline(0, color=S.LINE, lw=2.0, zorder=2)
        kw = dict(fontsize=S.TICK_SIZE, color="#333333", zorder=6)
        self.wrong_text = ax.text(0, SIDES_Y, "wrong side ", ha="right", va="bottom", clip_on=True,
                                  **kw)
        self.right_text = ax.text(0, SIDES_Y, " right side", ha="left", va="bottom", clip_on=True,
                                  **kw)
        self.gamma_line = ax.axvline(0, color=S.UPDATE, lw=1.4, zorder=1.9, visible=False)
        self.note = ax.text(0.01, NOTE_Y, "", transform=ax.transAxes, ha="left", va="top",
                            clip_on=True, bbox=dict(facecolor="white", alpha=0.8, edgecolor="none", pad=1.0),
                            **kw)
        size = S.POINT_SIZE
        self.pos = ax.scatter([], [], s=size, marker=S.POS_MARKER, c=S.POS, edgecolors="white",
                              linewidths=0.6, zorder=3)
        self.neg = ax.scatter([], [], s=size, marker=S.NEG_MARKER, c=S.NEG, edgecolors="white",
                              linewidths=0.6, zorder=3)
        self.picked = ax.scatter([], [], s=size * 3, facecolors="none", edgecolors=S.PICKED,
                                 linewidths=2.4, zorder=5)
        (self.now,) = ax.plot([], [], color=S.LINE, lw=1.6, ls="--", zorder=4)
        self.now_text = ax.text(0, LABELS_Y, "", ha="right", va="top", zorder=6, clip_on=True,
                                fontsize=S.TICK_SIZE, color=S.LINE,
                                bbox=dict(facecolor="white", alpha=0.8, edgecolor="none",
                                          pad=1.0))
        self.traj = None
        self.X = np.zeros((0, 2))
        self.y = np.zeros(0)
        self.heights = np.zeros(0)
        self.gamma_value = None  # gamma(S) drawn, when the data are separable
        self._cache: dict[bytes, tuple] = {}
        self._labels = [("margin ", 0.0)]  # the label's forms: words, width in data units
        self._label_y = LABELS_Y  # its row (axes fraction: the y axis is 0..1)

    # ------------------------------------------------------------------ run
    def set_run(self, traj: Trajectory, X, y, *, separable: bool | None, note: tuple) -> None:
        """Prepare a run: its points' heights, the axis's limits over the whole run, the band
        of ``gamma(S)`` when ``separable`` is True (a hard-margin SVM solve), and ``note``
        (why weight space is not drawn: the words and their short form)."""
        self.traj, self.X = traj, np.asarray(X, dtype=float)
        self.y = np.asarray(y, dtype=float)
        self._cache = {}
        many = len(self.y) > MANY
        for art, share in ((self.pos, 1), (self.neg, 1), (self.picked, 3)):
            art.set_sizes([S.POINT_SIZE * share * (SMALL if many else 1.0)])
        self.gamma_value = _gamma(traj, self.X, self.y) if separable else None
        lo, hi = self._limits()
        self.ax.set_xlim(lo, hi)
        self.wrong.set_x(lo)
        self.wrong.set_width(-lo)
        g = self.gamma_value
        self.gamma.set_visible(g is not None)
        for art in (self.gamma, self.gamma_line):
            art.set_visible(g is not None)
        if g is not None:
            self.gamma.set_x(0)
            self.gamma.set_width(g)
            self.gamma_line.set_xdata([g, g])
        self._say(*note, gamma=gamma_words(separable, g))
        self._rows(lo, hi)

    def _rows(self, lo: float, hi: float) -> None:
        """Measure the words laid out at this size: the sides' names shown where they fit, the
        label of the margin now under the note, the points spread between the rows."""
        ax = self.ax
        renderer = figure_renderer(ax.figure)
        box = ax.get_window_extent(renderer)
        per_x = (hi - lo) / max(box.width, 1.0)  # data units a px
        tall = max(box.height, 1.0)
        sides = 0.0
        for text, room, names in ((self.wrong_text, -lo, ("wrong side ", "wrong ")),
                                  (self.right_text, hi, (" right side", " right"))):
            text.set_visible(True)
            for name in names:  # the longest name that fits on its side of 0
                text.set_text(name)
                ext = text.get_window_extent(renderer)
                if ext.width * per_x <= room:
                    break
            sides = max(sides, ext.height / tall)
            text.set_visible(ext.width * per_x <= room)
        note = self.note.get_window_extent(renderer)
        self._label_y = (note.y0 - box.y0) / tall - GAP / 2
        self._labels = []  # the label's words and width in data units, for parts()
        for words in ("margin ", ""):  # the number alone when the words fit on neither side
            self.now_text.set_text(f"{words}{number_text(-0.123)} ")
            label = self.now_text.get_window_extent(renderer)
            self._labels.append((words, label.width * per_x))
        top = self._label_y - label.height / tall - GAP
        bottom = SIDES_Y + sides + GAP
        if top - bottom < 0.3:  # a short panel: the points take the room the words leave
            top, bottom = max(top, bottom + 0.3), min(bottom, top - 0.3)
        self.heights = spread(len(self.y), max(bottom, 0.02), min(top, 0.98))

    def _limits(self) -> tuple[float, float]:
        """The axis over every state of the run (0 and gamma(S) in view), padded."""
        W, B = self.traj.weights, self.traj.biases
        norms = np.linalg.norm(W, axis=1)
        ok = norms > 0
        D = (self.X @ W[ok].T + B[ok]) * self.y[:, None] / norms[ok]  # one column a state
        vals = [0.0] + ([self.gamma_value] if self.gamma_value is not None else [])
        if D.size:
            vals += [float(D.min()), float(D.max())]
        lo, hi = min(vals), max(vals)
        pad = 0.06 * max(hi - lo, 1e-9)
        return lo - pad, hi + pad

    def _say(self, *forms: str, gamma: tuple) -> None:
        """The note at the panel's width (``forms``: whole, short, tiny), and ``gamma`` (the
        words on gamma(S) in the same forms) on its last line: the first form that fits at
        readable type, shrunk to fit past that."""
        note, ax = self.note, self.ax
        renderer = figure_renderer(ax.figure)
        room = 0.97 * ax.get_window_extent(renderer).width
        note.set_fontsize(S.TICK_SIZE)
        floor = max(0.85, S.readable_share(S.TICK_SIZE, ax.figure.dpi))  # of the full size
        wide = room
        for words in (f"{a}\n{b}" for a, b in zip(forms, gamma, strict=True)):
            note.set_text(words)
            wide = note.get_window_extent(renderer).width
            if wide <= room / floor:
                break
        if wide > room:  # shrunk no further than the floor: past it, clipped by the panel
            note.set_fontsize(S.TICK_SIZE * max(floor, room / wide))

    def _drawn(self, w, b) -> tuple:
        """Each class's points at ``(y (<w, x> + b) / ||w||, height)`` (:func:`margin_line`)
        and the margin, cached per state (the points move only when the state does)."""
        w = np.asarray(w, dtype=float)
        key = w.tobytes() + np.float64(b).tobytes()
        if key not in self._cache:
            if len(self._cache) > 4096:
                self._cache.clear()
            line = margin_line(self.X, self.y, w, float(b))
            xy = np.column_stack([line.distance, self.heights])
            self._cache[key] = (xy[self.y > 0], xy[self.y < 0], xy, line.margin)
        return self._cache[key]

    # ------------------------------------------------------------------ step
    def dynamic_artists(self) -> list:
        return [self.pos, self.neg, self.picked, self.now, self.now_text]

    def tracks(self, pt: float) -> list:
        """The moving parts as :class:`~explorer.plots.scene.Track` s (``pt``: CSS px per
        point): the points of each class, the ring on the visited ones, the margin now and its
        label (or, at ``w = 0``, the words saying there is no boundary)."""
        return [
            Track("margin_pos", PANEL, "points", z=self.pos.get_zorder(),
                  style=T.points_style(self.pos, pt, marker=S.POS_MARKER)),
            Track("margin_neg", PANEL, "points", z=self.neg.get_zorder(),
                  style=T.points_style(self.neg, pt, marker=S.NEG_MARKER)),
            Track("margin_picked", PANEL, "points", z=self.picked.get_zorder(),
                  style=T.points_style(self.picked, pt, rings=RINGS)),
            Track("margin_now", PANEL, "polyline", z=self.now.get_zorder(),
                  style=T.line_style(self.now, pt)),
            Track("margin_now_text", PANEL, "text", z=self.now_text.get_zorder(),
                  style=T.text_style(self.now_text, pt)),
        ]

    def artists(self) -> dict:
        return {"margin_pos": self.pos, "margin_neg": self.neg, "margin_picked": self.picked,
                "margin_now": self.now, "margin_now_text": self.now_text}

    def parts(self, f: StepFrame) -> dict:
        """The moving parts at frame ``f`` (numpy only): each point at ``(distance, height)``,
        the margin ``min distance`` as a vertical line with its label; at ``w = 0`` the points
        and the line are not drawn and the label says why."""
        w = np.asarray(f.w, dtype=float)
        picked = list(f.picked)
        codes = np.array([1 if i in f.triggered else 0 for i in picked], dtype=np.uint8)
        if not np.any(w):
            lo, hi = self.ax.get_xlim()
            return {"margin_pos": {"xy": T.EMPTY}, "margin_neg": {"xy": T.EMPTY},
                    "margin_picked": {"xy": T.EMPTY, "c": np.zeros(0, dtype=np.uint8)},
                    "margin_now": {"xy": T.NAN_SEG.copy()},
                    "margin_now_text": {"xy": np.array([(lo + hi) / 2, 0.4]),
                                        "text": ZERO_NOTE, "ha": "center", "va": "center"}}
        pos, neg, xy, m = self._drawn(w, f.b)
        lo, hi = self.ax.get_xlim()
        words, ha = self._labels[-1][0], "right"
        for form, span in self._labels:  # left of the line, else right of it, else shorter
            if m - span >= lo or m + span <= hi:
                words, ha = form, ("right" if m - span >= lo else "left")
                break
        return {"margin_pos": {"xy": pos}, "margin_neg": {"xy": neg},
                "margin_picked": {"xy": xy[picked] if picked else T.EMPTY, "c": codes},
                "margin_now": {"xy": np.array([[m, 0.0], [m, self._label_y]])},
                "margin_now_text": {"xy": np.array([m, self._label_y]),
                                    "text": f"{words}{number_text(m)} "
                                    if ha == "right" else f" {words}{number_text(m)}",
                                    "ha": ha, "va": "top"}}

    def show(self, f: StepFrame) -> None:
        """Move the artists to frame ``f``: :meth:`parts` applied."""
        p = self.parts(f)
        self.pos.set_offsets(p["margin_pos"]["xy"])
        self.neg.set_offsets(p["margin_neg"]["xy"])
        set_rings(self.picked, p["margin_picked"])
        T.set_polyline(self.now, p["margin_now"]["xy"])
        T.set_text(self.now_text, p["margin_now_text"])


def _gamma(traj: Trajectory, X, y) -> float | None:
    """``gamma(S)`` comparable with the line's distances: the hard-margin SVM's margin, affine
    with an offset, through the origin without (None when ``b`` is held at ``b0 != 0``: no
    SVM is the comparator then, or when the solve fails)."""
    from ..shared import separability, svm

    fit = bool(traj.params["fit_intercept"])
    if not fit and float(traj.params.get("b0", 0.0)) != 0:
        return None
    try:
        return float(svm.fit(X, y, fit_intercept=fit).margin)
    except (separability.NotSeparableError, ValueError):
        return None
