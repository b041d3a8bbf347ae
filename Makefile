# paygate: `make start` runs the service, `make test` runs every test. Both install what they need.
SHELL := /bin/bash
NPM_STAMP := node_modules/.install-stamp

.PHONY: install start build generate check-generated lint-spec typecheck migrate test clean bench bench-longpoll

install: $(NPM_STAMP)

# npm ci from the lock file, again whenever the lock file changes.
$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $(NPM_STAMP)

build: install
	npm run --silent build

generate: install
	node scripts/generate.mjs

check-generated: install
	node scripts/generate.mjs --check

lint-spec: install
	npx --no-install redocly lint --format=summary

typecheck: install
	npx --no-install tsc -p tsconfig.json --noEmit

migrate: build
	npm run --silent migrate

start: build
	npm start

test: install check-generated lint-spec typecheck build
	NODE_ENV=test npx --no-install jest --runInBand

clean:
	rm -rf dist

# Benchmarks (not tests): ratios against baselines measured in the same run. See bench/.
bench: build
	node bench/http.mjs

bench-longpoll: build
	node bench/longpoll.mjs
