"""A synthetic page-drawn figure for the browser tests of explorer.app.pagefigure: two panels and
a figure-level caption, every track kind, a run of 5,000 steps in chunks of 256, one chunk the
kernel is slow to compute (on purpose), and small widgets that show what the kernel knows.

``scene()`` and ``chunk()`` are pure functions of their arguments, so the tests compute the
expected pixels from them (:meth:`Panel.to_px`) without asking the page's kernel.
"""

from __future__ import annotations

import io
import json
import time

import numpy as np

from explorer.plots.scene import FIGURE, Chunk, Panel, Scene, Track

WIDTH, HEIGHT = 900, 420
N_STEPS = 5000
CHUNK = 256
SLOW_CHUNK = 3        # steps 768..1023: the kernel takes SLOW_S to compute it the first time
SLOW_S = 2.5
UPDATES = tuple(range(5, N_STEPS + 1, 37))
EPOCH = 250
CYCLE_START = 4000
POS, NEG = "#0072B2", "#D55E00"
NAME = "Synthetic test figure: every kind of moving part"
LABELS = ("w", "w (updated)", "two\nlines")
# axes boxes as fractions of the figure (left, bottom, width, height), as matplotlib takes them
PLANE_BOX = (0.06, 0.12, 0.40, 0.80)
CURVE_BOX = (0.56, 0.12, 0.40, 0.80)
PLANE_LIM = ((-2.5, 2.5), (-2.5, 2.5))


def mistakes(s):
    return np.floor(3 * np.sqrt(np.asarray(s, dtype=float)))


CURVE_LIM = ((0.0, float(N_STEPS)), (0.0, float(mistakes(N_STEPS)) * 1.05))


def _panel(name, box, lim) -> Panel:
    left, bottom, w, h = box
    return Panel(name, x=left * WIDTH, y=(1 - bottom - h) * HEIGHT, w=w * WIDTH, h=h * HEIGHT,
                 xlim=lim[0], ylim=lim[1])


PANELS = (_panel("plane", PLANE_BOX, PLANE_LIM), _panel("curve", CURVE_BOX, CURVE_LIM))

TRACKS = (
    Track("half", "plane", "polygon", layer="under", z=0,
          style={"fill": POS, "fill_alpha": 0.12, "hatch": "/", "hatch_color": POS,
                 "hatch_alpha": 0.4, "hatch_gap": 9}),
    Track("now", "curve", "vline", layer="under", z=1,
          style={"color": "#7F7F7F", "width": 1.5, "dash": [5, 3]}),
    Track("line", "plane", "polyline", z=1, style={"color": "#000000", "width": 2}),
    Track("w", "plane", "arrow", z=2, style={"color": "#009E73", "width": 2.5, "head": 13}),
    Track("pts", "plane", "points", z=3,
          style={"marker": "o", "size": 11, "colors": [POS, NEG], "width": 1,
                 "color": "#FFFFFF"}),
    Track("pick", "plane", "points", z=4,
          style={"marker": "ring", "size": 20, "color": "#000000", "width": 2}),
    Track("label", "plane", "text", z=5, style={"size": 14, "box": True, "weight": "bold"}),
    Track("mistakes", "curve", "prefix", z=1, style={"color": "#CC79A7", "width": 2},
          data={"data": np.column_stack([np.arange(N_STEPS + 1), mistakes(np.arange(N_STEPS + 1))])}),
    Track("caption", FIGURE, "text", z=9, style={"size": 12, "color": "#333333"}),
)


