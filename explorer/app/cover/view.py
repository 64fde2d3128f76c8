"""The Cover tab: Cover's counting theorem as curves with Monte Carlo checks, the dichotomies of a
small point set, the recursion (60.73) filling a table, and linearly separable Boolean functions.

The page draws the figure (:mod:`explorer.app.pagerun`, :mod:`explorer.app.cover.page`): the
Monte Carlo points come into the page as they are computed (a run grown over the same still
layers), the recursion's steps run in the page, and a new point set, page of tiles or tile
chosen is sent as the static tracks that changed, not as a new figure.
"""

from __future__ import annotations

import html

import ipywidgets as W
import numpy as np

from ... import cover
from ...cover.counting import MAX_DICHOTOMY_POINTS
from ...plots.animation import offscreen_figure
from ...plots.cover import CoverFigure, MonteCarloFilm
from ...plots.recursion import RecursionFigure
from ...plots.recursion_scene import recursion_status
from ...shared.i18n import N_
from ..export import export_section, file_stem
from ..handoff import Handoff
from ..jobs import kernel_loop
from ..layout import FigureFit, guessed_fit, section
from ..lazy import disclosure
from ..messages import MessageArea
from ..pagerun import PageRun
from ..tab import TabView
from ..timeline import Transport
from ..upload import DataPanel
from .model import SPEC, VIEWS, XAXIS, CoverModel
from .page import CoverPage
from .paging import PageDrawing
from .scenes import curves_text, fill, shown_mc
from .tables import FORMULAS

CLICK_MODES = [("Add point", "add"), ("Remove point", "remove")]
#: The dichotomy and the Boolean function (XOR) shown first; the tab's state does not hold them
#: (a slide's preview shows these, :mod:`explorer.app.preview`).
FIRST_DICHOTOMY, FIRST_FUNCTION = 0, 6
#: The figure's accessible name.
NAME = ("Cover tab: Cover's curves with Monte Carlo checks, the dichotomies of a small point "
        "set, the recursion filling its table, or the Boolean functions, as the view chosen")



def _labelled() -> dict:
    """A settings control's style and layout (one Layout per widget: a Layout is shared
    state in the page)."""
    return {"style": {"description_width": "calc(var(--pe-font) * 7.5)"},
            "layout": W.Layout(width="95%")}


def _button(text: str, tip: str, fn, **kw) -> W.Button:
    """A button of its text's width that calls ``fn()`` when clicked."""
    b = W.Button(description=text, tooltip=tip, layout=W.Layout(width="auto"), **kw)
    b.on_click(lambda _: fn())
    return b

