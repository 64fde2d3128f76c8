"""The dashboard's Playlist (explorer/app/playlist_ui.py): slides open exactly as saved, the keys
step through them, bad files and links give a message and keep the playlist, and the example
lecture shipped in the package opens every slide without a message."""

import html
import json

import pytest

from explorer.app import Dashboard
from explorer.app.bridge import KEYS
from explorer.app.dashboard import tab_spec
from explorer.app.playlist import NEXT_KEYS, PREVIOUS_KEYS, Playlist
from explorer.app.playlist_ui import course_text
from explorer.app.preview import slide_key
from explorer.app.timeline import KEY_ACTIONS, KEYS_HELP


@pytest.fixture(scope="module")
def dash():
    return Dashboard(query="")


def shown(d):
    """(tab, whole state) of the tab on screen, as its spec declares it."""
    view = d.active
    return d.tab_keys[d.tabs.selected_index], view.spec.validate(view.save_state())


def current(d):
    p = d.playlist.playlist
    return p.entries[p.current]


def test_example_lecture_walks_the_course_and_every_slide_loads_without_a_message(dash):
    p = Playlist(spec_of=tab_spec)
    assert p.load_json(course_text()) == []
    assert [e.tab for e in p.entries] == ["perceptron"] * 4 + ["margins"] * 3 + [
        "cover", "xor", "generalization"]
    koski = [e.state for e in p.entries[:2]]
    assert [s["dataset"] for s in koski] == ["koski", "koski"] and [s["step"] for s in koski] == [0, 3]
    assert (p.entries[2].state["race"], p.entries[2].state["step"]) == (["margin"], 12)
    assert [e.state["hard"] for e in p.entries[4:7]] == [True, True, False]
    added = p.entries[5].state["points"]  # Koski's six points and one more, near the boundary
    assert len(added) == 7 and added[-1] == (0.0, -0.5, 1)
    assert p.entries[7].state["ms"] == [1, 5, 100]
    assert (p.entries[8].state["view"], p.entries[8].state["step"]) == ("cycling", 8)


def test_every_example_slide_opens_its_tab_at_exactly_the_saved_state(dash):
    dash.playlist.load_example()
    assert "Loaded a playlist of 10 slides" in dash.playlist.out.value
    for k in range(10):
        if k:
            dash.bridge.press("n")
        entry = current(dash)
        assert dash.playlist.playlist.current == k
        assert shown(dash) == (entry.tab, entry.state), entry.title
        assert not dash.active.messages.refused, (entry.title, dash.active.messages.refused)
        assert dash.playlist.where.value == f"slide {k + 1} of 10"
    dash.bridge.press("n")  # past the last slide: nothing moves
    assert dash.playlist.playlist.current == 9


def test_keys_step_slides_and_page_keys_still_step_the_run(dash):
    dash.playlist.load_example()
    dash.bridge.press("n")
    assert dash.playlist.playlist.current == 1 and shown(dash)[1]["step"] == 3
    dash.bridge.press("PageDown")
    assert dash.playlist.playlist.current == 1 and shown(dash)[1]["step"] == 4
    dash.bridge.press("p")
    assert shown(dash) == ("perceptron", current(dash).state) and current(dash).state["step"] == 0
    dash.bridge.press("N")
    assert shown(dash)[1]["step"] == 3  # the slide opens as saved, not as left


def test_keys_are_forwarded_documented_and_free():
    from explorer.app.bridge import BLACKOUT_KEYS

    for key in NEXT_KEYS + PREVIOUS_KEYS:
        assert key in KEYS and key not in KEY_ACTIONS and key not in BLACKOUT_KEYS
    assert "n next slide" in KEYS_HELP and "p previous slide" in KEYS_HELP
    assert "b or . blacks the screen out" in KEYS_HELP
    assert "PageDown" not in NEXT_KEYS + PREVIOUS_KEYS
    # the remote's "blank screen" button sends "."; the page blacks out by itself
    assert "." in BLACKOUT_KEYS and not set(BLACKOUT_KEYS) & (set(KEYS) | set(KEY_ACTIONS))
    # the buttons' tooltips name their keys, and no other ("." blacks out, "," does nothing)
    ui = Dashboard(query="").playlist
    ui.build()
    assert ui.b_next.tooltip.endswith("(n)") and ui.b_prev.tooltip.endswith("(p)")


