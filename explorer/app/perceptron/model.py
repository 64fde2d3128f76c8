"""State of the Perceptron tab: the data, the run's parameters, the run, and the step shown.

No widgets here. The tab's state is declared once in :data:`SPEC` (name, kind, default, range,
label); the same table parses what users type, resets, saves to JSON and encodes the URL.
Every change goes through :meth:`PerceptronModel.update`, which builds the new run first and
only then commits it: a refused value leaves the last good state untouched and says why in
``message``, in the words of the labels on screen. The step shown is a plain integer: the view
draws "the state at step k" of the precomputed run, so a dropped front-end message can never
desynchronise it.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Mapping

import numpy as np
from traitlets import Bool, Instance

from ...perceptron import RULES, train
from ...perceptron.race import MAX_RACERS, Race, race
from ...perceptron.replay import SOLVER_MODULES, RunInfo, describe_run, pending_run
from ...perceptron.trajectory import Trajectory
from ...shared import datasets
from ...shared.i18n import N_, tr
from ..remarks import numbered, one_line_text, same_point_text
from ..state import Control, Field, StateSpec, arrays_of, points_of
from ..tab_model import state_model

#: Datasets offered in the view: key -> (title, parameters, registry name when not the key).
#: Data of more than two features are trained in their own dimension and drawn in a 3-D view
#: (three: explorer.plots.data3d; "iris3" is petal length, petal width, sepal length) or in
#: each step's plane that contains w (more: explorer.plots.plane_of_w).
VIEW_DATASETS = {
    "koski": ("Koski's worked example (6 points)", {}),
    "separable": ("Separable, random", {}),  # of the dimension the field "dim" gives
    "overlapping": ("Overlapping blobs", {}),
    "and": ("AND (±1 inputs)", {}),
    "or": ("OR (±1 inputs)", {}),
    "nand": ("NAND (±1 inputs)", {}),
    "xor": ("XOR (±1 inputs)", {}),
    "iris": ("Iris, setosa vs rest (PCA)", {}),
    "breast_cancer": ("Breast cancer (PCA to 2-D)", {"k": 2}),
    "iris3": ("Iris 3-D, setosa vs rest", {"features": (2, 3, 0)}, "iris"),
    "iris4": ("Iris 4-D, setosa vs rest", {"features": "all"}, "iris"),
    "iris4_hard": ("Iris 4-D, versicolor/virginica",
                   {"features": "all", "classes": "versicolor_vs_virginica"}, "iris"),
    "digits38": ("Handwritten 3 vs 8 (64 pixels)", {"pair": (3, 8)}, "digits"),
    "breast_cancer30": ("Breast cancer (30 features)", {}, "breast_cancer"),
}
#: Most features of the tab's data (the most of any data set it offers, and of a person's CSV,
#: trained in its own dimension): the start w and the points of a link have at most as many.
MAX_FEATURES = 64
ORDERS = {"cyclic": "cyclic passes", "shuffle": "reshuffled passes", "random": "i.i.d. random",
          "custom": "custom sequence"}
KOSKI_PRESET = {"eta": 0.2, "w0": [1.0, 0.5], "order": "custom", "custom_order": [5, 3, 1, 2, 4, 6],
                "rule": "classic", "fit_intercept": True, "batch": 1}
GENERIC_PRESET = {"eta": 1.0, "w0": [], "order": "cyclic", "custom_order": []}
MAX_VIEW_STEPS = 200_000
MAX_POINTS = 2000
#: Largest |w| a run may reach and still be drawn: its squares must not overflow.
MAX_WEIGHT = 1e100



def _random_data(m) -> bool:
    """Whether the points are drawn at random (n and the seed's data apply)."""
    return m.dataset in ("separable", "overlapping") and not m.edited


def _uses(m) -> set:
    """The parameters the tab's rule and its racers use."""
    return {u for r in (m.rule, *m.race) for u in RULES[r].uses}


def _clicked(m) -> bool:
    """Whether the points are taken from a list (not chosen by clicks: "you choose")."""
    return not m.choose_mode


FIELDS = [
    Field("dataset", N_("data set"), "choice", "koski", choices=tuple(VIEW_DATASETS)),
    # n greyed out shows how many points are shown
    Field("n", N_("n"), "int", 40, min=1, max=MAX_POINTS, control=Control(
        "text", enabled=_random_data, off_shows=lambda m: str(len(m.X)))),
    # the random sets' dimension M, trained in it; greyed out shows the features of the data shown
    Field("dim", N_("features"), "int", 2, min=2, max=MAX_FEATURES, control=Control(
        "text", enabled=_random_data, off_shows=lambda m: str(m.X.shape[1]),
        help=N_("How many features the random points have (M): trained in M dimensions"))),
    Field("margin", N_("margin"), "float", 0.3, min=0.0, max=1.0, control=Control(
        "slider", step=0.05, enabled=lambda m: m.dataset == "separable" and not m.edited)),
    Field("seed", N_("seed"), "int", 0, min=0, max=2**31 - 1, control=Control(
        "text", enabled=lambda m: _random_data(m) or m.order in ("shuffle", "random"))),
    Field("rule", N_("rule"), "choice", "classic", choices=tuple(RULES), control=Control(
        "menu", description=N_("Rule"), titles=[(k, r.title) for k, r in RULES.items()])),
    # rules racing the tab's rule in sync (explorer.perceptron.race); none: the tab's rule alone
    Field("race", N_("race against"), "choices", [], choices=tuple(RULES), max_len=MAX_RACERS - 1,
          optional=True),
    Field("eta", N_("η"), "float", GENERIC_PRESET["eta"], min=0.0, min_open=True, max=1e6,
          control=Control("text")),
    Field("forget", N_("forget γ"), "float", 1.0, min=0.0, min_open=True, max=1.0,
          control=Control("text", enabled=lambda m: "forget" in _uses(m))),
    Field("rho", N_("ρ"), "float", 0.01, min=0.0, max=1e3,
          control=Control("text", enabled=lambda m: "rho" in _uses(m))),
    Field("order", N_("order"), "choice", GENERIC_PRESET["order"], choices=tuple(ORDERS),
          control=Control("menu", description=N_("Order"), titles=ORDERS.items(), enabled=_clicked)),
    Field("custom_order", N_("sequence"), "ints", GENERIC_PRESET["custom_order"], item_min=1,
          item_max=MAX_POINTS, max_len=100_000, optional=True, control=Control(
              "text", placeholder=N_("e.g. 5, 3, 1"),
              enabled=lambda m: m.order == "custom" and not m.choose_mode)),
    Field("w0", N_("start w"), "floats", GENERIC_PRESET["w0"], item_min=-1e6, item_max=1e6,
          max_len=MAX_FEATURES,
          optional=True, control=Control("text", placeholder=N_("0, 0 (empty = zero)"))),
    Field("fit_intercept", N_("fit offset b"), "bool", True, control=Control("check")),
    Field("max_epochs", N_("max epochs"), "int", 50, min=1, max=100_000, control=Control("text")),
    # one point per click in "you choose"
    Field("batch", N_("batch size"), "int", 1, min=1, max=MAX_POINTS,
          control=Control("text", enabled=_clicked)),
    Field("choose_mode", N_("you choose"), "bool", False),
    Field("chosen", N_("points chosen"), "ints", [], item_min=1, item_max=MAX_POINTS,
          max_len=10_000, optional=True),
    # points of any number of features (a CSV of three is trained in three dimensions)
    Field("points", N_("edited points"), "points", [], max_len=MAX_POINTS, item_min=-1e12,
          item_max=1e12, optional=True, max_features=MAX_FEATURES),
    Field("step", N_("step"), "int", 0, min=0, max=10**9),  # past the run's end: its last step
]


class PresetSpec:
    """The tab's declared state, whose defaults follow the data set: Koski's example brings
    its own start, step size and sequence, so a link leaves out what the data set implies.

    Same interface as :class:`~explorer.app.state.StateSpec` (which it wraps twice: generic
    defaults, and Koski's).
    """

    def __init__(self, fields):
        self.generic = StateSpec("perceptron", fields)
        self.koski = StateSpec("perceptron", [
            dataclasses.replace(f, default=KOSKI_PRESET.get(f.name, f.default)) for f in fields])
        self.tab = self.generic.tab
        self.names = self.generic.names

    def _for(self, values):
        koski = not isinstance(values, Mapping) or values.get("dataset", "koski") == "koski"
        return self.koski if koski else self.generic  # not a mapping: validate says so

    def field(self, name):
        return self.generic.field(name)

    def defaults(self) -> dict:
        return self.koski.defaults()

    def validate(self, values) -> dict:
        return self._for(values).validate(values)

    def to_query(self, values) -> str:
        return self._for(values).to_query(values)

    def to_json(self, values, **kw) -> str:
        return self._for(values).to_json(values, **kw)

    def _reparse(self, method, source, **kw):
        """Read twice: the data set first, then every setting with that data set's defaults
        (a refused setting keeps the default of the data set the source names)."""
        values, problems = getattr(self.generic, method)(source, **kw)
        if values is None:
            return values, problems
        return getattr(self._for(values), method)(source, **kw)

    def from_query(self, query):
        return self._reparse("from_query", query)

    def from_json(self, text, **kw):
        return self._reparse("from_json", text, **kw)

    def read_doc(self, doc, **kw):
        return self._reparse("read_doc", doc, **kw)


SPEC = PresetSpec(FIELDS)
#: The run's parameters: every field but the points chosen, the edited points and the step.
PARAMS = tuple(name for name in SPEC.names if name not in ("chosen", "points", "step"))


def solvers_loaded() -> bool:
    """Whether the modules :func:`explorer.perceptron.replay.describe_run` needs are imported."""
    return all(name in sys.modules for name in SOLVER_MODULES)


class PerceptronModel(state_model(SPEC, without=("points",), params=PARAMS)):
    """Everything the Perceptron tab shows, as traits (see module docstring): one per field of
    :data:`SPEC` (defaults: Koski's example) but ``points`` (the data ``X``, ``y`` and whether
    they are ``edited``), and the run. ``chosen`` holds the points chosen numbered from 0; the
    state numbers them from 1, as the page does."""

    X = Instance(np.ndarray, allow_none=True)
    y = Instance(np.ndarray, allow_none=True)
    edited = Bool(False)
    trajectory = Instance(Trajectory, allow_none=True)
    info = Instance(RunInfo, allow_none=True)
    #: The race shown (the tab's rule first, then ``race``'s others), or None.
    racing = Instance(Race, allow_none=True)

    _pending = False  # the next build uses pending_run (set during __init__ only)

    def __init__(self, *, describe_later: bool = False, **params):
        """``describe_later``: if the solvers of :func:`explorer.perceptron.replay.describe_run` are not
        imported yet, the first run is committed with the stand-in of
        :func:`explorer.perceptron.replay.pending_run` and the caller calls :meth:`describe` once they
        are (the page shows the run first; see :class:`~explorer.app.perceptron.PerceptronView`).
        """
        super().__init__()
        self._pending = describe_later and not solvers_loaded()
        try:
            ok = self.update(**params) if params else self.update(dataset=self.dataset)
        finally:
            self._pending = False
        if not ok:
            raise ValueError(self.message)

    def describe(self) -> bool:
        """Replace a pending description of the run shown by the real one; return whether
        anything changed (False when the run was already described)."""
        if self.info is None or not self.info.pending:
            return False
        self.info = describe_run(self.trajectory, self.X, self.y)
        if self.refusal is None:  # the note may depend on the verdict
            self.message = self._status(self.trajectory)
        return True

    # ------------------------------------------------------------------ building
    def _load(self, p) -> datasets.Dataset:
        name = p["dataset"]
        extra = dict(VIEW_DATASETS[name][1])
        registry = VIEW_DATASETS[name][2] if len(VIEW_DATASETS[name]) > 2 else name
        if name in ("separable", "overlapping"):
            extra.update(n=p["n"], dim=p["dim"], seed=p["seed"])
        if name == "separable":
            extra["margin"] = p["margin"]
        return datasets.load(registry, **extra)

    def _run(self, p, X, y, chosen) -> tuple[Trajectory, Race | None]:
        """The run of the tab's rule, and the race when ``race`` names other rules (the
        tab's rule's run is then the race's first)."""
        kw = self._train_args(p, X, chosen)
        others = [r for r in p["race"] if r != p["rule"]]
        if not others:
            return train(X, y, rule=p["rule"], **kw), None
        if p["choose_mode"]:
            raise ValueError(tr("rules race on their own visiting order; 'you choose' picks the "
                                "points for one rule: clear 'race against' or leave 'you "
                                "choose'"))
        r = race(X, y, rules=[p["rule"], *others], **kw)
        return r.runs[0], r

    def _train_args(self, p, X, chosen) -> dict:
        """Every argument of :func:`explorer.perceptron.train` the settings give but the rule."""
        w0 = list(p["w0"]) or None
        if w0 is not None and len(w0) != X.shape[1]:
            raise ValueError(tr("start w needs {n} numbers; got {got}").format(n=X.shape[1],
                                                                            got=len(w0)))
        if "rho" in RULES[p["rule"]].uses and p["eta"] * p["rho"] >= 0.5:
            raise ValueError(tr("η·ρ must be below 0.5, so that the decay 1 − 2ηρ stays "
                                "positive; got η = {eta}, ρ = {rho}").format(
                eta=f"{p['eta']:g}", rho=f"{p['rho']:g}"))
        kw = dict(eta=p["eta"], forget=p["forget"], rho=p["rho"],
                  fit_intercept=p["fit_intercept"], w0=w0, max_epochs=p["max_epochs"],
                  seed=p["seed"])
        if p["choose_mode"]:  # one point per click: the batch size waits until the mode ends
            if any(not 0 <= i < len(X) for i in chosen):
                raise ValueError(tr("points chosen must be numbers from 1 to {n}").format(
                    n=len(X)))
            return dict(kw, order=chosen or [0], max_steps=len(chosen))
        if p["batch"] > len(X):
            raise ValueError(tr("batch size must be at most the number of points, {n}; got "
                                "{got}").format(n=len(X), got=p["batch"]))
        if p["order"] == "custom":
            seq = p["custom_order"]
            if not seq or any(not 1 <= v <= len(X) for v in seq):
                shown = ", ".join(map(str, seq[:8])) + (", …" if len(seq) > 8 else "")
                raise ValueError(tr("sequence must list point numbers from 1 to {n}; got "
                                    "{got}").format(n=len(X), got=shown) if shown else
                                 tr("sequence must list point numbers from 1 to {n}; got "
                                    "nothing").format(n=len(X)))
            order = [v - 1 for v in seq]
            order += [i for i in range(len(X)) if i not in set(order)]
        else:
            order = p["order"]
        visits = len(order) if isinstance(order, list) else len(X)
        cap = min(p["max_epochs"] * -(-visits // p["batch"]), MAX_VIEW_STEPS)
        return dict(kw, order=order, max_steps=cap, batch_size=p["batch"])

    def _build(self, p, X, y, chosen):
        """Train and describe a run (and its race, or None); refuse runs whose numbers
        overflow (they cannot be drawn)."""
        with np.errstate(over="ignore", invalid="ignore"):
            traj, racing = self._run(p, X, y, chosen)
            for t in (traj,) if racing is None else racing.runs:
                big = float(np.max(np.abs(t.weights))) if t.weights.size else 0.0
                bmax = float(np.max(np.abs(t.biases))) if t.biases.size else 0.0
                if not (np.isfinite(big) and np.isfinite(bmax)) or max(big, bmax) > MAX_WEIGHT:
                    raise ValueError(tr("these settings make the weights overflow (they grow "
                                        "past 1e100); use a smaller η or start w"))
        info = pending_run(traj, X, y) if self._pending else describe_run(traj, X, y)
        return traj, info, racing

    def update(self, **changes) -> bool:
        """Apply parameter changes if they give a valid run; return whether they were applied.

        Values may be typed (``eta=0.5``) or text as typed in the page (``eta="0.5"``); each is
        parsed by its declared field. A refused change keeps the current state and sets
        ``message`` to the reason.
        """
        self._check_params(changes)
        try:
            changes = self._parse(changes)
            p = self._params()
            if "dataset" in changes and changes["dataset"] != self.dataset:
                # Koski's example comes with its start, step size and visiting order; leaving it
                # restores the plain defaults (its sequence names points other sets lack).
                if changes["dataset"] == "koski":
                    p.update(KOSKI_PRESET)
                elif self.dataset == "koski":
                    p.update(GENERIC_PRESET)
            p.update(changes)
            data_keys = {"dataset", "n", "dim", "margin", "seed"}
            # a data set chosen while edited points are shown is loaded, the same one included
            if self.X is None or any(changes[k] != getattr(self, k) for k in data_keys & set(changes)) \
                    or ("dataset" in changes and self.edited):
                ds = self._load(p)
                X, y, edited = np.array(ds.X), np.array(ds.y), False
            else:
                X, y, edited = self.X, self.y, self.edited
            chosen = [] if (not p["choose_mode"] or X is not self.X) else list(self.chosen)
            fit_to_data(p, len(X), given=set(changes))
            built = self._build(p, X, y, chosen)
        except (ValueError, TypeError, OverflowError) as exc:
            self.refuse(exc, kept="settings")
            return False
        self._commit(p, X, y, edited, chosen, *built)
        return True

    def _commit(self, p, X, y, edited, chosen, traj, info, racing, *, step=0, message=""):
        """Apply a built run; ``step`` None shows its last step (the run's, or the race's)."""
        with self.hold_trait_notifications():
            self.applied += 1  # first: views clear an old refusal before they redraw
            self._assign(p)
            self.X, self.y, self.edited, self.chosen = X, y, edited, chosen
            self.info = info
            self.racing = racing
            self.trajectory = traj  # first: views load the run, then show its step
            self.step = self.n_steps if step is None else min(step, self.n_steps)
            self.message = message or self._status(traj)

    def _status(self, traj) -> str:
        """The standing note beside the narration: "you choose" mode, a run cut for the view,
        in one sentence what is degenerate about the data (a point at the origin with no
        offset, one point with both labels, separable only with an offset, all points on one
        line, coordinates of extreme size), and whether the weights repeat (a cycle)."""
        if self.choose_mode:
            return "You choose: click a point to visit it next."
        X, y, fit_b = self.X, self.y, self.fit_intercept
        cut = (f"The run was cut at {MAX_VIEW_STEPS:,} steps for the view."
               if traj.n_steps >= MAX_VIEW_STEPS else "")
        separable = None if self.info is None else self.info.separable  # in the run's setting
        affine = separable
        if separable is False and not fit_b:
            from ...shared.separability import check

            affine = check(X, y).separable
        advice = "; tick 'fit offset b' to allow a line that misses the origin" if (
            affine and not separable) else ""
        zero = np.flatnonzero(~X.any(axis=1))
        remark = ""
        if not fit_b and len(zero):
            remark = (f"{numbered(zero)} {'is' if len(zero) == 1 else 'are'} at the origin: with "
                      "no offset every line through the origin passes through "
                      f"{'it' if len(zero) == 1 else 'them'}, so no such line separates the "
                      f"classes{advice}.")
        remark = remark or same_point_text(X, y)
        if not remark and advice:
            remark = ("No line through the origin separates these data, but a line with an "
                      f"offset does{advice}.")
        if not remark and affine is not None:
            remark = one_line_text(X, affine)
        size = float(np.max(np.linalg.norm(X, axis=1))) if len(X) else 0.0
        if not remark and (0 < size < 1e-6 or size > 1e6):
            if fit_b:
                remark = (f"The points are up to {size:.2g} from the origin: an update changes "
                          f"w·x by up to η·‖x‖² = {self.eta * size * size:.2g} but b by only "
                          f"η = {self.eta:g}.")
            elif not self.w0:
                remark = (f"The points are up to {size:.2g} from the origin: with no offset the "
                          "perceptron makes the same updates at any scale, and w scales with "
                          "the data.")
        return " ".join(t for t in (cut, remark, self._cycle_note(traj)) if t)

    def _cycle_note(self, traj) -> str:
        """The run's cycle in one sentence: when the weights repeat (period, first step, exactly
        or within what tolerance), or, for data no line separates, why no cycle is shown."""
        c = None if self.info is None else self.info.cycle
        if c is None or (not c.found and (traj.converged or self.info.separable is not False)):
            return ""
        return c.message[0].upper() + c.message[1:] + "."

    # ------------------------------------------------------------------ steps
    @property
    def epoch_steps(self) -> int:
        """Steps in one epoch of the run shown (the timeline's "Epoch end" jumps by it): one
        pass of the visiting order in batches, :attr:`Trajectory.epoch_steps`, i.e. n points,
        or the custom sequence's length, divided by the batch size and rounded up. 0 in "you
        choose" mode, where the learner picks every step and there are no passes."""
        return 0 if self.choose_mode else self.trajectory.epoch_steps

    @property
    def n_steps(self) -> int:
        """The last step shown: the run's, or the race's (its longest run's)."""
        return self.trajectory.n_steps if self.racing is None else self.racing.n_steps

    def go(self, k: int) -> None:
        """Show step ``k`` (clamped to the run, or the race)."""
        self.step = int(min(max(k, 0), self.n_steps))

    # ------------------------------------------------------------------ editing
    def _retrain(self, X, y, chosen, *, edited: bool, step=None, p=None) -> bool:
        p = p or self._params()
        try:
            datasets.from_arrays(X, y)
            traj, info, racing = self._build(p, X, y, chosen)
        except (ValueError, TypeError, OverflowError) as exc:
            self.refuse(exc, kept="data")
            return False
        self._commit(p, X, y, edited, chosen, traj, info, racing, step=step)
        return True

    def add_point(self, x1: float, x2: float, label: int) -> bool:
        """Add a point of class ``label`` (+1 or -1); the run is recomputed from step 0."""
        if label not in (1, -1):
            self.refuse(tr("a new point's class must be +1 or -1; got {label}").format(
                label=repr(label)))
            return False
        if len(self.X) >= MAX_POINTS:
            self.refuse(tr("the view holds at most {n} points").format(n=MAX_POINTS))
            return False
        if not self._editable():
            return False
        X = np.vstack([self.X, [[float(x1), float(x2)]]])
        y = np.append(self.y, float(label))
        return self._retrain(X, y, [], edited=True, step=0)

    def remove_point(self, i: int) -> bool:
        """Remove point ``i`` (0-based); refused if it would leave no point."""
        if not 0 <= i < len(self.X):
            self.refuse(tr("there is no point {i}").format(i=i + 1))
            return False
        if len(self.X) == 1:
            self.refuse(tr("the data must keep at least one point"))
            return False
        if not self._editable():
            return False
        keep = np.arange(len(self.X)) != i
        p = self._params()
        # renumber the visiting sequence: drop the removed point, shift the later ones
        p["custom_order"] = [v - (v > i + 1) for v in self.custom_order if v != i + 1]
        fit_to_data(p, len(self.X) - 1)
        return self._retrain(self.X[keep], self.y[keep], [], edited=True, step=0, p=p)

    def choose(self, i: int) -> bool:
        """"You choose" mode: visit point ``i`` next, as in Koski's worked example."""
        if not self.choose_mode:
            self.refuse(tr("turn on 'You choose' to pick the points yourself"))
            return False
        return self._retrain(self.X, self.y, [*self.chosen, int(i)], edited=self.edited)

    def _editable(self) -> bool:
        """Whether points can be added or removed by a click: only in two dimensions (the
        plane of w shows more, and a click there names no point of ``R^M``); else refused."""
        if self.X.shape[1] == 2:
            return True
        self.refuse(tr("points are added and removed on data of two features; these have "
                       "{n}, drawn in the plane of w").format(n=self.X.shape[1]))
        return False

    def nearest_point(self, x1: float, x2: float, radius: float, *,
                      coords=None) -> int | None:
        """Index of the point nearest ``(x1, x2)`` within ``radius``, else None; ``coords``:
        where the points are drawn (shape (n, 2)), by default their first two features."""
        P = self.X if coords is None else np.asarray(coords, dtype=float)
        d = np.hypot(P[:, 0] - x1, P[:, 1] - x2)
        i = int(np.argmin(d))
        return i if d[i] <= radius else None

    # ------------------------------------------------------------------ declared state
    def _own_state(self) -> dict:
        return {"chosen": [i + 1 for i in self.chosen],
                "points": points_of(self.X, self.y) if self.edited else []}

    def _apply_state(self, values: dict) -> bool:
        p = {k: values[k] for k in PARAMS}
        if values["points"]:
            X, y = arrays_of(values["points"])
            edited = True
        else:
            X, y, edited = *(np.array(a) for a in _xy(self._load(p))), False
        chosen = [i - 1 for i in values["chosen"]] if p["choose_mode"] else []
        fit_to_data(p, len(X), given={"batch", "custom_order"} if p["custom_order"] else {"batch"})
        return self._retrain(X, y, chosen, edited=edited, step=values["step"], p=p)


def fit_to_data(p: dict, n: int, *, given=frozenset()) -> None:
    """Bring the settings a person did not give (not in ``given``) in line with ``n`` points.

    A custom visiting order with no sequence yet, or one that names points the data lack (the
    data changed), starts from one cyclic pass ``1, 2, …, n``; a batch size above ``n`` (the
    data shrank) becomes ``n``, a full batch. What a person gave is checked, never changed:
    a typed sequence or batch size that does not fit is refused with the reason.
    """
    seq = p["custom_order"]
    if p["order"] == "custom" and "custom_order" not in given and (not seq or max(seq) > n):
        p["custom_order"] = list(range(1, n + 1))
    if "batch" not in given and p["batch"] > n:
        p["batch"] = n


def _xy(ds):
    return ds.X, ds.y
