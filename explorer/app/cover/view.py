"""The Cover tab: Cover's counting theorem as curves with Monte Carlo checks, the dichotomies of a
small point set, the recursion (60.73) filling a table, and linearly separable Boolean functions.
"""

from __future__ import annotations

import html

import ipywidgets as W
import numpy as np

from ... import cover
from ...counting import MAX_DICHOTOMY_POINTS
from ...plots.cover import CoverFigure
from ..canvas import kernel_loop
from ..layout import Shell, section
from ..messages import MessageArea
from ..remarks import numbered, on_one_line
from ..symbols import symbols_widget
from ..tab import TabView
from ..timeline import Timeline
from ..upload import DataPanel
from .model import SPEC, VIEWS, XAXIS, CoverModel, perceptron_state
from .tables import FORMULAS, boolean_html, recursion_html

TEXT_FIELDS = ("ms", "trials", "seed", "n_points", "rec_m", "rec_n")
CLICK_MODES = [("Add point", "add"), ("Remove point", "remove")]
BOOL_BOX = (-0.35, 1.35, -0.35, 1.35)


class CoverView(TabView):
    """Composite widget of the Cover tab. ``CoverView().model`` is its state."""

    title = "Cover"
    spec = SPEC

    def __init__(self, model: CoverModel | None = None, **kwargs):
        self.model = model if model is not None else CoverModel()
        m = self.model
        self._syncing = False  # controls set from the model: their observers do nothing
        self._start_figure(CoverFigure, blit=True)

        def lbl():  # one Layout per widget: a Layout is shared state in the page
            return {"style": {"description_width": "calc(var(--pe-font) * 7.5)"},
                    "layout": W.Layout(width="95%")}

        self.text = {name: W.Text(description=SPEC.field(name).label, continuous_update=False,
                                  tooltip=SPEC.field(name).expected(), **lbl())
                     for name in TEXT_FIELDS}
        for name, w in self.text.items():
            w.observe(lambda ch, n=name: self._apply(n, ch["new"]), names="value")
        self.w_view = W.ToggleButtons(options=[(v, k) for k, v in VIEWS.items()], value=m.view,
                                      description="Show", style={"button_width": "auto"},
                                      tooltips=["Cover's curves and Monte Carlo",
                                                "All dichotomies of a small point set",
                                                "The recursion (60.73) filling a table",
                                                "Linearly separable Boolean functions"])
        self.w_view.observe(lambda ch: self._apply("view", ch["new"]), names="value")
        self.w_xaxis = W.ToggleButtons(options=[(v, k) for k, v in XAXIS.items()], value=m.xaxis,
                                       description="x-axis", style={"button_width": "auto"},
                                       tooltips=["x = N / (M + 1): every curve halves at 2",
                                                 "x = N on a log scale"])
        self.w_xaxis.observe(lambda ch: self._apply("xaxis", ch["new"]), names="value")

        def button(text, tip, fn, **kw):
            b = W.Button(description=text, tooltip=tip, layout=W.Layout(width="auto"), **kw)
            b.on_click(lambda _: fn())
            return b

        self.b_run = button("Run Monte Carlo", "Estimate P(M, N) from random data (M ≤ 100)",
                            self._run_mc, button_style="primary")
        self.b_stop = button("Stop", "Stop the Monte Carlo run; finished points stay",
                             m.stop_monte_carlo, button_style="warning")
        self.progress = W.IntProgress(value=0, min=0, max=1, description="checks",
                                      layout=W.Layout(width="95%"))
        self.mc_text = W.HTML().add_class("pe-help")
        self.b_random = button("Random points", "N random points from the seed", m.random_set)
        self.b_line = button("Three on a line", "Four points, three of them collinear",
                             m.collinear_example)
        self.w_page = W.Dropdown(description="page", options=[("1", 1)], value=1, **lbl())
        self.w_page.observe(lambda ch: self._apply("page", ch["new"]), names="value")
        self.w_dich = W.Dropdown(description="dichotomy", options=[("#0", 0)], value=0, **lbl())
        self.b_open = button("Open dichotomy in the Perceptron tab",
                             "The chosen dichotomy's points and labels, in the Perceptron tab",
                             lambda: self._open_dichotomy(self.w_dich.value))
        self.w_bool = W.Dropdown(description="function", options=[
            (f"{name}{' (not separable)' if j in (6, 9) else ''}", j)
            for j, name in enumerate(cover.BOOLEAN_NAMES_2)], value=6,
            style={"description_width": "calc(var(--pe-font) * 4.5)"}, layout=W.Layout(width="95%"))
        self.b_bool = button("Open function in the Perceptron tab",
                             "Its four vertices with labels (value 1 → +1, 0 → −1)",
                             lambda: self._open_boolean(self.w_bool.value))
        self.w_click = W.ToggleButtons(options=CLICK_MODES, value="add", description="Click",
                                       style={"button_width": "auto"},
                                       tooltips=["Click in the plane adds a point",
                                                 "Click on a point removes it"])
        self.canvas.mpl_connect("button_press_event", self._on_click)

        self.timeline = Timeline()
        self.timeline.status = lambda k: f"{k} of {m.n_steps} cells filled by the recursion (60.73)"
        self.messages = MessageArea()
        # a person's points: the first two columns of a CSV, labels ignored (all are counted)
        self.data_panel = DataPanel(self._use_points, self.messages,
                                    max_rows=MAX_DICHOTOMY_POINTS, labels=False)
        self.own_data = W.Accordion([self.data_panel], titles=("Your own points (CSV)",),
                                    selected_index=None, layout=W.Layout(width="95%"))
        self._own = None  # the placed points as loaded from a CSV (None: not from a CSV)
        self.figure_box = W.Box([self.canvas]).add_class("pe-figure")
        self.table = W.HTML().add_class("pe-cover-table")
        t = self.text
        self.groups = {
            "curves": W.VBox([section("Curves (Sayed 60.65)"), t["ms"], self.w_xaxis,
                              section("Monte Carlo"), t["trials"], t["seed"],
                              W.HBox([self.b_run, self.b_stop]), self.progress, self.mc_text]),
            "dichotomies": W.VBox([section("Small point set"), t["n_points"], t["seed"],
                                   W.HBox([self.b_random, self.b_line],
                                          layout=W.Layout(flex_flow="row wrap")),
                                   self.w_click, self.own_data, self.w_page,
                                   section("Perceptron tab"),
                                   W.HTML("<div class='pe-help'>or click a tile</div>"),
                                   self.w_dich, self.b_open]),
            "recursion": W.VBox([section("Recursion table"), t["rec_m"], t["rec_n"]]),
            "boolean": W.VBox([section("Perceptron tab"),
                               W.HTML("<div class='pe-help'>or click a tile</div>"),
                               self.w_bool, self.b_bool]),
        }
        settings = W.VBox([*self.groups.values(), section("Formulas and sources"),
                           W.HTML(f"<div class='pe-help'>{FORMULAS}</div>")])
        main = W.VBox([self.w_view, self.timeline, self.messages, self.figure_box, self.table,
                       symbols_widget("cover")])
        self.shell = Shell(settings, main)
        super().__init__([self.shell], **kwargs)
        self.add_class("pe-view")
        self._loading = False
        self.timeline.observe(lambda ch: None if self._loading else m.go(ch["new"]), names="step")
        m.observe(self._on_revision, names="revision")
        m.observe(self._on_step, names="step")
        m.observe(self._on_message, names="message")
        m.observe(lambda ch: self.messages.clear_refusal(), names="applied")
        m.observe(self._on_progress, names=["mc_done", "mc_total", "mc_running", "mc_note"])
        m.observe(lambda ch: self._redraw() if m.view == "curves" else None, names="mc")
        self._on_revision()
        self._on_progress()

    # ------------------------------------------------------------------ model -> view
    def _on_revision(self, change=None):
        m = self.model
        if self._own is not None and list(m.points) != self._own:
            self._own = None  # other points now: the remark on the loaded ones goes
            self.messages.note("")
        self._loading = True
        try:
            # set_run also sets Play's value, which the page copies to the slider on load
            if self.timeline.n_steps != m.n_steps or self.timeline.step != m.step:
                self.timeline.set_run(m.n_steps, start=m.step)
        finally:
            self._loading = False
        self._sync_controls()
        self._redraw()

    def _on_step(self, change=None):
        k = self.model.step
        if self.timeline.step != k:
            self._loading = True
            try:
                self.timeline.go(k)
                self.timeline.play.value = k  # the page copies Play to the slider on load
            finally:
                self._loading = False
        if self.model.view == "recursion":
            self._redraw(keep_refusal=False)  # a step is an action: an old refusal goes

    def redraw(self) -> None:
        self._redraw()

    def _redraw(self, *, keep_refusal: bool = True):
        m, f = self.model, self.figure
        view = m.view
        try:
            if view == "recursion":
                self.table.value = recursion_html(m.table, m.step)
                text = self._recursion_text()
            else:
                f.set_view(view)
                if view == "curves":
                    f.curves.set_data(m.curves, mode=m.xaxis, mc=[p for p in m.mc if p.M in m.ms])
                    text = self._curves_text()
                    self.table.value = ""
                elif view == "dichotomies":
                    d = m.dich
                    f.plane.set_data(m.X)
                    f2 = cover.cover_count(d.N, 2)
                    sign = "=" if d.count == f2 else "<" if d.count < f2 else ">"
                    title = (f"{d.count} of {2 ** d.N} separable {sign} S(2, {d.N})" +
                             (f" · page {m.page} of {m.n_pages}" if m.n_pages > 1 else ""))
                    f.tiles.set_data(m.X, d.labelings, d.separable, m.page_ids, w=m.page_w,
                                     b=m.page_b, title=title)
                    self._select_tile()
                    text = self._dichotomy_text()
                    self.table.value = ""
                else:
                    rows, seconds = m.boolean_rows(self._post())
                    V, d = cover.boolean_functions_2()
                    ids = np.arange(16)
                    w, b = cover.separators(V, d.labelings, ids)
                    f.bool_tiles.set_data(V, d.labelings, d.separable, ids, w=w, b=b,
                                          box=BOOL_BOX, names=cover.BOOLEAN_NAMES_2,
                                          marked=(6, 9), title="M = 2: 14 of 16 separable")
                    f.bool_tiles.select(int(self.w_bool.value))
                    f.bool_counts.set_data(rows)
                    self.table.value = boolean_html(rows)
                    counted = (f"counts M ≤ 4 here ({seconds:.1f} s)" if seconds is not None else
                               "counts M ≤ 3 here (M = 4 is being counted…)")
                    text = (f"M = 2: 14 of the 16 Boolean functions are linearly separable; XOR "
                            f"and XNOR are not (Sayed 60.B). The table {counted} and quotes "
                            "Muroga (1971) beyond.")
                key = (m.xaxis, self.fitted, f.curves.ax.get_xlim()) if view == "curves" else None
                f.redraw(static_key=key)
        except (ValueError, OverflowError, FloatingPointError) as exc:
            self.messages.refuse(f"Could not draw: {exc}")
            return
        self.messages.narrate(text, keep_refusal=keep_refusal)
        self.changed += 1

    def _curves_text(self) -> str:
        m = self.model
        parts = [f"{c.P[int(round(2.5 * (c.M + 1)))]:.2g} (M = {c.M})" for c in m.curves]
        text = ("Every curve is exactly 1/2 at the capacity N = 2(M + 1). At N = 2.5(M + 1) "
                "P is " + ", ".join(parts) + ": the larger M, the sharper the fall.")
        shown = [p for p in m.mc if p.M in m.ms]
        if shown:
            z = max(abs(p.estimate - p.formula) / max(p.stderr, 0.5 / p.trials) for p in shown)
            text += (f" Monte Carlo: {len(shown)} points, the farthest {z:.1f} standard errors "
                     "from the formula.")
        return text

    def _dichotomy_text(self) -> str:
        m, d = self.model, self.model.dich
        N = d.N
        formula = cover.cover_count(N, 2)
        if d.general_position:
            return (f"{N} point{'s' * (N != 1)} in general position: {d.count} of {2 ** N} "
                    f"dichotomies are separable, as Cover's formula S(2, {N}) = {formula} says.")
        relation = "below" if d.count < formula else "against"
        tail = (f"{d.count} of {2 ** N} dichotomies are separable, {relation} Cover's "
                f"S(2, {N}) = {formula}, which assumes general position.")
        _, first, group = np.unique(m.X, axis=0, return_index=True, return_inverse=True)
        group = group.reshape(-1)
        if len(first) == 1:
            return (f"All {N} points are the same point, so every separable dichotomy gives "
                    f"them one label: {tail}")
        dup = next((np.flatnonzero(group == g) for g in group if np.sum(group == g) > 1), None)
        from ...plots.dichotomy_grid import collinear_triples

        if dup is None and on_one_line(m.X):  # all distinct
            return (f"All {N} points lie on one line, which a separating line crosses at most "
                    f"once: {tail}")
        if dup is not None:
            where = (f"{numbered(dup).lower()} are the same point, which cannot carry two "
                     "labels")
        else:
            tri = collinear_triples(m.X)
            where = (f"{numbered(tri[0]).lower()} lie on one line" if tri else
                     "some points are degenerate")
        return f"Not in general position ({where}): {tail}"

    def _recursion_text(self) -> str:
        m, t = self.model, self.model.table
        interior = [(a, N) for a, N in t.order if not t.is_edge(a, N)]
        if m.step == 0:
            return ("The edges are filled: S(M, 1) = 2 and S(0, N) = 2. Step to fill each cell "
                    "from the two cells to its left: S(M, N + 1) = S(M, N) + S(M − 1, N) "
                    "(Sayed (60.73)).")
        a, N = interior[m.step - 1]
        S = t.S
        return (f"S({a}, {N}) = S({a}, {N - 1}) + S({a - 1}, {N - 1}) = {S[a, N - 2]} + "
                f"{S[a - 1, N - 2]} = {S[a, N - 1]}; Cover's closed form gives "
                f"{cover.cover_count(N, a)}.")

    def _select_tile(self):
        m = self.model
        j = self.w_dich.value
        ids = list(m.page_ids)
        self.figure.tiles.select(ids.index(j) if j in ids else None)

    def _on_progress(self, change=None):
        m = self.model
        self.progress.max = max(m.mc_total, 1)
        self.progress.value = min(m.mc_done, self.progress.max)
        self.progress.description = "running" if m.mc_running else "checks"
        self.b_run.disabled = m.mc_running
        self.b_stop.disabled = not m.mc_running
        self.mc_text.value = html.escape(m.mc_note)

    def _on_message(self, change=None):
        if self.model.message:
            self.messages.refuse(self.model.message)
        elif change is not None and change["old"].startswith("Not applied"):
            self.messages.clear_refusal()  # the model took its refusal back

    def _sync_controls(self):
        """Every control from the model: the one path from the state to the settings."""
        self._syncing = True
        try:
            self._sync()
        finally:
            self._syncing = False

    def _sync(self):
        m = self.model
        for name, w in self.text.items():
            value = list(m.ms) if name == "ms" else getattr(m, name)
            text = SPEC.field(name).format(value)
            if name == "n_points" and m.points:
                text = str(len(m.X))  # disabled: how many points are placed
            if w.value != text:
                w.value = text
        for w, v in ((self.w_view, m.view), (self.w_xaxis, m.xaxis)):
            if w.value != v:
                w.value = v
        pages = [(f"{p} of {m.n_pages}", p) for p in range(1, m.n_pages + 1)]
        if list(self.w_page.options) != pages:
            self.w_page.options = pages
        if self.w_page.value != m.page:
            self.w_page.value = m.page
        opts = [(f"#{j}{'' if m.dich.separable[j] else ' (not separable)'}", int(j))
                for j in m.page_ids]
        if list(self.w_dich.options) != opts:
            self.w_dich.options = opts
        self.w_page.layout.display = "" if m.n_pages > 1 else "none"
        for name, box in self.groups.items():
            box.layout.display = "" if name == m.view else "none"
        self.timeline.layout.display = "" if m.view == "recursion" else "none"
        self.figure_box.layout.display = "none" if m.view == "recursion" else ""
        self.text["n_points"].disabled = bool(m.points)

    # ------------------------------------------------------------------ view -> model
    def _apply(self, name, value):
        m = self.model
        if self._syncing:
            return  # set from the model
        current = list(m.ms) if name == "ms" else getattr(m, name)
        if name in self.text and value == SPEC.field(name).format(current):
            return
        if name not in self.text and value == current:
            return
        if not m.update(**{name: value}):
            self._sync_controls()

    @staticmethod
    def _post():
        """How a worker thread hands work to the kernel's thread (None outside a kernel)."""
        loop = kernel_loop()
        return (lambda fn: loop.call_soon_threadsafe(fn)) if loop is not None else None

    def _run_mc(self):
        self.model.start_monte_carlo(self._post())

    def _on_click(self, event):
        f, m = self.figure, self.model
        if event.xdata is None:
            return
        if m.view == "dichotomies" and event.inaxes is f.plane.ax:
            if self.w_click.value == "remove":
                i = m.nearest_point(event.xdata, event.ydata, 0.08)
                if i is None:
                    m.refuse("Not applied: no point there; click on a point.")
                else:
                    m.remove_point(i)
            else:
                m.add_point(event.xdata, event.ydata)
        elif m.view == "dichotomies" and event.inaxes is f.tiles.ax:
            k = f.tiles.tile_at(event.xdata, event.ydata)
            if k is not None:
                self.w_dich.value = int(m.page_ids[k])
                self._open_dichotomy(int(m.page_ids[k]))
        elif m.view == "boolean" and event.inaxes is f.bool_tiles.ax:
            k = f.bool_tiles.tile_at(event.xdata, event.ydata)
            if k is not None:
                self.w_bool.value = k
                self._open_boolean(k)

    def _open_dichotomy(self, j: int):
        try:
            state = self.model.dichotomy_state(int(j))
        except ValueError as exc:
            self.messages.refuse(f"Not opened: {exc}.")
            return
        self.handoff = {"tab": "perceptron", "state": state}

    def _open_boolean(self, j: int):
        V, d = cover.boolean_functions_2()
        y = d.labelings[int(j)]
        if np.all(y == y[0]):
            self.messages.refuse(f"Not opened: {cover.BOOLEAN_NAMES_2[j]} gives every vertex the "
                                 "same value; the Perceptron tab needs both classes.")
            return
        self.handoff = {"tab": "perceptron", "state": perceptron_state(V, y)}

    def _use_points(self, X, y) -> bool:
        """Points read from a CSV become the placed set (at most 16); their labels, if any, are
        not used: the grid shows every labeling."""
        m = self.model
        if not m.load_points(X):
            return False
        self._own = list(m.points)
        n = len(m.X)
        self.messages.note(f"Your {n} point{'s' * (n != 1)}, shifted and scaled into the square "
                           "[−1, 1]² (a shift and one common scale keep every dichotomy's "
                           f"separability). Labels in the file are not used: Cover counts all "
                           f"2^{n} = {2 ** n:,} labelings.")
        return True

    def handle_key(self, key: str) -> bool:
        return self.model.view == "recursion" and self.timeline.handle_key(key)

    # ------------------------------------------------------------------ dashboard protocol
