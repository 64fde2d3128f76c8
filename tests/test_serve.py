"""The serving command: its Voila command line and the dashboard notebook it serves."""

from pathlib import Path

import nbformat

from explorer.serving import serve


def test_dry_run_prints_the_voila_command(capsys):
    assert serve.main(["--port", "8899", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "-m explorer.serving.page" in out and "--port=8899" in out and "--Voila.ip=127.0.0.1" in out
    assert "cull_idle_timeout=600" in out and "dashboard.ipynb" in out
    # kernels forked from the fork server (explorer/serving/forkserver.py), unless --no-fork
    assert "--KernelProvisionerFactory.default_provisioner_name=explorer-fork-provisioner" in out
    assert serve.main(["--port", "8899", "--dry-run", "--no-fork"]) == 0
    assert "KernelProvisionerFactory" not in capsys.readouterr().out


def test_the_fork_provisioner_is_registered_with_jupyter_client():
    from importlib.metadata import entry_points

    from explorer.serving.fork_provisioner import ForkProvisioner

    found = entry_points(group="jupyter_client.kernel_provisioners", name=serve.FORK_PROVISIONER)
    assert [ep.load() for ep in found] == [ForkProvisioner]


def test_generated_dashboard_matches_the_checkout(tmp_path, monkeypatch):
    checkout = nbformat.read(serve.find_dashboard(), as_version=4)
    monkeypatch.setattr(serve, "__file__", str(tmp_path / "pkg" / "explorer" / "serve.py"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    generated = nbformat.read(serve.find_dashboard(), as_version=4)
    assert str(serve.find_dashboard()).startswith(str(tmp_path / "cache"))
    assert [(c.cell_type, c.source) for c in generated.cells] == \
        [(c.cell_type, c.source) for c in checkout.cells]


def test_kernel_websockets_send_each_message_at_once(monkeypatch):
    """The kernel websocket connection Voila is told to use turns Nagle's algorithm off before
    it connects (else a kernel's answer waited for the page's next message; see
    explorer/serving/nodelay.py)."""
    from jupyter_server.services.kernels.connection.channels import (
        ZMQChannelsWebsocketConnection,
    )
    from traitlets.utils.importstring import import_item

    args = serve.voila_args(serve.find_dashboard(), 8899)
    [named] = [a.split("=", 1)[1] for a in args
               if a.startswith("--Voila.kernel_websocket_connection_class=")]
    cls = import_item(named)
    assert issubclass(cls, ZMQChannelsWebsocketConnection)

    calls = []
    monkeypatch.setattr(ZMQChannelsWebsocketConnection, "connect",
                        lambda self: calls.append(("connect",)))

    class Handler:
        def set_nodelay(self, value):
            calls.append(("nodelay", value))

    conn = cls.__new__(cls)  # no kernel manager: only connect() is exercised
    monkeypatch.setattr(cls, "websocket_handler", Handler(), raising=False)
    conn.connect()
    assert calls == [("nodelay", True), ("connect",)]


def test_the_page_template_ships_with_the_package_and_is_named_to_voila():
    """The dashboard's Voila template (Voila's "lab" page without stylesheets from a CDN) is in
    the wheel and found through JUPYTER_PATH; the browser test that the page asks nothing of
    the internet is tests/browser/test_dashboard.py::test_the_page_asks_nothing_of_the_internet."""
    import fnmatch
    import json

    import tomllib

    args = serve.voila_args(serve.find_dashboard(), 8899)
    assert f"--VoilaConfiguration.template={serve.TEMPLATE}" in args
    folder = serve.TEMPLATES / "voila" / "templates" / serve.TEMPLATE
    assert json.loads((folder / "conf.json").read_text()) == {"base_template": "lab"}
    page = (folder / "index.html.j2").read_text()
    assert "extends 'voila/templates/lab/index.html.j2'" in page
    root = serve.TEMPLATES.parents[2]  # the checkout
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["explorer.serving"]
    for f in folder.iterdir():
        name = f.relative_to(serve.TEMPLATES.parent).as_posix()
        assert any(fnmatch.fnmatch(name, p) for p in patterns), (name, patterns)


def test_install_template_names_the_template_to_a_servers_voila(tmp_path):
    """binder/postBuild: the template copied where Voila's server extension looks, and named
    in the environment's voila.json (other settings kept). The rendering: tests/test_binder.py
    ::test_binders_voila_renders_the_dashboard_with_its_template (slow)."""
    import json

    config = tmp_path / "etc" / "jupyter" / "voila.json"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"VoilaConfiguration": {"theme": "dark", "template": "lab"},
                                  "Other": {"x": 1}}))
    folder, written = serve.install_template(tmp_path)
    assert written == config
    assert json.loads(config.read_text()) == {
        "VoilaConfiguration": {"theme": "dark", "template": serve.TEMPLATE}, "Other": {"x": 1}}
    assert folder == tmp_path / "share" / "jupyter" / "voila" / "templates" / serve.TEMPLATE
    source = serve.TEMPLATES / "voila" / "templates" / serve.TEMPLATE
    assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in source.iterdir())
    assert (folder / "index.html.j2").read_text() == (source / "index.html.j2").read_text()
    serve.install_template(tmp_path)  # again (a rebuilt image): the same result
    assert json.loads(config.read_text())["VoilaConfiguration"]["template"] == serve.TEMPLATE


def test_the_page_reloads_once_on_the_widget_managers_own_words():
    """The template's recovery (a page restored without its dashboard loads again, once) looks
    for the exact words Voila's widget manager writes; a Voila that words it otherwise fails
    here, not silently in a room."""
    import voila

    words = "Error displaying widget: model not found"
    template = (Path(serve.__file__).parent / "jupyter" / "voila" / "templates" / "explorer"
                / "index.html.j2").read_text(encoding="utf-8")
    assert f'e.textContent === "{words}"' in template and "location.reload()" in template
    assert "sessionStorage.getItem(KEY)" in template  # once, never a loop
    bundles = Path(voila.__file__).parent.glob("labextensions/widgets-manager8/static/*.js")
    assert any(f'textContent="{words}"' in p.read_text(encoding="utf-8", errors="replace")
               for p in bundles)
