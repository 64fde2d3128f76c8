"""A place clicked on the data plane as the answer to a question (issue 33, item 1: "Where will
the boundary move?"), checked the same way by the kernel (:mod:`explorer.app.question_state`)
and by the hall server (:mod:`explorer.serving.answers`). Plain Python, no numpy.

A point answer is two numbers ``[x, y]`` in the plane's data coordinates, finite and inside the
plane's box ``(x0, x1, y0, y1)``; it is kept rounded to the decimals that resolve a ten-thousandth of the
box's side (:data:`GRID`), so that it stays small and says nothing finer than a click can.

A line ``(w1, w2, b)`` is the boundary ``w1 x + w2 y + b = 0``; a place is on its + side when
``w1 x + w2 y + b > 0`` (the side the perceptron labels +1), else on its − side.
"""

from __future__ import annotations

import math

__all__ = ["GRID", "MAX_DOTS", "read_box", "read_point", "plus_side", "swept"]

#: A point answer is rounded to the box's side divided by this.
GRID = 10_000
#: The most answers' dots a room's reveal shows (and the server sends the presenter).
MAX_DOTS = 500


def _real(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def read_box(box) -> tuple | None:
    """``box`` as ``(x0, x1, y0, y1)`` floats with ``x0 < x1`` and ``y0 < y1``, or None."""
    if not isinstance(box, (list, tuple)) or len(box) != 4 or not all(map(_real, box)):
        return None
    x0, x1, y0, y1 = (float(v) for v in box)
    return (x0, x1, y0, y1) if x0 < x1 and y0 < y1 else None


def read_point(point, box) -> tuple | None:
    """A point answer checked: ``(x, y)`` rounded (:data:`GRID`), or None when it is not two
    finite numbers inside ``box`` (a box checked by :func:`read_box`)."""
    if (box is None or not isinstance(point, (list, tuple)) or len(point) != 2
            or not all(map(_real, point))):
        return None
    x0, x1, y0, y1 = box
    x, y = float(point[0]), float(point[1])
    slack = 1e-9 * max(x1 - x0, y1 - y0)
    if not (x0 - slack <= x <= x1 + slack and y0 - slack <= y <= y1 + slack):
        return None
    digits = _digits(box)
    return (min(max(round(x, digits), x0), x1), min(max(round(y, digits), y0), y1))


def _digits(box) -> int:
    """The decimals a place keeps: enough for a :data:`GRID`-th of the box's side."""
    return max(0, math.ceil(-math.log10(max(box[1] - box[0], box[3] - box[2]) / GRID)))


def plus_side(line, point) -> bool:
    """Whether ``point`` lies on the + side of ``line`` ``(w1, w2, b)``."""
    return line[0] * point[0] + line[1] * point[1] + line[2] > 0


def swept(before, after, point) -> bool:
    """Whether the boundary swept over ``point`` as it moved from ``before`` to ``after``: the
    place is on one side of the old line and on the other side of the new one (its label
    changes)."""
    return plus_side(before, point) != plus_side(after, point)
