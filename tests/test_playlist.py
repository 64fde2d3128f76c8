"""explorer/app/playlist.py: a lecture's slides of saved states, its file and its link.

The model is loaded from its file without ``explorer/app/__init__.py`` (as in test_state.py),
so these tests also show that it needs no widgets and no tab: the specs are given.
"""

import base64
import importlib
import json
import pathlib
import sys
import types
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

APP_DIR = pathlib.Path(__file__).resolve().parents[1] / "explorer" / "app"
_package = types.ModuleType("_playlist_under_test")
_package.__path__ = [str(APP_DIR)]
sys.modules["_playlist_under_test"] = _package
state = importlib.import_module("_playlist_under_test.state")
playlist = importlib.import_module("_playlist_under_test.playlist")
Field, StateSpec = state.Field, state.StateSpec
Playlist, MAX_ENTRIES = playlist.Playlist, playlist.MAX_ENTRIES

RUN = StateSpec("run", [
    Field("dataset", "data set", "choice", "koski", choices=("koski", "xor", "and")),
    Field("eta", "η", "float", 1.0, min=0.0, min_open=True, max=1e6),
    Field("w0", "start w", "floats", [], item_min=-1e6, item_max=1e6, max_len=2, optional=True),
    Field("points", "edited points", "points", [], max_len=2000, item_min=-1e12, item_max=1e12,
          optional=True),
    Field("hard", "hard margin", "bool", False),
    Field("step", "step", "int", 0, min=0, max=10**9),
])
CURVES = StateSpec("curves", [Field("ms", "M values", "ints", [1, 2, 5], item_min=1,
                                    item_max=1000, max_len=8),
                              Field("step", "cells filled", "int", 0, min=0, max=10**6)])
SPECS = {"run": RUN, "curves": CURVES}


def make(*slides) -> "Playlist":
    p = Playlist(spec_of=SPECS.get)
    for title, tab, values in slides:
        p.add(title=title, tab=tab, state=values)
    return p


def course() -> "Playlist":
    return make(("Koski at step 0", "run", {}), ("Koski at its last update", "run", {"step": 3}),
                ("XOR cycling", "run", {"dataset": "xor", "eta": 0.5, "step": 8}),
                ("Cover's curves", "curves", {"ms": [1, 5, 100]}))


def doc(*entries, **top) -> str:
    return json.dumps({"app": "perceptron-explorer", "version": 1, "playlist": list(entries),
                       **top})


# --------------------------------------------------------------------------- editing
def test_add_keeps_the_whole_validated_state_and_makes_it_current():
    p = course()
    assert [e.title for e in p.entries] == ["Koski at step 0", "Koski at its last update",
                                           "XOR cycling", "Cover's curves"]
    assert p.entries[2].state == {"dataset": "xor", "eta": 0.5, "w0": [], "points": [],
                                  "hard": False, "step": 8}
    assert p.current == 3
    with pytest.raises(ValueError, match="unknown tab 'nope'"):
        p.add(title="x", tab="nope", state={})
    with pytest.raises(ValueError, match="η"):
        p.add(title="x", tab="run", state={"eta": -1})
    with pytest.raises(ValueError, match="empty"):
        p.add(title="  \n ", tab="run", state={})
    assert len(p) == 4


def test_titles_are_tidied_and_bounded():
    assert playlist.clean_title("  Koski's\tdata \n at step 0 ") == "Koski's data at step 0"
    assert playlist.clean_title("x" * 80) == "x" * 80
    for bad, words in (("x" * 81, "at most 80"), ("", "empty"), (3, "text")):
        with pytest.raises(ValueError, match=words):
            playlist.clean_title(bad)


def test_at_most_max_entries_slides():
    p = make(*[(f"s{i}", "run", {"step": i}) for i in range(MAX_ENTRIES)])
    with pytest.raises(ValueError, match=f"at most {MAX_ENTRIES}"):
        p.add(title="one more", tab="run", state={})


def test_rename_move_delete_follow_the_slide_on_screen():
    p = course()
    p.go(1)
    p.rename(1, "Koski, last update")
    assert p.entries[1].title == "Koski, last update" and p.entries[1].state["step"] == 3
    assert p.move(1, -5) == 0  # clipped at the top
    assert [e.title[:5] for e in p.entries] == ["Koski", "Koski", "XOR c", "Cover"]
    assert p.current == 0 and p.entries[0].title == "Koski, last update"
    assert p.move(0, 2) == 2 and p.current == 2
    p.delete(0)
    assert p.current == 1 and p.entries[1].title == "Koski, last update"
    p.delete(1)
    assert p.current is None and len(p) == 2
    for bad in (-1, 2, 1.0, "0", True):
        with pytest.raises(ValueError, match="slide index"):
            p.go(bad)


