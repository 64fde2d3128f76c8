# The README's two commands. Both work on a fresh machine with only Python 3.10+ and make.
#   make dashboard   set up and serve the Voila dashboard on 127.0.0.1 (port printed)
#   make test        set up and run every test
#   make check       lint and the tests that need no browser, server or notebook (minutes)
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
PORT   ?= 8866

.PHONY: test check soak dashboard hall hub loadtest setup lint benchmark bench screenshots clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

setup: $(STAMP)

# The tiers (README, "Tests"): the unit tier on every core (pytest-xdist, a test file to a
# worker), then the tests that start servers, run notebooks or drive Chromium, two test files
# at a time (they mostly wait for kernels and pages; each worker starts its own servers on
# free ports).
UNIT := not browser and not server and not notebook and not soak
JOBS ?= auto
SERVER_JOBS ?= 2

check: $(STAMP)
	$(BIN)/python -m ruff check explorer tests benchmarks notebooks scripts
	$(BIN)/python -m pytest -m "$(UNIT)" -n $(JOBS) --dist loadfile $(PYTEST_ARGS)

test: check
	$(BIN)/python -m pytest -m "(browser or server or notebook) and not soak" -n $(SERVER_JOBS) \
		--dist loadfile $(PYTEST_ARGS)

# long runs (about 10 minutes): 10 000 steps in a view, memory and log checked
soak: $(STAMP)
	$(BIN)/python -m pytest -m soak -s $(PYTEST_ARGS)

dashboard: $(STAMP)
	$(BIN)/perceptron-explorer --port $(PORT)

# One shared server for a lecture hall (docs/serving.md): preheated kernels, a cap on pages,
# kernels of closed pages freed within ~75 s.
MAX_PAGES ?= 60
PREHEAT   ?= 4
hall: $(STAMP)
	$(BIN)/perceptron-explorer --hall --port $(PORT) --max-pages $(MAX_PAGES) --preheat $(PREHEAT)

# One machine, one server per student (docs/serving.md): JupyterHub on 127.0.0.1, its proxy
# installed from npm into .hub/ on first use (needs Node.js and npm), students log in with the
# class password (printed; set HUB_PASSWORD=... to choose it; HUB_USERS=FILE lists allowed names).
HUB_PORT     ?= 8000
HUB_PASSWORD ?=
HUB_USERS    ?=
hub: $(STAMP)
	PE_HUB_PASSWORD='$(HUB_PASSWORD)' $(BIN)/python -m explorer.serving.hub --port $(HUB_PORT) \
		$(if $(HUB_USERS),--users $(HUB_USERS))

# 10, 30, 60 simulated pages on loopback, all stepping 3 times a second, then a flood of 150; writes benchmarks/results/loadtest.json.
loadtest: $(STAMP)
	$(BIN)/python scripts/loadtest.py
	$(BIN)/python scripts/room_loadtest.py  # the lecture's room: 500 followers, 3 in Chromium

lint: $(STAMP)
	$(BIN)/python -m ruff check explorer tests benchmarks notebooks scripts

# every benchmark: benchmarks/results.json and the summary of docs/performance.md
bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

benchmark: bench

# README pictures: serve the real dashboard and capture every tab in headless Chromium.
screenshots: $(STAMP)
	$(BIN)/python scripts/screenshots.py

clean:
	rm -rf $(VENV) .hub .pytest_cache .hypothesis build *.egg-info
