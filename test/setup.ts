// Preloaded by `bun test`: quiet logs unless LOG_LEVEL asks for them.
process.env.LOG_LEVEL ??= "silent";
// argon2id at a test cost: the production cost (64 MiB, 2 passes) makes sign-up and login
// tests that hash many passwords slow enough to time out on a busy machine. The cost is
// read from each stored hash, so the rules under test are the same.
process.env.PASSWORD_HASH_MEMORY_KIB ??= "256";
process.env.PASSWORD_HASH_TIME_COST ??= "1";

// Each test file sets its own time limit (helpers/timeout.ts: a preload's reaches only the
// first file of a run).
import { afterAll } from "bun:test";

// Build the shared app before any test runs (the first start creates the embedded
// database); close it and remove the temporary folders after the last one.
import { disposeTestContext, testContext } from "./helpers/context.ts";
await testContext();
// Teardown gets longer than a test: on a busy machine it may wait on disks the loops slow down.
afterAll(disposeTestContext, { timeout: 120_000 });
