# The two commands of the README: `make demo` and `make test`.  Both set up their own venv.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: all venv demo test test-all bench typecheck clean

all: test

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,hardware]'
	touch $(STAMP)

venv: $(STAMP)

# The main job.
demo: $(STAMP)
	$(BIN)/shengji-table demo

# The whole test suite, bounded for CI (slow soak/fuzz runs use their bounded profile).
test: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider

# Including the long soak/fuzz runs.
test-all: $(STAMP)
	HYPOTHESIS_PROFILE=long $(BIN)/python -m pytest -q -p no:cacheprovider --run-slow

# Type checks: the host package (mypy.ini); the firmware is checked against the rp2 stubs in the tests.
typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build dist *.egg-info host/*.egg-info
