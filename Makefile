# Two commands do all the set-up on a fresh machine (Python 3.10+ with venv):
#   make results   create .venv, install simcore, run the default simulation and its charts
#   make test      create .venv, install simcore with its dev tools, run the test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUNTIME := $(VENV)/.installed-runtime
DEV := $(VENV)/.installed-dev

.PHONY: results test bench clean-cache

# Python writes the bytecode of the modules it imports into .venv as it first imports them
# (the install compiles none: most of the installed files are never imported); without it every
# process (test workers, CLI subprocesses, cluster workers) would compile its imports again.
unexport PYTHONDONTWRITEBYTECODE

# The main job needs the runtime dependencies only; the tests add the dev tools (pytest,
# hypothesis, OpenSpiel, RLCard, endplay) on top of the same environment.  uv, installed into
# the environment by its own pip, resolves and installs the same packages as pip in a few seconds
# (pip took over a minute for the dev tools).
UV := $(BIN)/uv pip install --quiet --python $(BIN)/python
$(RUNTIME): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet 'uv>=0.5'
	$(UV) -e .
	touch $(RUNTIME)

$(DEV): $(RUNTIME)
	$(UV) -e '.[dev]'
	touch $(DEV)

# The main job: regenerate results/ with scripts/make_results.py: a default batch for each game
# into data/ (among them 400,000 Trump Friend deals under each of the five trump calls,
# data/trump-friend-trump), the smaller runs of the stronger levels of play (pimc, expert,
# open-hand solves; --resume reuses finished runs instead of refusing the folder), then every
# analysis (charts, CSV tables, summaries) and results/README.md.
results: $(RUNTIME)
	$(BIN)/python scripts/make_results.py

# Two workers: each test file runs whole in one of them, so the games' kernels compile side by
# side; the files go out in collection order, the longest first (tests/conftest.py).
test: $(DEV)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder

bench: $(DEV)
	$(BIN)/python scripts/bench.py

# Numba's disk cache is keyed on each function's own file; importing simcore drops the
# package's cache by itself when any of its sources changed (simcore/_cache.py). This also
# drops the kernels of analyses/ and scripts/, and the tests' own cache (-O1 kernels,
# tests/conftest.py).
clean-cache:
	find simcore analyses scripts -name '*.nbi' -delete -o -name '*.nbc' -delete
	rm -rf .numba-test-cache
