# One-command set-up: `make run` serves the site, `make test` runs the whole suite.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CATALOGUE := config/locale/it/LC_MESSAGES/django
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: install services migrate check-port run test faults lint format bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The Italian catalogue, compiled whenever its source changes (msgfmt is brought up if missing).
$(CATALOGUE).mo: $(CATALOGUE).po | $(STAMP)
	$(BIN)/python scripts/services.py --tools-only
	$(BIN)/python manage.py compilemessages --locale it --ignore '.venv/*' --verbosity 0

install: $(STAMP) $(CATALOGUE).mo

services: install
	$(BIN)/python scripts/services.py

migrate: services
	$(BIN)/python manage.py migrate --noinput

# Before anything is brought up: a busy port stops `make run` with a message, not after the
# servers started and their logs buried the complaint.
check-port:
	@$(PYTHON) scripts/check_port.py $(HOST) $(PORT)

# The same servers as the image (docker/Dockerfile): uvicorn serving config/asgi.py through
# config/serve.py (every connection without Nagle's delay: decision 0067), WEB_WORKERS
# processes (2), each running the pages and the API on WEB_REQUEST_THREADS threads, of at most DATABASE_POOL_SIZE (8) database connections each, plus one listener
# for the live feeds; the worker and beat beside it (Procfile, decision 0051). Static files are
# served by WhiteNoise. honcho exits with the status of the first server that stopped: a failure
# fails `make run`; 130 is Ctrl-C, the usual way to stop it.
.NOTPARALLEL: run
run: check-port migrate
	$(BIN)/python manage.py ensure_dev_admin
	$(BIN)/python manage.py load_demo
	@echo "Serving on http://$(HOST):$(PORT)/  (admin: http://$(HOST):$(PORT)/admin/, user admin / admin)"
	HOST=$(HOST) PORT=$(PORT) $(BIN)/honcho start --no-prefix -f Procfile 2>&1 || [ $$? -eq 130 ]

# Two pytest workers (the machine's two cores), each on its own test database and Redis
# database; each test module stays on one worker, the fault suite on one (tests/conftest.py).
TEST_WORKERS ?= 2
test: services lint
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

# The fault suite at full size (tests/faults/; `make test` runs its short profile): its own
# PostgreSQL cluster and Redis on free ports, stopped, killed and frozen on purpose (as root).
faults: services
	FAULTS_PROFILE=full $(BIN)/pytest tests/faults -m faults -v $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .
	$(BIN)/lint-imports
	$(BIN)/python manage.py makemigrations --check --dry-run

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: services
	$(BIN)/python bench/rules.py
	$(BIN)/python bench/append.py
	$(BIN)/python bench/tournaments.py
	$(BIN)/python bench/redis_outage.py
	$(BIN)/python bench/championship.py

clean:
	rm -rf $(VENV) staticfiles .mypy_cache .ruff_cache .hypothesis
