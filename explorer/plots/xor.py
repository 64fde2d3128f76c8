"""The XOR figure: one data plane on the left, and on the right what the chosen view needs.

Views (:data:`explorer.xor.VIEWS`):

* ``cycling``: the classic iterate and the pocket's line at step ``k``; updates against steps
  (the cycle marked once the run has found it); training errors of both, and the bound's
  verdict. The two right-hand panels are "so far" (:data:`explorer.plots.style.SO_FAR`): they
  draw steps 0 to ``k`` and nothing later (their axes span the whole run, so they stay still
  while it plays), so "will it ever stop?" is answered by playing, not by the picture;
* ``proof``: both classes' convex hulls and the LP's common point
  (``docs/mathematics.md#xor-certificate``), or the LP's separating line for a separable function;
* ``grid``: the 16 Boolean functions of two inputs, each with its perceptron result;
* ``feature``: the points lifted to ``(x1, x2, x1 x2)`` with the perceptron's plane (3-D in
  projection, :mod:`explorer.plots.view3d`, turned by dragging in the page), and the curved
  boundary it induces in the plane;
* ``layers``: the hidden units' two lines and the network's regions; the hidden coordinates
  with the output unit's line;
* ``kernel``: the kernel perceptron's curved boundary, its dual weights per point, and its
  updates so far (steps 0 to ``k``).

All axes and artists are made once (the grid view's 16 tiles when first shown); a view change
hides the other views' axes; a step moves artists in place, from the step's parts
(:mod:`explorer.plots.xor_parts`), which the page draws too (:mod:`explorer.plots.xor_page`).
"""

from __future__ import annotations

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.legend_handler import HandlerTuple
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Polygon

from ..shared.i18n import N_, tr, tr_n
from ..xor import FUNCTIONS, HIDDEN_PAIRS, VIEWS, Scene, function, lift
from . import live, room
from . import style as S
from .overlays import LEGEND_DROP, certificate_artists
from .page_figure import new_figure
from .tracks import css_dpi, figure_renderer
from .view3d import Lifted3D
from .xor_page import XorPage
from .xor_parts import STEPPED, staircase
from .xor_steps import XorSteps
from .xor_ways import NEG_TINT, POS_TINT, DualBars, HiddenPanel, region_rgba, set_line

__all__ = ["XorFigure"]

FIGSIZE = (13.0, 6.8)
WIDTH_RATIOS = (2.2, 1.1, 1.1)
GRID_RES = 120


def _proxy(artist) -> Line2D:
    """A visible legend handle drawn like ``artist`` (which may be hidden when the legend is
    made)."""
    return Line2D([], [], color=artist.get_color(), ls=artist.get_linestyle(),
                  lw=artist.get_linewidth(), marker=artist.get_marker(),
                  ms=artist.get_markersize(), mfc=artist.get_markerfacecolor(),
                  mec=artist.get_markeredgecolor())


