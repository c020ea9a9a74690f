# The README's two commands: `make play` and `make test`. Each works on a fresh machine by
# itself: it creates .venv, installs the package and what the tests need, and (for the
# browser tests) Debian's chromium.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PORT ?= 5006
SEED ?= 1944
# every extra of pyproject.toml: tests, notebooks, studies (Dask), Binder's packages, bench/, the Memoir evaluation's training (scikit-learn),
# the map builds
EXTRAS := test,notebooks,study,binder,bench,build-maps,train

.PHONY: play test test-fast fuzz lint lock lab bench chromium clean wheel-check

# One pinned environment: the versions in constraints.txt (tools/lock.py writes it; Binder's
# requirements are generated from the same pins).
$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e '.[$(EXTRAS)]'
	touch $(STAMP)

# After changing dependencies in pyproject.toml: install them (the pinned ones stay pinned; new
# ones get the newest allowed version), then rewrite constraints.txt and binder/requirements.txt
# from this venv. To upgrade a package, delete its line in constraints.txt first.
lock:
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[$(EXTRAS)]' $(if $(wildcard constraints.txt),-c constraints.txt)
	$(PY) tools/lock.py
	touch $(STAMP)

play: $(STAMP)
	$(VENV)/bin/wargame serve --scenario normandy --port $(PORT) --seed $(SEED)

chromium:
	bash tools/ensure_chromium.sh

# ruff, the import contracts of pyproject's [tool.importlinter] (docs/DESIGN.md's layers), then
# mypy over what pyproject's [tool.mypy] lists (the two engines, the dashboards and the computer
# players; protocol, saves and errors strictly): 9.3 s of CPU from cold (73 s of wall time at a
# load of 11 on 2 cores, 2026-12-07), 0.3 s with its cache (.mypy_cache)
lint: $(STAMP)
	$(VENV)/bin/ruff check wargame tests bench tools
	$(VENV)/bin/lint-imports --no-cache --no-logo
	$(VENV)/bin/mypy

test: $(STAMP) chromium lint wheel-check
	$(PY) -m pytest -q
	$(PY) -m pytest -q --nbval-lax --nbval-current-env notebooks/

# Install without make (issue #29): build the wheel, install it into a fresh venv (its
# dependencies from this venv: nothing downloaded but the build's setuptools and Babel), and
# run the installed `wargame` from another folder: --version, class/serve --help, scenario
# list in en and pt (compiled catalogue), an autoplay game, `wargame class` answering on the
# machine's address. About 50 s here under load. WHEEL_CHECK="--with-deps" installs the
# dependencies from the package index instead, as a laptop would.
wheel-check: $(STAMP)
	$(PY) tools/check_wheel.py $(WHEEL_CHECK)

# The quick loop while editing (40-50 s here, on 2 shared cores): lint, then every test except
# the browser, Binder and measured-slow ones (@pytest.mark.slow on the tests). `make test`
# still runs them all.
test-fast: $(STAMP) lint
	$(PY) -m pytest -q -m "not browser and not binder and not slow"

lab: $(STAMP)
	$(VENV)/bin/jupyter lab notebooks/

bench: $(STAMP)
	$(PY) bench/movement.py
	$(PY) bench/odds.py

clean:
	rm -rf $(VENV) build *.egg-info

# The fuzz tests (every test named *fuzz*) with many more examples: the CLI fuzz of
# tests/test_cli_fuzz.py reads WARGAME_FUZZ_EXAMPLES (the normal suite runs a bounded few).
FUZZ_EXAMPLES ?= 2000
fuzz: $(STAMP)
	WARGAME_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest -q -k fuzz -m "not browser and not binder" --ignore=tests/binder tests
