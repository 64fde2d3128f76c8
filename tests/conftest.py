import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from tiers import NOTEBOOK_MODULES, SERVER_MODULES  # noqa: E402


def pytest_collection_modifyitems(config, items):
    for item in items:
        name = item.module.__name__.rpartition(".")[2] if item.module else ""
        if name in SERVER_MODULES:
            item.add_marker(pytest.mark.server)
        if name in NOTEBOOK_MODULES:
            item.add_marker(pytest.mark.notebook)
