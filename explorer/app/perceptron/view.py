"""The Perceptron tab: settings, the shared timeline and message area, the live figure, export.

Widgets write parameters into a :class:`PerceptronModel`; the view observes the model and
draws "the state at step k" of its precomputed run. The figure is created once (under
``plt.ioff()``) and only resized or redrawn afterwards; every control, the Play timer and the
keys only set the step to show.
"""

from __future__ import annotations

import html
import importlib
import threading

import ipywidgets as W
import numpy as np

from ...perceptron import RULES
from ...perceptron.replay import SOLVER_MODULES, status_text
from ...perceptron.rules import rule_text
from ...plots import PerceptronFigure
from ...shared.i18n import N_, tr
from .. import datachoice, labels
from ..controls import ChoiceChecks
from ..export import ExportPanel, export_section, file_stem
from ..handoff import Handoff
from ..jobs import kernel_loop
from ..layout import FigureFit, guessed_fit, section
from ..lazy import disclosure
from ..messages import MessageArea
from ..state import points_of
from ..tab import TabView
from ..timeline import Transport
from ..upload import DataPanel
from .model import MAX_FEATURES, MAX_POINTS, ORDERS, SPEC, VIEW_DATASETS, PerceptronModel
from .page import PageRun

#: Seconds after the tab is built before the bound's solvers are imported (see _describe_later).
SOLVERS_AFTER_S = 2.5

EDIT_MODES = [("View", "view"), ("Add +1", "add+"), ("Add −1", "add-"), ("Remove", "remove"),
              ("You choose", "choose")]
EDIT_TIPS = ["Look only", "Click the plane to add a +1 point", "Click the plane to add a −1 point",
             "Click a point to remove it", "Click the point to visit next"]
DATA_NAMES = {key: value[0] for key, value in VIEW_DATASETS.items()}


def equation_html(rule: str, batch: int) -> str:
    """The rule's update and its source (:func:`explorer.perceptron.rules.rule_text`), as one HTML line."""
    return f"<div class='pe-equation-text'>{html.escape(rule_text(rule, batch_size=batch))}</div>"


class _Click:
    """Where a click landed, in data coordinates."""

    def __init__(self, x: float, y: float):
        self.xdata, self.ydata = float(x), float(y)


