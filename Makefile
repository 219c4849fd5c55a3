# Mneme — two commands do everything on a fresh Debian/Ubuntu machine:
#   make demo   install what is missing, start the local stack, run the multi-agent scenario
#   make test   install what is missing, run the whole suite
# Every target is idempotent and works as root or through sudo.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO          ?= go
BIN         := bin
LOCAL       := .local
HTTP_ADDR   ?= 127.0.0.1:8080
MODULES     := . ./bench ./pkg ./schemas ./services/ingest ./services/extractor ./services/embedder ./services/reconciler ./services/query ./deploy
TEST_FLAGS  ?= -race -count=1 -timeout 20m
BENCH       ?= factconsolidation
DATA        ?=

export GOFLAGS := -buildvcs=false

.PHONY: help deps build up down demo test test-short lint tidy bench pg-start pg-stop clean

help:
	@echo "make demo    deps + start the local stack + scripted multi-agent scenario (leaves the stack running)"
	@echo "make test    deps + the whole suite (real Postgres+pgvector, real NATS JetStream)"
	@echo "make up      start Postgres and all Mneme services in the background, wait for /readyz"
	@echo "make down    stop what make up started"
	@echo "make lint    gofmt, go vet, staticcheck, go mod tidy check in every module"
	@echo "make bench BENCH=<factconsolidation|locomo|beam|longmemeval> DATA=<path>"

deps:
	@bash scripts/deps.sh

build:
	@mkdir -p $(BIN)
	$(GO) build -o $(BIN)/mneme ./cmd/mneme

pg-start:
	@bash scripts/pg.sh start

pg-stop:
	@bash scripts/pg.sh stop

# make up records whether it started the Postgres cluster, so make down stops exactly what make up started.
up: deps build
	@mkdir -p $(LOCAL); bash scripts/pg.sh status >/dev/null 2>&1 || touch $(LOCAL)/pg-started-by-up
	@bash scripts/pg.sh start
	@bash scripts/stack.sh up

down:
	@bash scripts/stack.sh down
	@if [ -f $(LOCAL)/pg-started-by-up ]; then bash scripts/pg.sh stop && rm -f $(LOCAL)/pg-started-by-up; fi

demo: up
	@$(GO) run ./examples/demo -url http://$(HTTP_ADDR) -nats nats://127.0.0.1:4222

# The suite starts with the lint gate (gofmt, vet, staticcheck, go mod tidy -diff): CI fails on any finding.
# Tests of the shipped benchmark data skip when it is absent (it is not in the repository); where it is present
# beside the repository (../shared/data, or $MNEME_SHARED_DATA), MNEME_REQUIRE_DATA=1 turns a missing file
# into a failure, so the suite cannot pass without having read it. So does MNEME_REQUIRE_WORDNET=1 for WordNet's
# nouns (deps installs Debian's wordnet-base), which the rule extractor reads kinds of things from.
SHARED_DATA := $(or $(MNEME_SHARED_DATA),../shared/data)
test: deps pg-start
	@bash scripts/lint.sh
	@MNEME_REQUIRE_DB=1 MNEME_REQUIRE_MODEL=1 MNEME_REQUIRE_WORDNET=1 $(if $(wildcard $(SHARED_DATA)),MNEME_REQUIRE_DATA=1) bash scripts/test.sh $(TEST_FLAGS)

lint:
	@bash scripts/lint.sh

tidy:
	@for m in $(MODULES); do (cd $$m && $(GO) mod tidy); done

bench: deps pg-start build
	@$(GO) run ./bench/cmd/mneme-bench -bench $(BENCH) $(if $(DATA),-data $(DATA))

clean: down
	rm -rf $(BIN)
