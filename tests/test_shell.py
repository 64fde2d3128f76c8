"""The shared dashboard pieces without a browser: timeline, messages, layout, page bridge,
and the dashboard's lazy tabs, links, saved states and lecture mode."""

import json

import ipywidgets as W  # noqa: E402
import numpy as np
import pytest
import traitlets as T  # noqa: E402

from explorer.app import Dashboard, PerceptronView  # noqa: E402
from explorer.app.bridge import KEYS, PageBridge  # noqa: E402
from explorer.app.layout import fit_figure, sidebar_starts_open  # noqa: E402
from explorer.app.messages import MessageArea  # noqa: E402
from explorer.app.state import Field, StateSpec  # noqa: E402
from explorer.app.timeline import KEY_ACTIONS, Timeline  # noqa: E402


# ---------------------------------------------------------------------- timeline
@pytest.fixture
def tl():
    t = Timeline()
    t.set_run(30, updates=[2, 5, 6, 17], epoch=10)
    return t


def test_timeline_steps_clamp_and_sync_the_slider(tl):
    tl.act("step")
    tl.act("step")
    assert tl.step == 2 and tl.slider.value == 2
    tl.act("back")
    assert tl.step == 1
    tl.go(99)
    assert tl.step == 30 and tl.slider.value == 30 and tl.b_step.disabled
    tl.go(-5)
    assert tl.step == 0 and tl.b_back.disabled and tl.b_reset.disabled
    tl.slider.value = 12  # scrubbing (or Play, linked in the browser) sets the step
    assert tl.step == 12


@pytest.mark.parametrize("start,action,want", [
    (0, "next_update", 2), (2, "next_update", 5), (6, "next_update", 17), (17, "next_update", 30),
    (18, "prev_update", 17), (5, "prev_update", 2), (2, "prev_update", 0),
    (0, "epoch_end", 10), (10, "epoch_end", 20), (25, "epoch_end", 30), (7, "end", 30),
    (7, "reset", 0)])
def test_timeline_jumps(tl, start, action, want):
    tl.go(start)
    tl.act(action)
    assert tl.step == want


def test_timeline_new_run_starts_at_zero_before_the_range_shrinks(tl):
    seen = []
    tl.observe(lambda ch: seen.append(ch["new"]), names="step")
    tl.go(25)
    tl.set_run(8, updates=[1], epoch=4)
    assert tl.step == 0 and tl.slider.value == 0 and tl.slider.max == 8
    assert 8 not in seen  # never passes through the short run's end


def test_timeline_empty_run_is_disabled():
    t = Timeline()
    t.set_run(0)
    assert t.n_steps == 0 and t.slider.disabled and t.play.disabled and t.b_step.disabled
    assert t.where.value == "step 0 of 0"
    t.act("step")
    t.act("play")
    assert t.step == 0 and not t.play.playing


def test_timeline_keys_and_buttons_have_names(tl):
    for key, action in KEY_ACTIONS.items():
        assert key in KEYS, key
        tl.go(5)
        want = 5 if action == "play" else tl.target(action)
        assert tl.handle_key(key)
        assert tl.step == want, (key, action)
        tl.play.playing = False
    assert not tl.handle_key("x")
    buttons = [w for row in tl.children for w in row.children if isinstance(w, W.Button)]
    assert len(buttons) == 8 and all(b.description.strip() and b.tooltip for b in buttons)
    assert tl.play.description and tl.play.tooltip


def test_space_toggles_play(tl):
    tl.handle_key(" ")
    assert tl.play.playing
    tl.handle_key(" ")
    assert not tl.play.playing


# ---------------------------------------------------------------------- messages
def test_refusal_clears_at_the_next_successful_action():
    m = MessageArea()
    m.narrate("Step 1")
    m.refuse("η must be a number > 0; got 'abc'")
    assert m.refused.startswith("η must") and m.refusal.layout.display == ""
    assert m.text == "Step 1"
    m.narrate("Step 2 <b>")
    assert m.refused == "" and m.refusal.layout.display == "none" and m.text == "Step 2 <b>"
    m.note("The run was cut")
    assert "cut" in m.notice.value and m.notice.layout.display == ""
    m.note("")
    assert m.notice.layout.display == "none"


# ---------------------------------------------------------------------- layout
@pytest.mark.parametrize("w,h", [(1024, 768), (1366, 768), (1920, 1080), (1280, 800)])
def test_figure_fits_the_window(w, h):
    for sidebar in (True, False):
        f = fit_figure(window_width=w, window_height=h, sidebar=sidebar, lecture=False)
        assert f.width <= w - (290 if sidebar else 0) - 24
        assert f.height <= h - 200  # the transport row and narration stay above it
        assert 0.8 <= f.scale <= 1.9
    lect = fit_figure(window_width=w, window_height=h, sidebar=True, lecture=True)
    norm = fit_figure(window_width=w, window_height=h, sidebar=True, lecture=False)
    assert lect.scale > norm.scale and lect.width >= norm.width


