// The database part: PGlite in DATA_DIR/pg, or Postgres through postgres.js. Both are
// driven through drizzle with one schema, so every query is written once.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PGlite } from "@electric-sql/pglite";
import type { Config } from "../../config.ts";
import type { Log } from "../log.ts";
import { startStep } from "../start-trace.ts";
import * as schema from "./schema.ts";
import { readMigrations } from "./embedded-migrations.ts" with { type: "macro" };

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Query functions take either, so callers compose them inside a transaction. */
export type DbOrTx = Db | Tx;

export interface Database {
  readonly kind: "pglite" | "postgres";
  readonly db: Db;
  /**
   * Resolves once the database can be queried (and is migrated, when createDatabase was
   * asked to). The embedded one opens behind it, a few hundred milliseconds on a later
   * start, and its `db` holds every query until then: the caller builds the rest of the
   * app meanwhile, and may even listen (src/wiring/server.ts).
   */
  readonly opened: Promise<void>;
  migrate(): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * The embedded database only: its files copied to `dest` as they are at one instant
   * (`alongside` runs in that same instant), which open as the database it was then.
   * Postgres has pg_dump for this.
   */
  copyTo?(dest: string, alongside?: () => void): Promise<{ heldMs: number }>;
}

// Any constant works; all nodes must use the same one.
const MIGRATION_LOCK = 7_301_114_551;
const migrationsConfig = { migrationsTable: "__migrations", migrationsSchema: "public" };

/**
 * The database of `config`. With `migrate`, `opened` resolves once the migrations the
 * binary carries are applied too.
 */
export async function createDatabase(config: Config, log: Log, opts: { migrate?: boolean } = {}): Promise<Database> {
  const onOpen = opts.migrate
    ? async (migrate: () => Promise<number>) => {
        const applied = await migrate();
        startStep("migrations checked");
        if (applied) log.info("migrations applied", { count: applied });
      }
    : undefined;
  return config.DATABASE_URL ? createPostgres(config.DATABASE_URL, config.DATABASE_POOL_MAX, log, onOpen) : createPglite(config.DATA_DIR, onOpen);
}

type OnOpen = (migrate: () => Promise<number>) => Promise<void>;
const ignore = () => {};

/**
 * Applies the migrations the binary carries; returns how many were new. `known`: what the
 * database recorded when it was last shut down, if it is still as it was left
 * (src/infra/db/pglite-known.ts), which spares the query when nothing is new.
 */
async function applyMigrations(db: Db, known?: { count: number; newest: number }): Promise<number> {
  const migrations = readMigrations();
  // drizzle applies every migration newer than the newest recorded one (by created_at):
  // when that is the newest the binary carries, there is nothing to do, and this start
  // costs one small query (or none) instead of drizzle's round (schema, table, select).
  const newest = Math.max(...migrations.map((m) => m.folderMillis));
  if (known && known.count > 0 && known.newest >= newest) return 0;
  const before = await applied(db);
  if (before.count > 0 && before.newest >= newest) return 0;
  // drizzle's dialect migrator records each migration by hash and skips those applied.
  await (
    db as unknown as { dialect: { migrate: (migrations: unknown, session: unknown, config: unknown) => Promise<unknown> }; session: unknown }
  ).dialect.migrate(migrations, (db as unknown as { session: unknown }).session, migrationsConfig);
  return (await applied(db)).count - before.count;
}

/**
 * How many migrations the database records, and the created_at of the newest: one query,
 * and none recorded when the table is not there yet (a new database).
 */
async function applied(db: Db): Promise<{ count: number; newest: number }> {
  try {
    const row = rowsOf<{ n: number; newest: string | null }>(
      await db.execute(sql`select count(*)::int as n, max(created_at)::text as newest from public.__migrations`),
    )[0];
    return { count: row?.n ?? 0, newest: Number(row?.newest ?? 0) };
  } catch (e) {
    const err = e as { code?: string; cause?: { code?: string } };
    if ((err.cause?.code ?? err.code) === UNDEFINED_TABLE) return { count: 0, newest: 0 };
    throw e;
  }
}

const UNDEFINED_TABLE = "42P01";

/** postgres.js returns an array, PGlite an object with `rows`. */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}

/**
 * The database image `make build` embeds (src/infra/db/pg-image.ts): a new embedded
 * database in `dataDir` with every migration applied, closed, then packed.
 */
