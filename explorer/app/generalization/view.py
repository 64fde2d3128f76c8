"""The Generalization tab: surrogate losses of a run on the shared timeline, Hardt & Recht's
stability bound measured by a background simulation (progress bar, Stop), and training against
test error of the perceptron and the pocket rule on real data.

The page draws the figure (:mod:`explorer.app.pagerun`): the loss markers of every step, and
the simulation's points and the words of its legend's title as static tracks. A finished size
is sent as the static tracks that changed, with the new summary that the page adds to every
step's narration, while the probability axis and the legend's frame stay as they are;
otherwise the figure is described again (its still layers drawn anew).
"""

from __future__ import annotations

import html

import ipywidgets as W
import numpy as np

from ...plots.generalization import GeneralizationFigure
from ...shared.i18n import N_, tr
from .. import datachoice
from ..controls import caption_of
from ..export import export_section, file_stem
from ..jobs import kernel_loop
from ..layout import FigureFit, guessed_fit, section
from ..lazy import disclosure
from ..messages import MessageArea
from ..pagerun import PageRun
from ..state import points_of
from ..tab import TabView
from ..timeline import Transport
from ..upload import DataPanel
from .model import (
    DATASETS,
    LOSS_NAMES,
    MAX_FEATURES,
    MAX_OWN_POINTS,
    SIM_KEYS,
    SPEC,
    GeneralizationModel,
)

#: The figure's accessible name.
NAME = ("Generalization tab: the training examples' surrogate losses at the step shown, the "
        "fresh-point margin mistakes against Hardt & Recht's stability bound, and training "
        "against test error")
#: Bytes a chunk of loss markers should stay under (a step holds 5 × 9 bytes a training
#: example: 18 kB a step on breast cancer's 398, where 256 steps would be 4.6 MB).
CHUNK_BYTES = 512_000


def chunk_steps(n_points: int) -> int:
    """Steps per chunk for a run on ``n_points`` examples: a power of two in 16..256 that keeps
    a chunk under :data:`CHUNK_BYTES`."""
    fit = CHUNK_BYTES / (5 * 9 * max(int(n_points), 1))
    return int(min(256, max(16, 2 ** int(np.floor(np.log2(max(fit, 1.0)))))))
BOUNDS_TEXT = (
    "<b>Stability bound</b> (Hardt &amp; Recht (2022), ch. 3, after Vapnik &amp; Chervonenkis): "
    "train the perceptron (margin rule, η = 1, no offset, from w = 0, cyclic passes until a pass "
    "has no margin mistake) on n i.i.d. points Sₙ; for a fresh point (X, Y) from the same "
    "distribution, P[Y⟨w(Sₙ), X⟩ &lt; 1] ≤ E[(2 + D²)/γ²]/(n + 1), with D and γ the largest norm "
    "and the margin γ(S) of the n + 1 points together; the probability and the expectation are "
    "over all n + 1 points. The proof bounds the rate by E[m]/(n + 1) first, m the margin "
    "mistakes of the run on all n + 1 points (drawn too). Here every ‖x‖ = 1, so the lecture "
    "notes' 3/(γ²(n + 1)) holds with the distribution's margin γ (dashed). "
    "<b>VC bound</b> (perceptron lecture notes, 'Via ULLN'): with probability "
    "≥ 1 − e^(−nδ²/2) a separator of the training data has test error ≤ √((d+1) log(n+1)/n) + δ. "
    "Drawn is the expected error this implies, √((d+1) log(n+1)/n) + δ + e^(−nδ²/2) with "
    "δ = √(2 log(n)/n) (our step: the error is at most 1 on the failure event). It bounds the "
    "zero-one error, the stability bound the margin mistakes (which include the errors). "
    "<b>Data</b>: ‖x‖ = 1, first coordinate y·t with t uniform on [γ, 1], the rest uniform; "
    "labels ±1 equally likely.")
LOSSES_TEXT = ("Losses of z = y·f(x) (Hardt &amp; Recht (2022), ch. 3, 'A word about surrogate "
               "losses'): each marker is one training example of the run (on real "
               "data its 70 % training part) at the step shown. The perceptron's update is a "
               "subgradient step on the perceptron loss (classic rule) or on the hinge loss (margin rule).")
RISK_TEXT = ("Risk panel: the pocket rule (Gallant; Sayed (60.45)) runs 30 reshuffled passes on "
             "70 % of each data set; its last iterate is the classic perceptron's. Bars: error "
             "on the training part (empirical risk) and on the 30 % held out (an estimate of "
             "the risk). With your own data, their row comes first, split by the seed.")


