// A shelf api in a throwaway DATA_DIR, listening on loopback, with one pro user and an
// API key: what the benchmarks talk to. Embedded parts, or Postgres when DATABASE_URL is
// set (`bash scripts/real-parts.sh make bench`).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { createDeps } from "../src/deps.ts";
import { createApiKey, createUser } from "../src/modules/identity/public.ts";
import { serve } from "../src/server.ts";

/** `env`: settings on top of the benchmarks' own (rate limits, pool size). */
export async function startShelf(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "shelf-bench-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    PORT: "0",
    HOST: "127.0.0.1",
    PUBLIC_URL: "http://127.0.0.1",
    ...(process.env.DATABASE_URL && { DATABASE_URL: process.env.DATABASE_URL, JWT_SECRET: "bench-secret-".padEnd(40, "x") }),
    ...env,
  });
  const deps = await createDeps(config);
  // The production server: same listen options, same shutdown.
  const running = await serve(deps, "api");
  const origin = new URL(running.url!).origin;
  /** A new pro_plus user's API key. */
  const newKey = async () => {
    const user = await createUser(deps, { email: `bench-${crypto.randomUUID()}@example.test`, password: "bench password 123", plan: "pro_plus" });
    return (await createApiKey(deps, user.id, deps.plans.pro_plus, { name: "bench" })).key;
  };
  const key = await newKey();
  return {
    deps,
    origin,
    key,
    newKey,
    /** The edge URL of an image, on this server (MEDIA_URL's path, this server's origin). */
    edgeUrl: (url: string) => `${origin}${new URL(url).pathname}`,
    async stop() {
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export type Shelf = Awaited<ReturnType<typeof startShelf>>;
