# cardtable: `make serve` runs the web app, `make test` runs every check CI runs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install serve test quick lint lint-js js-deps typecheck unit browser-deps services bench clean constraints

# The Python packages at the versions constraints.txt pins (as package-lock.json pins the page's
# tools), so that a fresh machine installs what CI last passed with, not whatever is newest.
$(STAMP): pyproject.toml constraints.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[dev,research]'
	@touch $(STAMP)

# Pin the newest versions pyproject.toml allows: installed into a virtual environment of their
# own, then written to constraints.txt (run `make test` after, and commit the file with it).
FRESH_VENV := $(VENV)-constraints
constraints:
	rm -rf $(FRESH_VENV)
	$(PYTHON) -m venv $(FRESH_VENV)
	$(FRESH_VENV)/bin/python -m pip install -q --upgrade pip
	$(FRESH_VENV)/bin/python -m pip install -q -e '.[dev,research]'
	{ sed -n '/^#/p' constraints.txt; $(FRESH_VENV)/bin/python -m pip freeze --exclude-editable; } > constraints.txt.new
	mv constraints.txt.new constraints.txt
	rm -rf $(FRESH_VENV)

install: $(STAMP)

serve: $(STAMP)
	$(BIN)/cardtable serve --host $(HOST) --port $(PORT)

lint: $(STAMP) lint-js
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

# The page's JavaScript: TypeScript checks its JSDoc types (jsconfig.json, `// @ts-check` in every
# module) and ESLint its code (eslint.config.js). Both come from the npm registry at the versions
# package-lock.json pins, installed again whenever the lock file changes.
NODE_STAMP := node_modules/.installed
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $(NODE_STAMP)

js-deps: $(NODE_STAMP)

lint-js: $(NODE_STAMP)
	node_modules/.bin/tsc --noEmit -p jsconfig.json
	node_modules/.bin/eslint src/cardtable/server/static/js

# The library and the tests, both strict. tests/ is its own import root, as pytest makes it
# (its packages import engine_moves, reference, games.<game>.helpers).
typecheck: $(STAMP)
	$(BIN)/mypy --strict src/cardtable
	MYPYPATH=src:tests $(BIN)/mypy --strict --explicit-package-bases tests

# Debian's Chromium drives the browser tests (Playwright's own download does not work offline).
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# PostgreSQL and Redis, for the tests of the database and cluster layers. `make serve` needs
# neither; CI makes sure both are up before `make test`.
services:
	@pg_isready -q -h 127.0.0.1 -p 5432 || pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start
	@redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || redis-server --daemonize yes --bind 127.0.0.1 -::1 \
		--port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
	@for i in $$(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && exit 0; sleep 1; done; \
		echo "PostgreSQL or Redis did not come up"; exit 1

unit: $(STAMP) browser-deps
	$(BIN)/pytest -n 2

test: lint typecheck unit

# The fast tier for the edit-and-test loop: every test outside tests/server (engines, melds,
# bots, coach, review, research adapters, units) and the doctests, README's included; no browser,
# no PostgreSQL or Redis, and not the exhaustive cross-checks marked slow. Its cost is measured
# in the README's Development section.
quick: $(STAMP)
	$(BIN)/pytest -n 2 -m "not browser and not services and not slow" --ignore=tests/server

bench: $(STAMP)
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[bench]'
	$(BIN)/python -m benchmarks.run_all

clean:
	rm -rf $(VENV) $(FRESH_VENV) node_modules .mypy_cache .pytest_cache .ruff_cache .hypothesis
