# loba-dsl: everything a fresh machine needs is python3 (3.11+), pip and make.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup native run test test-fast lint wheel-check bench bench-page screenshots fuzz ci clean

$(STAMP): pyproject.toml setup.py Makefile $(wildcard loba_dsl/solver/*.c)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev,service]' --config-settings editable_mode=compat
	touch $(STAMP)

## setup: create .venv and install loba-dsl (editable) with its test tools
setup: $(STAMP)

## native: rebuild the solver's C twins in place (loba_dsl/solver/native_*.c; `make setup` builds them too)
native: setup
	$(BIN)/python setup.py -q build_ext --inplace
	$(BIN)/python -c "from loba_dsl.solver import candidates, packing; \
	  assert packing.NATIVE and candidates.NATIVE_LIVE and candidates.NATIVE_CANDIDATES, 'a C twin did not load'"

## run: set up, then check one meld with the default ruleset
run: setup
	$(BIN)/loba check "A♣ 2♣ JOKER"

## test: set up, then run the whole test suite
test: setup
	$(BIN)/python -m pytest

## test-fast: the suite without the tests marked slow (property, fuzz and brute-force runs)
test-fast: setup
	$(BIN)/python -m pytest -m "not slow"

## lint: ruff and mypy --strict
lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy

## wheel-check: build a wheel, install it (not editable) in a fresh venv, run loba from there
wheel-check: setup
	bash .ci/wheel-check

## bench: print the performance figures
bench: setup
	$(BIN)/python benchmarks/bench_check.py
	$(BIN)/python benchmarks/bench_solver.py --n 5000 --n-large 300 --n-40 40
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/bench_cli.py
	$(BIN)/python benchmarks/bench_native.py --n 5000 --n-large 100

## screenshots: each view of the page (loba serve's /) at phone and laptop width, into docs/screenshots/
##   (needs Debian's chromium: apt-get install -y chromium)
screenshots: setup
	$(BIN)/python docs/make_screenshots.py

## bench-page: the page in Chromium: first view interactive, bytes of the whole page, meld check latency after a tap
bench-page: setup
	$(BIN)/python benchmarks/bench_page.py

## fuzz: the long fuzz run (1,000,000 inputs, or ten hours; FUZZ_ARGS="--count N --seconds S --seed K --hang CPU-S")
FUZZ_ARGS ?= --count 1000000 --seconds 36000
fuzz: setup
	$(BIN)/python benchmarks/fuzz.py $(FUZZ_ARGS)

## ci: what CI runs
ci: test lint wheel-check

clean:
	rm -rf $(VENV) dist build *.egg-info .pytest_cache .mypy_cache .ruff_cache loba_dsl/solver/*.so