class XorFigure(XorSteps, XorPage):
    """The XOR tab's figure; :meth:`set_scene` lays out, :meth:`show` draws step ``k``.

    Parameters
    ----------
    fig : matplotlib Figure, optional
        An existing empty figure; by default a new one on its own Agg canvas (the tab's
        kernel-side figure, whose still layers and tracks the page draws).
    blit : bool, default False
        Draw steps by blitting the moving artists (exports' animations).
    """

    def __init__(self, fig=None, *, blit: bool = False, figsize=FIGSIZE, dpi: float = 80):
        self.fig = new_figure(fig, figsize=figsize, dpi=dpi, canvas=True)
        gs = self.fig.add_gridspec(2, 3, width_ratios=WIDTH_RATIOS, hspace=0.42, wspace=0.32,
                                   left=0.065, right=0.985, top=0.94, bottom=0.08)
        self.grid = gs
        self._make_plane(gs[:, 0])
        self._make_run_panels(gs)
        self.ax_text = self.fig.add_subplot(gs[:, 1:])
        self.ax_text.set_axis_off()
        self.text = self.ax_text.text(0.0, 1.0, "", va="top", ha="left", wrap=True,
                                      fontsize=S.TEXT_SIZE + 1, transform=self.ax_text.transAxes,
                                      linespacing=1.5)
        # the 16 functions' tiles: made when first asked for (:attr:`tiles`), as only the
        # grid view shows them and 16 axes are a third of the figure's making
        self._tile_cells = gs[:, 1:].subgridspec(5, 4, hspace=0.6, wspace=0.25,
                                                 height_ratios=(0.12, 1, 1, 1, 1))
        self._tiles: list | None = None
        self._tile_art: list | None = None
        self._make_way_panels(gs)
        self.view = "cycling"
        self.xor_scene: Scene | None = None
        self.selected = None
        self.box = (-1.6, 1.6, -1.6, 1.6)
        self.grid_shape = (GRID_RES, GRID_RES)
        self.stairs = {}  # the "so far" curves' whole staircases, by track
        self.legend = None
        self._entries = []  # the plane legend's (handle, label) pairs in the view shown
        self.focus = 0  # the row of right-hand panels shown when only one fits (set_focus)
        self.room = None  # how the last layout shared the room (explorer.plots.room.Room)
        self._init_page()
        self._init_live(blit)

    def _make_plane(self, cell) -> None:
        """The data plane in grid ``cell``: the classifier's colours, the points, the line(s)
        or curve, the ring of the visited point, the certificate."""
        self.ax = ax = self.fig.add_subplot(cell)
        S.style_axes(ax, title=tr("XOR"), xlabel="x₁", ylabel="x₂")
        ax.set_aspect("equal", adjustable="box")
        ax.set_anchor("N")
        self.image = ax.imshow(np.zeros((2, 2, 4)), extent=(-1, 1, -1, 1), origin="lower",
                               interpolation="bilinear", zorder=0.5)
        self.pos = ax.scatter([], [], s=S.POINT_SIZE * 1.5, marker=S.POS_MARKER, c=S.POS,
                              edgecolors="white", linewidths=0.8, zorder=5)
        self.neg = ax.scatter([], [], s=S.POINT_SIZE * 1.5, marker=S.NEG_MARKER, c=S.NEG,
                              edgecolors="white", linewidths=0.8, zorder=5)
        (self.line,) = ax.plot([], [], color=S.LINE, lw=2.8, zorder=4)
        (self.line2,) = ax.plot([], [], color=S.KEPT, lw=2.6, ls=S.KEPT_STYLE, zorder=4.2)
        self.curve = LineCollection([], colors=S.LINE, linewidths=2.8, zorder=4.4)
        ax.add_collection(self.curve)
        (self.ring,) = ax.plot([], [], ls="none", marker="o", ms=22, mfc="none", mec=S.TRIGGER,
                               mew=3.0, zorder=6)
        self.hull_pos, self.hull_neg, self.cert = certificate_artists(ax)
        self.numbers = []

    def _make_run_panels(self, gs) -> None:
        """The right-hand panels of the cycling and pocket views: updates and training points
        wrong so far, with their legends and notes."""
        self.ax_upd = self.fig.add_subplot(gs[0, 1:])
        self.ax_err = self.fig.add_subplot(gs[1, 1:])
        S.style_axes(self.ax_upd, title="", xlabel="", ylabel="")
        S.style_axes(self.ax_err, title="", xlabel="", ylabel="")
        # the "so far" curves are staircases (steps-post) drawn from their vertices
        (self.upd_curve,) = self.ax_upd.plot([], [], color=S.LINE, lw=2.2)
        (self.upd_dot,) = self.ax_upd.plot([], [], "o", color=S.TRIGGER, ms=9, zorder=5)
        self.upd_cycle = Polygon(np.zeros((4, 2)), closed=True, color=S.ACCENT, alpha=0.25,
                                 zorder=0.5)
        self.ax_upd.add_patch(self.upd_cycle)
        self.upd_legend = self.ax_upd.legend([self.upd_curve, self.upd_cycle], ["", ""],
                                             loc="upper left", fontsize=S.TICK_SIZE - 1)
        self.upd_cycle.set_visible(False)  # after the legend: its entry is drawn
        # placed in data coordinates by each step's parts (2 % and 70 % across the axes)
        self.upd_note = self.ax_upd.text(0, 0, "", va="top", fontsize=S.TEXT_SIZE)
        (self.err_now,) = self.ax_err.plot([], [], color=S.LINE, lw=2.2)
        (self.err_kept,) = self.ax_err.plot([], [], color=S.KEPT, lw=2.6, ls=S.KEPT_STYLE)
        self.err_cursor = self.ax_err.axvline(0, color=S.TRIGGER, lw=1.5)
        self.err_legend = self.ax_err.legend([self.err_now, self.err_kept], ["", ""],
                                             loc="upper right", fontsize=S.TICK_SIZE - 1)
        self.bound_note = self.ax_upd.text(0.98, 0.04, "", transform=self.ax_upd.transAxes,
                                           fontsize=S.TEXT_SIZE - 1, va="bottom", ha="right",
                                           bbox=dict(facecolor="white", edgecolor="#999999",
                                                     alpha=0.9), zorder=6)

    def _make_way_panels(self, gs) -> None:
        """The right-hand panels of the ways out: the lifted 3-D view, the hidden layer, the
        kernel perceptron's dual weights and its updates so far."""
        self.lifted = Lifted3D(self.fig.add_subplot(gs[:, 1:]))
        self.hidden = HiddenPanel(self.fig.add_subplot(gs[:, 1:]))
        self.duals = DualBars(self.fig.add_subplot(gs[0, 1:]))
        self.ax_kupd = self.fig.add_subplot(gs[1, 1:])
        S.style_axes(self.ax_kupd, title="", xlabel="", ylabel="")
        (self.k_curve,) = self.ax_kupd.plot([], [], color=S.LINE, lw=2.2)
        (self.k_dot,) = self.ax_kupd.plot([], [], "o", color=S.TRIGGER, ms=9, zorder=5)
        self.k_legend = self.ax_kupd.legend([self.k_curve], [""], loc="upper left",
                                            fontsize=S.TICK_SIZE - 1)
        self._label_run_panels()

    def _label_run_panels(self) -> None:
        """The right-hand run panels' titles, axis labels and legends, in the current language
        (set when made and again with each scene)."""
        for ax, title, ylabel in ((self.ax_upd, N_("Updates so far"), N_("updates")),
                                  (self.ax_err, N_("Training points wrong so far"), N_("wrong")),
                                  (self.ax_kupd, N_("Kernel perceptron: updates so far"),
                                   N_("updates"))):
            ax.set_title(tr(title), fontsize=S.TITLE_SIZE, loc="left")
            ax.set_xlabel(tr("step"), fontsize=S.LABEL_SIZE)
            ax.set_ylabel(tr(ylabel), fontsize=S.LABEL_SIZE)
        updates = tr("updates, steps 0 to k only")
        for legend, words in ((self.upd_legend, (updates, tr("the cycle, once found"))),
                              (self.err_legend, (tr("current iterate (steps 0 to k only)"),
                                                 tr("pocket (best so far)"))),
                              (self.k_legend, (updates,))):
            for text, word in zip(legend.get_texts(), words, strict=True):
                text.set_text(word)

    # ------------------------------------------------------------------ tiles
    @property
    def tiles(self) -> list:
        """The axes of the 16 Boolean functions' tiles (the grid view), in function order;
        made, and laid out for the scene, the first time they are asked for."""
        if self._tiles is None:
            cells = self._tile_cells
            self._tiles = [self.fig.add_subplot(cells[1 + c // 4, c % 4]) for c in range(16)]
            self._tile_art = [self._make_tile(t) for t in self._tiles]
            for t in self._tiles:
                t.set_visible(self.view == "grid")
            if self.xor_scene is not None:
                self._layout_tiles(self.xor_scene)
        return self._tiles

    def _make_tile(self, ax):
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_aspect("equal", adjustable="box")
        pos = ax.scatter([], [], s=34, marker=S.POS_MARKER, c=S.POS, zorder=3)
        neg = ax.scatter([], [], s=34, marker=S.NEG_MARKER, c=S.NEG, zorder=3)
        (line,) = ax.plot([], [], color=S.LINE, lw=1.6)
        return pos, neg, line

    def tile_at(self, ax) -> int | None:
        """The function number of the tile drawn in ``ax`` (None if ``ax`` is no tile)."""
        made = self._tiles or []
        return made.index(ax) if ax in made else None

    # ------------------------------------------------------------------ layout
    def set_scene(self, scene: Scene, view: str) -> None:
        """Lay out a new scene (function, coding or settings changed) in ``view``."""
        if view not in VIEWS:
            raise ValueError(f"view must be one of {list(VIEWS)}; got {view!r}")
        self.xor_scene, self.view = scene, view
        X, y = scene.X, scene.y
        self.box = (-1.6, 1.6, -1.6, 1.6) if scene.coding == "pm1" else (-0.6, 1.6, -0.6, 1.6)
        xs = np.linspace(self.box[0], self.box[1], GRID_RES)
        ys = np.linspace(self.box[2], self.box[3], GRID_RES)
        self._sample = (xs, ys, *np.meshgrid(xs, ys))
        ax = self.ax
        ax.set_xlim(self.box[:2])
        ax.set_ylim(self.box[2:])
        self.image.set_extent(self.box)
        self.pos.set_offsets(X[y > 0] if np.any(y > 0) else np.zeros((0, 2)))
        self.neg.set_offsets(X[y < 0] if np.any(y < 0) else np.zeros((0, 2)))
        for t in self.numbers:
            t.remove()
        self.numbers = [ax.annotate(str(i + 1), x, xytext=(10, 10), textcoords="offset points",
                                    fontsize=S.TICK_SIZE + 1, color="#333333", zorder=6)
                        for i, x in enumerate(X)]
        f = function(scene.code)
        ax.set_title(tr("{name} ({bits}), inputs {coding}").format(
            name=f.name, bits=f.bits, coding="±1" if scene.coding == "pm1" else "0/1"),
                     fontsize=S.TITLE_SIZE, loc="left")
        self._label_run_panels()
        self._layout_cycling(scene)
        if self._tiles is not None:
            self._layout_tiles(scene)
        self.lifted.set_data(lift(X), y)
        names = [function(h).name for h in HIDDEN_PAIRS[scene.net.pair][1]]
        self.hidden.set_data(scene.net.H, y, names)
        run = scene.kernel
        self.duals.set_data(y, int(run.alphas.max()) if run.alphas.size else 1)
        ks = np.arange(run.n_steps + 1)
        self.stairs["kernel"] = staircase([run.updates_until(k) for k in ks])  # up to step k
        self.ax_kupd.set_xlim(0, max(run.n_steps, 1))
        self.ax_kupd.set_ylim(0, max(run.n_updates, 1) * 1.15)
        self._show_view()

    def _layout_cycling(self, scene: Scene) -> None:
        t = scene.run.trajectory
        n = t.n_steps
        ks = np.arange(n + 1)
        self.ax_upd.set_xlim(0, max(n, 1))
        self.ax_upd.set_ylim(0, max(t.n_updates, 1) * 1.15)
        W, B = t.states(ks)
        wrong = [int(np.sum(np.where(scene.X @ w + b >= 0, 1, -1) != scene.y)) for w, b in
                 zip(W, B, strict=True)]
        errs = np.asarray(t.errors) * len(scene.y)
        u = [t.updates_until(k) for k in ks]
        kept = [int(round(errs[: j + 1].min())) for j in u]
        # the whole run's curves, drawn up to the step shown (never beyond)
        self.stairs |= {"updates": staircase(u), "wrong_now": staircase(wrong),
                        "wrong_kept": staircase(kept)}
        self.ax_err.set_xlim(0, max(n, 1))
        self.ax_err.set_ylim(-0.2, len(scene.y) + 1.8)
        self.upd_cycle.set_visible(False)  # shown from the step where the run finds it
        info = scene.info
        if info.separable:
            value = info.bound.value
            most = None if value is None else int(np.floor(value + 1e-9))
            self.bound_note.set_text(
                tr("Separable: the perceptron stops.") if most is None else
                tr_n("Separable: the perceptron stops (Novikoff bound: at most {n} update)",
                     "Separable: the perceptron stops (Novikoff bound: at most {n} updates)",
                     most).format(n=most))
        elif info.separable is False:
            self.bound_note.set_text(tr("Bound: no margin exists (the hulls meet),\n"
                                        "so Novikoff's H²/γ² (Sayed Lemma 60.1) gives\n"
                                        "no limit: the updates never stop."))
        else:
            self.bound_note.set_text(tr("One class only: any line with all points on one "
                                        "side."))

    def _layout_tiles(self, scene: Scene) -> None:
        for code, (ax, (pos, neg, line)) in enumerate(zip(self.tiles, self._tile_art, strict=True)):
            X = scene.X
            y = FUNCTIONS[code].labels
            pos.set_offsets(X[y > 0] if np.any(y > 0) else np.zeros((0, 2)))
            neg.set_offsets(X[y < 0] if np.any(y < 0) else np.zeros((0, 2)))
            ax.set_xlim(self.box[:2])
            ax.set_ylim(self.box[2:])
            t = scene.grid[code].trajectory
            if t.converged:
                set_line(line, t.final_w, t.final_b, self.box)
                verdict = tr_n("✓ {n} upd.", "✓ {n} upd.", t.n_updates).format(n=t.n_updates)
            else:
                line.set_data([], [])
                verdict = tr("✗ cycles")
            ax.set_title(f"{FUNCTIONS[code].name}\n{verdict}", fontsize=S.TICK_SIZE - 1)
            sel = code == scene.code
            for side in ax.spines.values():
                side.set_linewidth(3.5 if sel else 0.8)
                side.set_edgecolor(S.TRIGGER if sel else "#999999")

    def set_view(self, view: str) -> None:
        """Switch the right-hand side (and the plane's overlays) to ``view``."""
        if view not in VIEWS:
            raise ValueError(f"view must be one of {list(VIEWS)}; got {view!r}")
        self.view = view
        self._show_view()

    def _show_view(self) -> None:
        v = self.view
        on = self.tiles if v == "grid" else {
            "cycling": [self.ax_upd, self.ax_err], "proof": [self.ax_text],
            "feature": [self.lifted.ax], "layers": [self.hidden.ax],
            "kernel": [self.duals.ax, self.ax_kupd]}[v]
        every = ([self.ax_upd, self.ax_err, self.ax_text, self.lifted.ax, self.hidden.ax,
                  self.duals.ax, self.ax_kupd] + (self._tiles or []))
        for a in every:
            a.set_visible(a in on)
        self.hull_pos.set_visible(False)
        self.hull_neg.set_visible(False)
        self.cert.set_visible(False)
        self._legend()
        self._animate_current()
        self.invalidate()

    def _legend(self) -> None:
        if self.legend is not None:
            self.legend.remove()
            self.legend = None
        v = self.view
        entries = [((self.pos, self.neg), tr("class +1 / −1 (f = 1 / 0)"))]
        if v != "proof":
            entries += [((Patch(facecolor=POS_TINT, edgecolor=S.POS),
                          Patch(facecolor=NEG_TINT, edgecolor=S.NEG)), tr("predicts +1 / −1"))]
        if v == "cycling":
            entries += [(self.line, tr("classic iterate")),
                        (self.line2, tr("pocket (best so far)")),
                        (self.ring, tr("point visited"))]
        elif v == "proof":
            if self.xor_scene is not None and self.xor_scene.separability.separable:
                entries += [(self.line, tr("LP's separating line"))]
            else:
                entries += [(_proxy(self.hull_pos), tr("hull of +1")),
                            (_proxy(self.hull_neg), tr("hull of −1")),
                            (_proxy(self.cert), tr("in both hulls"))]
        elif v == "grid":
            entries += [(self.line, tr("perceptron's final line"))]
        elif v == "feature":
            entries += [(self.curve, "w₁x₁ + w₂x₂ + w₃x₁x₂ + b = 0")]
        elif v == "layers":
            names = ([function(h).name for h in HIDDEN_PAIRS[self.xor_scene.net.pair][1]]
                     if self.xor_scene is not None else ["1", "2"])
            entries += [(self.line, tr("hidden h₁: {name}").format(name=names[0])),
                        (self.line2, tr("hidden h₂: {name}").format(name=names[1]))]
        else:
            entries += [(self.curve, tr("kernel boundary f = 0")),
                        (self.ring, tr("point visited"))]
        self._entries = entries
        self._lay_out()

    def _lay_out(self) -> None:
        """Share the room, the data plane first (:mod:`explorer.plots.room`): the plane as
        tall as the figure, its legend below it if there is room there, else beside it over
        the view's right-hand panels (one row of them, the :attr:`focus`, when two rows would
        be too short)."""
        fig, grid = self.fig, self.grid
        side = room.split(fig, grid, ratios=WIDTH_RATIOS)
        top = grid.get_subplot_params(fig).top
        room.place_planes(fig, [self.ax], side=side, top=top)
        where, legend = "", None
        if self._entries:
            where, legend = room.hang_legend(self.ax, self._legend_in, drop=LEGEND_DROP)
        self.legend = legend
        rows, crowded, row = room.arrange_side(
            fig, grid, self._side_axes(), top=top, side=side, focus=self.focus,
            legend=legend if where == "beside" else None)
        for tile in self._tiles or []:  # on a grid of their own in the right-hand columns
            tile.set_position(tile.get_subplotspec().get_position(fig))
        room.place_planes(fig, [self.ax], side=side, top=top)
        live.floor_legends(fig)
        self.room = room.Room(side=side, legend=where, rows=rows, crowded=crowded, row=row)

    def _side_axes(self) -> list:
        """The right-hand axes of the view shown (the tiles aside: a grid of their own)."""
        return {"cycling": [self.ax_upd, self.ax_err], "proof": [self.ax_text],
                "feature": [self.lifted.ax], "layers": [self.hidden.ax],
                "kernel": [self.duals.ax, self.ax_kupd], "grid": []}[self.view]

    def _legend_in(self, where: str, width: float):
        """The plane's legend ``where`` ("below" or "beside" it) in the fewest rows no wider
        than ``width`` px."""
        ax = self.ax
        handles, labels = zip(*self._entries, strict=True)
        legend = None
        for ncol in (3, 2, 1):
            old = ax.get_legend()
            if old is not None:
                old.remove()
            legend = ax.legend(handles, labels, ncol=ncol,
                               fontsize=S.legend_size(css_dpi(self.fig)), frameon=False,
                               handlelength=2.2, columnspacing=1.0,
                               handler_map={tuple: HandlerTuple(ndivide=None, pad=0.4)},
                               **{"borderaxespad": 0.5, **room.anchor(ax, where,
                                                                       drop=LEGEND_DROP)})
            if legend.get_window_extent(figure_renderer(self.fig)).width <= width:
                break
        return legend

    def side_rows(self) -> tuple:
        """The names of the right-hand panels' rows in the view shown (the choice a crowded
        figure offers)."""
        rows = {"cycling": (N_("Updates"), N_("Points wrong")),
                "kernel": (N_("Dual weights"), N_("Updates"))}.get(self.view, ())
        return tuple(tr(r) for r in rows)

    def set_focus(self, row: int) -> None:
        """The row of right-hand panels shown when the figure is too crowded for both (0: the
        top one, 1: the bottom one, in the cycling and kernel views); laid out again."""
        self.focus = int(row)
        self._lay_out()
        self._animate_current()
        self.invalidate()
        self.forget_page_scene()

    # ------------------------------------------------------------------ steps
    def _region(self, F) -> None:
        self.image.set_data(region_rgba(F))

    def _grid(self):
        """The region image's sample points: ``xs``, ``ys`` and their mesh ``gx``, ``gy``."""
        return self._sample

    def _linear(self, w, b) -> None:
        xs, ys, gx, gy = self._grid()
        self._region(w[0] * gx + w[1] * gy + b)
        set_line(self.line, w, b, self.box)

    def show(self, k: int) -> str:
        """Draw step ``k`` of the view's run (its parts, :mod:`explorer.plots.xor_parts`);
        returns the narration."""
        sc = self.xor_scene
        for art in (self.line, self.line2, self.ring):
            art.set_data([], [])
        self.curve.set_segments([])
        if self.view not in STEPPED:
            return getattr(self, f"_show_{self.view}")(sc, int(k))
        parts, text = self.step_parts(k)
        if self.view == "layers":
            self._still_layers(sc)
        self.apply(parts)
        return text

    # ------------------------------------------------------------------ live drawing
    def _moving(self) -> dict:
        """The artists each view moves with the step (blitted over a cached background)."""
        # the points and their numbers are redrawn over the moving tint, as in a full draw
        plane = [self.image, self.line, self.line2, self.curve, self.ring, self.pos, self.neg,
                 *self.numbers]
        # the "so far" curves grow with the step; the legends and the bound's note they may
        # pass under are redrawn over them, as in a full draw
        return {"cycling": plane + [self.upd_cycle, self.upd_curve, self.upd_dot, self.upd_note,
                                    self.upd_legend, self.bound_note, self.err_now,
                                    self.err_kept, self.err_cursor, self.err_legend],
                "kernel": plane + list(self.duals.bars) + self.duals.values + [
                    self.k_curve, self.k_dot, self.k_legend],
                "layers": plane + [self.hidden.image, self.hidden.line, self.hidden.pos,
                                   self.hidden.neg, *self.hidden.labels]}

    def dynamic_artists(self) -> list:
        """The artists that move with the step in the current view (blitted exports). The
        lifted view has none: each of its steps is a full draw."""
        if not self.blit:
            return []
        shown = [a for a in self._moving().get(self.view, [])
                 if a.axes is None or a.axes.get_visible()]  # a crowded figure hides a row
        return sorted(shown, key=lambda a: a.get_zorder())

    def render(self, k: int):
        """Draw step ``k`` (see :meth:`explorer.plots.live.LiveFigure.render`); the lifted view
        and the views without a run are drawn whole."""
        if self.view not in self._moving():
            self.invalidate()
        return super().render(k)

    def _animate_current(self) -> None:
        for arts in self._moving().values():
            for a in arts:
                a.set_animated(False)
        for a in self.dynamic_artists():
            a.set_animated(True)

    def fit(self, width: int, height: int, *, scale: float = 1.0, base_dpi: float = 80) -> None:
        """Resize to ``width`` × ``height`` CSS pixels (see :func:`explorer.plots.live.resize`)."""
        live.resize(self.fig, width, height, scale=scale, base_dpi=base_dpi)
        self.invalidate()
        self.forget_page_scene()  # a page scene describes one size
        if self.xor_scene is not None:
            self._legend()
        else:
            self._lay_out()