class CoverView(PageDrawing, TabView):
    """Composite widget of the Cover tab. ``CoverView().model`` is its state."""

    title = "Cover"
    spec = SPEC
    #: The tab's model (no widgets): a slide's preview builds one (:mod:`explorer.app.preview`).
    model_class = CoverModel
    #: The values of the controls an export reads that the state does not hold (a preview's).
    preview_widgets = {"w_dich": FIRST_DICHOTOMY, "w_bool": FIRST_FUNCTION}

    def __init__(self, model: CoverModel | None = None, *, fitted: FigureFit | None = None,
                 **kwargs):
        self.model = model if model is not None else CoverModel()
        self._make_figures(fitted)
        self._make_controls()
        self._make_page()
        self.groups = self._groups()
        settings = W.VBox([*self.groups.values(), section(N_("Export")), export_section(self.export),
                           section(N_("Formulas and sources")),
                           W.HTML(f"<div class='pe-help'>{FORMULAS}</div>")])
        self._lay_out(settings, [self.w_view, self.messages], below=[self.table], symbols="cover",
                      **kwargs)
        self._follow_model(self._on_revision, "revision")
        m = self.model
        m.observe(self._on_progress, names=["mc_done", "mc_total", "mc_running", "mc_note"])
        m.observe(self._on_mc, names="mc")
        self._on_revision()
        self._on_progress()

    def _make_figures(self, fitted: FigureFit | None) -> None:
        """The kernel's two figures, fitted to the guessed or given size."""
        # The page draws the figure (explorer.app.pagerun); the kernel's figures are plain
        # matplotlib figures: they draw the still layers and follow the settled step (exports,
        # tests).
        self.figure = CoverFigure(offscreen_figure())
        self.recursion = RecursionFigure(offscreen_figure())
        self.fitted = fitted if fitted is not None else guessed_fit()
        for f in (self.figure, self.recursion):
            f.fit(self.fitted.width, self.fitted.height, scale=self.fitted.scale)

    def _make_controls(self) -> None:
        """The settings controls: the typed fields, the view and axis choices, the Monte Carlo
        buttons, the point set's, the dichotomy's and the Boolean function's choosers."""
        m = self.model
        c = self._declared_controls(**_labelled())  # every field that declares its control
        self.w_view, self.w_xaxis = c["view"], c["xaxis"]  # the names tests use

        self.b_run = _button("Run Monte Carlo", "Estimate P(M, N) from random data (M ≤ 100)",
                             self._run_mc, button_style="primary")
        self.b_stop = _button("Stop", "Stop the Monte Carlo run; finished points stay",
                              m.stop_monte_carlo, button_style="warning")
        self.progress = W.IntProgress(value=0, min=0, max=1, description="checks",
                                      layout=W.Layout(width="95%"))
        self.mc_text = W.HTML().add_class("pe-help")
        self.b_random = _button("Random points", "N random points from the seed", m.random_set)
        self.b_line = _button("Three on a line", "Four points, three of them collinear",
                              m.collinear_example)
        self.w_page = W.Dropdown(description="page", options=[("1", 1)], value=1, **_labelled())
        self._observe_fields({"page": self.w_page})  # its options are the pages there are
        self.w_dich = W.Dropdown(description="dichotomy", options=[("#0", 0)],
                                 value=FIRST_DICHOTOMY, **_labelled())
        self.w_dich.observe(lambda ch: self._chosen(), names="value")
        self.b_open = _button("Open dichotomy in the Perceptron tab",
                              "The chosen dichotomy's points and labels, in the Perceptron tab",
                              lambda: self._open_dichotomy(self.w_dich.value))
        self.w_bool = W.Dropdown(description="function", options=[
            (f"{name}{' (not separable)' if j in (6, 9) else ''}", j)
            for j, name in enumerate(cover.BOOLEAN_NAMES_2)], value=FIRST_FUNCTION,
            style={"description_width": "calc(var(--pe-font) * 4.5)"}, layout=W.Layout(width="95%"))
        self.w_bool.observe(lambda ch: self._chosen(), names="value")
        self.b_bool = _button("Open function in the Perceptron tab",
                              "Its four vertices with labels (value 1 → +1, 0 → −1)",
                              lambda: self._open_boolean(self.w_bool.value))
        self.w_click = W.ToggleButtons(options=CLICK_MODES, value="add", description="Click",
                                       style={"button_width": "auto"},
                                       tooltips=["Click in the plane adds a point",
                                                 "Click on a point removes it"])
        self.w_click.observe(lambda ch: self._pointer_mode(), names="value")

    def _make_page(self) -> None:
        """The recursion's transport, the messages, the own-points panel and the page figure."""
        m = self.model
        # the recursion's steps: the page has the buttons, slider, Play and keys
        self.timeline = Transport()
        self.timeline.status = lambda k: recursion_status(k, m.n_steps)
        self._no_steps = Transport()  # the page's step in the other views: not the model's
        # the page's figure shows the narration (and is described by it): the kernel keeps it
        self.messages = MessageArea(narration=False)
        # a person's points: the first two columns of a CSV, labels ignored (all are counted)
        self.data_panel = DataPanel(self._use_points, self.messages,
                                    max_rows=MAX_DICHOTOMY_POINTS, labels=False)
        self.own_data = disclosure(N_("Your own points (CSV)"), self.data_panel)
        self._own = None  # the placed points as loaded from a CSV (None: not from a CSV)
        self.drawn = CoverPage(m, self.figure, self.recursion)
        self.paged = PageRun(self.drawn, self.timeline, self.fitted, name=NAME)
        self.page = self.paged.page
        self.page.pointer_colors = {"add+": "#000000"}  # the plane's points have no class
        self.page.on_pointer(self._on_pointer)
        self.figure_box = self.page
        self._page_key = None  # what the page's still layers show (a new key: a new scene)
        self.table = W.HTML().add_class("pe-cover-table")
        self.export = self._export_panel()

    def _groups(self) -> dict:
        """The settings shown for each view."""
        t = self.controls
        return {
            "curves": W.VBox([section(N_("Curves (Sayed 60.65)")), t["ms"], self.w_xaxis,
                              section(N_("Monte Carlo")), t["trials"], t["seed"],
                              W.HBox([self.b_run, self.b_stop]), self.progress, self.mc_text]),
            "dichotomies": W.VBox([section(N_("Small point set")), t["n_points"], t["seed"],
                                   W.HBox([self.b_random, self.b_line],
                                          layout=W.Layout(flex_flow="row wrap")),
                                   self.w_click, self.own_data, self.w_page,
                                   section(N_("Perceptron tab")),
                                   W.HTML("<div class='pe-help'>or click a tile</div>"),
                                   self.w_dich, self.b_open]),
            "recursion": W.VBox([section(N_("Recursion table")), t["rec_m"], t["rec_n"]]),
            "boolean": W.VBox([section(N_("Perceptron tab")),
                               W.HTML("<div class='pe-help'>or click a tile</div>"),
                               self.w_bool, self.b_bool]),
        }

    # ------------------------------------------------------------------ model -> view
    def _on_revision(self, change=None):
        m = self.model
        self.export.clear()
        self._describe_export()
        if self._own is not None and list(m.points) != self._own:
            self._own = None  # other points now: the remark on the loaded ones goes
            self.messages.note("")
        self._loading = True
        try:
            if self.timeline.n_steps != m.n_steps or self.timeline.step != m.step:
                self.timeline.set_run(m.n_steps, start=m.step)
        finally:
            self._loading = False
        self._sync_controls()
        self._redraw()

    def _on_mc(self, change=None):
        if self.model.view == "curves":
            self._describe_export()
            self._redraw()

    def _on_step(self, change=None):
        k = self.model.step
        if self.timeline.step != k:
            self._loading = True
            try:
                self.timeline.go(k)
            finally:
                self._loading = False
        if self.model.view == "recursion":
            self._redraw(keep_refusal=False)  # a step is an action: an old refusal goes

    def redraw(self) -> None:
        self._redraw()

    def _fill(self, f: CoverFigure, view: str, *, post=None) -> str:
        """Give ``f`` (the live figure or an export's) the data of ``view``; the narration."""
        return fill(self.model, f, view, dichotomy=self.w_dich.value,
                    function=int(self.w_bool.value), post=post)

    # ------------------------------------------------------------------ export
    def _export_plan(self):
        m = self.model
        if m.view == "recursion":
            return int(m.step), int(m.n_steps), "cells filled"
        if m.view == "curves":
            n = len(shown_mc(self.model))
            return n, n, "Monte Carlo points shown"
        return 0, 0, ""

    def _export_frames(self):
        from ...plots.animation import TabFrames

        m = self.model
        view, name = m.view, VIEWS[m.view]
        if view == "recursion":
            f, table = self._export_figure(RecursionFigure), m.table
            f.set_table(table)
            n = m.n_steps
            title = f"S(M, N) for M ≤ {table.M_max}, N ≤ {table.N_max}"
            return TabFrames(f, n_steps=n, title=title, heading=f"Cover · {title}",
                             caption=lambda k: f"Recursion: {recursion_status(k, n)}")
        f = self._export_figure(CoverFigure, blit=True)
        if view == "curves":
            shown = shown_mc(self.model)
            n = len(shown)
            title = (f"M = {', '.join(map(str, m.ms))} · x = {XAXIS[m.xaxis]} · Monte Carlo: "
                     f"{m.trials} trials, seed {m.seed}")
            return TabFrames(MonteCarloFilm(f, m.curves, mode=m.xaxis, mc=shown), n_steps=n,
                             title=title, heading=f"Cover · {title}",
                             caption=lambda i: f"Monte Carlo: {i} of {n} points" if n else name,
                             narrate=lambda i, _: curves_text(m, shown[:i]))
        text = self._fill(f, view)
        title = (f"{len(m.X)} points · page {m.page} of {m.n_pages}" if view == "dichotomies"
                 else "Boolean functions of M inputs")
        return TabFrames(f, n_steps=0, title=title, heading=f"Cover · {name}",
                         caption=lambda k: name, narrate=lambda k, _: text)

    def _export_name(self, ext: str) -> str:
        m = self.model
        if m.view == "recursion":
            parts = (f"m{m.rec_m}", f"n{m.rec_n}", f"step{m.step}" if ext in ("png", "svg") else "")
        elif m.view == "curves":
            parts = (f"mc{len(shown_mc(self.model))}", f"seed{m.seed}")
        elif m.view == "dichotomies":
            parts = (f"n{len(m.X)}", f"page{m.page}")
        else:
            parts = ()
        return file_stem("cover", m.view, *parts)

    def _on_progress(self, change=None):
        m = self.model
        self.progress.max = max(m.mc_total, 1)
        self.progress.value = min(m.mc_done, self.progress.max)
        self.progress.description = "running" if m.mc_running else "checks"
        self.b_run.disabled = m.mc_running
        self.b_stop.disabled = not m.mc_running
        self.mc_text.value = html.escape(m.mc_note)

    def _sync(self):
        m = self.model
        pages = [(f"{p} of {m.n_pages}", p) for p in range(1, m.n_pages + 1)]
        if list(self.w_page.options) != pages:
            self.w_page.options = pages
        self._show_fields({"page": self.w_page})
        opts = [(f"#{j}{'' if m.dich.separable[j] else ' (not separable)'}", int(j))
                for j in m.page_ids]
        if list(self.w_dich.options) != opts:
            self.w_dich.options = opts
        self.w_page.layout.display = "" if m.n_pages > 1 else "none"
        for name, box in self.groups.items():
            box.layout.display = "" if name == m.view else "none"

    # ------------------------------------------------------------------ view -> model
    @staticmethod
    def _post():
        """How a worker thread hands work to the kernel's thread (None outside a kernel)."""
        loop = kernel_loop()
        return (lambda fn: loop.call_soon_threadsafe(fn)) if loop is not None else None

    def _run_mc(self):
        self.model.start_monte_carlo(self._post())

    def stop_running(self) -> None:
        super().stop_running()
        self.model.stop_monte_carlo()  # the points it finished stay

    def _open_dichotomy(self, j: int):
        try:
            handoff = self.model.dichotomy_handoff(int(j))
        except ValueError as exc:
            self.messages.refuse(f"Not opened: {exc}.")
            return
        self.handoff = handoff

    def _open_boolean(self, j: int):
        V, d = cover.boolean_functions_2()
        y = d.labelings[int(j)]
        if np.all(y == y[0]):
            self.messages.refuse(f"Not opened: {cover.BOOLEAN_NAMES_2[j]} gives every vertex the "
                                 "same value; the Perceptron tab needs both classes.")
            return
        self.handoff = Handoff(tab="perceptron", X=V, y=y)

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
