"""The Generalization tab on the page-drawn figure (issue 21), without a browser: what the kernel
sends the page (scenes, chunks, the simulation's points as static tracks) and what it hears
back (the settled step)."""

import numpy as np
import pytest

from explorer.app.generalization import GeneralizationView

SMALL = dict(ns="4, 8, 16", trials="20")


@pytest.fixture
def view():
    v = GeneralizationView(autorun=False)
    assert v.model.update(**SMALL)
    sent = {"scenes": [], "statics": [], "chunks": [], "sim": []}  # sim: statics in order
    page = v.page
    show_scene, send_static, send_chunk = page.show_scene, page.send_static, page.send_chunk

    def scene(s, **kw):
        sent["scenes"].append((s, kw.get("static")))
        sent["sim"].append(kw.get("static"))
        return show_scene(s, **kw)

    def static(st, **kw):
        sent["statics"].append(st)
        sent["sim"].append(st)
        return send_static(st, **kw)

    def chunk(i):
        sent["chunks"].append(i)
        return send_chunk(i)

    page.show_scene, page.send_static, page.send_chunk = scene, static, chunk
    v.sent = sent
    return v


def _bound(static):
    xy = np.asarray(static.arrays["sim_bound"]["xy"][0], dtype=float)
    return xy[np.isfinite(xy).all(axis=1)]


def test_each_finished_size_reaches_the_page(view):
    """Every size the simulation finishes is drawn by the page: its points come as static
    tracks, with a new scene when the probability axis or the legend's frame change."""
    m, sent = view.model, view.sent
    assert m.start_simulation()
    assert m.wait_simulation(60)
    # one message per finished size: a scene (with the statics) or new statics
    assert len(sent["scenes"]) + len(sent["statics"]) >= 1 + len(m.ns)
    for st in [*sent["statics"], *(s for _, s in sent["scenes"])]:
        assert st.count == 1
    want = np.log10(np.column_stack([m.curve.ns, m.curve.stability_bound]))
    np.testing.assert_allclose(_bound(sent["sim"][-1]), want, rtol=1e-6)  # what the page has
    scene = sent["scenes"][-1][0]
    assert view.page.scene["n_steps"] == scene.n_steps == m.n_steps


def test_a_size_that_leaves_the_axes_is_new_static_tracks_and_fresh_narration(view):
    m, sent = view.model, view.sent
    assert m.start_simulation()
    assert m.wait_simulation(60)
    scenes, chunks = len(sent["scenes"]), len(sent["chunks"])
    m.curve = m._joined()  # the same sizes joined again: the axes and the legend stay
    assert len(sent["scenes"]) == scenes  # no still layer drawn again
    static = sent["statics"][-1]
    np.testing.assert_allclose(_bound(static), _bound(view.figure.statics()))
    assert sent["chunks"][chunks:] == []  # the steps' markers are not sent again ...
    assert static.tail == f" {view._summary()}."  # ... the summary after each narration is


def _words(static) -> list:
    """The legend title's lines as the page draws them (its text tracks, in order)."""
    lines = []
    for i in range(3):
        a = static.arrays[f"sim_cut_{i}"]
        if np.isfinite(np.asarray(a["xy"], dtype=float)).all():
            lines.append(static.strings[int(a["t"][0])])
    return lines


