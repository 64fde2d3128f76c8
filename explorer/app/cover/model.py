"""State of the Cover tab: the set of M, the curves, a small point set and its dichotomies, the
recursion table, Monte Carlo estimates and the Boolean table.

No widgets here. The tab's state is declared once in :data:`SPEC`. :meth:`CoverModel.update`
checks every change, computes what it needs, then commits; a refused value keeps the last good
state and says why in ``message``. Views redraw on ``revision`` (bumped once per commit).

Monte Carlo runs in a background thread (:meth:`CoverModel.start_monte_carlo`): the worker only
computes; every change of state it causes is handed to ``post`` (the view passes the kernel's
``call_soon_threadsafe``), so traits change and figures draw on the kernel's own thread.
"""

from __future__ import annotations

import time

import numpy as np
from traitlets import Bool, Instance, Int, Tuple, Unicode

from ... import cover
from ...cover.counting import MAX_DICHOTOMY_POINTS, Dichotomies, dichotomies
from ...shared.i18n import N_, tr
from ..handoff import Handoff
from ..jobs import Job
from ..state import Control, Field, StateSpec
from ..tab_model import Refusal, state_model

VIEWS = {"curves": "Curves", "dichotomies": "Dichotomies", "recursion": "Recursion",
         "boolean": "Boolean"}
XAXIS = {"ratio": "N / (M + 1)", "n": "N"}
TILES_PER_PAGE = 64
MAX_PAGES = 2**MAX_DICHOTOMY_POINTS // TILES_PER_PAGE
DEFAULT_MS = (1, 2, 5, 20, 100, 1000)
#: An example where three points lie on one line (Sayed Fig. 60.13's situation).
COLLINEAR = (-0.8, -0.6, 0.0, 0.0, 0.8, 0.6, 0.5, -0.7)
#: The refusal of a second Monte Carlo run; it goes when the running one ends.
RUNNING = Refusal(N_("a Monte Carlo run is already going; Stop it first"))
LIMIT_TEXT = (f"the grid lists all 2^N dichotomies, and 2^{MAX_DICHOTOMY_POINTS} = "
              f"{2**MAX_DICHOTOMY_POINTS:,} is the most this tab enumerates")

VIEW_TIPS = {"curves": "Cover's curves and Monte Carlo",
             "dichotomies": "All dichotomies of a small point set",
             "recursion": "The recursion (60.73) filling a table",
             "boolean": "Linearly separable Boolean functions"}

# Each setting's control (explorer.app.state_field.Control); an export's caption depends on the
# view and is written by the view.
SPEC = StateSpec("cover", [
    Field("view", N_("view"), "choice", "curves", choices=tuple(VIEWS), control=Control(
        "buttons", description=N_("Show"), titles=VIEWS.items(), tips=VIEW_TIPS.items())),
    Field("ms", N_("M values"), "ints", DEFAULT_MS, item_min=1, item_max=cover.MAX_M,
          max_len=cover.MAX_CURVES, control=Control("text")),
    Field("xaxis", N_("x-axis"), "choice", "ratio", choices=tuple(XAXIS), control=Control(
        "buttons", titles=XAXIS.items(), tips=[("ratio", "x = N / (M + 1): every curve halves at 2"),
                                               ("n", "x = N on a log scale")])),
    Field("trials", N_("trials per point"), "int", 100, min=10, max=cover.MC_MAX_TRIALS,
          control=Control("text")),
    Field("seed", N_("seed"), "int", 0, min=0, max=2**31 - 1, control=Control("text")),
    # greyed out while points are placed, showing how many
    Field("n_points", N_("points N"), "int", 4, min=1, max=MAX_DICHOTOMY_POINTS, control=Control(
        "text", enabled=lambda m: not m.points, off_shows=lambda m: str(len(m.X)))),
    Field("points", N_("placed points"), "floats", [], item_min=-1.1, item_max=1.1,
          max_len=2 * MAX_DICHOTOMY_POINTS, optional=True),
    Field("page", N_("page"), "int", 1, min=1, max=MAX_PAGES),
    Field("rec_m", N_("largest M"), "int", 4, min=1, max=cover.REC_MAX_M, control=Control("text")),
    Field("rec_n", N_("largest N"), "int", 10, min=2, max=cover.REC_MAX_N, control=Control("text")),
    Field("step", N_("cells filled"), "int", 0, min=0, max=10**6),
])
#: The parameters :meth:`CoverModel.update` takes: every field but the step.
PARAMS = tuple(name for name in SPEC.names if name != "step")


