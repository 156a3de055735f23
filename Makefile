# GNU make. `make run` serves the site on SQLite; `make test` is what CI runs.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
MANAGE := $(PY) manage.py
# Only needed when not root (we are root in CI).
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PYTEST_ARGS ?=
# The suite runs in one process per core (pytest-xdist; a worker that runs out of tests takes
# some of another's, so a long test near the end does not leave a core idle); PYTEST_WORKERS=0
# runs it in this one.
PYTEST_WORKERS ?= auto

# Debug is off unless asked for (tarot_scores/settings.py); the development targets ask for it.
run migrations messages bench: export DJANGO_DEBUG ?= 1

.PHONY: help run test lint fmt typecheck contracts migrations pytest chromium messages bench clean lock

help:
	@echo "make run      serve http://127.0.0.1:8000 and run the jobs' worker (SQLite, demo club)"
	@echo "make test     lint, format check, mypy, import contracts and the whole suite incl. browser tests"
	@echo "make lint | fmt | messages | bench | lock | clean"

# Every install comes from uv.lock (exact versions, each file's hash checked), with uv (a PyPI
# package, pinned here, kept in .tools): the same set for `make run`, `make test`, CI and the
# image. `make lock` writes uv.lock again after a change of pyproject.toml's dependencies;
# `--locked` refuses to install from a lock that no longer matches pyproject.toml.
UV_VERSION := 0.13.9
UV := .tools/bin/uv
export UV_LINK_MODE := copy
# Bytecode written at install: a process started with PYTHONDONTWRITEBYTECODE (as here) would
# otherwise compile every library it imports, at every start.
export UV_COMPILE_BYTECODE := 1
export UV_PYTHON := $(PYTHON)
export UV_PYTHON_DOWNLOADS := never

$(UV):
	$(PYTHON) -m pip install --quiet --disable-pip-version-check --target .tools uv==$(UV_VERSION)

# Stamp files: reinstall only when pyproject.toml or uv.lock changes. `make run` leaves the
# test tools in place if `make test` installed them (--inexact).
$(VENV)/.installed: pyproject.toml uv.lock | $(UV)
	$(UV) sync --locked --inexact --quiet
	touch $@

$(VENV)/.installed-dev: pyproject.toml uv.lock | $(UV)
	$(UV) sync --locked --extra dev --quiet
	touch $@ $(VENV)/.installed

lock: | $(UV)
	$(UV) lock

# The checks run once, in runserver: migrate and load_demo skip theirs (each costs a start-up).
run: $(VENV)/.installed
	$(MANAGE) migrate --noinput --skip-checks
	$(MANAGE) load_demo --if-empty --skip-checks
	@# The background jobs' worker runs beside the site and stops with it (Ctrl+C).
	$(MANAGE) worker & worker=$$!; trap 'kill $$worker 2>/dev/null || true' EXIT; \
		$(MANAGE) runserver 127.0.0.1:8000

# What the tests need from Debian: the browser, GNU gettext (the catalogue test runs
# makemessages), and node with npm (the TypeScript client's check, tests/api/ts: its npm
# packages pinned by package-lock.json, installed with `npm ci`).
chromium:
	@command -v chromium >/dev/null && command -v msgfmt >/dev/null && command -v node >/dev/null \
		&& command -v npm >/dev/null || ( \
		export DEBIAN_FRONTEND=noninteractive; \
		$(SUDO) apt-get update && $(SUDO) apt-get install -y --no-install-recommends \
			chromium gettext nodejs npm )
	@[ tests/api/ts/node_modules/.package-lock.json -nt tests/api/ts/package-lock.json ] || \
		( cd tests/api/ts && npm ci --no-audit --no-fund --ignore-scripts )

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

fmt: $(VENV)/.installed-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy

# Imports go the ways docs/architecture.md says (import-linter; contracts in pyproject.toml).
contracts: $(VENV)/.installed-dev
	$(BIN)/lint-imports

# Every model change has its migration.
migrations: $(VENV)/.installed-dev
	$(MANAGE) makemigrations --check --dry-run

pytest: $(VENV)/.installed-dev chromium
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

test: lint typecheck contracts migrations pytest

messages: $(VENV)/.installed
	$(MANAGE) makemessages -l fr --ignore='staticfiles/*' --ignore='bench/*' --ignore='tests/*'
	$(MANAGE) compilemessages -l fr --ignore=.venv

BENCHES := scoring seating entry tournament_load

bench: $(VENV)/.installed-dev
	@for b in $(BENCHES); do echo "== bench/$$b.py"; (cd bench && ../$(PY) $$b.py); done

clean:
	rm -rf $(VENV) .tools *.egg-info staticfiles .pytest_cache .mypy_cache .ruff_cache .import_linter_cache .hypothesis test-results
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