def test_stepping_stops_at_either_end():
    p = course()
    p.current = None
    assert p.step(1).title == "Koski at step 0" and p.current == 0
    assert p.step(-1) is None and p.current == 0
    assert [p.step(1).title for _ in range(3)][-1] == "Cover's curves"
    assert p.step(1) is None and p.current == 3
    assert Playlist(spec_of=SPECS.get).step(1) is None


# --------------------------------------------------------------------------- files and links
def test_file_is_readable_json_with_app_version_and_every_setting():
    text = course().to_json()
    loaded = json.loads(text)
    assert loaded["app"] == "perceptron-explorer" and loaded["version"] == 1
    assert loaded["playlist"][2] == {"title": "XOR cycling", "tab": "run", "state": {
        "dataset": "xor", "eta": 0.5, "w0": [], "points": [], "hard": False, "step": 8}}
    assert '\n    "step": 8\n' in text  # one setting a line


def test_file_and_link_round_trip():
    p = course()
    p.go(2)
    q = Playlist(spec_of=SPECS.get)
    assert q.load_json(p.to_json()) == [] and q.entries == p.entries and q.current is None
    r = Playlist(spec_of=SPECS.get)
    link = p.to_link()
    assert link.startswith("playlist=") and link.endswith("&slide=3")
    assert r.load_link(link) == ([], 2) and r.entries == p.entries
    assert r.load_link("?" + link.replace("&slide=3", "")) == ([], 0)


def test_notes_go_with_their_slide_through_the_file_and_the_link():
    p = course()
    p.set_notes(1, "Ask first: how many updates?  \r\nThen show the bound.\n\n")
    assert p.entries[1].notes == "Ask first: how many updates?\nThen show the bound."
    p.rename(1, "Koski, last update")  # the notes stay with the slide
    assert p.entries[1].notes.startswith("Ask first")
    p.move(1, 2)
    assert p.entries[3].notes.startswith("Ask first") and p.entries[1].notes == ""
    loaded = json.loads(p.to_json())["playlist"]
    assert loaded[3]["notes"] == "Ask first: how many updates?\nThen show the bound."
    assert "notes" not in loaded[0]  # a slide without notes is written as before
    q, r = Playlist(spec_of=SPECS.get), Playlist(spec_of=SPECS.get)
    assert q.load_json(p.to_json()) == [] and q.entries == p.entries
    assert r.load_link(p.to_link())[0] == [] and r.entries == p.entries


def test_notes_are_text_and_bounded_and_bad_ones_leave_the_slide():
    p = course()
    with pytest.raises(ValueError, match="at most 2000 characters; got 2001"):
        p.set_notes(0, "x" * 2001)
    with pytest.raises(ValueError, match="notes must be text; got int"):
        p.set_notes(0, 7)
    with pytest.raises(ValueError, match="slide index"):
        p.set_notes(9, "")
    assert p.entries[0].notes == ""
    said = p.load_json(doc({**GOOD, "notes": 12}, {**GOOD, "notes": "y" * 3000},
                           {**GOOD, "notes": "fine"}))
    assert len(p.entries) == 3 and [e.notes for e in p.entries] == ["", "", "fine"]
    assert said == ["In slide 1 ('t'), the notes were left out: notes must be text; got int.",
                    "In slide 2 ('t'), the notes were left out: notes are at most 2000 "
                    "characters; got 3000."]


def test_a_hand_written_file_leaves_out_defaults():
    p = Playlist(spec_of=SPECS.get)
    assert p.load_json(doc({"title": "t", "tab": "curves"},
                           {"title": "u", "tab": "run", "state": {"step": 4}})) == []
    assert p.entries[0].state == {"ms": [1, 2, 5], "step": 0}
    assert p.entries[1].state["step"] == 4 and p.entries[1].state["eta"] == 1.0


def test_a_link_too_long_is_refused_with_advice():
    points = [[i * 0.123456789, -i * 0.987654321, 1 if i % 2 else -1] for i in range(2000)]
    p = make(("many points", "run", {"points": points}))
    with pytest.raises(ValueError, match="save it as a file"):
        p.to_link()
    assert Playlist(spec_of=SPECS.get).load_json(p.to_json()) == []