class GeneralizationView(TabView):
    """Composite widget of the Generalization tab. ``GeneralizationView().model`` is its state."""

    title = "Generalization"
    spec = SPEC
    #: The tab's model (no widgets): a slide's preview builds one (:mod:`explorer.app.preview`).
    model_class = GeneralizationModel
    #: A CSV is trained in its own dimension, up to this many features (the figure draws
    #: margins y·f(x) and error rates, the same in any dimension).
    data_features = MAX_FEATURES

    def __init__(self, model: GeneralizationModel | None = None, *, autorun: bool | None = None,
                 fitted: FigureFit | None = None, **kwargs):
        self.model = model if model is not None else GeneralizationModel()
        m = self.model
        # The page draws the figure (explorer.app.pagerun); the kernel's figure is a plain
        # matplotlib figure that follows the settled step (exports, tests) and draws the still
        # layers.
        self.figure = GeneralizationFigure()
        self.fitted = fitted if fitted is not None else guessed_fit()
        self.figure.fit(self.fitted.width, self.fitted.height, scale=self.fitted.scale)

        lbl = {"style": {"description_width": "calc(var(--pe-font) * 6.2)"},
               "layout": W.Layout(width="95%")}
        c = self._declared_controls(**lbl)  # every field that declares its control
        # the names tests and notebooks use
        self.w_dataset, self.w_rule = c["dataset"], c["rule"]
        self.w_losses = {name: c[f"show_{name}"] for name in LOSS_NAMES}

        self._make_simulation_controls()

        self.timeline = Transport()  # the page has the buttons, slider, Play and keys
        self.timeline.status = self._status
        # the page's figure shows the narration (and is described by it): the kernel keeps it
        self.messages = MessageArea(narration=False)
        self.export = self._export_panel()
        self.data_panel = DataPanel(self._use_data, self.messages, max_rows=MAX_OWN_POINTS,
                                    features=self.data_features)
        self.own_data = disclosure(N_("Your own data (CSV)"), self.data_panel)
        self.paged = PageRun(self.figure, self.timeline, self.fitted, name=NAME,
                             ready=lambda: self.model.traj is not None)
        self.page = self.paged.page
        self.figure_box = self.page
        settings = self._settings_column()
        sim_row = W.HBox([self.b_run, self.b_stop, self.progress, self.sim_label],
                         layout=W.Layout(flex_flow="row wrap", align_items="center"))
        sim_row.add_class("pe-sim-row")
        self._lay_out(settings, [self.messages, sim_row], symbols="generalization", **kwargs)
        self._drawn = None  # what the page's scene shows: (run, risk, losses, plan)
        self._curve = None  # the simulation's curve the page shows
        self._follow_model(self._on_run, "traj")
        m.observe(self._on_curve, names="curve")
        m.observe(self._on_risk, names="risk")
        m.observe(self._on_sim, names=["sim_running", "sim_done", "sim_total", "sim_note"])
        m.observe(self._on_losses, names=[f"show_{n}" for n in LOSS_NAMES])
        m.observe(self._on_plan, names=["ns", "trials"])
        self._on_sim()
        self._on_run()
        loop = kernel_loop()
        if autorun if autorun is not None else loop is not None:
            if loop is None:
                self._autorun()
            else:  # once the tab is made and its figure drawn: the thread would share the CPU
                loop.call_soon(self._autorun)

    def _make_simulation_controls(self) -> None:
        """Run and Stop of the stability simulation, its progress bar and its note."""
        self.b_run = W.Button(description="Run simulation", icon="play", button_style="primary",
                              layout=W.Layout(width="auto"),
                              tooltip="Run the stability simulation for the sizes not done yet")
        self.b_stop = W.Button(description="Stop", icon="stop", button_style="warning",
                               layout=W.Layout(width="auto"),
                               tooltip="Stop the simulation; the sizes finished stay",
                               disabled=True)
        self.progress = W.FloatProgress(value=0.0, min=0.0, max=1.0, description="simulation",
                                        style={"description_width": "auto"},
                                        layout=W.Layout(width="260px"))
        self.progress.add_class("pe-sim-progress")
        self.sim_label = W.HTML().add_class("pe-sim-note")
        self.b_run.on_click(lambda _: self._run_sim())
        self.b_stop.on_click(lambda _: self.model.stop_simulation())

    def _settings_column(self) -> W.VBox:
        """The settings column, by section."""
        t = self.controls
        return W.VBox([
            section(N_("The run (losses panel)")), self.w_dataset, self.w_rule, t["n_run"],
            self.own_data,
            section(N_("Losses shown")), *self.w_losses.values(),
            section(N_("Stability simulation")), t["ns"], t["trials"], t["gamma"], t["dim"],
            t["seed"],
            section(N_("Export")), export_section(self.export),
            section(N_("What is drawn")),
            W.HTML(f"<div class='pe-help'>{BOUNDS_TEXT}</div><div class='pe-help'>{LOSSES_TEXT}"
                   f"</div><div class='pe-help'>{html.escape(RISK_TEXT)}</div>"),
        ])

    # ------------------------------------------------------------------ model -> view
    def _on_run(self, change=None):
        self.export.clear()
        self._describe_export()
        self._refresh()
        self._sync_controls()
        self._on_step(redraw=True)

    def _refresh(self) -> None:
        """The kernel's figure and the page's scene from the model, once for all the traits an
        update changed together (each observer calls this; the later ones find nothing new)."""
        m, f = self.model, self.figure
        drawn = (id(m.traj), id(m.risk), m.shown_losses, tuple(m.ns), m.trials)
        if drawn == self._drawn and m.curve is self._curve:
            return
        f.tail = f"{self._own_summary()} {self._summary()}."
        if drawn == self._drawn:  # only the simulation grew: its points, if the axes stay
            self._curve = m.curve
            static = f.grow(m.curve)
            if static is not None:  # what changed, and the summary after every narration
                self.page.send_static(static, changed_only=True)
            else:
                self._show_run()
            return
        if self._drawn is None or drawn[0] != self._drawn[0]:
            f.set_run(m.X, m.y, m.traj)
            self._loading = True
            try:
                self.timeline.set_run(m.n_steps, updates=m.traj.update_steps, epoch=len(m.X),
                                      start=m.step)
            finally:
                self._loading = False
        f.set_losses(m.shown_losses)
        f.set_risk(m.risk)
        f.set_stability(m.curve, ns=m.ns, trials=m.trials)
        self._drawn, self._curve = drawn, m.curve
        self._shown = None
        self._show_run()

    def _show_run(self) -> None:
        """Send the run to the page (its scene at the current size, first chunks)."""
        self.paged.chunk_steps = chunk_steps(len(self.model.X))
        try:
            self.paged.show(step=self.model.step)
        except (ValueError, OverflowError, FloatingPointError) as exc:
            self.messages.refuse(f"Could not draw this run: {exc}")

    def _summary(self) -> str:
        c = self.model.curve
        if c is None or not len(c.ns):
            return tr("Stability simulation: no size finished yet")
        i = len(c.ns) - 1
        values = dict(n=c.ns[i], trials=c.trials, below=f"{3 / c.trials:.2g}",
                      rate=f"{c.margin_rate[i]:.3g}", se=f"{c.margin_se[i]:.2g}",
                      mistakes=f"{c.mistakes_bound[i]:.3g}", bound=f"{c.stability_bound[i]:.3g}",
                      vc=f"{c.vc[i]:.3g}")
        if c.margin_rate[i] == 0:
            return tr("n = {n}: no margin mistake on {trials} fresh points (rate below {below} "
                      "at 95 %), E[m]/(n+1) = {mistakes}, Hardt & Recht's bound {bound}, "
                      "VC {vc}").format(**values)
        return tr("n = {n}: fresh-point margin mistakes {rate} ± {se}, E[m]/(n+1) = {mistakes}, "
                  "Hardt & Recht's bound {bound}, VC {vc}").format(**values)

    def _on_step(self, change=None, *, redraw: bool = False):
        m = self.model
        k = m.step
        if self.timeline.step != k:
            self.timeline.go(k)
        key = (id(m.traj), k, id(m.curve), id(m.risk), m.shown_losses)
        if self._shown == key and not redraw:
            return
        self._shown = key
        try:
            self.figure.show(k)  # the kernel's figure follows the settled step (no drawing)
        except (ValueError, OverflowError, FloatingPointError) as exc:
            self.messages.refuse(f"Could not draw step {k}: {exc}")
            return
        self.paged.go(k)
        self.messages.narrate(self.figure.narration(k), keep_refusal=redraw)
        self.changed += 1

    def _own_summary(self) -> str:
        r = self.model.risk.rows[0] if self.model.risk is not None else None
        if self.model.dataset != "own" or r is None or r.key != "own":
            return ""
        return " " + tr("Your data: {train} training and {test} test points (seed {seed}); "
                        "pocket rule training error {train_error} %, test error "
                        "{test_error} %.").format(
            train=r.n_train, test=r.n_test, seed=self.model.seed,
            train_error=f"{100 * r.train_pocket:.1f}", test_error=f"{100 * r.test_pocket:.1f}")

    def _status(self, k: int) -> str:
        return self.figure.status(k)

    # ------------------------------------------------------------------ export
    def _export_frames(self):
        from ...plots.animation import TabFrames

        m = self.model
        f = self._export_figure(GeneralizationFigure, blit=True)
        f.set_losses(m.shown_losses)
        f.set_risk(m.risk)
        f.set_stability(m.curve, ns=m.ns, trials=m.trials)
        f.set_run(m.X, m.y, m.traj)
        n, traj, tail = m.n_steps, m.traj, f"{self._own_summary()} {self._summary()}."
        data = self._data_shown()[0]
        title = f"{data} · {caption_of(self.spec, m)}"

        def caption(k):
            u = traj.updates_until(k)
            return f"step {k} of {n} · {u} update{'' if u == 1 else 's'}"

        return TabFrames(f, n_steps=n, title=title, heading=f"Generalization · {title}",
                         caption=caption, narrate=lambda k, text: text + tail)

    def _export_name(self, ext: str) -> str:
        m = self.model
        what = f"step{m.step}" if ext in ("png", "svg") else "run"
        return file_stem("generalization", self._data_shown()[1],
                         *caption_of(self.spec, m, stem=True), what)

    def _data_shown(self) -> tuple[str, str]:
        """The data shown, in an export's caption and its file name: a person's CSV says so
        and how many points it has (the seed splits it into training and test points)."""
        m = self.model
        if m.dataset == "own":
            words, slug = datachoice.described(datachoice.CSV)
            n = len(m.points)  # all of them: the run trains on its part, tests on the rest
            return f"{words} ({n} point{'' if n == 1 else 's'})", slug
        return DATASETS[m.dataset] + (f", {len(m.X)} points" if m.dataset == "margin" else
                                      ""), m.dataset

    def _on_curve(self, change=None):
        self._refresh()
        self._on_step(redraw=True)

    def _on_plan(self, change=None):
        self._refresh()
        self._on_step(redraw=True)

    def _on_risk(self, change=None):
        self._refresh()
        self._on_step(redraw=True)

    def _on_losses(self, change=None):
        self._refresh()
        self._sync_controls()
        self._on_step(redraw=True)

    def _on_sim(self, change=None):
        m = self.model
        self.b_run.disabled = m.sim_running
        self.b_stop.disabled = not m.sim_running
        self.progress.value = (m.sim_done / m.sim_total) if m.sim_total else (
            0.0 if m.curve is None else len(m.curve.ns) / max(len(m.ns), 1))
        self.progress.bar_style = "info" if m.sim_running else (
            "success" if m.curve is not None and m.curve.complete else "")
        self.sim_label.value = html.escape(m.sim_note)

    # ------------------------------------------------------------------ view -> model
    def _apply(self, name, value):
        m = self.model
        if self._syncing or self._holds(name, value):
            return  # set from the model, or what it holds already
        done = m.update(**{name: value})
        self._sync_controls()
        if done and name in SIM_KEYS and kernel_loop() is not None:
            self._autorun()  # new settings: their sizes run at once, old ones are kept

    def _use_data(self, X, y) -> bool:
        """Points read from a person's CSV become the run's data (split by the seed)."""
        done = self.model.update(dataset="own", points=points_of(X, y))
        self._sync_controls()
        return done

    @staticmethod
    def _post():
        """How the worker hands results to the kernel's thread (None outside a kernel)."""
        loop = kernel_loop()
        return (lambda fn: loop.call_soon_threadsafe(fn)) if loop is not None else None

    def _run_sim(self):
        self.model.start_simulation(self._post())

    def _autorun(self):
        """The simulation the tab starts by itself (made, new settings, a state opened): one
        already running for these settings is no reason for a refusal (a tab made for a slide
        or a link starts it for the state applied, before the start its making scheduled)."""
        if not self.model.sim_busy:
            self._run_sim()

    def stop_running(self) -> None:
        super().stop_running()
        self.model.stop_simulation()

    # ------------------------------------------------------------------ dashboard protocol

    def load_state(self, state: dict, *, origin: str | None = None) -> bool:
        done = self.model.set_state(state)
        if done and kernel_loop() is not None:
            self._autorun()
        return done
