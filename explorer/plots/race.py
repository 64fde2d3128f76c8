"""Rules racing in sync: one data plane per rule side by side, and their updates on one axis.

The figure of a :class:`~explorer.perceptron.race.Race`: each rule's plane is the Perceptron tab's
:class:`~explorer.plots.plane.DataPlane` (boundary now and before, its normal, the update, the
visited point's ring, the margin band or the pocket/averaged line), all on the same limits, with
the rule's updates and mistakes so far over it ("13 updates · 5 mistakes": a mistake is a
visited point with ``y·f(x) <= 0``, and the margin rules also update on points classified
right); below, every rule's updates against the step, as in the Perceptron tab's progress
panel, each its own colour and dash (they read in greyscale), up to the step shown only
(``S.SO_FAR``).

Data of more than two features (three too: a race has no 3-D view) are drawn as the Perceptron
tab draws one run of them (:mod:`explorer.plots.plane_of_w`): each rule's plane is, at every
step, the plane that contains that rule's own ``w`` (the boundary a true line, every point's
distance along ``w`` exact), so the points move with each rule's updates, differently in each
plane; the planes share one box holding the points in all of them.

Like :class:`~explorer.plots.figure.PerceptronFigure` it is drawn by matplotlib as whole frames
(exports) and described for the page (:meth:`RaceFigure.scene`, :meth:`RaceFigure.chunk`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from matplotlib.transforms import offset_copy

from ..perceptron.race import Race, race_frame, race_text
from ..perceptron.rules import RULES
from ..shared.i18n import N_, tr, tr_n
from . import layers, live, plane_parts
from . import style as S
from .page_figure import PageFigure, new_figure
from .plane import DataPlane, data_box
from .plane_of_w import PlaneOfW
from .progress import so_far, staircase
from .scene import FIGURE, Track
from .tracks import css_dpi, figure_renderer, line_style, text_style

FIGSIZE = (13.0, 6.8)
#: Colour and dash of each racer, in order: none of the planes' own colours (classes, update,
#: visited point, pocket line), and the dashes tell them apart in greyscale.
RACER_STYLES = (("#222222", "-"), ("#5E3C99", "--"), ("#8C510A", "-."), ("#666666", ":"))
#: The page's two still layers split here, as in the Perceptron figure.
SPLIT_Z = 2.5
#: Points between a plane's top and its moving status line.
STATUS_GAP = 3.0
#: Points over a plane's title row for its status line.
STATUS_ROOM = S.TEXT_SIZE * 1.25 + 2 * STATUS_GAP
#: The mistakes panel's least size (points): its height under a row of planes, its width in
#: a column beside them.
MISTAKES_TALL = 60
MISTAKES_WIDE = 110
#: Points between two planes side by side (they share their limits: the y axis is labelled
#: on the left plane of a row only).
PLANE_GAP = 14


def status_room(rows: int) -> float:
    """Points over a plane's title row for its status line in the form ``rows``
    (:meth:`RaceFigure.status_line`: 1, one row; 2 and 3, two rows)."""
    return S.TEXT_SIZE * 1.25 * min(rows, 2) + 2 * STATUS_GAP


def arrangements(W: float, H: float, pt: float, n: int, *, status: float = STATUS_ROOM) -> list:
    """Where a race's ``n`` square planes and its mistakes panel go in a ``W`` × ``H`` px
    figure (``pt`` px per point), each way: ``(name, side, [(x, y) of each plane's lower left
    corner], (x, y, w, h) of the mistakes axes, room for a plane's title)``, px from the
    lower left. Margins and gaps
    are those of :func:`explorer.plots.live.margins_in_points` (type keeps its size in
    points): "row", the planes over the mistakes; "column", the planes as tall as the figure
    with the mistakes at their right; "grid" (3 or 4 planes), two rows of planes with the
    mistakes at their right. ``status``: points over each plane's title row for its status
    line (:func:`status_room`)."""
    left = (S.TICK_SIZE * 2.6 + S.LABEL_SIZE + 12) * pt
    right = S.TICK_SIZE * 1.8 * pt
    top = H - (S.TITLE_SIZE + 10 + status) * pt
    bottom = (S.TICK_SIZE + S.LABEL_SIZE + 16) * pt
    gap_w = (S.TICK_SIZE * 2.6 + S.LABEL_SIZE + 20) * pt
    gap_h = (S.TICK_SIZE + S.LABEL_SIZE + S.TITLE_SIZE + 22) * pt
    shared = PLANE_GAP * pt  # between two planes of a row: the right one's y axis unlabelled
    wide, tall = W - right - left, top - bottom
    out = []
    # a row of planes over the mistakes, each plane centred in its column
    col = (wide - (n - 1) * shared) / n
    side = max(min(col, tall - gap_h - MISTAKES_TALL * pt), 1.0)
    places = [(left + i * (col + shared) + (col - side) / 2, top - side) for i in range(n)]
    out.append(("row", side, places, (left, bottom, wide, top - side - gap_h - bottom),
                col + shared))
    # planes in k columns of `rows` rows, the mistakes in a column at their right
    for name, rows in (("column", 1), ("grid", 2)):
        k = -(-n // rows)
        if rows > 1 and n < 3:
            continue
        row_gap = gap_h + status * pt
        side = max(min((tall - (rows - 1) * row_gap) / rows,
                       (wide - (k - 1) * shared - gap_w - MISTAKES_WIDE * pt) / k), 1.0)
        places = [(left + (i % k) * (side + shared), top - side - (i // k) * (side + row_gap))
                  for i in range(n)]
        x = left + k * side + (k - 1) * shared + gap_w
        out.append((name, side, places, (x, bottom, left + wide - x, tall), side + shared))
    return out


def plane_texts(M: int) -> tuple[str, str, str]:
    """A racer's plane's title after its rule's name, and its x and y labels, for ``M``
    features: for more than two, each plane is its own ``w``'s (exact distances along ``w``;
    the narration writes the points' ``M`` components). The title's words go, in every plane,
    when one plane's column is too narrow for them (:meth:`RaceFigure._lay_out`)."""
    if M <= 2:
        return "", "x₁", "x₂"
    return tr("plane of its w"), tr("along w (exact distance)"), tr("across w")


def shared_box(boxes) -> tuple[float, float, float, float]:
    """The smallest square box holding every box of ``boxes`` ``(xmin, xmax, ymin, ymax)``,
    centred on their union (planes side by side share their limits and one y axis)."""
    b = np.asarray(boxes, dtype=float)
    lo_x, hi_x, lo_y, hi_y = b[:, 0].min(), b[:, 1].max(), b[:, 2].min(), b[:, 3].max()
    half = max(hi_x - lo_x, hi_y - lo_y) / 2
    cx, cy = (lo_x + hi_x) / 2, (lo_y + hi_y) / 2
    return (cx - half, cx + half, cy - half, cy + half)


def plane_name(i: int) -> str:
    """The page's name of racer ``i``'s plane: the first is "plane", where clicks edit data."""
    return "plane" if i == 0 else f"plane{i + 1}"


class RaceFigure(PageFigure):
    """Planes of 2 to 4 rules in a row above their updates; :meth:`show` draws step ``k``.

    Parameters
    ----------
    fig : matplotlib Figure, optional
        An empty figure; by default a new one on its own Agg canvas.
    """

    split_z = SPLIT_Z

    def __init__(self, fig=None, *, figsize=FIGSIZE, dpi: float = 80, blit: bool = False):
        # a figure given keeps its size (the tab's: its layout follows at the first fit)
        self.fig = new_figure(fig, figsize=None if fig is not None else figsize, dpi=dpi,
                              canvas=fig is None)
        self.race = None
        #: Each racer's :class:`~explorer.plots.plane_of_w.PlaneOfW` (data of more than two
        #: features), else None.
        self.walls = None
        self.ylabel = "x₂"  # the left planes' y label (plane_texts)
        self.titles = []
        self.arrangement = "row"  # where the planes and the mistakes went (arrangements)
        self.planes = []
        self.status = []
        self.curves = []
        self.stairs = []
        self.edited = False
        self.status_rows = 1  # the form of the planes' lines (status_line): by the columns' width
        #: The first rule's :func:`~explorer.perceptron.replay.describe_run`, when known: the narration's
        #: last step then says what more epochs would do with the data's separability verdict.
        self.info = None
        self._anchors = []
        self._init_live(blit)

    @property
    def traj(self):
        """The first rule's run (None before :meth:`set_race`): what the tab's figure has."""
        return None if self.race is None else self.race.runs[0]

    @property
    def plane(self) -> DataPlane:
        """The first rule's plane (clicks in the page edit its data)."""
        return self.planes[0]

    # ------------------------------------------------------------------ layout
    def set_race(self, race: Race) -> None:
        """Lay the figure out for ``race`` (the only place artists are made)."""
        self.race = race
        fig = self.fig
        fig.clear()
        n = len(race.rules)
        self.grid = fig.add_gridspec(2, n)  # where the axes are made; _lay_out places them
        X, y = race.X, race.y
        M = X.shape[1]
        self.walls = [PlaneOfW(t, X) for t in race.runs] if M > 2 else None
        box = data_box(X) if self.walls is None else shared_box([w.box for w in self.walls])
        about, xlabel, self.ylabel = plane_texts(M)
        self.planes, self.status, self.curves, self.stairs = [], [], [], []
        self.titles = []  # each plane's whole title (_lay_out fits it to its column)
        for i, (rule, traj) in enumerate(zip(race.rules, race.runs, strict=True)):
            color, _ = RACER_STYLES[i]
            # the brackets go first when the title is too wide for its column (fit_title)
            title = tr(RULES[rule].title) + (f" ({about})" if about else "")
            self.titles.append(title)
            plane = DataPlane(fig.add_subplot(self.grid[0, i]), title=title)
            plane.ax.set_title(title, loc="left", fontsize=S.TITLE_SIZE,
                               color=color, pad=STATUS_ROOM)
            if self.walls is None:
                plane.set_data(X, y, box=box)
            else:  # the points where racer i's first plane shows them; they move (parts)
                plane.set_data(self.walls[i].coords(0), y, box=box, moving=True)
            plane.ax.set_xlabel(xlabel, fontsize=S.LABEL_SIZE)
            kept = rule if rule in ("pocket", "averaged") else None
            plane.set_overlays(X, y, band=traj.threshold if traj.threshold != 0 else None,
                               kept_kind=kept, batch=traj.params.get("batch_size", 1) > 1)
            plane.legend.remove()  # the Perceptron tab's legend explains the same marks
            plane.legend, plane.kept_text = None, None
            at = offset_copy(plane.ax.transAxes, fig=fig, y=STATUS_GAP, units="points")
            self.status.append(plane.ax.text(0.0, 1.0, "", transform=at, ha="left",
                                             va="bottom", fontsize=S.TEXT_SIZE, color="#333333"))
            self.planes.append(plane)
        ax = fig.add_subplot(self.grid[1, :])
        # the rules' names stand in the title's row (a legend), the y label says what is counted:
        # updates, as the Perceptron tab's progress panel (the planes say the mistakes too)
        S.style_axes(ax, title="", xlabel=N_("step"), ylabel=N_("updates"))
        self.mistakes_ax = ax
        for i, traj in enumerate(race.runs):
            color, dash = RACER_STYLES[i]
            (curve,) = ax.plot([], [], color=color, ls=dash, lw=2.4, zorder=3,
                               label=tr(RULES[traj.rule].title))
            self.stairs.append(staircase(traj.update_steps))
            self.curves.append(curve)
        self.cursor = ax.axvline(0, color=S.LINE, lw=1.2, alpha=0.6, zorder=4)
        right = max(race.n_steps, 1)
        top = max(max(t.n_updates for t in race.runs), 1)
        ax.set_xlim(0, right * 1.02)
        ax.set_ylim(0, top * 1.12 + 0.3)
        self._lay_out()
        for a in self.dynamic_artists():
            a.set_animated(self.blit)

    def fit(self, width: int, height: int, *, scale: float = 1.0, base_dpi: float = 80) -> None:
        """Resize to ``width`` × ``height`` CSS px, type ``scale`` times its designed size."""
        live.resize(self.fig, width, height, scale=scale, base_dpi=base_dpi)
        self._lay_out()

    def _lay_out(self) -> None:
        """Margins in points, square planes as large as the figure allows, titles that fit
        their column (a race's layout at the figure's size).

        Three arrangements are measured (:func:`arrangements`): the planes in a row over the
        mistakes; the planes in a row, as tall as the figure, with the mistakes in a column
        at their right; three or four planes in two rows with the mistakes at their right.
        The one whose planes are largest is used (the first on a tie)."""
        self.forget_page_scene()
        self._background = None
        if self.race is None:
            return
        fig = self.fig
        W, H = fig.bbox.width, fig.bbox.height
        pt = fig.dpi / 72
        n = len(self.planes)

        def largest(rows):
            return max(arrangements(W, H, pt, n, status=status_room(rows)),
                       key=lambda a: a[1] + 1e-6 * (a[0] == "row"))

        # a plane's line ("13 updates · 5 mistakes · converged") in two rows when it would be
        # wider than the plane's column, with room for them above the planes, under their
        # titles; in a narrower column still, the counts alone ("13 updates", "5 mistakes":
        # where the rule stopped is the end of its curve, and the narration says it)
        best = largest(1)
        self.status_rows = 1
        if self._status_width(1) > best[4]:
            best = largest(2)
            self.status_rows = 2 if self._status_width(2) <= best[4] else 3
        self.arrangement, side, places, mistakes, title = best
        room = status_room(self.status_rows)
        for i, p in enumerate(self.planes):
            p.ax.set_title(self.titles[i], loc="left", fontsize=S.TITLE_SIZE,
                           color=RACER_STYLES[i][0], pad=room)
        first = min(x for x, _ in places)
        for plane, (x, y) in zip(self.planes, places, strict=True):
            plane.ax.set_position([x / W, y / H, side / W, side / H])
            labelled = abs(x - first) < 1  # the planes share their limits: one y axis a row
            plane.ax.tick_params(labelleft=labelled)
            plane.ax.set_ylabel(self.ylabel if labelled else "")
        x, y, w, h = mistakes
        self.mistakes_ax.set_position([x / W, y / H, w / W, max(h, 1.0) / H])
        # its legend over its top: the rules in one row under a row of planes; beside them,
        # one a line, in the rules' first words if their names are wider than the column
        renderer = figure_renderer(fig)
        column = self.arrangement != "row"
        for short in ((False, True) if column else (False,)):
            legend = self._mistakes_legend(1 if column else n, short=short)
            if legend.get_window_extent(renderer).width <= W - x - 2:
                break
        if column:  # the rows it needs over the axes' top
            lift = legend.get_window_extent(renderer).height \
                - (S.TITLE_SIZE + 10 + room) * pt
            h -= max(lift, 0.0)
            self.mistakes_ax.set_position([x / W, y / H, w / W, max(h, 1.0) / H])
        live.floor_legends(fig)
        for p in self.planes:
            live.fit_title(p.ax, size=S.TITLE_SIZE, width=title)
        cut = [p.ax.get_title(loc="left") != t for p, t in zip(self.planes, self.titles,
                                                                 strict=True)]
        for i, (p, t) in enumerate(zip(self.planes, self.titles, strict=True)):
            if any(cut) and " (" in t:  # the words in brackets go in every plane, or none
                p.ax.set_title(t[: t.index(" (")], loc="left", fontsize=S.TITLE_SIZE,
                               color=RACER_STYLES[i][0], pad=room)
                live.fit_title(p.ax, size=S.TITLE_SIZE, width=title)
            p.measure()

    def _mistakes_legend(self, ncols: int, *, short: bool = False):
        """The mistakes panel's legend (the rules' names, over its top) in ``ncols`` columns;
        ``short``: each rule's first word ("Classic", "Margin")."""
        ax = self.mistakes_ax
        old = ax.get_legend()
        if old is not None:
            old.remove()
        names = [tr(RULES[t.rule].title) for t in self.race.runs]
        if short:
            names = [name.split()[0] for name in names]
        return ax.legend(self.curves, names, loc="lower left", bbox_to_anchor=(0.0, 1.0),
                         fontsize=max(S.TICK_SIZE, S.legend_size(css_dpi(self.fig))),
                         ncols=ncols, frameon=False, borderaxespad=0.2, handlelength=2.6)

    # ------------------------------------------------------------------ steps
    def frames(self, k: int) -> list:
        """Each rule's :class:`~explorer.perceptron.replay.StepFrame` at step ``k``."""
        return [race_frame(self.race, i, k) for i in range(len(self.planes))]

    def status_line(self, i: int, k: int, *, rows: int | None = None) -> str:
        """Racer ``i``'s line over its plane at step ``k``: updates and mistakes so far
        ("13 updates · 5 mistakes"), and where it stopped, in the form ``rows`` (default: as
        laid out, :attr:`status_rows`): 1, one row; 2, the state on a row of its own; 3, the
        counts alone, on two rows."""
        traj = self.race.runs[i]
        u = traj.updates_until(min(int(k), traj.n_steps))
        m = self.race.mistakes(k)[i]
        parts = [tr_n("{n} update", "{n} updates", u).format(n=u),
                 tr_n("{n} mistake", "{n} mistakes", m).format(n=m)]
        rows = rows or self.status_rows
        if rows == 3:  # a narrow column: the counts alone, one to a row
            return "\n".join(parts)
        if k >= traj.n_steps:  # where: the end of its curve, and the narration
            parts.append(tr("converged") if traj.converged else tr("stopped"))
        if rows == 1:
            return " · ".join(parts)
        return "\n".join([" · ".join(parts[:2]), *parts[2:]])

    def _status_width(self, rows: int) -> float:
        """The widest row of the planes' lines in ``rows`` rows (at the race's end: the
        largest counts), in pixels."""
        renderer = figure_renderer(self.fig)
        wide = 0.0
        for i, text in enumerate(self.status):
            for row in self.status_line(i, self.race.n_steps, rows=rows).split("\n"):
                text.set_text(row)
                wide = max(wide, text.get_window_extent(renderer).width)
            text.set_text("")
        return wide

    def parts(self, k: int, frames: list | None = None) -> dict:
        """Every moving part at step ``k``: ``{track name: {array name: value}}``; ``frames``:
        :meth:`frames` at ``k``, if the caller has them already."""
        out = {}
        frames = self.frames(k) if frames is None else frames
        for i, (plane, f) in enumerate(zip(self.planes, frames, strict=True)):
            for name, part in plane_parts.parts(plane, **self.in_plane(i, f)).items():
                out[f"r{i}_{name}"] = part
            at = self._anchors[i] if i < len(self._anchors) else (np.nan, np.nan)
            out[f"r{i}_status"] = {"xy": np.asarray(at, dtype=float),
                                   "text": self.status_line(i, k), "ha": "left", "va": "bottom"}
            out[f"m{i}"] = so_far(min(k, self.race.runs[i].n_steps), f.n_updates)
        out["m_cursor"] = {"x": float(k)}
        return out

    def in_plane(self, i: int, f) -> dict:
        """:func:`explorer.plots.plane_parts.parts`' arguments for racer ``i``'s frame ``f``:
        the frame itself (two features), or the frame, the points and the origin in the
        plane of racer ``i``'s ``w`` at that step (more; a stopped racer keeps its last
        plane)."""
        if self.walls is None:
            return {"f": f}
        pl = self.walls[i]
        k = min(int(f.k), pl.traj.n_steps)
        mapped = pl.map_frame(replace(f, k=k))
        return {"f": replace(mapped, k=f.k), "coords": pl.coords(k), "origin": pl.origin(k)}

    def show(self, k: int) -> str:
        """Move every artist to step ``k``; returns the narration."""
        p, text = self.page_step(k)
        self.apply(p)
        return text

    def narration(self, k: int, frames: list | None = None) -> str:
        """The race's narration at step ``k`` (:func:`explorer.perceptron.race.race_text`, with
        :attr:`info`); ``frames``: :meth:`frames` at ``k``, if the caller has them."""
        return race_text(self.race, k, frames=frames, info=self.info)

    def dynamic_artists(self) -> list:
        arts = [a for p in self.planes for a in p.dynamic_artists()]
        arts += [*self.status, *self.curves, self.cursor]
        return sorted(arts, key=lambda a: a.get_zorder())

    # ------------------------------------------------------------------ page-drawn figure
    def track_artists(self) -> dict:
        out = {}
        for i, plane in enumerate(self.planes):
            out.update({f"r{i}_{n}": a for n, a in plane_parts.artists(plane).items()})
            out[f"r{i}_status"] = self.status[i]
            out[f"m{i}"] = self.curves[i]
        out["m_cursor"] = self.cursor
        return out

    def page_tracks(self, pt: float) -> list:
        out = []
        for i, plane in enumerate(self.planes):
            for t in plane_parts.tracks(plane, pt):
                out.append(replace(t, name=f"r{i}_{t.name}", panel=plane_name(i)))
            out.append(Track(f"r{i}_status", FIGURE, "text", z=6.0,
                             style=text_style(self.status[i], pt)))
            out.append(Track(f"m{i}", "mistakes", "prefix", z=3.0,
                             style=line_style(self.curves[i], pt),
                             data={"data": self.stairs[i]}))
        out.append(Track("m_cursor", "mistakes", "vline", z=4.0,
                         style=line_style(self.cursor, pt)))
        return out

    def page_missing(self) -> str:
        return "a race: call set_race first" if self.race is None else ""

    @property
    def n_steps(self) -> int:
        return 0 if self.race is None else int(self.race.n_steps)

    def page_panels(self, *, width: float, height: float) -> tuple:
        """Each rule's plane, then the mistakes; the planes' lines are anchored over them."""
        panels = [layers.panel(p.ax, plane_name(i), width=width, height=height)
                  for i, p in enumerate(self.planes)]
        panels.append(layers.panel(self.mistakes_ax, "mistakes", width=width, height=height))
        pt = css_dpi(self.fig) / 72.0
        self._anchors = [(p.x, p.y - STATUS_GAP * pt) for p in panels[:-1]]
        return tuple(panels)

    def page_step(self, k: int) -> tuple[dict, str]:
        frames = self.frames(k)  # each rule's frames, once a step
        return self.parts(k, frames), self.narration(k, frames)

    def page_status(self, k: int) -> str:
        return self.status_text(k)

    def status_text(self, k: int) -> str:
        """The timeline's status line at step ``k``."""
        r = self.race
        counts = " · ".join(f"{tr(RULES[t.rule].title).split()[0].lower()} {u} ({m})"
                            for t, u, m in zip(r.runs, r.updates(k), r.mistakes(k), strict=True))
        n = len(r.y)
        points = (tr_n("{n} point (edited)", "{n} points (edited)", n) if self.edited else
                  tr_n("{n} point", "{n} points", n)).format(n=n)
        return " · ".join([tr("step {k} of {n}").format(k=k, n=r.n_steps),
                           tr("updates (mistakes): {counts}").format(counts=counts), points])

    def own_words(self) -> None:
        """The rules' names and the planes' words are set when the race is laid out: laid out
        again in the page's language."""
        if getattr(self, "race", None) is not None:
            self.set_race(self.race)
