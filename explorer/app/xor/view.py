"""The XOR tab: why no line computes XOR, and three ways out, each on the shared timeline.

A "view" selector chooses what the figure shows (Cycling, Proof, 16 functions, Feature x1·x2,
Two layers, Kernel); the timeline plays the run of that view. Widgets write parameters into an
:class:`XorModel`; the view observes it and draws "the state at step k" of the stored runs.

The page draws the figure (:class:`explorer.app.pagerun.PageRun`, as in the Perceptron
tab): it steps, plays and turns the lifted 3-D view itself from the view's scene and chunks
(:mod:`explorer.plots.xor_page`); the kernel's figure, a plain matplotlib figure, follows the
settled step (what exports draw and tests read).
"""

from __future__ import annotations

import ipywidgets as W

from ... import xor
from ...plots.xor import XorFigure
from ...shared.i18n import N_
from ..controls import caption_of
from ..export import export_section, file_stem
from ..layout import FigureFit, guessed_fit, section
from ..messages import MessageArea
from ..pagerun import PageRun
from ..tab import TabView
from ..timeline import Transport
from .model import FUNCTION_TITLES, SPEC, VIEW_TITLES, XorModel

#: The figure's accessible name.
NAME = "XOR tab: the four points and the chosen view of why no line computes XOR, and the ways out"

HISTORY = (
    "<b>A short history.</b> In 1969 Minsky and Papert's book <i>Perceptrons</i> proved that one "
    "perceptron cannot compute some very simple functions; XOR (the parity of two bits) is the "
    "smallest. Its two classes sit on the two diagonals of the square, their convex hulls cross "
    "at the centre, and so no line separates them (Sayed, appendix 60.B and P60.2; Koski 2017). "
    "The usual account says the book cooled interest in perceptrons for years; in their 1988 "
    "edition the authors answered that progress had stalled already (Hardt &amp; Recht 2022, "
    "ch. 3). Linear methods survived by changing what they look at: add the product "
    "x<sub>1</sub>·x<sub>2</sub> as a feature and XOR becomes separable (Hardt &amp; Recht, "
    "ch. 3); stack perceptrons, as XOR can be built from NAND gates (Sayed P60.3), which with "
    "smooth units and backpropagation became the multilayer network (Koski 2017); or let a "
    "kernel supply all the products implicitly (the kernel perceptron, Aizerman, Braverman and "
    "Rozonoer 1964, beyond our sources).")


