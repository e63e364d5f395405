# Two commands: `make run` serves the game, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
NODE ?= node
STAMP := $(VENV)/.installed

.PHONY: install run cluster test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: install
	$(PY) -m server

# N instances on 127.0.0.1:8001... behind nginx on http://127.0.0.1:8080 (Redis + PostgreSQL).
N ?= 2
cluster: install
	scripts/ensure-nginx.sh
	$(PY) -m server.cluster.dev --instances $(N)

test: install
	scripts/ensure-browser.sh
	scripts/ensure-nginx.sh
	$(PY) -m ruff check .
	$(PY) -m mypy server
	$(NODE) --test tests/js/
	$(PY) -m pytest

lint: install
	$(PY) -m ruff check .
	$(PY) -m mypy server

bench: install
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
