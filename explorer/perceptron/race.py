"""Rules racing in sync: two to four perceptron-family rules on the same data and visiting order.

Every rule of :data:`explorer.perceptron.rules.RULES` draws its visiting order the same way: a cyclic pass,
a pass of an explicit sequence, or, with a seed, one random permutation (or one block of i.i.d.
draws) per pass, drawn before the pass whatever the rule does in it. Started with the same
data, order, seed and settings, the rules therefore visit the same point at the same step
until each one stops; a race is their runs side by side on one timeline of
``max(n_steps)`` steps, each run holding its last state once it has stopped.

What differs between the rules is only the update (see ``docs/mathematics.md#update-rules``):
the condition ``y·f(x) <= t`` or ``< t`` with the rule's own threshold (0 for the classic
perceptron, Sayed (60.25); 1 for the margin perceptron, Hardt & Recht ch. 3, and for the SVM
by SGD, Sayed (61.22)), and what an update does. :func:`race_text` says, at each step, which
rules update on the point visited and which do not.

An update is not a mistake. A mistake is a visited point with ``y·f(x) <= 0`` (misclassified,
or on the boundary; :func:`explorer.perceptron.replay.step.mistake_steps`); the margin perceptron, the SVM
by SGD and relaxation also update on points classified right but with ``y·f(x)`` under their
threshold. A race counts both for every rule (:meth:`Race.updates`, :meth:`Race.mistakes`), and
its narration says which an update was.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ..shared.i18n import tr, tr_n
from ..shared.number_format import number_text
from .replay import RunInfo, StepFrame, frame, stop_text
from .replay.narration import _vec
from .replay.step import mistake_steps
from .rules import RULES, get_rule
from .training import train
from .trajectory import Trajectory

__all__ = ["Race", "race", "race_frame", "race_text", "MIN_RACERS", "MAX_RACERS"]

#: Rules in a race: at least two, at most four (four panels still fit a projector's width).
MIN_RACERS, MAX_RACERS = 2, 4


def check_racers(rules) -> tuple[str, ...]:
    """The rules of a race as a tuple of names; ``ValueError`` unless 2 to 4 distinct rules."""
    if isinstance(rules, str) or not isinstance(rules, (list, tuple)):
        raise TypeError(f"rules must be a list of rule names; got {rules!r}")
    for name in rules:
        get_rule(name)
    if len(set(rules)) != len(rules):
        raise ValueError(f"a race needs distinct rules; got {list(rules)}")
    if not MIN_RACERS <= len(rules) <= MAX_RACERS:
        raise ValueError(f"a race needs {MIN_RACERS} to {MAX_RACERS} rules; got {len(rules)}")
    return tuple(rules)


@dataclass(frozen=True)
class Race:
    """The runs of a race, in the order of ``rules``.

    Attributes
    ----------
    rules : tuple of str
        Names in :data:`explorer.perceptron.rules.RULES`, 2 to 4 of them.
    runs : tuple of Trajectory
        Each rule's whole run, as :func:`explorer.perceptron.train` returns it.
    X : ndarray of shape (n, d); y : ndarray of shape (n,)
        The data every rule was trained on.
    mistake_steps : tuple of ndarray
        Each run's :func:`~explorer.perceptron.replay.step.mistake_steps` (found when the race is made).
    """

    rules: tuple
    runs: tuple
    X: np.ndarray
    y: np.ndarray
    mistake_steps: tuple = field(default=(), repr=False)

    def __post_init__(self):
        if not self.mistake_steps:
            object.__setattr__(self, "mistake_steps", tuple(
                mistake_steps(t, self.X, self.y) for t in self.runs))

    @property
    def n_steps(self) -> int:
        """The race's last step: the longest run's."""
        return max(t.n_steps for t in self.runs)

    def updates(self, k: int) -> tuple[int, ...]:
        """Each rule's updates in steps ``1..k`` (a stopped run keeps its count)."""
        k = self.check_step(k)
        return tuple(t.updates_until(min(k, t.n_steps)) for t in self.runs)

    def mistakes(self, k: int) -> tuple[int, ...]:
        """Each rule's mistakes (visited points with ``y·f(x) <= 0``) in steps ``1..k``."""
        k = self.check_step(k)
        return tuple(int(np.searchsorted(m, k, side="right")) for m in self.mistake_steps)

    def update_steps(self) -> np.ndarray:
        """Steps at which some rule updates, increasing (the timeline's "next update")."""
        steps = np.concatenate([t.update_steps for t in self.runs])
        return np.unique(steps)

    def check_step(self, k) -> int:
        """``k`` as an int in ``0..n_steps``, else ``TypeError``/``ValueError``."""
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
            raise TypeError(f"step k must be an integer; got {type(k).__name__}")
        if not 0 <= int(k) <= self.n_steps:
            raise ValueError(f"step k must be in [0, {self.n_steps}]; got {k}")
        return int(k)

    def run(self, rule: str) -> Trajectory:
        """The run of ``rule``."""
        return self.runs[self.rules.index(rule)]