values = st.fixed_dictionaries({}, optional={
    "dataset": st.sampled_from(["koski", "xor", "and"]),
    "eta": st.floats(min_value=1e-6, max_value=1e6, allow_nan=False),
    "w0": st.lists(st.floats(-1e6, 1e6, allow_nan=False), max_size=2),
    "points": st.lists(st.tuples(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3),
                                 st.sampled_from([-1, 1])), max_size=5),
    "hard": st.booleans(), "step": st.integers(0, 10**9)})


def _titled(text: str) -> bool:
    try:
        return bool(playlist.clean_title(text))
    except ValueError:
        return False


titles = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=60).filter(
    _titled)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(titles, values), max_size=6), st.data())
def test_any_playlist_round_trips_through_its_file_and_link(slides, data):
    p = make(*[(t, "run", v) for t, v in slides])
    if slides:
        p.go(data.draw(st.integers(0, len(slides) - 1)))
    q = Playlist(spec_of=SPECS.get)
    assert q.load_json(p.to_json()) == [] and q.entries == p.entries
    r = Playlist(spec_of=SPECS.get)
    assert r.load_link(p.to_link()) == ([], p.current or 0) and r.entries == p.entries


# --------------------------------------------------------------------------- bad input
_STATE_FILE = RUN.to_json({"step": 2})  # one tab's saved state (Save state)
GOOD = {"title": "t", "tab": "run", "state": {"step": 1}}
# (label, raw file, words the message must contain)
BAD_FILES = [
    ("not JSON", "{", "not valid JSON"),
    ("not UTF-8", b"\xff\xfe{}", "UTF-8"),
    ("a list", "[]", "JSON list"),
    ("null", "null", "JSON NoneType"),
    ("another app", json.dumps({"app": "x", "version": 1, "playlist": []}), "not a Perceptron"),
    ("an old version", doc(GOOD).replace('"version": 1', '"version": 0'), "version 0"),
    ("a newer version", doc(GOOD).replace('"version": 1', '"version": 2'), "version 2"),
    ("version as text", doc(GOOD).replace('"version": 1', '"version": "1"'), "version '1'"),
    ("a state file", _STATE_FILE, "one tab's saved state"),
    ("an unknown top-level key", doc(GOOD, extra=1), "unknown entry 'extra'"),
    ("no slides list", json.dumps({"app": "perceptron-explorer", "version": 1}), "no \"playlist\""),
    ("slides not a list", doc().replace("[]", "{}"), "no \"playlist\""),
    ("too many slides", doc(*[GOOD] * (MAX_ENTRIES + 1)), f"at most {MAX_ENTRIES}"),
    ("too large a file", doc(GOOD) + " " * 1_000_000, "larger than 1 MB"),
    ("an unknown tab", doc(GOOD, {"title": "u", "tab": "nope"}), "slide 2 ('u') names an unknown"),
    ("a tab that is not text", doc({"title": "u", "tab": 3}), "unknown tab 3"),
    ("a state not an object", doc({"title": "u", "tab": "run", "state": [1]}), "not an object"),
    ("a slide not an object", doc("slide"), "slide 1 is a JSON str"),
    ("a slide's unknown key", doc({**GOOD, "note": 1}), "unknown entry 'note'"),
    ("no title", doc({"tab": "run"}), "slide 1: a title must be text"),
    ("an empty title", doc({**GOOD, "title": " "}), "must not be empty"),
    ("a title too long", doc({**GOOD, "title": "x" * 81}), "at most 80"),
    ("NaN", doc(GOOD).replace('"step": 1', '"step": NaN'), "NaN"),
    ("a repeated key", doc(GOOD).replace('"step": 1', '"step": 1, "step": 2'), "twice"),
    ("nested too deeply", '{"a":' * 5000 + "1" + "}" * 5000, "nested too deeply"),
    ("not text", 12, "not text"),
]


@pytest.mark.parametrize("label,raw,words", BAD_FILES, ids=[c[0] for c in BAD_FILES])
def test_a_bad_or_old_file_keeps_the_playlist_and_says_why(label, raw, words):
    p = course()
    p.go(1)
    before, entries = list(p.entries), p.entries
    messages = p.load_json(raw)
    assert messages and messages[-1] == "The current playlist is kept.", label
    assert words in " ".join(messages), messages
    assert p.entries is entries and p.entries == before and p.current == 1