def test_figure_grows_with_the_screen():
    small = fit_figure(window_width=1366, window_height=768, sidebar=True, lecture=False)
    big = fit_figure(window_width=1920, window_height=1080, sidebar=True, lecture=False)
    assert big.width > 1.4 * small.width and big.scale > small.scale
    assert not sidebar_starts_open(1024) and sidebar_starts_open(1366)


# ---------------------------------------------------------------------- bridge
def test_bridge_forwards_known_keys_only():
    b = PageBridge()
    got = []
    b.on_key(got.append)
    b._on_msg(b, {"type": "key", "key": "ArrowRight"}, [])
    b._on_msg(b, {"type": "key", "key": "x"}, [])
    b._on_msg(b, {"type": "other"}, [])
    b._on_msg(b, "garbage", [])
    assert got == ["ArrowRight"]
    # keys in text boxes are ignored: the page figure's rule (static/keys.js, tests/js/)
    assert "function typingIn" in b._esm and "dashboardKey(ev, keyFocus)" in b._esm
    assert "http" not in b._esm  # nothing loads from the network


# ---------------------------------------------------------------------- dashboard
class FakeView(W.VBox):
    """A second tab for the lazy-building test (follows the tab protocol)."""

    built = 0
    spec = StateSpec("fake", [Field("k", "k", "int", 0, min=0, max=9)])
    changed = T.Int(0)

    def __init__(self, *, fitted=None):
        FakeView.built += 1
        self.fitted = fitted
        self.timeline = Timeline()
        self.messages = MessageArea()
        self.value = 0
        super().__init__([self.messages])

    def save_state(self):
        return {"k": self.value}

    def load_state(self, state, *, origin=None):
        self.value = state["k"]
        return True

    def fit(self, fitted):
        self.fitted = fitted

    def show_settings(self, visible):
        self.settings = visible

    def handle_key(self, key):
        self.key = key
        return True

    def language_changed(self):
        self.spoken = getattr(self, "spoken", 0) + 1


FAKE_TABS = [("perceptron", "Perceptron", "explorer.app.perceptron:PerceptronView"),
             ("fake", "Fake", "test_shell:FakeView")]


def test_tabs_are_built_when_first_opened():
    FakeView.built = 0
    d = Dashboard(query="", tabs=FAKE_TABS)
    assert list(d.views) == ["perceptron"] and FakeView.built == 0
    assert d.tabs.titles == ("Perceptron", "Fake")
    d.tabs.selected_index = 1
    assert FakeView.built == 1 and isinstance(d.tabs.children[1], FakeView)
    d.tabs.selected_index = 0
    d.tabs.selected_index = 1
    assert FakeView.built == 1
    d.bridge.press("ArrowRight")
    assert d.active.key == "ArrowRight"


def test_link_opens_a_tab_at_its_state():
    d = Dashboard(query="tab=fake&k=7", tabs=FAKE_TABS)
    assert d.tabs.selected_index == 1 and d.active.value == 7
    assert d.bridge.query == "tab=fake&k=7" and d.share.value.endswith("?tab=fake&k=7")


def test_link_state_of_the_perceptron_tab():
    d = Dashboard(query="tab=perceptron&dataset=xor&max_epochs=3&step=5")
    m = d.active.model
    assert m.dataset == "xor" and m.max_epochs == 3 and m.step == 5
    assert d.active.messages.text.startswith("Step 5")
    assert "step=5" in d.bridge.query and "dataset=xor" in d.share.value


@pytest.mark.parametrize("query", ["tab=perceptron&eta=abc", "tab=perceptron&colour=red",
                                   "tab=perceptron&step=-1", "%%%&&==", "tab=perceptron&eta=1&eta=2",
                                   "tab=nowhere&eta=1", "tab=perceptron&points=1,2",
                                   "tab=perceptron&" + "x" * 10_000])
def test_bad_links_give_a_message_and_the_defaults(query):
    d = Dashboard(query=query)
    m = d.active.model
    assert m.dataset == "koski" and m.eta == 0.2 and m.step == 0
    assert d.active.messages.refused, query


def test_link_follows_the_state_and_waits_while_playing():
    d = Dashboard(query="")
    v = d.active
    v.timeline.act("step")
    assert "step=1" in d.bridge.query
    v.timeline.play.playing = True
    v.timeline.go(4)
    assert "step=1" in d.bridge.query  # not rewritten 20 times a second while playing
    v.timeline.play.playing = False
    assert "step=4" in d.bridge.query


