"""The Margins tab: the perceptron's hyperplane beside the max-margin one, support vectors with
their dual weights, slacks, and the SGD run of the soft-margin SVM on the shared timeline.

The page draws the figure (:mod:`explorer.app.pagerun`): the SGD run's steps, and the data
with their max-margin solution as static tracks, so that an edit (a point added, removed or
dragged, :mod:`explorer.app.margins.edits`) is drawn by the page as soon as the kernel has
solved it again.
"""

from __future__ import annotations

import html

import ipywidgets as W

from ... import margins
from ...plots import MarginsFigure
from ...shared.i18n import N_, tr, tr_n
from .. import datachoice
from ..controls import caption_of, choice_buttons
from ..export import export_section, file_stem
from ..handoff import Handoff
from ..layout import FigureFit, guessed_fit, section
from ..lazy import disclosure
from ..messages import MessageArea
from ..pagerun import PageRun
from ..state import points_of
from ..tab import TabView
from ..timeline import Transport
from ..upload import DataPanel
from .edits import PointerEdits, svm_words
from .model import DATASETS, MAX_FEATURES, MAX_POINTS, SPEC, MarginsModel, data_remark

EDIT_MODES = [("View", "view"), ("Add +1", "add+"), ("Add −1", "add-"), ("Remove", "remove"),
              ("Drag", "drag")]
EDIT_TIPS = ["Clicks do nothing to the data", "Click to add a point of class +1",
             "Click to add a point of class −1", "Click on a point to remove it",
             "Press on a point and drag it; the max-margin line follows"]
#: The figure's accessible name.
NAME = ("Margins tab: the data plane with the perceptron's and the max-margin lines, the dual "
        "weights, the SGD objective and the support path")
DATA_NAMES = {key: value[0] for key, value in DATASETS.items()}
FORMULAS = ("Max margin: minimise ‖w‖²/2 with yᵢ(⟨w, xᵢ⟩ + b) ≥ 1 − sᵢ, sᵢ ≥ 0, plus C·Σsᵢ "
            "for the soft margin (Sayed (61.4), (61.11)); margin 1/‖w‖; band f(x) = ±1; "
            "dual weights: w = Σ αᵢ yᵢ xᵢ (61.44). Sayed weighs the slacks by η/N, so η = N·C "
            "(soft margin, 61.11), and writes the SVM objective with ρ = 1/(2η) (61.13); the SGD "
            "rule is his (61.22).")