def test_streamed_sizes_draw_the_still_layers_again_only_when_the_axes_move(monkeypatch):
    """Issue 21: while a simulation's sizes came in, every size drew the still layers again
    and sent a new scene, because the stability legend's title (the bounds cut off above 1,
    and up to which n) changed its words: 4 renders for the 4 sizes below. Now its words are
    text tracks over a frame that keeps its size: the still layers are drawn again only for a
    size that moves the axes' limits or the frame (a title of more lines), here once; the
    page's texts say what the kernel's legend says, and the steps' chunks are not sent again
    (the summary after every step's narration goes with the statics)."""
    from explorer.plots import layers

    v = GeneralizationView(autorun=False)
    assert v.model.update(ns="5, 10, 20, 40", trials="5")
    m, f, page = v.model, v.figure, v.page
    renders, scenes, statics, chunks, states = [], [], [], [], []
    still_layers = layers.still_layers
    monkeypatch.setattr(layers, "still_layers",
                        lambda *a, **k: renders.append(1) or still_layers(*a, **k))
    for name, log in (("show_scene", scenes), ("send_static", statics), ("send_chunk", chunks)):
        real = getattr(page, name)
        monkeypatch.setattr(page, name, lambda *a, _real=real, _log=log, **k:
                            _log.append((a, k)) or _real(*a, **k))

    def state():  # what the still layers show of the stability panel
        st = f.stability
        return (st.ax.get_xlim(), st.ax.get_ylim(), st.legend.get_title().get_text().count("\n"))

    states.append(state())
    m.observe(lambda _: states.append(state()), names="curve")  # after the view's observer
    assert m.start_simulation()
    assert m.wait_simulation(60) and len(m.curve.ns) == 4
    moved = sum(a != b for a, b in zip(states, states[1:], strict=False))
    assert 1 <= len(renders) == len(scenes) <= moved, (len(renders), moved)
    assert len(renders) == 1  # the first size sets the probability axis; the others fit in it
    assert len(chunks) <= 2 * len(scenes)  # only those sent with a scene
    # the page has the words of the kernel's legend, and the summary after every narration
    last = statics[-1][0][0]
    words = f.stability.legend.get_title().get_text()
    assert "\n".join(_words(last)) == words and "says nothing" in words
    c = m.curve
    for attr, name in (("vc", "VC"), ("worst_bound", "3/(γ²(n+1))"), ("stability_bound", "H&R"),
                       ("mistakes_bound", "E[m]/(n+1)")):
        over = c.ns[np.asarray(getattr(c, attr)) > 1]
        assert (f"{name} to n = {over.max()}" in words) if len(over) else name not in words
    assert last.tail == f" {v._summary()}." and "n = 40:" in last.tail


def test_the_page_settles_a_step_and_the_kernel_follows(view):
    m = view.model
    view.page.step = 5  # as the page sets it once the step has settled
    assert m.step == 5 and view.timeline.step == 5
    assert view.messages.text.startswith(f"Step 5 of {m.n_steps}:")
    np.testing.assert_allclose(view.figure.losses.points["hinge"].get_offsets(),
                               view.figure.step_parts(5)["loss_hinge"]["xy"])
    m.go(7)  # a link or a key in the kernel: the page is told
    assert view.page.step == 7


def test_bad_input_keeps_the_page_as_it_is(view):
    sent = view.sent
    before = len(sent["scenes"])
    view.text["seed"].value = "abc"
    assert "seed must be" in view.messages.refused
    assert len(sent["scenes"]) == before
    view.w_losses["squared"].value = False  # a valid change: a new scene without its markers
    assert len(sent["scenes"]) == before + 1
    assert "loss_squared" not in {t.name for t in sent["scenes"][-1][0].tracks}
    assert view.messages.refused == ""


def test_a_new_size_or_lecture_mode_sends_the_scene_at_that_size_and_step(view):
    from explorer.app.layout import fit_figure

    sent, m = view.sent, view.model
    m.go(9)
    before = len(sent["scenes"])
    fitted = fit_figure(window_width=1600, window_height=900, sidebar=False, lecture=True)
    view.fit(fitted)
    assert len(sent["scenes"]) == before + 1
    scene = sent["scenes"][-1][0]
    assert (scene.width, scene.height) == (fitted.width, fitted.height)
    assert view.page.step == 9 and m.step == 9
    view.fit(fitted)  # the same size: nothing to send
    assert len(sent["scenes"]) == before + 1


def test_chunks_stay_small_on_a_large_run(view):
    """A run on breast cancer's 398 training examples: 256 steps of five losses' markers
    would be a 4.6 MB message; its chunks hold fewer steps."""
    from explorer.app.generalization.view import CHUNK_BYTES, chunk_steps

    assert chunk_steps(40) == 256 and chunk_steps(398) == 16
    view.w_dataset.value = "breast_cancer"
    scene = view.sent["scenes"][-1][0]
    assert scene.chunk == chunk_steps(398)
    _, buffers = view.figure.chunk(0).message(run=1, index=0)
    assert sum(map(len, buffers)) <= CHUNK_BYTES