def test_state_saves_and_loads_as_json():
    d = Dashboard(query="")
    v = d.active
    v.model.update(dataset="separable", n="12", seed="3")
    v.model.add_point(0.25, -0.5, -1)
    v.timeline.go(4)
    sent = []
    d.bridge.send = lambda content, buffers=None: sent.append(content)
    (top,) = [w for w in d.children if "pe-topbar" in w._dom_classes]
    bar = list(top.children)
    d.b_save.click()  # the page downloads the file at once; the top bar stays as it was
    assert list(top.children) == bar and all(not isinstance(w, W.HTML) or "⬇" not in w.value
                                             for w in bar)
    (msg,) = sent
    assert (msg["type"], msg["name"], msg["mime"]) == ("download", "perceptron-state.json",
                                                       "application/json")
    text = msg["text"].encode("utf-8")
    assert json.loads(text)["state"]["step"] == 4
    assert json.loads(text) == json.loads(v.spec.to_json(v.save_state()))
    d2 = Dashboard(query="")
    d2._on_upload({"new": ({"name": "s.json", "size": len(text), "content": memoryview(text)},)})
    m2 = d2.active.model
    np.testing.assert_array_equal(m2.X, v.model.X)
    assert m2.edited and m2.step == 4 and m2.dataset == "separable"
    d2._on_upload({"new": ({"name": "bad.json", "size": 3, "content": memoryview(b"[1]")},)})
    assert d2.active.messages.refused and m2.step == 4 and len(m2.X) == 13
    big = b"{" + b" " * 1_200_000 + b"}"
    d2._on_upload({"new": ({"name": "big.json", "size": len(big), "content": memoryview(big)},)})
    assert "at most 1000 kB" in d2.active.messages.refused


def test_lecture_mode_enlarges_the_figure_and_hides_settings():
    d = Dashboard(query="")
    v = d.active
    d.bridge.width, d.bridge.height = 1366, 768
    normal = v.fitted
    assert v.shell.sidebar_visible
    d.bridge.press("l")
    assert d.b_lecture.value and "pe-lecture" in d._dom_classes
    assert not v.shell.sidebar_visible and v.fitted.scale > normal.scale
    w_in, h_in = v.figure.fig.get_size_inches()
    assert abs(w_in * v.figure.fig._original_dpi - v.fitted.width) < 2
    d.b_lecture.value = False
    assert v.shell.sidebar_visible and v.fitted == normal


def test_narrow_window_starts_with_settings_hidden():
    d = Dashboard(query="")
    d.bridge.width, d.bridge.height = 1024, 768
    assert not d.b_settings.value and not d.active.shell.sidebar_visible
    assert d.active.fitted.width >= 900


def test_views_are_perceptron_views():
    d = Dashboard(query="")
    assert isinstance(d.active, PerceptronView)


def test_messages_of_bad_links_and_files_read_once():
    d = Dashboard(query="tab=perceptron&link=abc")
    msg = d.active.messages.refused
    assert msg == ("In the link, 'link' is not a setting of this tab; it was left out. The rest "
                   "of the link was used.")
    d.active.model.update(eta="0.5")
    d._on_upload({"new": ({"name": "x.json", "size": 5, "content": memoryview(b"nope!")},)})
    msg = d.active.messages.refused
    assert msg.count("not used") == 1 and msg.endswith("Kept what was on screen.")
    assert d.active.model.eta == 0.5


def test_one_bad_value_in_a_link_keeps_the_good_ones():
    """Issue 30, item 13: this link opened Koski's example with the classic rule."""
    d = Dashboard(query="tab=perceptron&dataset=separable&seed=5&rule=margin&n=abc")
    m = d.active.model
    assert (m.dataset, m.seed, m.rule, m.n, len(m.X)) == ("separable", 5, "margin", 40, 40)
    assert d.active.messages.refused == (
        "In the link, n must be a whole number from 1 to 2000; got 'abc'; kept the default "
        "(40). The rest of the link was used.")


def test_one_bad_value_in_a_saved_file_keeps_the_good_ones():
    d = Dashboard(query="")
    m = d.active.model
    text = d.active.spec.to_json({**d.active.save_state(), "dataset": "and", "rule": "pocket",
                                  "order": "cyclic", "step": 3})
    bad = text.replace('"eta": 0.2', '"eta": -1').replace('"max_epochs": 50', '"max_epochs": "x"')
    assert bad.count("-1") > text.count("-1")
    d._on_upload({"new": ({"name": "s.json", "size": len(bad), "content": bad.encode()},)})
    assert (m.dataset, m.rule, m.step, m.eta, m.max_epochs) == ("and", "pocket", 3, 1.0, 50)
    assert d.active.messages.refused == (
        "In the file, eta (η) must be a number > 0; got -1; kept the default (1). "
        "In the file, max_epochs (max epochs) must be a whole number from 1 to 100000; got 'x'; "
        "kept the default (50). The rest of the file was used.")


def test_kept_settings_that_do_not_go_together_are_refused_with_the_reason():
    """The rule is per setting: a refused data set leaves Koski's 6 points, on which the
    link's kept sequence naming point 9 gives no run; the page says both."""
    d = Dashboard(query="tab=perceptron&dataset=blob&order=custom&custom_order=9,1")
    assert d.active.model.dataset == "koski" and d.active.model.custom_order == [5, 3, 1, 2, 4, 6]
    msg = d.active.messages.refused
    assert msg.startswith("In the link, dataset (data set) must be one of koski, ")
    assert msg.endswith("The link's state was not used: sequence must list point numbers from 1 "
                        "to 6; got 9, 1. Showing the defaults.")


def test_a_link_past_the_end_of_the_run_opens_at_its_end():
    d = Dashboard(query="tab=perceptron&step=999999")
    assert d.active.model.step == 12 and not d.active.messages.refused
