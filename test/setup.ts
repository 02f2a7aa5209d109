// Preloaded by `bun test`: quiet logs unless LOG_LEVEL asks for them.
process.env.LOG_LEVEL ??= "silent";

// A slow CI machine must not turn a correct test into a failure: generous default timeout.
import { afterAll, setDefaultTimeout } from "bun:test";
setDefaultTimeout(30_000);

// Build the shared app before any test runs (the first start creates the embedded
// database); close it and remove the temporary folders after the last one.
import { disposeTestContext, testContext } from "./helpers/context.ts";
await testContext();
afterAll(disposeTestContext);
