"""State of the Perceptron view: the data, the run's parameters, the run, and the step shown.

No widgets here. Every change goes through :meth:`PerceptronModel.update`, which builds the new
run first and only then commits it; a refused value leaves the last good state untouched and
says why in ``message``. The step shown is a plain integer: the view draws "the state at step
k" of the precomputed run, so a dropped front-end message can never desynchronise it.
"""

from __future__ import annotations

import numpy as np
from traitlets import Bool, Float, HasTraits, Instance, Int, List, Unicode

from .. import datasets
from ..perceptron import train
from ..replay import RunInfo, describe_run
from ..trajectory import Trajectory

#: Datasets offered in the view, with the parameters that make them two-dimensional.
VIEW_DATASETS = {
    "koski": ("Koski's worked example (6 points)", {}),
    "separable": ("Separable, random", {"dim": 2}),
    "overlapping": ("Overlapping blobs", {"dim": 2}),
    "and": ("AND (±1 inputs)", {}),
    "or": ("OR (±1 inputs)", {}),
    "nand": ("NAND (±1 inputs)", {}),
    "xor": ("XOR (±1 inputs)", {}),
    "iris": ("Iris, setosa vs rest (PCA)", {}),
    "breast_cancer": ("Breast cancer (PCA to 2-D)", {"k": 2}),
}
ORDERS = {"cyclic": "cyclic passes", "shuffle": "reshuffled passes", "random": "i.i.d. random",
          "custom": "custom sequence"}
KOSKI_PRESET = {"eta": 0.2, "w0": "1, 0.5", "order": "custom", "custom_order": "5, 3, 1, 2, 4, 6",
                "rule": "classic", "fit_intercept": True}
GENERIC_PRESET = {"eta": 1.0, "w0": "", "order": "cyclic", "custom_order": ""}
MAX_VIEW_STEPS = 200_000

PARAMS = ("dataset", "n", "margin", "seed", "rule", "eta", "forget", "rho", "order",
          "custom_order", "w0", "fit_intercept", "max_epochs", "choose_mode")


def parse_numbers(text: str, *, name: str) -> list[float]:
    """Parse "1, 0.5" or "5 3 1" into numbers, with a message naming the field on failure."""
    parts = [p for p in text.replace(";", ",").replace(",", " ").split() if p]
    try:
        return [float(p) for p in parts]
    except ValueError:
        bad = next(p for p in parts if not _isfloat(p))
        raise ValueError(f"{name} must be numbers separated by commas; got {bad!r}") from None


def _isfloat(s):
    try:
        float(s)
    except ValueError:
        return False
    return True


