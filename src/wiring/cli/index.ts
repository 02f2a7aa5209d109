// The `shelf` command: parses argv, loads the config and starts what was asked for
// (src/main.ts runs it). early-start.ts is imported first: it must run before the rest loads.
import "../early-start.ts";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../../config.ts";
import { startStep } from "../../infra/start-trace.ts";
import { VERSION } from "../../infra/version.ts";

const HELP = `shelf ${VERSION}: self-hostable hosting for images, video, audio, documents and knowledge bases

Usage:
  shelf serve [--role api|worker|all]   run the HTTP API, the job worker, or both (default all)
  shelf migrate                         apply database migrations and exit
  shelf admin <command>                 operator tasks; \`shelf admin --help\` lists them
  shelf doctor                          check the config, database, kv, storage and sharp; exit 0 when all pass
  shelf sync login [--url <server>]     sign in for sync with a code approved in a browser (OAuth device flow)
  shelf sync <folder> --kb <slug>       mirror a folder of notes with a knowledge base (--create, --watch;
                                        the sign-in, or SHELF_API_KEY; \`shelf sync --help\` for more)
  shelf sync logout                     revoke the sync sign-in and forget it
  shelf import <folder> [--kb <slug>]   bring a folder of photos and media, or a vault of notes (--kb), into
                                        the account once (SHELF_URL, SHELF_API_KEY; \`shelf import --help\`)
  shelf mcp                             the MCP tools over stdio for a local agent (SHELF_URL, SHELF_API_KEY)
  shelf --help | --version

Configuration is read from the environment; docs/operators.md lists every variable.
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(HELP);
    return command ? 0 : 1;
  }
  if (command === "--version" || command === "-v") {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  switch (command) {
    case "serve":
      return serveCommand(rest);
    case "migrate":
      return migrateCommand();
    case "admin": {
      const { adminCommand } = await import("./admin.ts");
      return adminCommand(rest);
    }
    case "doctor": {
      const { doctorCommand } = await import("./doctor.ts");
      return doctorCommand(rest);
    }
    case "sync": {
      const { syncCommand } = await import("../../../clients/sync/index.ts");
      return syncCommand(rest);
    }
    case "import": {
      const { importCommand } = await import("../../../clients/sync/import.ts");
      return importCommand(rest);
    }
    case "mcp": {
      const { mcpCommand } = await import("../../../clients/mcp/index.ts");
      return mcpCommand(rest);
    }
    // Not for people: the compiled binary's Typst compile process (src/infra/typst/index.ts starts it).
    case "__typst-compile": {
      const { runTypstChild } = await import("../../infra/typst/child.ts");
      await runTypstChild();
      return 0;
    }
    default:
      process.stderr.write(`unknown command: ${command}\n\n${HELP}`);
      return 2;
  }
}

async function serveCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { role: { type: "string", default: "all" } } });
  const role = values.role;
  if (role !== "api" && role !== "worker" && role !== "all") {
    process.stderr.write(`--role must be api, worker or all (got ${role})\n`);
    return 2;
  }
  startStep("main module loaded");
  // Listened for before anything starts: a SIGTERM that arrives while the node is still
  // starting (a supervisor that gives up, a test that stops it as soon as /ready answers)
  // stops it cleanly once it has started, instead of killing it with the default action.
  const signalled = new Promise<void>((resolve) => {
    process.once("SIGTERM", () => resolve());
    process.once("SIGINT", () => resolve());
  });
  const config = loadConfig();
  startStep("config loaded");
  if (config.embedded.db) await prepareEmbeddedDb();
  const { createDeps } = await import("../deps.ts");
  startStep("deps modules loaded");
  const { serve } = await import("../server.ts");
  startStep("app modules loaded");
  const { createLog } = await import("../../infra/log.ts");
  const { createCompliance } = await import("../../modules/compliance/public.ts");
  const log = createLog(config.LOG_LEVEL);
  if (config.embedded.db && !process.env.DATA_DIR) {
    const { dataFolderHere, embeddedDatabaseIn } = await import("./instance.ts");
    const here = embeddedDatabaseIn(config.DATA_DIR) ? undefined : dataFolderHere(config.DATA_DIR);
    // DATA_DIR's default once followed the working directory: an instance made that way is
    // not lost, but this start makes a new one elsewhere, which its owner should hear of.
    if (here)
      log.warn("a new instance is made in DATA_DIR, the default; the working directory's data/ holds another: set DATA_DIR to use that", {
        dataDir: config.DATA_DIR,
        found: here,
      });
  }
  // Before the database opens: a blocklist that cannot be read stops the start at once.
  const compliance = createCompliance(config, { log });
  // The database opens while serve builds the app (src/wiring/server.ts says when it listens).
  const deps = await createDeps(config, { background: true, log });
  startStep("deps created");
  const running = await serve(deps, role, { compliance });
  await signalled;
  await running.stop();
  return 0;
}

async function migrateCommand(): Promise<number> {
  const config = loadConfig();
  if (config.embedded.db) await prepareEmbeddedDb();
  const { createDeps, closeDeps } = await import("../deps.ts");
  const deps = await createDeps(config, { migrate: false });
  try {
    const applied = await deps.database.migrate();
    process.stdout.write(`migrations: ${applied} applied, database is up to date\n`);
    return 0;
  } finally {
    await closeDeps(deps);
  }
}

/**
 * Starts compiling PGlite's engine on another thread, while the app's modules load
 * (src/infra/db/pglite-wasm.ts): the largest single cost of a start on embedded parts.
 * src/wiring/early-start.ts has already started it for `serve` and `migrate` without
 * DATABASE_URL; this call makes sure of it whatever decided that the database is embedded.
 */
async function prepareEmbeddedDb(): Promise<void> {
  const { pgliteWasmModule } = await import("../../infra/db/pglite-wasm.ts");
  pgliteWasmModule();
}

/** Runs the command `argv` names and exits with its status; a failure is one line on stderr. */
export function run(argv: string[]): void {
  main(argv).then(
    (code) => process.exit(code),
    (err) => {
      if (err instanceof ConfigError) process.stderr.write(`shelf: ${err.message}\n`);
      else if (err?.name === "EmbeddedDbBusyError" || err?.name === "PortInUseError") process.stderr.write(`shelf: ${err.message}\n`);
      else process.stderr.write(`shelf: ${err?.stack ?? err}\n`);
      process.exit(1);
    },
  );
}
