"""The recursion table as the page draws it (see :mod:`explorer.plots.scene`): the table's
grid and headers are the still ``below`` layer, the numbers of its edges ``S(M, 1) = 2``,
``S(0, N) = 2`` the ``above`` layer (over the shading of a summand); step ``k`` of Sayed's
(60.73) moves the tracks.

Tracks, in the panel ``"table"`` whose data coordinates are the axes' fractions (the table
fills its axes in equal rows and columns, the header row on top):

* ``now_fill``, ``source_0``, ``source_1``: the cell just filled (yellow) and its two summands
  (blue), polygons under the numbers;
* ``todo``: a "·" in every cell not filled yet (one text track a cell: ``todo_M_N``);
* ``cell_M_N``: the number of a filled cell (hidden while it is the cell just filled);
* ``now``: the number just filled, in bold; ``outline``: its black outline, over all.

:class:`RecursionPage` declares them for :class:`~explorer.plots.page_figure.PageFigure`,
which writes the scene and the chunks; :class:`explorer.plots.recursion.RecursionFigure` draws
the same step as a matplotlib table of its own (tests/test_cover_scene.py and
tests/test_page_figures_agree.py check the two agree).
"""

from __future__ import annotations

import numpy as np

from ..cover import RecursionTable
from ..cover.counting import cover_count
from ..shared.i18n import tr, tr_n
from . import layers
from . import style as S
from .page_figure import PageFigure
from .scene import Track
from .tracks import NAN2, hex_alpha, text_style

NOW, SOURCE, EDGE, TODO, HEAD = S.CERT, "#D6ECF8", "#555555", "#999999", "#EEEEEE"


def interior_cells(t: RecursionTable) -> list[tuple[int, int]]:
    """The cells ``(M, N)`` the recursion fills, in order (step ``k`` fills the ``k``-th)."""
    return [(m, N) for m, N in t.order if not t.is_edge(m, N)]


def recursion_status(k: int, n: int) -> str:
    """The status line at step ``k`` of ``n``."""
    return tr_n("{k} of {n} cell filled by the recursion (60.73)",
                "{k} of {n} cells filled by the recursion (60.73)", n).format(k=k, n=n)


def recursion_text(t: RecursionTable, k: int) -> str:
    """The narration of step ``k``: the sum that filled the last cell, against Cover's closed
    form (Sayed (60.65))."""
    if k == 0:
        return tr("The edges are filled: S(M, 1) = 2 and S(0, N) = 2. Step to fill each cell "
                  "from the two cells to its left: S(M, N + 1) = S(M, N) + S(M − 1, N) "
                  "(Sayed (60.73)).")
    a, N = interior_cells(t)[k - 1]
    s = t.S
    sum_ = (f"S({a}, {N}) = S({a}, {N - 1}) + S({a - 1}, {N - 1}) = {s[a, N - 2]} + "
            f"{s[a - 1, N - 2]} = {s[a, N - 1]}")
    return tr("{sum}; Cover's closed form gives {count}.").format(sum=sum_,
                                                                  count=cover_count(N, a))

NAN_BOX = np.full((5, 2), np.nan)