class XorView(TabView):
    """Composite widget of the XOR tab. ``XorView().model`` is its state."""

    title = "XOR"
    spec = SPEC
    #: The tab's model (no widgets): a slide's preview builds one (:mod:`explorer.app.preview`).
    model_class = XorModel

    def __init__(self, model: XorModel | None = None, *, fitted: FigureFit | None = None,
                 **kwargs):
        self.model = model if model is not None else XorModel()
        # The page draws the figure; the kernel's figure is a plain matplotlib figure that
        # follows the settled step (exports, tests) and draws the still layers.
        self.figure = XorFigure()
        self.figure.status_of = self._status
        self.fitted = fitted if fitted is not None else guessed_fit()
        self.figure.fit(self.fitted.width, self.fitted.height, scale=self.fitted.scale)

        wide = W.Layout(width="95%")
        lbl = {"style": {"description_width": "calc(var(--pe-font) * 6.2)"}, "layout": wide}
        c = self._declared_controls(**lbl)  # every field that declares its control
        # the names tests and notebooks use
        self.w_view, self.w_function, self.w_coding, self.w_pair = (
            c["view"], c["function"], c["coding"], c["pair"])
        self.w_pick = W.Dropdown(options=[("— choose a function —", None),
                                          *[(t, k) for k, t in FUNCTION_TITLES]],
                                 value=None, description="Open", **lbl)
        self.b_open = W.Button(description="Open this function here", layout=wide,
                               tooltip="Play the chosen function in the Cycling view")
        self.b_open.on_click(lambda _: self._open_picked())
        self.b_send = W.Button(description="Open points in the Perceptron tab",
                               layout=wide, tooltip="The four points, in the Perceptron tab")
        self.b_send.on_click(lambda _: self._send_points())

        self.timeline = Transport()  # the page has the buttons, slider, Play and keys
        self.timeline.status = self._status
        # the page's figure shows the narration (and is described by it): the kernel keeps it
        self.messages = MessageArea(narration=False)
        self.export = self._export_panel()
        self.paged = PageRun(self.figure, self.timeline, self.fitted, name=NAME,
                             ready=lambda: self.figure.ready)
        self.page = self.paged.page
        self.page.on_pointer(self._on_pointer)
        self.page.on_view3d(self._on_view3d)
        self.figure_box = self.page
        t = c
        settings = W.VBox([
            section(N_("Function")), self.w_function, self.w_coding,
            section(N_("Perceptron run")), t["eta"], t["passes"],
            section(N_("Kernel (⟨x, x'⟩ + c)^d")), t["degree"], t["kernel_c"],
            section(N_("Two layers")), self.w_pair,
            section(N_("16 functions")), self.w_pick, self.b_open,
            section(N_("Share")), self.b_send,
            section(N_("Export")), export_section(self.export),
            section(N_("History")), W.HTML(f"<div class='pe-help'>{HISTORY}</div>"),
        ])
        row = W.HBox([self.w_view, self.side_choice], layout=W.Layout(flex_flow="row wrap"))
        self._lay_out(settings, [row, self.messages], symbols="xor", **kwargs)
        self._laid_out = None
        self._follow_model(self._on_scene, ["scene", "view"])
        self._on_scene()

    # ------------------------------------------------------------------ model -> view
    def _on_scene(self, change=None):
        m = self.model
        key = (id(m.scene), m.view)
        if key == self._laid_out:
            return
        scene_changed = self._laid_out is None or self._laid_out[0] != id(m.scene)
        self._laid_out = key
        self.export.clear()
        self._describe_export()
        if scene_changed:
            self.figure.set_scene(m.scene, m.view)
        else:
            self.figure.set_view(m.view)
        self._shown = None
        self._loading = True
        try:
            self.timeline.set_run(m.n_steps, updates=m.scene.update_steps(m.view),
                                  epoch=4 if m.n_steps else 0, start=m.step)
        finally:
            self._loading = False
        self.page.pointer_mode = "choose" if m.view == "grid" else "view"  # a tile opens
        self._show_run()
        self._sync_controls()
        self._on_step(redraw=True)

    def _show_run(self) -> None:
        """Send the view's run to the page (its scene at the current size, its first chunks)."""
        try:
            self.paged.show(step=self.model.step)
        except (ValueError, OverflowError, FloatingPointError) as exc:
            self.messages.refuse(f"Could not draw this view: {exc}")

    def _on_step(self, change=None, *, redraw: bool = False):
        m = self.model
        k = m.step
        if self.timeline.step != k:
            self.timeline.go(k)
        if self._shown == (self._laid_out, k):
            return
        self._shown = (self._laid_out, k)
        try:
            text = self.figure.show(k)  # the kernel's figure follows the settled step (no drawing)
        except (ValueError, OverflowError, FloatingPointError) as exc:
            self.messages.refuse(f"Could not draw step {k}: {exc}")
            return
        self.paged.go(k)
        self.messages.narrate(text, keep_refusal=redraw)
        self.changed += 1

    def _status(self, k: int) -> str:
        m = self.model
        name = xor.function(m.function).name
        if not m.n_steps:
            return f"{name} · nothing to play in this view"
        return f"{VIEW_TITLES[m.view]} · {name} · step {k} of {m.n_steps}"

    # ------------------------------------------------------------------ export
    def _export_frames(self):
        from ...plots.animation import TabFrames

        m = self.model
        f = self._export_figure(XorFigure, blit=True)
        f.set_scene(m.scene, m.view)
        live = self.figure.lifted  # the 3-D view as the person turned it
        f.lifted.set_view(live.azim, live.elev)
        n, view = m.n_steps, VIEW_TITLES[m.view]
        title = caption_of(self.spec, m)
        return TabFrames(f, n_steps=n, title=title, heading=f"XOR · {view} · {title}",
                         caption=lambda k: f"{view}: step {k} of {n}" if n else view)

    def _export_name(self, ext: str) -> str:
        m = self.model
        what = f"step{m.step}" if ext in ("png", "svg") and m.n_steps else ""
        return file_stem("xor", *caption_of(self.spec, m, stem=True), what)

    # ------------------------------------------------------------------ view -> model
    def _open_picked(self):
        if self.model.open_function(self.w_pick.value):
            self.w_pick.value = None

    def _on_pointer(self, pointer) -> None:
        """A click in the page's figure (explorer.app.pagefigure): in the 16 functions, a tile
        opens its function in the Cycling view."""
        name = pointer.panel
        if self.model.view == "grid" and name.startswith("tile") and name[4:].isdigit():
            if self.model.open_function(int(name[4:])):
                return
        self.page.pointer_done()

    def _on_view3d(self, panel: str, azim: float, elev: float) -> None:
        """The person turned the lifted 3-D view in the page: the kernel's figure follows (the
        next scene and the exports show it so)."""
        if panel == "lift":
            self.figure.lifted.set_view(azim, elev)

    def _send_points(self):
        handoff = self.model.perceptron_handoff()
        if handoff is not None:
            self.handoff = handoff

    # ------------------------------------------------------------------ dashboard protocol
