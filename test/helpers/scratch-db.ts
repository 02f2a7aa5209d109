// An empty database for migration tests, on the parts the suite runs on: a fresh PGlite,
// or a throwaway database on the Postgres of DATABASE_URL (dropped on close).
import { join } from "node:path";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { newId } from "../../src/infra/ids.ts";

export interface ScratchDatabase {
  /** The database's URL on Postgres; undefined for the embedded one (a fresh DATA_DIR is empty). */
  url?: string;
  run(statement: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** Every migration in order, each with its statements. */
export const migrationFiles = () => readMigrationFiles({ migrationsFolder: join(import.meta.dir, "../../migrations") });

export async function scratchDatabase(): Promise<ScratchDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const { PGlite } = await import("@electric-sql/pglite");
    const pg = new PGlite();
    return { run: async (q) => (await pg.query<Record<string, unknown>>(q)).rows, close: () => pg.close() };
  }
  const postgres = (await import("postgres")).default;
  const name = `shelf_migration_${newId()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const db = postgres(target.toString(), { max: 1, onnotice: () => {} });
  return {
    url: target.toString(),
    run: async (q) => [...(await db.unsafe(q))] as Record<string, unknown>[],
    async close() {
      await db.end();
      // A server the test started on it may still be closing its pool.
      await admin.unsafe(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`);
      await admin.unsafe(`drop database "${name}"`);
      await admin.end();
    },
  };
}
