# Every target bootstraps its own virtual environment: nothing needs installing by hand.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
GAMES  ?= 2000

.PHONY: run test lint typecheck pytest pytest-compiled compile bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m app.engine.play

test: lint typecheck pytest pytest-compiled

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy --strict app/engine

pytest: $(STAMP)
	$(BIN)/pytest -n 2 -q

# The same tests against the engine compiled with mypyc (what bench/engine.py --compiled
# measures): both builds must play by the same rules.
compile: $(STAMP)
	$(BIN)/python bench/compile_engine.py

pytest-compiled: compile
	DUEL_EXPECT_COMPILED=1 PYTHONPATH=$(CURDIR)/build/mypyc $(BIN)/pytest -n 2 -q -p no:cacheprovider

bench: $(STAMP)
	$(BIN)/python bench/engine.py --games $(GAMES) --compiled

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache
