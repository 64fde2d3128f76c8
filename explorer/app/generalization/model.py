"""State of the Generalization tab: the run whose losses are marked, the stability simulation,
the risk table.

No widgets here. The tab's state is declared once in :data:`SPEC`. A change builds the new run
first and only then commits it; a refused value keeps the last good state and says why in
``message``. The stability simulation (:func:`explorer.generalization.stability_curve`) runs in a
background thread started by :meth:`GeneralizationModel.start_simulation`, one ``n`` at a time;
each finished ``n`` is handed to the kernel's thread (``post``) and committed to ``curve``.
Every ``n`` has its own random stream seeded by ``(seed, n)``, so sizes already finished with
the same settings are kept and a stopped run continues with exactly the numbers a full run
gives.

A person's own data of ``M`` features, up to :data:`MAX_FEATURES` (dataset ``"own"``, points in
the declared ``points`` field, so they go into saved states and links), are trained in their own
dimension (the figure draws margins ``y f(x)`` and error rates, exact in any dimension). They
are split like the real data sets (``TEST_FRACTION`` held out, stratified where each class has
two points, ``random_state=seed``); the run uses the training part, and the risk panel's first
row is the pocket rule's training and test error on them.
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np
from sklearn.model_selection import train_test_split
from traitlets import Bool, Instance, Int, Unicode

from ... import generalization as G
from ...generalization import losses
from ...perceptron import train
from ...perceptron.trajectory import Trajectory
from ...shared import datasets
from ...shared.i18n import N_, tr
from ..jobs import Job
from ..state import Control, Field, StateSpec, arrays_of
from ..tab_model import Refusal, state_model

#: The run whose examples are marked on the losses: data offered.
DATASETS = {
    "margin": "Margin distribution",
    "iris": "Iris versicolor/virginica",
    "iris_setosa": "Iris setosa/rest",
    "breast_cancer": "Breast cancer (30-D)",
    "own": "Your own data (CSV)",
}
#: Most points of a person's own data (the run's training part is 70 % of them), and fewest.
MAX_OWN_POINTS = 500
MIN_OWN_POINTS = 4
#: Most features of a person's data trained in their own dimension (as the Perceptron tab).
MAX_FEATURES = 64
RULES = {"margin": "Margin (H & R)", "classic": "Classic"}
LOSS_NAMES = ("zero_one", "perceptron", "hinge", "squared", "logistic")
RUN_EPOCHS = 30
TEST_FRACTION = 0.3


def _margin_data(m) -> bool:
    return m.dataset == "margin"


# Each setting's control and its place in an export's caption (explorer.app.state_field.Control);
# the view writes the data shown before them: "Margin distribution, 40 points · Margin (H & R)
# rule · seed 0 · simulation: γ = 0.2 · d = 5 · 100 trials", the file
# "generalization-margin-margin-seed0-step0".
SPEC = StateSpec("generalization", [
    Field("dataset", N_("data for the run"), "choice", "margin", choices=tuple(DATASETS),
          control=Control("menu", description=N_("Data"), titles=DATASETS.items())),
    Field("rule", N_("rule"), "choice", "margin", choices=tuple(RULES), control=Control(
        "menu", description=N_("Rule"), titles=RULES.items(), caption=lambda r: f"{RULES[r]} rule",
        caption_rank=1, stem="{}")),
    # greyed out, n shows how many points the run has
    Field("n_run", N_("points"), "int", 40, min=2, max=500, control=Control(
        "text", enabled=_margin_data, off_shows=lambda m: str(len(m.X)))),
    *[Field(f"show_{name}", f"show {name.replace('_', '-')} loss", "bool", True,
            control=Control("check", description=losses.FORMULAS[name]))
      for name in LOSS_NAMES],
    Field("ns", N_("sizes n"), "ints", G.DEFAULT_NS, max_len=12, item_min=1, item_max=G.MAX_N,
          control=Control("text")),
    Field("trials", N_("trials"), "int", 100, min=2, max=2000,
          control=Control("text", caption="{} trials", caption_rank=5)),
    Field("gamma", N_("margin γ"), "float", 0.2, min=G.GAMMA_RANGE[0], max=G.GAMMA_RANGE[1],
          control=Control("text", caption="simulation: γ = {:g}", caption_rank=3)),
    Field("dim", N_("dimension d"), "int", 5, min=2, max=G.MAX_DIM,
          control=Control("text", caption="d = {}", caption_rank=4)),
    Field("seed", N_("seed"), "int", 0, min=0, max=2**31 - 1,
          control=Control("text", caption="seed {}", caption_rank=2, stem="seed{}")),
    #: A person's points ``[(x1, ..., xM, label), ...]`` (used when ``dataset == "own"``).
    Field("points", N_("your points"), "points", [], max_len=MAX_OWN_POINTS, item_min=-1e12,
          item_max=1e12, optional=True, max_features=MAX_FEATURES),
    Field("step", N_("step"), "int", 0, min=0, max=10**9),
])

#: The parameters: every field but the step.
PARAMS = tuple(name for name in SPEC.names if name != "step")
RUN_KEYS = {"dataset", "rule", "n_run", "gamma", "dim", "seed", "points"}
#: The settings of the stability simulation: a change starts it again (finished sizes kept).
SIM_KEYS = ("ns", "trials", "dim", "gamma", "seed")
#: The refusal of a second run; it goes when the running one ends.
RUNNING = Refusal("the simulation is already running; Stop it first")


class GeneralizationModel(state_model(SPEC, params=PARAMS)):
    """Everything the Generalization tab shows, as traits (see the module docstring): one per
    field of :data:`SPEC`, and the run, risks and simulation computed from them."""

    X = Instance(np.ndarray, allow_none=True)
    y = Instance(np.ndarray, allow_none=True)
    #: The held-out part of own data (None for the other data sets).
    X_test = Instance(np.ndarray, allow_none=True)
    y_test = Instance(np.ndarray, allow_none=True)
    traj = Instance(Trajectory, allow_none=True)
    risk = Instance(G.RiskTable, allow_none=True)
    #: The finished sizes of the simulation for the current settings (None: none yet).
    curve = Instance(G.StabilityCurve, allow_none=True)
    sim_running = Bool(False)
    sim_done = Int(0)
    sim_total = Int(0)
    sim_note = Unicode("")

    def __init__(self, **params):
        super().__init__()
        self._parts: dict = {}  # (trials, dim, gamma, seed, n) -> one-n StabilityCurve
        self._sim = Job("generalization-sim")
        self._risk_seed = None
        self._base_risk = None  # the real data sets' rows for the current seed
        self._own_row = None  # the risk row of own data (None: not on own data)
        if not self.update(**params, _force=True):
            raise ValueError(self.message)

    @property
    def n_steps(self) -> int:
        return 0 if self.traj is None else self.traj.n_steps

    @property
    def shown_losses(self) -> tuple:
        return tuple(n for n in LOSS_NAMES if getattr(self, f"show_{n}"))

    # ------------------------------------------------------------------ building
    def _data(self, p):
        """Training part ``X, y`` and held-out part ``Xt, yt`` (None, None on margin data)."""
        if p["dataset"] == "margin":
            s = G.sample_margin(n=p["n_run"], dim=p["dim"], gamma=p["gamma"], seed=p["seed"])
            return np.array(s.X), np.array(s.y), None, None
        if p["dataset"] == "own":
            return own_split(p["points"], seed=p["seed"])
        _, name, params, _ = G.RISK_DATASETS[p["dataset"]]
        ds = datasets.load(name, **params)
        X, _, y, _ = train_test_split(np.asarray(ds.X), np.asarray(ds.y), test_size=TEST_FRACTION,
                                      random_state=p["seed"], stratify=ds.y)
        return X, y, None, None

    def _run(self, p, X, y) -> Trajectory:
        if len(np.unique(y)) < 2:
            raise ValueError(tr("the {n} points drawn hold one class only; the timeline's run "
                                "needs both: use more points or another seed").format(n=len(y)))
        if p["rule"] == "margin":
            # Hardt & Recht's rule: no offset on the margin data (their setting), an offset on
            # real data, whose classes are not split by a line through the origin
            return train(X, y, rule="margin", fit_intercept=p["dataset"] != "margin",
                         order="cyclic", max_epochs=RUN_EPOCHS)
        return train(X, y, rule="classic", order="cyclic", max_epochs=RUN_EPOCHS)

    def update(self, _force: bool = False, step: int | None = None, **changes) -> bool:
        """Apply parameter changes (typed values or text) if they give a valid state; a new run
        starts at ``step`` (default 0), otherwise the step shown stays."""
        self._check_params(changes)
        try:
            changes = self._parse(changes)
            p = self._params() | changes
            p["ns"] = list(p["ns"])
            G.plan_work(p["ns"], trials=p["trials"])
            rebuild = _force or any(changes[k] != getattr(self, k) for k in RUN_KEYS & set(changes))
            if rebuild:
                X, y, Xt, yt = self._data(p)
                traj = self._run(p, X, y)
                own_row = own_risk_row(X, y, Xt, yt, seed=p["seed"]) if Xt is not None else None
            else:
                own_row = self._own_row
            base = self._base_risk
            if base is None or self._risk_seed != p["seed"]:
                base = G.risk_table(seed=p["seed"])
            risk = base if own_row is None else replace(base, rows=(own_row, *base.rows[:1]))
        except (ValueError, TypeError) as exc:
            self.refuse(exc, kept="settings")
            return False
        sim_changed = any(p[k] != getattr(self, k) for k in SIM_KEYS) or _force
        if sim_changed:
            self._cancel_simulation()
        with self.hold_trait_notifications():
            self.applied += 1  # first: views clear an old refusal before they redraw
            self._assign(p)
            self._risk_seed, self._base_risk, self._own_row = p["seed"], base, own_row
            self.risk = risk
            if sim_changed:
                self.curve = self._joined()
            if rebuild:
                self.X, self.y, self.X_test, self.y_test = X, y, Xt, yt
                self.traj = traj  # views redraw the run on this
            if step is None:
                step = 0 if rebuild else self.step
            self.step = int(min(max(step, 0), self.n_steps))
            self.message = ""
        return True

    def go(self, k: int) -> None:
        self.step = int(min(max(k, 0), self.n_steps))

    # ------------------------------------------------------------------ simulation
    def _key(self, n):
        return (self.trials, self.dim, float(self.gamma), self.seed, int(n))

    def _joined(self):
        parts = [self._parts[self._key(n)] for n in self.ns if self._key(n) in self._parts]
        if not parts:
            return None
        missing = len(parts) < len(self.ns)
        return G.join_curves(parts, planned=self.ns, stopped=missing)

    @property
    def sim_busy(self) -> bool:
        return self._sim.busy

    def start_simulation(self, post=None) -> bool:
        """Run the sizes not yet finished for the current settings, in a thread.

        ``post(fn)`` runs ``fn`` on the thread that owns the traits (default: at once, for
        scripts and tests). Returns False (with a message) if refused or already running.
        """
        if self.sim_busy:
            self.refuse(RUNNING)
            return False
        todo = [n for n in self.ns if self._key(n) not in self._parts]
        if not todo:
            self.sim_note = "Every size is done for these settings; change them to run again."
            return False
        trials, dim, gamma, seed = self.trials, self.dim, float(self.gamma), self.seed
        keys = {n: self._key(n) for n in todo}
        self.applied += 1
        self.sim_total, self.sim_done, self.sim_running = len(todo) * trials, 0, True
        self.sim_note = f"Simulating {len(todo)} sizes × {trials} trials (seed {seed})…"

        def work(report):
            t0 = time.perf_counter()
            error = None
            try:
                for i, n in enumerate(todo):
                    def progress(done, total, i=i):
                        report.post(lambda: self._sim_progress(i * trials + done))
                    part = G.stability_curve(ns=(n,), trials=trials, dim=dim, gamma=gamma,
                                             seed=seed, stop=report.stopped, progress=progress)
                    if part.stopped or report.stopped():
                        break
                    report.post(lambda n=n, part=part: self._sim_add(keys[n], part))
            except Exception as exc:  # pragma: no cover - a solver failure becomes a message
                error = exc
            stopped = report.stopped()
            report.post(lambda: self._sim_end(time.perf_counter() - t0, error, stopped))

        self._sim.start(work, post=post or (lambda fn: fn()))
        return True

    def _sim_progress(self, done) -> None:
        self.sim_done = int(done)

    def _sim_add(self, key, part) -> None:
        self._parts[key] = part
        self.curve = self._joined()

    def _sim_end(self, seconds, error, stopped) -> None:
        self.sim_running = False
        if self.refusal == RUNNING:
            self.message = ""  # no longer true
        done = 0 if self.curve is None else len(self.curve.ns)
        if error is not None:
            self.sim_note = f"The simulation failed: {error}"
        elif stopped:
            self.sim_note = (f"Stopped: {done} of {len(self.ns)} sizes done and kept. Run goes on "
                             "with the same numbers a full run gives (each n has its own seed).")
        else:
            self.sim_note = f"Done: {done} sizes × {self.trials} trials in {seconds:.1f} s."

    def stop_simulation(self) -> None:
        """Ask a running simulation to stop (within a few trials); finished sizes stay."""
        self._sim.stop()

    def _cancel_simulation(self) -> None:
        """Stop a run whose results no longer apply (new settings): it stays silent (it stops
        within a few trials; a new run need not wait for it)."""
        self._sim.cancel()
        self.sim_running = False
        self.sim_done = 0
        self.sim_note = ""

    def wait_simulation(self, timeout: float | None = None) -> bool:
        return self._sim.wait(timeout)

    # ------------------------------------------------------------------ declared state
    def _own_state(self) -> dict:
        # own points go into the state (and the link) only while they are the data shown
        return {"points": list(self.points) if self.dataset == "own" else []}

    def _apply_state(self, values: dict) -> bool:
        step = values.pop("step")
        return self.update(step=step, _force=True, **values)


def own_split(points, *, seed: int):
    """A person's points split into a training and a held-out part.

    ``TEST_FRACTION`` of the points are held out (scikit-learn's ``train_test_split``,
    ``random_state=seed``; stratified by label when each class has at least two points).
    Raises ValueError, in the page's words, when there is nothing to split, fewer than
    :data:`MIN_OWN_POINTS` points, or a class missing from the training part.

    Returns
    -------
    X (k, M), y (k,), Xt (n − k, M), yt (n − k,)
    """
    if not points:
        raise ValueError("no data of your own yet: read a CSV under 'Your own data (CSV)' first")
    X, y = arrays_of(points)
    n = len(y)
    if n < MIN_OWN_POINTS:
        raise ValueError(f"{n} point{'s' * (n != 1)} are too few to split into a training and a "
                         f"test part; at least {MIN_OWN_POINTS} are needed")
    counts = [int(np.sum(y == c)) for c in (-1.0, 1.0)]
    stratify = y if min(counts) >= 2 else None
    X, Xt, y, yt = train_test_split(X, y, test_size=TEST_FRACTION, random_state=seed,
                                    stratify=stratify)
    missing = [f"{c:+d}" for c in (-1, 1) if not np.any(y == c)]
    if missing:
        raise ValueError(f"the training part ({len(y)} of {n} points, seed {seed}) holds no point "
                         f"of class {missing[0]}, and the run needs both classes: add points of "
                         f"that class (it has {counts[(int(missing[0]) + 1) // 2]}) or try "
                         "another seed")
    return X, y, Xt, yt


def own_risk_row(X, y, Xt, yt, *, seed: int) -> G.RiskRow:
    """Training and test error of the last and the pocket iterate on own data, as
    :func:`explorer.generalization.risk_table` computes them for the real data sets (pocket
    rule, ``RUN_EPOCHS`` reshuffled passes seeded by ``seed``, with an offset)."""
    return G.risk_row(X, y, Xt, yt, key="own", title="Your data", source="your CSV",
                      epochs=RUN_EPOCHS, seed=seed)
