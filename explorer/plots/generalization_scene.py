"""The Generalization figure as the page draws it (see :mod:`explorer.plots.scene`): still
layers, panels, the loss markers of every step in chunks, and the simulation's points as static
tracks that grow while it runs.

Two kinds of moving parts, described once and drawn by matplotlib or by the page:

* what moves with the step (:meth:`GeneralizationScene.step_parts`): the point
  ``(z_i, loss(z_i))`` of every training example on each shown loss, ``z_i = y_i f(x_i)`` after
  step ``k`` (Hardt & Recht (2022), ch. 3, surrogate losses); sent per step in chunks;
* what the stability simulation adds as each size ``n`` finishes
  (:meth:`GeneralizationScene.sim_parts`, the same at every step): the measured rate of margin
  mistakes with its error bars, the proof's ``E[m]/(n + 1)``, Hardt & Recht's bound, the worst
  case, the VC bound and the zero-one error, and the words of the legend's title (the bounds
  cut off above 1, one text track a line, over the legend); sent with the scene, and again
  when a size finishes (:meth:`GeneralizationScene.grow`) while the still layers stay as they
  are. The narration's summary of the simulation (:attr:`GeneralizationScene.tail`) goes with
  them: the page adds it to every step's narration.

The stability panel's axes are logarithmic: the page maps it in log10 units and its tracks'
values are sent as their logarithms. Everything else (axes, loss curves, the legends' frames
and entries, the risk bars) is drawn by matplotlib as still layers, once per run and size and
again only when a finished size moves the probability axis (or the legend's frame: a title of
another number of lines).

:class:`GeneralizationScene` is mixed into :class:`explorer.plots.GeneralizationFigure`.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..generalization import losses as L
from ..shared.i18n import N_, tr
from . import layers, live
from . import style as S
from . import tracks as T
from .page_figure import PageFigure
from .scene import FIGURE, Chunk, Scene, Track

#: name: (label, colour, line style, marker of the examples' points)
LOSS_STYLE = {
    "zero_one": (L.FORMULAS["zero_one"], "#000000", "-", "o"),
    "perceptron": (L.FORMULAS["perceptron"], S.NEG, "--", "s"),
    "hinge": (L.FORMULAS["hinge"], S.POS, "-", "D"),
    "squared": (L.FORMULAS["squared"], S.UPDATE, ":", "^"),
    "logistic": (L.FORMULAS["logistic"], S.TRIGGER, "-.", "v"),
}
#: The bounds, as the legend's words name them when they are above 1.
BOUND_NAMES = (("vc", "VC"), ("worst_bound", "3/(γ²(n+1))"), ("stability_bound", "H&R"),
               ("mistakes_bound", "E[m]/(n+1)"))
#: The legend's title when a bound is above 1: this line, then the bounds, two a line.
CUT_HEAD = N_("Cut off above 1, where a bound says nothing:")
CUT_PER_LINE = 2
#: Most lines of the title.
CUT_LINES = 1 + -(-len(BOUND_NAMES) // CUT_PER_LINE)

#: The still layers split at this z order: the legends (z 5) are the ``above`` layer, over
#: every track (the loss markers, z 4; the simulation's lines and error bars, which matplotlib
#: draws before the legend).
SPLIT_Z = 5.0
#: The stability panel's lines: (track name, attribute of the panel).
#: Markers the page strokes without a fill.
OPEN_MARKERS = ("x", "+")
SIM_LINES = (("vc", "vc"), ("worst", "worst"), ("bound", "bound"), ("mistakes", "mistakes"),
             ("rate", "rate"), ("zero", "zero"), ("error", "error"))


def _cut_tracks() -> tuple:
    """The text tracks of the stability legend's title, one a line it can have."""
    return tuple(f"sim_cut_{i}" for i in range(CUT_LINES))


def _log10(xy) -> np.ndarray:
    """``log10`` of positive coordinates, NaN elsewhere (a log axis draws no such point)."""
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    out = np.full(xy.shape, np.nan)
    ok = xy > 0
    out[ok] = np.log10(xy[ok])
    return out


def _has_line(line) -> bool:
    return line.get_linestyle() not in ("None", "none", "", " ")


def _has_marks(line) -> bool:
    return line.get_marker() not in (None, "None", "none", "", " ")


