"""Exports: blitted frames equal a full redraw, bounded frames, captions, an offline HTML player,
cancellation and progress; the dashboard's ExportPanel runs them in a thread."""

import base64
import io
import json
import re
import threading
import time

import numpy as np
import pytest
from PIL import Image

from explorer.app.export import LINK_WARN_BYTES, ExportPanel
from explorer.perceptron import train
from explorer.perceptron.replay import describe_run, frame
from explorer.plots.export import (
    ExportCancelled,
    frame_steps,
    gif_bytes,
    html_animation,
    still_bytes,
)
from explorer.plots.frames import CaptionedFigure, wrap_narration
from explorer.shared import datasets

TITLE = "classic · η = 1 · separable, n = 40 · cyclic · seed 0"


@pytest.fixture(scope="module")
def long_run():
    """240 steps, 21 updates: the size of run the export must handle in seconds."""
    ds = datasets.load("separable", n=40, seed=0, margin=0.02)
    tr = train(ds.X, ds.y, max_epochs=6)
    assert tr.n_steps == 240
    return tr, ds.X, ds.y, describe_run(tr, ds.X, ds.y)


@pytest.fixture(scope="module")
def koski():
    ds = datasets.load("koski")
    tr = train(ds.X, ds.y, eta=0.2, w0=[1, 0.5], order=[4, 2, 0, 1, 3, 5])
    return tr, ds.X, ds.y, describe_run(tr, ds.X, ds.y)


def _pixels(cf):
    return np.asarray(cf.rgba())[..., :3].astype(int)


def _strong(a, b):
    """Fraction of pixels differing strongly. A missing 2-px line is ~1e-3 of these frames, a
    neighbouring step ~1e-2; the cached background under translucent shading and the shared
    palette leave ~2e-4."""
    return float(np.mean(np.abs(np.asarray(a, int) - np.asarray(b, int)).max(axis=-1) > 40))


def _html_frames(page):
    """The page's frames composited over its backdrop, as the browser shows them."""
    back = re.search(r"url\(data:image/png;base64,([^)]*)\)", page).group(1)
    backdrop = Image.open(io.BytesIO(base64.b64decode(back))).convert("RGBA")
    out = []
    for data in re.findall(r'frames\[\d+\] = "data:image/png;base64,(.*?)"', page, re.S):
        img = Image.open(io.BytesIO(base64.b64decode(data.replace("\\\n", "")))).convert("RGBA")
        out.append(np.asarray(Image.alpha_composite(backdrop, img).convert("RGB")))
    return out


# ---------------------------------------------------------------------------- frames
def test_blitted_frames_match_a_full_redraw(long_run):
    tr, X, y, info = long_run
    fast = CaptionedFigure(tr, X, y, info=info, title=TITLE)
    full = CaptionedFigure(tr, X, y, info=info, title=TITLE)
    u = int(tr.update_steps[3])
    for k in (0, u - 1, u, 17, tr.n_steps, 5):  # forwards and backwards
        fast.blit(k)
        full.draw(k)
        assert _strong(_pixels(fast), _pixels(full)) < 5e-4, f"step {k}"
    full.draw(u - 1)
    assert _strong(_pixels(fast), _pixels(full)) > 5e-3  # the comparison can fail


def test_exported_frames_match_a_full_redraw(long_run):
    tr, X, y, info = long_run
    steps = [0, 1, 2, 30, 31, 100, 240]
    page = html_animation(tr, X, y, info=info, title=TITLE, steps=steps)
    gif = Image.open(io.BytesIO(gif_bytes(tr, X, y, info=info, title=TITLE, steps=steps)))
    shown = _html_frames(page)
    assert len(shown) == len(steps)
    full = CaptionedFigure(tr, X, y, info=info, title=TITLE)
    for i, k in enumerate(steps):
        full.draw(k)
        want = _pixels(full)
        gif.seek(i)
        assert shown[i].shape == want.shape and want.shape[1:] == (1040, 3)
        assert _strong(shown[i], want) < 5e-4, f"HTML frame {i} (step {k})"
        assert _strong(np.asarray(gif.convert("RGB")), want) < 5e-4, f"GIF frame {i} (step {k})"
    assert _strong(shown[1], shown[2]) > 5e-3  # consecutive update steps look different


