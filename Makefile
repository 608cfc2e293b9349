# Every target bootstraps its own virtual environment in .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test test-fast play bench lint serve clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,fast,postgres]'
	# compile the solvers' numba kernels once, so the first hint does not pause
	$(BIN)/python -c "from chuko.solvers import kernels; kernels.warm_up()"
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(BIN)/pytest -n 2

# Everything but the browser tests and the few that take seconds each.
test-fast: $(STAMP)
	$(BIN)/pytest -n 2 -m "not slow and not e2e"

play: $(STAMP)
	$(BIN)/chuko play

bench: $(STAMP)
	$(BIN)/python -m bench

serve: $(STAMP)
	mkdir -p var
	$(BIN)/chuko serve --host 127.0.0.1 --port 8000 --db sqlite:///var/chuko.db

# Style, the import layers (pyproject.toml), and types: strict where the rules live.
lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/lint-imports
	$(BIN)/mypy --strict src/chuko/core src/chuko/games
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
