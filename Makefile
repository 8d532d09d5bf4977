# Senet developer entry points. Every target creates the virtualenv when missing.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Three stamps, so each target installs only what it needs: the code generator
# (build only), the project with its runtime dependencies (make run), and the
# test and benchmark tools on top (everything else).
CODEGEN := $(VENV)/.codegen-stamp
RUNTIME := $(VENV)/.runtime-stamp
STAMP := $(VENV)/.installed-stamp
PROTOS := $(wildcard proto/senet/v1/*.proto)
GENERATED := proto/senet/v1/__init__.py
# Test workers: twice the cores, as many tests wait on servers, subprocesses and
# browsers rather than compute (at one per core the cores idle half the time).
WORKERS ?= $(shell echo $$(( 2 * $$(nproc) )))
# The tests `make quick` runs: all but those marked slow (a second or more, or on the
# Redis Cluster), spread over the cores.
QUICK_TESTS ?= -m "not slow" -n auto

.PHONY: install native proto proto-lint test quick lint typecheck unit bench run clean deploy-lock playthroughs

# Code generation needs grpcio-tools and mypy-protobuf before the project installs;
# neither is a dependency of the project (nothing imports them at run time).
$(CODEGEN):
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet 'grpcio-tools>=1.60' 'mypy-protobuf>=3.6'
	touch $(CODEGEN)

## make proto: generate Python code and type stubs (package senet.v1) from proto/.
$(GENERATED): $(PROTOS) $(CODEGEN)
	PATH="$(abspath $(BIN)):$$PATH" $(BIN)/python -m grpc_tools.protoc -Iproto \
		--python_out=proto --grpc_python_out=proto \
		--mypy_out=quiet:proto --mypy_grpc_out=quiet:proto $(PROTOS)
	touch proto/senet/v1/__init__.py

proto: $(GENERATED)

# setuptools warns on every editable install that a folder named like the package in
# the working directory would shadow it; none is (senet's portions live under server/,
# clients/ and proto/), so the box is noise.
EDITABLE := PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip install --quiet -e

$(RUNTIME): pyproject.toml $(GENERATED)
	$(EDITABLE) .
	touch $(RUNTIME)

$(STAMP): $(RUNTIME)
	$(EDITABLE) '.[test,bench,rl]'
	touch $(STAMP)

install: $(STAMP) native

## make native: compile the learning writers' twins (mypyc, and the plan engine's C;
## senet.rl.native; each up-to-date twin is kept). Without mypyc or a C compiler they
## run as Python.
native: $(STAMP)
	$(BIN)/python -m senet.rl.native build || echo "senet: the learning writers run as Python"

# Dead code. Confidence 60 is vulture's level for unused functions, classes, methods and
# variables (what dead code mostly is); at 80 and above it reports only unused imports,
# arguments and unreachable code, which ruff already finds. What only a framework calls
# by name is in vulture_whitelist.py. The tests are scanned too, so code used only by a
# test counts as used and a dead test helper is found.

## make lint: ruff, dead code (vulture), the layers (import-linter contracts in pyproject.toml),
## then the protocol.
lint: $(STAMP) proto-lint
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/vulture server clients tests vulture_whitelist.py --min-confidence 60 \
		--exclude node_modules
	$(BIN)/lint-imports --no-logo

# The buf CLI, pinned in proto/package.json, from the npm registry.
BUF := proto/node_modules/.bin/buf
$(BUF): proto/package.json proto/package-lock.json
	cd proto && npm ci --no-audit --no-fund --loglevel=error
	touch $(BUF)

## make proto-lint: buf lint on proto/, and buf breaking against the last release's image
## (proto/released.binpb: `cd proto && node_modules/.bin/buf build --exclude-source-info -o released.binpb` at each release).
proto-lint: $(BUF)
	cd proto && node_modules/.bin/buf lint
	if [ -f proto/released.binpb ]; then cd proto && node_modules/.bin/buf breaking --against released.binpb; fi

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP) native
	$(BIN)/pytest -n $(WORKERS) --dist worksteal --durations=25

## make test: lint, type-check and run the whole test suite.
test: lint typecheck unit

## make quick: the inner loop: lint, type-check and the tests not marked slow.
quick: lint typecheck native
	$(BIN)/pytest $(QUICK_TESTS)

## make playthroughs: re-record tests/playthroughs/ after an intended rules change; review the diff.
playthroughs: $(STAMP)
	$(BIN)/python -m tests.playthroughs --regenerate

## make bench: benchmarks, each figure printed beside a baseline measured in the same run.
bench: $(STAMP) native
	$(BIN)/python -m tests.bench

## make run: the match server on the embedded in-memory store (port 50051) with one bot worker,
## and the web client beside it on http://127.0.0.1:8080 (stopped with the server);
## `make run GRPC_PORT=50371 WEB_PORT=8371` serves on other ports.
GRPC_PORT ?= 50051
WEB_PORT ?= 8080
run: $(RUNTIME)
	$(BIN)/senet web --server 127.0.0.1:$(GRPC_PORT) --port $(WEB_PORT) & web=$$!; trap 'kill $$web 2>/dev/null' EXIT INT TERM; \
	$(BIN)/senet serve --no-log-json --embedded-bot-workers 1 --port $(GRPC_PORT)

## make deploy-lock: re-pin the image's dependencies (with hashes): the runtime ones from
## pyproject.toml, and the build stage's code generator, held to the same grpcio and protobuf.
deploy-lock: $(CODEGEN)
	$(BIN)/python -m pip install --quiet pip-tools
	$(BIN)/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras --no-header \
		--no-emit-index-url --no-emit-find-links -o deploy/requirements.txt pyproject.toml
	sed -i '1i # Runtime dependencies of the Senet image, pinned with hashes (pip --require-hashes).\n# Regenerate after changing [project.dependencies] in pyproject.toml: make deploy-lock' \
		deploy/requirements.txt
	echo 'grpcio-tools>=1.60' | $(BIN)/pip-compile --quiet --generate-hashes --allow-unsafe \
		--strip-extras --no-header --no-emit-index-url --no-emit-find-links \
		--constraint deploy/requirements.txt -o deploy/requirements-build.txt -
	sed -i '1i # The image build stage'"'"'s code generator (protoc), pinned with hashes; grpcio and\n# protobuf match deploy/requirements.txt. Regenerate with: make deploy-lock' \
		deploy/requirements-build.txt

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis .import_linter_cache clients/senet/rl/_native
	find proto -name "*_pb2*" -delete; rm -f $(GENERATED)
