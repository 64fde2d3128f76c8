"""State of the Margins tab: the data, C (or the hard margin), the SGD run, the step shown.

No widgets here. The tab's state is declared once in :data:`SPEC`. Every change builds the new
solution first and only then commits it; a refused value keeps the last good state and says
why in ``message``. What is computed: the perceptron's final hyperplane (classic rule, cyclic
passes from w = 0), the max-margin hyperplane (hard, or soft with C), and the subgradient
run of the soft-margin SVM (rule ``svm_sgd``, Sayed (61.22)) with ρ = 1/(2NC), whose state at
step k the view draws.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.model_selection import train_test_split
from traitlets import Bool, Instance

from ... import margins
from ...perceptron import train
from ...shared import datasets
from ...shared.i18n import N_, tr
from ...shared.svm import MAX_SCALED_C
from ..remarks import one_line_text, same_point_text
from ..state import Control, Field, StateSpec, arrays_of, points_of
from ..tab_model import state_model

#: Data sets offered: key -> (title, parameters, registry name when not the key). Data of more
#: than two features are solved in their own dimension and drawn in the plane of the SVM's w
#: (explorer.plots.margin_view), three in a rotatable 3-D view (explorer.plots.margin3d).
DATASETS = {
    "separable": ("Separable, random", {"dim": 2}),
    "overlapping": ("Overlapping blobs", {"dim": 2}),
    "koski": ("Koski's worked example (6 points)", {}),
    "xor": ("XOR (±1 inputs)", {}),
    "and": ("AND (±1 inputs)", {}),
    "iris": ("Iris, setosa vs rest (PCA)", {}),
    "breast_cancer": ("Breast cancer (PCA to 2-D)", {"k": 2}),
    "iris3": ("Iris 3-D, setosa vs rest", {"features": (2, 3, 0)}, "iris"),
    "iris4": ("Iris 4-D, setosa vs rest", {"features": "all"}, "iris"),
    "iris4_hard": ("Iris 4-D, versicolor/virginica",
                   {"features": "all", "classes": "versicolor_vs_virginica"}, "iris"),
    "digits38": ("Handwritten 3 vs 8 (64 pixels)", {"pair": (3, 8)}, "digits"),
    "breast_cancer30": ("Breast cancer (30 features)", {}, "breast_cancer"),
}
#: Real data are split: the solution is fitted on 70 % and its test error measured on the rest.
SPLIT = ("iris", "breast_cancer", "iris3", "iris4", "iris4_hard", "digits38", "breast_cancer30")
#: Most features of the tab's data (a person's CSV, a link's points) solved in their own
#: dimension: as many as the Perceptron tab takes.
MAX_FEATURES = 64
TEST_FRACTION = 0.3
PATH_CS = np.logspace(-3, 2, 12)
MAX_POINTS = 2000
SGD_EPOCHS = 30


def _random_data(m) -> bool:
    """Whether the points are drawn at random (n and the seed's data apply)."""
    return m.dataset in ("separable", "overlapping") and not m.edited


def _soft(m) -> bool:
    return not m.hard


SPEC = StateSpec("margins", [
    # the opening view: separable data, where the perceptron's line, the band and its eight
    # support vectors read at first sight (overlapping blobs at C = 1 gave 26 crossing rings)
    Field("dataset", N_("data set"), "choice", "separable", choices=tuple(DATASETS)),
    # n greyed out shows how many points are shown
    Field("n", N_("n"), "int", 40, min=2, max=MAX_POINTS, control=Control(
        "text", enabled=_random_data, off_shows=lambda m: str(len(m.points[0])))),
    Field("margin", N_("margin"), "float", 0.3, min=0.0, max=1.0, control=Control(
        "slider", step=0.05, enabled=lambda m: m.dataset == "separable" and not m.edited)),
    Field("seed", N_("seed"), "int", 0, min=0, max=2**31 - 1,
          control=Control("text", caption="seed {}", caption_rank=1)),
    Field("hard", N_("hard margin"), "bool", False, control=Control(
        "check", description=N_("hard margin (no slack)"),
        caption=lambda hard: "hard margin" if hard else "",
        stem=lambda hard: "hard" if hard else "")),
    Field("log_c", N_("log₁₀ C"), "float", 0.0, min=-3.0, max=3.0, control=Control(
        "log_slider", step=0.1, description=N_("C"), enabled=_soft,
        caption=lambda log_c: f"C = {10.0 ** log_c:.3g}", stem=lambda log_c: f"C{10.0 ** log_c:.3g}")),
    Field("eta", N_("SGD step η"), "float", 0.01, min=0.0, min_open=True, max=10.0,
          control=Control("text", enabled=_soft, caption="SGD η = {:g}")),
    Field("epochs", N_("SGD epochs"), "int", SGD_EPOCHS, min=1, max=100, control=Control(
        "text", enabled=_soft, caption="{} epochs", help=N_("Passes of the SGD run over the data: "
        "more show its objective settle toward the soft margin's optimum"))),
    Field("points", N_("edited points"), "points", [], max_len=MAX_POINTS, item_min=-1e12,
          item_max=1e12, optional=True, max_features=MAX_FEATURES),
    Field("step", N_("step"), "int", 0, min=0, max=10**9),
    #: "overlaid": both lines in one plane; "side": the perceptron's plane beside the SVM's.
    Field("layout", N_("layout"), "choice", "overlaid", choices=("overlaid", "side")),
])


@dataclass(frozen=True)
class Draft:
    """Edited data with their max-margin solution, before the rest is computed."""

    X: np.ndarray
    y: np.ndarray
    comparison: margins.MarginComparison


#: The solution's parameters: every field but the edited points, the step and the layout.
PARAMS = tuple(name for name in SPEC.names if name not in ("points", "step", "layout"))


def _size(X) -> float:
    """Largest |coordinate|: the scale the soft-margin solver's limit is stated in."""
    return float(np.abs(X).max()) if np.size(X) else 0.0


def path_cs(X) -> np.ndarray:
    """The values of :data:`PATH_CS` the soft-margin solver takes for data ``X``."""
    return PATH_CS[PATH_CS * _size(X) ** 2 <= MAX_SCALED_C]


def check_soft_scale(X, C: float) -> None:
    """Refuse, in the page's words, a soft margin the solver does not take at this scale.

    The solver's work grows with ``C·max|x|²`` (:data:`explorer.shared.svm.MAX_SCALED_C`).
    """
    size = _size(X)
    if C * size ** 2 <= MAX_SCALED_C:
        return
    most = MAX_SCALED_C / size ** 2
    fix = (f"lower C to at most {most:.3g} or tick 'hard margin'"
           if most >= 10.0 ** SPEC.field("log_c").min else "tick 'hard margin' or rescale the data")
    raise ValueError(f"with coordinates up to {size:.3g} the soft margin at C = {C:.3g} is beyond "
                     f"its solver (C·max|x|² = {C * size ** 2:.2g}, at most {MAX_SCALED_C:g}): "
                     f"{fix}")


def data_remark(X, y, C: float | None, separable: bool) -> str:
    """What is degenerate about the data, in a sentence or two, or "".

    Some point with both labels, or all points on one line; else coordinates of extreme size
    (the soft margin's C then acts as ``C·s²`` does on the data divided by ``s``: ``w`` scales
    as ``1/s`` and ``‖w‖²`` as ``1/s²`` while the slacks stay the same). And whether Sayed's
    Ex. 61.3 panel lost values of C the solver does not take at this scale.
    """
    text = same_point_text(X, y) or one_line_text(X, separable)
    size = _size(X)
    if not text and (0 < size < 1e-6 or size > 1e6):
        text = (f"Coordinates are up to {size:.2g}: the hard margin is the same at any scale, "
                "its width just scales with the data." if C is None else
                f"Coordinates are up to {size:.2g}: C weighs the slacks against ‖w‖², so "
                f"C = {C:.3g} here acts as C = {C * size ** 2:.2g} does on these data divided "
                f"by {size:.2g}.")
    cs = path_cs(X)
    if len(cs) < len(PATH_CS):
        limit = f"the solver takes C only up to C·max|x|² = {MAX_SCALED_C:g}"
        text += (f" Sayed's Ex. 61.3 is not drawn: {limit}." if not len(cs) else
                 f" Sayed's Ex. 61.3 stops at C = {cs[-1]:.3g}: {limit}.")
    return text.strip()


class MarginsModel(state_model(SPEC, without=("points",), params=PARAMS)):
    """Everything the Margins tab shows, as traits (see module docstring): one per field of
    :data:`SPEC` but ``points`` (the data ``X``, ``y`` and whether they are ``edited``), and
    what is solved from them."""

    X = Instance(np.ndarray, allow_none=True)
    y = Instance(np.ndarray, allow_none=True)
    X_test = Instance(np.ndarray, allow_none=True)
    y_test = Instance(np.ndarray, allow_none=True)
    edited = Bool(False)
    comparison = Instance(margins.MarginComparison, allow_none=True)
    sgd = Instance(margins.SGDProgress, allow_none=True)
    path = Instance(margins.SupportPath, allow_none=True)
    #: An edit shown at once (points and max-margin solution) before :meth:`finish_edit`.
    draft = Instance(Draft, allow_none=True)

    def __init__(self, **params):
        super().__init__()
        self._path_key = None
        self._perceptron_key = self._perceptron_value = None
        if not self.update(**params, _force=True):
            raise ValueError(self.message)

    @property
    def C(self) -> float | None:
        """The soft margin's C, or None for the hard margin."""
        return None if self.hard else float(10.0 ** self.log_c)

    @property
    def n_steps(self) -> int:
        return 0 if self.sgd is None else self.sgd.traj.n_steps

    # ------------------------------------------------------------------ building
    def _load(self, p):
        entry = DATASETS[p["dataset"]]
        extra = dict(entry[1])
        if p["dataset"] in ("separable", "overlapping"):
            extra.update(n=p["n"], seed=p["seed"])
        if p["dataset"] == "separable":
            extra["margin"] = p["margin"]
        ds = datasets.load(entry[2] if len(entry) > 2 else p["dataset"], **extra)
        X, y = np.asarray(ds.X, dtype=float), np.asarray(ds.y, dtype=float)
        if p["dataset"] in SPLIT:
            X, Xt, y, yt = train_test_split(X, y, test_size=TEST_FRACTION, random_state=p["seed"],
                                            stratify=y)
            return X, y, Xt, yt
        return X, y, None, None

    def _solve(self, p, X, y):
        """Perceptron, max-margin solution and SGD run for these settings (raises ValueError)."""
        datasets.from_arrays(X, y)
        run = self._perceptron(X, y)
        C = None if p["hard"] else float(10.0 ** p["log_c"])
        if C is not None:
            check_soft_scale(X, C)
        cmp = margins.compare(X, y, C=C, perceptron_w=run.final_w, perceptron_b=run.final_b)
        sgd = None
        if C is not None:
            rho = 1.0 / (2.0 * len(X) * C)  # Sayed (61.13) <-> C: rho = 1 / (2 N C)
            if p["eta"] * rho >= 0.5:
                raise ValueError(f"SGD step η must be below {0.5 / rho:.3g} for this C "
                                 f"(so that the decay 1 − 2ηρ stays positive); got {p['eta']:g}")
            traj = train(X, y, rule="svm_sgd", eta=p["eta"], rho=rho, max_epochs=p["epochs"],
                         order="shuffle", seed=p["seed"])
            sgd = margins.sgd_progress(traj, X, y, rho=rho)
        return cmp, sgd

    def _perceptron(self, X, y):
        """The classic perceptron's run on these points (it does not depend on C or η: a new C
        reuses it)."""
        key = (X.tobytes(), y.tobytes())
        if key != self._perceptron_key:
            self._perceptron_value = train(X, y, rule="classic", max_epochs=50)
            self._perceptron_key = key
        return self._perceptron_value

    def _path(self, X, y):
        """Sayed's Ex. 61.3 for the values of :data:`PATH_CS` the solver takes at this scale
        (``C·max|x|²`` at most ``MAX_SCALED_C``); None when it takes none of them."""
        key = (X.tobytes(), y.tobytes())
        if key != self._path_key:
            Cs = path_cs(X)
            self._path_key = key
            self._path_value = margins.support_path(X, y, Cs=Cs) if len(Cs) else None
        return self._path_value

    def update(self, _force: bool = False, **changes) -> bool:
        """Apply parameter changes (typed values or text) if they give a valid solution."""
        self._check_params(changes)
        try:
            changes = self._parse(changes)
            p = self._params() | changes
            data_keys = {"dataset", "n", "margin", "seed"}
            # a data set chosen while edited points are shown is loaded, the same one included
            if _force or any(changes[k] != getattr(self, k) for k in data_keys & set(changes)) \
                    or ("dataset" in changes and (self.edited or self.draft is not None)):
                X, y, Xt, yt = self._load(p)
                edited = False
            else:
                (X, y), Xt, yt = self.points, self.X_test, self.y_test
                edited = self.edited or self.draft is not None
            return self._commit(p, X, y, Xt, yt, edited, step=0)
        except (ValueError, TypeError) as exc:
            self.refuse(exc, kept="settings")
            return False

    def _commit(self, p, X, y, Xt, yt, edited, *, step) -> bool:
        cmp, sgd = self._solve(p, X, y)
        path = self._path(X, y)
        with self.hold_trait_notifications():
            self.applied += 1  # first: views clear an old refusal before they redraw
            self._assign(p)
            self.X, self.y, self.X_test, self.y_test, self.edited = X, y, Xt, yt, edited
            self.draft = None
            self.path, self.sgd = path, sgd
            self.comparison = cmp  # last but one: views redraw once, on this
            n = 0 if sgd is None else sgd.traj.n_steps
            self.step = int(min(step, n))
            self.message = ""
        return True

    def set_layout(self, layout) -> bool:
        """Show the two separators ``"overlaid"`` or ``"side"`` by side (nothing is solved)."""
        try:
            layout = SPEC.field("layout").parse(layout)
        except (ValueError, TypeError) as exc:
            self.refuse(exc, kept="layout")
            return False
        self.applied += 1
        self.layout = layout
        return True

    def go(self, k: int) -> None:
        self.step = int(min(max(k, 0), self.n_steps))

    # ------------------------------------------------------------------ editing
    @property
    def points(self) -> tuple[np.ndarray, np.ndarray]:
        """The data as edited so far: the draft's while an edit waits for :meth:`finish_edit`."""
        return (self.draft.X, self.draft.y) if self.draft is not None else (self.X, self.y)

    def editable(self) -> bool:
        """Whether points can be added, removed or dragged by the pointer: only on data of two
        features (more are drawn in the plane of w, where a click names no point of ``R^M``);
        else refused, in words."""
        M = self.points[0].shape[1]
        if M == 2:
            return True
        self.refuse(tr("points are added, removed and dragged on data of two features; these "
                       "have {n}, drawn in the plane of the SVM's w").format(n=M))
        return False

    def _edit(self, X, y, defer: bool) -> bool:
        p = self._params()
        try:
            if defer:  # the max-margin solution now, the rest in finish_edit
                datasets.from_arrays(X, y)
                cmp = margins.compare(X, y, C=self.C, perceptron_w=self.comparison.perceptron_w,
                                      perceptron_b=self.comparison.perceptron_b)
                self.applied += 1
                self.draft = Draft(X=X, y=y, comparison=cmp)
                return True
            self.draft = None
            return self._commit(p, X, y, self.X_test, self.y_test, True, step=0)
        except (ValueError, TypeError) as exc:
            self.refuse(exc, kept="data")
            return False

    def finish_edit(self) -> bool:
        """Commit a deferred edit: the perceptron, the SGD run and the support path follow."""
        if self.draft is None:
            return True
        X, y = self.draft.X, self.draft.y
        return self._edit(X, y, defer=False)

    def add_point(self, x1: float, x2: float, label: int, *, defer: bool = False) -> bool:
        """Add a point of class ``label``. Everything is solved again at once, or with
        ``defer`` only the max-margin solution (in :attr:`draft`) until :meth:`finish_edit`."""
        X, y = self.points
        if not self.editable():
            return False
        if len(X) >= MAX_POINTS:
            self.refuse(tr("the view holds at most {n} points").format(n=MAX_POINTS))
            return False
        return self._edit(np.vstack([X, [[float(x1), float(x2)]]]),
                          np.append(y, 1.0 if label > 0 else -1.0), defer)

    def remove_point(self, i: int, *, defer: bool = False) -> bool:
        X, y = self.points
        if not self.editable():
            return False
        if not 0 <= i < len(X) or len(X) <= 2:
            self.refuse(tr("keep at least two points"))
            return False
        keep = np.arange(len(X)) != i
        return self._edit(X[keep], y[keep], defer)

    def move_point(self, i: int, x1: float, x2: float, *, defer: bool = False) -> bool:
        """Move point ``i`` to ``(x1, x2)`` (a drag); onto the other class's side is valid."""
        X, y = self.points
        if not self.editable():
            return False
        if not 0 <= i < len(X):
            self.refuse(tr("no point {i}; there are {n}").format(i=i + 1, n=len(X)))
            return False
        X = X.copy()
        X[i] = float(x1), float(x2)
        return self._edit(X, y, defer)

    def nearest_point(self, x1: float, x2: float, radius: float) -> int | None:
        X, _ = self.points
        d = np.hypot(X[:, 0] - x1, X[:, 1] - x2)
        i = int(np.argmin(d))
        return i if d[i] <= radius else None

    def test_error(self) -> float | None:
        """Test error of the max-margin classifier on the held-out part of real data."""
        fit = self.comparison.svm if self.comparison is not None else None
        if self.X_test is None or fit is None:
            return None
        pred = np.where(self.X_test @ fit.w + fit.b >= 0, 1.0, -1.0)
        return float(np.mean(pred != self.y_test))

    # ------------------------------------------------------------------ declared state
    def _own_state(self) -> dict:
        return {"points": points_of(*self.points) if self.edited or self.draft else []}

    def _apply_state(self, values: dict) -> bool:
        """Apply a whole state (JSON, a link, or data sent from another tab)."""
        p = {k: values[k] for k in self.params}
        if values["points"]:
            (X, y), Xt, yt, edited = arrays_of(values["points"]), None, None, True
        else:
            X, y, Xt, yt = self._load(p)
            edited = False
        done = self._commit(p, X, y, Xt, yt, edited, step=values["step"])
        self.layout = values["layout"]
        return done
