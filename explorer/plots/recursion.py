"""Cover's recursion filling its table, drawn: the picture of the Cover tab's recursion view.

The page shows the table as HTML (selectable text, read as a table by screen readers); this
figure draws the same table with matplotlib for its exports (PNG, SVG, and a GIF or HTML page
of the table filling in). Step ``k`` shows the edges ``S(M, 1) = 2`` and ``S(0, N) = 2`` and
the first ``k`` interior cells filled by Sayed's (60.73), ``S(M, N + 1) = S(M, N) +
S(M − 1, N)`` (the step of Cover's (1965) proof); the cell just filled is outlined in yellow,
its two summands shaded blue, as on the page.
"""

from __future__ import annotations

from matplotlib.patches import Rectangle

from ..cover import RecursionTable
from ..shared.i18n import N_, tr
from . import live
from . import style as S
from .page_figure import new_figure
from .recursion_scene import (
    EDGE,
    HEAD,
    NOW,
    SOURCE,
    TODO,
    RecursionPage,
    interior_cells,
    recursion_text,
)

__all__ = ["RecursionFigure"]

FIGSIZE = (13.0, 6.8)
TITLE = N_("S(M, N), filled by S(M, N + 1) = S(M, N) + S(M − 1, N)  (Sayed (60.73))")
NOTE = N_("Grey: the edges S(M, 1) = 2 and S(0, N) = 2. Outlined: the cell just filled; shaded: "
          "its two summands. Where N ≤ M + 1 every dichotomy is separable: S = 2ᴺ "
          "(Sayed (60.77)).")