class PerceptronView(TabView):
    """Composite widget of the Perceptron tab. ``PerceptronView().model`` is its state."""

    title = "Perceptron"
    spec = SPEC
    #: The tab's model (no widgets): a slide's preview builds one (:mod:`explorer.app.preview`).
    model_class = PerceptronModel
    data_features = MAX_FEATURES  # a CSV is trained in its own dimension, up to this many

    def __init__(self, model: PerceptronModel | None = None, *, fitted: FigureFit | None = None,
                 **kwargs):
        loop = kernel_loop()
        # In a kernel, the page shows the run first and its bound when the solvers are loaded.
        self.model = model if model is not None else PerceptronModel(
            describe_later=loop is not None)
        self._make_figure(fitted)
        self._make_controls()
        self._make_page()
        settings = self._settings_column()
        # the page's figure has its own transport: the kernel's stays hidden
        # the controls used in class sit above the figure, on screen with it and the timeline
        # (in lecture mode the rule's equation shares their row)
        self.w_equation_main.layout = W.Layout(flex="1 1 20em", margin="0 0 0 12px")
        row = W.HBox([self.w_edit, self.side_choice, self.w_equation_main],
                     layout=W.Layout(flex_flow="row wrap", align_items="center"))
        self._lay_out(settings, [self.messages, row], symbols="perceptron", **kwargs)

        self._follow_model(self._on_run, "trajectory")
        m = self.model
        if m.info.pending and loop is None:
            m.describe()  # a model made to describe later, but no kernel loop to come back on
        self._on_run()
        if m.info.pending:
            self._describe_later(loop)

    def _make_figure(self, fitted: FigureFit | None) -> None:
        """The kernel's figure, fitted to the guessed or given size."""
        # The page draws the figure (explorer.app.perceptron.page); the kernel's figure is a
        # plain matplotlib figure that draws the still layers and, when read (exports, tests),
        # has its artists at the settled step (see the ``figure`` property).
        self._figure = PerceptronFigure()
        self._figure_step = None  # a settled step the artists have not been moved to yet
        self.fitted = fitted if fitted is not None else guessed_fit()
        self._figure.fit(self.fitted.width, self.fitted.height, scale=self.fitted.scale)

    def _make_controls(self) -> None:
        """The settings column's controls: data, rule, race, order, typed fields, buttons."""
        m = self.model
        wide = W.Layout(width="95%")
        lbl = {"style": {"description_width": "calc(var(--pe-font) * 6.2)"}, "layout": wide}
        self.data_origin = datachoice.LOADED  # what points that are no data set are
        self.edit_base = None  # what clicks edited (datachoice.edit_base), for exports
        self.w_dataset = W.Dropdown(options=datachoice.data_options(DATA_NAMES, None),
                                    value=m.dataset, **lbl)
        labels.label(self.w_dataset, description=N_("Data"))
        # every field that declares its control (text boxes typed are read by their field)
        c = self._declared_controls(**lbl)
        # the names tests and notebooks use
        self.w_margin, self.w_rule, self.w_order = c["margin"], c["rule"], c["order"]
        self.w_fit = c["fit_intercept"]
        # rules racing the tab's rule: same data, same order, one plane each (explorer.perceptron.race)
        self.w_race = ChoiceChecks(SPEC.field("race"), {k: r.title for k, r in RULES.items()},
                                   m.race, description=N_("Race against (same data and order)"),
                                   layout=wide)
        self._race_figure = None  # made when a race is first shown
        # The update the rule makes and its source: under the Rule menu, and in lecture mode
        # (settings hidden) above the figure; the CSS of explorer.app.layout shows one of them.
        self.w_equation = W.HTML().add_class("pe-equation")
        self.w_equation_main = W.HTML().add_class("pe-equation")
        self.b_zero = labels.label(
            W.Button(layout=W.Layout(width="95%")), description=N_("Start from w = 0"),
            tooltip=N_("Clear start w: the proof and Novikoff's bound start at 0"))
        self.b_zero.on_click(lambda _: self._apply("w0", ""))
        self.b_defaults = labels.label(
            W.Button(layout=W.Layout(width="95%")), description=N_("Reset all settings"),
            tooltip=N_("Back to the opening screen: Koski's example, step 0"))
        self.b_defaults.on_click(lambda _: self.reset_settings())
        self.b_send = labels.label(
            W.Button(layout=W.Layout(width="95%")),
            description=N_("Open these points in the Margins tab"),
            tooltip=N_("The same data beside its max-margin hyperplane"))
        self.b_send.on_click(lambda _: self._send_points())
        self._choices = {"dataset": self.w_dataset, "race": self.w_race}
        self._observe_fields(self._choices)

    def _make_page(self) -> None:
        """The transport, the messages, the export panel, the click mode and the page figure."""
        self.timeline = Transport()  # the page has the buttons, slider, Play and keys
        self.timeline.status = self._status
        # the page's figure shows the narration (and is described by it): the kernel keeps it
        self.messages = MessageArea(narration=False)
        self.export = ExportPanel(basename=self._export_name, still=self._still,
                                  animate=self._animate)
        self.w_edit = W.ToggleButtons(options=EDIT_MODES, value="view", tooltips=EDIT_TIPS,
                                      style={"button_width": "auto"})
        labels.label(self.w_edit, description=N_("Click mode"))
        self.w_edit.observe(self._on_edit_mode, names="value")
        self.paged = PageRun(self._figure, self.timeline, self.fitted)
        self.page = self.paged.page
        self.page.on_pointer(self._on_pointer)
        self.page.on_view3d(self._on_view3d)
        self.figure_box = self.page

    def _settings_column(self) -> W.VBox:
        """The settings column, by section."""
        c = self.controls
        self.data_panel = DataPanel(self._use_data, self.messages, max_rows=MAX_POINTS,
                                    features=self.data_features)
        self.own_data = disclosure(N_("Your own data (CSV)"), self.data_panel)
        return W.VBox([
            section(N_("Data")), self.w_dataset, c["n"], c["dim"], c["margin"], c["seed"], self.own_data,
            section(N_("Rule")), c["rule"], self.w_equation, c["eta"], c["forget"], c["rho"],
            c["fit_intercept"], c["max_epochs"], self.w_race,
            section(N_("Visiting order")), c["order"], c["custom_order"], c["batch"],
            section(N_("Start")), c["w0"], self.b_zero,
            section(N_("Share")), self.b_send,
            section(N_("Export")), export_section(self.export),
            section(N_("All settings")), self.b_defaults,
        ])

    def _describe_later(self, loop) -> None:
        """Import the solvers of the run's bound and proof in a thread (about 1.5 s of CPU),
        starting :data:`SOLVERS_AFTER_S` after the page is built so that they do not compete
        with the page's first drawing; then describe the run on the kernel's own thread and
        redraw the step shown. A change made before then imports them at once."""
        def load():
            try:
                for name in SOLVER_MODULES:
                    importlib.import_module(name)
            finally:
                loop.call_soon_threadsafe(self._described)

        # after the page has loaded its widgets and drawn the figure (CPU is shared)
        thread = threading.Thread(target=load, name="pe-solvers", daemon=True)
        loop.call_later(SOLVERS_AFTER_S, thread.start)

    def _described(self) -> None:
        m = self.model
        if not m.describe():
            return  # a newer run was described when it was built
        if m.racing is not None:  # no bound to draw: the narration's verdict on the data
            self._race_figure.info = m.info
        else:
            self._figure.set_run(m.trajectory, m.X, m.y, m.info)
        self._show_run(keep=True)  # the page may have stepped on meanwhile: it stays there
        self._shown = None
        self._on_step(redraw=True)

    # ------------------------------------------------------------------ model -> view
    def _on_run(self, change=None):
        m = self.model
        traj = m.trajectory
        self.export.clear()
        self._describe_export()
        if m.racing is None:
            self._figure.hand = m.choose_mode
            self._figure.edited = m.edited
            self._figure.set_run(traj, m.X, m.y, m.info)
            self.paged.figure = self._figure
        else:
            if self._race_figure is None:
                from ...plots.race import RaceFigure

                self._race_figure = RaceFigure()
                self._race_figure.fit(self.fitted.width, self.fitted.height,
                                      scale=self.fitted.scale)
            self._race_figure.set_race(m.racing)
            self._race_figure.edited = m.edited
            self._race_figure.info = m.info
            self.paged.figure = self._race_figure
        self._figure_step = None
        self._shown = None
        self._loading = True  # the timeline restarts at 0, then moves to the run's step
        try:
            updates = traj.update_steps if m.racing is None else m.racing.update_steps()
            self.timeline.set_run(m.n_steps, updates=updates, epoch=m.epoch_steps, start=m.step)
            cycle = m.info.cycle if m.racing is None else None
            self.timeline.set_cycle(cycle.start_step if cycle is not None and cycle.found
                                    else None)
        finally:
            self._loading = False
        self._show_run()
        self._sync_controls()
        self._on_step()
        self._on_message()

    def _show_run(self, *, keep: bool = False) -> None:
        """Send the run to the page (its scene at the current size, its first chunks);
        ``keep``: the same run again, the page keeps the step it shows."""
        try:
            self.paged.show(step=self.model.step, keep=keep)
        except (ValueError, OverflowError, FloatingPointError) as exc:
            self.messages.refuse(f"Could not draw this run: {exc}")

    def _on_step(self, change=None, *, redraw: bool = False):
        m = self.model
        k = m.step
        if self.timeline.step != k:
            self.timeline.go(k)
        if self._shown == (id(m.trajectory), k):
            return  # one image per change: never send the same frame twice
        self._shown = (id(m.trajectory), k)
        try:  # the narration; the artists move when next read
            text = (self._figure.frame(k).text if m.racing is None else
                    self._race_figure.narration(k))
        except (ValueError, OverflowError, FloatingPointError) as exc:
            self.messages.refuse(f"Could not draw step {k}: {exc}")
            return
        self._figure_step = k
        self.paged.go(k)
        self.messages.narrate(text, keep_refusal=redraw)
        self.changed += 1

    @property
    def figure(self):
        """The kernel's matplotlib figure (exports, notebooks, tests), its artists at the
        settled step: the :class:`PerceptronFigure`, or the race's
        :class:`~explorer.plots.race.RaceFigure` while rules race. The artists are moved there
        when the figure is read, not at every settled step: the page draws the steps, and a
        settled step costs the kernel no artist work."""
        figure = self.paged.figure
        if self._figure_step is not None:
            k, self._figure_step = self._figure_step, None
            figure.show(k)
        return figure

    def _status(self, k: int) -> str:
        m = self.model
        if m.racing is not None:
            return self._race_figure.status_text(k)
        return status_text(m.trajectory, k, n_points=len(m.X), cycle=m.info.cycle,
                           edited=m.edited)

    def _on_message(self, change=None):
        text = self.model.message
        if self.model.refusal is not None:
            self.messages.refuse(text)
        else:
            self.messages.note(text)

    def _sync(self):
        m = self.model
        datachoice.show_data(self.w_dataset, DATA_NAMES, dataset=m.dataset, points=(
            datachoice.points_label(self.data_origin, len(m.X)) if m.edited else None))
        self._show_fields({"race": self.w_race})
        self.w_race.disable({m.rule})
        equation = equation_html(m.rule, 1 if m.choose_mode else m.batch)
        if self.w_equation.value != equation:
            self.w_equation.value = self.w_equation_main.value = equation
        self.b_zero.disabled = not m.w0

    # ------------------------------------------------------------------ view -> model
    def _holds(self, name, value) -> bool:
        if name == "dataset":
            m = self.model
            return datachoice.chosen_already(value, dataset=m.dataset, edited=m.edited)
        return super()._holds(name, value)

    def _on_edit_mode(self, change):
        self.page.pointer_mode = change["new"]
        choose = change["new"] == "choose"
        if choose != self.model.choose_mode:
            self.model.update(choose_mode=choose)

    def _on_pointer(self, pointer) -> None:
        """A click in the page's figure, in data coordinates (explorer.app.pagefigure)."""
        if pointer.panel != "plane":
            self.page.pointer_done()
            return  # clicks outside the data plane do nothing
        before = self.model.trajectory
        self.click(pointer.x, pointer.y, mode=pointer.mode)
        if self.model.trajectory is before:
            self.page.pointer_done()  # refused: the page's mark of the click goes

    def _on_view3d(self, panel: str, azim: float, elev: float) -> None:
        """The person turned the 3-D view (data of three features) in the page: the kernel's
        figure follows (the next scene, the exports and "you choose" clicks see it so)."""
        solid = self._figure.solid
        if panel == "plane" and solid is not None and self._figure.plane is solid:
            solid.set_view(azim, elev)

    def _view3d(self):
        """The 3-D view's ``(azimuth, elevation)`` as the page turned it, or None (no 3-D
        view): the exports draw it so."""
        solid = self._figure.solid
        return (solid.azim, solid.elev) if solid is not None and self._figure.plane is solid \
            else None

    def click(self, x: float, y: float, *, mode: str | None = None) -> None:
        """A click at ``(x, y)`` in the data plane, in the click mode shown (or ``mode``)."""
        ax = self.figure.plane.ax
        mode = self.w_edit.value if mode is None else mode
        m = self.model
        x0, x1 = ax.get_xlim()
        radius = 0.035 * (x1 - x0)
        event = _Click(x, y)
        if mode in ("add+", "add-", "remove"):
            before, base = self.data_origin, self.edit_base
            self.edit_base = datachoice.edit_base(before, base, edited=m.edited, dataset=(
                VIEW_DATASETS[m.dataset][0], m.dataset))
            self.data_origin = datachoice.EDITED  # what the edit's commit calls the points
            if mode == "remove":
                i = m.nearest_point(event.xdata, event.ydata, radius)
                done = i is not None and m.remove_point(i)
            else:
                done = m.add_point(event.xdata, event.ydata, 1 if mode == "add+" else -1)
            if not done:
                self.data_origin, self.edit_base = before, base
            if mode == "remove" and i is None:
                m.refuse("no point there; click on a point")
        elif mode == "choose":
            planes = self.figure.planes  # more than two features: where this step draws them
            coords = None if planes is None else planes.coords(m.step)
            if self._figure.plane is self._figure.solid:  # three: where the 3-D view shows them
                coords = self._figure.solid.X
            i = m.nearest_point(event.xdata, event.ydata, radius, coords=coords)
            if i is None:
                m.refuse("no point there; click on a point")
            else:
                m.choose(i)

    # ------------------------------------------------------------------ dashboard protocol
    def _use_data(self, X, y) -> bool:
        """Points read from a person's CSV: the run starts again on them from w = 0."""
        state = self.save_state() | {"points": points_of(X, y), "w0": [], "order": "cyclic",
                                     "custom_order": [], "chosen": [], "step": 0,
                                     "batch": min(self.model.batch, len(X))}
        return self.load_state(state, origin=datachoice.CSV)

    def load_state(self, state: dict, *, origin: str | None = None) -> bool:
        """Apply a whole state; ``origin`` says what its points are, if it has any (e.g.
        "Margins tab"; see :mod:`explorer.app.datachoice`)."""
        before = self.data_origin
        self.data_origin = origin or datachoice.LOADED
        ok = self.model.set_state(state)
        if ok:
            self.w_edit.value = "choose" if self.model.choose_mode else "view"
        else:
            self.data_origin = before
        return ok

    def _send_points(self) -> None:
        m = self.model
        self.handoff = Handoff(tab="margins", X=m.X, y=m.y)  # M features: solved in R^M there

    def reset_settings(self) -> None:
        """Every setting back to its declared default (the opening screen), edits dropped."""
        self.w_edit.value = "view"
        self.load_state(SPEC.defaults())

    # ------------------------------------------------------------------ export
    def _data_shown(self) -> tuple[str, str]:
        """The data shown, in an export's caption and its file name (what the points are:
        :func:`explorer.app.datachoice.shown_data`)."""
        m = self.model
        return datachoice.shown_data(edited=m.edited, origin=self.data_origin, n=len(m.X),
                                     dataset=(VIEW_DATASETS[m.dataset][0], m.dataset),
                                     base=self.edit_base)

    def _title(self) -> str:
        m = self.model
        data = self._data_shown()[0]
        batch = f" · batches of {m.batch}" if m.batch > 1 and not m.choose_mode else ""
        rules = RULES[m.rule].title if m.racing is None else " vs ".join(
            RULES[r].title for r in m.racing.rules)
        order = ORDERS[m.order] if not m.choose_mode else "you choose"
        # the seed where it shapes what is shown: drawn data, or a random visiting order
        drawn = m.dataset in ("separable", "overlapping") and not m.edited
        seeded = drawn or (m.order in ("shuffle", "random") and not m.choose_mode)
        return (f"{data} · {rules} · η = {m.eta:g} · {order}{batch}"
                f"{f' · seed {m.seed}' if seeded else ''}")

    def _export_name(self, ext: str) -> str:
        m = self.model
        rules = m.rule if m.racing is None else "-vs-".join(m.racing.rules)
        return file_stem("perceptron", self._data_shown()[1], rules,
                         f"step{m.step}" if ext in ("png", "svg") else "run")

    def _describe_export(self) -> None:
        """Say which steps the GIF and HTML show: all, or (a long run) every update and the
        step before it first, then evenly spaced (:func:`explorer.plots.export.frame_steps`)."""
        from ...plots.export import frame_steps

        if self.model.racing is not None:
            return super()._describe_export()
        n = self.model.trajectory.n_steps
        frames = len(frame_steps(self.model.trajectory))
        self.export.describe(
            f"GIF and HTML: {frames} frames, step 0 to {n:,}, every one." if frames == n + 1 else
            f"GIF and HTML: {frames} frames of the {n + 1:,} steps (0 to {n:,}): every update "
            "and the step before it first, then evenly spaced.")

    def _still(self, fmt: str) -> bytes:
        from ...plots.export import still_bytes

        m = self.model
        if m.racing is not None:
            return super()._still(fmt)
        return still_bytes(m.trajectory, m.X, m.y, k=m.step, fmt=fmt, info=m.info,
                           title=self._title(), hand=m.choose_mode, view=self._view3d())

    def _animate(self, kind: str, progress, cancelled) -> bytes:
        from ...plots.export import gif_bytes, html_animation

        m = self.model
        if m.racing is not None:
            return super()._animate(kind, progress, cancelled)
        args = (m.trajectory, m.X, m.y)
        kw = dict(info=m.info, title=self._title(), hand=m.choose_mode, progress=progress,
                  cancelled=cancelled, view=self._view3d())
        if kind == "gif":
            return gif_bytes(*args, **kw)
        return html_animation(*args, **kw).encode("utf-8")

    def _export_frames(self):
        """The race's frames for its exports (the tab's own run exports with a caption of
        its own, :mod:`explorer.plots.export`)."""
        from ...plots.animation import TabFrames
        from ...plots.race import RaceFigure

        m = self.model
        f = self._export_figure(RaceFigure, blit=True)
        f.set_race(m.racing)
        f.edited, f.info = m.edited, m.info
        n, title = m.n_steps, self._title()
        return TabFrames(f, n_steps=n, title=title,
                         heading=tr("Perceptron race · {settings}").format(settings=title),
                         caption=lambda k: tr("step {k} of {n}").format(k=k, n=n))

    # ------------------------------------------------------------------ for tests
    def drawn_line(self) -> np.ndarray:
        """Endpoints of the boundary currently drawn in the data plane, shape (2, 2) or (0, 2)."""
        x, y = self.figure.plane.line.get_data()
        return np.column_stack([x, y]) if len(x) else np.zeros((0, 2))
