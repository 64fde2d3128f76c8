"""The dashboard: a top bar (settings, lecture mode, share), one lazily built tab per view.

A tab is built the first time it is opened, so page open and kernel memory do not grow with
the number of tabs. The page's query string (Voila passes it to the kernel as ``QUERY_STRING``)
names a tab and its state, e.g. ``?tab=perceptron&dataset=xor&step=5``; a bad link gives a
message and the defaults, never an exception. While the state changes, the address bar and the
share box follow it, so the link a lecturer copies opens the same step; the state also saves to
and loads from a JSON file. A playlist of saved states steps through a lecture like slides
(:mod:`explorer.app.playlist_ui`; a link ``?playlist=...&slide=k`` opens one). Undo and Redo
(Ctrl+Z, Ctrl+Shift+Z or Ctrl+Y) go back and forth through each tab's edits
(:mod:`explorer.app.undo_ui`), recorded as the link is written. The Ask button and the key q
ask a question about the step shown, answered and revealed over the figure
(:mod:`explorer.app.asking`).
"""

from __future__ import annotations

import os

import ipywidgets as W

from ..shared.i18n import N_, sentences, tr
from ..shared.page_words import page_words
from . import datachoice, guard
from .asking import Asking
from .bridge import PageBridge
from .jobs import kernel_loop
from .labels import label, on_language
from .language_ui import LanguageMenu, without_lang
from .layout import CSS, FigureFit, fit_figure, sidebar_starts_open
from .pagerun import HeldShows
from .playlist import is_playlist_link
from .playlist_ui import PlaylistPanel
from .preview import NextSlidePreview
from .state import SHOWING_DEFAULTS, file_lang, query_tab
from .tab_table import (  # noqa: F401 - the tabs' table, as the dashboard's
    PRELOAD_AFTER_S,
    PRELOAD_MODULES,
    TABS,
    _load,
    preload_later,
    preload_tabs,
    tab_class,
    tab_spec,
    warm_up,
)
from .undo_ui import UndoRedo

MAX_STATE_BYTES = 1_000_000
#: A state read from a link, a file or a slide that gave no valid run, by where it came from.
_NOT_USED = {"link": N_("The link's state was not used: {reason}. {kept}"),
             "file": N_("The file's state was not used: {reason}. {kept}"),
             "playlist": N_("The playlist's state was not used: {reason}. {kept}")}
#: Some settings of it were refused (each named), the rest used.
_REST_USED = {"link": N_("The rest of the link was used."),
              "file": N_("The rest of the file was used."),
              "playlist": N_("The rest of the playlist was used.")}
