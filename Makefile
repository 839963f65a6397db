# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test chromium screenshots lint openapi docs bench clean lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# compat: the checkout on sys.path through a plain .pth (the default editable finder costs every
# `innotune` start 5-10 ms); setuptools calls that mode transitional, so the default is the fallback.
# compileall: the byte code an installed package has (pip compiles wheels; PYTHONDONTWRITEBYTECODE
# machines would otherwise recompile every module at every start).
COMPAT := --config-settings editable_mode=compat
COMPILE := $(BIN)/python -m compileall -q advisor cli conf api services store worker collector migrations

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e . $(COMPAT) || $(BIN)/python -m pip install -q -e .
	$(COMPILE)
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]' $(COMPAT) || $(BIN)/python -m pip install -q -e '.[dev]'
	$(COMPILE)
	touch $@ $(VENV)/.installed-run

## Install, migrate the embedded SQLite database under ./var and serve on http://127.0.0.1:8000
run: $(VENV)/.installed-run
	$(BIN)/innotune migrate
	$(BIN)/innotune serve

## Install the dev dependencies, lint, type-check and run the whole suite against the real services
test: $(VENV)/.installed-dev chromium
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest

## Debian's Chromium for the browser tests (Playwright drives it; no browser download of its own)
chromium:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq chromium)

## Retake the README's screenshots of the web pages (docs/screenshots/*.png)
screenshots: $(VENV)/.installed-dev chromium
	$(BIN)/python -m tests.web.screenshots

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

## Regenerate docs/advisors.md from the rule registry
docs: $(VENV)/.installed-dev
	$(BIN)/python -m advisor.docs > docs/advisors.md

## Pin every runtime dependency with its hashes in requirements.lock (the Dockerfile installs exactly that)
lock: $(VENV)/.installed-dev
	$(BIN)/pip-compile --quiet --generate-hashes --strip-extras --no-emit-index-url --no-emit-find-links \
		--output-file requirements.lock pyproject.toml

## Regenerate the checked-in openapi.yaml from the app
openapi: $(VENV)/.installed-dev
	$(BIN)/python -m api.openapi > openapi.yaml

## Benchmarks: print figures and record them under bench/results/
bench: $(VENV)/.installed-dev
	$(BIN)/python bench/audit_offline.py
	$(BIN)/python bench/cli_vs_peer.py
	$(BIN)/python bench/service_submit.py
	$(BIN)/python bench/fleet_reaudit.py --servers 10000
	$(BIN)/python bench/service_submit.py --fleet 10000

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
