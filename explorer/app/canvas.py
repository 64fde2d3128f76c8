"""The live figure every tab draws into: an ipympl canvas made once, under ``plt.ioff()``,
without the toolbar, header, footer or resize handle, and with a faster frame encoder."""

from __future__ import annotations

import contextlib

import matplotlib.pyplot as plt
from PIL import Image

from .jobs import kernel_loop


@contextlib.contextmanager
def _png_level(level: int):
    """Within the block, PNGs that Pillow saves without a compression level use ``level``."""
    original = Image.Image.save

    def save(self, fp, format=None, **params):
        if str(format).lower() == "png":
            params.setdefault("compress_level", level)
        return original(self, fp, format, **params)

    Image.Image.save = save
    try:
        yield
    finally:
        Image.Image.save = original


def _encode_fast(canvas) -> None:
    """ipympl sends each frame as a PNG of the changed pixels, encoded at zlib level 6; at
    level 1 the encode takes about half the time for a slightly larger message (measured in
    docs/performance.md). Only this canvas's frames are affected."""
    get_diff_image = getattr(canvas, "get_diff_image", None)
    if get_diff_image is None:
        return

    def fast():
        with _png_level(1):
            return get_diff_image()

    canvas.get_diff_image = fast


def live_figure(*, dpi: float = 80):
    """A new figure on the notebook's canvas (ipympl in the dashboard), bare and fast."""
    with plt.ioff():
        fig = plt.figure(dpi=dpi)
    canvas = fig.canvas
    for attr in ("header_visible", "footer_visible", "toolbar_visible", "resizable",
                 "capture_scroll"):
        if hasattr(canvas, attr):
            setattr(canvas, attr, False)
    _encode_fast(canvas)
    # Drawn only when a view asks (explorer.plots.live.LiveFigure.draw_frame), never by pyplot:
    # in a kernel, pyplot redraws every registered figure left stale after each message from
    # the page (IPython's post_execute hook), and a moving legend drawn over the cached
    # background leaves the figure stale. The image sent back is itself answered by a message,
    # so an untouched page kept its kernel drawing for ever. Nothing in the dashboard uses
    # pyplot's figure registry: the figure leaves it, and stale artists ask for no redraw.
    _unregister(fig)
    fig.stale_callback = None
    # In a kernel, a page will show the canvas and ask for its first image: LiveFigure draws
    # nothing before (see explorer.plots.live.LiveFigure.draw_frame).
    canvas.page_draws_first = kernel_loop() is not None
    return fig


def _unregister(fig) -> None:
    """Take ``fig`` out of pyplot's registry of figures (its canvas and manager stay)."""
    from matplotlib._pylab_helpers import Gcf

    for num, manager in list(Gcf.figs.items()):
        if manager.canvas.figure is fig:
            del Gcf.figs[num]


def announce_size(fig, *, again: bool = False) -> None:
    """Tell the page the canvas's new size (matplotlib has already sent it once).

    ipympl's page applies a "resize" message with the size it last received as widget state.
    It applies state updates asynchronously and custom messages at once; while the page is
    still loading its widgets the state can lag by a second or more, so the message meets the
    old size and leaves the canvas element at it, clipping the larger image. With ``again``
    (the first seconds after the page opened) the message is sent once more, a moment later.
    Each message blanks the canvas until the next image arrives, so it is not sent needlessly.
    """
    manager = getattr(fig.canvas, "manager", None)
    if not again or manager is None or not hasattr(manager, "resize"):
        return

    def send():
        w, h = fig.bbox.size
        manager.resize(w, h)

    loop = kernel_loop()
    if loop is not None:  # outside a kernel (tests, scripts) no page is lagging
        loop.call_later(1.0, send)
