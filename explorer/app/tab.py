"""What every tab view shares: the dashboard protocol, the live figure fitted to the window, and
the export. A tab's view subclasses :class:`TabView`, builds its widgets and sets ``model``,
``timeline``, ``messages`` and ``shell``; it overrides :meth:`TabView.redraw` (draw the state
shown again after a new size) and, where it differs, the rest.

Export: the view makes its panel with :meth:`TabView._export_panel` and defines
:meth:`TabView._export_frames` (a fresh copy of its figure, drawn from the model, in a
:class:`~explorer.plots.animation.TabFrames`), :meth:`TabView._export_plan` (the step shown
and the steps to play) and :meth:`TabView._export_name`; PNG and SVG, GIF and HTML (in the
panel's background thread) and the panel's note on what plays come from these.

The dashboard calls :meth:`TabView.language_changed` when the page's language changes (for a
tab not on screen, when it is next shown), and ``title``, ``spec``, ``changed`` (bumped after
each redraw), ``handoff``
(set to ``{"tab": key, "state": {...}}`` to open something in another tab), ``messages``,
``timeline``, :meth:`save_state`, :meth:`load_state`, :meth:`fit`, :meth:`show_settings`,
:meth:`handle_key` and :meth:`stop_running`. (No method here may be called ``get_state``/
``set_state``/``keys``/``_send``: those names belong to ipywidgets.)
"""

from __future__ import annotations

import html

import ipywidgets as W
import traitlets as T

from ..shared.i18n import N_, tr
from . import labels
from .controls import FieldControls
from .export import ExportPanel, file_stem
from .handoff import Handoff
from .layout import FigureFit, Shell, section
from .symbols import symbols_widget
from .timeline import keys_help


