"""Export in every tab: Margins, XOR, Cover and Generalization export PNG and SVG of what is on
screen and a GIF and an offline HTML page of their timeline, through the shared ExportPanel,
drawn from the model on a figure of their own (the live one is never touched)."""

import base64
import io
import re
import threading
import time
import xml.etree.ElementTree as ET

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from explorer.app.cover.view import CoverView  # noqa: E402
from explorer.app.export import file_stem  # noqa: E402
from explorer.app.generalization.view import GeneralizationView  # noqa: E402
from explorer.app.margins.view import MarginsView  # noqa: E402
from explorer.app.xor.view import XorView  # noqa: E402
from explorer.plots.animation import (  # noqa: E402
    MAX_FRAMES,
    ExportCancelled,
    TabFrames,
    even_steps,
    frames_note,
    offscreen_figure,
)
from explorer.plots.generalization import GeneralizationFigure  # noqa: E402
from explorer.plots.margins import MarginsFigure  # noqa: E402
from explorer.plots.recursion import RecursionFigure  # noqa: E402
from explorer.plots.recursion_scene import interior_cells  # noqa: E402
from explorer.plots.xor import XorFigure  # noqa: E402

TABS = ("margins", "xor", "cover", "generalization")


# ---------------------------------------------------------------------------- the tabs
def _margins():
    v = MarginsView()  # overlapping blobs, 40 points: 1200 SGD steps, sampled to 120 frames
    v.model.go(300)
    return v


def _xor():
    v = XorView()  # the cycling view: 24 steps
    v.model.go(5)
    return v


def _cover():
    v = CoverView()
    assert v.model.update(view="recursion", rec_m=3, rec_n=8)
    v.model.go(9)
    return v


def _generalization():
    v = GeneralizationView(autorun=False)  # the stability simulation is not run: no thread
    assert v.model.update(n_run=12)
    v.model.go(7)
    return v


MAKE = {"margins": _margins, "xor": _xor, "cover": _cover, "generalization": _generalization}
#: What the first caption line says at the step shown.
SHOWN = {"margins": "SGD step 300 of 1200", "xor": "Cycling: step 5 of 24",
         "cover": "Recursion: 9 of 21 cells filled by the recursion (60.73)", "generalization": "step 7 of "}


def _reference(tab, view, k):
    """The tab's figure at step ``k`` drawn whole (no blitting, no caption) on a fresh canvas,
    at the export's resolution: what the still's upper part must show."""
    m, fit = view.model, view.fitted
    if tab == "margins":
        f = MarginsFigure(offscreen_figure(), overlay=m.layout)
    elif tab == "xor":
        f = XorFigure(offscreen_figure())
    elif tab == "cover":
        f = RecursionFigure(offscreen_figure())
    else:
        f = GeneralizationFigure(offscreen_figure())
    f.fit(fit.width, fit.height, scale=fit.scale)
    if tab == "margins":
        f.set_data(m.X, m.y, m.comparison, path=m.path, sgd=m.sgd)
    elif tab == "xor":
        f.set_scene(m.scene, m.view)
    elif tab == "cover":
        f.set_table(m.table)
    else:
        f.set_losses(m.shown_losses)
        f.set_risk(m.risk)
        f.set_stability(m.curve, ns=m.ns, trials=m.trials)
        f.set_run(m.X, m.y, m.traj)
    f.show(k)
    buf = io.BytesIO()
    f.fig.savefig(buf, format="png", dpi=2 * f.fig.dpi)
    return np.asarray(Image.open(buf).convert("RGB")).astype(int)


@pytest.fixture(scope="module")
def views():
    return {tab: MAKE[tab]() for tab in TABS}


def _link(panel):
    """(file name, MIME type, bytes) of the panel's download link."""
    name = re.search(r'download="([^"]+)"', panel.links.value).group(1)
    mime, b64 = re.search(r'href="data:([^;]+);base64,([^"]+)"', panel.links.value).groups()
    return name, mime, base64.b64decode(b64)


