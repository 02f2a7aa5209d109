// Preloaded by `bun test`: quiet logs unless asked for, and a clock that starts at a
// fixed instant so month and day boundaries in tests are predictable.
process.env.LOG_LEVEL ??= "silent";

// Build the shared app before any test runs: the first start creates the embedded database.
import { testContext } from "./helpers/context.ts";
await testContext();
