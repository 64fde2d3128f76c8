"""Static images and kernel-free animations of a run, drawn by the same panels as the widget.

GIFs use Pillow; the HTML animation is self-contained (frames embedded as base64, player in
plain JavaScript, via ``matplotlib.animation.HTMLWriter``), so it plays with no kernel.
"""

from __future__ import annotations

import io
import os
import tempfile

import numpy as np
from matplotlib.animation import FuncAnimation, HTMLWriter, PillowWriter
from matplotlib.backends.backend_agg import FigureCanvasAgg

from ..replay import RunInfo
from ..trajectory import Trajectory
from .figure import PerceptronFigure

MAX_FRAMES = 240


def frame_steps(traj: Trajectory, *, max_frames: int = MAX_FRAMES) -> np.ndarray:
    """Steps to animate: every step of a short run; for a long one, every update step and the
    step before it (so each update is seen happening), then evenly spaced fill, capped."""
    n = traj.n_steps
    if n + 1 <= max_frames:
        return np.arange(n + 1)
    key = np.unique(np.concatenate([[0, n], traj.update_steps, traj.update_steps - 1]))
    if len(key) > max_frames:
        key = key[np.linspace(0, len(key) - 1, max_frames).round().astype(int)]
    else:
        fill = np.linspace(0, n, max_frames - len(key)).round().astype(int)
        key = np.unique(np.concatenate([key, fill]))[:max_frames]
    return np.unique(key)


def figure_bytes(pf: PerceptronFigure, fmt: str = "png", *, dpi: float | None = None) -> bytes:
    """The figure as shown, as PNG or SVG bytes."""
    if fmt not in ("png", "svg"):
        raise ValueError(f"fmt must be 'png' or 'svg'; got {fmt!r}")
    buf = io.BytesIO()
    pf.savefig(buf, format=fmt, dpi=dpi)
    return buf.getvalue()


def animation(traj: Trajectory, X, y, *, info: RunInfo | None = None, steps=None,
              fps: float = 4, dpi: float = 60) -> tuple[FuncAnimation, PerceptronFigure]:
    """A ``FuncAnimation`` of the run on a new (non-pyplot) figure, one frame per step shown."""
    pf = PerceptronFigure(dpi=dpi)
    FigureCanvasAgg(pf.fig)
    pf.set_run(traj, X, y, info)
    steps = frame_steps(traj) if steps is None else np.asarray(steps)

    def draw(k):
        pf.show(int(k))
        return []

    anim = FuncAnimation(pf.fig, draw, frames=[int(k) for k in steps], interval=1000 / fps,
                         blit=False, repeat=False)
    return anim, pf


def save_gif(traj: Trajectory, X, y, path, *, info=None, fps: float = 4, progress=None) -> str:
    """Write the run as an animated GIF; ``progress(i, n)`` is called per frame."""
    anim, _ = animation(traj, X, y, info=info, fps=fps)
    anim.save(os.fspath(path), writer=PillowWriter(fps=fps), progress_callback=progress)
    return os.fspath(path)


def html_animation(traj: Trajectory, X, y, *, info=None, fps: float = 4, progress=None) -> str:
    """The run as one self-contained HTML page (frames embedded, no kernel needed)."""
    anim, _ = animation(traj, X, y, info=info, fps=fps)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "perceptron.html")
        anim.save(path, writer=HTMLWriter(fps=fps, embed_frames=True, default_mode="once"),
                  progress_callback=progress)
        with open(path, encoding="utf-8") as fh:
            return fh.read()


def gif_bytes(traj: Trajectory, X, y, *, info=None, fps: float = 4, progress=None) -> bytes:
    """:func:`save_gif` into memory."""
    with tempfile.TemporaryDirectory() as tmp:
        path = save_gif(traj, X, y, os.path.join(tmp, "run.gif"), info=info, fps=fps,
                        progress=progress)
        with open(path, "rb") as fh:
            return fh.read()
