// The first module the command line (src/wiring/cli/index.ts) loads: for `shelf serve` and
// `shelf migrate` on the embedded database (no DATABASE_URL, as src/config.ts decides), it
// starts compiling PGlite's engine (src/infra/db/pglite-wasm.ts) before the rest of the
// program's modules are evaluated.
import { pgliteWasmModule } from "../infra/db/pglite-wasm.ts";
import { startStep } from "../infra/start-trace.ts";

startStep("first module evaluated");
const command = Bun.argv[2];
if ((command === "serve" || command === "migrate") && !process.env.DATABASE_URL) pgliteWasmModule().catch(() => {});
