"""Run unit tests with some dependencies at the lowest versions ``pyproject.toml`` allows.

Each chosen package's floor (its ``>=`` bound) is installed, without its dependencies, into a
directory of its own that goes first on ``PYTHONPATH``; the venv itself is not touched. Run
from the repository's root, e.g.::

    .venv/bin/python scripts/test_at_floors.py --only matplotlib,voila,ipywidgets \\
        tests/test_adapters.py tests/test_text_placement.py

Without ``--only`` every floor is tried; some (an old Pillow, numpy or numba) have no wheels
for a newer Python, so the run at every floor at once belongs on the oldest Python the
project supports (``requires-python``). Arguments after the options go to pytest.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]


def floors() -> dict[str, str]:
    """``{package: lowest version}`` of the project's dependencies with a ``>=`` bound."""
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    out = {}
    for dep in deps:
        name, spec = re.match(r"([A-Za-z0-9_.-]+)\s*([^;]*)", dep).groups()
        for part in spec.split(","):
            if part.strip().startswith(">="):
                out[name.lower()] = part.strip()[2:]
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="comma-separated packages (default: all)")
    parser.add_argument("--target", default="/tmp/perceptron-explorer-floors",
                        help="where the floors are installed")
    args, pytest_args = parser.parse_known_args(argv)
    chosen = floors()
    if args.only:
        wanted = {p.strip().lower() for p in args.only.split(",")}
        unknown = wanted - set(chosen)
        if unknown:
            parser.error(f"no floor declared for {', '.join(sorted(unknown))}")
        chosen = {k: v for k, v in chosen.items() if k in wanted}
    pins = [f"{name}=={low}" for name, low in sorted(chosen.items())]
    print("floors:", " ".join(pins), flush=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--upgrade",
                    "--target", args.target, *pins], check=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [args.target, *filter(None, [os.environ.get("PYTHONPATH")])])}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           *(pytest_args or ["tests/test_adapters.py"])], env=env,
                          cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
