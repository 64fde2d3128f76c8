"""The "Perceptron" view: controls, the live figure, narration, keyboard and export.

Widgets write parameters into a :class:`PerceptronModel`; the view observes the model and
draws "the state at step k" of its precomputed run. The figure is created once (under
``plt.ioff()``); every control, the Play timer and the keys only set the step to show.
"""

from __future__ import annotations

import base64
import contextlib
import html

import ipywidgets as W
import matplotlib.pyplot as plt
import numpy as np
from PIL import Image

from ..perceptron import RULES
from ..plots import PerceptronFigure
from ..plots.export import figure_bytes, gif_bytes, html_animation
from ..plots.figure import FIGSIZE
from .perceptron_model import ORDERS, VIEW_DATASETS, PerceptronModel

EDIT_MODES = [("View", "view"), ("Add +1", "add+"), ("Add −1", "add-"), ("Remove", "remove"),
              ("You choose", "choose")]
KEYS_HELP = "Keys (mouse over the figure): → step · ← back · space play/pause · r reset"
CSS = """
<style>
.pe-narration { font-size: 19px; line-height: 1.35; min-height: 2.8em; padding: 4px 8px;
  border-left: 4px solid #0072B2; background: #F4F8FB; }
.pe-message { font-size: 16px; color: #8A3B00; min-height: 1.4em; }
.pe-title { font-size: 22px; font-weight: 600; }
.pe-help { font-size: 14px; color: #444; }
.pe-view .widget-label, .pe-view .widget-button, .pe-view .widget-dropdown select,
.pe-view input { font-size: 15px; }
</style>
"""


@contextlib.contextmanager
def _png_level(level: int):
    """Within the block, PNGs that Pillow saves without a compression level use ``level``."""
    original = Image.Image.save

    def save(self, fp, format=None, **params):
        if str(format).lower() == "png":
            params.setdefault("compress_level", level)
        return original(self, fp, format, **params)

    Image.Image.save = save
    try:
        yield
    finally:
        Image.Image.save = original


def _encode_fast(canvas) -> None:
    """ipympl sends each frame as a PNG of the changed pixels, encoded at zlib level 6; at
    level 1 the encode takes about half the time for a slightly larger message (measured in
    docs/performance.md). Only this canvas's frames are affected."""
    get_diff_image = getattr(canvas, "get_diff_image", None)
    if get_diff_image is None:
        return

    def fast():
        with _png_level(1):
            return get_diff_image()

    canvas.get_diff_image = fast


def _lbl(text, width="auto"):
    return dict(description=text, style={"description_width": width})


