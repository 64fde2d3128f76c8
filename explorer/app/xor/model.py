"""State of the XOR tab: the function and its coding, the view, the run settings, the step.

No widgets here. The tab's state is declared once in :data:`SPEC`. Every change builds the new
:class:`explorer.xor.Scene` first and only then commits it; a refused value keeps the last good
state and says why in ``message``. The step shown is a plain integer into the run that the
current view plays (the classic perceptron with its pocket, the perceptron on the lifted
points, the two-layer network's output unit, or the kernel perceptron).
"""

from __future__ import annotations

from traitlets import Instance

from ... import xor
from ...shared.i18n import N_, tr
from ..handoff import Handoff
from ..state import Control, Field, StateSpec
from ..tab_model import state_model

VIEW_TITLES = {"cycling": "Cycling", "proof": "Proof", "grid": "16 functions",
               "feature": "Feature x1·x2", "layers": "Two layers", "kernel": "Kernel"}
VIEW_TIPS = {"cycling": "The classic perceptron cycles; the pocket keeps its best line",
             "proof": "The LP's certificate: both hulls share a point",
             "grid": "All 16 Boolean functions of two inputs; click one to play it",
             "feature": "Add the feature x1·x2: a plane separates the lifted points "
                        "(3-D, drag to rotate)",
             "layers": "Two layers of perceptrons: hidden lines and hidden coordinates",
             "kernel": "The kernel perceptron with a polynomial kernel, step by step"}
CODINGS = {"pm1": "±1", "01": "0/1"}
#: How the function menu lists each of the 16 functions.
FUNCTION_TITLES = [(f.code, f"{f.code:2d}  {f.name}  ({f.bits})") for f in xor.FUNCTIONS]


def _name(code) -> str:
    return xor.function(code).name


# Each setting's control and its place in an export's caption (explorer.app.state_field.Control):
# the caption reads "XOR · inputs ±1 · η = 1 · 6 passes", the file "xor_cycling_XOR_pm1".
SPEC = StateSpec("xor", [
    Field("view", N_("view"), "choice", "cycling", choices=xor.VIEWS, control=Control(
        "buttons", description=N_("View"), titles=VIEW_TITLES.items(), tips=VIEW_TIPS.items(),
        stem="{}")),
    Field("coding", N_("inputs"), "choice", "pm1", choices=tuple(CODINGS), control=Control(
        "buttons", description=N_("Inputs"), titles=CODINGS.items(),
        tips=[("pm1", "Corners at ±1"), ("01", "Corners at 0 and 1")],
        caption=lambda c: f"inputs {CODINGS[c]}", caption_rank=2, stem="{}")),
    # a whole number shown as a list of the 16 functions by name
    Field("function", N_("function number"), "int", xor.XOR, min=0, max=15, control=Control(
        "menu", description=N_("Function"), titles=FUNCTION_TITLES, caption=_name,
        caption_rank=1, stem=_name)),
    Field("eta", N_("η"), "float", 1.0, min=0.0, min_open=True, max=100.0,
          control=Control("text", caption="η = {:g}", caption_rank=3)),
    Field("passes", N_("passes"), "int", 6, min=1, max=500, control=Control(
        "text", help=N_("Passes over the four points in the Cycling run (1–500)"),
        caption="{} passes", caption_rank=3)),
    Field("degree", N_("kernel degree"), "int", 2, min=1, max=6, control=Control(
        "text", description=N_("degree d"),
        help=N_("Degree d of the kernel (⟨x, x'⟩ + c)^d, a whole number 1–6"))),
    Field("kernel_c", N_("kernel c"), "float", 1.0, min=0.0, max=100.0,
          control=Control("text", description=N_("constant c"))),
    Field("pair", N_("hidden units"), "choice", "or_nand", choices=tuple(xor.HIDDEN_PAIRS),
          control=Control("menu", description=N_("Hidden"),
                          titles=[(k, v[0]) for k, v in xor.HIDDEN_PAIRS.items()])),
    Field("step", N_("step"), "int", 0, min=0, max=10**9),
])
#: The scene's parameters: every field but the step.
PARAMS = tuple(name for name in SPEC.names if name != "step")
SCENE_KEYS = ("coding", "function", "eta", "passes", "degree", "kernel_c", "pair")


class XorModel(state_model(SPEC, params=PARAMS)):
    """Everything the XOR tab shows, as traits (see module docstring): one per field of
    :data:`SPEC` (``step`` among them), and the scene built from them."""

    scene = Instance(xor.Scene, allow_none=True)

    def __init__(self, **params):
        super().__init__()
        if not self.update(_force=True, **params):
            raise ValueError(self.message)

    @property
    def n_steps(self) -> int:
        """Steps of the run the current view plays (0 when it plays none)."""
        return 0 if self.scene is None else self.scene.steps(self.view)

    @staticmethod
    def _build(p) -> xor.Scene:
        return xor.build_scene(p["function"], coding=p["coding"], eta=p["eta"],
                               passes=p["passes"], degree=p["degree"], c=p["kernel_c"],
                               pair=p["pair"])

    def update(self, _force: bool = False, _step: int = 0, **changes) -> bool:
        """Apply parameter changes (typed values or text as typed) if they give a valid scene;
        return whether they were applied. A refusal keeps the state and sets ``message``."""
        self._check_params(changes)
        try:
            changes = self._parse(changes)
            p = self._params() | changes
            if _force or self.scene is None or any(p[k] != getattr(self, k) for k in SCENE_KEYS):
                scene = self._build(p)
            else:
                scene = self.scene
        except (ValueError, TypeError) as exc:
            self.refuse(exc, kept="settings")
            return False
        self._commit(p, scene, _step)
        return True

    def _commit(self, p, scene, step) -> None:
        with self.hold_trait_notifications():
            self.applied += 1  # first: views clear an old refusal before they redraw
            self._assign(p)
            self.scene = scene
            self.step = int(min(max(step, 0), scene.steps(p["view"])))
            self.message = ""

    def go(self, k: int) -> None:
        """Show step ``k`` (clamped to the run)."""
        self.step = int(min(max(int(k), 0), self.n_steps))

    def open_function(self, code) -> bool:
        """Open function ``code`` (0..15) in the Cycling view at step 0; ``None`` (an empty
        selection) is refused with a message."""
        if code is None or code == "":
            self.refuse(tr("choose a function in the list first"), kept="settings")
            return False
        return self.update(function=code, view="cycling")

    def perceptron_handoff(self) -> Handoff | None:
        """The current points for the Perceptron tab, with this tab's η and the pocket rule
        (None, with a refusal, when the function has one class only: that tab needs both)."""
        sc = self.scene
        if len(set(sc.y.tolist())) < 2:
            self.refuse(tr("{name} has one class only; the Perceptron tab needs points of both "
                           "classes").format(name=xor.function(self.function).name))
            return None
        return Handoff(tab="perceptron", X=sc.X, y=sc.y, settings={
            "eta": float(self.eta), "rule": "pocket", "fit_intercept": True})

    # ------------------------------------------------------------------ declared state
    def _apply_state(self, values: dict) -> bool:
        return self.update(_force=True, _step=values["step"], **{k: values[k] for k in PARAMS})
