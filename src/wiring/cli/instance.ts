// Which instance a command acts on, in words an operator can check: `shelf admin` names it
// before it acts (docs/operators.md, "Operators: the CLI and jobs"), and refuses to act where
// there is none, so a command run from the wrong folder or with the wrong DATA_DIR cannot
// make a second, empty instance that no server ever reads.
import { existsSync, realpathSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { Config } from "../../config.ts";

/** Whether DATA_DIR holds an embedded database: PG_VERSION is the last file a first start puts in place. */
export const embeddedDatabaseIn = (dataDir: string) => existsSync(join(dataDir, "pg", "PG_VERSION"));

/** A Postgres URL without its credentials: host, port and database are what tell instances apart. */
function postgresName(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ""}${u.pathname}`;
  } catch {
    return "(DATABASE_URL)";
  }
}

/** The instance `config` opens: its database, and its DATA_DIR (the admin socket, the embedded parts). */
export function describeInstance(config: Pick<Config, "DATA_DIR" | "DATABASE_URL">): string {
  return config.DATABASE_URL
    ? `the instance on Postgres ${postgresName(config.DATABASE_URL)} (DATABASE_URL; DATA_DIR=${config.DATA_DIR})`
    : `the instance in DATA_DIR=${config.DATA_DIR} (embedded database ${join(config.DATA_DIR, "pg")})`;
}

/**
 * `./data` of the working directory when it holds an instance other than `dataDir`'s: where
 * instances lived before DATA_DIR's default stopped following the working directory, so a
 * command that finds none where it looks can say where one is.
 */
export function dataFolderHere(dataDir: string, cwd = process.cwd()): string | undefined {
  const here = resolve(cwd, "data");
  return here !== resolve(dataDir) && embeddedDatabaseIn(here) ? here : undefined;
}

/** How this program is run again, as a person would type it here: `shelf` on the PATH, the binary's path, or `bun <checkout>/src/main.ts`. */
export function selfCommand(): string {
  const nearby = (path: string) => {
    const rel = relative(process.cwd(), path);
    return rel.startsWith("..") ? path : rel.includes("/") ? rel : `./${rel}`;
  };
  if (Bun.main.endsWith(".ts")) return `bun ${nearby(Bun.main)}`;
  const onPath = Bun.which("shelf");
  return onPath && realpathSync(onPath) === realpathSync(process.execPath) ? "shelf" : nearby(process.execPath);
}