class RecursionFigure(RecursionPage):
    """The table ``S(M, N)`` at step ``k`` of the recursion.

    :meth:`render` draws the whole figure once, then only the cells a step changes (a step
    fills one cell and moves the highlight; drawing all of a 10 × 24 table takes half a
    second, a step's cells a few milliseconds). The cell just filled is outlined by a
    rectangle of its own, drawn over its neighbours, so both ways draw the same picture.

    Parameters
    ----------
    fig : matplotlib Figure, optional
        An empty figure; by default a new one not tied to pyplot.
    """

    def __init__(self, fig=None, *, figsize=FIGSIZE, dpi: float = 80):
        self.fig = new_figure(fig, figsize=figsize, dpi=dpi)
        self.ax = self.fig.add_axes([0.02, 0.1, 0.96, 0.8])
        self.ax.set_axis_off()
        self.ax.set_title(tr(TITLE), fontsize=S.TITLE_SIZE, loc="left")
        self.note = self.ax.text(0.0, -0.03, tr(NOTE), transform=self.ax.transAxes, va="top",
                                 ha="left", fontsize=S.TICK_SIZE, color="#333333", wrap=True)
        self.outline = Rectangle((0, 0), 0, 0, transform=self.ax.transAxes, fill=False,
                                 edgecolor="#000000", linewidth=2.5, zorder=5, visible=False)
        self.ax.add_patch(self.outline)
        self.grid = None
        self.table = None
        self._now = None  # (row, column) of the table outlined
        self._now_k = None  # the step shown (None: none since the table was laid out)
        self._state = {}  # (row, column) of the table -> what that cell shows
        self._changed = set()  # cells whose look changed since the last render
        self._init_live(False)

    def set_table(self, t: RecursionTable) -> None:
        """Lay out the table of ``t`` (every cell empty until :meth:`show`)."""
        if not isinstance(t, RecursionTable):
            raise TypeError(f"expected a RecursionTable; got {type(t).__name__}")
        self.table = t
        self.ax.set_title(tr(TITLE), fontsize=S.TITLE_SIZE, loc="left")  # the language now
        self.note.set_text(tr(NOTE))
        if self.grid is not None:
            self.grid.remove()
        rows, cols = t.M_max + 1, t.N_max
        # the row labels are a column of ordinary cells: every column has the same width at
        # any resolution (an automatic label column is measured at each draw)
        self._state, self._changed, self._now, self._now_k = {}, set(), None, None
        self.forget_page_scene()
        self.outline.set_visible(False)
        self.grid = self.ax.table(cellText=[[f"M = {m}"] + [""] * cols for m in range(rows)],
                                  colLabels=[""] + [f"N = {N}" for N in range(1, cols + 1)],
                                  cellLoc="center", colLoc="center", bbox=[0, 0, 1, 1])
        self.grid.auto_set_font_size(False)
        for (r, c), cell in self.grid.get_celld().items():
            cell.set_edgecolor("#BBBBBB")
            if r == 0 or c == 0:
                cell.set_facecolor(HEAD)
                cell.get_text().set_fontweight("bold")
        self._type_size()
        self.invalidate()

    def _type_size(self) -> None:
        """The largest type (at most the tick size) at which the widest number fits a cell."""
        if self.grid is None:
            return
        t = self.table
        digits = max(len(str(int(t.S.max()))), len("N = 24"))
        cell = self.ax.get_position().width * self.fig.get_size_inches()[0] / (t.N_max + 1)
        size = max(5.0, min(float(S.TICK_SIZE), 0.85 * cell * 72 / (0.62 * digits)))
        self.grid.set_fontsize(size)

    def show(self, k: int) -> str:
        """Fill the edges and the first ``k`` interior cells; returns the narration."""
        t = self.table
        cells = interior_cells(t)
        k = int(min(max(k, 0), len(cells)))
        filled = set(cells[:k])
        now = cells[k - 1] if k else None
        src = {(now[0], now[1] - 1), (now[0] - 1, now[1] - 1)} if now else set()
        for m in range(t.M_max + 1):
            for N in range(1, t.N_max + 1):
                edge = t.is_edge(m, N)
                known = edge or (m, N) in filled
                look = (f"{t.S[m, N - 1]:,}" if known else "·",
                        EDGE if edge else "#000000" if known else TODO,
                        "bold" if (m, N) == now else "normal",
                        NOW if (m, N) == now else SOURCE if (m, N) in src else "white")
                key = (m + 1, N)
                if self._state.get(key) == look:
                    continue
                self._state[key] = look
                self._changed.add(key)
                cell = self.grid[key]
                text = cell.get_text()
                text.set_text(look[0])
                text.set_color(look[1])
                text.set_fontweight(look[2])
                cell.set_facecolor(look[3])
        old, self._now = self._now, None if now is None else (now[0] + 1, now[1])
        self._now_k = k
        self.outline.set_visible(now is not None)
        if now is not None:  # the table fills its axes in equal rows and columns, header on top
            rows, cols = t.M_max + 2, t.N_max + 1
            self.outline.set_bounds(now[1] / cols, 1 - (now[0] + 2) / rows, 1 / cols, 1 / rows)
        for r, c in {old, self._now} - {None}:  # the outline covers its neighbours' edges
            self._changed |= {(r + i, c + j) for i in (-1, 0, 1) for j in (-1, 0, 1)
                              if (r + i, c + j) in self.grid.get_celld()}
        return recursion_text(t, k)

    def render(self, k: int) -> str:
        """Draw step ``k``: the whole figure the first time (or after :meth:`invalidate`),
        then only the cells that changed, and the outline over them."""
        text = self.show(k)
        if self._background is None:
            self.fig.canvas.draw()
            self._background = "drawn"
        else:
            for key in sorted(self._changed):
                self.fig.draw_artist(self.grid[key])
            if self.outline.get_visible():
                self.fig.draw_artist(self.outline)
        self._changed = set()
        return text

    def dynamic_artists(self) -> list:
        return []  # a step changes most cells: each is drawn whole

    def fit(self, width: int, height: int, *, scale: float = 1.0, base_dpi: float = 80) -> None:
        """Size the figure to ``width`` × ``height`` CSS px with type ``scale`` times its size."""
        live.resize(self.fig, width, height, scale=scale, base_dpi=base_dpi)
        pt = self.fig.dpi / 72
        H = self.fig.bbox.height
        top = 1 - (S.TITLE_SIZE + 14) * pt / H
        bottom = (3 * S.TICK_SIZE + 12) * pt / H
        self.ax.set_position([0.02, bottom, 0.96, top - bottom])
        self._type_size()
        self.invalidate()