class MarginsView(PointerEdits, TabView):
    """Composite widget of the Margins tab. ``MarginsView().model`` is its state."""

    title = "Margins"
    spec = SPEC
    #: The tab's model (no widgets): a slide's preview builds one (:mod:`explorer.app.preview`).
    model_class = MarginsModel
    data_features = MAX_FEATURES  # a CSV is solved in its own dimension, up to this many

    def __init__(self, model: MarginsModel | None = None, *, fitted: FigureFit | None = None,
                 **kwargs):
        self.model = model if model is not None else MarginsModel()
        m = self.model
        # The page draws the figure (explorer.app.pagerun); the kernel's figure is a plain
        # matplotlib figure that follows the settled step (exports, tests) and draws the still
        # layers.
        self.figure = MarginsFigure()
        self.fitted = fitted if fitted is not None else guessed_fit()
        self.figure.fit(self.fitted.width, self.fitted.height, scale=self.fitted.scale)
        self.data_origin = datachoice.EDITED  # what points that are no data set are
        self.edit_base = None  # what clicks or drags edited (datachoice.edit_base), for exports

        lbl = {"style": {"description_width": "calc(var(--pe-font) * 6.2)"},
               "layout": W.Layout(width="95%")}
        self.w_dataset = W.Dropdown(options=datachoice.data_options(DATA_NAMES, None),
                                    value=m.dataset, description="Data", **lbl)
        c = self._declared_controls(**lbl)  # every field that declares its control
        # the names tests and notebooks use
        self.w_margin, self.w_hard, self.w_c = c["margin"], c["hard"], c["log_c"]
        self.sayed = W.HTML().add_class("pe-help")
        self.w_layout = choice_buttons(SPEC.field("layout"),
                                       {"overlaid": "Overlaid", "side": "Side by side"}, m.layout,
                                       description="Lines",
                                       tooltips=["Both lines in one plane",
                                                 "The perceptron's plane beside the SVM's"])
        self.w_layout.observe(lambda ch: m.set_layout(ch["new"]), names="value")
        self.b_send = W.Button(description="Open points in the Perceptron tab",
                               layout=W.Layout(width="95%"),
                               tooltip="The same data, in the Perceptron tab")
        self.b_send.on_click(lambda _: self._send_points())
        self._observe_fields({"dataset": self.w_dataset})

        self.timeline = Transport()  # the page has the buttons, slider, Play and keys
        self.timeline.status = self._status
        # the page's figure shows the narration (and is described by it): the kernel keeps it
        self.messages = MessageArea(narration=False)
        self.export = self._export_panel()
        self.w_edit = W.ToggleButtons(options=EDIT_MODES, value="view", description="Click mode",
                                      tooltips=EDIT_TIPS, style={"button_width": "auto"})
        self.w_edit.observe(self._on_edit_mode, names="value")
        self._drag = None  # index of the point being dragged
        self._finish_handle = None
        self.paged = PageRun(self.figure, self.timeline, self.fitted, name=NAME,
                             ready=lambda: self.model.comparison is not None)
        self.page = self.paged.page
        self.page.drag_tracks = ["plane_pos", "plane_neg"]
        self.page.on_pointer(self._on_pointer)
        self.page.on_view3d(self._on_view3d)  # three features: the 3-D view turned in the page
        self.figure_box = self.page
        self.data_panel = DataPanel(self._use_data, self.messages, max_rows=MAX_POINTS,
                                    features=self.data_features)
        self.own_data = disclosure(N_("Your own data (CSV)"), self.data_panel)
        settings = W.VBox([
            section(N_("Data")), self.w_dataset, c["n"], c["margin"], c["seed"], self.own_data,
            section(N_("Max margin")), c["hard"], c["log_c"], self.sayed,
            section(N_("SGD rule (Sayed 61.22)")), c["eta"], c["epochs"],
            section(N_("Share")), self.b_send,
            section(N_("Export")), export_section(self.export),
            section(N_("Formulas")), W.HTML(f"<div class='pe-help'>{html.escape(FORMULAS)}</div>"),
        ])
        # the controls used in class sit above the figure, on screen with it and the timeline
        row = W.HBox([self.w_edit, self.w_layout, self.side_choice],
                     layout=W.Layout(flex_flow="row wrap", justify_content="space-between"))
        self._lay_out(settings, [self.messages, row], symbols="margins", **kwargs)
        self._follow_model(self._on_data, "comparison")
        m.observe(self._on_draft, names="draft")
        m.observe(self._on_layout, names="layout")
        self.figure.set_overlay(m.layout)
        self._on_data()

    # ------------------------------------------------------------------ model -> view
    def _on_data(self, change=None):
        m = self.model
        self.export.clear()
        self._describe_export()
        self.figure.set_data(m.X, m.y, m.comparison, path=m.path, sgd=m.sgd)
        self.figure.summary = self._summary()
        self.figure.edited = m.edited
        self._shown = None
        self._loading = True
        try:
            n = m.n_steps
            self.timeline.set_run(n, epoch=len(m.X) if n else 0, start=m.step)
        finally:
            self._loading = False
        self._show_run()
        self._sync_controls()
        self.messages.note(data_remark(m.X, m.y, m.C, m.comparison.separable))
        self._on_step(redraw=True)

    def _show_run(self) -> None:
        """Send the run to the page (its scene at the current size, the data, first chunks)."""
        try:
            self.paged.show(step=self.model.step)
        except (ValueError, OverflowError, FloatingPointError) as exc:
            self.messages.refuse(f"Could not draw this run: {exc}")

    def _summary(self) -> str:
        m, cmp = self.model, self.model.comparison
        if cmp.svm is None:
            return tr("Hard margin impossible: the data are not linearly separable (the two "
                      "classes' convex hulls share the point drawn). Try the soft margin")
        parts = [svm_words(cmp)]
        if cmp.gamma is not None:
            parts.append(f"γ(S) = {cmp.gamma:.3g}")
        # facts side by side (" · "), each a phrase of its own
        parts.append(tr("the perceptron ended at w = 0, so it draws no line")
                     if cmp.perceptron_margin is None else
                     tr("perceptron's {m}").format(m=f"{cmp.perceptron_margin:.3g}"))
        n_sv = len(cmp.svm.support)
        parts.append(tr_n("{n} support vector", "{n} support vectors", n_sv).format(n=n_sv))
        if not cmp.hard:
            hinge = cmp.hinge_total if abs(cmp.hinge_total) > 1e-9 else 0.0  # no 2.2e-16
            parts.append(tr("hinge Σsᵢ = {total}").format(total=f"{hinge:.3g}"))
        err = m.test_error()
        if err is not None:
            parts.append(tr("test error {percent} % ({n} held out)").format(
                percent=f"{100 * err:.1f}", n=len(m.X_test)))
        return " · ".join(parts)

    def _on_step(self, change=None, *, redraw: bool = False):
        m = self.model
        k = m.step
        if self.timeline.step != k:
            self.timeline.go(k)
        if self._shown == (id(m.comparison), k):
            return
        self._shown = (id(m.comparison), k)
        try:
            self.figure.show(k)  # the kernel's figure follows the settled step (no drawing)
        except (ValueError, OverflowError, FloatingPointError) as exc:
            self.messages.refuse(f"Could not draw step {k}: {exc}")
            return
        self.paged.go(k)
        # what the figure shows in numbers, then what the SGD run is doing at step k
        self.messages.narrate(self.figure.narration(k), keep_refusal=redraw)
        self.changed += 1

    def _on_view3d(self, panel: str, azim: float, elev: float) -> None:
        """The person turned the 3-D view (three features) in the page: the kernel's figure
        follows (the next scene and the exports show it so)."""
        if panel == "plane" and self.figure.in_3d:
            self.figure.solid.set_view(azim, elev)

    def _status(self, k: int) -> str:
        return self.figure.status(k)

    # ------------------------------------------------------------------ export
    def _export_plan(self):
        m = self.model
        return int(m.step), int(m.n_steps), "SGD step"

    def _export_frames(self):
        from ...plots.animation import TabFrames

        m = self.model
        f = self._export_figure(MarginsFigure, blit=True, overlay=m.layout)
        f.set_data(m.X, m.y, m.comparison, path=m.path, sgd=m.sgd)
        if f.in_3d and self.figure.in_3d:  # at the angles the page turned it to
            f.solid.set_view(self.figure.solid.azim, self.figure.solid.elev)
        n, summary = m.n_steps, self._summary()
        data = self._data_shown()[0]
        count = "" if m.edited else f" · {len(m.X)} points"  # edited points say how many
        title = f"{data}{count} · {caption_of(self.spec, m)}"
        return TabFrames(f, n_steps=n, title=title, heading=f"Margins · {title}",
                         caption=lambda k: f"SGD step {k} of {n}" if n else "Max margin",
                         narrate=lambda k, text: f"{summary}. {text}" if text else f"{summary}.")

    def _export_name(self, ext: str) -> str:
        m = self.model
        what = f"step{m.step}" if ext in ("png", "svg") else "sgd"
        return file_stem("margins", self._data_shown()[1],
                         *caption_of(self.spec, m, stem=True), m.layout, what)

    def _data_shown(self) -> tuple[str, str]:
        """The data shown, in an export's caption and its file name (what the points are:
        :func:`explorer.app.datachoice.shown_data`)."""
        m = self.model
        X, _ = m.points
        return datachoice.shown_data(edited=m.edited, origin=self.data_origin, n=len(X),
                                     dataset=(DATASETS[m.dataset][0], m.dataset),
                                     base=self.edit_base)

    def _sync(self):
        m = self.model
        X, _ = m.points
        datachoice.show_data(self.w_dataset, DATA_NAMES, dataset=m.dataset, points=(
            datachoice.points_label(self.data_origin, len(X)) if m.edited else None))
        N = len(m.X)
        self.sayed.value = ("hard margin: C → ∞" if m.hard else html.escape(
            f"C = {m.C:.3g}: Sayed's η = N·C = {margins.sayed_eta(m.C, N):.3g}, "
            f"ρ = 1/(2η) = {margins.sayed_rho(m.C, N):.3g} (N = {N})"))

    # ------------------------------------------------------------------ view -> model
    def _holds(self, name, value) -> bool:
        if name == "dataset":
            m = self.model
            return datachoice.chosen_already(value, dataset=m.dataset, edited=m.edited)
        return super()._holds(name, value)

    def _on_layout(self, change=None):
        m = self.model
        if self.w_layout.value != m.layout:
            self.w_layout.value = m.layout
        self.figure.set_overlay(m.layout)  # lays the figure out again
        self._show_run()
        self._shown = None
        self._on_step(redraw=True)

    def _send_points(self):
        m = self.model
        self.handoff = Handoff(tab="perceptron", X=m.X, y=m.y)

    # ------------------------------------------------------------------ dashboard protocol
    def _use_data(self, X, y) -> bool:
        """Points read from a person's CSV replace the data; C and the layout stay."""
        return self.load_state(self.save_state() | {"points": points_of(X, y), "step": 0},
                               origin=datachoice.CSV)

    @property
    def editing(self) -> bool:
        """A point is being dragged (the dashboard's undo waits for the drop)."""
        return self._drag is not None

    def save_state(self) -> dict:
        """The state (the link writer asks for it once things settle): an edit waiting for its
        pause is finished first, but not a drag in progress (its points are in the state; the
        rest follows on release)."""
        if self._drag is None:
            self.model.finish_edit()
        return self.model.get_state()

    def load_state(self, state: dict, *, origin: str | None = None) -> bool:
        """Apply a whole state; ``origin`` says what its points are, if it has any (e.g.
        "Perceptron tab"; see :mod:`explorer.app.datachoice`)."""
        before = self.data_origin
        self.data_origin = origin or datachoice.LOADED
        if self.model.set_state(state):
            return True
        self.data_origin = before
        return False
