// The database part: PGlite in DATA_DIR/pg, or Postgres through postgres.js. Both are
// driven through drizzle with one schema, so every query is written once.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { Config } from "../../config.ts";
import type { Log } from "../log.ts";
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
  migrate(): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

// Any constant works; all nodes must use the same one.
const MIGRATION_LOCK = 7_301_114_551;
const migrationsConfig = { migrationsTable: "__migrations", migrationsSchema: "public" };

export async function createDatabase(config: Config, log: Log): Promise<Database> {
  return config.DATABASE_URL ? createPostgres(config.DATABASE_URL, config.DATABASE_POOL_MAX, log) : createPglite(config.DATA_DIR);
}

/** Applies the migrations the binary carries; returns how many were new. */
async function applyMigrations(db: Db): Promise<number> {
  const migrations = readMigrations();
  const before = await applied(db);
  // drizzle applies every migration newer than the newest recorded one (by created_at):
  // when that is the newest the binary carries, there is nothing to do, and this start
  // costs two small queries instead of drizzle's round (schema, table, select).
  const newest = Math.max(...migrations.map((m) => m.folderMillis));
  if (before.count > 0 && before.newest >= newest) return 0;
  // drizzle's dialect migrator records each migration by hash and skips those applied.
  await (
    db as unknown as { dialect: { migrate: (migrations: unknown, session: unknown, config: unknown) => Promise<unknown> }; session: unknown }
  ).dialect.migrate(migrations, (db as unknown as { session: unknown }).session, migrationsConfig);
  return (await applied(db)).count - before.count;
}

/** How many migrations the database records, and the created_at of the newest. */
async function applied(db: Db): Promise<{ count: number; newest: number }> {
  const table = rowsOf<{ t: string | null }>(await db.execute(sql`select to_regclass('public.__migrations')::text as t`))[0]?.t;
  if (!table) return { count: 0, newest: 0 };
  const row = rowsOf<{ n: number; newest: string | null }>(
    await db.execute(sql`select count(*)::int as n, max(created_at)::text as newest from public.__migrations`),
  )[0];
  return { count: row?.n ?? 0, newest: Number(row?.newest ?? 0) };
}

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
    await database.migrate();
  } finally {
    await database.close();
  }
  const { packImage } = await import("./pg-image.ts");
  return packImage(join(dataDir, "pg"), (path) => path === "shelf.pid");
}

async function createPglite(dataDir: string): Promise<Database> {
  const { openPglite } = await import("./pglite.ts");
  const dir = join(dataDir, "pg");
  mkdirSync(dir, { recursive: true });
  const { client, unlock } = await openPglite(dir);
  const [{ drizzle }, { preparedClient }] = await Promise.all([import("drizzle-orm/pglite"), import("./pglite-client.ts")]);
  const db = drizzle({ client: preparedClient(client), schema }) as unknown as Db;
  return {
    kind: "pglite",
    db,
    migrate: () => applyMigrations(db),
    async ping() {
      await client.query("select 1");
    },
    async close() {
      await client.close();
      unlock();
    },
  };
}

async function createPostgres(url: string, max: number, log: Log): Promise<Database> {
  const postgres = (await import("postgres")).default;
  const client = postgres(url, { max, onnotice: () => {}, connect_timeout: 10, idle_timeout: 60 });
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const db = drizzle({ client, schema }) as unknown as Db;
  return {
    kind: "postgres",
    db,
    async migrate() {
      // Nodes starting together take turns: the first applies, the others find nothing new.
      const conn = await client.reserve();
      try {
        await conn`select pg_advisory_lock(${MIGRATION_LOCK})`;
        return await applyMigrations(db);
      } finally {
        await conn`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch((err) => log.warn("migration unlock failed", { err }));
        conn.release();
      }
    },
    async ping() {
      await client`select 1`;
    },
    async close() {
      await client.end({ timeout: 5 });
    },
  };
}
