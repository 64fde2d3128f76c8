"""XOR and the other Boolean functions of two inputs, and three ways around non-separability.

* :data:`FUNCTIONS`: the 16 Boolean functions of two inputs, numbered by their truth table read
  as a binary number over the inputs ``(0,0), (0,1), (1,0), (1,1)`` (XOR = 0110 = 6). Fourteen
  are linearly separable, XOR and XNOR are not (Sayed, appendix 60.B, Fig. 60.12;
  ``docs/mathematics.md#two-inputs``).
* :func:`lift`: the feature map ``(x1, x2) -> (x1, x2, x1 x2)``. In three coordinates the four
  corners are affinely independent, so every labelling of them, XOR included, is separable by a
  plane (Hardt & Recht (2022), ch. 3: "add the XOR to the feature vector").
* :func:`two_layer`: hidden perceptrons (e.g. OR and NAND) whose outputs are new coordinates in
  which the function is separable; an output perceptron (AND for XOR) finishes the job
  (Sayed P60.3: XOR from NAND gates). Every unit is trained by the classic perceptron.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..perceptron.cycles import ExactRun, exact_run
from ..shared.separability import check
from ..shared.validation import as_features, check_int

__all__ = ["BoolFunction", "FUNCTIONS", "function", "boolean_points", "lift", "HIDDEN_PAIRS",
           "TwoLayer", "two_layer", "unit_output", "XOR", "XNOR"]

CODINGS = ("pm1", "01")
XOR, XNOR = 6, 9


@dataclass(frozen=True)
class BoolFunction:
    """One Boolean function of two inputs.

    Attributes
    ----------
    code : int in [0, 15]
        Its truth table ``(f(0,0), f(0,1), f(1,0), f(1,1))`` read as a binary number.
    name : str
        Short name ("XOR", "x1 AND NOT x2").
    truth : tuple of int
        The four outputs, 0 or 1.
    """

    code: int
    name: str
    truth: tuple

    @property
    def bits(self) -> str:
        return "".join(map(str, self.truth))

    @property
    def labels(self) -> np.ndarray:
        """Class labels of the four corners: +1 where the function is 1, else -1."""
        return np.array([1.0 if t else -1.0 for t in self.truth])


_NAMES = ["FALSE", "AND", "x1 AND NOT x2", "x1", "NOT x1 AND x2", "x2", "XOR", "OR", "NOR",
          "XNOR", "NOT x2", "x1 OR NOT x2", "NOT x1", "NOT x1 OR x2", "NAND", "TRUE"]
FUNCTIONS = tuple(BoolFunction(c, _NAMES[c], tuple(int(b) for b in f"{c:04b}"))
                  for c in range(16))


def function(code) -> BoolFunction:
    """The function numbered ``code`` (0..15; XOR = 6, XNOR = 9, AND = 1, OR = 7, NAND = 14)."""
    return FUNCTIONS[check_int(code, name="function number", minimum=0, maximum=15)]


def _coding(coding: str) -> str:
    if coding not in CODINGS:
        raise ValueError(f"coding must be 'pm1' (inputs ±1) or '01' (inputs 0/1); got {coding!r}")
    return coding


def boolean_points(code, *, coding: str = "pm1"):
    """The four corners and labels of function ``code``: ``X`` (4, 2), ``y`` (4,).

    Corners in the order ``(0,0), (0,1), (1,0), (1,1)`` as in :mod:`explorer.shared.datasets`, coded
    ``pm1`` (0 -> -1) or ``01``.
    """
    f = function(code)
    bits = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
    X = 2 * bits - 1 if _coding(coding) == "pm1" else bits
    return X, f.labels


def lift(X) -> np.ndarray:
    """The feature map ``phi(x) = (x1, x2, x1 x2)``, shape (n, 2) -> (n, 3)."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"lift expects points of shape (n, 2); got {X.shape}")
    X = as_features(X)  # finite, and small enough for the product x1 x2
    return np.column_stack([X, X[:, 0] * X[:, 1]])


#: Hidden pairs offered for the two-layer network: key -> (title, hidden codes).
HIDDEN_PAIRS = {
    "or_nand": ("OR and NAND", (7, 14)),
    "and_nor": ("AND and NOR", (1, 8)),
    "one_only": ("x1 AND NOT x2, NOT x1 AND x2", (2, 4)),
}


