# Every target bootstraps its own virtual environment: nothing needs installing by hand.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# The browser libraries (package.json, package-lock.json), served at /vendor.
NODE_STAMP := node_modules/.installed-stamp
GAMES  ?= 2000
# Where `make run` listens: HOST=0.0.0.0 lets other machines in (README, "Play a friend on
# another machine").
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run play test test-long lint typecheck pytest pytest-server pytest-browser pytest-compiled compile bench bench-load clean browsers messages

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

# Migrates the database (an embedded SQLite file unless DUEL_DATABASE_URL says otherwise),
# then serves http://$(HOST):$(PORT) (API docs at /docs).
run: $(STAMP) $(NODE_STAMP)
	$(BIN)/alembic upgrade head
	$(BIN)/uvicorn --factory app.main:create_app --host $(HOST) --port $(PORT) \
		--ws-max-size 1048576 --http app.serving:HttpProtocol --ws app.serving:SocketProtocol \
		--no-server-header --no-proxy-headers

# A seeded random game played in the terminal by the engine alone.
play: $(STAMP)
	$(BIN)/python -m app.engine.play

# Everything at once, each part's output printed whole when it ends: the browser tests
# mostly wait (on chromium, on the server's answers), the server tests and the engine's
# C build keep both cores busy meanwhile, and no run leaves a core idle at its end while
# another waits its turn. -k: every part runs even when another fails, and any failing
# fails the target.
test:
	$(MAKE) --no-print-directory -k -j5 --output-sync=target \
		lint typecheck pytest-server pytest-browser pytest-compiled

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy --strict app

# worksteal: a core that runs out of tests takes the other's, so the long tests never leave
# one core idle at the end (the order is random on each run). The browser tests run on
# their own, where each worker launches chromium once, not once a test.
pytest: pytest-server pytest-browser

pytest-server: $(STAMP) $(NODE_STAMP)
	$(BIN)/pytest -n 2 --dist worksteal -q --ignore=tests/browser

pytest-browser: $(STAMP) $(NODE_STAMP) browsers
	$(BIN)/pytest -n 2 --dist worksteal -q tests/browser

# The heavy runs the default suite samples: every random game with every view scanned,
# every seed of the socket scan and the table's screens in every language (`-m long`), and
# the property tests searching for new examples instead of repeating the default run's.
test-long: $(STAMP) $(NODE_STAMP) browsers
	$(BIN)/pytest -n 2 -q -m 'long or hypothesis' --hypothesis-profile=explore

# The browser tests (tests/browser) drive Debian's chromium through Playwright; install it
# when it is missing (needs root, as on CI). apt's output is shown only when it fails.
CHROMIUM := /usr/bin/chromium
browsers:
	@test -x $(CHROMIUM) || { \
		echo "Installing chromium with apt-get for the browser tests"; \
		log=$$(mktemp); \
		if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } \
			>"$$log" 2>&1; then \
			cat "$$log" >&2; rm -f "$$log"; \
			echo "error: apt-get could not install chromium (needed by tests/browser)" >&2; \
			exit 1; \
		fi; \
		rm -f "$$log"; \
		test -x $(CHROMIUM) || { echo "error: $(CHROMIUM) is still missing" >&2; exit 1; }; \
	}

# A representative part of the engine's tests again (`-m compiled`), against the engine
# compiled with mypyc (what bench/engine.py --compiled measures), with the check that both
# builds give the same games for the same seeds. Everything else runs once, in `pytest`.
compile: $(STAMP)
	$(BIN)/python bench/compile_engine.py

pytest-compiled: compile
	DUEL_EXPECT_COMPILED=1 PYTHONPATH=$(CURDIR)/build/mypyc $(BIN)/pytest -n 2 -q \
		-p no:cacheprovider -m 'compiled and not long' tests/engine

bench: $(STAMP) $(NODE_STAMP) browsers
	$(BIN)/python bench/engine.py --games $(GAMES) --compiled
	$(BIN)/python bench/server.py
	$(BIN)/python bench/render.py

# Many games against two server processes on the PostgreSQL of DUEL_TEST_POSTGRES_URL (or
# 127.0.0.1:5432, database test): flat-out for 20 s, then a kill and rejoin of 1,000 sockets;
# then one process's memory: per idle socket (2,000), and after the same 1,000 sockets
# opened and closed five times.
LOAD_DATABASE = $(if $(DUEL_TEST_POSTGRES_URL),--database-url $(DUEL_TEST_POSTGRES_URL))
bench-load: $(STAMP) $(NODE_STAMP)
	$(BIN)/python bench/load.py --games 16 --seconds 20 $(LOAD_DATABASE)
	$(BIN)/python bench/load.py --rejoin 1000 --no-pgbench $(LOAD_DATABASE)
	$(BIN)/python bench/load.py --idle 2000 --processes 1 $(LOAD_DATABASE)
	$(BIN)/python bench/load.py --churn 1000 --rounds 5 --processes 1 $(LOAD_DATABASE)

# After changing a template's words: the English extracted (app/locales/messages.pot) and
# every language's catalog updated; tests/api/test_languages.py fails until each is translated.
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg --no-location --sort-output \
		--project "Duel, online" -o app/locales/messages.pot .
	$(BIN)/pybabel update --no-fuzzy-matching --ignore-obsolete \
		-i app/locales/messages.pot -d app/locales

clean:
	rm -rf $(VENV) node_modules build .pytest_cache .mypy_cache .ruff_cache
