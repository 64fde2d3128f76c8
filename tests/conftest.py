import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))

#: The tiers (README, "Tests"). ``make check`` runs what needs no browser, server or notebook;
#: ``make test`` runs everything: that tier on every core, then these and the browser's serially.
#: Modules that start a server, a kernel or build a fresh environment ...
SERVER_MODULES = frozenset({"test_binder", "test_forkserver", "test_hall", "test_hub_config"})
#: ... and those that execute notebooks.
NOTEBOOK_MODULES = frozenset({"test_binder", "test_notebooks"})


def pytest_collection_modifyitems(config, items):
    for item in items:
        name = item.module.__name__.rpartition(".")[2] if item.module else ""
        if name in SERVER_MODULES:
            item.add_marker(pytest.mark.server)
        if name in NOTEBOOK_MODULES:
            item.add_marker(pytest.mark.notebook)
