# shelf: the tasks a developer and CI run. Every target uses the pinned Bun (see .bun-version).
.PHONY: install dev build test test-real test-hostile test-busy chaos fuzz bench bench-gate bench-real typecheck lint fmt migrate smoke image image-test fleet-test clean

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

# The slow attack cases (huge SVGs, 20 large uploads at once, pixel bombs) against a
# running node on the production parts; asserts /health latency and peak memory.
test-hostile:
	SHELF_HOSTILE=1 bash scripts/real-parts.sh bun test test/hostile

# The embedded suite with every core kept busy by another process, as on a shared CI machine.
test-busy:
	bash scripts/busy.sh bun test

# The fleet under faults: two api nodes and two workers on Postgres, Redis and s3rver under
# mixed load while a seeded schedule kills and restarts nodes and parts; then the invariants
# (test/chaos/run.ts, CONTRIBUTING.md). About 5 minutes. SEED=n replays a run's faults.
chaos:
	bun test/chaos/run.ts

# The randomized sync test of test/model at length (bun test runs 50); replay a failure
# with FUZZ_SEED and FUZZ_PATH as it prints them.
fuzz:
	FUZZ_RUNS=$${FUZZ_RUNS:-2000} bun test test/model/sync.fuzz.test.ts

bench:
	bun bench/index.ts

# A quick set of comparisons (about 2 minutes), each CPU-per-request ratio against the last
# recorded one (bench/baselines/ratios.json); fails when one falls more than its margin
# below it. `bun bench/gate.ts --record` rewrites the ratios (docs/benchmarks.md, "The gate").
bench-gate:
	bun bench/gate.ts

# The same benchmarks on Postgres, Redis and s3rver (the limiter figures need Redis).
bench-real:
	bash scripts/real-parts.sh bun bench/index.ts

typecheck:
	bun run typecheck

# Format and lint (Biome), the import rules of docs/architecture.md (dependency-cruiser),
# no module cycles, and unused files, exports and dependencies (knip).
lint:
	bun run lint

# Rewrites the sources in the one format, with Biome's safe lint fixes.
fmt:
	bun run fmt

migrate:
	bun src/main.ts migrate

smoke: build
	bash scripts/smoke-binary.sh

# The container image shelf:local: docker when a daemon answers, else buildah on a Debian
# base made with debootstrap (scripts/container/; see docs/operators.md).
image:
	bash scripts/container/build.sh

# Runs shelf:local and checks it (scripts/container/image-test.sh); build it first.
image-test:
	bash scripts/container/image-test.sh

# compose.yaml's fleet (Postgres, Redis, S3, api, worker) on shelf:local, a video through the
# api made ready by the worker; local stand-ins for the public images (scripts/container/).
fleet-test:
	bash scripts/container/standins.sh
	bun scripts/container/fleet-test.ts

clean:
	rm -rf dist
