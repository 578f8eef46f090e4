# PM Assistant: every target works on a fresh clone; the first one run creates .venv.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements.stamp
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
# Test processes (pytest-xdist): auto is one per CPU; 0 runs the suite in this one process.
PYTEST_WORKERS ?= auto
LINT_PATHS := pm_assistant projects tasks reports agent archcheck tests manage.py

# A Python >= 3.12: the newest on PATH, then pyenv's installs (newest first), then python3.
# PYTHON=/path/to/python overrides the search.
PY_OK := -c 'import sys; sys.exit(sys.version_info < (3, 12))'
PY_CANDIDATES = python3.14 python3.13 python3.12 \
	$(shell ls -d "$${PYENV_ROOT:-$$HOME/.pyenv}"/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -rV) python3

.PHONY: help venv install demo serve test lint bench audit-runs check-deploy clean

help:
	@echo "make demo          install, migrate, load demo data and serve on http://$(HOST):$(PORT)/"
	@echo "make test          run the whole test suite (SQLite unless DATABASE_URL is set) on PYTEST_WORKERS processes"
	@echo "make lint          ruff check, mypy, import contracts, architecture rules (archcheck)"
	@echo "make bench         ReAct, Plan-Execute, Router and Router + trimming on one suite; writes docs/EVOLUTION.md"
	@echo "make audit-runs    serve the bench's scenarios and press the demo's buttons through the app; audit_run --all"
	@echo "make check-deploy  Django's deploy checks in production mode (must report 0 issues)"
	@echo "make install       create .venv and install requirements.lock (only when it changed)"
	@echo "make clean         remove .venv, caches, the demo database and collected files"

$(PY):
	@set -- $(if $(PYTHON),$(PYTHON),$(PY_CANDIDATES)); found=""; \
	for candidate in "$$@"; do \
		if command -v "$$candidate" >/dev/null 2>&1 && "$$candidate" $(PY_OK) >/dev/null 2>&1; then \
			found="$$candidate"; break; \
		fi; \
	done; \
	if [ -z "$$found" ]; then \
		echo "No Python >= 3.12 found (tried: $$*). Install one, or run: make PYTHON=/path/to/python3.12 ..." >&2; \
		exit 1; \
	fi; \
	echo "Creating $(VENV) with $$found ($$("$$found" -c 'import sys; print(sys.version.split()[0])'))"; \
	rm -rf $(VENV); \
	"$$found" -m venv $(VENV)

# Re-installs only when requirements.lock is newer than the last install. Bytecode is compiled
# at install time: with PYTHONDONTWRITEBYTECODE set, every new process (a test run, a Celery
# worker, a gunicorn worker) would otherwise compile openai, LangGraph and Django from source.
$(STAMP): requirements.lock | $(PY)
	$(PY) -m pip install --quiet --upgrade "uv>=0.5"
	$(PY) -m uv pip install --quiet --compile-bytecode --python $(PY) -r requirements.lock \
		|| $(PY) -m pip install --quiet -r requirements.lock
	@touch $(STAMP)

venv install: $(STAMP)

demo: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	@echo
	@echo "  PM Assistant demo:  http://$(HOST):$(PORT)/"
	@echo "  Log in as:          alice / demo"
	@echo "  (Ctrl-C stops the server)"
	@echo
	$(PY) manage.py runserver $(HOST):$(PORT)

# pytest exits 5 when no test ran; that is a failure here like any other non-zero code.
# Each worker has its own test database; a test file stays on one worker, so a module's
# fixtures (the data-layer scenario suite, the security corpus) are built once.
test: $(STAMP)
	CELERY_TASK_ALWAYS_EAGER=$${CELERY_TASK_ALWAYS_EAGER:-1} \
		$(PY) -m pytest --numprocesses $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# Serves the scenario suite four ways with scripted models (its own SQLite database, no service),
# prints the tables and regenerates docs/EVOLUTION.md and README.md's numbers (--check only compares).
bench: $(STAMP)
	$(PY) -m bench.architectures $(BENCH_ARGS)

# Runs every checker, then fails if any of them did.
lint: $(STAMP)
	@status=0; \
	echo "== ruff check $(LINT_PATHS)"; $(PY) -m ruff check $(LINT_PATHS) || status=1; \
	echo "== mypy"; $(PY) -m mypy || status=1; \
	echo "== lint-imports"; $(VENV)/bin/lint-imports || status=1; \
	echo "== archcheck"; $(PY) -m archcheck || status=1; \
	exit $$status

# The app serves the bench's scenarios (scripted models, its own SQLite database); every run it stores
# is kept and `manage.py audit_run --all` audits them in a new process; then alice presses every quick
# button on the demo data (bench/demo_buttons.py) and those runs are audited too: non-zero when any fails.
audit-runs: $(STAMP)
	$(PY) -m bench.audited_runs

check-deploy: $(STAMP)
	DJANGO_PRODUCTION=1 \
	DJANGO_SECRET_KEY="$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(64))')" \
	DJANGO_ALLOWED_HOSTS=pm.example.com \
	$(PY) manage.py check --deploy --fail-level WARNING

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis staticfiles var db.sqlite3 test-results
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