def test_add_rename_move_delete_through_the_controls():
    d = Dashboard(query="tab=xor&step=5")
    ui = d.playlist
    ui.b_add.click()
    assert [e.title for e in ui.playlist.entries] == ["XOR at step 5"]
    d.tabs.selected_index = d.tab_keys.index("perceptron")
    d.bridge.press("ArrowRight")
    ui.title.value = "Koski, one step"
    ui.b_add.click()
    assert ui.title.value == "" and ui.where.value == "slide 2 of 2"
    assert ui.list.options == ("1. XOR at step 5 · XOR, step 5",
                               "2. Koski, one step · Perceptron, step 1")
    ui.b_up.click()
    assert [e.title for e in ui.playlist.entries] == ["Koski, one step", "XOR at step 5"]
    assert ui.list.index == 0 and ui.b_prev.disabled and not ui.b_next.disabled
    ui.title.value = "Koski after one step"
    ui.b_rename.click()
    assert ui.playlist.entries[0].title == "Koski after one step"
    ui.title.value = ""
    ui.b_rename.click()  # an empty title is refused with a message
    assert "must not be empty. Type its new title in the box." in ui.out.value
    assert ui.playlist.entries[0].title == "Koski after one step"
    ui.list.index = 1  # choosing a slide in the list opens it
    assert shown(d) == ("xor", ui.playlist.entries[1].state)
    ui.b_delete.click()
    assert len(ui.playlist) == 1 and ui.playlist.current is None and ui.b_delete.disabled


def test_save_writes_the_file_and_the_link_reopens_the_slide():
    d = Dashboard(query="")
    ui = d.playlist
    ui.load_example()
    d.bridge.press("n")
    d.bridge.press("n")
    sent = []
    d.bridge.send = lambda content, buffers=None: sent.append(content)
    ui.b_save.click()  # downloaded at once: no link to click
    assert sent == [{"type": "download", "name": "playlist.json", "text": ui.playlist.to_json(),
                     "mime": "application/json"}]
    assert "playlist.json" not in ui.out.value
    ui.b_link.click()
    assert ui.link.value.startswith("?playlist=") and ui.link.value.endswith("&slide=3")
    d._on_window()  # the page measures again after the message line changed: the link stays
    assert ui.link.layout.display == ""
    e = Dashboard(query=ui.link.value.lstrip("?"))
    assert e.playlist.playlist.entries == ui.playlist.entries
    assert shown(e) == ("perceptron", ui.playlist.entries[2].state)
    assert e.playlist.where.value == "slide 3 of 10" and not e.active.messages.refused
    assert e.playlist.toggle.value and e.playlist.layout.display == ""


BAD = [b"{", b"[]", json.dumps({"app": "perceptron-explorer", "version": 0, "playlist": []}).encode(),
       json.dumps({"app": "perceptron-explorer", "version": 1, "playlist": [
           {"title": "t", "tab": "nope", "state": {}}]}).encode(),
       json.dumps({"app": "perceptron-explorer", "version": 1, "playlist": [
           {"title": "t", "tab": "xor", "state": {"degree": 99}}, "not a slide"]}).encode()]


@pytest.mark.parametrize("raw", BAD, ids=range(len(BAD)))
def test_a_bad_file_gives_a_message_in_the_page_and_keeps_everything(dash, raw):
    ui = dash.playlist
    ui.load_example()
    dash.bridge.press("n")
    before, state = list(ui.playlist.entries), shown(dash)
    ui._on_upload({"new": ({"name": "p.json", "size": len(raw), "content": raw},)})
    assert "pe-message" in ui.out.value and "The current playlist is kept." in ui.out.value
    assert ui.playlist.entries == before and ui.playlist.current == 1 and shown(dash) == state
    assert ui.toggle.value  # the group opens to show the message


def test_a_bad_setting_of_a_slide_keeps_the_rest_of_the_playlist(dash):
    """Issue 30, item 13: a slide's bad setting refused the whole playlist."""
    ui = dash.playlist
    raw = json.dumps({"app": "perceptron-explorer", "version": 1, "playlist": [
        {"title": "t", "tab": "xor", "state": {"degree": 99, "function": 9, "step": 2}},
        {"title": "u", "tab": "perceptron", "state": {}}]}).encode()
    ui._on_upload({"new": ({"name": "p.json", "size": len(raw), "content": raw},)})
    assert len(ui.playlist) == 2 and ui.playlist.current == 0
    assert "pe-message" in ui.out.value and html.unescape(ui.out.value).endswith(
        "Loaded a playlist of 2 slides from the file. In slide 1 ('t'), degree (kernel degree) "
        "must be a whole number from 1 to 6; got 99; kept the default (2).</div>")
    m = dash.active.model
    assert (dash.active.spec.tab, m.function, m.degree, m.step) == ("xor", 9, 2, 2)


