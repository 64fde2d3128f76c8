"""The dashboard's Playlist controls: a lecture's slides of saved states (issue 22).

A toggle in the top bar shows a compact group under it: a title box and *Add slide* (the
state on screen: its tab, settings and step), the list of slides (choosing one opens it)
with move up, move down, rename and delete, *Previous* / *Next*, *Save playlist* (a JSON
file), *Load playlist*, *Example lecture* (the course playlist shipped in
``explorer/app/playlists/course.json``), *Link* (a link that opens the playlist), the chosen
slide's *notes* and *Presenter view*: a window of its own, for the lecturer's screen, with the
slide's notes, the time since the lecture began and the next slide (the page bridge draws it,
:mod:`explorer.app.bridge`; the projected page and the followers never show the notes). The
keys :data:`NEXT_KEYS` and :data:`PREVIOUS_KEYS` step through the slides in any mode,
lecture mode included; PageDown and PageUp stay the step keys of the tab on screen. The
playlist itself is :class:`explorer.app.playlist.Playlist` (no widgets); a bad file or link
gives a message here and keeps the playlist as it was.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from importlib import resources

import ipywidgets as W

from ..shared.i18n import N_, sentences, tr, tr_n
from .labels import label
from .lazy import BuiltOnUse
from .playlist import KEYS_HELP, NEXT_KEYS, PREVIOUS_KEYS, Entry, Playlist
from .state import MAX_JSON_BYTES

#: The most slides the list shows at once (it scrolls to the others).
LIST_ROWS = 3


def course_text() -> str:
    """The text of the example lecture shipped with the package."""
    return resources.files("explorer.app").joinpath("playlists/course.json").read_text("utf-8")


def _auto(**kw):
    return {"layout": W.Layout(width="auto", **kw)}  # one Layout per widget: they are shared


class PlaylistPanel(BuiltOnUse, W.VBox):
    """The Playlist group. ``capture()`` gives ``(tab, state, default title)`` of the state on
    screen; ``show(entry)`` opens a slide; ``base()`` is the page's address for links;
    ``download(name, text)`` has the page download a file (*Save playlist*);
    ``titles`` maps a tab to the name its tab shows. :meth:`set_compact` keeps only Previous,
    where we are and Next (lecture mode); ``on_resize()`` is called when its message changes
    height. ``lang()`` is the page's language if one was chosen (a slide added keeps it), else
    None. Only :attr:`toggle` is made at once: the group's widgets are made when it is first
    shown or used (:class:`~explorer.app.lazy.BuiltOnUse`)."""

    def __init__(self, *, spec_of: Callable, capture: Callable[[], tuple[str, dict, str]],
                 show: Callable[[Entry], None], base: Callable[[], str],
                 titles: Mapping[str, str] | None = None,
                 on_resize: Callable[[], None] | None = None,
                 download: Callable[[str, str], None] | None = None,
                 presenter: Callable[[dict], None] | None = None,
                 open_presenter: Callable[[], None] | None = None,
                 lang: Callable[[], str | None] = lambda: None):
        self.playlist = Playlist(spec_of=spec_of)
        self._lang = lang
        self._on_resize = on_resize
        self._capture, self._show, self._base = capture, show, base
        self._download = download
        self._presenter, self._open_presenter = presenter, open_presenter
        self.titles = dict(titles or {})
        self._syncing = self._compact = False
        self.toggle = label(W.ToggleButton(value=False, icon="list-ol", **_auto()),
                            description=N_("Playlist"),
                            tooltip=lambda: tr("A lecture's slides of saved states ({keys})")
                            .format(keys=tr(KEYS_HELP)))
        self.toggle.observe(lambda ch: self.build() if ch["new"] else None, names="value")
        super().__init__([])  # the group's parts are made when first shown or used (_build)
        self.add_class("pe-playlist")
        self.layout.display = "none"  # the dashboard shows it while the toggle is down

    def _build(self) -> None:
        self.title = W.Text(placeholder="Title of the next slide (optional)",
                            layout=W.Layout(flex="1 1 220px", width="auto", max_width="420px"))
        self.b_add = self._button("Add slide", "plus", "Save the state on screen (tab, settings, "
                                  "step) as the next slide, with the title typed")
        self.b_prev = self._button("Previous", "chevron-left", "The previous slide (p)")
        self.where = W.HTML("", **_auto(min_width="9em"))
        self.where.add_class("pe-playlist-where")
        self.now = W.HTML("", layout=W.Layout(display="none"))  # the slide's title, lecture mode
        self.now.add_class("pe-playlist-now")
        self.b_next = self._button("Next", "chevron-right", "The next slide (n)")
        self.list = W.Select(options=[], rows=4, layout=W.Layout(flex="1 1 320px", width="auto",
                                                                 min_width="200px"))
        self.list.add_class("pe-playlist-list")
        self.b_up = self._button("", "arrow-up", "Move the chosen slide up")
        self.b_down = self._button("", "arrow-down", "Move the chosen slide down")
        self.b_rename = self._button("Rename", "pencil", "Give the chosen slide the title typed")
        self.b_delete = self._button("Delete", "trash", "Delete the chosen slide")
        self.b_save = self._button("Save playlist", "download", "Download the playlist as JSON")
        self.upload = W.FileUpload(accept=".json,application/json", multiple=False,
                                   description="Load playlist", tooltip="Open a playlist file",
                                   **_auto())
        self.b_example = self._button("Example lecture", "graduation-cap", "The course in ten "
                                      "slides: the perceptron, its bound, margins, Cover, XOR, "
                                      "generalization")
        self.b_link = self._button("Link", "link", "A link that opens this playlist")
        self._build_notes()
        self.out = W.HTML()
        self.out.add_class("pe-playlist-out")
        self.link = W.Text(description="Link", layout=W.Layout(width="100%", display="none"),
                           tooltip="Copy this link: it opens this playlist at the slide shown")
        self.link.add_class("pe-playlist-link")
        for b, act in ((self.b_add, self.add), (self.b_prev, self.previous),
                       (self.b_next, self.next), (self.b_up, lambda: self._move(-1)),
                       (self.b_down, lambda: self._move(1)), (self.b_rename, self._rename),
                       (self.b_delete, self._delete), (self.b_save, self._save),
                       (self.b_example, self.load_example), (self.b_link, self._link),
                       (self.b_presenter, self.open_presenter)):
            b.on_click(lambda _, act=act: act())
        self.list.observe(self._chosen, names="index")
        self.upload.observe(self._on_upload, names="value")
        row = dict(flex_flow="row wrap", align_items="center")
        self.slides = W.HBox([self.list, W.VBox([W.HBox([self.b_up, self.b_down]),
                                                 W.HBox([self.b_rename, self.b_delete])]),
                              self.notes],
                             layout=W.Layout(**row))
        self.children = [
            W.HBox([self.title, self.b_add, self.b_prev, self.where, self.now, self.b_next,
                    self.b_save,
                    self.upload, self.b_example, self.b_link, self.b_presenter],
                   layout=W.Layout(**row)),
            self.slides,
            self.out, self.link]
        if self._on_resize is not None:
            self.out.observe(lambda ch: self._on_resize(), names="value")  # 1 line or more
        if self._compact:
            self._show_compact()
        self._refresh()

    def _build_notes(self) -> None:
        """The chosen slide's notes box and the Presenter view button."""
        self.b_presenter = self._button(
            "Presenter view", "television", "A window for your own screen: the slide's notes, "
            "the time since the lecture began and the next slide (never on the projector or "
            "the students' screens)")
        self.notes = W.Textarea(placeholder="Notes for this slide: only the presenter view "
                                "shows them", rows=3, continuous_update=False,
                                layout=W.Layout(flex="1 1 260px", width="auto"))
        self.notes.add_class("pe-playlist-notes")
        self.notes.observe(self._notes_typed, names="value")

    @staticmethod
    def _button(text: str, icon: str, tip: str) -> W.Button:
        b = W.Button(description=text, icon=icon, tooltip=tip, **_auto())
        b.add_class(f"pe-pl-{icon}")  # e.g. pe-pl-plus: found by class, its name has an icon
        return b

    def _say(self, text: str, *, bad: bool = False) -> None:
        self.link.layout.display = "none"
        cls = "pe-message" if bad else "pe-note"
        self.out.value = f"<div class='{cls}'>{html.escape(text, quote=False)}</div>" if text else ""
        if bad:
            self.toggle.value = True  # the message must be seen

    # ------------------------------------------------------------------ the list
    def _refresh(self) -> None:
        p = self.playlist
        labels = [f"{i + 1}. {e.title} · {self._where(e)}" for i, e in enumerate(p.entries)]
        self._syncing = True
        try:
            if list(self.list.options) != labels:
                self.list.options = labels
            self.list.index = p.current
            # three rows at most (it scrolls): the figure below keeps its height
            self.list.rows = max(2, min(LIST_ROWS, len(labels)))
            self.slides.layout.display = "" if labels and not self._compact else "none"
        finally:
            self._syncing = False
        n, k = len(p), p.current
        self.where.value = (tr("slide {k} of {n}").format(k=k + 1, n=n) if k is not None else
                            tr_n("{n} slide", "{n} slides", n).format(n=n) if n else
                            tr("no slides yet"))
        self.now.value = html.escape(p.entries[k].title, quote=False) if k is not None else ""
        self.now.layout.display = "" if self._compact and k is not None else "none"
        for b in (self.b_up, self.b_down, self.b_rename, self.b_delete, self.notes):
            b.disabled = k is None
        self._syncing = True
        try:
            notes = p.entries[k].notes if k is not None else ""
            if self.notes.value != notes:
                self.notes.value = notes
        finally:
            self._syncing = False
        self.b_prev.disabled = not n or k == 0
        self.b_next.disabled = not n or k == n - 1
        self.b_save.disabled = self.b_link.disabled = not n
        if self._presenter is not None:
            self._presenter(self.presenter_info())

    def presenter_info(self) -> dict:
        """What the presenter view shows: ``{"k", "n", "title", "notes", "next"}``, the slide
        on screen (``k`` from 1; 0 and empty texts before one is opened) and ``next``, the
        next slide's ``{"title", "where"}`` (None after the last)."""
        p = self.playlist
        k = p.current
        entry = p.entries[k] if k is not None else None
        after = (k + 1) if k is not None else 0
        nxt = p.entries[after] if after < len(p) else None
        return {"k": 0 if k is None else k + 1, "n": len(p),
                "title": entry.title if entry else "", "notes": entry.notes if entry else "",
                "next": None if nxt is None else {"title": nxt.title, "where": self._where(nxt)}}

    def _where(self, entry: Entry) -> str:
        return tr("{tab}, step {step}").format(tab=tr(self.titles.get(entry.tab, entry.tab)),
                                               step=entry.state["step"])

    def set_compact(self, compact: bool) -> None:
        """Lecture mode: only Previous, where we are (with the slide's title) and Next."""
        if compact == self._compact:
            return
        self._compact = compact
        if self.built:
            self._show_compact()
            self._refresh()

    def _show_compact(self) -> None:
        compact = self._compact
        for w in (self.title, self.b_add, self.b_save, self.upload, self.b_example, self.b_link,
                  self.b_presenter, self.out):
            w.layout.display = "none" if compact else ""
        self.link.layout.display = "none"

    def _open(self, entry: Entry | None) -> None:
        if entry is not None:
            self._show(entry)  # the slide first: "slide k of n" then says what is on screen
        self._refresh()

    def _chosen(self, change) -> None:
        if not self._syncing and change["new"] is not None:
            self._say("")
            self._open(self.playlist.go(change["new"]))

    def _notes_typed(self, change) -> None:
        k = self.playlist.current
        if self._syncing or k is None:
            return
        try:
            self.playlist.set_notes(k, change["new"])
        except ValueError as exc:
            self._say(tr("The notes were not kept: {problem}.").format(problem=exc), bad=True)
        else:
            self._say("")
        self._refresh()  # the box shows what is kept (tidied, or the notes before)

    # ------------------------------------------------------------------ actions
    def open_presenter(self) -> None:
        """Open the presenter view (a window of its own, see the module docstring)."""
        if self._open_presenter is not None:
            self._open_presenter()

    def presenter_blocked(self) -> None:
        """The browser refused the presenter view's window: say how to allow it."""
        self._say("The browser blocked the presenter view's window: allow pop-up windows for "
                  "this page, then press Presenter view again.", bad=True)

    def add(self) -> None:
        """Save the state on screen as the next slide."""
        tab, state, default = self._capture()
        try:
            entry = self.playlist.add(title=self.title.value.strip() or default, tab=tab,
                                      state=state, lang=self._lang())
        except ValueError as exc:
            self._say(tr("The slide was not added: {problem}.").format(problem=exc), bad=True)
            return
        self.title.value = ""
        self._say(tr("Added slide {n}: {title}.").format(n=len(self.playlist), title=entry.title))
        self._refresh()

    def next(self) -> None:
        """Open the next slide (the first if none is open yet)."""
        self._open(self.playlist.step(1))

    def previous(self) -> None:
        """Open the previous slide."""
        self._open(self.playlist.step(-1))

    def _move(self, delta: int) -> None:
        if self.playlist.current is not None:
            self.playlist.move(self.playlist.current, delta)
            self._refresh()

    def _rename(self) -> None:
        k = self.playlist.current
        if k is None:
            return
        try:
            self.playlist.rename(k, self.title.value)
        except ValueError as exc:
            self._say(f"The slide was not renamed: {exc}. Type its new title in the box.",
                      bad=True)
            return
        self.title.value = ""
        self._say("")
        self._refresh()

    def _delete(self) -> None:
        if self.playlist.current is not None:
            self.playlist.delete(self.playlist.current)
            self._refresh()

    def _save(self) -> None:
        """Download the playlist as ``playlist.json`` at once."""
        self._say("")
        if self._download is not None:
            self._download("playlist.json", self.playlist.to_json())

    def _link(self) -> None:
        try:
            query = self.playlist.to_link()
        except ValueError as exc:
            self._say(tr("No link: {problem}.").format(problem=exc), bad=True)
            return
        self._say("")
        self.link.value = f"{self._base()}?{query}"
        self.link.layout.display = ""

    # ------------------------------------------------------------------ loading
    def load_text(self, text, *, source: str = "file") -> bool:
        """Replace the playlist by a file's and open its first slide; a message otherwise."""
        before = self.playlist.entries
        messages = self.playlist.load_json(text)
        if self.playlist.entries is before:  # refused: the playlist is kept
            self._say(sentences(messages), bad=True)
            return False
        n = len(self.playlist)
        if source == "example lecture":
            loaded = tr_n("Loaded a playlist of {n} slide from the example lecture.",
                          "Loaded a playlist of {n} slides from the example lecture.", n)
        else:
            loaded = tr_n("Loaded a playlist of {n} slide from the file.",
                          "Loaded a playlist of {n} slides from the file.", n)
        loaded = loaded.format(n=n)
        self._say(sentences([loaded, *messages]), bad=bool(messages))
        self.next()
        return True

    def load_example(self) -> None:
        """The example lecture shipped with the package."""
        self.load_text(course_text(), source="example lecture")

    def load_link(self, query: str) -> None:
        """A link's playlist (``playlist=...&slide=k``), opened at its slide."""
        before = self.playlist.entries
        messages, index = self.playlist.load_link(query)
        if self.playlist.entries is before:  # refused: the playlist is kept (if there is one)
            self._say(sentences(messages[:-1] if not before else messages), bad=True)
            return
        self.toggle.value = True  # the group shows which slide is on screen
        self._say(sentences(messages), bad=bool(messages))
        self._open(self.playlist.go(index) if len(self.playlist) else None)

    def _on_upload(self, change) -> None:
        files = change["new"]
        if not files:
            return
        item = files[0]
        size = int(item.get("size", len(item.get("content", b""))))
        if size > MAX_JSON_BYTES:
            self._say(tr("The playlist was not used: a playlist file is at most {most} kB; got "
                         "{size} kB. The current playlist is kept.").format(
                most=MAX_JSON_BYTES // 1000, size=size // 1000), bad=True)
        else:
            self.load_text(bytes(item["content"]))
        self.upload.value = ()

    def handle_key(self, key: str) -> bool:
        """Next / previous slide for the keys of :data:`NEXT_KEYS` / :data:`PREVIOUS_KEYS`."""
        if key not in NEXT_KEYS and key not in PREVIOUS_KEYS:
            return False
        if not self.built and not len(self.playlist):
            return True  # no slides: nothing to open, and no group to make for it
        if key in NEXT_KEYS:
            self.next()
        else:
            self.previous()
        return True


__all__ = ["PlaylistPanel", "NEXT_KEYS", "PREVIOUS_KEYS", "KEYS_HELP", "course_text"]
