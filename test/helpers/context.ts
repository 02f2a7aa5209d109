// One app per test process, on embedded parts by default, or on Postgres, Redis and S3
// when DATABASE_URL, REDIS_URL and S3_BUCKET are set (CI runs the suite both ways).
// Tests share the app but never data: each makes its own user.
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp, type App } from "../../src/wiring/app.ts";
import { loadConfig, type Config } from "../../src/config.ts";
import { closeDeps, createDeps, type Deps } from "../../src/wiring/deps.ts";
import { createServices, type Services } from "../../src/wiring/services.ts";
import type { JobRunner } from "../../jobs/runner.ts";
import { contractOf, type Handler } from "./contract.ts";

export interface TestContext {
  deps: Deps;
  services: Services;
  app: App;
  runner: JobRunner;
  config: Config;
}

let ctx: Promise<TestContext> | undefined;

const temps: string[] = [];

/** A temporary folder, removed after the last test (disposeTestContext). */
export function tempDir(prefix = "shelf-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/** Environment for a test app: the process's (real parts when set) plus test defaults. */
export function testEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  return {
    ...process.env,
    DATA_DIR: process.env.TEST_DATA_DIR ?? tempDir(),
    PUBLIC_URL: "http://shelf.test",
    JWT_SECRET: process.env.JWT_SECRET ?? "test-secret-test-secret-test-secret-0123",
    // Which test makes a process's first account is a matter of order: each test names the
    // plan it needs, and the first-account rule has its own tests on an empty database.
    FIRST_USER_ADMIN: "false",
    ...extra,
  };
}

/**
 * `config` with PUBLIC_URL unset: its four addresses the defaults, each following the
 * address a request came to (oauthApp's change, for the tests of that mode).
 */
export function addressesFromRequest<C extends object>(config: C): C {
  const unset = loadConfig(testEnv({ PUBLIC_URL: "", PORT: "8080" }));
  return {
    ...config,
    PUBLIC_URL: unset.PUBLIC_URL,
    MEDIA_URL: unset.MEDIA_URL,
    CENTER_URL: unset.CENTER_URL,
    MCP_URL: unset.MCP_URL,
    addressesFromRequest: unset.addressesFromRequest,
  };
}

/**
 * The shared app waits longer for upload memory, image work and the SVG sanitizer than any
 * test may run: on a busy machine a queued upload must not be shed by one of the node's own
 * timers in a test that is not about shedding (those build their own budgets and sanitizers).
 */
const PATIENT: Record<string, string> = { BUSY_WAIT_MS: "60000", SVG_SANITIZE_TIMEOUT_MS: "60000" };

export function testContext(): Promise<TestContext> {
  ctx ??= (async () => {
    const config = loadConfig(testEnv(Object.fromEntries(Object.entries(PATIENT).filter(([k]) => !process.env[k]))));
    const deps = await createDeps(config);
    const services = createServices(deps);
    const app = createApp(services);
    return { deps, services, app, runner: services.runner, config };
  })();
  return ctx;
}

/**
 * Closes the shared app's parts and removes the temporary folders (after all tests). The
 * folders go asynchronously and at once: a run leaves about 200, some holding a database of
 * 250 MB, and removing them one by one on the event loop held it for longer than the hook's
 * timeout on a busy CI machine. A slow step is named on stderr, so a slow teardown says where.
 */
export async function disposeTestContext(): Promise<void> {
  const slow = (what: string, started: number) => {
    const ms = performance.now() - started;
    if (ms > 5_000) console.error(`disposeTestContext: ${what} took ${Math.round(ms)} ms`);
  };
  let started = performance.now();
  if (ctx) {
    const { services, deps } = await ctx;
    ctx = undefined;
    await services.close();
    slow("closing the services", started);
    started = performance.now();
    await closeDeps(deps);
    slow("closing the database and kv", started);
  }
  started = performance.now();
  const dirs = temps.splice(0);
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  slow(`removing ${dirs.length} temporary folders`, started);
}

export interface CallOptions {
  token?: string;
  headers?: Record<string, string>;
  json?: unknown;
  body?: RequestInit["body"];
  /** An app the test built itself (other parts, other settings): held to the same document. */
  app?: Handler;
}

/**
 * Sends one request through the app, as a client would over HTTP, and fails unless the
 * answer keeps to the OpenAPI document (status, body schema, required headers).
 */
export async function call(method: string, path: string, opts: CallOptions = {}): Promise<Response> {
  const app = opts.app ?? (await testContext()).app;
  const headers = new Headers(opts.headers);
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  let body = opts.body;
  if (opts.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(opts.json);
  }
  const res = await app.handle(new Request(`http://shelf.test${path}`, { method, headers, body }));
  await expectDocumented(method, path, res);
  return res;
}

/** Fails unless `res`, the answer to `method path`, keeps to the OpenAPI document (for answers a test gets by fetch or app.handle). */
export async function expectDocumented(method: string, path: string, res: Response): Promise<void> {
  const contract = await contractOf((await testContext()).app);
  const problem = await contract.violation(method.toUpperCase(), path, res);
  if (problem) throw new Error(`the answer breaks the OpenAPI document: ${problem}`);
}

/** The parsed JSON body with its status, for assertions on the envelope. */
export async function callJson<T = any>(method: string, path: string, opts: CallOptions = {}) {
  const res = await call(method, path, opts);
  const text = await res.text();
  let json: T;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${method} ${path} answered ${res.status} with non-JSON: ${text.slice(0, 200)}`);
  }
  return { status: res.status, headers: res.headers, body: json };
}
