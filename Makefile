# Two commands: `make run` serves the game, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
NODE ?= node
STAMP := $(VENV)/.installed
# bench/load.py's load generator: Node and the `ws` package (skipped where npm is absent).
NODE_STAMP := bench/node/node_modules/.installed

.PHONY: install run cluster test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

$(NODE_STAMP): bench/node/package.json bench/node/package-lock.json
	@if command -v npm >/dev/null; then \
		cd bench/node && npm ci --no-audit --no-fund --silent && touch node_modules/.installed; \
	else echo "npm not found: bench/load.py needs --client python"; fi

run: install
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
	$(NODE) --test tests/js/
	$(PY) -m pytest --numprocesses 2 --dist loadfile

lint: install
	$(PY) -m ruff check .
	$(PY) -m mypy server
	$(VENV)/bin/lint-imports

bench: install $(NODE_STAMP)
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
