"""Points sent from one tab to another ("Open points in the Perceptron tab").

One typed value travels: the target tab, the points and labels, and the target's settings that
the sending tab chooses (e.g. XOR opens its points with the pocket rule). How a tab opens points
sent to it is declared once, in :data:`OPENING`; the dashboard turns a :class:`Handoff` into the
target's state with :meth:`Handoff.state` and loads it like any saved state (refused in words
if it does not fit).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from .state import points_of

__all__ = ["OPENING", "Handoff"]

#: What a tab sets, besides the points, when points are opened in it: the Perceptron tab runs
#: them from w = 0 in one cyclic pass order with η = 1; the Margins tab keeps its settings.
OPENING: dict[str, dict] = {
    "perceptron": {"dataset": "separable", "w0": [], "order": "cyclic", "custom_order": [],
                   "eta": 1.0},
    "margins": {},
}


@dataclass(frozen=True)
class Handoff:
    """Points for another tab.

    Parameters
    ----------
    tab : str
        The target tab's key, one of :data:`OPENING`.
    X : ndarray of shape (n, M), M >= 2
        The points (the Perceptron and Margins tabs both take data of M features).
    y : ndarray of shape (n,)
        Their labels, -1 or +1.
    settings : mapping, default {}
        The target's fields to set besides :data:`OPENING` (names of its ``StateSpec``).
    """

    tab: str
    X: np.ndarray
    y: np.ndarray
    settings: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self):
        if self.tab not in OPENING:
            raise ValueError(f"tab must be one of {sorted(OPENING)}; got {self.tab!r}")
        X = np.array(self.X, dtype=float)
        y = np.array(self.y).reshape(-1)
        if X.ndim != 2 or X.shape[1] < 2 or len(X) != len(y):  # both tabs take M features
            raise ValueError(f"expected X of shape (n, M), M >= 2, and y of shape (n,); got "
                             f"{X.shape} and {y.shape}")
        X.setflags(write=False)
        y.setflags(write=False)
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "y", y)
        object.__setattr__(self, "settings", dict(self.settings))

    def state(self) -> dict:
        """The target tab's state fields for these points (the rest stays at its defaults)."""
        return {**OPENING[self.tab], **self.settings, "points": points_of(self.X, self.y)}
