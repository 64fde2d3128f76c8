"""Imports point one way: the core loads no drawing, no widgets and no serving; serving is apart.

The core is every flat module of ``explorer/`` (found by glob, so a new module is checked the day
it is added); drawing is ``explorer.plots``, widgets ``explorer.app``, serving ``explorer.serving``.
"""

import pathlib
import subprocess
import sys

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "explorer"
CORE = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__")
#: What the core must never load: drawing, widgets, their kernel side, and serving.
GUI_AND_SERVING = ("matplotlib", "ipywidgets", "traitlets", "anywidget", "ipympl", "ipykernel",
                   "voila", "tornado", "jupyter_server", "explorer.plots", "explorer.app",
                   "explorer.serving")


def _loaded_after(imports: list[str], forbidden: tuple[str, ...]) -> list[str]:
    code = (
        "import sys, importlib\n"
        f"for m in {imports!r}:\n"
        "    importlib.import_module(m)\n"
        f"bad = sorted(k for k in sys.modules if any(k == f or k.startswith(f + '.') "
        f"for f in {forbidden!r}))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return [m for m in out.stdout.strip().split(",") if m]


def test_the_core_is_found_by_glob():
    assert {"perceptron", "bounds", "generalization", "replay"} <= set(CORE)
    assert not (PACKAGE / "serve.py").exists() and not (PACKAGE / "hall.py").exists()


def test_core_imports_no_drawing_widgets_or_serving():
    bad = _loaded_after([f"explorer.{m}" for m in CORE], GUI_AND_SERVING)
    assert bad == [], f"the core pulled in: {bad}"


def test_drawing_imports_no_widgets_or_serving():
    bad = _loaded_after(["explorer.plots"], ("ipywidgets", "anywidget", "ipympl", "voila",
                                             "tornado", "explorer.app", "explorer.serving"))
    assert bad == [], f"explorer.plots pulled in: {bad}"


def test_widgets_import_no_serving():
    bad = _loaded_after(["explorer.app"], ("voila", "jupyter_server", "explorer.serving"))
    assert bad == [], f"explorer.app pulled in: {bad}"


def test_small_runs_and_the_dashboard_never_import_numba():
    """The compiled loop is for long runs only: opening the package, training on small data and
    building the dashboard must not pay numba's import (about half a second)."""
    code = (
        "import sys\n"
        "from explorer import datasets\n"
        "from explorer.perceptron import train\n"
        "ds = datasets.load('separable', n=2000, seed=0)\n"
        "train(ds.X, ds.y, max_epochs=20)\n"
        "from explorer.app import dashboard\n"
        "dashboard(query='')\n"
        "print(','.join(sorted(k for k in sys.modules if k.split('.')[0] in ('numba', 'llvmlite'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1:] in ([], [""]), f"pulled in: {out.stdout.strip()}"
