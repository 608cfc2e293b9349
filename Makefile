# Every target bootstraps its own virtual environment in .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Every extra, so the whole project (browser app, environments, lab) works from one install.
EXTRAS := dev,web,rl,fast,postgres,cluster,lab,testing
# RLCard is only the envs bench's peer (python -m bench envs), never a dependency.
BENCH_STAMP := $(VENV)/.bench-installed

# pytest rewrites the asserts of some 300 test modules as it imports them; kept as bytecode,
# that work is done once rather than on every run by each worker.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: install test test-fast play bench lint serve clean i18n

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[$(EXTRAS)]'
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

$(BENCH_STAMP): $(STAMP)
	$(BIN)/pip install --quiet 'rlcard>=1.2,<2'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(BIN)/python -m bench

serve: $(STAMP)
	mkdir -p var
	$(BIN)/chuko serve --host 127.0.0.1 --port 8000 --db sqlite:///var/chuko.db

# Every message of the sources extracted by domain; each language's catalogue updated
# (src/chuko/locale/<lang>/LC_MESSAGES/<domain>.po), with what is left untranslated.
i18n: $(STAMP)
	$(BIN)/python -m chuko.i18n.extract

# Style, the import layers (pyproject.toml), and types: strict where the rules live.
lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/lint-imports --no-cache
	$(BIN)/mypy --strict src/chuko/core src/chuko/games
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build dist *.egg-info src/*.egg-info .pytest_cache