class CoverModel(state_model(SPEC, params=PARAMS)):
    """Everything the Cover tab shows, as traits (see module docstring): one per field of
    :data:`SPEC` (``step`` among them; ``ms`` a list, sorted), and what is computed from them."""

    curves = Tuple()
    X = Instance(np.ndarray, allow_none=True)
    dich = Instance(Dichotomies, allow_none=True)
    page_ids = Instance(np.ndarray, allow_none=True)
    page_w = Instance(np.ndarray, allow_none=True)
    page_b = Instance(np.ndarray, allow_none=True)
    table = Instance(cover.RecursionTable, allow_none=True)
    mc = Tuple()
    mc_running = Bool(False)
    mc_done = Int(0)
    mc_total = Int(0)
    mc_note = Unicode("")
    revision = Int(0)

    def __init__(self, **params):
        super().__init__()
        self._mc = Job("cover-monte-carlo")
        self._mc_key = None
        self._bool = None
        self._bool_job = None
        if not self.update(**params, _force=True):
            raise ValueError(self.message)

    # ------------------------------------------------------------------ derived
    @property
    def n_steps(self) -> int:
        """Interior cells of the recursion table (the edges are filled at step 0)."""
        t = self.table
        return 0 if t is None else sum(not t.is_edge(m, N) for m, N in t.order)

    @property
    def n_pages(self) -> int:
        return max(1, int(np.ceil(2 ** len(self.X) / TILES_PER_PAGE)))

    def boolean_rows(self, post=None):
        """Sayed's Table 60.3, and the seconds the count of M <= 4 took (None while it runs).

        Counting M = 4 takes 2-3 s the first time: with ``post`` (see
        :meth:`start_monte_carlo`) it runs in a thread and the rows have M <= 3 counted until it
        ends (then ``revision`` is bumped); without, it runs at once.
        """
        if self._bool is not None:
            return self._bool
        if post is None:
            t0 = time.perf_counter()
            self._bool = (cover.boolean_table(count_up_to=4), time.perf_counter() - t0)
            return self._bool
        if self._bool_job is None:
            def work(report):
                t0 = time.perf_counter()
                rows = cover.boolean_table(count_up_to=4)
                report.post(lambda: self._bool_done(rows, time.perf_counter() - t0))

            self._bool_job = Job("cover-boolean")
            self._bool_job.start(work, post=post)
        return cover.boolean_table(count_up_to=3), None

    def _bool_done(self, rows, seconds) -> None:
        self._bool = (rows, seconds)
        self.revision += 1

    def _points_array(self, p) -> np.ndarray:
        if p["points"]:
            return np.asarray(p["points"], dtype=float).reshape(-1, 2)
        return cover.random_points(p["n_points"], seed=p["seed"])

    # ------------------------------------------------------------------ committing
    def _parse(self, changes: dict) -> dict:
        if "n_points" in changes:
            try:
                n = int(str(changes["n_points"]).strip())
            except ValueError:
                n = None
            if n is not None and n > MAX_DICHOTOMY_POINTS:
                raise ValueError(f"points N must be at most {MAX_DICHOTOMY_POINTS}; got "
                                 f"{n}: {LIMIT_TEXT}")
        out = super()._parse(changes)
        if "ms" in out:
            out["ms"] = list(cover.check_m_values(out["ms"]))
        if "points" in out and len(out["points"]) % 2:
            raise ValueError("placed points must be x1, x2 pairs; got an odd count of numbers")
        return out

    def update(self, _force: bool = False, _step: int | None = None, **changes) -> bool:
        """Apply parameter changes (typed values or text) if they are valid; else refuse."""
        self._check_params(changes)
        try:
            changes = self._parse(changes)
            p = self._params() | changes
            return self._commit(p, force=_force, step=_step, page_given="page" in changes)
        except (ValueError, TypeError) as exc:
            self.refuse(exc, kept="settings")
            return False

    def _commit(self, p, *, force: bool, step: int | None, page_given: bool = False) -> bool:
        curves = cover.cover_curves(p["ms"])
        X = self._points_array(p)
        same_points = (not force and self.X is not None and X.shape == self.X.shape
                       and np.array_equal(X, self.X))
        dich = self.dich if same_points else dichotomies(X)
        n_pages = max(1, int(np.ceil(2 ** len(X) / TILES_PER_PAGE)))
        page = p["page"] if same_points or page_given else 1  # new points: back to page 1
        if page > n_pages:
            raise ValueError(f"page must be at most {n_pages} for {len(X)} points; got {page}")
        ids = np.arange((page - 1) * TILES_PER_PAGE, min(page * TILES_PER_PAGE, 2 ** len(X)))
        if same_points and page == self.page and self.page_ids is not None:
            w, b = self.page_w, self.page_b
        else:
            w, b = cover.separators(X, dich.labelings, ids[dich.separable[ids]] if len(ids) else ids)
            w, b = self._spread(ids, dich, w, b)
        table = self.table
        if force or table is None or (table.M_max, table.N_max) != (p["rec_m"], p["rec_n"]):
            table = cover.recursion_table(p["rec_m"], p["rec_n"])
        if (p["seed"], p["trials"]) != self._mc_key:
            self._cancel_monte_carlo()
            mc = ()
        else:
            mc = self.mc
        with self.hold_trait_notifications():
            self.applied += 1  # first: views clear an old refusal before they redraw
            self._assign(p | {"page": page})
            self.curves, self.X, self.dich = curves, X, dich
            self.page_ids, self.page_w, self.page_b = ids, w, b
            self.table = table
            if self.mc is not mc:
                self.mc, self.mc_note = mc, ""
            self._mc_key = (p["seed"], p["trials"])
            interior = self.n_steps
            self.step = int(min(max(self.step if step is None else step, 0), interior))
            self.message = ""
            self.revision += 1
        return True

    @staticmethod
    def _spread(ids, dich, w_sep, b_sep):
        """Separators solved for the separable ids only, put back at their page positions."""
        w = np.full((len(ids), 2), np.nan)
        b = np.full(len(ids), np.nan)
        sep = dich.separable[ids] if len(ids) else np.zeros(0, bool)
        w[sep], b[sep] = w_sep, b_sep
        return w, b

    def go(self, k: int) -> None:
        """Show the recursion table with ``k`` interior cells filled."""
        k = int(min(max(k, 0), self.n_steps))
        if k != self.step:
            self.step = k

    # ------------------------------------------------------------------ the point set
    def _set_points(self, flat) -> bool:
        return self.update(points=[float(v) for v in flat])

    def add_point(self, x1: float, x2: float) -> bool:
        """Place one more point (the first placed point replaces the random set)."""
        if len(self.X) >= MAX_DICHOTOMY_POINTS:
            self.refuse(tr("at most {most} points: the grid lists all 2^N dichotomies, and "
                           "2^{most} = {count} is the most this tab enumerates").format(
                most=MAX_DICHOTOMY_POINTS, count=f"{2 ** MAX_DICHOTOMY_POINTS:,}"))
            return False
        if not (abs(x1) <= 1.1 and abs(x2) <= 1.1):
            self.refuse(tr("place points inside the square from −1.1 to 1.1"))
            return False
        flat = list(self.X.reshape(-1)) if not self.points else list(self.points)
        return self._set_points(flat + [round(float(x1), 3), round(float(x2), 3)])

    def remove_point(self, i: int) -> bool:
        if not 0 <= i < len(self.X) or len(self.X) <= 1:
            self.refuse(tr("keep at least one point"))
            return False
        keep = np.delete(self.X, i, axis=0)
        return self._set_points(np.round(keep, 3).reshape(-1))

    def nearest_point(self, x1: float, x2: float, radius: float) -> int | None:
        d = np.hypot(self.X[:, 0] - x1, self.X[:, 1] - x2)
        i = int(np.argmin(d))
        return i if d[i] <= radius else None

    def load_points(self, X) -> bool:
        """Use a person's points ``X`` (n, 2), n <= :data:`MAX_DICHOTOMY_POINTS`, as the set.

        They are shifted and scaled by one common factor into the square [−1, 1]² the plane
        shows (centre of their bounding box to 0, the longer half side to 1). A shift and a
        uniform scale map lines to lines, so every dichotomy keeps its separability and the
        count is that of the points as given. Refused (state kept) if there are none or more
        than the limit.
        """
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != 2 or not len(X):
            self.refuse(f"expected points x1, x2 (an array of shape (n, 2)); got "
                        f"shape {X.shape}")
            return False
        if len(X) > MAX_DICHOTOMY_POINTS:
            self.refuse(f"{len(X)} points; at most {MAX_DICHOTOMY_POINTS}: {LIMIT_TEXT}")
            return False
        return self._set_points(to_square(X).reshape(-1))

    def collinear_example(self) -> bool:
        """Four points, three of them on one line: the count falls below Cover's formula."""
        return self._set_points(COLLINEAR)

    def random_set(self) -> bool:
        """Back to ``n_points`` random points from ``seed``."""
        return self.update(points=[])

    # ------------------------------------------------------------------ hand-off
    def dichotomy_handoff(self, j: int) -> Handoff:
        """Dichotomy ``j`` of the points, for the Perceptron tab (raises ValueError if
        constant)."""
        if not 0 <= j < 2 ** len(self.X):
            raise ValueError(f"dichotomy must be from 0 to {2 ** len(self.X) - 1}; got {j}")
        y = self.dich.labelings[j]
        if np.all(y == y[0]):
            raise ValueError(f"dichotomy #{j} gives every point the same label, which any line "
                             "beyond the points separates; the Perceptron tab needs both classes")
        return Handoff(tab="perceptron", X=self.X, y=y)

    # ------------------------------------------------------------------ Monte Carlo
    @property
    def mc_busy(self) -> bool:
        return self._mc.busy

    def start_monte_carlo(self, post=None) -> bool:
        """Start a run for the current M set (those <= 100), seed and trials, in a thread.

        ``post(fn)`` runs ``fn`` on the thread that owns the traits (default: call it at once,
        for scripts and tests). Points already estimated with this seed and trials are kept and
        not run again. Returns False (with a message) if refused or already running.
        """
        if self.mc_busy:
            self.refuse(RUNNING)
            return False
        try:
            plan = cover.monte_carlo_plan(self.ms, trials=self.trials)
        except ValueError as exc:
            self.refuse(exc)
            return False
        have = {(pt.M, pt.N) for pt in self.mc}
        plan = tuple(mn for mn in plan if mn not in have)
        trials, seed = self.trials, self.seed
        self.applied += 1
        self.mc_total, self.mc_done, self.mc_running = len(plan) * trials, 0, True
        self.mc_note = f"Monte Carlo: {len(plan)} points × {trials} trials, seed {seed}…"

        def work(report):
            def on_point(pt, done, total):
                report.post(lambda: self._mc_add(pt, done))

            t0 = time.perf_counter()
            try:
                run = cover.monte_carlo_points(plan, trials=trials, seed=seed,
                                               stop=report.stopped, progress=on_point)
                report.post(lambda: self._mc_end(run, time.perf_counter() - t0, None))
            except Exception as exc:  # pragma: no cover - an LP failure becomes a message
                report.post(lambda e=exc: self._mc_end(None, 0.0, e))

        self._mc.start(work, post=post or (lambda fn: fn()))
        return True

    def _mc_add(self, pt, done) -> None:
        self.mc = (*self.mc, pt)
        self.mc_done = done  # views showing the curves redraw on this

    def _mc_end(self, run, seconds, error) -> None:
        self.mc_running = False
        if self.refusal == RUNNING:
            self.message = ""  # no longer true
        if error is not None:
            self.mc_note = f"Monte Carlo failed: {error}"
        elif run.stopped:
            planned = run.planned // max(self.trials, 1)
            self.mc_note = (f"Stopped after {len(run.points)} of {planned} points; the finished "
                            "ones are kept. Each point has its own seed, so Run continues with "
                            "exactly the values a full run gives.")
        else:
            rate = run.checks / seconds if seconds > 0 else float("nan")
            self.mc_note = (f"Monte Carlo done: {len(self.mc)} points, {run.checks} LP checks in "
                            f"{seconds:.1f} s ({rate:.0f} checks/s).")

    def stop_monte_carlo(self) -> None:
        """Ask a running Monte Carlo run to stop (after its current trial); the points it
        finished stay."""
        self._mc.stop()

    def _cancel_monte_carlo(self) -> None:
        """Stop a run whose results no longer apply (new seed or trials): it stays silent."""
        self._mc.cancel()
        self.mc_running = False

    def wait_monte_carlo(self, timeout: float | None = None) -> bool:
        return self._mc.wait(timeout)

    # ------------------------------------------------------------------ declared state
    def _apply_state(self, values: dict) -> bool:
        return self.update(_step=values["step"], **{k: values[k] for k in PARAMS})


def to_square(X) -> np.ndarray:
    """``(X − c) / s``: the centre ``c`` of the bounding box to 0 and its longer half side ``s``
    to 1 (points all equal: only shifted). Separability of every labeling is unchanged."""
    X = np.asarray(X, dtype=float)
    lo, hi = X.min(axis=0), X.max(axis=0)
    centre, half = (lo + hi) / 2, float(np.max(hi - lo)) / 2
    out = (X - centre) / (half if half > 0 else 1.0)
    return np.clip(out, -1.0, 1.0)  # rounding may leave 1 + 1e-16