BAD_SETTINGS = [
    ("a bad setting", {"eta": "abc"},
     "In slide 2 ('u'), eta (η) must be a number > 0; got 'abc'; kept the default (1)."),
    ("a negative step", {"step": -5},
     "In slide 2 ('u'), step must be a whole number from 0 to 1000000000; got -5; kept the "
     "default (0)."),
    ("an unknown setting", {"zeta": 1},
     "In slide 2 ('u'), 'zeta' is not a setting of this tab; it was left out."),
]


@pytest.mark.parametrize("label,bad,says", BAD_SETTINGS, ids=[c[0] for c in BAD_SETTINGS])
def test_a_bad_setting_of_a_slide_keeps_its_default_and_the_rest(label, bad, says):
    """Issue 30, item 13: one bad setting refused the whole playlist; now only that setting
    (as in a state file), and the message names the slide and the setting."""
    p = course()
    raw = doc(GOOD, {"title": "u", "tab": "run", "state": {"dataset": "xor", "hard": True, **bad}})
    assert p.load_json(raw) == [says]
    assert [e.title for e in p.entries] == ["t", "u"] and p.current is None
    assert p.entries[1].state == {**RUN.defaults(), "dataset": "xor", "hard": True}
    q = course()
    link = "playlist=" + _pack(raw.encode()) + "&slide=2"
    assert q.load_link(link) == ([says], 1) and q.entries == p.entries


def test_the_messages_of_many_bad_settings_are_capped():
    slides = [{"title": f"s{i}", "tab": "run", "state": {"eta": "abc"}} for i in range(9)]
    messages = course().load_json(doc(*slides))
    assert len(messages) == playlist.MAX_MESSAGES + 1 and messages[-1] == "… and 4 more problems."


def _pack(text: bytes, level: int = 9) -> str:
    return base64.urlsafe_b64encode(zlib.compress(text, level)).decode().rstrip("=")


BAD_LINKS = [
    ("not base64", "playlist=%%%", "not URL-safe base64"),
    ("not base64 letters", "playlist=a!b", "base64"),
    ("not compressed", "playlist=" + base64.urlsafe_b64encode(b"hello").decode(), "compressed"),
    ("cut short", "playlist=" + _pack(doc(GOOD).encode())[:-8], "cut short|compressed"),
    ("a bomb", "playlist=" + _pack(b" " * 5_000_000), "more than 1 MB"),
    ("a bad file inside", "playlist=" + _pack(b"[]"), "JSON list"),
    ("two playlists", "playlist=a&playlist=b", "one playlist="),
    ("no playlist", "slide=2", "one playlist="),
    ("an unknown parameter", "playlist=a&tab=run", "unknown parameter 'tab'"),
    ("too long", "playlist=" + "a" * 9000, "longer than 8192"),
    ("not text", None, "not text"),
]


@pytest.mark.parametrize("label,query,words", BAD_LINKS, ids=[c[0] for c in BAD_LINKS])
def test_a_bad_link_keeps_the_playlist_and_says_why(label, query, words):
    p = course()
    entries = p.entries
    messages, index = p.load_link(query)
    assert index == 0 and messages[-1] == "The current playlist is kept.", label
    assert any(w in " ".join(messages) for w in words.split("|")), messages
    assert p.entries is entries


def test_a_link_to_a_slide_that_is_not_there_opens_the_first():
    link = course().to_link().replace("&slide=4", "&slide=9")
    p = Playlist(spec_of=SPECS.get)
    messages, index = p.load_link(link)
    assert index == 0 and len(p) == 4 and "slide '9' is not one of 1 to 4" in messages[0]
    for slide in ("0", "-1", "x", "²"):
        assert p.load_link(link.replace("&slide=9", "&slide=" + slide))[1] == 0


def test_is_playlist_link():
    assert playlist.is_playlist_link("?playlist=abc&slide=2")
    for other in ("tab=run&step=3", "", "%%", None, "playlists=1"):
        assert not playlist.is_playlist_link(other)


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=300), st.binary(max_size=300),
                 st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                              lambda c: st.lists(c, max_size=3)
                              | st.dictionaries(st.sampled_from(
                                  ["app", "version", "playlist", "title", "tab", "state", "x"]),
                                  c, max_size=4), max_leaves=12).map(json.dumps)))
def test_no_outside_text_raises_or_changes_the_playlist(raw):
    p = course()
    before = list(p.entries)
    messages = p.load_json(raw)
    assert messages  # nothing random is a playlist of this app
    assert p.entries == before
    messages, _ = p.load_link(raw if isinstance(raw, str) else raw.decode("latin-1"))
    assert messages and p.entries == before
