"""The page bridge: what the kernel needs to know about the browser page, and back.

One small invisible widget (anywidget, its JavaScript inline: nothing loads from the network)
reports the window's size, the query string the page was opened with and the page's address,
and forwards the dashboard's keyboard shortcuts. It ignores keys typed into a text field, a
number box, a drop-down or a slider, so typing "r" into a parameter never resets a run. The
kernel writes ``query`` back and the page shows it in its address bar (``history.replaceState``),
so the address a user copies always opens the state on screen.
"""

from __future__ import annotations

from collections.abc import Callable

import anywidget
import traitlets as T

#: Keys the page forwards (``KeyboardEvent.key`` values). Presenter remotes send PageDown/PageUp.
KEYS = ("ArrowRight", "ArrowLeft", "PageDown", "PageUp", " ", "Home", "End", "r", "R", "[", "]",
        "e", "E", "l", "L")

_ESM = """
const FIELDS = 'input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="slider"]';
function render({ model, el }) {
  el.style.display = 'none';
  el.setAttribute('aria-hidden', 'true');
  const keys = new Set(model.get('shortcut_keys'));
  function figureTop() {
    // the top of the figure area of the tab on screen, in page coordinates
    for (const el of document.querySelectorAll('.pe-figure')) {
      if (el.offsetParent !== null) return Math.round(el.getBoundingClientRect().top + window.scrollY);
    }
    return 0;
  }
  const voila = document.body.dataset.voila !== undefined;
  function root() { return el.closest('.pe-root'); }
  function size() {
    const r = root();
    model.set('width', r ? Math.round(r.getBoundingClientRect().width) : window.innerWidth);
    model.set('height', window.innerHeight);
    model.set('figure_top', figureTop());
    model.save_changes();
  }
  function measure() {
    // after the page has laid out what the kernel just changed (lecture mode, settings), and
    // once this element is in the page (at first render it is not yet, so the dashboard's
    // width is unknown and the window's is used)
    requestAnimationFrame(() => requestAnimationFrame(() => {
      const r = root();
      const width = r ? Math.round(r.getBoundingClientRect().width) : window.innerWidth;
      const top = figureTop();
      if (top !== model.get('figure_top') || width !== model.get('width')) {
        model.set('figure_top', top);
        model.set('width', width);
        model.save_changes();
      }
    }));
  }
  let timer = null;
  function onResize() { clearTimeout(timer); timer = setTimeout(size, 150); }
  function onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && t.closest && t.closest(FIELDS)) return;
    // In Voila the page is the dashboard; in a notebook the keys belong to the notebook
    // unless the pointer or the focus is on the dashboard.
    const r = root();
    if (!voila && !(r && (r.matches(':hover') || (t && t.closest && t.closest('.pe-root'))))) return;
    if (!keys.has(ev.key)) return;
    ev.preventDefault();
    model.send({ type: 'key', key: ev.key });
  }
  function onQuery() {
    const q = model.get('query');
    const url = new URL(window.location.href);
    const wanted = q ? '?' + q : '';
    if (url.search !== wanted) {
      try { window.history.replaceState(null, '', url.pathname + wanted + url.hash); } catch (e) {}
    }
    model.set('href', window.location.origin + window.location.pathname);
    model.save_changes();
  }
  model.set('initial_query', window.location.search.replace(/^\\?/, ''));
  model.set('href', window.location.origin + window.location.pathname);
  size();
  measure();
  model.on('change:query', onQuery);
  model.on('change:measure', measure);
  setTimeout(measure, 500);
  setTimeout(measure, 2000);
  window.addEventListener('resize', onResize);
  document.addEventListener('keydown', onKey);
  return () => {
    window.removeEventListener('resize', onResize);
    document.removeEventListener('keydown', onKey);
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
        (0 until measured); the figure's height is what the window leaves below it.
    measure : int
        Increment to ask the page to measure ``figure_top`` again (after a layout change).
    """

    _esm = T.Unicode(_ESM).tag(sync=True)
    width = T.Int(0).tag(sync=True)
    height = T.Int(0).tag(sync=True)
    initial_query = T.Unicode("").tag(sync=True)
    query = T.Unicode("").tag(sync=True)
    href = T.Unicode("").tag(sync=True)
    figure_top = T.Int(0).tag(sync=True)
    measure = T.Int(0).tag(sync=True)
    shortcut_keys = T.List(T.Unicode(), default_value=list(KEYS)).tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._key_handlers: list[Callable[[str], object]] = []
        self.on_msg(self._on_msg)

    def on_key(self, handler: Callable[[str], object]) -> None:
        """Call ``handler(key)`` for every shortcut key pressed outside a text field."""
        self._key_handlers.append(handler)

    def press(self, key: str) -> None:
        """Act as if ``key`` were pressed on the page (tests, and the page's own messages)."""
        if key not in KEYS:
            return
        for handler in self._key_handlers:
            handler(key)

    def _on_msg(self, _widget, content, _buffers) -> None:
        if isinstance(content, dict) and content.get("type") == "key":
            self.press(str(content.get("key", "")))
