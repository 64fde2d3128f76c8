"""Screen layout shared by every tab: a collapsible settings panel beside the figure area, the
figure sized to the window, and lecture mode.

Widths from 1024 to 1920 px are the design range. The figure is never wider than its column
and never taller than the window leaves under the transport row, so at 1366×768 the Step button
and the whole figure are on screen together. Lecture mode hides the settings, enlarges the type
of the page and draws the figure at a larger scale (its type, markers and lines grow together:
matplotlib sizes are in points, so a higher dots-per-inch enlarges them all).
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import ipywidgets as W

from ..shared import cjk_font
from ..shared.i18n import tr
from .labels import label

#: Width of the settings column (CSS px, at the largest normal type; the page measures the
#: figure's column once shown) and the dashboard width under which it starts hidden.
SIDEBAR_PX = 340
NARROW_PX = 1150
#: Height the page takes above the figure (top bar, tab bar, transport, narration) until the
#: page has measured it, and the margin kept below it (nothing else is under the figure: the
#: keys and symbols are in the settings column).
CHROME_PX = 250
LECTURE_CHROME_PX = 300
BOTTOM_PX = 4
#: The figure's reference width: at this width its type is at its designed size.
BASE_WIDTH = 1040
#: Lecture mode's type, relative to the type of the same figure out of lecture mode: at
#: 1920 × 1080 the figure's smallest text (legends, 8.5 pt) is then over 20 CSS px.
LECTURE_TYPE = 1.45
#: Width / height of the four-panel figure, and the widest it may become on a short window.
ASPECT = 1.9
WIDEST = 2.4

#: The page's font lists: the shipped Chinese font, for Chinese characters only
#: (:mod:`explorer.shared.cjk_font`: on a machine with no font for Chinese, never empty boxes),
#: then JupyterLab's (its light theme's ``--jp-ui-font-family`` and
#: ``--jp-content-font-family``, which Voila's page, ipywidgets and the page figure use).
UI_FONTS = cjk_font.stack("system-ui", "-apple-system", "blinkmacsystemfont", "'Segoe UI'",
                          "helvetica", "arial", "sans-serif", "'Apple Color Emoji'",
                          "'Segoe UI Emoji'", "'Segoe UI Symbol'")

#: The font lists of what does not take the page's: form controls (Chromium's own, Arial on
#: Linux and Windows; a rule of the page's own, such as the page figure's ``font: inherit``,
#: still wins) and the tab titles (Lumino's), each after the shipped font.
CONTROL_FONTS = cjk_font.stack("Arial", "sans-serif")
TAB_FONTS = cjk_font.stack("Helvetica", "Arial", "sans-serif")

#: The page's style. First the shipped font's ``@font-face`` (the file as a ``data:`` URL, about
#: 340 kB: nothing to fetch, whichever server serves the page; sent once, with the page) and
#: the font lists that take Chinese from it.
CSS = f"""
<style>
{cjk_font.font_face_css()}
:root:root {{ --jp-ui-font-family: {UI_FONTS}; --jp-content-font-family: {UI_FONTS}; }}
.pe-root {{ font-family: {UI_FONTS}; }}
:where(.pe-root) :where(button, select, input, textarea) {{ font-family: {CONTROL_FONTS}; }}
.pe-root .lm-TabBar-tabLabel {{ font-family: {TAB_FONTS}; }}
</style>
""" + """
<style>
.pe-root { --pe-font: clamp(14px, calc(0.8vw + 2px), 18px); font-size: var(--pe-font); }
.pe-root.pe-lecture { --pe-font: clamp(19px, calc(1.1vw + 3px), 26px); }
@media (max-width: 1100px) { .pe-brand { display: none; } }
.pe-root .widget-label, .pe-root .widget-button, .pe-root .widget-toggle-button,
.pe-root .widget-dropdown select, .pe-root input, .pe-root .widget-readout,
.pe-root .widget-html-content, .pe-root .lm-TabBar-tabLabel { font-size: var(--pe-font); }
.pe-root.pe-lecture .widget-button, .pe-root.pe-lecture .widget-toggle-button,
.pe-root.pe-lecture .widget-play button { height: 40px; }
.pe-topbar { gap: 10px; padding: 2px 4px; }
.pe-brand { font-size: calc(var(--pe-font) * 1.25); font-weight: 600; margin-right: 8px; }
.pe-sidebar { width: calc(var(--pe-font) * 19.5); border-right: 1px solid #ddd; padding-right: 8px;
  overflow-y: auto; overflow-x: hidden; flex: 0 0 auto;
  /* its bottom on screen (the page bridge measures its top): a box near its end scrolls the
     column, not the page, when it takes the focus */
  max-height: calc(100vh - var(--pe-sidebar-top, 120px) - 4px); }
