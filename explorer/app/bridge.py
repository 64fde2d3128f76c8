"""The page bridge: what the kernel needs to know about the browser page, and back.

One small invisible widget (anywidget, its JavaScript inline: nothing loads from the network)
reports the window's size, the query string the page was opened with and the page's address,
downloads the files the kernel makes (:meth:`PageBridge.download`),
and forwards the dashboard's keyboard shortcuts, whatever control has the focus (a button or a
slider just clicked), except keys typed into a text box, so typing "r" into a parameter never
resets a run, and the keys a control reached with Tab works itself (``static/keys.js``, which
the page figure's keys share). The
kernel writes ``query`` back and the page shows it in its address bar (``history.replaceState``),
so the address a user copies always opens the state on screen.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import anywidget
import traitlets as T

from .esm_join import join
from .playlist import NEXT_KEYS, PREVIOUS_KEYS

#: Undo and redo: the page sends Ctrl+Z as "Undo", Ctrl+Shift+Z and Ctrl+Y as "Redo"
#: (``static/keys.js`` ``historyKey``), and keys of those names as they are.
HISTORY_KEYS = ("Undo", "Redo")

#: Keys the page forwards (``KeyboardEvent.key`` values). Presenter remotes send PageDown/PageUp
#: (the step keys); "n" and "p" are a playlist's next and previous slide
#: (:mod:`explorer.app.playlist_ui`).
KEYS = ("ArrowRight", "ArrowLeft", "PageDown", "PageUp", " ", "Home", "End", "r", "R", "[", "]",
        "e", "E", "l", "L", *NEXT_KEYS, *PREVIOUS_KEYS, *HISTORY_KEYS)

#: Keys that black the screen out and back in the page itself (no kernel): "b", and "." that a
#: presenter remote's "blank screen" button sends; Escape also brings the screen back.
BLACKOUT_KEYS = ("b", "B", ".")

#: Whose key press it is (the dashboard's or the focused control's), shared with the page figure:
#: the ES module ``static/keys.js``, joined (its ``export`` keywords taken off).
_KEYS_JS = join(Path(__file__).parent / "static", "keys.js")
#: The presenter view's window (``static/presenter.js``), joined likewise.
_PRESENTER_JS = join(Path(__file__).parent / "static", "presenter.js")

_ESM = _KEYS_JS + _PRESENTER_JS + """
function render({ model, el }) {
  el.style.display = 'none';
  el.setAttribute('aria-hidden', 'true');
  const keys = new Set(model.get('shortcut_keys'));
  const voila = document.body.dataset.voila !== undefined;
  const root = () => el.closest('.pe-root');
  // the figure area of the tab on screen: a page-drawn figure (explorer.app.pagefigure),
  // whose canvas starts below its own transport and narration
  function shownFigure() {
    for (const f of document.querySelectorAll('.pe-pagefigure')) {
      if (f.offsetParent !== null) return f;
    }
    return null;
  }
  const canvasArea = (f) => f.querySelector('.pe-pf-figure') || f;
  function report(force) {
    // the dashboard's width (narrower than the window in a notebook), the window's height,
    // and where the figure area of the tab on screen starts and how wide it is; while no
    // figure is on screen (a tab being made shows "Loading…") the last one measured stands,
    // so the new tab's figure, made at that size, is not drawn again at a guess
    const r = root();
    const f = shownFigure();
    const values = {
      width: r ? Math.round(r.getBoundingClientRect().width) : window.innerWidth,
      height: window.innerHeight,
    };
    if (f) {
      values.figure_top = Math.round(canvasArea(f).getBoundingClientRect().top + window.scrollY);
      values.figure_width = Math.round(f.clientWidth);
    }
    // where the settings column starts on the unscrolled page: it ends at the window's
    // bottom (CSS --pe-sidebar-top), so a box in it taking the focus scrolls it, not the page
    const side = r && [...r.querySelectorAll('.pe-sidebar')].find(e => e.offsetParent !== null);
    if (side) {
      let top = side.getBoundingClientRect().top;
      for (let a = side.parentElement; a; a = a.parentElement) top += a.scrollTop || 0;
      const px = `${Math.round(top + window.scrollY)}px`;
      if (r.style.getPropertyValue('--pe-sidebar-top') !== px) r.style.setProperty('--pe-sidebar-top', px);
    }
    placeBar(r);
    let changed = force;
    for (const [k, v] of Object.entries(values)) {
      if (model.get(k) !== v) { model.set(k, v); changed = true; }
    }
    if (changed) model.save_changes();
  }
  // lecture mode puts the top bar beside the tabs; where the tabs' titles (longer in some
  // languages) leave it no room, it goes on its own row above them (class pe-bar-below).
  // Decided from widths that do not depend on where the bar is, so it settles at once.
  function placeBar(r) {
    if (!r || !r.classList.contains('pe-lecture')) return;
    const bar = r.querySelector(':scope > .pe-topbar');
    const tabs = [...r.querySelectorAll('.lm-TabBar-tab')].filter(e => e.offsetParent !== null);
    if (!bar || !tabs.length) return;
    const parts = [...bar.children].filter(c => c.offsetParent !== null);
    const gap = parseFloat(getComputedStyle(bar).columnGap) || 0;
    const barWidth = parts.reduce((w, c) => w + c.getBoundingClientRect().width, 0)
        + gap * Math.max(0, parts.length - 1);
    const tabsRight = Math.max(...tabs.map(t => t.getBoundingClientRect().right));
    const room = r.getBoundingClientRect().right - tabsRight;
    const below = barWidth + 8 > room;
    if (r.classList.contains('pe-bar-below') !== below) r.classList.toggle('pe-bar-below', below);
    // beside the tabs means at their row: under a slide's bar (a playlist open), not over it
    const top = below ? '' : `${Math.max(0, Math.round(
      Math.min(...tabs.map(t => t.getBoundingClientRect().top)) - r.getBoundingClientRect().top))}px`;
    if (bar.style.top !== top) bar.style.top = top;
  }
  // after the page has laid out what the kernel just changed (lecture mode, settings, a tab)
  const measure = () => requestAnimationFrame(() => requestAnimationFrame(() => report(false)));
  let timer = null;
  const onResize = () => { clearTimeout(timer); timer = setTimeout(() => report(false), 150); };
  // Black out the screen and back (a lecturer's pause), drawn by the page alone
  let black = null;
  function blackout(on) {
    if (on && !black) {
      black = document.createElement('div');
      black.className = 'pe-blackout';
      black.setAttribute('role', 'presentation');
      black.style.cssText = 'position:fixed;inset:0;background:#000;z-index:100000;cursor:none';
      black.addEventListener('click', () => blackout(false));
      document.body.appendChild(black);
    } else if (!on && black) {
      black.remove();
      black = null;
    }
  }
  // In Voila the page is the dashboard; in a notebook the keys belong to the notebook
  // unless the pointer or the focus (the key's target `t`) is on the dashboard.
  function ours(t) {
    const r = root();
    return voila || !!(r && (r.matches(':hover') || (t && t.closest && t.closest('.pe-root'))));
  }
  const blackoutKeys = new Set(model.get('blackout_keys'));
  const keyFocus = watchFocus(window);
  function onKey(ev) {
    const t = ev.target;
    const edit = historyKey(ev);  // Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y: sent as "Undo", "Redo"
    if (edit && !black && keys.has(edit) && ours(t)) {
      ev.preventDefault(); ev.stopPropagation(); model.send({ type: 'key', key: edit }); return;
    }
    if (!dashboardKey(ev, keyFocus)) return;  // typing, or a key the control works itself
    if (black && (blackoutKeys.has(ev.key) || ev.key === 'Escape')) {
      ev.preventDefault(); ev.stopPropagation(); blackout(false); return;
    }
    if (blackoutKeys.has(ev.key) && (voila || (root() && root().matches(':hover')))) {
      ev.preventDefault(); ev.stopPropagation(); blackout(true); return;
    }
    if (black) { ev.preventDefault(); ev.stopPropagation(); return; }  // nothing moves unseen
    if (!keys.has(ev.key) || !ours(t)) return;
    ev.preventDefault();  // the focused control does not act on it as well
    ev.stopPropagation();  // (the page figure's keys, on the window, came first)
    model.send({ type: 'key', key: ev.key });
  }
  // Names for controls that have none: the Play widget's icon buttons, sliders, toggles.
  function label() {
    const r = root();
    if (!r) return;
    const name = (b, text) => { if (b) { b.setAttribute('aria-label', text); b.title = text; } };
    for (const play of r.querySelectorAll('.widget-play')) {
      const b = play.querySelectorAll('button');
      name(b[0], 'Play or pause (space)');
      name(b[1], 'Stop and go back to step 0');
    }
    for (const s of r.querySelectorAll('.widget-slider')) {
      const name = (s.querySelector('.widget-label') || {}).textContent;
      if (name) for (const h of s.querySelectorAll('[role="slider"]')) h.setAttribute('aria-label', name);
    }
    for (const b of r.querySelectorAll('.widget-toggle-button, .widget-toggle-buttons button')) {
      b.setAttribute('aria-pressed', b.classList.contains('mod-active') ? 'true' : 'false');
    }
    // Tab contents are tab panels labelled by their tab (ipywidgets leaves them unnamed).
    for (const tabs of r.querySelectorAll('.jupyter-widget-TabPanel')) {
      const heads = tabs.querySelectorAll('[role="tab"]');
      const bodies = tabs.querySelector('.widget-tab-contents');
      if (!bodies) continue;
      Array.from(bodies.children).forEach((body, i) => {
        const head = heads[i];
        if (!head || !head.id) return;
        if (body.getAttribute('role') !== 'tabpanel') body.setAttribute('role', 'tabpanel');
        if (body.getAttribute('aria-labelledby') !== head.id) body.setAttribute('aria-labelledby', head.id);
      });
    }
  }
  let pending = null;
  // a group made when first opened (explorer.app.lazy) arrives after the kernel asked to
  // measure: whatever changes under the dashboard, name the new controls and measure again
  // (report sends only what changed)
  const settle = () => { label(); report(false); };
  const observer = new MutationObserver(() => { clearTimeout(pending); pending = setTimeout(settle, 50); });
  function onQuery() {
    const q = model.get('query');
    const url = new URL(window.location.href);
    const wanted = q ? '?' + q : '';
    if (url.search !== wanted) {
      try { window.history.replaceState(null, '', url.pathname + wanted + url.hash); } catch (e) {}
    }
    const href = window.location.origin + window.location.pathname;
    if (model.get('href') !== href) { model.set('href', href); model.save_changes(); }
  }
  // A file the kernel made (a saved state, a playlist), downloaded at once as the browser
  // downloads any file: a Blob from the text, a temporary link clicked (nothing shown)
  function download(msg) {
    if (!msg || msg.type !== 'download' || typeof msg.text !== 'string') return;
    const url = URL.createObjectURL(new Blob([msg.text], { type: msg.mime || 'application/octet-stream' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = msg.name || 'download';
    a.style.display = 'none';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  }
  model.on('msg:custom', download);
  // The presenter view: a window of its own (static/presenter.js), opened when the kernel asks
  // (the lecturer pressed Presenter view a moment ago: the browser lets the page open it),
  // shown again with every change of the playlist, its clock ticking here.
  let presenter = null, presenterTimer = 0;
  function showPresenter() {
    if (presenter && presenter.open) {
      presenter.show(model.get('presenter'), model.get('preview'), model.get('words'));
    }
  }
  function openPresenter(msg) {
    if (!msg || msg.type !== 'presenter') return;
    if (!(presenter && presenter.open)) {
      const win = window.open('', PRESENTER_NAME, PRESENTER_FEATURES);
      if (!win) { model.send({ type: 'presenter_blocked' }); return; }
      presenter = new PresenterView(win);
      clearInterval(presenterTimer);
      presenterTimer = setInterval(() => {
        if (presenter && presenter.open) presenter.tick(); else clearInterval(presenterTimer);
      }, 500);
    }
    showPresenter();
    presenter.win.focus();
  }
  model.on('msg:custom', openPresenter);
  model.on('change:presenter', showPresenter);
  model.on('change:preview', showPresenter);
  model.on('change:words', showPresenter);
  model.set('initial_query', window.location.search.replace(/^\\?/, ''));
  model.set('href', window.location.origin + window.location.pathname);
  // the languages the browser asks for, most wanted first (a page whose link names none)
  model.set('languages', Array.from(navigator.languages || [navigator.language || '']));
  report(true);
  measure();
  if (model.get('query')) onQuery();  // a bad link's query gives way to the state shown
  model.on('change:query', onQuery);
  model.on('change:measure', measure);
  setTimeout(measure, 500);
  setTimeout(measure, 2000);
  const watch = { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] };
  setTimeout(() => { const r = root(); if (r) observer.observe(r, watch); label(); }, 0);
  window.addEventListener('resize', onResize);
  document.addEventListener('keydown', onKey, true);
  return () => {
    observer.disconnect();
    model.off('msg:custom', download);
    model.off('msg:custom', openPresenter);
    model.off('change:presenter', showPresenter);
    model.off('change:preview', showPresenter);
    clearInterval(presenterTimer);
    window.removeEventListener('resize', onResize);
    document.removeEventListener('keydown', onKey, true);
  };
}
export default { render };
"""


class PageBridge(anywidget.AnyWidget):
    """Invisible widget linking the kernel to the page (see module docstring).

    Traits
    ------
    width, height : int
        The dashboard's width and the browser window's height, in CSS pixels (0 until the page
        reports them); in a notebook the dashboard is narrower than the window.
    initial_query : str
        The query string the page was opened with (without "?").
    query : str
        The current state's query string; the page mirrors it in its address bar.
    href : str
        The page's address without the query (origin + path), for share links.
    figure_top : int
        Where the figure area of the tab on screen starts, in CSS pixels from the page's top
        (0 until measured); the figure's height is what the window leaves below it. While no
        figure is on screen (a tab being made) it keeps the last one measured.
    figure_width : int
        The width of that figure area (0 until measured): the figure's column; kept likewise.
    measure : int
        Increment to ask the page to measure ``figure_top`` again (after a layout change).
    """

    _esm = T.Unicode(_ESM).tag(sync=True)
    width = T.Int(0).tag(sync=True)
    height = T.Int(0).tag(sync=True)
    initial_query = T.Unicode("").tag(sync=True)
    query = T.Unicode("").tag(sync=True)
    href = T.Unicode("").tag(sync=True)
    #: The browser's languages (``navigator.languages``), most wanted first.
    languages = T.List(T.Unicode()).tag(sync=True)
    figure_top = T.Int(0).tag(sync=True)
    figure_width = T.Int(0).tag(sync=True)
    measure = T.Int(0).tag(sync=True)
    shortcut_keys = T.List(T.Unicode(), default_value=list(KEYS)).tag(sync=True)
    blackout_keys = T.List(T.Unicode(), default_value=list(BLACKOUT_KEYS)).tag(sync=True)
    #: What the presenter view shows (:meth:`explorer.app.playlist_ui.PlaylistPanel.presenter_info`).
    presenter = T.Dict().tag(sync=True)
    #: The page's own words in its language (:func:`explorer.shared.page_words.page_words`): the
    #: presenter view's.
    words = T.Dict().tag(sync=True)
    #: The next slide's picture for the presenter view only, ``{"id", "src", "reason"}``
    #: (:class:`explorer.app.preview.NextSlidePreview`); the page itself never shows it.
    preview = T.Dict().tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._key_handlers: list[Callable[[str], object]] = []
        self._blocked_handlers: list[Callable[[], object]] = []
        self.on_msg(self._on_msg)

    def on_key(self, handler: Callable[[str], object]) -> None:
        """Call ``handler(key)`` for every shortcut key pressed outside a text field."""
        self._key_handlers.append(handler)

    def download(self, name: str, text: str, *, mime: str = "application/json") -> None:
        """Have the page download ``text`` as the file ``name`` at once (the browser's own
        download: nothing is added to the page, nothing is asked of the network)."""
        self.send({"type": "download", "name": str(name), "text": str(text), "mime": str(mime)})

    def open_presenter(self) -> None:
        """Have the page open the presenter view's window (or bring it to the front)."""
        self.send({"type": "presenter"})

    def on_presenter_blocked(self, handler: Callable[[], object]) -> None:
        """Call ``handler()`` when the browser refused to open the presenter view's window."""
        self._blocked_handlers.append(handler)

    def press(self, key: str) -> None:
        """Act as if ``key`` were pressed on the page (tests, and the page's own messages)."""
        if key not in KEYS:
            return
        for handler in self._key_handlers:
            handler(key)

    def _on_msg(self, _widget, content, _buffers) -> None:
        if isinstance(content, dict) and content.get("type") == "key":
            self.press(str(content.get("key", "")))
        elif isinstance(content, dict) and content.get("type") == "presenter_blocked":
            for handler in self._blocked_handlers:
                handler()
