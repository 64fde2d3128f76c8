"""Binder: the pinned environment agrees with pyproject.toml, the README's badges open files that
exist, and (slow) what Binder builds: repo2docker's base environment for Python 3.11
(tests/binder_base_py311.txt, from its lock file), binder/requirements.txt installed over it
(pip check clean), postBuild; in it the dashboard notebook runs, and the notebook server's Voila
renders the dashboard with the package's template."""

from __future__ import annotations

import json
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
#: repo2docker's base environment for binder/runtime.txt's Python (where from: the file's header)
BASE = ROOT / "tests" / "binder_base_py311.txt"
#: Packages of the base environment that binder/requirements.txt pins though pyproject.toml does
#: not depend on them, each with the reason.
BASE_PINNED = {"notebook": "its jupyterlab range must hold binder's jupyterlab"}


def _pins(path: pathlib.Path = BINDER / "requirements.txt") -> dict[str, str]:
    """``{name: version}`` of a file of exact pins (binder/requirements.txt, :data:`BASE`)."""
    pins = {}
    for line in path.read_text().splitlines():
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
    assert extra <= set(BASE_PINNED), (
        f"binder pins packages pyproject does not depend on: {sorted(extra - set(BASE_PINNED))}")
    base = _pins(BASE)
    assert all(name in base for name in BASE_PINNED), "BASE_PINNED names a package not in the base"


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


def _run(*args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)