class PerceptronModel(HasTraits):
    """Everything the Perceptron view shows, as traits (see module docstring)."""

    dataset = Unicode("koski")
    n = Int(40)
    margin = Float(0.3)
    seed = Int(0)
    rule = Unicode("classic")
    eta = Float(0.2)
    forget = Float(1.0)
    rho = Float(0.01)
    order = Unicode("custom")
    custom_order = Unicode(KOSKI_PRESET["custom_order"])
    w0 = Unicode(KOSKI_PRESET["w0"])
    fit_intercept = Bool(True)
    max_epochs = Int(50)
    choose_mode = Bool(False)
    chosen = List(Int())

    X = Instance(np.ndarray, allow_none=True)
    y = Instance(np.ndarray, allow_none=True)
    edited = Bool(False)
    trajectory = Instance(Trajectory, allow_none=True)
    info = Instance(RunInfo, allow_none=True)
    step = Int(0)
    message = Unicode("")

    def __init__(self, **params):
        super().__init__()
        ok = self.update(**params) if params else self.update(dataset=self.dataset)
        if not ok:
            raise ValueError(self.message)

    # ------------------------------------------------------------------ building
    def _load(self, p) -> datasets.Dataset:
        name = p["dataset"]
        if name not in VIEW_DATASETS:
            raise ValueError(f"unknown dataset {name!r}; expected one of {list(VIEW_DATASETS)}")
        extra = dict(VIEW_DATASETS[name][1])
        if name in ("separable", "overlapping"):
            extra.update(n=p["n"], seed=p["seed"])
        if name == "separable":
            extra["margin"] = p["margin"]
        return datasets.load(name, **extra)

    def _run(self, p, X, y, chosen) -> Trajectory:
        w0 = parse_numbers(p["w0"], name="start w") if p["w0"].strip() else None
        if w0 is not None and len(w0) != X.shape[1]:
            raise ValueError(f"start w needs {X.shape[1]} numbers; got {len(w0)}")
        kw = dict(rule=p["rule"], eta=p["eta"], forget=p["forget"], rho=p["rho"],
                  fit_intercept=p["fit_intercept"], w0=w0, max_epochs=p["max_epochs"],
                  seed=p["seed"])
        if p["choose_mode"]:
            order = chosen or [0]
            return train(X, y, order=order, max_steps=len(chosen), **kw)
        if p["order"] == "custom":
            seq = parse_numbers(p["custom_order"], name="custom order")
            if not seq or any(v != int(v) or not 1 <= v <= len(X) for v in seq):
                raise ValueError(f"custom order must list point numbers from 1 to {len(X)}; "
                                 f"got {p['custom_order']!r}")
            order = [int(v) - 1 for v in seq]
            order += [i for i in range(len(X)) if i not in order]
        else:
            order = p["order"]
        if p["order"] not in ORDERS:
            raise ValueError(f"unknown order {p['order']!r}; expected one of {list(ORDERS)}")
        steps_per_epoch = len(order) if isinstance(order, list) else len(X)
        cap = min(p["max_epochs"] * steps_per_epoch, MAX_VIEW_STEPS)
        return train(X, y, order=order, max_steps=cap, **kw)

    def update(self, **changes) -> bool:
        """Apply parameter changes if they give a valid run; return whether they were applied.

        A refused change keeps the current state and sets ``message`` to the reason.
        """
        unknown = set(changes) - set(PARAMS)
        if unknown:
            raise TypeError(f"unknown parameters {sorted(unknown)}; expected some of {PARAMS}")
        p = {k: getattr(self, k) for k in PARAMS}
        if "dataset" in changes and changes["dataset"] != self.dataset:
            # Koski's example comes with its start, step size and visiting order; leaving it
            # restores the plain defaults (its custom order names points other sets lack).
            if changes["dataset"] == "koski":
                p.update(KOSKI_PRESET)
            elif self.dataset == "koski":
                p.update(GENERIC_PRESET)
        p.update(changes)
        try:
            for key, label in (("n", "n"), ("max_epochs", "max epochs")):
                if not isinstance(p[key], (int, np.integer)) or p[key] < 1:
                    raise ValueError(f"{label} must be a whole number >= 1; got {p[key]!r}")
            data_keys = {"dataset", "n", "margin", "seed"}
            if self.X is None or data_keys & set(changes) and any(
                    changes[k] != getattr(self, k) for k in data_keys & set(changes)):
                ds = self._load(p)
                X, y, edited = np.array(ds.X), np.array(ds.y), False
            else:
                X, y, edited = self.X, self.y, self.edited
            chosen = [] if (not p["choose_mode"] or X is not self.X) else list(self.chosen)
            traj = self._run(p, X, y, chosen)
            info = describe_run(traj, X, y)
        except (ValueError, TypeError) as exc:
            self.message = f"Not applied: {exc}. Kept the previous settings."
            return False
        self._commit(p, X, y, edited, chosen, traj, info)
        return True

    def _commit(self, p, X, y, edited, chosen, traj, info, *, step=0, message=""):
        with self.hold_trait_notifications():
            for k in PARAMS:
                setattr(self, k, p[k])
            self.X, self.y, self.edited, self.chosen = X, y, edited, chosen
            self.info = info
            self.trajectory = traj
            self.step = min(step, traj.n_steps)
            self.message = message or self._status(traj)

    def _status(self, traj) -> str:
        if self.choose_mode:
            return "You choose: click a point to visit it next."
        if traj.n_steps >= MAX_VIEW_STEPS:
            return f"The run was cut at {MAX_VIEW_STEPS} steps for the view."
        return ""

    # ------------------------------------------------------------------ steps
    def go(self, k: int) -> None:
        """Show step ``k`` (clamped to the run)."""
        self.step = int(min(max(k, 0), self.trajectory.n_steps))

    # ------------------------------------------------------------------ editing
    def _retrain(self, X, y, chosen, *, edited: bool, step=None) -> bool:
        p = {k: getattr(self, k) for k in PARAMS}
        try:
            datasets.from_arrays(X, y)
            traj = self._run(p, X, y, chosen)
            info = describe_run(traj, X, y)
        except (ValueError, TypeError) as exc:
            self.message = f"Not applied: {exc}. Kept the previous data."
            return False
        self._commit(p, X, y, edited, chosen, traj, info,
                     step=traj.n_steps if step is None else step)
        return True

    def add_point(self, x1: float, x2: float, label: int) -> bool:
        """Add a point of class ``label`` (+1 or -1); the run is recomputed from step 0."""
        if label not in (1, -1):
            self.message = f"Not applied: a new point's class must be +1 or -1; got {label!r}."
            return False
        X = np.vstack([self.X, [[float(x1), float(x2)]]])
        y = np.append(self.y, float(label))
        return self._retrain(X, y, [], edited=True, step=0)

    def remove_point(self, i: int) -> bool:
        """Remove point ``i`` (0-based); refused if it would leave one class or no point."""
        if not 0 <= i < len(self.X):
            self.message = f"Not applied: no point {i + 1}."
            return False
        if len(self.X) == 1:
            self.message = "Not applied: the data must keep at least one point."
            return False
        keep = np.arange(len(self.X)) != i
        custom = self.custom_order
        if self.order == "custom" and custom.strip():
            # renumber the visiting sequence: drop the removed point, shift the later ones
            try:
                seq = [int(v) for v in parse_numbers(custom, name="custom order")]
            except ValueError:
                seq = []
            self.custom_order = ", ".join(str(v - (v > i + 1)) for v in seq if v != i + 1)
        if not self._retrain(self.X[keep], self.y[keep], [], edited=True, step=0):
            self.custom_order = custom
            return False
        return True

    def choose(self, i: int) -> bool:
        """"You choose" mode: visit point ``i`` next, as in Koski's worked example."""
        if not self.choose_mode:
            self.message = "Turn on 'You choose' to pick the points yourself."
            return False
        return self._retrain(self.X, self.y, [*self.chosen, int(i)], edited=self.edited)

    def nearest_point(self, x1: float, x2: float, radius: float) -> int | None:
        """Index of the point nearest ``(x1, x2)`` within ``radius``, else None."""
        d = np.hypot(self.X[:, 0] - x1, self.X[:, 1] - x2)
        i = int(np.argmin(d))
        return i if d[i] <= radius else None
