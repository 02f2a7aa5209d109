// A shelf api in a throwaway DATA_DIR, listening on loopback, with one pro user and an
// API key: what the benchmarks talk to. Embedded parts, or Postgres when DATABASE_URL is
// set (`make bench-real`). `overrides` are applied over that environment last; a key set
// to undefined is unset (`{ DATABASE_URL: undefined }`: embedded parts whatever is set).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { createDeps } from "../src/wiring/deps.ts";
import { createApiKey, createUser } from "../src/modules/identity/public.ts";
import { serve } from "../src/wiring/server.ts";

/**
 * A server's environment with the per-minute tiers and pro_plus's sync-op bucket raised,
 * so that a load of sync pushes measures the routes, not the limits.
 */
export const UNLIMITED_SYNC = {
  RATE_LIMITS: JSON.stringify({ read: 1_000_000, mutation: 1_000_000, upload: 1_000_000, file: 1_000_000 }),
  PLAN_OVERRIDES: JSON.stringify({ pro_plus: { syncOpBurst: 1_000_000, syncOpRefillPerMinute: 1_000_000 } }),
};

export async function startShelf(overrides: Record<string, string | undefined> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "shelf-bench-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    PORT: "0",
    HOST: "127.0.0.1",
    PUBLIC_URL: "http://127.0.0.1",
    // The production parts when real-parts.sh gives them: Postgres, and Redis for the limiter.
    ...(process.env.DATABASE_URL && { DATABASE_URL: process.env.DATABASE_URL, JWT_SECRET: "bench-secret-".padEnd(40, "x") }),
    ...(process.env.REDIS_URL && { REDIS_URL: process.env.REDIS_URL }),
    ...overrides,
  });
  const deps = await createDeps(config);
  // The production server: same listen options, same shutdown.
  const running = await serve(deps, "api");
  const origin = new URL(running.url!).origin;
  /** A new pro_plus user and their API key. */
  const newUserKey = async () => {
    const user = await createUser(deps, { email: `bench-${crypto.randomUUID()}@example.test`, password: "bench password 123", plan: "pro_plus" });
    return { userId: user.id, key: (await createApiKey(deps, user.id, deps.plans.pro_plus, { name: "bench" })).key };
  };
  const newKey = async () => (await newUserKey()).key;
  const { userId, key } = await newUserKey();
  return {
    origin,
    key,
    /** The owner of `key`. */
    userId,
    newKey,
    newUserKey,
    /** The parts this shelf runs on, for benchmarks that write rows directly. */
    deps,
    /** The edge URL of an image, on this server (MEDIA_URL's path, this server's origin). */
    edgeUrl: (url: string) => `${origin}${new URL(url).pathname}`,
    async stop() {
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export type Shelf = Awaited<ReturnType<typeof startShelf>>;