def unit_output(X, w, b) -> np.ndarray:
    """A perceptron unit's output: +1 where ``<w, x> + b >= 0``, else -1."""
    return np.where(np.asarray(X, dtype=float) @ np.asarray(w, dtype=float) + b >= 0, 1.0, -1.0)


@dataclass(frozen=True)
class TwoLayer:
    """A two-layer network of perceptrons for one Boolean function.

    Attributes
    ----------
    code : int; pair : str
        The function learned and the hidden pair (key of :data:`HIDDEN_PAIRS`).
    X, y : ndarray (4, 2), (4,)
        The corners and the labels.
    hidden : tuple of ExactRun
        The two hidden units' runs (each converges: its function is separable).
    H : ndarray (4, 2)
        Hidden coordinates: the two hidden outputs (±1) at each corner.
    output : ExactRun
        The output unit's run on ``(H, y)``.
    separable : bool
        Whether the labels are linearly separable in the hidden coordinates.
    predictions : ndarray (4,)
        The network's outputs at the corners with the output unit's final weights.
    """

    code: int
    pair: str
    X: np.ndarray
    y: np.ndarray
    hidden: tuple
    H: np.ndarray
    output: ExactRun
    separable: bool
    predictions: np.ndarray

    def hidden_lines(self):
        """``[(w, b), (w, b)]`` of the two hidden units (final weights)."""
        return [(r.trajectory.final_w, r.trajectory.final_b) for r in self.hidden]

    def forward(self, points, k: int | None = None) -> np.ndarray:
        """The network's output at ``points`` (m, 2), with the output unit after step ``k``
        (default: its last step)."""
        P = np.atleast_2d(np.asarray(points, dtype=float))
        H = np.column_stack([unit_output(P, w, b) for w, b in self.hidden_lines()])
        t = self.output.trajectory
        w, b = t.state(t.n_steps if k is None else k)
        return unit_output(H, w, b)


def two_layer(code=XOR, *, pair: str = "or_nand", coding: str = "pm1",
              max_steps: int = 400) -> TwoLayer:
    """Train the hidden units on their own functions, then the output unit on the hidden
    coordinates, each with the classic perceptron in cyclic order from ``w = 0`` (exactly)."""
    if pair not in HIDDEN_PAIRS:
        raise ValueError(f"pair must be one of {sorted(HIDDEN_PAIRS)}; got {pair!r}")
    X, y = boolean_points(code, coding=coding)
    hidden = tuple(exact_run(X, function(h).labels, max_steps=max_steps)
                   for h in HIDDEN_PAIRS[pair][1])
    H = np.column_stack([unit_output(X, r.trajectory.final_w, r.trajectory.final_b)
                         for r in hidden])
    out = exact_run(H, y, max_steps=max_steps)
    sep = len(np.unique(y)) < 2 or check(H, y).separable
    t = out.trajectory
    pred = unit_output(H, t.final_w, t.final_b)
    return TwoLayer(function(code).code, pair, X, y, hidden, H, out, bool(sep), pred)


def separable_functions(coding: str = "pm1") -> list:
    """Codes of the functions whose corners a line separates (by the LP of
    :func:`explorer.shared.separability.check`); the constants count as separable."""
    out = []
    for f in FUNCTIONS:
        X, y = boolean_points(f.code, coding=coding)
        if len(np.unique(y)) < 2 or check(X, y).separable:
            out.append(f.code)
    return out


#: Views of the XOR tab (and of :class:`explorer.plots.xor.XorFigure`).
VIEWS = ("cycling", "proof", "grid", "feature", "layers", "kernel")


