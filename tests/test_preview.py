"""The next slide's picture in the presenter view (issue 33, item 2; explorer.app.preview): the
tab's own PNG export of the slide's state, drawn without the tab's widgets, small, kept per
slide, and for a slide that cannot be drawn a short reason. The window's side:
tests/js/presenter.test.mjs; end to end: tests/browser/test_presenter_view.py."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

import numpy as np
import pytest
from PIL import Image

from explorer.app.dashboard import tab_class, tab_spec
from explorer.app.datachoice import from_source
from explorer.app.layout import FigureFit
from explorer.app.margins.view import MarginsView
from explorer.app.perceptron.view import PerceptronView
from explorer.app.playlist import Playlist
from explorer.app.playlist_ui import course_text
from explorer.app.preview import PREVIEW_WIDTH, NextSlidePreview, slide_key, slide_preview, slide_still

FIT = FigureFit(960, 520, 1.0)
SLIDES = json.loads(course_text())["playlist"]


def pixels(png: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(png)) as im:
        return np.asarray(im.convert("RGB"))


@pytest.mark.parametrize("view_cls, state", [
    (MarginsView, next(s["state"] for s in SLIDES if s["tab"] == "margins")),
    (PerceptronView, {"dataset": "koski", "race": ["margin"], "step": 12}),  # the race's own
    (PerceptronView, {"dataset": "koski", "step": 3}),  # the single rule's own export
])
def test_the_picture_is_the_tabs_own_export_of_the_slides_state(view_cls, state):
    view = view_cls(fitted=FIT)
    assert view.load_state(state, origin=from_source("playlist"))
    exported, shown = view._still("png"), view.save_state()
    twin = slide_still(view_cls=view_cls, state=state, fitted=FIT)
    assert pixels(twin).shape == pixels(exported).shape
    assert np.array_equal(pixels(twin), pixels(exported))
    assert view.save_state() == shown  # the page's view is not touched


def test_pictures_are_small_and_differ_from_slide_to_slide():
    first, other = SLIDES[0], SLIDES[1]
    a, b = (slide_preview(view_cls=PerceptronView, state=s["state"], fitted=FIT)
            for s in (first, other))
    for p in (a, b):
        assert p.reason == "" and p.src.startswith("data:image/png;base64,")
        im = pixels(p.png)
        assert im.shape[1] == PREVIEW_WIDTH and 200 < im.shape[0] < 400
        assert len(p.png) < 120_000
        assert im.std() > 10  # a picture, not a blank
    assert not np.array_equal(pixels(a.png), pixels(b.png))
    assert slide_key(tab="perceptron", state=first["state"]) != slide_key(
        tab="perceptron", state=other["state"])


@pytest.mark.parametrize("view_cls, state, words", [
    (PerceptronView, {"eta": "fast"}, "η"),
    (None, {"step": 0}, "No picture"),  # a tab that is no tab
])
def test_a_slide_that_cannot_be_drawn_gets_a_short_reason(view_cls, state, words):
    p = slide_preview(view_cls=view_cls, state=state, fitted=FIT)
    assert p.png is None and p.src == ""
    assert p.reason.startswith("No picture of this slide: ") and words in p.reason
    assert "Traceback" not in p.reason and len(p.reason) < 240


def lecture():
    playlist = Playlist(spec_of=tab_spec)
    assert playlist.load_json(course_text()) == []
    drawn = []

    def view_of(tab):
        drawn.append(tab)
        return tab_class(tab)

    bridge = SimpleNamespace(preview={}, opened=0)
    bridge.open_presenter = lambda: setattr(bridge, "opened", bridge.opened + 1)
    pv = NextSlidePreview(view_of=view_of, playlist=lambda: playlist, fitted=lambda: FIT,
                          bridge=bridge, post=lambda fn: fn())
    return playlist, pv, bridge, drawn


def test_the_next_slide_is_drawn_once_the_presenter_view_opens_and_kept_per_slide():
    playlist, pv, bridge, drawn = lecture()
    playlist.go(0)
    info = pv.follow({"k": 1, "n": len(playlist), "next": {"title": "t", "where": "w"}})
    key = slide_key(tab=SLIDES[1]["tab"], state=playlist.entries[1].state)
    assert info["next"]["id"] == key
    assert drawn == [] and bridge.preview == {}  # no presenter view: nothing drawn
    pv.open()
    assert bridge.opened == 1
    assert pv.wait(120)
    assert bridge.preview["id"] == key and bridge.preview["src"].startswith("data:image/png")
    assert drawn == [SLIDES[1]["tab"]]
    playlist.go(1)  # on to slide 2: slide 3's picture
    pv.follow({"k": 2, "n": len(playlist), "next": {"title": "t", "where": "w"}})
    assert pv.wait(120)
    assert bridge.preview["id"] == slide_key(tab=SLIDES[2]["tab"],
                                             state=playlist.entries[2].state)
    assert len(drawn) == 2 and len(pv.cache) == 2
    playlist.go(0)  # back: slide 2's picture is kept, shown at once, not drawn again
    pv.follow({"k": 1, "n": len(playlist), "next": {"title": "t", "where": "w"}})
    assert bridge.preview["id"] == key and len(drawn) == 2


def test_the_last_slide_has_no_next_picture():
    playlist, pv, bridge, drawn = lecture()
    playlist.go(len(playlist) - 1)
    pv.open()
    info = {"k": len(playlist), "n": len(playlist), "next": None}
    assert pv.follow(info) == info
    assert pv.wait(10) and drawn == [] and bridge.preview == {}