def race(X, y, *, rules, **settings) -> Race:
    """Train each of ``rules`` on ``(X, y)`` with the same ``settings``.

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : array-like of shape (n,), values in {-1, +1}
    rules : sequence of str
        2 to 4 distinct names of :data:`explorer.perceptron.rules.RULES`.
    **settings
        Keyword arguments of :func:`explorer.perceptron.train` but ``rule`` and ``threshold``
        (each rule takes its own default threshold): ``eta``, ``forget``, ``rho``,
        ``fit_intercept``, ``order``, ``w0``, ``b0``, ``batch_size``, ``max_epochs``,
        ``max_steps``, ``seed``. An integer ``seed`` (not a Generator) is needed for random
        orders, so that every rule draws the same order.

    Returns
    -------
    Race
    """
    rules = check_racers(rules)
    for key in ("rule", "threshold"):
        if key in settings:
            raise TypeError(f"race() sets {key} per rule; got {key}={settings[key]!r}")
    if isinstance(settings.get("seed"), np.random.Generator):
        raise TypeError("race() needs an integer seed (or None for fixed orders), so that "
                        "every rule draws the same visiting order; got a Generator")
    runs = tuple(train(X, y, rule=rule, **settings) for rule in rules)
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    return Race(rules=rules, runs=runs, X=X, y=y)


def race_frame(r: Race, i: int, k: int) -> StepFrame:
    """Rule ``i``'s :class:`~explorer.perceptron.replay.StepFrame` at race step ``k``: its own frame up to
    its last step; after that its last state, held (no point visited, no update)."""
    k = r.check_step(k)
    traj = r.runs[i]
    if k <= traj.n_steps:
        return frame(traj, r.X, r.y, k)
    f = frame(traj, r.X, r.y, traj.n_steps)
    return StepFrame(int(k), traj.n_steps, f.w, f.b, f.w, f.b, (), (), False, np.zeros(0), None,
                     f.n_updates, "", f.kept_w, f.kept_b, f.kept_kind, f.kept_errors, ())


def _names(rules) -> str:
    titles = [tr(RULES[r].title) for r in rules]
    if len(titles) == 1:
        return titles[0]
    return tr("{names} and {last}").format(names=", ".join(titles[:-1]), last=titles[-1])


def _verdict(f: StepFrame, spec, t: Trajectory, mistakes_before: int, mistakes_now: int) -> str:
    """Rule ``spec``'s clause at frame ``f``: its test on the point(s) visited, whether it
    updates, and whether the point was a mistake (``y·f(x) <= 0``) or only within its
    threshold, e.g. "y·f(x) = 0.8 < 1, updates (update 4); not a mistake, as y·f(x) > 0"."""
    new = mistakes_now - mistakes_before
    if len(f.picked) == 1:
        rel = ("<" if spec.strict else "≤") if f.updated else (">" if not spec.strict else "≥")
        cond = f"y·f(x) = {number_text(f.margins[0])} {rel} {number_text(t.threshold)}"
        if f.updated and new:
            said = tr("{cond}, a mistake: updates (update {u}, mistake {m})")
        elif f.updated:
            said = tr("{cond}, updates (update {u}); not a mistake, as y·f(x) > 0")
        elif new:
            said = tr("{cond}, no update, though a mistake (mistake {m})")
        else:
            said = tr("{cond}, no update")
        return said.format(cond=cond, u=f.n_updates, m=mistakes_now)
    values = dict(hit=len(f.triggered), n=len(f.picked), u=f.n_updates, new=new,
                  m=mistakes_now)
    if f.updated and new:
        said = tr_n("{hit} of {n} meet its condition, updates (update {u}); {new} mistake among "
                    "them (y·f(x) ≤ 0), {m} so far",
                    "{hit} of {n} meet its condition, updates (update {u}); {new} mistakes among "
                    "them (y·f(x) ≤ 0), {m} so far", new)
    elif f.updated:
        said = tr("{hit} of {n} meet its condition, updates (update {u}); none of them is a "
                  "mistake")
    elif new:
        said = tr_n("{hit} of {n} meet its condition, no update; {new} mistake among them "
                    "(y·f(x) ≤ 0), {m} so far",
                    "{hit} of {n} meet its condition, no update; {new} mistakes among them "
                    "(y·f(x) ≤ 0), {m} so far", new)
    else:
        said = tr("{hit} of {n} meet its condition, no update; none of them is a mistake")
    return said.format(**values)