@dataclass(frozen=True)
class Scene:
    """Everything the XOR views draw for one function, coding and set of settings.

    Attributes
    ----------
    code, coding : int, str
    X, y : ndarray (4, 2), (4,)
    run : ExactRun
        The classic perceptron with the pocket (rule "pocket": same iterates as classic),
        cyclic order from ``w = 0``, ``passes`` passes.
    info : explorer.perceptron.replay.RunInfo
        Bound, separability and certificate of that run.
    separability : explorer.shared.separability.Separability
    grid : tuple of ExactRun
        One run per function (codes 0..15), for the grid of 16.
    lifted : ExactRun
        The classic perceptron on ``lift(X)``.
    net : TwoLayer
    kernel : explorer.xor.kernel_perceptron.KernelRun
    """

    code: int
    coding: str
    X: np.ndarray
    y: np.ndarray
    run: ExactRun
    info: object
    separability: object
    grid: tuple
    lifted: ExactRun
    net: TwoLayer
    kernel: object

    def steps(self, view: str) -> int:
        """Number of steps of the run the timeline plays in ``view`` (0: nothing to play)."""
        if view == "cycling":
            return self.run.trajectory.n_steps
        if view == "feature":
            return self.lifted.trajectory.n_steps
        if view == "layers":
            return self.net.output.trajectory.n_steps
        if view == "kernel":
            return self.kernel.n_steps
        return 0

    def update_steps(self, view: str) -> np.ndarray:
        """The (1-based) update steps of that run, for the timeline's jumps."""
        runs = {"cycling": self.run.trajectory, "feature": self.lifted.trajectory,
                "layers": self.net.output.trajectory, "kernel": self.kernel}
        r = runs.get(view)
        return np.zeros(0, dtype=np.int64) if r is None else np.asarray(r.update_steps)


def build_scene(code=XOR, *, coding: str = "pm1", eta: float = 1.0, passes: int = 6,
                degree: int = 2, c: float = 1.0, pair: str = "or_nand") -> Scene:
    """Compute every view's results for function ``code`` (all exact and small: 4 points).

    ``passes`` (1..500) passes of the cycling run; ``degree`` and ``c`` of the kernel
    ``(<x, x'> + c)^degree``; ``pair`` the two-layer network's hidden units.
    """
    from ..perceptron.replay import describe_run
    from . import kernel_perceptron

    passes = check_int(passes, name="passes", minimum=1, maximum=500)
    X, y = boolean_points(code, coding=coding)
    run = exact_run(X, y, eta=eta, rule="pocket", max_steps=4 * passes)
    # the Cycling view narrates the exact run's own cycle (explorer.plots.xor_steps)
    info = replace(describe_run(run.trajectory, X, y), cycle=None)
    sep = check(X, y)
    grid = tuple(exact_run(*boolean_points(k, coding=coding), eta=eta, max_steps=400)
                 for k in range(16))
    lifted = exact_run(lift(X), y, eta=eta, max_steps=4 * max(passes, 50))
    net = two_layer(code, pair=pair, coding=coding, max_steps=4 * max(passes, 50))
    kern = kernel_perceptron.train_kernel(X, y, degree=degree, c=c, max_epochs=max(passes, 50))
    return Scene(function(code).code, coding, X, y, run, info, sep, grid, lifted, net, kern)


def pocket_errors_over_orders(code=XOR, *, coding: str = "pm1", max_steps: int = 40) -> dict:
    """The pocket's final training error for each of the ``4! = 24`` fixed visiting orders
    (classic iterates from ``w = 0``, exact arithmetic): ``{order: error}``."""
    import itertools

    X, y = boolean_points(code, coding=coding)
    return {p: exact_run(X, y, rule="pocket", max_steps=max_steps, order=list(p))
            .trajectory.pocket_error for p in itertools.permutations(range(4))}


def convergence_table(*, coding: str = "pm1", max_steps: int = 400) -> list[str]:
    """One line per Boolean function of two inputs: its code, name and truth table, and what
    the classic perceptron does on it (cyclic passes from ``w = 0``): converges after so many
    updates, or the cycle it falls into."""
    rows = []
    for f in FUNCTIONS:
        r = exact_run(*boolean_points(f.code, coding=coding), max_steps=max_steps)
        t = r.trajectory
        c = r.cycle
        what = (f"converged after {t.n_updates} update{'s' * (t.n_updates != 1)}"
                if t.converged else
                f"cycles: length {c.length} found at step {c.step}" if c is not None and c.found
                else f"no convergence in {max_steps} steps")
        rows.append(f"{f.code:2d}  {f.name:14s} {''.join(map(str, f.bits))}  {what}")
    return rows
