# Senet developer entry points. Every target creates the virtualenv when missing.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
TOOLS := $(VENV)/.tools-stamp
PROTOS := $(wildcard proto/senet/v1/*.proto)
GENERATED := proto/senet/v1/__init__.py

.PHONY: install proto test lint typecheck unit bench run clean deploy-lock

# Code generation needs grpcio-tools and mypy-protobuf before the project installs.
$(TOOLS):
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet 'grpcio-tools>=1.60' 'mypy-protobuf>=3.6'
	touch $(TOOLS)

## make proto: generate Python code and type stubs (package senet.v1) from proto/.
$(GENERATED): $(PROTOS) $(TOOLS)
	PATH="$(abspath $(BIN)):$$PATH" $(BIN)/python -m grpc_tools.protoc -Iproto \
		--python_out=proto --grpc_python_out=proto \
		--mypy_out=quiet:proto --mypy_grpc_out=quiet:proto $(PROTOS)
	touch proto/senet/v1/__init__.py

proto: $(GENERATED)

$(STAMP): pyproject.toml $(GENERATED)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

install: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -n auto

## make test: lint, type-check and run the whole test suite.
test: lint typecheck unit

## make bench: benchmarks, each figure printed beside a baseline measured in the same run.
bench: $(STAMP)
	$(BIN)/python -m tests.bench

## make run: the match server on the embedded in-memory store (port 50051) with one bot worker.
run: $(STAMP)
	$(BIN)/senet serve --no-log-json --embedded-bot-workers 1

## make deploy-lock: re-pin the image's runtime dependencies (with hashes) from pyproject.toml.
deploy-lock: $(TOOLS)
	$(BIN)/python -m pip install --quiet pip-tools
	$(BIN)/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras --no-header \
		--no-emit-index-url --no-emit-find-links -o deploy/requirements.txt pyproject.toml
	sed -i '1i # Runtime dependencies of the Senet image, pinned with hashes (pip --require-hashes).\n# Regenerate after changing [project.dependencies] in pyproject.toml: make deploy-lock' \
		deploy/requirements.txt

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
	find proto -name "*_pb2*" -delete; rm -f $(GENERATED)