#: Longest query string written to the address bar (longer states: save as JSON).
MAX_LINK_CHARS = 6000
#: Seconds of quiet before the link follows a change of state.
LINK_DELAY_S = 0.4
def _shell():
    """The kernel's IPython shell, or None outside a kernel."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipykernel
        return None
    return get_ipython()


def _auto() -> dict:
    return {"layout": W.Layout(width="auto")}  # one Layout per widget: they are shared state


class Dashboard(W.VBox):
    """The whole page served by Voila (``notebooks/dashboard.ipynb``)."""

    def __init__(self, *, query: str | None = None, tabs=None, **kwargs):
        self.tab_table = list(TABS if tabs is None else tabs)
        self.tab_keys = [k for k, _, _ in self.tab_table]
        self.views: dict[str, W.Widget] = {}
        self._link_short = False  # the link shown leaves the edited points out (too many)
        self.bridge = PageBridge()
        self._link_dirty = False
        self._link_timer = None
        query = os.environ.get("QUERY_STRING", "") if query is None else query

        #: The page's language (explorer.app.language_ui): the link's lang=, the menu.
        self.language = LanguageMenu(query=query, changed=self._language_changed)
        query = without_lang(query)
        self._make_buttons()
        #: Undo and Redo (explorer.app.undo_ui): each tab's edits, back and forth.
        self.history = UndoRedo(active=lambda: self.active, flush=self._write_pending_link,
                                restore=self._restore)
        #: The question asked over the figure (explorer.app.asking): the Ask button, key q.
        self.asking = Asking(active=lambda: self.active, look={
            "layout": self.history.b_undo.layout, "style": self.history.b_undo.style})
        #: The presenter view's window and the next slide's picture in it (explorer.app.preview).
        self.preview = NextSlidePreview(
            view_of=lambda tab: tab_class(tab, tabs=self.tab_table), fitted=self._fit,
            playlist=lambda: self.playlist.playlist, bridge=self.bridge)
        self.playlist = PlaylistPanel(spec_of=self._spec_of, capture=self._capture,
                                      show=self._show_slide, base=lambda: self.bridge.href,
                                      titles={k: t for k, t, _ in self.tab_table},
                                      on_resize=self._remeasure, download=self._download,
                                      presenter=self._presenter_info,
                                      open_presenter=self.preview.open,
                                      lang=lambda: self.language.chosen)
        self.bridge.on_presenter_blocked(self.playlist.presenter_blocked)
        self.playlist.toggle.add_class("pe-playlist-toggle")
        self.playlist.toggle.observe(lambda ch: self._toggled(), names="value")
        self.b_settings.observe(lambda ch: self._toggled(), names="value")
        self.b_lecture.observe(lambda ch: self._toggled(), names="value")
        self.b_save.on_click(lambda _: self._save())
        self.upload.observe(self._on_upload, names="value")
        self.share.observe(self._on_share_typed, names="value")
        top = self._top_bar()

        self.tabs = W.Tab(children=[W.VBox([W.HTML(tr("Loading…"))]) for _ in self.tab_table],
                          titles=self._titles())
        self._share_words()
        self.bridge.words = page_words()
        self._unspoken: set[str] = set()  # tabs whose figure still speaks the last language
        on_language(self._relabel)
        super().__init__([W.HTML(CSS), self.bridge, top, self.playlist, self.tabs], **kwargs)
        self.add_class("pe-root")
        slides, query = (query, "") if is_playlist_link(query) else ("", query)
        start = query_tab(query)
        known = start is None or start in self.tab_keys
        first = self.tab_keys.index(start) if start in self.tab_keys else 0
        self.tabs.selected_index = first
        self._open(first, query=query if known else "", said=self._link_problems(start, first))
        self.tabs.observe(lambda ch: self._open(ch["new"]), names="selected_index")
        if slides:
            self.playlist.load_link(slides)
        self.bridge.observe(self._on_window, names=["width", "height", "figure_top", "figure_width"])
        self.bridge.on_key(self._on_key)
        self.bridge.observe(lambda ch: self._state_changed(), names="href")
        self.bridge.observe(lambda ch: self.language.browser(ch["new"]), names="languages")
        if os.environ.get("SERVER_SOFTWARE", "").startswith("voila/"):  # a page, not a notebook
            guard.install(_shell(), self._report_error)
        loop = kernel_loop()
        if loop is not None:  # the other tabs' imports, once the page is up (a tab switch)
            loop.call_later(PRELOAD_AFTER_S, preload_later, self.tab_table)

    def _make_buttons(self) -> None:
        """The top bar's own controls: Settings, Lecture mode, the link, Save and Load."""
        self.b_settings = label(W.ToggleButton(value=True, icon="sliders", **_auto()),
                                description=N_("Settings"),
                                tooltip=N_("Show or hide the settings column"))
        self.b_lecture = label(W.ToggleButton(value=False, icon="desktop", **_auto()),
                               description=N_("Lecture mode"),
                               tooltip=N_("Large type and figure, settings hidden (key l)"))
        self.share = W.Text(layout=W.Layout(flex="1 1 140px", width="auto"),
                            style={"description_width": "initial"})
        self.share.add_class("pe-share")
        self.b_settings.add_class("pe-settings-toggle")
        self.b_lecture.add_class("pe-lecture-toggle")
        self.b_save = label(W.Button(icon="download", **_auto()), description=N_("Save state"),
                            tooltip=N_("Download the tab's whole state as a JSON file"))
        self.upload = label(W.FileUpload(accept=".json,application/json", multiple=False,
                                         **_auto()),
                            description=N_("Load state"), tooltip=N_("Open a saved JSON state"))

    def _top_bar(self) -> W.HBox:
        top = W.HBox([W.HTML("<span class='pe-brand'>Perceptron Explorer</span>"),
                      self.b_settings, self.b_lecture, self.history.b_undo,
                      self.history.b_redo, self.asking.button,
                      self.playlist.toggle, self.share,
                      self.b_save, self.upload, self.language.menu],
                     layout=W.Layout(flex_flow="row wrap", align_items="center"))
        top.add_class("pe-topbar")
        return top

    def _report_error(self, text: str) -> None:
        """A callback failed (see :mod:`explorer.app.guard`): say so in the active tab."""
        view = self.views.get(self.tab_keys[self.tabs.selected_index or 0])
        if view is not None:
            view.messages.refuse(text)

    # ------------------------------------------------------------------ tabs
    @property
    def active(self):
        """The view of the tab on screen."""
        return self.views.get(self.tab_keys[self.tabs.selected_index or 0])

    def _link_problems(self, tab: str | None, index: int) -> list[str]:
        """What the page's link asked that is not shown, said in the first tab: an unknown tab
        (tab ``index`` is shown instead), a language not offered."""
        said = []
        if tab is not None and tab not in self.tab_keys:
            said.append(tr("The link names an unknown tab {name}; showing {title}.")
                        .format(name=repr(tab), title=tr(self.tab_table[index][1])))
        if self.language.problem:
            said.append(self.language.problem)
        return said

    def _open(self, index, *, query: str = "", said=()) -> None:
        if index is None:
            return
        key = self.tab_keys[index]
        if key in self._unspoken and key in self.views:  # the language changed meanwhile
            self._unspoken.discard(key)
            self.views[key].language_changed()
        if key not in self.views:
            # the page gets the tab's widgets first and lays them out while the kernel draws
            # its figure (held until the tab is made, then drawn once, at its last state)
            self._drawn_once(lambda: self._make(index, query=query, said=said))
        self._layout()
        self.bridge.measure += 1
        self._state_changed()
        self.history.sync()

    def _make(self, index: int, *, query: str, said=()):
        """Make tab ``index``'s view, at the size the window gives its figure (its still
        layers drawn once), put it in the tab and apply the link's state."""
        key = self.tab_keys[index]
        view = _load(self.tab_table[index][2])(fitted=self._fit())
        self.views[key] = view
        children = list(self.tabs.children)
        children[index] = view
        self.tabs.children = children
        self.tabs.titles = self._titles()
        view.observe(lambda ch: self._state_changed(), names="changed")
        if view.has_trait("handoff"):
            view.observe(self._on_handoff, names="handoff")
        view.timeline.play.observe(lambda ch: self._flush_link(), names="playing")
        self.asking.hook(view)
        # a note or a refusal takes a line above the figure (and a crowded figure's choice
        # of side panels, TabView.layout_lines): measure where it starts again
        lines = getattr(view, "layout_lines", None)
        for line in lines() if lines else (view.messages.notice, view.messages.refusal):
            line.layout.observe(self._remeasure, names="display")
            if isinstance(line, W.HTML):
                line.observe(self._remeasure, names="value")  # 1 line or 2
        if query:
            self._apply(view, *view.spec.from_query(query), source="link")
        for text in said:  # the link's tab or language (Dashboard._link_problems)
            view.messages.refuse(text)
        return view

    def _apply(self, view, values: dict | None, problems: list[str], *, source: str) -> None:
        """Apply a state read by the tab's spec (``values`` None: nothing of it was usable).
        The spec's messages name each setting refused (it kept its default); the rest is used."""
        kept = tr(SHOWING_DEFAULTS) if source == "link" else tr("Kept what was on screen.")
        if values is None:  # the spec's messages say why nothing was used
            view.messages.refuse(sentences(problems).replace(tr(SHOWING_DEFAULTS), kept))
            return
        if not view.load_state(values, origin=datachoice.from_source(source)):
            refusal = view.model.refusal
            reason = refusal.why.rstrip(".") if refusal is not None else view.model.message
            view.messages.refuse(sentences(
                [*problems, tr(_NOT_USED[source]).format(reason=reason, kept=kept)]))
        elif problems:
            view.messages.refuse(sentences([*problems, tr(_REST_USED[source])]))

    def _on_handoff(self, change) -> None:
        """A tab sends its data to another ("open these points in the Perceptron tab")."""
        request = change["new"]
        if not request:
            return
        change["owner"].handoff = None
        key = request.tab
        if key not in self.tab_keys:
            return
        origin = datachoice.from_tab(change["owner"].title)

        def send(target) -> None:
            state = {**target.spec.defaults(), **request.state()}
            if not target.load_state(state, origin=origin):
                target.messages.refuse("The data sent were not used: " + target.model.message)

        self._open_at(self.tab_keys.index(key), send)

    def _open_at(self, index: int, apply) -> None:
        """Open tab ``index`` (made if needed) and ``apply(view)`` a state to it: its figure
        is drawn once, at that state (a tab made for it is not drawn at its defaults first)."""
        def opened():
            self.tabs.selected_index = index
            apply(self.active)
            return self.active

        self._drawn_once(opened)

    @staticmethod
    def _drawn_once(make):
        """``make()`` a tab's view with its figure's draws held, then draw each figure once;
        one that cannot be drawn says why in its tab. Returns the view."""
        hold = HeldShows()
        with hold:
            view = make()
        for exc in hold.release():
            view.messages.refuse(f"Could not draw this run: {exc}")
        return view

    # ------------------------------------------------------------------ layout
    def _on_window(self, change=None) -> None:
        if change is not None and change["name"] == "width" and change["old"] == 0:
            self.b_settings.value = sidebar_starts_open(self.bridge.width)
        self._layout()

    def _remeasure(self, change=None) -> None:
        self.bridge.measure += 1

    def _toggled(self) -> None:
        self._layout()
        self.bridge.measure += 1  # the rows above the figure changed height: measure again

    @property
    def _settings_shown(self) -> bool:
        """Whether the tab's settings column is shown: asked for, and not in lecture mode."""
        return self.b_settings.value and not self.b_lecture.value

    def _layout(self) -> None:
        lecture = self.b_lecture.value
        if lecture:
            self.add_class("pe-lecture")
        else:
            self.remove_class("pe-lecture")
        self.b_settings.disabled = lecture
        for w in (self.share, self.b_save, self.upload, self.language.menu):  # the figure's room
            w.layout.display = "none" if lecture else ""
        self.playlist.layout.display = "" if self.playlist.toggle.value else "none"
        self.playlist.set_compact(lecture)  # lecture mode: only Previous, the slide, Next
        view = self.active
        if view is None:
            return
        view.show_settings(self._settings_shown)
        fitted = self._fit()
        if fitted is not None:
            view.fit(fitted)

    def _fit(self) -> FigureFit | None:
        """The size of the figure of the tab on screen, for the window as the page last
        measured it (None before it has)."""
        if not self.bridge.width:
            return None
        return fit_figure(window_width=self.bridge.width, window_height=self.bridge.height,
                          figure_top=self.bridge.figure_top, figure_width=self.bridge.figure_width,
                          sidebar=self._settings_shown, lecture=self.b_lecture.value)

    def _on_key(self, key: str) -> None:
        if key in ("l", "L"):
            self.b_lecture.value = not self.b_lecture.value
        elif key == "Undo":
            self.history.undo()
        elif key == "Redo":
            self.history.redo()
        elif self.playlist.handle_key(key):
            pass
        elif self.active is not None:
            self.active.handle_key(key)

    # ------------------------------------------------------------------ playlist
    def _spec_of(self, tab):
        return tab_spec(tab, tabs=self.tab_table)

    def _capture(self) -> tuple[str, dict, str]:
        """The state on screen for a slide: its tab, state and a title saying where it is."""
        index = self.tabs.selected_index or 0
        state = self.active.save_state()
        title = tr("{tab} at step {step}").format(tab=tr(self.tab_table[index][1]),
                                                  step=state["step"])
        return self.tab_keys[index], state, title

    def _show_slide(self, entry) -> None:
        """Open a slide: its tab, at exactly the state saved. What the slide on screen has
        running (Play, a simulation) stops first: the next slide starts its own."""
        if self.active is not None:
            self.active.stop_running()
        said = [] if entry.lang is None else [self.language.choose(entry.lang, source="playlist")]
        self._open_at(self.tab_keys.index(entry.tab),
                      lambda view: self._apply(view, dict(entry.state), [x for x in said if x],
                                               source="playlist"))

    def _presenter_info(self, info: dict) -> None:
        """The presenter view shows ``info`` (the page's window, if one is open) and the next
        slide's picture, drawn in the background."""
        info = self.preview.follow(info)
        if self.bridge.presenter != info:
            self.bridge.presenter = info

    # ------------------------------------------------------------------ sharing
    def _state_changed(self) -> None:
        view = self.active
        if view is None:
            return
        if view.timeline.play.playing:
            self._link_dirty = True  # while playing, the link follows when play stops
            return
        # Step after step (a held arrow key, a scrub), the link is written once things settle:
        # every write is a message to the page. Outside a kernel (tests, scripts) at once.
        loop = kernel_loop()
        if loop is None:
            self._write_link(view)
            return
        if self._link_timer is not None:
            self._link_timer.cancel()
        self._link_timer = loop.call_later(LINK_DELAY_S, self._write_link, view)

    def _flush_link(self) -> None:
        view = self.active
        if view is not None and self._link_dirty and not view.timeline.play.playing:
            self._link_dirty = False
            self._write_link(view)

    def _write_link(self, view) -> None:
        state = view.save_state()
        query = view.spec.to_query(state)
        self._link_short = len(query) > MAX_LINK_CHARS
        if self._link_short:
            query = view.spec.to_query({**state, "points": []})
        query = self.language.link(query)
        self.bridge.query = query
        self._link = f"{self.bridge.href}?{query}" if self.bridge.href else f"?{query}"
        self.share.value = self._link
        self._share_words()
        self.history.record(view, state)

    def _share_words(self) -> None:
        short = self._link_short
        self.share.description = tr("Link") + ("*" if short else "")
        tip = tr("Copy this link: it opens the dashboard at the state shown")
        if short:
            tip += " " + tr("(link without the edited points: too many; use Save state)")
        self.share.tooltip = tip

    # ------------------------------------------------------------------ language
    def _titles(self) -> list[str]:
        return [tr(t) for _, t, _ in self.tab_table]

    def _relabel(self) -> None:
        """The language changed: the words this dashboard sets itself, and the tab on screen's
        figure drawn again in the new language (the others' when they are next shown)."""
        self.tabs.titles = self._titles()
        self._share_words()
        self.bridge.words = page_words()
        active = self.active
        for key, view in self.views.items():
            if view is active:
                view.language_changed()
            else:
                self._unspoken.add(key)

    def _language_changed(self) -> None:
        """The menu or the browser changed the language: the link says so, the page is
        measured again (words of other lengths)."""
        if self.active is not None:
            self._write_link(self.active)
        self.bridge.measure += 1

    # ------------------------------------------------------------------ undo and redo
    def _write_pending_link(self, view) -> None:
        """Write now a link waiting to be written (an edit not yet in the link is recorded)."""
        if self._link_timer is not None:
            self._link_timer.cancel()
            self._link_timer = None
            self._write_link(view)

    def _restore(self, view, entry, way: str) -> None:
        """Show a state from the tab's history, by the path a link takes."""
        view.stop_running()  # as a slide opened: what was playing stops first

        def restore():
            if not view.load_state(dict(entry.state), origin=entry.origin):
                view.messages.refuse(f"Could not {way}: {view.model.message}")
            return view

        self._drawn_once(restore)

    def _on_share_typed(self, change) -> None:
        if change["new"] != getattr(self, "_link", change["new"]):
            self.share.value = self._link  # the box shows the link; typing in it changes nothing

    def _save(self) -> None:
        view = self.active
        self._download(f"{view.spec.tab}-state.json",
                       view.spec.to_json(view.save_state(), lang=self.language.chosen))

    def _download(self, name: str, text: str) -> None:
        self.bridge.download(name, text)

    def _on_upload(self, change) -> None:
        files = change["new"]
        if not files:
            return
        view = self.active
        item = files[0]
        size = int(item.get("size", len(item.get("content", b""))))
        if size > MAX_STATE_BYTES:
            view.messages.refuse(tr("The file was not used: a saved state is at most {most} kB; "
                                    "got {size} kB.").format(most=MAX_STATE_BYTES // 1000,
                                                             size=size // 1000))
        else:
            content = bytes(item["content"])
            lang = file_lang(content)  # the page's language first: the messages are in it
            said = self.language.choose(lang, source="file") if lang is not None else None
            values, problems = view.spec.from_json(content)
            self._apply(view, values, [said, *problems] if said else problems, source="file")
        self.upload.value = ()


def dashboard(*, query: str | None = None) -> Dashboard:
    """The dashboard served by Voila (``notebooks/dashboard.ipynb``)."""
    return Dashboard(query=query)


def ready_dashboard() -> Dashboard:
    """The opening dashboard, built before a visitor asks for it (a preheated kernel, see
    :mod:`explorer.serving.hall`): its figure's still layers are drawn at the size guessed
    before the window is measured, as a page open would draw them. :func:`for_request` gives
    it to the visitor whose address has no link (no query string)."""
    return Dashboard(query="")


def for_request(ready: Dashboard) -> Dashboard:
    """The dashboard for the request that has just arrived (``QUERY_STRING``, set by Voila's
    ``wait_for_request``): ``ready`` when the address has no link, else one built for the link
    (``ready`` is closed)."""
    query = os.environ.get("QUERY_STRING", "")
    if not query.strip("?&"):
        return ready
    ready.close()
    return Dashboard(query=query)
