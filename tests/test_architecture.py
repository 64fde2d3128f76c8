"""Imports point one way: the core loads neither matplotlib nor ipywidgets."""

import subprocess
import sys

CORE = ["datasets", "perceptron", "rules", "trajectory", "bounds", "losses", "separability", "margins",
        "svm", "counting", "cover", "cycles", "repeats", "kernel_perceptron", "xor", "geometry",
        "replay"]


def test_core_imports_no_plotting_or_widgets():
    code = (
        "import sys, importlib\n"
        f"for m in {CORE!r}:\n"
        "    importlib.import_module('explorer.' + m)\n"
        "bad = sorted(k for k in sys.modules if k.split('.')[0] in ('matplotlib', 'ipywidgets'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"core pulled in: {out.stdout.strip()}"


def test_small_runs_and_the_dashboard_never_import_numba():
    """The compiled loop is for long runs only: opening the package, training on small data and
    building the dashboard must not pay numba's import (about half a second)."""
    code = (
        "import sys\n"
        "import matplotlib; matplotlib.use('module://ipympl.backend_nbagg')\n"
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
