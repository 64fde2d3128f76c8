"""What every tab view shares: the dashboard protocol, the live figure fitted to the window, and
the still export. A tab's view subclasses :class:`TabView`, builds its widgets and sets
``model``, ``timeline``, ``messages`` and ``shell``; it overrides :meth:`TabView.redraw` (draw
the state shown again after a new size or an export) and, where it differs, the rest.

The dashboard calls ``title``, ``spec``, ``changed`` (bumped after each redraw), ``handoff``
(set to ``{"tab": key, "state": {...}}`` to open something in another tab), ``messages``,
``timeline``, :meth:`save_state`, :meth:`load_state`, :meth:`fit`, :meth:`show_settings` and
:meth:`handle_key`. (No method here may be called ``get_state``/``set_state``/``keys``/
``_send``: those names belong to ipywidgets.)
"""

from __future__ import annotations

import io
import time

import ipywidgets as W
import traitlets as T

from .canvas import announce_size, live_figure
from .layout import FigureFit, fit_figure


class TabView(W.VBox):
    """Base of the tab views (see the module docstring)."""

    title = ""
    spec = None
    changed = T.Int(0)
    #: Set to {"tab": key, "state": {...}}: the dashboard opens that tab with that state.
    handoff = T.Dict(allow_none=True, default_value=None)

    def _start_figure(self, figure_cls, **kwargs):
        """Create the live ipympl figure once and fit it to a 1366 × 768 window until the page
        reports its real size."""
        fig = live_figure()
        self.canvas = fig.canvas
        self.figure = figure_cls(fig, **kwargs)
        self._born = time.monotonic()
        self.fitted = fit_figure(window_width=1366, window_height=768, sidebar=True, lecture=False)
        self.figure.fit(self.fitted.width, self.fitted.height, scale=self.fitted.scale)
        return self.figure

    def redraw(self) -> None:
        """Draw the state shown again (after a new size or an export)."""
        self._shown = None
        self._on_step(redraw=True)

    # ------------------------------------------------------------------ dashboard protocol
    def handle_key(self, key: str) -> bool:
        return self.timeline.handle_key(key)

    def save_state(self) -> dict:
        return self.model.get_state()

    def load_state(self, state: dict, *, origin: str | None = None) -> bool:
        """Apply a whole state; ``origin`` names where its points come from (a tab with a
        Data box shows it while they are on screen, see :mod:`explorer.app.datachoice`)."""
        return self.model.set_state(state)

    def fit(self, fitted: FigureFit) -> None:
        if fitted == self.fitted:
            return
        self.fitted = fitted
        self.figure.fit(fitted.width, fitted.height, scale=fitted.scale)
        announce_size(self.figure.fig, again=time.monotonic() - self._born < 10)
        self.redraw()

    def show_settings(self, visible: bool) -> None:
        self.shell.show_sidebar(visible)

    def _still(self, fmt: str) -> bytes:
        """The figure as shown, as PNG or SVG at twice the screen's resolution."""
        buf = io.BytesIO()
        self.figure.savefig(buf, format=fmt, dpi=2 * self.figure.fig.dpi)
        self.redraw()
        return buf.getvalue()