def test_an_oversized_file_is_refused_before_reading(dash):
    ui = dash.playlist
    ui._on_upload({"new": ({"name": "p.json", "size": 2_000_000, "content": b"{"},)})
    assert "at most 1000 kB; got 2000 kB" in ui.out.value


def test_a_bad_link_opens_the_dashboard_with_a_message():
    d = Dashboard(query="playlist=not-a-playlist&slide=2")
    assert "The link's playlist was not used" in d.playlist.out.value
    assert "kept" not in d.playlist.out.value  # there was no playlist to keep
    assert len(d.playlist.playlist) == 0 and d.tab_keys[d.tabs.selected_index] == "perceptron"


def test_lecture_mode_keeps_only_previous_the_slide_and_next_and_the_keys_work():
    d = Dashboard(query="")
    ui = d.playlist
    ui.toggle.value = True
    ui.load_example()
    assert ui.layout.display == "" and ui.slides.layout.display == ""
    d.bridge.press("l")
    hidden = (ui.title, ui.b_add, ui.b_save, ui.upload, ui.b_example, ui.b_link, ui.slides, ui.out)
    assert all(w.layout.display == "none" for w in hidden)
    assert ui.b_prev.layout.display != "none" and ui.b_next.layout.display != "none"
    assert ui.now.layout.display == "" and "Koski" in ui.now.value
    d.bridge.press("n")
    assert ui.playlist.current == 1 and d.b_lecture.value and "last update" in ui.now.value
    d.bridge.press("l")
    assert ui.slides.layout.display == "" and ui.now.layout.display == "none"
    ui.toggle.value = False
    assert ui.layout.display == "none"


