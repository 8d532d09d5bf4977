# Senet developer entry points. Every target creates the virtualenv when missing.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install test lint typecheck unit bench run clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

install: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

## make test: lint, type-check and run the whole test suite.
test: lint typecheck unit

## make bench: benchmarks, each figure printed beside a baseline measured in the same run.
bench: $(STAMP)
	$(BIN)/python -m tests.bench

## make run: play a seeded demo match with the rules core (the gRPC server arrives with the match service).
run: $(STAMP)
	$(BIN)/python -m server.demo

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