def test_caption_names_step_updates_narration_and_parameters(long_run):
    tr, X, y, info = long_run
    cf = CaptionedFigure(tr, X, y, info=info, title=TITLE)
    k = int(tr.update_steps[2])
    cf.show(k)
    assert cf.step_text.get_text() == f"step {k} of 240 · 3 updates"
    assert cf.title_text.get_text() == TITLE
    text = frame(tr, X, y, k).text
    shown = cf.narration_text.get_text()
    assert shown == wrap_narration(text) and " ".join(shown.split("\n")) == text
    cf.show(int(tr.update_steps[0]))
    assert cf.step_text.get_text().endswith("· 1 update")
    title = " · ".join(f"parameter {i} = {i / 7:.4f}" for i in range(12))
    long = CaptionedFigure(tr, X, y, info=info, title=title).title_text.get_text()
    assert "…" not in long and long.replace("\n", " · ") == title  # wrapped, never cut
    cf.show(tr.n_steps)  # the last step adds why the run stopped: still at most 3 lines
    assert cf.narration_text.get_text().count("\n") <= 2
    assert "Converged" in cf.narration_text.get_text()


def test_still_carries_the_caption_and_is_sized_for_slides(koski):
    tr, X, y, info = koski
    png = still_bytes(tr, X, y, k=3, info=info, title="Koski")
    w, h = Image.open(io.BytesIO(png)).size
    assert w == 2080 and 1272 <= h <= 1300  # 13 in at 160 dpi; the strip below the legend
    svg = still_bytes(tr, X, y, k=3, fmt="svg", info=info, title="Koski", dpi=80).decode()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert still_bytes(tr, X, y, k=3, info=info) != still_bytes(tr, X, y, k=4, info=info)
    with pytest.raises(ValueError, match="fmt must be 'png' or 'svg'; got 'bmp'"):
        still_bytes(tr, X, y, k=3, fmt="bmp")
    with pytest.raises(ValueError, match="k must be <= 12; got 13"):
        still_bytes(tr, X, y, k=13)
    with pytest.raises(TypeError, match="expected traj to be a Trajectory; got dict"):
        still_bytes({}, X, y, k=0)


# ---------------------------------------------------------------------------- bounds
def test_frame_steps_keeps_every_update_and_the_step_before(long_run):
    tr = long_run[0]
    steps = frame_steps(tr, max_frames=120)
    assert len(steps) == 120 and steps[0] == 0 and steps[-1] == 240
    assert np.all(np.diff(steps) > 0)
    assert set(tr.update_steps) <= set(steps) and set(tr.update_steps - 1) <= set(steps)
    np.testing.assert_array_equal(frame_steps(tr, max_frames=300), np.arange(241))


def test_frame_steps_thins_evenly_when_updates_do_not_fit():
    ds = datasets.load("overlapping", n=200, seed=1)
    tr = train(ds.X, ds.y, max_epochs=20)
    assert tr.n_updates > 120
    steps = frame_steps(tr, max_frames=120)
    assert len(steps) == 120 and steps[0] == 0 and steps[-1] == tr.n_steps
    assert set(steps[1:-1]) <= set(tr.update_steps)  # only updates: they come first
    with pytest.raises(ValueError, match="max_frames must be >= 2; got 1"):
        frame_steps(tr, max_frames=1)


def test_gif_frame_count_equals_the_steps_chosen(long_run, koski):
    tr, X, y, info = long_run
    gif = Image.open(io.BytesIO(gif_bytes(tr, X, y, info=info, title=TITLE)))
    assert gif.format == "GIF" and gif.n_frames == 120
    gif = Image.open(io.BytesIO(gif_bytes(tr, X, y, info=info, steps=[0, 7, 8, 240], fps=2)))
    assert gif.n_frames == 4 and gif.info["duration"] == 500
    gif.seek(3)
    assert gif.info["duration"] == 2000  # the last frame is held before the loop
    with pytest.raises(ValueError, match="expected at most max_frames = 3 steps; got 4"):
        gif_bytes(tr, X, y, info=info, steps=[0, 7, 8, 240], max_frames=3)
    with pytest.raises(ValueError, match=r"expected steps in 0..240; got 0..241"):
        gif_bytes(tr, X, y, info=info, steps=[0, 241])
    with pytest.raises(ValueError, match="fps must be > 0; got 0"):
        gif_bytes(tr, X, y, info=info, fps=0)