class RecursionPage(PageFigure):
    """What the page draws of :class:`~explorer.plots.recursion.RecursionFigure`: its
    declarations for :class:`~explorer.plots.page_figure.PageFigure` (scene and chunks). Its
    matplotlib picture of a step is its own (the table's cells, :meth:`RecursionFigure.show`),
    not the tracks put on artists: :meth:`track_artists` names the cell texts that draw the
    text tracks shown at the step shown."""

    table = None

    @property
    def n_steps(self) -> int:
        return 0 if self.table is None else len(interior_cells(self.table))

    def page_missing(self) -> str:
        return "a table: call set_table first" if self.table is None else ""

    def _cells(self) -> list:
        return interior_cells(self.table)

    def _box(self, m: int, N: int) -> tuple[float, float, float, float]:
        """Cell ``(M, N)``'s box in axes fractions: ``x, y, width, height``."""
        t = self.table
        rows, cols = t.M_max + 2, t.N_max + 1
        return N / cols, 1 - (m + 2) / rows, 1 / cols, 1 / rows

    def _square(self, m: int, N: int) -> np.ndarray:
        x, y, w, h = self._box(m, N)
        return np.array([(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)])

    def _centre(self, m: int, N: int) -> np.ndarray:
        x, y, w, h = self._box(m, N)
        return np.array([x + w / 2, y + h / 2])

    def still_layers(self, *, ratio: float) -> tuple[bytes, bytes]:
        """The table at step 0 without its interior texts (``below``); the edges' numbers go
        over the shading of a summand (an edge cell may be one): the table's own are left out,
        copies where the table centres them are the ``above`` layer."""
        self.show(0)
        texts = [self.grid[(m + 1, N)].get_text() for m, N in self._cells()]
        t = self.table
        edges = [(m, N) for m in range(t.M_max + 1) for N in range(1, t.N_max + 1)
                 if t.is_edge(m, N)]
        own = [self.grid[(m + 1, N)].get_text() for m, N in edges]
        copies = [self.ax.text(*self._centre(m, N), o.get_text(), transform=self.ax.transAxes,
                               ha="center", va="center", color=o.get_color(), zorder=11,
                               fontproperties=o.get_fontproperties())
                  for (m, N), o in zip(edges, own, strict=True)]
        try:
            return layers.still_layers(self.fig, [*texts, *own, self.outline], split=10.0,
                                       ratio=ratio)
        finally:
            for c in copies:
                c.remove()
            self.invalidate()

    def page_panels(self, *, width: float, height: float) -> tuple:
        return (layers.panel(self.ax, "table", width=width, height=height),)

    def page_tracks(self, pt: float) -> list:
        """The shaded cells, a "·" and a number a cell, the number just filled, the outline
        (see the module docstring)."""
        cells = self._cells()
        probe = self.grid[(cells[0][0] + 1, cells[0][1])].get_text() if cells else self.note
        black = {**text_style(probe, pt), "color": "#000000", "alpha": 1.0, "weight": "normal"}
        edge, edge_alpha = hex_alpha(self.grid[(1, 1)].get_edgecolor())
        width_px = round(self.grid[(1, 1)].get_linewidth() * pt, 3)

        def fill(color):
            return {"fill": color, "fill_alpha": 1.0, "color": edge, "alpha": edge_alpha,
                    "width": width_px}

        tracks = [Track("now_fill", "table", "polygon", "under", 1.0, fill(NOW)),
                  Track("source_0", "table", "polygon", "under", 1.0, fill(SOURCE)),
                  Track("source_1", "table", "polygon", "under", 1.0, fill(SOURCE))]
        for m, N in cells:
            tracks.append(Track(f"todo_{m}_{N}", "table", "text", "under", 2.0,
                                {**black, "color": TODO}))
            tracks.append(Track(f"cell_{m}_{N}", "table", "text", "under", 2.0, black))
        tracks.append(Track("now", "table", "text", "under", 3.0, {**black, "weight": "bold"}))
        color, alpha = hex_alpha(self.outline.get_edgecolor())
        tracks.append(Track("outline", "table", "polyline", "over", 5.0,
                            {"color": color, "alpha": alpha,
                             "width": round(self.outline.get_linewidth() * pt, 3)}))
        return tracks

    def parts(self, k: int) -> dict:
        """Step ``k``'s parts: ``{track name: arrays}`` (see the module docstring)."""
        t, cells = self.table, self._cells()
        k = int(min(max(k, 0), len(cells)))
        now = cells[k - 1] if k else None
        hidden = {"xy": NAN2.copy(), "text": "", "ha": "center", "va": "center"}
        parts = {}
        for i, (m, N) in enumerate(cells):
            xy = self._centre(m, N)
            filled = i < k
            parts[f"todo_{m}_{N}"] = (hidden if filled else
                                      {"xy": xy, "text": "·", "ha": "center", "va": "center"})
            parts[f"cell_{m}_{N}"] = ({"xy": xy, "text": f"{t.S[m, N - 1]:,}", "ha": "center",
                                       "va": "center"} if filled and (m, N) != now else hidden)
        if now is None:
            parts["now"] = hidden
            for name in ("now_fill", "source_0", "source_1"):
                parts[name] = {"xy": NAN_BOX[:4].copy()}
            parts["outline"] = {"xy": NAN_BOX.copy()}
            return parts
        m, N = now
        parts["now"] = {"xy": self._centre(m, N), "text": f"{t.S[m, N - 1]:,}", "ha": "center",
                        "va": "center"}
        parts["now_fill"] = {"xy": self._square(m, N)[:4]}
        parts["source_0"] = {"xy": self._square(m, N - 1)[:4]}
        parts["source_1"] = {"xy": self._square(m - 1, N - 1)[:4]}
        parts["outline"] = {"xy": self._square(m, N)}
        return parts

    def narration(self, k: int) -> str:
        return recursion_text(self.table, k)

    def status(self, k: int) -> str:
        return recursion_status(k, self.n_steps)

    def show_step(self, k: int) -> str:
        """Step ``k`` drawn by the figure's own table (:meth:`RecursionFigure.show`)."""
        return self.show(k)

    def track_artists(self) -> dict:
        """The text tracks shown at the step shown -> the cell text that draws each (the page
        draws a cell's "·", number and bold number as three tracks, matplotlib as one text
        whose words change). The shading and the outline are the table's cells' faces and
        :attr:`outline`, no track's artist: the Cover tab's tests check them."""
        if self.table is None or self._now_k is None:
            return {}
        return {name: self.grid[(m + 1, N)].get_text() for name, (m, N) in
                self._shown_texts(self._now_k).items()}

    def _shown_texts(self, k: int) -> dict:
        """Step ``k``'s text tracks that show something -> their cell ``(M, N)``."""
        cells = self._cells()
        k = int(min(max(k, 0), len(cells)))
        now = cells[k - 1] if k else None
        return {("now" if (m, N) == now else f"cell_{m}_{N}" if i < k else f"todo_{m}_{N}"):
                (m, N) for i, (m, N) in enumerate(cells)}