@pytest.fixture(scope="module")
def binder_env(tmp_path_factory):
    """What Binder builds, without Docker: a venv holding repo2docker's base environment (the
    Python packages of its lock file at their versions, :data:`BASE`, installed without their
    dependencies as conda installed them, and its pip), binder/requirements.txt installed over it
    as repo2docker does (``pip install -r``), then binder/postBuild. The downloads stay in pip's
    cache for the next run."""
    runtime = (BINDER / "runtime.txt").read_text().strip()
    if runtime != f"python-{sys.version_info.major}.{sys.version_info.minor}":
        pytest.skip(f"Binder runs {runtime} (binder/runtime.txt); this is Python "
                    f"{sys.version_info.major}.{sys.version_info.minor}")
    tmp = tmp_path_factory.mktemp("binder")
    venv = tmp / "venv"
    py = venv / "bin" / "python"
    env = {**os.environ, "PATH": f"{venv / 'bin'}:{os.environ['PATH']}",
           "JUPYTER_DATA_DIR": str(tmp / "jupyter"),  # no kernels but the venv's own
           "JUPYTER_CONFIG_DIR": str(tmp / "jupyter-config"),
           "JUPYTER_RUNTIME_DIR": str(tmp / "jupyter-runtime"),
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    for key in ("VIRTUAL_ENV", "JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "PYTHONPATH"):
        env.pop(key, None)

    def pip(*args):
        done = _run(py, "-m", "pip", *args, env=env, timeout=1800)
        assert done.returncode == 0, f"pip {' '.join(map(str, args))}:\n{done.stderr[-3000:]}"
        return done

    assert _run(sys.executable, "-m", "venv", venv).returncode == 0
    pip("install", "-q", f"pip=={_pins(BASE)['pip']}")
    pip("install", "-q", "--no-deps", "-r", BASE)
    base_check = _run(py, "-m", "pip", "check", env=env)
    assert base_check.returncode == 0, f"the base alone: {base_check.stdout}"  # as conda made it
    installed = pip("install", "-r", BINDER / "requirements.txt")
    check = _run(py, "-m", "pip", "check", env=env)
    post = _run("bash", BINDER / "postBuild", cwd=ROOT, env=env, timeout=600)
    assert post.returncode == 0, post.stderr[-3000:]
    return {"py": py, "env": env, "tmp": tmp, "installed": installed, "check": check}


@pytest.mark.slow
def test_the_pins_install_cleanly_over_binders_base_environment(binder_env):
    """repo2docker's base for Python 3.11 ships notebook 7.4.7, which requires jupyterlab<4.5;
    pinning jupyterlab 4.6.6 alone, pip reported the conflict and left it. Every requirement of
    every installed package must hold, and binder's pins be what is installed."""
    out = binder_env["installed"].stdout + binder_env["installed"].stderr
    conflicts = [line for line in out.splitlines()
                 if "dependency conflicts" in line or "incompatible" in line]
    assert conflicts == []
    check = binder_env["check"]
    assert check.returncode == 0 and "No broken requirements found" in check.stdout, check.stdout
    listed = _run(binder_env["py"], "-c",
                  "import importlib.metadata as m, json; print(json.dumps("
                  "{d.metadata['Name']: d.version for d in m.distributions()}))",
                  env=binder_env["env"])
    versions = {canonicalize_name(k): v for k, v in json.loads(listed.stdout).items()}
    assert {name: versions.get(name) for name in _pins()} == _pins()


@pytest.mark.slow
def test_dashboard_runs_in_the_binder_environment(binder_env):
    """The dashboard notebook executed headless in that environment's own kernel, with the
    package postBuild installed (not this checkout)."""
    py, env, tmp = binder_env["py"], binder_env["env"], binder_env["tmp"]
    out = tmp / "dashboard.ipynb"
    run = _run(
        py, "-c", (
            "import sys, nbformat, nbclient\n"
            "nb = nbformat.read(sys.argv[1], as_version=4)\n"
            "nbclient.NotebookClient(nb, kernel_name='python3', timeout=300,\n"
            "    resources={'metadata': {'path': sys.argv[2]}}).execute()\n"
            "nbformat.write(nb, sys.argv[3])\n"
            "import explorer; print('explorer from', explorer.__file__)\n"),
        ROOT / "notebooks" / "dashboard.ipynb", tmp, out, cwd=tmp, env=env, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    assert str(py.parent.parent) in run.stdout, run.stdout  # the installed package
    nb = out.read_text()
    assert '"output_type": "error"' not in nb
    assert "application/vnd.jupyter.widget-view+json" in nb  # the dashboard widget was displayed


@pytest.mark.slow
def test_binders_voila_renders_the_dashboard_with_its_template(binder_env):
    """The README's badge opens voila/render/notebooks/dashboard.ipynb on the notebook server,
    where Voila is a server extension: postBuild makes it render with the package's template
    (explorer/serving/jupyter/voila/templates/explorer), so the page links no stylesheet from a
    CDN and names no MathJax on cdnjs (Voila's own copy is used)."""
    import secrets
    import time
    import urllib.request

    from explorer.serving.serve import free_port

    py, env, tmp = binder_env["py"], binder_env["env"], binder_env["tmp"]
    port, token = free_port(), secrets.token_hex(16)
    args = [py, "-m", "jupyter_server", f"--port={port}", "--ip=127.0.0.1", "--no-browser",
            f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={ROOT}"]
    if os.geteuid() == 0:
        args.append("--allow-root")
    log = open(tmp / "server.log", "wb")  # noqa: SIM115 - closed below
    server = subprocess.Popen([str(a) for a in args], cwd=tmp, env=env, stdout=log,
                              stderr=subprocess.STDOUT, start_new_session=True)
    try:
        url = f"http://127.0.0.1:{port}/voila/render/notebooks/dashboard.ipynb?token={token}"
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(url, timeout=300) as answer:
                    page = answer.read().decode()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, \
                    (tmp / "server.log").read_text()[-3000:]
                time.sleep(0.5)
    finally:
        server.terminate()
        server.wait(30)
        log.close()
    assert "/voila/templates/explorer/static/" in page  # the template, not Voila's "lab"
    links = re.findall(r"<link[^>]*>", page)
    assert links and not [link for link in links if "https://" in link], links
    config = json.loads(re.search(r'<script id="jupyter-config-data" type="application/json">'
                                  r"\s*(.*?)\s*</script>", page, re.S).group(1))
    assert config["fullMathjaxUrl"] is None and config["mathjaxConfig"] is None, config
