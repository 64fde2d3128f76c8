"""Checks shared by the drawing tests."""

import numpy as np


def assert_blit_matches_full_draw(live, ref, steps) -> None:
    """Each step rendered with blitting on ``live`` equals a full redraw of ``ref``.

    The blitted frame draws moving artists over the cached axes, so the light shading tints the
    grid it sits under in a full draw: faint differences only. A missing or misplaced artist
    (a 2-px line is ~500 px here) would differ strongly.
    """
    for k in steps:
        live.render(k)
        got = np.asarray(live.fig.canvas.buffer_rgba()).copy()
        ref.show(k)
        ref.fig.canvas.draw()
        want = np.asarray(ref.fig.canvas.buffer_rgba())
        strong = np.any(np.abs(got.astype(int) - want) > 40, axis=-1)
        assert strong.mean() < 5e-4, f"step {k}: {strong.sum()} pixels differ from a full draw"