class PerceptronView(W.VBox):
    """Composite widget of the Perceptron tab. ``PerceptronView().model`` is its state."""

    def __init__(self, model: PerceptronModel | None = None, **kwargs):
        self.model = model if model is not None else PerceptronModel()
        m = self.model
        with plt.ioff():
            fig = plt.figure(figsize=FIGSIZE, dpi=80)
        canvas = fig.canvas
        for attr in ("header_visible", "footer_visible", "toolbar_visible", "resizable"):
            if hasattr(canvas, attr):
                setattr(canvas, attr, False)
        self.figure = PerceptronFigure(fig, blit=True)
        self.canvas = canvas
        _encode_fast(canvas)

        # ---- parameter controls
        self.w_dataset = W.Dropdown(options=[(v[0], k) for k, v in VIEW_DATASETS.items()],
                                    value=m.dataset, **_lbl("Data"))
        self.w_n = W.IntText(value=m.n, **_lbl("n"), layout=W.Layout(width="120px"))
        self.w_margin = W.FloatSlider(value=m.margin, min=0.0, max=1.0, step=0.05,
                                      **_lbl("margin"), continuous_update=False)
        self.w_seed = W.IntText(value=m.seed, **_lbl("seed"), layout=W.Layout(width="130px"))
        self.w_rule = W.Dropdown(options=[(r.title, k) for k, r in RULES.items()], value=m.rule,
                                 **_lbl("Rule"))
        self.w_eta = W.FloatText(value=m.eta, **_lbl("η"), layout=W.Layout(width="130px"))
        self.w_forget = W.FloatText(value=m.forget, **_lbl("forget γ"),
                                    layout=W.Layout(width="160px"))
        self.w_rho = W.FloatText(value=m.rho, **_lbl("ρ"), layout=W.Layout(width="130px"))
        self.w_order = W.Dropdown(options=[(v, k) for k, v in ORDERS.items()], value=m.order,
                                  **_lbl("Order"))
        self.w_custom = W.Text(value=m.custom_order, placeholder="e.g. 5, 3, 1",
                               **_lbl("sequence"), continuous_update=False)
        self.w_w0 = W.Text(value=m.w0, placeholder="0, 0", **_lbl("start w"),
                           continuous_update=False, layout=W.Layout(width="200px"))
        self.w_fit = W.Checkbox(value=m.fit_intercept, description="fit offset b", indent=False)
        self.w_epochs = W.IntText(value=m.max_epochs, **_lbl("max epochs"),
                                  layout=W.Layout(width="170px"))
        self.w_edit = W.ToggleButtons(options=EDIT_MODES, value="view",
                                      tooltips=["Look only", "Click the plane to add a +1 point",
                                                "Click the plane to add a −1 point",
                                                "Click a point to remove it",
                                                "Click the point to visit next"])
        self._controls = {"dataset": self.w_dataset, "n": self.w_n, "margin": self.w_margin,
                          "seed": self.w_seed, "rule": self.w_rule, "eta": self.w_eta,
                          "forget": self.w_forget, "rho": self.w_rho, "order": self.w_order,
                          "custom_order": self.w_custom, "w0": self.w_w0,
                          "fit_intercept": self.w_fit, "max_epochs": self.w_epochs}
        for name, w in self._controls.items():
            w.observe(self._on_control(name), names="value")
        self.w_edit.observe(self._on_edit_mode, names="value")

        # ---- transport
        self.b_back = W.Button(description="◀ Back", tooltip="Back one step (←)")
        self.b_step = W.Button(description="Step ▶", tooltip="Forward one step (→)",
                               button_style="primary")
        self.b_reset = W.Button(description="Reset", tooltip="Back to step 0 (r)")
        self.play = W.Play(value=0, min=0, max=max(m.trajectory.n_steps, 1), interval=250,
                           show_repeat=False, description="Play")
        self.w_speed = W.IntSlider(value=4, min=1, max=20, **_lbl("steps/s"),
                                   layout=W.Layout(width="260px"))
        self.timeline = W.IntSlider(value=0, min=0, max=max(m.trajectory.n_steps, 1),
                                    **_lbl("step"), layout=W.Layout(width="100%"))
        W.jslink((self.play, "value"), (self.timeline, "value"))
        self.b_back.on_click(lambda _: m.go(m.step - 1))
        self.b_step.on_click(lambda _: m.go(m.step + 1))
        self.b_reset.on_click(lambda _: self._reset())
        self.timeline.observe(lambda ch: m.go(ch["new"]), names="value")
        self.w_speed.observe(lambda ch: setattr(self.play, "interval", int(1000 / ch["new"])),
                             names="value")

        # ---- text
        self.narration = W.HTML().add_class("pe-narration")
        self.message = W.HTML().add_class("pe-message")
        self.status = W.HTML().add_class("pe-help")

        # ---- export
        self.b_png = W.Button(description="PNG", icon="image", tooltip="This figure as PNG")
        self.b_svg = W.Button(description="SVG", icon="image", tooltip="This figure as SVG")
        self.b_gif = W.Button(description="GIF", icon="film", tooltip="The run as a GIF")
        self.b_html = W.Button(description="HTML", icon="film",
                               tooltip="The run as a self-contained HTML animation")
        self.progress = W.IntProgress(value=0, min=0, max=1, layout=W.Layout(width="200px",
                                                                              visibility="hidden"))
        self.links = W.HTML()
        self.b_png.on_click(lambda _: self._export_figure("png"))
        self.b_svg.on_click(lambda _: self._export_figure("svg"))
        self.b_gif.on_click(lambda _: self._export_run("gif"))
        self.b_html.on_click(lambda _: self._export_run("html"))

        # ---- events
        canvas.mpl_connect("button_press_event", self._on_click)
        self.figure_box = W.Box([canvas])
        self._keys = None
        self._shown = None
        try:
            from ipyevents import Event

            self._keys = Event(source=self.figure_box, watched_events=["keydown"],
                               prevent_default_action=True)
            self._keys.on_dom_event(self._on_key)
        except ImportError:  # pragma: no cover - ipyevents is a dependency
            pass

        m.observe(self._on_run, names="trajectory")
        m.observe(self._on_step, names="step")
        m.observe(self._on_message, names="message")
        for name in self._controls:
            m.observe(self._sync_control, names=name)

        row = dict(layout=W.Layout(flex_flow="row wrap", align_items="center"))
        self.timeline.layout = W.Layout(flex="1 1 300px", min_width="300px")
        children = [
            W.HTML(CSS + "<div class='pe-title'>Perceptron: watch the boundary learn</div>"),
            W.HBox([self.w_dataset, self.w_n, self.w_margin, self.w_seed], **row),
            W.HBox([self.w_rule, self.w_eta, self.w_forget, self.w_rho, self.w_fit,
                    self.w_epochs], **row),
            W.HBox([self.w_order, self.w_custom, self.w_w0], **row),
            W.HBox([W.HTML("<b>Click mode</b>"), self.w_edit], **row),
            W.HBox([self.b_back, self.b_step, self.play, self.b_reset, self.w_speed,
                    self.timeline], **row),
            self.narration,
            self.message,
            self.figure_box,
            self.status,
            W.HTML(f"<div class='pe-help'>{KEYS_HELP}</div>"),
            W.HBox([W.HTML("<b>Export</b>"), self.b_png, self.b_svg, self.b_gif, self.b_html,
                    self.progress, self.links], **row),
        ]
        super().__init__(children, **kwargs)
        self.add_class("pe-view")
        self._on_run()

    # ------------------------------------------------------------------ model -> view
    def _on_run(self, change=None):
        m = self.model
        traj = m.trajectory
        self.figure.hand = m.choose_mode
        self.figure.set_run(traj, m.X, m.y, m.info)
        top = max(traj.n_steps, 1)
        self.play.playing = False
        for w in (self.play, self.timeline):
            w.max = top
        self._set_enabled()
        self._on_step()
        self._on_message()

    def _on_step(self, change=None):
        m = self.model
        k = m.step
        if self.timeline.value != k:
            self.timeline.value = k
        if self._shown is not None and self._shown[0] is m.trajectory and self._shown[1] == k:
            return  # one image per change: never send the same frame twice
        self._shown = (m.trajectory, k)
        f = self.figure.render(k)
        self.narration.value = html.escape(f.text)
        self.status.value = html.escape(
            f"step {k} of {m.trajectory.n_steps} · {f.n_updates} updates · "
            f"{len(m.X)} points{' (edited)' if m.edited else ''}")

    def _on_message(self, change=None):
        self.message.value = html.escape(self.model.message)

    def _sync_control(self, change):
        w = self._controls[change["name"]]
        if w.value != change["new"]:
            w.value = change["new"]

    def _set_enabled(self):
        m = self.model
        uses = RULES[m.rule].uses
        self.w_forget.disabled = "forget" not in uses
        self.w_rho.disabled = "rho" not in uses
        self.w_custom.disabled = m.order != "custom" or m.choose_mode
        self.w_order.disabled = m.choose_mode
        random_data = m.dataset in ("separable", "overlapping")
        self.w_n.disabled = not random_data
        self.w_seed.disabled = not random_data and m.order not in ("shuffle", "random")
        self.w_margin.disabled = m.dataset != "separable"

    # ------------------------------------------------------------------ view -> model
    def _on_control(self, name):
        def handler(change):
            m = self.model
            if getattr(m, name) == change["new"]:
                return
            if not m.update(**{name: change["new"]}):
                change["owner"].value = getattr(m, name)  # keep the last good value on screen
            self._set_enabled()
        return handler

    def _on_edit_mode(self, change):
        choose = change["new"] == "choose"
        if choose != self.model.choose_mode:
            self.model.update(choose_mode=choose)
        self._set_enabled()

    def _reset(self):
        self.play.playing = False
        self.model.go(0)

    def _on_click(self, event):
        ax = self.figure.plane.ax
        if event.inaxes is not ax or event.xdata is None:
            return  # clicks outside the data plane do nothing
        mode = self.w_edit.value
        m = self.model
        x0, x1 = ax.get_xlim()
        radius = 0.035 * (x1 - x0)
        if mode in ("add+", "add-"):
            m.add_point(event.xdata, event.ydata, 1 if mode == "add+" else -1)
        elif mode in ("remove", "choose"):
            i = m.nearest_point(event.xdata, event.ydata, radius)
            if i is None:
                m.message = "No point there: click on a point."
            elif mode == "remove":
                m.remove_point(i)
            else:
                m.choose(i)

    def _on_key(self, event):
        key = event.get("key")
        m = self.model
        if key == "ArrowRight":
            m.go(m.step + 1)
        elif key == "ArrowLeft":
            m.go(m.step - 1)
        elif key == " ":
            self.play.playing = not self.play.playing
        elif key in ("r", "R"):
            self._reset()

    # ------------------------------------------------------------------ export
    def _link(self, data: bytes, mime: str, name: str, label: str) -> str:
        b64 = base64.b64encode(data).decode("ascii")
        return (f"<a download='{name}' href='data:{mime};base64,{b64}' "
                f"style='font-size:15px'>⬇ {label}</a>")

    def _export_figure(self, fmt: str):
        data = figure_bytes(self.figure, fmt)
        self.figure.render(self.model.step)  # saving drew through another canvas: redraw
        mime = "image/png" if fmt == "png" else "image/svg+xml"
        self.links.value = self._link(data, mime, f"perceptron-step-{self.model.step}.{fmt}",
                                      f"perceptron-step-{self.model.step}.{fmt}")

    def _export_run(self, kind: str):
        m = self.model
        self.progress.layout.visibility = "visible"
        self.progress.value = 0

        def progress(i, n):
            self.progress.max = max(n, 1)
            self.progress.value = i + 1

        try:
            if kind == "gif":
                data = gif_bytes(m.trajectory, m.X, m.y, info=m.info, progress=progress)
                self.links.value = self._link(data, "image/gif", "perceptron-run.gif",
                                              "perceptron-run.gif")
            else:
                page = html_animation(m.trajectory, m.X, m.y, info=m.info, progress=progress)
                self.links.value = self._link(page.encode("utf-8"), "text/html",
                                              "perceptron-run.html", "perceptron-run.html")
        finally:
            self.progress.layout.visibility = "hidden"

    # ------------------------------------------------------------------ for tests
    def drawn_line(self) -> np.ndarray:
        """Endpoints of the boundary currently drawn in the data plane, shape (2, 2) or (0, 2)."""
        x, y = self.figure.plane.line.get_data()
        return np.column_stack([x, y]) if len(x) else np.zeros((0, 2))