.pe-sidebar .pe-keys, .pe-sidebar .pe-symbols { margin: 4px 0 6px; line-height: 1.4;
  white-space: normal; }
.pe-sidebar .pe-section { font-weight: 600; margin-top: 8px; border-bottom: 1px solid #eee; }
/* a menu in the settings column: its name above it and the menu as wide as the column, so
   that no choice is cut ("Koski's worked example (6 points)"); a long name wraps */
.pe-sidebar .widget-dropdown { flex-wrap: wrap; height: auto; }
.pe-sidebar .widget-dropdown > .widget-label { width: 100% !important; max-width: none;
  text-align: left; }
.pe-sidebar .widget-dropdown > select { flex: 1 1 100%; min-width: 0; }
.pe-root .pe-choice-checks > .widget-label { white-space: normal; overflow: visible;
  height: auto; line-height: 1.3; }
/* a typed field's or a slider's name beside it: a name longer than its room (another
   language's, "max. Epochen") wraps onto a second line instead of being cut */
.pe-sidebar .widget-text, .pe-sidebar .widget-hslider, .pe-sidebar .widget-textarea {
  height: auto; min-height: var(--jp-widgets-inline-height); }
.pe-sidebar .widget-text > .widget-label, .pe-sidebar .widget-hslider > .widget-label,
.pe-sidebar .widget-textarea > .widget-label { white-space: normal; overflow-wrap: anywhere;
  height: auto; line-height: 1.15; align-self: center; }
/* and so does a button's or a check box's of the column ("Open these points in ...") */
.pe-sidebar .widget-button { white-space: normal; height: auto;
  min-height: var(--jp-widgets-inline-height); line-height: 1.2; padding-top: 3px;
  padding-bottom: 3px; }
.pe-sidebar .widget-checkbox { max-width: 100%; height: auto; }
.pe-sidebar .widget-checkbox label { white-space: normal; overflow-wrap: anywhere;
  height: auto; line-height: 1.2; }
.pe-main { flex: 1 1 auto; min-width: 0; padding-left: 8px; }
.pe-narration { line-height: 1.35; height: calc(4.05em + 8px); box-sizing: border-box; overflow-y: auto;
  padding: 3px 8px;
  border-left: 4px solid #0072B2; background: #F4F8FB; font-size: calc(var(--pe-font) * 1.1); }
.pe-lecture .pe-narration { font-size: calc(var(--pe-font) * 1.05); }
.pe-root .pe-messages > .widget-html { font-size: var(--pe-font); }  /* lecture-sized too */
.pe-root .pe-messages .widget-html-content { font-size: inherit; line-height: inherit; }
.pe-root .jupyter-widgets.jupyter-widget-tab > .lm-TabBar .lm-TabBar-tab {
  flex: 0 1 auto; min-width: 144px; }  /* ipywidgets' 144 px cut a name at lecture type */
.pe-message { color: #7A3300; font-weight: 600; }
.pe-where, .pe-help { color: #333; margin-left: 8px; }
.pe-share input, .pe-playlist-link input { font-family: monospace; font-size: 13px; }
.pe-share { min-width: 150px; } .pe-share input { min-width: 0; }  /* room for the language */
.pe-timeline .widget-play button { min-width: 44px; }
.pe-sidebar .widget-box > *, .pe-sidebar > * { flex-shrink: 0; }
.pe-play button:nth-of-type(2) { display: none; }  /* Stop would also rewind: Reset does that */
.pe-messages > .pe-message { margin: 2px 0 0; padding: 3px 10px; background: #FFF1E0;
  border-left: 4px solid #D55E00; line-height: 1.35; }
.pe-messages > .pe-note { margin: 2px 0 0; padding: 3px 10px; background: #EEF6FB;
  border-left: 4px solid #0072B2; color: #222; line-height: 1.35; }
.pe-equation .pe-equation-text { font-size: calc(var(--pe-font) * 0.85); line-height: 1.3;
  white-space: normal; color: #222; margin: 0 0 4px; }
.pe-main .pe-equation .pe-equation-text { margin: 0; line-height: 1.2; }
.pe-main .pe-equation { display: none; }  /* beside the settings; above the figure in lecture */
/* a row of choices keeps its name on its line ("Click mode  View  Add +1 ...") */
.pe-root .widget-toggle-buttons { display: flex; align-items: center; flex-wrap: wrap; gap: 4px; }
.pe-root .widget-toggle-buttons > .widget-label { width: auto; margin: 0 6px 0 0; }
.pe-root .pe-side-choice { margin-left: 10px; }  /* a crowded figure's side panels (Show) */
/* lecture mode: the top bar's one button sits at the right end of the tab bar's row (the rows
   above the figure are the figure's height) */
.pe-lecture .pe-brand, .pe-lecture .pe-settings-toggle,
.pe-lecture .pe-playlist-toggle { display: none; }  /* the playlist keeps its Previous/Next row */
/* and the notebook page's own 20 px above the dashboard go to the figure */
body:has(.pe-root.pe-lecture) .lm-BoxPanel-child, body:has(.pe-root.pe-lecture) .jp-Cell,
body:has(.pe-root.pe-lecture) .jp-Cell-outputWrapper { padding-top: 0; margin-top: 0; }
.pe-root.pe-lecture { position: relative; }
.pe-root.pe-lecture > .pe-topbar { position: absolute; top: 0; right: 0; z-index: 2;
  padding: 0; }
/* in lecture mode and on a window under 1366 px, Undo, Redo and Ask show their icons only (their
   names stay for screen readers and in their tooltips): the lecture row fits beside the tabs
   at 1024 px, and the top bar keeps to one row at 1024 and 1280 (screenshots) */
.pe-lecture .pe-undo, .pe-lecture .pe-redo, .pe-lecture .pe-ask { font-size: 0; padding: 0 9px; }
.pe-lecture .pe-undo i, .pe-lecture .pe-redo i,
.pe-lecture .pe-ask i { font-size: var(--pe-font, 16px); margin: 0; }
@media (max-width: 1365px) {
  .pe-root .pe-undo, .pe-root .pe-redo, .pe-root .pe-ask { font-size: 0; padding: 0 9px; }
  .pe-root .pe-undo i, .pe-root .pe-redo i,
  .pe-root .pe-ask i { font-size: var(--pe-font, 16px); margin: 0; }
}
.pe-root.pe-lecture > .pe-topbar { gap: 6px; }
/* where the tabs' titles leave the bar no room beside them (the page bridge decides) */
.pe-root.pe-lecture.pe-bar-below > .pe-topbar { position: static; justify-content: flex-end; }
/* and in lecture mode under 1366 px Lecture mode too (the key l, its tooltip and screen readers
   keep its name): the row beside the tabs then clears the last tab's title at 1024 px */
@media (max-width: 1365px) {
  .pe-lecture .pe-lecture-toggle { font-size: 0; padding: 0 9px; }
  .pe-lecture .pe-lecture-toggle i { font-size: var(--pe-font, 16px); margin: 0; }
}
/* at 1024 px narrower gaps and icon buttons give Ask the room: the top bar keeps to one row */
@media (max-width: 1100px) {
  .pe-root > .pe-topbar { gap: 6px; }
  .pe-root .pe-undo, .pe-root .pe-redo, .pe-root .pe-ask { padding: 0 6px; }
}
.pe-lecture .pe-main .pe-equation { display: flex; }
/* one panel shown large (z) in lecture mode: the rows of controls above the figure go, the
   figure takes their room (the page measures again when its class changes) */
.pe-lecture .pe-view:has(.pe-pf-enlarged) .pe-above-figure { display: none !important; }
.pe-playlist { padding: 2px 4px 4px; margin-bottom: 4px; border-bottom: 1px solid #ddd; }
.pe-playlist .widget-hbox { gap: 6px; }
.pe-playlist-where { color: #333; }
.pe-playlist-now { font-weight: 600; }
.pe-playlist-out .pe-message, .pe-playlist-out .pe-note { padding: 2px 10px; line-height: 1.35;
  background: #EEF6FB; border-left: 4px solid #0072B2; }
.pe-playlist-out .pe-message { background: #FFF1E0; border-left-color: #D55E00; }
</style>
"""


@dataclass(frozen=True)
class FigureFit:
    """The figure's CSS size in pixels and its type scale (1 = designed size)."""

    width: int
    height: int
    scale: float


def fit_figure(*, window_width: int, window_height: int, sidebar: bool, lecture: bool,
               figure_top: int = 0, figure_width: int = 0, aspect: float = ASPECT) -> FigureFit:
    """Size of a tab's figure for a window of ``window_width`` × ``window_height`` CSS px.

    The figure takes its column's width (the window less the settings column when shown)
    unless the window's height below the figure's top is the tighter limit; the type scale
    follows the width, times LECTURE_TYPE in lecture mode, so text stays readable at a distance.
    ``figure_top`` and ``figure_width`` are where the figure starts and how wide its column
    is, as the page measured them; 0 means not yet measured, and estimates are used.
    """
    w = max(int(window_width), 640)
    h = max(int(window_height), 480)
    column = w - (SIDEBAR_PX if sidebar and not lecture else 0) - 40
    if 300 <= figure_width <= w:
        column = figure_width - 2
    above = figure_top if 60 <= figure_top <= h - 240 else (
        LECTURE_CHROME_PX if lecture else CHROME_PX)
    room = max(h - above - BOTTOM_PX, 300)
    # As wide as the column allows, and as tall as the window leaves; a short, wide window
    # gets a wider figure (up to WIDEST), where the data plane keeps its square and the side
    # panels take the extra width.
    fig_w = max(min(column, int(room * WIDEST)), 560)
    fig_h = max(min(room, int(fig_w / aspect)), 280)
    return FigureFit(fig_w, fig_h, type_scale(fig_w, fig_h, lecture=lecture))


def guessed_fit() -> FigureFit:
    """The size a tab's figure is drawn at before the page has measured the window (the
    dashboard's first tab, a view made outside the dashboard): a 1366 × 768 window with the
    settings column. A tab opened later is made at the size the window gives
    (:meth:`explorer.app.dashboard.Dashboard._fit`), so its figure is drawn once."""
    return fit_figure(window_width=1366, window_height=768, sidebar=True, lecture=False)


def type_scale(width: int, height: int, *, lecture: bool = False) -> float:
    """Type scale of a figure of ``width`` × ``height`` CSS px: its size relative to the designed
    figure (the smaller of the two ratios), times :data:`LECTURE_TYPE` in lecture mode."""
    scale = max(0.8, min(width / BASE_WIDTH, height / (BASE_WIDTH / ASPECT), 1.9))
    if lecture:
        scale = min(scale * LECTURE_TYPE, 2.4)
    return round(scale, 3)


def sidebar_starts_open(window_width: int) -> bool:
    """The settings column starts hidden on a narrow dashboard (under 1150 px, a window under
    about 1180 px), where the figure needs the width; a button shows it."""
    return window_width == 0 or window_width >= NARROW_PX


def section(title: str) -> W.HTML:
    """A heading in the settings column: ``title`` in English (marked ``N_``), shown in the
    page's language (:func:`explorer.app.labels.label`)."""
    return label(W.HTML(), value=lambda: f"<div class='pe-section'>{html.escape(tr(title))}</div>")


class Shell(W.HBox):
    """A settings column (``sidebar``, then the widgets ``foot``) and a main column;
    :meth:`show_sidebar` toggles the settings column."""

    def __init__(self, sidebar: W.Widget, main: W.Widget, *, foot=(), **kwargs):
        self.sidebar = W.VBox([sidebar, *foot])  # its width follows the type size (CSS below)
        self.sidebar.add_class("pe-sidebar")
        self.main = W.VBox([main])
        self.main.add_class("pe-main")
        super().__init__([self.sidebar, self.main], layout=W.Layout(width="100%"), **kwargs)
        self.add_class("pe-shell")

    @property
    def sidebar_visible(self) -> bool:
        return self.sidebar.layout.display != "none"

    def show_sidebar(self, visible: bool) -> None:
        self.sidebar.layout.display = "" if visible else "none"
