# Everything a fresh machine needs: Python 3.11+ and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test fuzz lint fmt bench serve clean

# The first install takes a minute or two: say so, and let pip show each package and its
# download as it goes (it used to run with --quiet, so `make run` looked stuck).
$(BIN)/python:
	@echo "==> Creating $(VENV) (first run only)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	@echo "==> Installing docdeck and its dependencies into $(VENV) (first run: a minute or two)"
	$(BIN)/python -m pip install -e '.[dev]'
	$(BIN)/python -m compileall -q src
	touch $(STAMP)
	@echo "==> Installed; next time this step is skipped"

# compileall: the .pyc files an editable install does not write where PYTHONDONTWRITEBYTECODE
# is set (each start would compile docdeck from source); a no-op when they are up to date.
run: $(STAMP)
	@$(BIN)/python -m compileall -q src
	$(BIN)/docdeck

serve: $(STAMP)
	$(BIN)/docdeck serve --demo --db .sandbox.db

# mypy bench: the benches reach into the app (a method they time, a screen they wait for);
# a rename in src that breaks one is an error here, not found months later by a bench run.
lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy src
	$(BIN)/mypy bench
	$(BIN)/lint-imports

# The suite runs in TEST_WORKERS processes (pytest-xdist): its tests mostly wait (on the
# event loop, a server, a subprocess), so more workers than cores pays off (6 on 2 cores);
# the measurements are in bench/README.md ("Test time"). `make test TEST_WORKERS=0` runs it
# in one process.
# The lint runs beside the tests, not before them: mypy's ~12 s on one core fit in the time
# the workers spend waiting. Its output follows the tests'; either failing fails `make test`
# (`make lint` alone says in seconds what it finds).
TEST_WORKERS ?= 6
test: $(STAMP)
	@log=$$(mktemp); \
	$(MAKE) --no-print-directory lint >$$log 2>&1 & lint=$$!; \
	$(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal; tests=$$?; \
	wait $$lint; linted=$$?; \
	echo "==> lint (ran beside the tests):"; cat $$log; rm -f $$log; \
	if [ $$linted -ne 0 ]; then echo "==> make test: the lint failed"; fi; \
	[ $$tests -eq 0 ] && [ $$linted -eq 0 ]

# The fuzz test of `make test` with many more cases, schema-valid and schema-invalid (a soak:
# about 10-20 minutes on 2 cores). FUZZ_EXAMPLES=N changes how many per operation.
FUZZ_EXAMPLES ?= 300
fuzz: $(STAMP)
	DOCDECK_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) DOCDECK_FUZZ_MODE=all $(BIN)/pytest tests/fuzz

fmt: $(STAMP)
	$(BIN)/ruff format src tests bench
	$(BIN)/ruff check --fix src tests bench

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