# ---------------------------------------------------------------------------- HTML
def test_html_plays_offline_with_named_buttons(koski):
    tr, X, y, info = koski
    page = html_animation(tr, X, y, info=info, title="Koski · η = 0.2")
    assert page.startswith("<!DOCTYPE html>") and "<title>Perceptron run · Koski · η = 0.2</title>" in page
    assert re.search(r"https?://", page) is None  # nothing fetched, nothing linked
    assert "<link" not in page and "fa fa-" not in page and "<script src" not in page
    buttons = re.findall(r"<button\b[^>]*>.*?</button>", page, re.S)
    assert len(buttons) == 9
    labels = [re.search(r'aria-label="([^"]+)"', b).group(1) for b in buttons]
    assert labels == ["Slower", "First frame", "Previous frame", "Play backwards", "Pause", "Play",
                      "Next frame", "Last frame", "Faster"]
    assert all(f'title="{name}"' in b and "<svg" in b for name, b in zip(labels, buttons, strict=True))
    assert re.search(r'<input aria-label="Frame"[^>]*type="range"', page)
    assert re.search(r'<img alt="step 0 of 12 · 0 updates\. Start:', page)
    texts = json.loads(re.search(r"var text = (\[.*?\]);", page, re.S).group(1))
    assert len(texts) == 13  # the image's alt text follows the frame shown
    assert texts[5] == f"step 5 of 12 · {tr.updates_until(5)} updates. {frame(tr, X, y, 5).text}"
    assert len(_html_frames(page)) == tr.n_steps + 1


# ---------------------------------------------------------------------------- progress, cancel
def test_progress_is_called_after_every_frame(koski):
    tr, X, y, info = koski
    calls = []
    html_animation(tr, X, y, info=info, progress=lambda i, n: calls.append((i, n)))
    assert calls == [(i, 13) for i in range(13)]


def test_cancel_stops_within_a_frame(long_run):
    tr, X, y, info = long_run
    calls = []

    def cancelled():
        return len(calls) >= 3

    t0 = time.perf_counter()
    with pytest.raises(ExportCancelled, match="after 3 of 120 frames"):
        gif_bytes(tr, X, y, info=info, progress=lambda i, n: calls.append(i), cancelled=cancelled)
    assert calls == [0, 1, 2]
    assert time.perf_counter() - t0 < 5
    with pytest.raises(ExportCancelled, match="after 0 of"):
        html_animation(tr, X, y, info=info, cancelled=lambda: True)


def test_export_in_a_thread_while_the_live_figure_draws(koski):
    """The export's off-screen figure shares nothing with the live one: both come out as they
    would alone."""
    tr, X, y, info = koski
    kw = dict(info=info, title="Koski", steps=[0, 1, 2, 3, 6, 12])
    alone = gif_bytes(tr, X, y, **kw)
    result = {}
    worker = threading.Thread(target=lambda: result.update(gif=gif_bytes(tr, X, y, **kw)))
    live = CaptionedFigure(tr, X, y, info=info)
    worker.start()
    drawn = 0
    while worker.is_alive() or drawn < 5:
        live.blit(drawn % (tr.n_steps + 1))
        drawn += 1
        time.sleep(0.005)  # as a widget would: draw, then wait for the next event
    worker.join()
    assert result["gif"] == alone
    ref = CaptionedFigure(tr, X, y, info=info)
    k = (drawn - 1) % (tr.n_steps + 1)
    ref.draw(k)
    assert _strong(_pixels(live), _pixels(ref)) < 5e-4