class GeneralizationScene(PageFigure):
    """What the page draws of :class:`~explorer.plots.GeneralizationFigure`: its declarations
    for :class:`~explorer.plots.page_figure.PageFigure`, and the simulation's static tracks."""

    def _init_scene(self) -> None:
        self.forget_page_scene()
        self._still = None
        #: What the page says after each step's narration (the view's summaries), sent with
        #: the statics.
        self.tail = ""

    @property
    def described(self) -> bool:
        """Whether a scene describes the run, losses, simulation and size shown."""
        return self.page_scene is not None

    def forget_scene(self) -> None:
        """The still layers changed (a new run, losses, table or size): describe again."""
        self.forget_page_scene()

    @property
    def n_steps(self) -> int:
        return 0 if self.traj is None else int(self.traj.n_steps)

    def page_missing(self) -> str:
        return "a run: call set_run first" if self.traj is None else ""

    def page_panels(self, *, width: float, height: float) -> tuple:
        return tuple(layers.panel(ax, name, width=width, height=height, log10="xy")
                     for name, ax in self.panel_axes().items())

    def page_tracks(self, pt: float) -> list:
        return self._tracks(pt)

    def stepped_tracks(self) -> tuple:
        """The loss markers (the simulation's tracks are :meth:`statics`)."""
        names = {f"loss_{n}" for n in self.losses.shown}
        return tuple(t for t in self.page_scene.tracks if t.name in names)

    def still_layers(self, *, ratio: float) -> tuple[bytes, bytes]:
        """The legends over the tracks (split at :data:`SPLIT_Z`; each track keeps its layer)."""
        return self.draw_still_layers(self.moving_artists(), split=SPLIT_Z, ratio=ratio)

    def page_step(self, k: int) -> tuple[dict, str]:
        """The loss markers after step ``k`` and :meth:`step_text` (the page adds :attr:`tail`,
        sent with the statics)."""
        return self.step_parts(k), self.step_text(k)

    # ------------------------------------------------------------------ what is where
    def panel_axes(self) -> dict:
        """Panel name -> axes of the panels that hold tracks."""
        return {"losses": self.losses.ax, "stability": self.stability.ax}

    def enlargeable(self) -> dict:
        """Both panels may be shown large."""
        return self.panel_axes()

    def _sim_artists(self) -> dict:
        st, out = self.stability, {}
        for name, attr in SIM_LINES:
            line = getattr(st, attr)
            if _has_line(line):
                out[f"sim_{name}"] = line
            if _has_marks(line):
                out[f"sim_{name}_marks"] = line
        out["sim_errbars"] = st.errbars
        return out

    def track_artists(self) -> dict:
        """Track name -> the matplotlib artist that draws it (a line with markers draws two
        tracks: its polyline and its markers; the legend's title one track a line)."""
        out = {f"loss_{n}": self.losses.points[n] for n in self.losses.shown}
        out.update(self._sim_artists())
        out.update(dict.fromkeys(_cut_tracks(), self.stability.title))
        return out

    def moving_artists(self) -> list:
        """The artists of the tracks (the still layers leave them out), each once; the markers
        of hidden losses too (they are in no layer)."""
        return live.distinct([*self.losses.points.values(), *self._sim_artists().values(),
                              self.stability.title])

    def _tracks(self, pt: float) -> list:
        out = []
        for name in self.losses.shown:
            coll = self.losses.points[name]
            style = T.points_style(coll, pt, marker=self._marker(name))
            style["colors"] = [style["fill"]]  # white, stroked with the loss's colour
            out.append(Track(f"loss_{name}", "losses", "points", z=coll.get_zorder(),
                             style=style))
        for track, art in self._sim_artists().items():
            if track == "sim_errbars":
                style = {"color": T.hex_alpha(art.get_edgecolor()[0])[0], "alpha": 1.0,
                         "width": round(float(art.get_linewidths()[0]) * pt, 3)}
                out.append(Track(track, "stability", "polyline", z=art.get_zorder(), style=style))
            elif track.endswith("_marks"):
                style = T.marker_style(art, pt)
                if style["marker"] not in OPEN_MARKERS:  # filled, stroked with the edge colour
                    style["colors"] = [style["fill"]]
                out.append(Track(track, "stability", "points", z=art.get_zorder() + 0.01,
                                 style=style))
            else:
                out.append(Track(track, "stability", "polyline", z=art.get_zorder(),
                                 style=T.line_style(art, pt)))
        out = [replace(t, layer="under") for t in out]
        legend = self.stability.legend  # the title's words over its frame (the "above" layer)
        style = T.text_style(self.stability.title, pt)
        return out + [Track(name, FIGURE, "text", layer="over", z=legend.get_zorder() + 0.1,
                            style=style) for name in _cut_tracks()]

    @staticmethod
    def _marker(name: str) -> str:
        return LOSS_STYLE[name][3]

    # ------------------------------------------------------------------ the parts
    def step_parts(self, k: int) -> dict:
        """The loss markers after step ``k``: for each shown loss ``xy`` (n, 2) the points
        ``(z_i, loss(z_i))``, ``z`` clipped to the axis and the loss to its top (drawn at the
        edge), and the colour codes ``c`` (all 0: white)."""
        z = self.margins_at(k)
        half, top = self.losses.half, self.losses.ax.get_ylim()[1]
        zc = np.clip(z, -half, half)
        out = {}
        for name in self.losses.shown:
            vals = np.minimum(L.LOSSES[name](z), top)
            out[f"loss_{name}"] = {"xy": np.column_stack([zc, vals]).reshape(-1, 2),
                                   "c": np.zeros(len(z), dtype=np.uint8)}
        return out

    def sim_parts(self) -> dict:
        """The simulation's points as the stability panel's artists hold them (log10 units):
        each line's vertices (polyline and markers alike), the error bars as one polyline
        broken by NaN rows."""
        out = {}
        for track, art in self._sim_artists().items():
            if track == "sim_errbars":
                segs = [np.vstack([_log10(s), np.full((1, 2), np.nan)])
                        for s in art.get_segments()]
                xy = np.vstack(segs) if segs else T.NAN_SEG.copy()
                out[track] = {"xy": xy}
                continue
            xy = np.column_stack([art.get_xdata(), art.get_ydata()]) if len(art.get_xdata()) \
                else np.zeros((0, 2))
            xy = _log10(xy)
            xy = xy if len(xy) else np.full((1, 2), np.nan)
            out[track] = {"xy": xy}
            if track.endswith("_marks") and art.get_marker() not in OPEN_MARKERS:
                out[track]["c"] = np.zeros(len(xy), dtype=np.uint8)
        lines = self._title_lines()
        for i, track in enumerate(_cut_tracks()):
            out[track] = ({"xy": lines[i][1], "text": lines[i][0], "ha": "left",
                           "va": "baseline"} if i < len(lines) else T.hidden_text())
        return out

    def _title_lines(self) -> list:
        """The legend title's lines and where matplotlib draws them (CSS px): the legend is
        laid out at the figure's dpi first (its title's place is set as it is drawn)."""
        st = self.stability
        if not st.title.get_text():
            return []
        fig = self.fig
        st.legend.draw(T.figure_renderer(fig))
        return T.text_lines(st.title, height=fig.bbox.height * T.css_dpi(fig) / fig.dpi)

    # ------------------------------------------------------------------ the scene
    def _still_key(self) -> tuple:
        """What the still layers show of the simulation: the panel's limits and the legend's
        frame (its title's words are tracks; a finished size that changes neither changes
        only the tracks)."""
        st, fig = self.stability, self.fig
        live.floor_legends(fig)  # a legend made anew is measured at the type the layers draw
        box = st.legend.get_window_extent(T.figure_renderer(fig))
        return (tuple(st.ax.get_xlim()), tuple(st.ax.get_ylim()), tuple(box.bounds))

    def scene(self, *, width: int, height: int, scale: float = 1.0, ratio: float = 1.0,
              chunk: int = 256) -> Scene:
        """:meth:`PageFigure.scene`, and what its still layers show of the simulation (a size
        that finishes changes only the tracks while that stays, :meth:`grow`)."""
        scene = super().scene(width=width, height=height, scale=scale, ratio=ratio, chunk=chunk)
        self._still = self._still_key()
        return scene

    def status(self, k: int) -> str:
        """The status line at step ``k``."""
        # translators: the counts are of points and of updates
        return tr("step {k} of {n} · {points} points · {updates} updates").format(
            k=k, n=self.traj.n_steps, points=len(self.X), updates=self.traj.n_updates)

    def narration(self, k: int) -> str:
        """The figure's description at step ``k``: the mean losses, then :attr:`tail`."""
        return f"{self.step_text(k)}{self.tail}"

    def statics(self) -> Chunk:
        """The simulation's points and the legend title's words (one row, the same at every
        step), and :attr:`tail`, sent with the scene and as sizes finish."""
        if self.page_scene is None:
            raise ValueError("statics needs a scene: call scene first")
        names = {*self._sim_artists(), *_cut_tracks()}
        arrays, strings = T.stack([self.sim_parts()],
                                  [t for t in self.page_scene.tracks if t.name in names])
        return Chunk(start=0, count=1, arrays=arrays, strings=strings, tail=self.tail)

    def grow(self, curve) -> Chunk | None:
        """Show the simulation's ``curve`` (more sizes finished) on matplotlib's artists and
        return its points and the legend title's words as static tracks, or None when the
        still layers change too (the probability axis or the legend's frame moved): then
        describe the figure again with :meth:`scene`."""
        self.set_stability(curve)
        if self.page_scene is None or self._still_key() != self._still:
            self.forget_page_scene()
            return None
        return self.statics()
