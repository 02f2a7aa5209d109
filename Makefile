# shelf: the tasks a developer and CI run. Every target uses the pinned Bun (see .bun-version).
.PHONY: install dev build test test-real bench typecheck migrate smoke clean

install:
	bun install --frozen-lockfile

dev:
	bun --watch src/main.ts serve

build:
	bun scripts/build.ts

test:
	bun test

# The same suite against Postgres, Redis and an S3-compatible server started locally.
test-real:
	bash scripts/real-parts.sh bun test

bench:
	bun bench/index.ts

typecheck:
	bunx tsc --noEmit -p .

migrate:
	bun src/main.ts migrate

smoke: build
	bash scripts/smoke-binary.sh

clean:
	rm -rf dist