class TabView(FieldControls, W.VBox):
    """Base of the tab views (see the module docstring); its settings controls follow the
    model as :class:`~explorer.app.controls.FieldControls` says."""

    title = ""
    spec = None
    #: Most features of a person's CSV the tab trains on in their own dimension (its
    #: :class:`~explorer.app.upload.DataPanel` reads ``features=``): 2, and a CSV of more is
    #: projected to 2-D by PCA; more than 2, and a CSV of more than that is refused.
    data_features = 2
    changed = T.Int(0)
    #: True while an edit is under way (a point being dragged): its states are not undo steps.
    editing = False
    #: Set to {"tab": key, "state": {...}}: the dashboard opens that tab with that state.
    handoff = T.Instance(Handoff, allow_none=True)

    def _lay_out(self, settings, above, *, symbols: str, below=(), **kwargs) -> None:
        """Build the tab: the settings column (``settings``, then the keys, ``keys_help``, and
        the symbols of the tab ``symbols``) beside the main one, which has ``above`` (the
        messages and a row of controls, in the order given), the figure (``figure_box``) and
        the widgets ``below`` it; ``kwargs`` go to the box.

        The keys and symbols are read in the settings column: under the figure, which takes
        the window's height, the keys' line was half cut by the window's bottom edge at every
        size (issue 30)."""
        self.keys_help = labels.label(W.HTML(), value=lambda: (
            "<div class='pe-help pe-keys'><b>" + html.escape(tr("Keys.")) + "</b> "
            + html.escape(keys_help()) + "</div>"))
        for w in above:  # the rows of controls: in lecture mode a panel shown large takes
            if w is not getattr(self, "messages", None):  # their room (layout.py's CSS)
                w.add_class("pe-above-figure")
        main = W.VBox([*above, self.figure_box, *below])
        self.shell = Shell(settings, main, foot=[section(N_("Keys and symbols")), self.keys_help,
                                                 symbols_widget(symbols)])
        super().__init__([self.shell], **kwargs)
        self.add_class("pe-view")

    # ------------------------------------------------------------------ a crowded figure
    _side_choice = None
    _syncing_side = False

    @property
    def side_choice(self) -> W.ToggleButtons:
        """"Show": the row of side panels a crowded figure shows beside its data plane (the
        data plane first, :mod:`explorer.plots.room`), shown only while the figure is
        crowded; short words, so that it shares the row of the controls used in class. Made
        when first asked for (a view puts it in that row, after ``self.paged``)."""
        if self._side_choice is None:
            choice = W.ToggleButtons(options=[("", 0)], value=0,
                                     tooltips=[""],
                                     style={"button_width": "auto",
                                            "description_width": "auto"},
                                     layout=W.Layout(width="auto", display="none"))
            labels.label(choice, description=N_("Show"))
            choice.add_class("pe-side-choice")
            choice.observe(self._on_side_choice, names="value")
            self._side_choice = choice
            self.paged.after_show.append(self._sync_side_choice)
        return self._side_choice

    def _sync_side_choice(self) -> None:
        """After each layout: the choice offers the figure's rows while it is crowded."""
        figure = self.paged.figure
        room = getattr(figure, "room", None)
        names = tuple(figure.side_rows()) if room is not None and room.crowded else ()
        choice = self._side_choice
        self._syncing_side = True
        try:
            if names:
                options = [(name, i) for i, name in enumerate(names)]
                if [tuple(o) for o in choice.options] != options:
                    choice.options = options
                    choice.tooltips = [tr("{name} beside the plane (the figure has room for one "
                                          "row of side panels)").format(name=name)
                                       for name in names]
                choice.value = min(int(figure.focus), len(names) - 1)
            choice.layout.display = "" if names else "none"
        finally:
            self._syncing_side = False

    def _on_side_choice(self, change) -> None:
        if self._syncing_side or change["new"] is None:
            return
        self.paged.figure.set_focus(int(change["new"]))
        self.paged.show(keep=True)

    def layout_lines(self) -> list:
        """Widgets above the figure whose showing or hiding moves the figure's top (the page
        measures it again when they do)."""
        lines = [self.messages.notice, self.messages.refusal]
        return lines + ([self._side_choice] if self._side_choice is not None else [])

    def _follow_model(self, on_run, names) -> None:
        """Wire the view to its model: ``on_run`` when the trait(s) ``names`` change (a new run
        or scene), the step shown both ways with the timeline, the model's message and the
        next applied change (it clears a refusal)."""
        m = self.model
        self._loading = False  # the timeline is being set from the model: it moves nothing
        self._shown = None
        self.timeline.observe(lambda ch: None if self._loading else m.go(ch["new"]), names="step")
        m.observe(on_run, names=names)
        m.observe(self._on_step, names="step")
        m.observe(self._on_message, names="message")
        m.observe(lambda ch: self.messages.clear_refusal(), names="applied")

    def _on_message(self, change=None) -> None:
        """The model's message: a refusal takes its own line; the line goes when the model
        takes its refusal back."""
        if self.model.message:
            self.messages.refuse(self.model.message)
        elif change is not None and change["old"] and self.model.refusal is None:
            self.messages.clear_refusal()  # the model took its refusal back

    def redraw(self) -> None:
        """Draw the state shown again (after a new size or an export)."""
        self._shown = None
        self._on_step(redraw=True)

    def language_changed(self) -> None:
        """The page's language changed (issue 35): the figure is drawn again in it at the same
        state and step (its scene sent again, :meth:`explorer.plots.page_figure.PageFigure.relabel`:
        headings, legends, axis labels, narration and status lines), and the step shown again
        (the narration the kernel writes)."""
        try:
            self.paged.show(keep=True)
        except (ValueError, OverflowError, FloatingPointError) as exc:
            self.messages.refuse(str(exc))
            return
        self.redraw()

    # ------------------------------------------------------------------ dashboard protocol
    def handle_key(self, key: str) -> bool:
        return self.timeline.handle_key(key)

    def stop_running(self) -> None:
        """Stop what the tab has running (the dashboard leaves a playlist's slide): Play, in
        the page; a tab with background work stops it too (the parts finished stay)."""
        self.paged.page.playing = False  # the page stops; the timeline follows (PageRun)

    def save_state(self) -> dict:
        return self.model.get_state()

    def load_state(self, state: dict, *, origin: str | None = None) -> bool:
        """Apply a whole state; ``origin`` names where its points come from (a tab with a
        Data box shows it while they are on screen, see :mod:`explorer.app.datachoice`)."""
        return self.model.set_state(state)

    def fit(self, fitted: FigureFit) -> None:
        """Resize the figure (window size or lecture mode changed) and show the step again: the
        page-drawn figure (``self.paged``, :class:`explorer.app.pagerun.PageRun`) is described
        again at the new size."""
        if fitted == self.fitted:
            return
        self.fitted = fitted
        self.paged.resize(fitted)
        self.redraw()

    def show_settings(self, visible: bool) -> None:
        self.shell.show_sidebar(visible)

    # ------------------------------------------------------------------ export
    def _export_panel(self) -> ExportPanel:
        """The tab's export panel: stills and animations drawn from the model, named by it."""
        return ExportPanel(basename=self._export_name, still=self._still, animate=self._animate)

    def _export_plan(self) -> tuple[int, int, str]:
        """``(step shown, last step, what the steps count)``; 0 steps: a still only."""
        m = self.model
        return int(m.step), int(m.n_steps), "step"

    def _export_frames(self):  # pragma: no cover - each tab defines it
        """A :class:`~explorer.plots.animation.TabFrames` of a fresh figure drawn from the
        model, at the live figure's size and type scale."""
        raise NotImplementedError

    def _export_name(self, ext: str) -> str:
        return file_stem(self.title)

    def _export_figure(self, figure_cls, **kwargs):
        """A new ``figure_cls`` off screen, sized as the live figure."""
        from ..plots.animation import offscreen_figure

        figure = figure_cls(offscreen_figure(), **kwargs)
        if hasattr(figure, "focus"):  # a crowded figure shows the side panels chosen
            figure.focus = getattr(self.paged.figure, "focus", 0)
        f = self.fitted
        figure.fit(f.width, f.height, scale=f.scale)
        return figure

    def _describe_export(self) -> None:
        """Tell the panel what its GIF and HTML show (call it when the run or view changes)."""
        from ..plots.animation import frames_note

        _, n, what = self._export_plan()
        self.export.describe(frames_note(n, what=what), playable=n > 0)

    def _still(self, fmt: str) -> bytes:
        """The figure as shown, with its caption, as PNG or SVG at twice the screen's
        resolution; drawn on a figure of its own (the live one is not touched)."""
        k, _, _ = self._export_plan()
        return self._export_frames().still(k, fmt)

    def _animate(self, kind: str, progress, cancelled) -> bytes:
        """The steps to play as a GIF or an offline HTML page (runs in the panel's thread)."""
        frames = self._export_frames()
        data = frames.animation(kind, progress=progress, cancelled=cancelled)
        return data if isinstance(data, bytes) else data.encode("utf-8")