# ---------------------------------------------------------------------------- the panel
def _fake_animate(n=5, *, gate=None, log=None):
    """An ``animate`` that makes ``n`` frames, waiting for ``gate`` (if any) before each."""

    def animate(kind, progress, cancelled):
        if log is not None:
            log.append(kind)
        for i in range(n):
            while gate is not None and not gate.is_set():
                if cancelled():
                    raise ExportCancelled("stop")
                time.sleep(0.005)
            if cancelled():
                raise ExportCancelled("stop")
            progress(i, n)
        return b"GIF89a-fake" if kind == "gif" else "<!DOCTYPE html>é".encode()

    return animate


def _status(panel):
    return re.sub(r"<[^>]+>", "", panel.status.value)


def test_panel_parts_are_named_and_classed():
    panel = ExportPanel(basename="run", still=lambda fmt: b"x", animate=_fake_animate())
    assert [b.description for b in (panel.b_png, panel.b_svg, panel.b_gif, panel.b_html)] == [
        "PNG", "SVG", "GIF", "HTML"]
    assert all(b.tooltip for b in (panel.b_png, panel.b_svg, panel.b_gif, panel.b_html, panel.b_cancel))
    assert "pe-export" in panel._dom_classes
    assert "pe-export-link" in panel.links._dom_classes
    assert "pe-export-status" in panel.status._dom_classes
    assert panel.b_cancel.layout.display == "none" and not panel.busy
    bare = ExportPanel(basename="run", still=lambda fmt: b"x")
    assert bare.b_gif.layout.display == bare.b_html.layout.display == "none"
    # hiding GIF and HTML leaves PNG and SVG on screen (they once shared one Layout)
    assert bare.b_png.layout.display != "none" and bare.b_svg.layout.display != "none"
    with pytest.raises(TypeError, match="expected still to be callable; got int"):
        ExportPanel(basename="run", still=3)


def test_panel_exports_in_a_thread_and_links_the_file():
    gate = threading.Event()
    panel = ExportPanel(basename="run", still=lambda fmt: b"x", animate=_fake_animate(gate=gate))
    t0 = time.perf_counter()
    panel.b_gif.click()
    assert time.perf_counter() - t0 < 0.5  # the click returns: the kernel stays responsive
    assert panel.busy and panel.b_cancel.layout.display is None
    gate.set()
    assert panel.wait(5)
    assert 'download="run.gif"' in panel.links.value
    assert "href=\"data:image/gif;base64," + base64.b64encode(b"GIF89a-fake").decode() in panel.links.value
    assert panel.progress_label.value == "frame 5 of 5" and panel.progress.value == 5
    assert _status(panel) == "GIF ready." and panel.b_cancel.layout.display == "none"
    panel.b_html.click()
    assert panel.wait(5) and "data:text/html;base64," in panel.links.value


def test_panel_real_export(koski):
    tr, X, y, info = koski

    def animate(kind, progress, cancelled):
        return gif_bytes(tr, X, y, info=info, progress=progress, cancelled=cancelled)

    panel = ExportPanel(basename="koski", still=lambda fmt: still_bytes(tr, X, y, k=2, fmt=fmt),
                        animate=animate)
    panel.b_gif.click()
    assert panel.wait(30)
    b64 = re.search(r"data:image/gif;base64,([^\"]+)", panel.links.value).group(1)
    assert Image.open(io.BytesIO(base64.b64decode(b64))).n_frames == 13
    assert panel.progress_label.value == "frame 13 of 13"
    panel.b_svg.click()
    assert "data:image/svg+xml;base64," in panel.links.value and 'download="koski.svg"' in panel.links.value


def test_clear_removes_the_link_and_cancels_a_running_export():
    gate = threading.Event()
    panel = ExportPanel(basename="run", still=lambda fmt: b"png", animate=_fake_animate(gate=gate))
    panel.b_png.click()
    assert "data:image/png;base64," in panel.links.value
    panel.clear()
    assert panel.links.value == "" and _status(panel) == ""
    panel.b_gif.click()
    assert panel.busy
    panel.clear()
    assert not panel.busy and panel.links.value == ""
    assert _status(panel) == "Export cancelled"
    gate.set()
    assert panel.wait(5) and panel.links.value == ""


