# Two commands: `make run` serves the game, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
NODE ?= node
# Two stamps: `make run` installs only what the server needs at run time (pyproject's
# dependencies); `make test` (and lint, bench, cluster) adds the `dev` extra on top.
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
# `make run` serves from the checkout: only the dependencies are installed, not the package
# (no build step); bytecode is compiled as modules are first imported (--no-compile).
RUN_REQS := $(VENV)/requirements-run.txt
# bench/load.py's load generator: Node and the `ws` package (skipped where npm is absent).
NODE_STAMP := bench/node/node_modules/.installed

.PHONY: install run cluster test lint bench clean

$(RUN_STAMP): pyproject.toml
	@echo "==> [1/3] Creating the virtual environment $(VENV)"
	$(PYTHON) -m venv $(VENV)
	@echo "==> [2/3] Reading the run-time packages from pyproject.toml into $(RUN_REQS)"
	$(PY) -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies'], sep='\n')" > $(RUN_REQS)
	@echo "==> [3/3] Installing them (pip prints each one)"
	$(PY) -m pip install --no-compile --progress-bar on -r $(RUN_REQS)
	touch $(RUN_STAMP)

$(DEV_STAMP): $(RUN_STAMP)
	@echo "==> Installing the test, lint and browser tooling (the dev extra)"
	$(PY) -m pip install --progress-bar on -e '.[dev]'
	touch $(DEV_STAMP)

install: $(DEV_STAMP)

$(NODE_STAMP): bench/node/package.json bench/node/package-lock.json
	@if command -v npm >/dev/null; then \
		cd bench/node && npm ci --no-audit --no-fund --silent && touch node_modules/.installed; \
	else echo "npm not found: bench/load.py needs --client python"; fi

run: $(RUN_STAMP)
	$(PY) -m server

# N instances on 127.0.0.1:8001... behind HAProxy on http://127.0.0.1:8080 (Redis + PostgreSQL).
N ?= 2
cluster: install
	scripts/ensure-haproxy.sh
	$(PY) -m server.cluster.dev --instances $(N)

test: install $(NODE_STAMP)
	scripts/ensure-browser.sh
	scripts/ensure-haproxy.sh
	$(PY) -m ruff check .
	$(PY) -m mypy server
	$(VENV)/bin/lint-imports
	$(VENV)/bin/hadolint Dockerfile
	$(NODE) --test tests/js/
	$(PY) -m pytest --numprocesses 2 --dist loadfile

lint: install
	$(PY) -m ruff check .
	$(PY) -m mypy server
	$(VENV)/bin/lint-imports
	$(VENV)/bin/hadolint Dockerfile

bench: install $(NODE_STAMP)
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
