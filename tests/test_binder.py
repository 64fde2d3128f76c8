"""Binder: the pinned environment agrees with pyproject.toml, the README's badges open files that
exist, and (slow) the dashboard notebook runs in a fresh environment built from binder/ alone."""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys
import urllib.parse

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
BINDER = ROOT / "binder"


def _pins() -> dict[str, str]:
    pins = {}
    for line in (BINDER / "requirements.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        req = Requirement(line)  # a local path or URL would not parse as name==version
        assert req.url is None and len(req.specifier) == 1, f"not an exact pin: {line!r}"
        (spec,) = req.specifier
        assert spec.operator == "==", f"not an exact pin: {line!r}"
        pins[canonicalize_name(req.name)] = spec.version
    return pins


def _project():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_binder_pins_every_dependency_within_pyproject_ranges():
    pins = _pins()
    for dep in _project()["dependencies"]:
        req = Requirement(dep)
        name = canonicalize_name(req.name)
        assert name in pins, f"binder/requirements.txt does not pin {req.name} (pyproject: {dep})"
        assert req.specifier.contains(pins[name], prereleases=True), (
            f"binder pins {req.name}=={pins[name]}, outside pyproject's {req.specifier}")
    extra = set(pins) - {canonicalize_name(Requirement(d).name) for d in _project()["dependencies"]}
    assert not extra, f"binder pins packages pyproject does not depend on: {sorted(extra)}"


def test_binder_runtime_and_postbuild():
    runtime = (BINDER / "runtime.txt").read_text().strip()
    m = re.fullmatch(r"python-3\.(\d+)", runtime)
    assert m, runtime
    low = re.search(r">=3\.(\d+)", _project()["requires-python"]).group(1)
    assert int(m.group(1)) >= int(low)
    post = BINDER / "postBuild"
    assert os.access(post, os.X_OK), "binder/postBuild must be executable"
    assert "pip install --no-deps ." in post.read_text()


def _badges() -> list[tuple[str, str]]:
    """Each Binder link in the README with the path it opens (its ``urlpath``)."""
    urls = re.findall(r"\((https://mybinder\.org/v2/gh/[^)\s]+)\)", (ROOT / "README.md").read_text())
    return [(u, urllib.parse.parse_qs(urllib.parse.urlparse(u).query).get("urlpath", [""])[0])
            for u in urls]


def test_readme_badges_open_the_dashboard_and_the_first_notebook():
    badges = _badges()
    paths = [p for _, p in badges]
    assert "voila/render/notebooks/dashboard.ipynb" in paths, paths
    assert "lab/tree/notebooks/01_perceptron.ipynb" in paths, paths
    repo = _project()["urls"]["Repository"].removeprefix("https://github.com/")
    for url, path in badges:
        assert f"/v2/gh/{repo}/" in url, f"{url} does not point at {repo}"
        file = path.split("/", 2)[2]  # voila/render/<file>, lab/tree/<file>
        assert (ROOT / file).is_file(), f"the badge opens {file}, which does not exist"


@pytest.mark.slow
def test_dashboard_runs_in_a_fresh_binder_environment(tmp_path):
    """What Binder does, without Docker: a new venv, binder/requirements.txt, postBuild, then
    the dashboard notebook executed headless in that environment's own kernel."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    env = {**os.environ, "PATH": f"{venv / 'bin'}:{os.environ['PATH']}",
           "JUPYTER_DATA_DIR": str(tmp_path / "jupyter"),  # no kernels but the venv's own
           "JUPYTER_CONFIG_DIR": str(tmp_path / "jupyter-config"),
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("VIRTUAL_ENV", None)
    subprocess.run([str(py), "-m", "pip", "install", "-q", "-r", str(BINDER / "requirements.txt"),
                    "nbclient"], check=True, env=env, timeout=1200)
    subprocess.run(["bash", str(BINDER / "postBuild")], check=True, cwd=ROOT, env=env, timeout=600)
    out = tmp_path / "dashboard.ipynb"
    run = subprocess.run(
        [str(py), "-c", (
            "import sys, nbformat, nbclient\n"
            "nb = nbformat.read(sys.argv[1], as_version=4)\n"
            "nbclient.NotebookClient(nb, kernel_name='python3', timeout=300,\n"
            "    resources={'metadata': {'path': sys.argv[2]}}).execute()\n"
            "nbformat.write(nb, sys.argv[3])\n"
            "import explorer; print('explorer from', explorer.__file__)\n"),
         str(ROOT / "notebooks" / "dashboard.ipynb"), str(tmp_path), str(out)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    assert str(venv) in run.stdout, run.stdout  # the installed package, not this checkout
    nb = out.read_text()
    assert '"output_type": "error"' not in nb
    assert "application/vnd.jupyter.widget-view+json" in nb  # the dashboard widget was displayed
