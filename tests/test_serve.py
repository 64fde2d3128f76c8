"""The serving command: its Voila command line and the dashboard notebook it serves."""

import nbformat

from explorer.serving import serve


def test_dry_run_prints_the_voila_command(capsys):
    assert serve.main(["--port", "8899", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "-m voila" in out and "--port=8899" in out and "--Voila.ip=127.0.0.1" in out
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
