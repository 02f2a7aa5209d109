// A node's environment on a database with no accounts yet: a fresh DATA_DIR (its embedded
// database is empty), or on real parts a throwaway database on the suite's Postgres; and an
// app of its own on one.
import { cpSync } from "node:fs";
import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/wiring/app.ts";
import { closeDeps, createDeps, type Deps } from "../../src/wiring/deps.ts";
import { createServices, type Services } from "../../src/wiring/services.ts";
import { tempDir, testEnv } from "./context.ts";
import { scratchDatabase } from "./scratch-db.ts";

export interface EmptyInstance {
  env: Record<string, string | undefined>;
  /** Drops the throwaway database (after whatever ran on it has stopped). */
  close(): Promise<void>;
}

let template: Promise<string> | undefined;

/**
 * A DATA_DIR whose embedded database is migrated and holds nothing: a copy of one made once
 * per test process. Making one (PGlite's first start and every migration) takes seconds; a
 * copy of the closed one, a tenth of a second. What is under test starts on it as on any
 * empty instance (tests of the first start itself make their own).
 */
export async function freshDataDir(): Promise<string> {
  template ??= (async () => {
    const dir = tempDir("shelf-template-");
    // The folder's own database whatever parts the suite runs on: the template is PGlite's.
    await closeDeps(await createDeps(loadConfig(testEnv({ DATA_DIR: dir, DATABASE_URL: "" }))));
    return dir;
  })();
  const dir = tempDir("shelf-first-");
  cpSync(await template, dir, { recursive: true });
  return dir;
}

let redisDb = 0;

/**
 * The suite's Redis, another of its numbered databases, emptied: an instance's counters
 * (its sign-ups per address, say) are its own, as its in-process kv is on embedded parts.
 */
async function scratchRedis(url: string): Promise<string> {
  redisDb = (redisDb % 15) + 1;
  const target = new URL(url);
  target.pathname = `/${redisDb}`;
  const { Redis } = await import("ioredis");
  const client = new Redis(target.toString(), { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  await client.flushdb();
  await client.quit();
  return target.toString();
}

export async function emptyInstanceEnv(extra: Record<string, string> = {}): Promise<EmptyInstance> {
  if (!process.env.DATABASE_URL) return { env: testEnv({ DATA_DIR: await freshDataDir(), FIRST_USER_ADMIN: "true", ...extra }), close: async () => {} };
  const env = testEnv({ DATA_DIR: tempDir("shelf-first-"), FIRST_USER_ADMIN: "true", ...extra });
  const scratch = await scratchDatabase();
  env.DATABASE_URL = scratch.url;
  if (process.env.REDIS_URL) env.REDIS_URL = await scratchRedis(process.env.REDIS_URL);
  return { env, close: () => scratch.close() };
}

const opened: (() => Promise<void>)[] = [];

/**
 * An app of its own on an empty instance (emptyInstanceEnv with `extra`), in this process;
 * closeEmptyInstances (a file's afterAll) closes every one the file opened.
 */
export async function emptyInstance(extra: Record<string, string> = {}): Promise<{ app: ReturnType<typeof createApp>; deps: Deps; services: Services }> {
  const instance = await emptyInstanceEnv(extra);
  opened.push(instance.close);
  const deps = await createDeps(loadConfig(instance.env));
  const services = createServices(deps);
  opened.push(async () => {
    await services.close();
    await closeDeps(deps);
  });
  return { app: createApp(services), deps, services };
}

export async function closeEmptyInstances(): Promise<void> {
  for (const close of opened.splice(0).reverse()) await close();
}