def test_the_wheel_ships_the_example_lecture():
    import pathlib
    from fnmatch import fnmatch

    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    root = pathlib.Path(__file__).resolve().parents[1]
    config = tomllib.loads((root / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["explorer.app"]
    shipped = sorted(p.name for p in (root / "explorer" / "app" / "playlists").iterdir())
    assert shipped == ["course.json"]
    assert any(fnmatch("playlists/course.json", p) for p in patterns), patterns


class _KernelLoop:
    """A kernel's event loop that keeps what is scheduled until :meth:`run` (in order)."""

    def __init__(self):
        self.soon = []

    def call_soon(self, fn, *args):
        self.soon.append((fn, args))

    call_soon_threadsafe = call_soon

    def call_later(self, delay, fn, *args):
        self.soon.append((fn, args))
        return self

    def cancel(self):
        pass

    def run(self):
        while self.soon:
            fn, args = self.soon.pop(0)
            fn(*args)


@pytest.fixture
def in_a_kernel(monkeypatch):
    """The dashboard as in a kernel: tabs start their background work, results are posted to
    the loop. Generalization's simulation runs until it is asked to stop (then it has finished
    no size); those started are stopped at the end (Cover's Monte Carlo runs are the tests')."""
    import time

    from explorer import generalization as G
    from explorer.app import jobs
    from explorer.app.cover import view as cview
    from explorer.app.generalization import view as gview

    real = G.stability_curve

    def until_stopped(*, ns, trials, dim, gamma, seed, stop, progress):
        deadline = time.monotonic() + 60
        while not stop() and time.monotonic() < deadline:
            time.sleep(0.005)
        return real(ns=ns, trials=2, dim=dim, gamma=gamma, seed=seed, stop=lambda: True)

    monkeypatch.setattr(G, "stability_curve", until_stopped)
    loop = _KernelLoop()
    for module in (gview, cview, jobs):
        monkeypatch.setattr(module, "kernel_loop", lambda: loop)
    made = []
    real_init = gview.GeneralizationView.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(gview.GeneralizationView, "__init__", init)
    yield loop
    for view in made:
        view.model._cancel_simulation()
        assert view.model.wait_simulation(30)


def test_moving_to_the_generalization_slide_starts_its_simulation_without_a_refusal(in_a_kernel):
    """Issue 30, item 7: n from slide 9 to slide 10 of the example lecture said "Not applied: the
    simulation is already running; Stop it first" (the tab started it when made, then again for
    the slide's state)."""
    d = Dashboard(query="")
    d.playlist.load_example()
    for _ in range(9):
        d.bridge.press("n")
        in_a_kernel.run()
    assert d.playlist.playlist.current == 9 and d.tab_keys[d.tabs.selected_index] == "generalization"
    view = d.active
    assert view.model.sim_running and view.model.sim_busy
    assert not view.messages.refused and view.model.refusal is None, view.messages.refused
    assert view.model.message == ""


def test_moving_to_a_slide_stops_what_the_slide_before_started(in_a_kernel):
    d = Dashboard(query="")
    d.playlist.load_example()
    for _ in range(9):
        d.bridge.press("n")
    in_a_kernel.run()
    gen = d.active
    assert gen.model.sim_busy
    d.bridge.press("p")  # back to XOR: the simulation stops, the sizes it finished stay
    assert gen.model.wait_simulation(30)
    in_a_kernel.run()
    assert not gen.model.sim_running and gen.model.sim_note.startswith("Stopped")
    xor = d.active
    xor.page.playing = True  # the page plays XOR's slide (it says so to the kernel)
    assert xor.timeline.play.playing
    d.bridge.press("n")  # the generalization slide again: no refusal, it runs again
    in_a_kernel.run()
    assert not xor.page.playing and not xor.timeline.play.playing  # the page was told to stop
    assert d.active is gen and gen.model.sim_busy and not gen.messages.refused
    # a slide of the same tab: the run before stops too (no refusal either)
    perceptron = d.views["perceptron"]
    d.playlist.list.index = 1
    perceptron.page.playing = True
    d.bridge.press("n")  # slide 3: the race, in the same tab
    assert not perceptron.page.playing and not perceptron.messages.refused
    assert d.active is perceptron and perceptron.model.step == 12


def test_leaving_covers_slide_stops_its_monte_carlo_run(in_a_kernel):
    d = Dashboard(query="")
    d.playlist.load_example()
    d.playlist.list.index = 7  # Cover's curves
    cover = d.active
    assert d.tab_keys[d.tabs.selected_index] == "cover"
    cover.b_run.click()  # Run Monte Carlo
    assert cover.model.mc_busy
    d.bridge.press("n")  # XOR: the run stops after its current trial, its points stay
    assert cover.model.wait_monte_carlo(30)
    in_a_kernel.run()
    assert cover.model.mc_note.startswith("Stopped after") and not cover.model.mc_running
    assert not d.active.messages.refused


def test_notes_are_typed_for_the_slide_on_screen_and_the_presenter_view_shows_them():
    d = Dashboard(query="")
    sent = []
    d.bridge.send = lambda content, buffers=None: sent.append(content)
    d.playlist.toggle.value = True
    pl = d.playlist
    assert pl.notes.disabled and d.bridge.presenter == {"k": 0, "n": 0, "title": "", "notes": "",
                                                        "next": None}
    pl.load_example()
    assert d.bridge.presenter["k"] == 1 and d.bridge.presenter["n"] == 10
    second = pl.playlist.entries[1]
    assert d.bridge.presenter["next"] == {"title": second.title, "where": "Perceptron, step 3",
                                          "id": slide_key(tab=second.tab, state=second.state)}
    assert d.bridge.preview == {}  # no picture drawn before the presenter view is opened
    pl.notes.value = "Ask first: how many updates?   \nThen Step."
    assert pl.playlist.entries[0].notes == "Ask first: how many updates?\nThen Step."
    assert pl.notes.value == pl.playlist.entries[0].notes  # shown as kept
    assert d.bridge.presenter["notes"] == pl.notes.value
    d.bridge.press("n")  # the next slide: its notes (none), the presenter view follows
    assert pl.notes.value == "" and d.bridge.presenter["k"] == 2
    assert d.bridge.presenter["title"] == pl.playlist.entries[1].title
    d.bridge.press("p")
    assert pl.notes.value.startswith("Ask first")
    pl.notes.value = "x" * 2001  # too long: refused, the notes kept
    assert "The notes were not kept: notes are at most 2000 characters" in pl.out.value
    assert pl.playlist.entries[0].notes.startswith("Ask first") and pl.notes.value.startswith("Ask")
    pl.b_presenter.click()
    assert sent[-1] == {"type": "presenter"}
    assert d.preview.wait(120)  # the next slide's picture, drawn in the background
    assert d.bridge.preview["id"] == d.bridge.presenter["next"]["id"]
    assert d.bridge.preview["src"].startswith("data:image/png;base64,")
    assert d.bridge.preview["src"] not in d.bridge.query  # never in the link
    d.bridge._on_msg(d.bridge, {"type": "presenter_blocked"}, [])
    assert "blocked the presenter view's window" in pl.out.value
    d.b_lecture.value = True  # lecture mode (the projected screen): no notes, no button
    assert pl.slides.layout.display == "none" and pl.b_presenter.layout.display == "none"
    for _ in range(9):
        d.bridge.press("n")
    assert d.bridge.presenter["k"] == 10 and d.bridge.presenter["next"] is None
    link = pl.playlist.to_link()  # the notes go with the playlist's link and file
    again = Playlist(spec_of=tab_spec)
    assert again.load_link(link)[0] == [] and again.entries[0].notes.startswith("Ask first")