def test_clear_drops_a_result_that_arrives_late():
    """An animate that ignores ``cancelled`` still never posts a link for the old run."""
    gate, done = threading.Event(), threading.Event()

    def stubborn(kind, progress, cancelled):
        gate.wait(5)
        done.set()
        return b"old run"

    panel = ExportPanel(basename="run", still=lambda fmt: b"x", animate=stubborn)
    panel.b_gif.click()
    panel.clear()
    gate.set()
    assert done.wait(5) and panel.wait(5)
    assert panel.links.value == "" and _status(panel) == "Export cancelled"


def test_cancel_button_stops_the_export():
    gate = threading.Event()
    panel = ExportPanel(basename="run", still=lambda fmt: b"x", animate=_fake_animate(gate=gate))
    panel.b_html.click()
    panel.b_cancel.click()
    assert panel.wait(5)
    assert _status(panel) == "Export cancelled" and panel.links.value == ""
    assert panel.b_cancel.layout.display == "none" and panel.progress_box.layout.display == "none"


def test_failure_shows_one_line_not_a_traceback():
    def broken(kind, progress, cancelled):
        raise ValueError("expected two classes; got one")

    panel = ExportPanel(basename="run", still=lambda fmt: 1 / 0, animate=broken)
    panel.b_gif.click()
    assert panel.wait(5)
    assert _status(panel) == "Export failed: expected two classes; got one"
    assert "Traceback" not in panel.status.value and panel.links.value == ""
    panel.b_png.click()
    assert _status(panel) == "Export failed: division by zero"


def test_second_click_while_busy_is_refused():
    gate, log = threading.Event(), []
    panel = ExportPanel(basename="run", still=lambda fmt: b"x",
                        animate=_fake_animate(gate=gate, log=log))
    panel.b_gif.click()
    panel.b_html.click()
    assert "already running" in _status(panel)
    panel.b_png.click()
    assert "already running" in _status(panel) and panel.links.value == ""
    assert not panel.start("gif")
    gate.set()
    assert panel.wait(5)
    assert log == ["gif"] and "run.gif" in panel.links.value


def test_large_files_get_a_warning():
    panel = ExportPanel(basename="big", still=lambda fmt: b"\0" * (LINK_WARN_BYTES + 1))
    panel.b_png.click()
    assert "data:image/png;base64," in panel.links.value
    assert "large (8.4 MB)" in _status(panel)


def test_panel_note_says_what_plays_and_disables_gif_when_nothing_does():
    log = []
    panel = ExportPanel(basename="run", still=lambda fmt: b"x", animate=_fake_animate(log=log))
    panel.describe("GIF and HTML: 25 frames, step 0 to 24, every one.")
    assert "25 frames" in panel.note.value and "pe-export-note" in panel.note._dom_classes
    assert not panel.b_gif.disabled
    panel.describe("", playable=False)
    assert panel.b_gif.disabled and panel.b_html.disabled
    assert "Nothing plays in this view: PNG and SVG only." in panel.note.value
    assert not panel.start("gif") and _status(panel) == "Nothing plays in this view: PNG and SVG only."
    assert log == [] and not panel.busy
    panel.b_png.click()
    assert "run.png" in panel.links.value  # stills still work
    panel.describe("GIF and HTML: 3 frames, step 0 to 2, every one.")
    assert panel.start("gif") and panel.wait(5) and log == ["gif"]


def test_panel_names_files_from_the_state_when_the_export_starts():
    state = {"step": 3}
    panel = ExportPanel(basename=lambda ext: f"tab-step{state['step']}" if ext == "png" else "tab-run",
                        still=lambda fmt: b"x", animate=_fake_animate())
    panel.b_png.click()
    assert 'download="tab-step3.png"' in panel.links.value
    state["step"] = 4
    panel.b_png.click()
    assert 'download="tab-step4.png"' in panel.links.value
    panel.b_gif.click()
    assert panel.wait(5) and 'download="tab-run.gif"' in panel.links.value
    with pytest.raises(TypeError, match="expected basename to be a non-empty str or callable"):
        ExportPanel(basename="", still=lambda fmt: b"x")
