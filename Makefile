# Two commands: `make run` serves the game, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
NODE ?= node
# Two stamps: `make run` installs only what the server needs at run time (pyproject's
# dependencies, not the package: it serves from the checkout), with uv, fetched from PyPI
# first when it is not on PATH, else pip (scripts/install-run.sh says why, and each step);
# `make test` (and lint, bench, cluster) adds the `dev` extra on top, with pip.
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
# bench/load.py's load generator: Node and the `ws` package (skipped where npm is absent).
NODE_STAMP := bench/node/node_modules/.installed

.PHONY: install run cluster test lint bench clean

$(RUN_STAMP): pyproject.toml scripts/install-run.sh
	scripts/install-run.sh $(PYTHON) $(VENV)
	touch $(RUN_STAMP)

$(DEV_STAMP): $(RUN_STAMP)
	@echo "==> Installing the test, lint and browser tooling (the dev extra)"
	$(PY) -m pip --version >/dev/null 2>&1 || $(PY) -m ensurepip --upgrade --default-pip
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

# Four workers on a two-core machine: the suite waits on servers, browsers and clocks more
# than it computes (it takes ~1,440 s of CPU; with two workers alone it ran 1,604 s, so the
# cores were ~45% busy).
TEST_WORKERS ?= 4

test: install $(NODE_STAMP)
	scripts/ensure-browser.sh
	scripts/ensure-haproxy.sh
	scripts/ensure-base-image.sh >/dev/null || [ $$? -eq 3 ]  # tests/test_image.py's base
	$(PY) -m ruff check .
	$(PY) -m mypy server
	$(VENV)/bin/lint-imports
	$(VENV)/bin/hadolint Dockerfile
	$(NODE) --test tests/js/
	$(PY) -m pytest --numprocesses $(TEST_WORKERS) --dist loadfile

lint: install
	$(PY) -m ruff check .
	$(PY) -m mypy server
	$(VENV)/bin/lint-imports
	$(VENV)/bin/hadolint Dockerfile

bench: install $(NODE_STAMP)
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
