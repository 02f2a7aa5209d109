// A node's environment on a database with no accounts yet: a fresh DATA_DIR (its embedded
// database is empty), or on real parts a throwaway database on the suite's Postgres.
import { tempDir, testEnv } from "./context.ts";
import { scratchDatabase } from "./scratch-db.ts";

export interface EmptyInstance {
  env: Record<string, string | undefined>;
  /** Drops the throwaway database (after whatever ran on it has stopped). */
  close(): Promise<void>;
}

export async function emptyInstanceEnv(extra: Record<string, string> = {}): Promise<EmptyInstance> {
  const env = testEnv({ DATA_DIR: tempDir("shelf-first-"), FIRST_USER_ADMIN: "true", ...extra });
  if (!process.env.DATABASE_URL) return { env, close: async () => {} };
  const scratch = await scratchDatabase();
  env.DATABASE_URL = scratch.url;
  return { env, close: () => scratch.close() };
}
