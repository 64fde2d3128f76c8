"""Imports point one way: the core loads neither matplotlib nor ipywidgets."""

import subprocess
import sys

CORE = ["datasets", "perceptron", "rules", "trajectory", "bounds", "losses", "separability", "margins",
        "svm", "counting"]


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