def race_text(r: Race, k: int, *, frames: list | None = None, info: RunInfo | None = None
              ) -> str:
    """The narration of race step ``k``: the point visited, and for each rule its ``y·f(x)``
    against its own threshold, whether it updates and whether the point was a mistake
    (``y·f(x) <= 0``); then what differs, e.g. "What differs: Margin perceptron updates;
    Classic perceptron does not.". ``frames``: each rule's :func:`race_frame` at ``k``, if the
    caller has them already (a figure drawing the step). ``info``: the first rule's
    :func:`~explorer.perceptron.replay.describe_run` (all rules share the data and setting, so its
    separability verdict is every rule's): at the last step, what more epochs would do is then
    said with the verdict (:func:`explorer.perceptron.replay.narration.outlook_text`). In the
    page's language."""
    k = r.check_step(k)
    if k == 0:
        w, b = r.runs[0].state(0)
        return tr("Start: {rules} begin at w = {w}, b = {b} and visit the same points in the "
                  "same order; each updates by its own condition.").format(
            rules=_names(r.rules), w=_vec(w), b=number_text(b))
    running = [i for i, t in enumerate(r.runs) if k <= t.n_steps]
    parts, moved, kept = [], [], []
    head = ""
    before, now = r.mistakes(k - 1), r.mistakes(k)
    for i in running:
        t = r.runs[i]
        f = frames[i] if frames is not None else frame(t, r.X, r.y, k)
        spec = get_rule(t.rule)
        if not head:
            if len(f.picked) == 1:
                p = f.picked[0]
                head = tr("Step {k}, point {i} {x}, label {y}.").format(
                    k=k, i=p + 1, x=_vec(r.X[p]), y="+1" if r.y[p] > 0 else "−1")
            else:
                n = len(f.picked)
                head = tr_n("Step {k}, a batch of {n} point.", "Step {k}, a batch of {n} points.",
                            n).format(k=k, n=n)
        (moved if f.updated else kept).append(t.rule)
        parts.append(tr("{rule}: {verdict}.").format(
            rule=tr(spec.title), verdict=_verdict(f, spec, t, before[i], now[i])))
    stopped = [i for i in range(len(r.runs)) if i not in running]
    text = " ".join([head, *parts]) if head else tr("Step {k}.").format(k=k)
    if moved and kept:
        if len(moved) == 1:
            said = (tr("What differs: {moved} updates; {kept} does not.") if len(kept) == 1 else
                    tr("What differs: {moved} updates; {kept} do not."))
        else:
            said = (tr("What differs: {moved} update; {kept} does not.") if len(kept) == 1 else
                    tr("What differs: {moved} update; {kept} do not."))
        text += " " + said.format(moved=_names(moved), kept=_names(kept))
    elif len(running) > 1:
        text += " " + tr("All running rules agree here.")
    for i in stopped:
        t = r.runs[i]
        text += " " + tr("{rule} stopped at step {k} with {updates} and {mistakes}.").format(
            rule=tr(RULES[t.rule].title), k=t.n_steps,
            updates=tr_n("{n} update", "{n} updates", t.n_updates).format(n=t.n_updates),
            mistakes=tr_n("{n} mistake", "{n} mistakes", now[i]).format(n=now[i]))
    if k == r.n_steps:
        for i in running:
            t = r.runs[i]
            # the bound is the first rule's: the others take only the verdict on the data
            own = info if info is None or i == 0 else replace(info, bound=None)
            text += " " + tr("{rule}: {text}").format(
                rule=tr(RULES[t.rule].title), text=stop_text(t, r.X, r.y, info=own))
    return text
