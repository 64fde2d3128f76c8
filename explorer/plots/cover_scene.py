"""The Cover figure as the page draws it (see :mod:`explorer.plots.scene`): still layers,
panels and tracks of the view shown.

* ``"curves"``: the curves, capacity marks, axes and legend are still; the Monte Carlo points
  are the moving parts, step ``i`` showing the first ``i`` points in the order they came (the
  track grows as a run finishes points: :meth:`CoverScene.chunk`), one ``points`` and one
  ``polyline`` (error bars, NaN-broken) track per curve;
* ``"dichotomies"`` and ``"boolean"``: no steps (``n_steps = 0``); the placed points, their
  collinear lines and numbers, and every part of the tiles (points, separating lines, the
  hatched squares of the non-separable dichotomies, crosses, captions, the chosen tile's
  outline, the grid's title) are static tracks (:meth:`CoverScene.statics`), so a new point set
  or page with the same grid is sent as new static arrays, the still layers unchanged
  (:meth:`CoverScene.restage`).

The parts come from the same descriptions that set matplotlib's artists
(:func:`mc_marks`, :func:`explorer.plots.dichotomy_grid.tile_parts`).
:class:`CoverScene` declares them for :class:`~explorer.plots.page_figure.PageFigure`, which
writes the scene and the chunks (the curves view's run is ``scene(run=...)``; the chunks carry
no narration, which the Cover tab adds), and is mixed into
:class:`explorer.plots.cover.CoverFigure`. Matplotlib draws a step by setting the curves'
data again (:meth:`CoverScene.show_step`): the page's x in the log view is ``log10 N``.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from . import layers, live
from . import mpl_adapter as mpl
from . import style as S
from .page_figure import PageFigure
from .scene import FIGURE, Chunk, Scene, Track
from .tracks import (
    css_dpi,
    hatch_gap,
    hatch_line_width,
    hex_alpha,
    hidden_text,
    marker_style,
    points_style,
    stack,
    text_style,
)

#: Error bars of the Monte Carlo points: ± ``MC_Z`` standard errors.
MC_Z = 2.0


def mc_marks(curves, mc, *, mode: str, slots: int) -> list:
    """The Monte Carlo marks of each curve's slot: ``slots`` arrays of shape (n, 4), rows
    ``(x, estimate, low, high)`` in the order the points came, the bar from ``low`` to ``high``
    (``MC_Z`` standard errors, clipped to [0, 1]); ``x`` as :meth:`CurvesPanel.set_data` puts
    it. Points of an ``M`` without a curve are not drawn."""
    index = {c.M: i for i, c in enumerate(curves[:slots])}
    rows = [[] for _ in range(slots)]
    for p in mc:
        i = index.get(p.M)
        if i is None:
            continue
        err = MC_Z * p.stderr
        rows[i].append((p.N / (p.M + 1) if mode == "ratio" else p.N, p.estimate,
                        min(max(p.estimate - err, 0.0), 1.0), min(max(p.estimate + err, 0.0), 1.0)))
    return [np.array(r, dtype=float).reshape(-1, 4) for r in rows]

#: Still artists at or over this z order (the capacity dots, 6) are in the ``above`` layer;
#: every track is under it.
SPLIT_Z = 5.5
#: Most points a dichotomies view places (one number track each).
MAX_NUMBERS = 16
NAN_ROW = np.full((1, 2), np.nan)


def _rows(xy) -> np.ndarray:
    """At least one row (a NaN one: nothing drawn), so every step has an array."""
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    return xy if len(xy) else NAN_ROW.copy()


def _broken(pieces) -> np.ndarray:
    """Pieces of polyline joined into one, NaN rows between them."""
    out = []
    for p in pieces:
        out += [np.asarray(p, dtype=float).reshape(-1, 2), NAN_ROW]
    return _rows(np.vstack(out[:-1])) if out else NAN_ROW.copy()


def _collection_line(coll, pt: float) -> dict:
    color, alpha = hex_alpha(coll.get_edgecolor()[0] if len(coll.get_edgecolor()) else "#000000")
    out = {"color": color, "alpha": alpha, "width": round(float(coll.get_linewidths()[0]) * pt, 3)}
    styles = coll.get_linestyle()
    if styles and styles[0][1]:
        out["dash"] = [round(float(v) * pt, 3) for v in styles[0][1]]
    return out


def _collection_polygon(coll, pt: float) -> dict:
    fill, fill_alpha = hex_alpha(coll.get_facecolor()[0])
    edge, edge_alpha = hex_alpha(coll.get_edgecolor()[0])
    out = {"fill": fill, "fill_alpha": fill_alpha, "color": edge, "alpha": edge_alpha,
           "width": round(float(coll.get_linewidths()[0]) * pt, 3)}
    hatch = coll.get_hatch()
    if hatch:
        out.update(hatch="/" if "/" in hatch else "\\", hatch_gap=hatch_gap(hatch, pt),
                   hatch_color=edge, hatch_alpha=edge_alpha, hatch_width=hatch_line_width(pt))
    return out


class CoverScene(PageFigure):
    """What the page draws of :class:`~explorer.plots.cover.CoverFigure`: its declarations
    for :class:`~explorer.plots.page_figure.PageFigure` (scene and chunks), its static chunks
    (:meth:`statics`, :meth:`restage`) and a curves scene grown (:meth:`grow`)."""

    split_z = SPLIT_Z
    narrated = False  # the Cover tab writes each step's narration and status

    def _init_scene(self) -> None:
        self.forget_page_scene()
        self._run = None  # curves view: (curves, mode, Monte Carlo points)
        self._layout_key = None
        self._title_xy = {}

    # ------------------------------------------------------------------ what is where
    def _grids(self) -> dict:
        """Track prefix -> the tile grid of the view shown."""
        return {"dichotomies": {"tiles": self.tiles},
                "boolean": {"bool_tiles": self.bool_tiles}}.get(self.view, {})

    def panel_axes(self) -> dict:
        """Panel name -> axes of the view shown."""
        return {"curves": {"curves": self.curves.ax},
                "dichotomies": {"plane": self.plane.ax, "tiles": self.tiles.ax},
                "boolean": {"bool_tiles": self.bool_tiles.ax,
                            "bool_counts": self.bool_counts.ax}}[self.view]

    def enlargeable(self) -> dict:
        """The panels of the dichotomies' and Boolean functions' views (the curves' view is
        one panel, its legend beside it)."""
        return {} if self.view == "curves" else self.panel_axes()

    def track_artists(self) -> dict:
        """Track name -> the artist that draws it (several tracks may share a collection:
        the tiles' hatched squares, the error bars of a curve)."""
        out = {}
        if self.view == "curves":
            for i in range(len(self._run[0]) if self._run else 0):
                out[f"mc_dots_{i}"] = self.curves.mc_dots[i]
                out[f"mc_bars_{i}"] = self.curves.mc_bars[i]
            return out
        if self.view == "dichotomies":
            p = self.plane
            out.update(plane_points=p.points, plane_lines=p.lines)
            for i in range(MAX_NUMBERS):
                out[f"plane_number_{i}"] = p.numbers[i] if i < len(p.numbers) else None
        for name, g in self._grids().items():
            out.update({f"{name}_seps": g.seps, f"{name}_pos": g.pos, f"{name}_neg": g.neg,
                        f"{name}_crosses": g.crosses, f"{name}_selected": g.selected,
                        f"{name}_title": mpl.left_title(g.ax)})
            for k in range(g.count):
                out[f"{name}_bad_{k}"] = g.bad
                out[f"{name}_label_{k}"] = g.labels[k]
        return out

    def moving_artists(self) -> list:
        """The artists of the tracks (left out of the still layers)."""
        out = live.distinct(self.track_artists().values())
        seen = {id(a) for a in out}
        if self.view == "curves":  # every slot's marks, drawn or not
            out += [a for a in (*self.curves.mc_dots, *self.curves.mc_bars) if id(a) not in seen]
        if self.view == "dichotomies":  # the numbers of points not placed yet
            out += [t for t in self.plane.numbers if id(t) not in seen]
        return out

    def _grid_key(self) -> tuple:
        """What the still layers and the tracks' styles depend on besides the data: the view
        and, per tile grid, its shape, the tiles' captions that are bold and the title."""
        return (self.view, *((g.ncols, g.nrows, g.count, tuple(g.marked)) for g in
                             self._grids().values()))

    # ------------------------------------------------------------------ the scene
    @property
    def n_steps(self) -> int:
        """The curves view's Monte Carlo points (step ``i`` shows the first ``i``); 0 in the
        other views."""
        return len(self._run[2]) if self.view == "curves" and self._run is not None else 0

    def take_run(self, run) -> None:
        """In the curves view ``run`` is ``(curves, mode, mc)`` (as
        :meth:`~explorer.plots.cover.CurvesPanel.set_data`): the scene's steps are
        ``0..len(mc)``. In the other views the data already set are described by
        :meth:`statics` (``run`` is not used)."""
        if self.view != "curves":
            return
        if run is None:
            raise ValueError("the curves view's scene needs run=(curves, mode, mc)")
        curves, mode, mc = run
        self._run = (tuple(curves), mode, tuple(mc))
        self.curves.set_data(self._run[0], mode=mode, mc=self._run[2],
                             mc_legend=bool(self._run[2]))

    def still_layers(self, *, ratio: float) -> tuple[bytes, bytes]:
        for g in self._grids().values():  # the grid's shape follows its axes' new box
            g.relayout()
        self._layout_key = self._grid_key()
        return super().still_layers(ratio=ratio)

    def page_panels(self, *, width: float, height: float) -> tuple:
        return tuple(layers.panel(ax, name, width=width, height=height, log10="x")
                     for name, ax in self.panel_axes().items())

    def page_tracks(self, pt: float) -> list:
        """The view's tracks (see the module docstring)."""
        height = self.page_size[1]
        out = []
        if self.view == "curves":
            c = self.curves
            for i in range(len(self._run[0])):
                out.append(Track(f"mc_bars_{i}", "curves", "polyline", "under", 4.5,
                                 _collection_line(c.mc_bars[i], pt)))
                out.append(Track(f"mc_dots_{i}", "curves", "points", "under", 5.0,
                                 marker_style(c.mc_dots[i], pt)))
            return out
        if self.view == "dichotomies":
            p = self.plane
            out.append(Track("plane_lines", "plane", "polyline", "under", 2.0,
                             _collection_line(p.lines, pt)))
            out.append(Track("plane_points", "plane", "points", "under", 3.0,
                             points_style(p.points, pt)))
            probe = self.plane.ax.text(0, 0, "", fontsize=S.TICK_SIZE)  # as set_data
            style = text_style(probe, pt)
            probe.remove()
            out += [Track(f"plane_number_{i}", "plane", "text", "under", 4.0, style)
                    for i in range(MAX_NUMBERS)]
        for name, g in self._grids().items():
            self._title_xy[name] = self._text_px(mpl.left_title(g.ax), height)
            out.append(Track(f"{name}_seps", name, "polyline", "under", 2.0,
                             _collection_line(g.seps, pt)))
            out.append(Track(f"{name}_pos", name, "points", "under", 3.0,
                             points_style(g.pos, pt, marker="o")))
            out.append(Track(f"{name}_neg", name, "points", "under", 3.0,
                             points_style(g.neg, pt, marker="s")))
            cross = points_style(g.crosses, pt, marker="x")
            cross["color"], cross["alpha"] = hex_alpha(g.crosses.get_facecolor()[0])
            out.append(Track(f"{name}_crosses", name, "points", "under", 3.5, cross))
            color, alpha = hex_alpha(g.selected.get_edgecolor())
            out.append(Track(f"{name}_selected", name, "polyline", "under", 5.0,
                             {"color": color, "alpha": alpha,
                              "width": round(g.selected.get_linewidth() * pt, 3)}))
            title = mpl.left_title(g.ax)
            out.append(Track(f"{name}_title", FIGURE, "text", "under", 5.0, text_style(title, pt)))
            bad = _collection_polygon(g.bad, pt)
            for k in range(g.count):
                out.append(Track(f"{name}_bad_{k}", name, "polygon", "under", 0.5, bad))
                out.append(Track(f"{name}_label_{k}", name, "text", "under", 4.0,
                                 text_style(g.labels[k], pt)))
        return out

    def _text_px(self, text, height: float) -> np.ndarray:
        """An axes title's anchor in CSS px from the figure's top left: at the top of its
        axes (where a draw puts it: these axes have no ticks on top), its pad above."""
        xy = text.get_transform().transform((text.get_position()[0], 1.0))
        c = css_dpi(self.fig) / self.fig.dpi
        return np.array([xy[0] * c, height - xy[1] * c])

    # ------------------------------------------------------------------ steps and statics
    def show_step(self, k: int) -> None:
        """Set the artists to step ``k`` of the scene (the curves view: the first ``k`` Monte
        Carlo points; the other views have only step 0)."""
        if self.view == "curves" and self._run is not None:
            curves, mode, mc = self._run
            self.curves.set_data(curves, mode=mode, mc=mc[:int(k)], mc_legend=bool(mc))

    def parts(self, k: int) -> dict:
        """Step ``k``'s Monte Carlo marks (the curves view; no parts in the others)."""
        if self.view != "curves":
            return {}
        curves, mode, mc = self._run
        parts = {}
        for i, marks in enumerate(mc_marks(curves, mc[:k], mode=mode, slots=len(curves))):
            x = np.log10(marks[:, 0]) if mode == "n" else marks[:, 0]
            parts[f"mc_dots_{i}"] = {"xy": _rows(np.column_stack([x, marks[:, 1]]))}
            parts[f"mc_bars_{i}"] = {"xy": _broken([[(a, lo), (a, hi)] for a, lo, hi in
                                                    zip(x, marks[:, 2], marks[:, 3],
                                                        strict=True)])}
        return parts

    def stepped_tracks(self) -> tuple:
        """The Monte Carlo marks in the curves view; the other views' tracks are static."""
        return self._page_scene.tracks if self.view == "curves" else ()

    def grow(self, mc) -> Scene | None:
        """The curves view's run with more Monte Carlo points ``mc`` (the old ones first, in
        order): the scene with its last step moved on, the still layers kept (so the page
        asks only for the new steps' chunks); None when that is not possible (no curves
        scene, the points are not a continuation: then make a new :meth:`scene`).

        The legend lists the Monte Carlo marks from the first point on; a scene made before
        any point came gets a new scene for its first one (None)."""
        if self._page_scene is None or self.view != "curves" or self._run is None:
            return None
        curves, mode, old = self._run
        mc = tuple(mc)
        if not old or mc[:len(old)] != old:
            return None
        self._run = (curves, mode, mc)
        self._page_scene = replace(self._page_scene, n_steps=len(mc))
        return self._page_scene

    def statics(self) -> Chunk:
        """The static tracks of the dichotomies or Boolean view, for the data set now (one
        row); none in the curves view."""
        if self._page_scene is None:
            raise ValueError("statics needs a scene: call scene first")
        parts = {}
        if self.view == "dichotomies":
            X = self.plane.X
            parts["plane_points"] = {"xy": _rows(X)}
            parts["plane_lines"] = {"xy": _broken(self.plane.segments)}
            numbers = self.plane.number_parts()  # on their points or beside them
            for i in range(MAX_NUMBERS):
                parts[f"plane_number_{i}"] = (numbers[i] if i < len(numbers)
                                              else hidden_text("center", "center"))
        for name, g in self._grids().items():
            tp = g.parts
            parts[f"{name}_seps"] = {"xy": _broken(tp["seps"])}
            parts[f"{name}_pos"] = {"xy": _rows(tp["pos"])}
            parts[f"{name}_neg"] = {"xy": _rows(tp["neg"])}
            parts[f"{name}_crosses"] = {"xy": _rows(tp["crosses"])}
            sel = g.selected
            if sel.get_visible():
                x, y, w, h = sel.get_x(), sel.get_y(), sel.get_width(), sel.get_height()
                box = [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
            else:
                box = NAN_ROW
            parts[f"{name}_selected"] = {"xy": _rows(box)}
            parts[f"{name}_title"] = {"xy": self._title_xy[name], "text": g.ax.get_title("left"),
                                      "ha": "left", "va": "baseline"}
            for k in range(g.count):
                sq = tp["bad_k"][k]
                parts[f"{name}_bad_{k}"] = {"xy": np.full((4, 2), np.nan) if sq is None else sq}
                parts[f"{name}_label_{k}"] = {"xy": tp["label_xy"][k], "text": tp["labels"][k],
                                              "ha": "center", "va": "top"}
        names = set(parts)
        arrays, strings = stack([parts], [t for t in self._page_scene.tracks if t.name in names])
        return Chunk(start=0, count=1, arrays=arrays, strings=strings)

    def restage(self) -> Chunk | None:
        """After new data in the dichotomies or Boolean view (a point set, a page, a chosen
        tile): their static arrays if the last :meth:`scene`'s still layers and styles hold
        (same view and grid), else None (make a new :meth:`scene`)."""
        if self._page_scene is None or self.view == "curves" or self._grid_key() != self._layout_key:
            return None
        return self.statics()