export async function makePgImage(dataDir: string): Promise<Uint8Array> {
  const database = await createPglite(dataDir);
  try {
    await database.opened;
    await database.migrate();
  } finally {
    await database.close();
  }
  const { packImage } = await import("./pg-image.ts");
  return packImage(join(dataDir, "pg"), (path) => path === "shelf.pid");
}

async function createPglite(dataDir: string, onOpen?: OnOpen): Promise<Database> {
  const [{ lockAndOpenPglite }, { drizzle }, { preparedClient }] = await Promise.all([
    import("./pglite.ts"),
    import("drizzle-orm/pglite"),
    import("./pglite-client.ts"),
  ]);
  const dir = join(dataDir, "pg");
  mkdirSync(dir, { recursive: true });
  const opening = lockAndOpenPglite(dir);
  const client = opening.then(({ client }) => preparedClient(client));
  // Each of these is awaited by whoever uses the database (`opened`, a query), not here.
  client.catch(ignore);
  // Migrations wait for the engine only; the app's queries also wait for the migrations.
  const migrationDb = drizzle({ client: deferredClient(client), schema }) as unknown as Db;
  const migrated = opening.then(async ({ known }) => {
    await onOpen?.(() => applyMigrations(migrationDb, known?.migrations));
    return client;
  });
  migrated.catch(ignore);
  const db = drizzle({ client: deferredClient(migrated), schema }) as unknown as Db;
  const opened = migrated.then((c) => {
    // What tests and tools reach as the driver's client: the engine's, once it is open.
    (db as unknown as { $client: PGlite }).$client = c;
  });
  opened.catch(ignore);
  return {
    kind: "pglite",
    db,
    opened,
    migrate: async () => {
      await opened;
      return applyMigrations(migrationDb);
    },
    async ping() {
      await (await migrated).query("select 1");
    },
    async close() {
      await (await opening).close();
    },
    async copyTo(dest, alongside) {
      await opened;
      return (await opening).copyTo(dest, alongside);
    },
  };
}

/**
 * What drizzle is given before the engine is open: the two methods it calls (`query`,
 * `transaction`), each waiting for the engine on the calls made before it opened. Statements
 * drizzle prepares keep the client they were prepared with, so this one stays in place.
 */
function deferredClient(client: Promise<PGlite>): PGlite {
  let open: PGlite | undefined;
  client.then(
    (c) => {
      open = c;
    },
    () => {},
  );
  const deferred = {
    query: (...args: Parameters<PGlite["query"]>) => (open ? open.query(...args) : client.then((c) => c.query(...args))),
    transaction: (...args: Parameters<PGlite["transaction"]>) => (open ? open.transaction(...args) : client.then((c) => c.transaction(...args))),
  };
  return deferred as unknown as PGlite;
}

/**
 * Seconds before a closed connection connects again: the driver's own jittered growth,
 * capped at 1 s instead of 20. A query waits for that attempt, so while the database is
 * away the driver's cap is how long a request hangs before its 503; a refused attempt
 * costs next to nothing, and a node comes back within a second of the database.
 */
const reconnectDelayS = (retries: number) => (0.5 + Math.random() / 2) * Math.min(3 ** retries / 100, 1);

async function createPostgres(url: string, max: number, log: Log, onOpen?: OnOpen): Promise<Database> {
  const postgres = (await import("postgres")).default;
  // Sessions in UTC, whatever the server's own timezone: a UTC day is every daily key, and
  // timestamps come as text in one form (isoOfDbText reads it without a Date), as PGlite's do.
  const client = postgres(url, {
    max,
    onnotice: () => {},
    connect_timeout: 10,
    idle_timeout: 60,
    backoff: reconnectDelayS,
    connection: { TimeZone: "UTC" },
  });
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const db = drizzle({ client, schema }) as unknown as Db;
  // Nodes starting together take turns: the first applies, the others find nothing new.
  const migrate = async () => {
    const conn = await client.reserve();
    try {
      await conn`select pg_advisory_lock(${MIGRATION_LOCK})`;
      return await applyMigrations(db);
    } finally {
      await conn`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch((err) => log.warn("migration unlock failed", { err }));
      conn.release();
    }
  };
  // postgres.js connects on the first query.
  const opened = onOpen ? onOpen(migrate) : Promise.resolve();
  opened.catch(ignore);
  return {
    kind: "postgres",
    db,
    opened,
    migrate,
    async ping() {
      await client`select 1`;
    },
    async close() {
      await client.end({ timeout: 5 });
    },
  };
}