def _status(panel):
    return re.sub(r"<[^>]+>", "", panel.status.value)


@pytest.fixture(scope="module")
def exported(views):
    """Every file of every tab, made by clicking the panel's buttons (GIF and HTML in the
    panel's thread), with the seconds each took."""
    out = {}
    for tab, v in views.items():
        files = {}
        for kind in ("png", "svg", "gif", "html"):
            t0 = time.perf_counter()
            getattr(v.export, f"b_{kind}").click()
            assert v.export.wait(300), f"{tab} {kind} did not finish"
            assert _status(v.export) == f"{kind.upper()} ready.", (tab, kind, _status(v.export))
            files[kind] = (*_link(v.export), time.perf_counter() - t0)
        out[tab] = files
    print("\nexport seconds:", {t: {k: round(f[3], 2) for k, f in fs.items()}
                                for t, fs in out.items()})
    return out


def _strong(a, b):
    """Fraction of pixels differing strongly (an artist missing or moved, not antialiasing)."""
    return float(np.mean(np.abs(np.asarray(a, int) - np.asarray(b, int)).max(axis=-1) > 60))


# ---------------------------------------------------------------------------- the panel is there
def _settings_children(view):
    return list(view.shell.sidebar.children[0].children)


@pytest.mark.parametrize("tab", TABS)
def test_every_tab_has_a_working_export_section(views, tab):
    v = views[tab]
    kids = _settings_children(v)
    heads = [str(getattr(k, "value", "")) for k in kids]
    assert any(">Export<" in h for h in heads), heads
    at = next(i for i, h in enumerate(heads) if ">Export<" in h)
    box = kids[at + 1]  # under its heading, a closed section that makes the panel when opened
    assert list(box.children) == [v.export] and box.selected_index is None
    box.selected_index = 0
    assert v.export.built and v.export.children
    for b in (v.export.b_png, v.export.b_svg, v.export.b_gif, v.export.b_html):
        assert b.layout.display != "none" and not b.disabled, (tab, b.description)
    assert "GIF and HTML" in v.export.note.value


# ---------------------------------------------------------------------------- stills
@pytest.mark.parametrize("tab", TABS)
def test_png_is_the_tab_figure_at_the_step_shown_with_its_caption(views, exported, tab):
    v = views[tab]
    name, mime, data = exported[tab]["png"][:3]
    assert mime == "image/png" and name.endswith(".png") and name.startswith(tab)
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG"
    assert im.text["Title"].startswith(SHOWN[tab]), im.text["Title"]
    assert im.text["Description"].startswith(SHOWN[tab])
    fit = v.fitted
    assert im.size[0] == round(2 * fit.width)  # the screen's size, at twice its resolution
    k = v.model.step
    want = _reference(tab, v, k)[:-4]  # the strip's top line reaches into the last rows
    got = np.asarray(im.convert("RGB"))[: want.shape[0]]
    assert got.shape == want.shape
    assert _strong(got, want) < 1e-4, "the still differs from the figure drawn whole"
    other = _reference(tab, v, k + 3 if tab != "cover" else k - 4)[:-4]
    assert _strong(got, other) > 1e-3  # the comparison can fail: another step differs
    strip = np.asarray(im.convert("RGB"))[want.shape[0] + 14:]
    assert strip.std() > 5  # the caption strip below carries text


@pytest.mark.parametrize("tab", TABS)
def test_svg_is_valid_and_says_what_it_shows(views, exported, tab):
    name, mime, data = exported[tab]["svg"][:3]
    assert mime == "image/svg+xml" and name.endswith(".svg")
    root = ET.fromstring(data)
    assert root.tag.endswith("svg")
    ns = {"dc": "http://purl.org/dc/elements/1.1/"}
    assert root.find(".//dc:title", ns).text.startswith(SHOWN[tab])
    description = root.find(".//dc:description", ns).text
    assert description.startswith(SHOWN[tab]) and len(description) > len(SHOWN[tab]) + 10
    assert len(root.findall(".//{http://www.w3.org/2000/svg}path")) > 50  # a drawing, not empty