def _png(ratio: float, *, layer: str) -> bytes:
    """The still layers: axes, grid, labels below; a few still crosses above the tracks."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    # a figure of its own, off screen: never pyplot's backend (other tests choose theirs)
    fig = Figure(figsize=(WIDTH / 100, HEIGHT / 100), dpi=100 * ratio)
    FigureCanvasAgg(fig)
    if layer == "above":
        fig.patch.set_alpha(0)
    for box, (xlim, ylim), title in ((PLANE_BOX, PLANE_LIM, "the plane"),
                                     (CURVE_BOX, CURVE_LIM, "mistakes so far")):
        ax = fig.add_axes(box)
        ax.set_xlim(*xlim)
        ax.set_ylim(*ylim)
        if layer == "below":
            ax.grid(True, color="#DDDDDD")
            ax.set_title(title, fontsize=12)
        else:
            ax.set_axis_off()
            if title == "the plane":
                ax.plot([-2, 0, 2], [2, -2, 1], "kx", ms=9, mew=2)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100 * ratio, transparent=layer == "above")
    return buf.getvalue()


def scene(ratio: float = 1.0) -> Scene:
    return Scene(width=WIDTH, height=HEIGHT, ratio=ratio, panels=PANELS, tracks=TRACKS,
                 below=_png(ratio, layer="below"), above=_png(ratio, layer="above"),
                 n_steps=N_STEPS, chunk=CHUNK)


def arrays(steps) -> tuple[dict, tuple]:
    """Every track's arrays at ``steps`` (and the strings the text tracks index)."""
    k = np.asarray(steps)
    S = len(k)
    th = 0.004 * k
    d = np.stack([np.cos(th), np.sin(th)], axis=-1)          # the line's direction
    nrm = np.stack([-np.sin(th), np.cos(th)], axis=-1)       # its normal
    L = 6.0
    half = np.stack([-L * d, L * d, L * d + L * nrm, -L * d + L * nrm,
                     np.full((S, 2), np.nan)], axis=1)
    half[k % 2 == 1, 4] = (-L * d + 0.5 * L * nrm)[k % 2 == 1]  # 4 or 5 vertices
    line = np.stack([-3 * d, -0.5 * d, np.zeros((S, 2)), 3 * d], axis=1)
    line[k % 10 == 0, 2] = np.nan                               # a gap now and then
    tip = 1.5 * nrm
    w = np.stack([np.zeros((S, 2)), tip], axis=1)
    w[k % 7 == 3] = np.nan                                      # not drawn at these steps
    phase = np.arange(6) * (np.pi / 3)
    ang = 0.01 * k[:, None] + phase[None, :]
    pts = np.stack([1.6 * np.cos(ang), 1.2 * np.sin(ang)], axis=-1)
    pts[k % 11 == 5, 2] = np.nan
    c = np.tile(np.array([0, 1, 0, 1, 0, 1], dtype=np.uint8), (S, 1))
    c[:, 0] = k % 2
    pick = pts[np.arange(S), k % 6][:, None, :]
    n = k + 1
    tail = np.stack([k + 0.5, mistakes(k) + 0.5], axis=-1).astype(float)
    tail[k % 2 == 0] = np.nan
    captions = [f"caption of step {s}" for s in k]
    strings = (*LABELS, *captions)
    out = {
        "half": {"xy": half}, "now": {"x": k.astype(float)}, "line": {"xy": line},
        "w": {"xy": w}, "pts": {"xy": pts, "c": c}, "pick": {"xy": pick},
        "label": {"xy": tip, "t": (k % 3).astype(np.int32), "ha": (k % 3).astype(np.uint8),
                  "va": (k % 4).astype(np.uint8)},
        "mistakes": {"n": n.astype(np.int32), "tail": tail},
        "caption": {"xy": np.tile([WIDTH - 8.0, HEIGHT - 6.0], (S, 1)),
                    "t": (3 + np.arange(S)).astype(np.int32),
                    "ha": np.full(S, 2, np.uint8), "va": np.full(S, 2, np.uint8)},
    }
    return out, strings


def chunk(index: int) -> Chunk:
    steps = range(index * CHUNK, min((index + 1) * CHUNK, N_STEPS + 1))
    arr, strings = arrays(np.arange(steps.start, steps.stop))
    return Chunk(start=steps.start, count=len(steps), arrays=arr, strings=strings,
                 narration=tuple(f"Narration of step {s}." for s in steps),
                 status=tuple(f"step {s} of {N_STEPS} · synthetic" for s in steps))


def page():
    """The test page: the figure, a pointer-mode menu, a button that makes the kernel go to
    step 4321, and lines with what the kernel knows (step, playing, last click, chunks)."""
    import ipywidgets as W

    from explorer.app.pagefigure import POINTER_MODES, PageFigure

    fig = PageFigure(name=NAME)
    the_scene = scene(1.0)
    state = {"run": 1, "slow": True, "asked": []}

    def chunks(i):
        state["asked"].append(i)
        if i == SLOW_CHUNK and state["slow"]:
            state["slow"] = False
            time.sleep(SLOW_S)  # a kernel busy computing a long run's chunk
        return chunk(i)

    transport = {"updates": UPDATES, "epoch": EPOCH, "cycle_start": CYCLE_START}
    fig.show_scene(the_scene, run=state["run"], chunks=chunks, transport=transport)
    known = W.HTML().add_class("pe-test-kernel")
    clicks = W.HTML().add_class("pe-test-pointer")

    def tell(_=None):
        known.value = json.dumps({"step": fig.step, "playing": fig.playing, "ratio": fig.ratio,
                                  "run": state["run"], "asked": state["asked"]})

    fig.observe(tell, names=["step", "playing", "ratio"])
    tell()

    def on_pointer(p):
        clicks.value = json.dumps({"panel": p.panel, "x": p.x, "y": p.y, "mode": p.mode})
        if p.mode.startswith("add"):  # a new run with the point: a new scene clears the mark
            state["run"] += 1
            fig.show_scene(the_scene, run=state["run"], chunks=chunks, transport=transport,
                           step=fig.step)
            tell()

    fig.on_pointer(on_pointer)
    mode = W.Dropdown(options=POINTER_MODES, value="view", description="Click mode")
    W.link((mode, "value"), (fig, "pointer_mode"))
    go = W.Button(description="Kernel: go to 4321")
    go.on_click(lambda _b: fig.go(4321))
    return W.VBox([fig, W.HBox([mode, go]), known, clicks])
