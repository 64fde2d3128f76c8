""""Where will the boundary move?" (issue 33, item 1): a question answered by a place clicked
on the data plane, its fit and its truth worked out from a perceptron run's trajectory. No
widgets; :mod:`explorer.app.questions` registers it.

Asked at step ``k`` whose next step is an update, it asks for a place the boundary will sweep
over as it moves: a place on one side of the boundary of step ``k`` and on the other side of
the boundary of step ``k + 1`` (its label changes with the update). The truth is the next
state ``(w, b)`` of the run's record; a click is judged by
:func:`explorer.shared.plane_point.swept`. Revealing takes the step: the figure draws the new
boundary, the page the old one dashed and the answers as dots.
"""

from __future__ import annotations

import numpy as np

from ..perceptron.trajectory import Trajectory
from ..shared.number_format import number_text
from ..shared.plane_point import read_box

__all__ = ["SWEPT", "PANEL", "MIN_SHARE", "boundary_fits", "boundary_point", "swept_share"]

#: The tally's counts at the reveal: places the boundary swept over, and the others.
SWEPT = (("swept", "Swept over"), ("kept", "Not swept"))
#: The page figure's panel the place is clicked in.
PANEL = "plane"
#: The question is asked only where the boundary sweeps at least this share of the plane.
MIN_SHARE = 0.01
#: Sample points a side for the share of the plane the boundary sweeps over.
SHARE_GRID = 64


def _line(t: Trajectory, k: int) -> np.ndarray:
    w, b = t.state(k)
    return np.array([float(w[0]), float(w[1]), float(b)])


def swept_share(before, after, box, *, n: int = SHARE_GRID) -> float:
    """The share of the box ``(x0, x1, y0, y1)`` whose side changes from line ``before`` to
    line ``after`` (each ``(w1, w2, b)``), on an ``n`` x ``n`` grid of cell centres."""
    x0, x1, y0, y1 = box
    gx = x0 + (np.arange(n) + 0.5) * (x1 - x0) / n
    gy = y0 + (np.arange(n) + 0.5) * (y1 - y0) / n
    X, Y = np.meshgrid(gx, gy)
    side = [(a[0] * X + a[1] * Y + a[2]) > 0 for a in (before, after)]
    return float(np.mean(side[0] != side[1]))


def boundary_fits(t: Trajectory, X: np.ndarray, step: int, box) -> str:
    """"" when the question can be asked at ``step`` of run ``t`` on data ``X`` drawn in
    ``box``, else why not (the run's other checks, the last step shown, are the caller's)."""
    if X.shape[1] != 2:
        return (f"the boundary is a line of the data plane for data of two features; these "
                f"have {X.shape[1]}, drawn in the plane of w")
    if read_box(box) is None:
        return "the data plane is not drawn yet"
    k = int(step)
    if not bool(t.updated[k]):
        return (f"step {k + 1} makes no update, so the boundary stays: go to a step just "
                "before an update (Next update, then Back) to ask")
    before, after = _line(t, k), _line(t, k + 1)
    if not np.any(before[:2]):
        return (f"w = 0 at step {k}: there is no boundary yet to move; take a step and ask")
    if not np.any(after[:2]):
        return f"the update of step {k + 1} brings w to 0: there is no new boundary"
    if swept_share(before, after, box) < MIN_SHARE:
        return f"at step {k + 1} the boundary hardly moves inside the plane"
    return ""


def _vector(v) -> str:
    return "(" + ", ".join(number_text(float(x), digits=3) for x in v) + ")"


def boundary_point(t: Trajectory, step: int, box, *, what: str) -> dict:
    """The question's parts at ``step`` (where :func:`boundary_fits` is ""): ``detail``,
    ``explain`` and ``point`` (the panel, the box and the old and new lines, JSON-able);
    ``what``: the points step ``step + 1`` visits, in words."""
    k = int(step)
    before, after = _line(t, k), _line(t, k + 1)
    share = swept_share(before, after, box)
    detail = (f"Step {k + 1} visits {what} and updates w. Click (or tap) a place on the data "
              "plane that the boundary will sweep over: on one side of the line now, on the "
              "other side after the update.")
    explain = (f"The update takes w from {_vector(before[:2])} to {_vector(after[:2])} and b "
               f"from {number_text(before[2], digits=3)} to {number_text(after[2], digits=3)}. "
               f"The boundary swept over the places between the old line (dashed) and the new "
               f"one: about {100 * share:.0f}% of the plane changed sides.")
    point = {"panel": PANEL, "box": [float(v) for v in box],
             "before": [float(v) for v in before], "after": [float(v) for v in after]}
    return {"detail": detail, "explain": explain, "point": point}
