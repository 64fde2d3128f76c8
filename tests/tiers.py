"""The test tiers, declared once (README, "Tests"; tests/conftest.py marks them)."""

#: The tiers (README, "Tests"). ``make check`` runs what needs no browser, server or notebook;
#: ``make test`` runs everything: that tier on every core, then these and the browser's serially.
#: Modules that start a server, a kernel or build a fresh environment ...
SERVER_MODULES = frozenset({"test_binder", "test_forkserver", "test_hall", "test_hub_config"})
#: ... and those that execute notebooks.
NOTEBOOK_MODULES = frozenset({"test_binder", "test_notebooks"})
