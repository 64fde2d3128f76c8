"""Still images and kernel-free animations of a run, drawn by the same panels as the widget.

Every picture carries the caption strip of :class:`~explorer.plots.frames.CaptionedFigure`:
the step, its narration and the run's parameters. Animations are bounded and fast:

* :func:`frame_steps` picks at most ``max_frames`` steps, every update (and the step before
  it) first;
* one off-screen figure draws its static parts once, then each frame draws only the moving
  artists over that cached background (blitting);
* the files are written by :func:`explorer.plots.animation.record`, the recorder every tab's
  export shares: ``matplotlib.animation`` writers, GIF by ``PillowWriter`` and HTML by
  ``HTMLWriter``, whose ``grab_frame`` takes the blitted canvas instead of calling
  ``savefig``. Every frame is mapped onto one shared palette (no colour quantization per
  frame); Pillow stores each GIF frame as its change from the previous one, and each HTML
  frame is transparent where it equals the last frame, which the page shows behind it;
* the HTML page plays offline: :func:`explorer.plots.player.offline_page` replaces the
  player's web-font icons with inline SVG and names every button.

Nothing here uses pyplot, so an export may run in a background thread. ``progress(i, n)`` is
called after frame ``i`` of ``n`` (0-based, as matplotlib's ``progress_callback``) and
``cancelled()`` before every frame: when it returns True the export raises
:class:`ExportCancelled`.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import numpy as np

from ..perceptron.replay import RunInfo
from ..perceptron.trajectory import Trajectory
from ..shared.validation import check_int, check_positive
from .animation import ExportCancelled, _stop_if, record
from .figure import PerceptronFigure
from .frames import CaptionedFigure, step_caption

__all__ = ["ExportCancelled", "frame_steps", "figure_bytes", "still_bytes", "gif_bytes",
           "html_animation", "MAX_FRAMES", "ANIMATION_DPI", "STILL_DPI"]

MAX_FRAMES = 120
#: The live widget's resolution (1040 x about 640 pixels with the caption). A 240-step run, 120
#: frames, gives about 1 MB of GIF and 2.5 MB of HTML; the frame count bounds both.
ANIMATION_DPI = 80
STILL_DPI = 160  # twice the screen figure's: sharp on slides


# ---------------------------------------------------------------------------- checks
def _check_run(traj, X, y) -> None:
    if not isinstance(traj, Trajectory):
        raise TypeError(f"expected traj to be a Trajectory; got {type(traj).__name__}")
    X, y = np.asarray(X), np.asarray(y)
    if X.ndim != 2 or y.ndim != 1 or len(X) != len(y):
        raise ValueError(f"expected X of shape (n, d) and y of shape (n,); got {X.shape} and {y.shape}")


def _check_fmt(fmt) -> str:
    if fmt not in ("png", "svg"):
        raise ValueError(f"fmt must be 'png' or 'svg'; got {fmt!r}")
    return fmt


# ---------------------------------------------------------------------------- frames
def _even(a: np.ndarray, m: int) -> np.ndarray:
    """``m`` evenly spaced entries of sorted ``a`` (first and last included)."""
    if m >= len(a):
        return a
    if m == 1:
        return a[len(a) // 2:len(a) // 2 + 1]
    return a[np.floor(np.linspace(0, len(a) - 1, m) + 0.5).astype(int)]


def frame_steps(traj: Trajectory, *, max_frames: int = MAX_FRAMES) -> np.ndarray:
    """The steps to animate: all of a short run, a bounded selection of a long one.

    Parameters
    ----------
    traj : Trajectory
        The run.
    max_frames : int, default 120
        Most frames to return, at least 2.

    Returns
    -------
    ndarray of int64
        Increasing steps in ``0 .. traj.n_steps``. When the run has more steps than
        ``max_frames``, exactly ``max_frames`` of them, chosen in this order of priority: the
        first and last step, every update step, the step before each update (so each update
        is seen happening), then evenly spaced steps; a group that does not fit whole is
        thinned evenly.
    """
    if not isinstance(traj, Trajectory):
        raise TypeError(f"expected traj to be a Trajectory; got {type(traj).__name__}")
    m = check_int(max_frames, name="max_frames", minimum=2)
    n = traj.n_steps
    if n + 1 <= m:
        return np.arange(n + 1, dtype=np.int64)
    updates = np.asarray(traj.update_steps, dtype=np.int64)
    chosen = np.array([0, n], dtype=np.int64)
    for group in (updates, updates - 1, np.arange(n + 1, dtype=np.int64)):
        room = m - len(chosen)
        if room <= 0:
            break
        chosen = np.union1d(chosen, _even(np.setdiff1d(group, chosen), room))
    return chosen


def _steps(traj: Trajectory, steps, max_frames) -> np.ndarray:
    m = check_int(max_frames, name="max_frames", minimum=2)
    if steps is None:
        return frame_steps(traj, max_frames=m)
    s = np.asarray(steps)
    if s.ndim != 1 or s.size == 0 or s.dtype.kind not in "iu":
        raise TypeError(f"expected steps to be a non-empty 1-D sequence of integers; got {steps!r}")
    if s.min() < 0 or s.max() > traj.n_steps:
        raise ValueError(f"expected steps in 0..{traj.n_steps}; got {s.min()}..{s.max()}")
    if len(s) > m:
        raise ValueError(f"expected at most max_frames = {m} steps; got {len(s)}")
    return s.astype(np.int64)


def _palette_steps(cf: CaptionedFigure, steps: np.ndarray) -> list[int]:
    """The frames whose colours make the shared palette: the first, the first update and the
    last (the update's arrow and ring bring colours the first frame lacks)."""
    updated = np.asarray(cf.panels.traj.updated)
    first_update = next((int(k) for k in steps if k > 0 and updated[k - 1]), int(steps[0]))
    return sorted({int(steps[0]), first_update, int(steps[-1])})


def _record(kind: str, traj, X, y, *, info, title, steps, max_frames, fps, dpi, hand, progress,
            cancelled, view=None):
    """Blit the frames of a captioned run into a GIF (bytes) or an offline HTML page (str)."""
    _check_run(traj, X, y)
    steps = _steps(traj, steps, max_frames)
    fps = check_positive(fps, name="fps")
    dpi = check_positive(dpi, name="dpi")
    _stop_if(cancelled, 0, len(steps))
    cf = CaptionedFigure(traj, X, y, info=info, title=title, dpi=dpi, hand=hand, view=view)

    def render(k: int) -> str:
        f = cf.blit(k)
        return f"{step_caption(f)}. {f.text}"

    heading = "Perceptron run" + (f" · {title}" if title else "")
    return record(kind, cf.fig, render, steps, fps=fps, heading=heading,
                  palette_steps=_palette_steps(cf, steps), max_frames=len(steps),
                  progress=progress, cancelled=cancelled)


# ---------------------------------------------------------------------------- public
def figure_bytes(pf: PerceptronFigure, fmt: str = "png", *, dpi: float | None = None) -> bytes:
    """A :class:`PerceptronFigure` as shown (no caption), as PNG or SVG bytes.

    Parameters
    ----------
    pf : PerceptronFigure
        The figure, e.g. the live widget's.
    fmt : {"png", "svg"}
    dpi : float, optional
        Resolution of a PNG (default: the figure's).

    Returns
    -------
    bytes
    """
    _check_fmt(fmt)
    buf = io.BytesIO()
    pf.savefig(buf, format=fmt, dpi=dpi)
    return buf.getvalue()


def still_bytes(traj: Trajectory, X, y, *, k: int, fmt: str = "png", info: RunInfo | None = None,
                title: str = "", dpi: float = STILL_DPI, hand: bool = False,
                view=None) -> bytes:
    """Step ``k`` of a run as a captioned PNG or SVG, drawn on its own off-screen figure.

    Parameters
    ----------
    traj : Trajectory
        The run.
    X, y : array_like
        Its data.
    k : int
        The step, ``0 .. traj.n_steps``.
    fmt : {"png", "svg"}, default "png"
    info : RunInfo, optional
        Bound and proof quantities (pass the model's: computing them solves an LP).
    title : str, default ""
        The run's parameters for the caption, e.g. ``"classic · η = 1 · separable · seed 0"``.
    dpi : float, default 160
        Twice the screen figure's 80: 2080 pixels wide, fit for slides.
    hand : bool, default False
        The learner picked the points ("you choose" mode).
    view : tuple of float, optional
        The 3-D view's ``(azimuth, elevation)`` in degrees, for data of three features.

    Returns
    -------
    bytes
    """
    _check_run(traj, X, y)
    _check_fmt(fmt)
    k = check_int(k, name="k", minimum=0, maximum=traj.n_steps)
    dpi = check_positive(dpi, name="dpi")
    cf = CaptionedFigure(traj, X, y, info=info, title=title, dpi=dpi, hand=hand, still=k,
                         view=view)
    f = cf.show(k)  # nothing is animated: savefig draws every artist
    line = step_caption(f)
    # the file says what it shows, as every tab's still does (explorer.plots.animation)
    meta = {"Title": f"{line} · {title}" if title else line, "Description": f"{line}. {f.text}"}
    buf = io.BytesIO()
    cf.fig.savefig(buf, format=fmt, dpi=dpi, metadata=meta)
    return buf.getvalue()


def gif_bytes(traj: Trajectory, X, y, *, info: RunInfo | None = None, title: str = "",
              steps=None, max_frames: int = MAX_FRAMES, fps: float = 4, dpi: float = ANIMATION_DPI,
              hand: bool = False, progress: Callable[[int, int], None] | None = None,
              cancelled: Callable[[], bool] | None = None, view=None) -> bytes:
    """The run as an animated GIF, one captioned frame per step shown.

    Parameters
    ----------
    traj : Trajectory
        The run.
    X, y : array_like
        Its data.
    info : RunInfo, optional
        Bound and proof quantities (pass the model's: computing them solves an LP).
    title : str, default ""
        The run's parameters for the caption.
    steps : sequence of int, optional
        The steps to show (at most ``max_frames``); default :func:`frame_steps`.
    max_frames : int, default 120
    fps : float, default 4
        Frames per second; the last frame is held 2 s before the GIF loops.
    dpi : float, default 80
        The live widget's resolution (1040 pixels wide).
    hand : bool, default False
        The learner picked the points ("you choose" mode).
    progress : callable ``(i, n)``, optional
        Called after frame ``i`` (0-based) of ``n``.
    cancelled : callable ``() -> bool``, optional
        Checked before every frame.
    view : tuple of float, optional
        The 3-D view's ``(azimuth, elevation)`` in degrees, for data of three features.

    Returns
    -------
    bytes

    Raises
    ------
    ExportCancelled
        When ``cancelled()`` returned True.
    """
    return _record("gif", traj, X, y, info=info, title=title, steps=steps, max_frames=max_frames,
                   fps=fps, dpi=dpi, hand=hand, progress=progress, cancelled=cancelled,
                   view=view)


def html_animation(traj: Trajectory, X, y, *, info: RunInfo | None = None, title: str = "",
                   steps=None, max_frames: int = MAX_FRAMES, fps: float = 4,
                   dpi: float = ANIMATION_DPI, hand: bool = False,
                   progress: Callable[[int, int], None] | None = None,
                   cancelled: Callable[[], bool] | None = None, view=None) -> str:
    """The run as one self-contained HTML page that plays offline, with no kernel.

    Frames are embedded PNGs in matplotlib's ``HTMLWriter`` player; the buttons carry inline
    icons and accessible names, and the image's ``alt`` text is the frame's narration.
    Parameters as :func:`gif_bytes`.

    Returns
    -------
    str
        The page (encode it as UTF-8 to save it).

    Raises
    ------
    ExportCancelled
        When ``cancelled()`` returned True.
    """
    return _record("html", traj, X, y, info=info, title=title, steps=steps,
                   max_frames=max_frames, fps=fps, dpi=dpi, hand=hand, progress=progress,
                   cancelled=cancelled, view=view)