# ---------------------------------------------------------------------------- animations
def _frames_expected(v):
    _, n, _ = v._export_plan()
    return min(n + 1, MAX_FRAMES)


@pytest.mark.parametrize("tab", TABS)
def test_gif_has_a_frame_per_step_shown_and_they_differ(views, exported, tab):
    v = views[tab]
    name, mime, data = exported[tab]["gif"][:3]
    assert mime == "image/gif" and name.endswith(".gif") and "step" not in name
    gif = Image.open(io.BytesIO(data))
    assert gif.n_frames == _frames_expected(v)
    frames = []
    for i in range(gif.n_frames):
        gif.seek(i)
        frames.append(np.asarray(gif.convert("RGB")).astype(int))
    assert frames[0].shape[:2] == (gif.size[1], gif.size[0])
    assert _strong(frames[0], frames[-1]) > 1e-3
    changed = [_strong(a, b) > 0 for a, b in zip(frames, frames[1:], strict=False)]
    assert sum(changed) >= len(changed) // 2  # most frames move something (the caption at least)


@pytest.mark.parametrize("tab", TABS)
def test_gif_frames_are_the_stills_of_their_steps(views, exported, tab):
    """Frames are drawn fast (blitted, or only the cells that change), yet each equals the
    still of its step drawn whole, caption included."""
    v = views[tab]
    gif = Image.open(io.BytesIO(exported[tab]["gif"][2]))
    steps = even_steps(v._export_plan()[1])
    frames = v._export_frames()
    for i in (1, len(steps) // 2, len(steps) - 1):
        gif.seek(i)
        got = np.asarray(gif.convert("RGB"))
        want = Image.open(io.BytesIO(frames.still(int(steps[i]), dpi=frames.fig.dpi)))
        assert _strong(got, np.asarray(want.convert("RGB"))) < 1e-3, (tab, i, int(steps[i]))


@pytest.mark.parametrize("tab", TABS)
def test_html_is_self_contained_and_has_the_frames(views, exported, tab):
    v = views[tab]
    name, mime, data = exported[tab]["html"][:3]
    page = data.decode("utf-8")
    assert mime == "text/html" and name.endswith(".html")
    assert page.startswith("<!DOCTYPE html>") and re.search(r"https?://", page) is None
    assert "<script src" not in page and "<link" not in page
    frames = re.findall(r'frames\[\d+\] = "data:image/png;base64,', page)
    assert len(frames) == _frames_expected(v)
    assert re.search(r"<title>[^<]*</title>", page).group(0).lower().find(tab[:4]) > 0


def test_margins_long_run_is_sampled_and_the_panel_says_so(views, exported):
    v = views["margins"]
    assert v.model.n_steps == 1200
    assert "120 frames, SGD step 0 to 1,200 evenly spaced" in v.export.note.value
    assert "every one" in views["xor"].export.note.value


def test_file_names_say_the_tab_and_state(views, exported):
    names = {tab: {k: f[0] for k, f in files.items()} for tab, files in exported.items()}
    assert names["margins"]["png"] == "margins-separable-c1-overlaid-step300.png"
    assert names["margins"]["gif"] == "margins-separable-c1-overlaid-sgd.gif"
    assert names["xor"]["svg"] == "xor-cycling-xor-pm1-step5.svg"
    assert names["cover"]["html"] == "cover-recursion-m3-n8.html"
    assert names["generalization"]["png"] == "generalization-margin-margin-seed0-step7.png"
    assert file_stem("Cover", "M = 1, 2", "") == "cover-m-1-2"


# ---------------------------------------------------------------------------- the live figure
def test_exports_leave_the_live_figure_alone():
    v = _xor()
    calls = []
    live = v.figure
    for name in ("render", "draw_frame", "savefig"):
        original = getattr(live, name)
        setattr(live, name, lambda *a, _o=original, _n=name, **kw: (calls.append(_n), _o(*a, **kw))[1])
    size = tuple(live.fig.get_size_inches())
    v.export.b_png.click()
    v.export.b_gif.click()
    assert v.export.wait(120)
    assert "GIF ready" in _status(v.export)
    assert calls == [] and tuple(live.fig.get_size_inches()) == size


def test_gif_made_beside_the_live_figure_equals_one_made_alone():
    """The export's figure shares nothing with the live one: stepping the page while the GIF
    is made in the panel's thread changes neither."""
    v = _xor()
    alone = v._animate("gif", None, None)
    result = {}
    worker = threading.Thread(target=lambda: result.update(gif=v._animate("gif", None, None)))
    worker.start()
    k = 0
    while worker.is_alive() or k < 5:
        v.timeline.go(k % (v.model.n_steps + 1))
        k += 1
        time.sleep(0.005)
    worker.join()
    assert result["gif"] == alone


# ---------------------------------------------------------------------------- cancel, failure
def test_cancel_stops_a_long_export():
    v = _margins()
    panel = v.export
    assert panel.start("html")
    t0 = time.perf_counter()
    while panel.progress.value < 3 and time.perf_counter() - t0 < 120:
        time.sleep(0.02)
    assert panel.busy and panel.progress.value >= 3
    t1 = time.perf_counter()
    panel.b_cancel.click()
    assert panel.wait(10)
    assert time.perf_counter() - t1 < 5  # within a frame or two
    assert _status(panel) == "Export cancelled" and panel.links.value == ""
    assert panel.progress.value < MAX_FRAMES


def test_a_failing_export_gives_a_message_not_a_traceback(monkeypatch):
    v = _generalization()

    def broken(self, k):
        raise FloatingPointError("overflow in the losses at step 3")

    monkeypatch.setattr(GeneralizationFigure, "render", broken)
    for kind in ("png", "gif"):
        getattr(v.export, f"b_{kind}").click()
        assert v.export.wait(30)
        assert _status(v.export) == "Export failed: overflow in the losses at step 3"
        assert "Traceback" not in v.export.status.value and v.export.links.value == ""
    assert v.model.step == 7 and v.messages.refused == ""  # the tab's state is kept


def test_views_with_nothing_to_play_export_stills_only():
    v = _xor()
    assert v.model.update(view="proof")
    panel = v.export
    assert panel.b_gif.disabled and panel.b_html.disabled
    assert "Nothing plays in this view" in panel.note.value
    assert not panel.start("gif") and "Nothing plays" in _status(panel)
    panel.b_png.click()
    name, _, data = _link(panel)
    assert name == "xor-proof-xor-pm1.png"
    assert Image.open(io.BytesIO(data)).text["Title"].startswith("Proof")
    assert v.model.update(view="kernel")
    assert not panel.b_gif.disabled and "every one" in panel.note.value


def test_cover_exports_its_monte_carlo_points_appearing_and_its_other_views():
    v = CoverView()
    m = v.model
    assert m.update(ms="1, 2", trials=20)
    assert m.start_monte_carlo()
    assert m.wait_monte_carlo(120)
    n = len([p for p in m.mc if p.M in m.ms])
    assert n > 5
    assert f"{n + 1} frames, Monte Carlo points shown 0 to {n}" in v.export.note.value
    frames = v._export_frames()
    assert frames.n_steps == n
    first, last = frames.render(0), frames.render(n)
    assert first.startswith(f"Monte Carlo: 0 of {n} points") and "Monte Carlo:" not in first[30:]
    assert last.startswith(f"Monte Carlo: {n} of {n} points") and f"Monte Carlo: {n} points" in last
    gif = Image.open(io.BytesIO(v._animate("gif", None, None)))
    assert gif.n_frames == n + 1
    for view in ("dichotomies", "boolean"):
        assert m.update(view=view)
        assert v.export.b_gif.disabled
        png = Image.open(io.BytesIO(v._still("png")))
        assert png.text["Title"].startswith(view.capitalize())


# ---------------------------------------------------------------------------- pieces
def test_even_steps_and_the_note():
    np.testing.assert_array_equal(even_steps(5), np.arange(6))
    s = even_steps(1200)
    assert len(s) == MAX_FRAMES and s[0] == 0 and s[-1] == 1200 and np.all(np.diff(s) > 0)
    assert np.ptp(np.diff(s)) <= 1  # evenly spaced
    assert frames_note(0) == ""
    assert frames_note(24) == "GIF and HTML: 25 frames, step 0 to 24, every one."
    assert frames_note(1200, what="SGD step").startswith(
        "GIF and HTML: 120 frames, SGD step 0 to 1,200 evenly spaced (a long run is sampled")
    with pytest.raises(ValueError, match="max_frames must be >= 2; got 1"):
        even_steps(5, max_frames=1)


def test_tab_frames_refuse_a_figure_without_its_own_canvas_and_stop_when_cancelled():
    with pytest.raises(TypeError, match="expected a figure drawn on its own Agg canvas"):
        TabFrames(RecursionFigure(), n_steps=3, caption=str)
    v = _cover()
    frames = v._export_frames()
    with pytest.raises(ExportCancelled, match="after 0 of 22 frames"):
        frames.animation("gif", cancelled=lambda: True)
    done = []
    with pytest.raises(ExportCancelled, match="after 2 of 22 frames"):
        frames.animation("html", progress=lambda i, n: done.append(i),
                         cancelled=lambda: len(done) >= 2)
    with pytest.raises(ValueError, match="k must be <= 21; got 22"):
        frames.still(22)


def test_recursion_figure_fills_the_cells_in_order():
    v = _cover()
    t = v.model.table
    f = RecursionFigure(offscreen_figure())
    f.set_table(t)
    cells = interior_cells(t)
    for k in (0, 5, len(cells)):
        text = f.show(k)
        for m in range(t.M_max + 1):
            for N in range(1, t.N_max + 1):
                shown = f.grid[m + 1, N].get_text().get_text()
                known = t.is_edge(m, N) or (m, N) in cells[:k]
                assert shown == (f"{t.S[m, N - 1]:,}" if known else "·"), (k, m, N)
        if k:
            a, N = cells[k - 1]
            assert text.startswith(f"S({a}, {N}) = S({a}, {N - 1}) + S({a - 1}, {N - 1})")
            assert f.grid[a + 1, N].get_facecolor()[:3] != (1.0, 1.0, 1.0)


def test_perceptron_panel_names_its_files_and_says_how_a_long_run_is_sampled():
    from explorer.app.perceptron.view import PerceptronView

    v = PerceptronView()
    n = v.model.trajectory.n_steps
    assert f"{n + 1} frames, step 0 to {n}, every one" in v.export.note.value
    v.model.go(3)
    v.export.b_png.click()
    assert _link(v.export)[0] == f"perceptron-{v.model.dataset}-{v.model.rule}-step3.png"
    assert v.load_state(v.save_state() | {"dataset": "separable", "n": 40, "margin": 0.02,
                                          "seed": 0, "max_epochs": 6, "step": 0})
    n = v.model.trajectory.n_steps
    assert n > MAX_FRAMES
    assert (f"120 frames of the {n + 1} steps (0 to {n}): every update and the step before it "
            "first, then evenly spaced") in v.export.note.value


def test_recursion_figure_draws_only_what_a_step_changes_yet_as_a_full_redraw_does():
    from figure_checks import assert_blit_matches_full_draw

    from explorer.cover import recursion_table

    t = recursion_table(4, 10)
    live, ref = RecursionFigure(offscreen_figure()), RecursionFigure(offscreen_figure())
    for f in (live, ref):
        f.fit(986, 519, scale=0.95)
        f.set_table(t)
    assert_blit_matches_full_draw(live, ref, [0, 1, 2, 3, 17, 36, 35, 5, 0, 9])
    drawn = []
    live.fig.draw_artist = lambda a: (drawn.append(a), type(live.fig).draw_artist(live.fig, a))
    live.render(10)
    assert 0 < len(drawn) <= 20  # a step redraws a few cells, not the 55 of the table
