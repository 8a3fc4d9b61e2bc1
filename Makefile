# Two commands do all the set-up on a fresh machine (Python 3.10+ with venv):
#   make results   create .venv, install simcore, run the default simulation and its charts
#   make test      create .venv, install simcore with its dev tools, run the test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: results test bench clean-cache

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The main job: one million Trump Friend deals with every trump call tried (trump=random), then
# the chart of declarer win rate by trump call in results/trump-friend/.  --resume makes a rerun
# reuse finished data instead of refusing the folder.
results: $(STAMP)
	$(BIN)/simcore simulate trump-friend --deals 1000000 --seed 1 --policy trump=random \
		--out data/trump-friend-main --resume
	$(BIN)/simcore analyze trump-call --data data/trump-friend-main --out results/trump-friend

# Two workers: each test file runs whole in one of them, so the games' kernels compile side by side.
test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

bench: $(STAMP)
	$(BIN)/python scripts/bench.py

# Numba's disk cache is keyed on each function's own file: after editing a shared module,
# drop it so callers in other modules recompile.
clean-cache:
	find simcore analyses scripts -name '*.nbi' -delete -o -name '*.nbc' -delete
