// The database away is an outage, not a fault: errorAnswer (the one mapping behind onError
// and the media edge) answers the driver's connection failures 503 DEPENDENCY_UNAVAILABLE
// with Retry-After, logged once at warn without a stack; anything else the database says
// stays what it was. The whole outage, on a real Postgres stopped under traffic, is in
// test/hostile/postgres-outage.test.ts.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { DrizzleQueryError, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { Elysia } from "elysia";
import postgres from "postgres";
import { createApp } from "../../src/wiring/app.ts";
import { errorAnswer, httpCore } from "../../src/http/core.ts";
import type { Db } from "../../src/infra/db/index.ts";
import * as schema from "../../src/infra/db/schema.ts";
import type { Log } from "../../src/infra/log.ts";
import { createServices } from "../../src/wiring/services.ts";
import { pageClient } from "../oauth/page-client.ts";
import { call, testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

type Line = { level: string; msg: string; fields?: Record<string, unknown> };

function capturingLog(lines: Line[] = []): Log & { lines: Line[] } {
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) => void lines.push({ level, msg, fields });
  const log = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error"), child: () => log, lines };
  return log;
}

/** What postgres.js throws: its own errors carry the failed query as a non-enumerable `query`. */
const fromDriver = <E extends Error>(e: E): E => Object.defineProperty(e, "query", { value: "select 1", enumerable: false });
const wrapped = (cause: Error) => new DrizzleQueryError("select 1", [], cause);
const withCode = (message: string, code: string, extra: object = {}) => Object.assign(new Error(message), { code, ...extra });
// postgres.js builds it from the server's ErrorResponse fields (its typings say a message only).
const serverError = (code: string, message: string) => fromDriver(new postgres.PostgresError({ code, message, severity: "FATAL" } as unknown as string));

/** postgres.js at a port nobody listens on: every query is refused, as while Postgres is down. */
function refusingClient() {
  const gone = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = gone.port;
  gone.stop(true);
  return postgres(`postgres://shelf@127.0.0.1:${port}/shelf`, { max: 2, connect_timeout: 5, onnotice: () => {}, backoff: () => 0 });
}

/** A real query of the real driver at a port nobody listens on: what drizzle throws while Postgres is down. */
async function refusedQuery(): Promise<unknown> {
  const client = refusingClient();
  try {
    await drizzle({ client }).execute(sql`select 1`);
    throw new Error("a query at a closed port succeeded");
  } catch (e) {
    return e;
  } finally {
    await client.end({ timeout: 1 });
  }
}

/** The seconds docs/decisions/general.md promises. */
const DATABASE_RETRY_AFTER_S = 5;
const request = () => new Request("http://shelf.test/v1/kbs", { method: "POST" });

describe("the database away: 503 DEPENDENCY_UNAVAILABLE with Retry-After", () => {
  const unavailable: [string, () => unknown | Promise<unknown>][] = [
    ["a real refused connection, as drizzle wraps it", refusedQuery],
    [
      "the server hung up mid-query (postgres.js CONNECTION_CLOSED)",
      () => wrapped(fromDriver(withCode("write CONNECTION_CLOSED db:5432", "CONNECTION_CLOSED"))),
    ],
    ["the pool was ended (CONNECTION_ENDED)", () => wrapped(fromDriver(withCode("write CONNECTION_ENDED db:5432", "CONNECTION_ENDED")))],
    ["the connection was destroyed (CONNECTION_DESTROYED)", () => wrapped(fromDriver(withCode("write CONNECTION_DESTROYED db:5432", "CONNECTION_DESTROYED")))],
    ["connecting timed out, on a transaction's BEGIN (unwrapped)", () => fromDriver(withCode("write CONNECT_TIMEOUT db:5432", "CONNECT_TIMEOUT"))],
    ["a reset socket under a query", () => wrapped(fromDriver(withCode("read ECONNRESET", "ECONNRESET", { syscall: "read" })))],
    ["an immediate shutdown ended the session (57P01)", () => wrapped(serverError("57P01", "terminating connection due to administrator command"))],
    ["a crashed server (57P02)", () => wrapped(serverError("57P02", "terminating connection because of crash of another server process"))],
    ["a server still starting (57P03)", () => fromDriver(serverError("57P03", "the database system is starting up"))],
    ["a connection exception (class 08)", () => wrapped(serverError("08006", "connection failure"))],
  ];

  for (const [name, make] of unavailable) {
    test(`${name}: 503, Retry-After, one warn line without a stack`, async () => {
      const log = capturingLog();
      const a = errorAnswer(await make(), "UNKNOWN", request(), "req-1", log);
      expect(a.status).toBe(503);
      expect(a.headers).toEqual({ "retry-after": String(DATABASE_RETRY_AFTER_S) });
      expect(a.body).toEqual({
        success: false,
        error: expect.any(String),
        code: "DEPENDENCY_UNAVAILABLE",
        meta: { dependency: "database", retryAfter: DATABASE_RETRY_AFTER_S },
      });
      // The driver's message names the server's address: never in the answer.
      expect(JSON.stringify(a.body)).not.toMatch(/127\.0\.0\.1|db:5432|select/);
      expect(log.lines).toEqual([
        { level: "warn", msg: "database unavailable", fields: expect.objectContaining({ requestId: "req-1", method: "POST", url: "/v1/kbs" }) },
      ]);
      expect(log.lines[0]!.fields).not.toHaveProperty("err");
      expect(typeof log.lines[0]!.fields!.code).toBe("string");
    });
  }

  test("what the database says about the query itself is not an outage: still 500 INTERNAL, logged as an error", async () => {
    const notOutages = [
      wrapped(serverError("23505", "duplicate key value violates unique constraint")),
      wrapped(serverError("57014", "canceling statement due to statement timeout")),
      // A refused connection that is not the driver's (a webhook, the kv): not the database.
      withCode("connect ECONNREFUSED 127.0.0.1:6379", "ECONNREFUSED"),
      new Error("boom"),
    ];
    for (const error of notOutages) {
      const log = capturingLog();
      const a = errorAnswer(error, "UNKNOWN", request(), "req-2", log);
      expect({ status: a.status, code: a.body.code }).toEqual({ status: 500, code: "INTERNAL" });
      expect(log.lines.map((l) => [l.level, l.msg])).toEqual([["error", "unhandled error"]]);
    }
  });

  test("through onError: the route's answer is the 503 envelope with Retry-After and x-request-id", async () => {
    const log = capturingLog();
    const cause = await refusedQuery();
    const app = new Elysia().use(httpCore(log)).get("/read", () => {
      throw cause;
    });
    const res = await app.handle(new Request("http://shelf.test/read", { headers: { "x-request-id": "outage-1" } }));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(String(DATABASE_RETRY_AFTER_S));
    expect(res.headers.get("x-request-id")).toBe("outage-1");
    expect(((await res.json()) as { code: string }).code).toBe("DEPENDENCY_UNAVAILABLE");
    expect(log.lines.map((l) => [l.level, l.msg, l.fields?.code])).toEqual([["warn", "database unavailable", "ECONNREFUSED"]]);
  });
});

describe("every door while the database is away", async () => {
  // The whole app, its database refusing every connection (the kv and the store still answer).
  const shared = await testContext();
  const client = refusingClient();
  const log = capturingLog();
  const deps = { ...shared.deps, log, db: drizzle({ client, schema }) as unknown as Db, config: { ...shared.deps.config, TRUST_PROXY: true } };
  const services = createServices(deps);
  const app = createApp(services);
  afterAll(async () => {
    await services.close();
    await client.end({ timeout: 1 });
  });
  const user = await makeUser(); // made while the shared app's database answers

  test("an API route and the media edge: the envelope, 503, Retry-After; one warn line each, nothing at error", async () => {
    log.lines.length = 0;
    for (const path of ["/v1/user/me", "/media/AAAAAAAAAAA.webp"]) {
      const res = await call("GET", path, { app, token: user.jwt });
      expect([path, res.status, res.headers.get("retry-after")]).toEqual([path, 503, "5"]);
      expect(((await res.json()) as { code: string }).code).toBe("DEPENDENCY_UNAVAILABLE");
    }
    // Beside each request's own access line (at info, test/ops/logs.test.ts).
    const told = log.lines.filter((l) => l.msg !== "request");
    expect(told.map((l) => [l.level, l.msg, l.fields?.url])).toEqual([
      ["warn", "database unavailable", "/v1/user/me"],
      ["warn", "database unavailable", "/media/AAAAAAAAAAA.webp"],
    ]);
  });

  test("OAuth's token endpoint says it in RFC 6749's form: temporarily_unavailable, error_code DEPENDENCY_UNAVAILABLE", async () => {
    const body = new URLSearchParams({ grant_type: "refresh_token", client_id: "shelf-sync", refresh_token: `ort_${"a".repeat(43)}` });
    const res = await call("POST", "/oauth/token", { app, body });
    expect([res.status, res.headers.get("retry-after"), res.headers.get("cache-control")]).toEqual([503, "5", "no-store"]);
    expect(await res.json()).toEqual({ error: "temporarily_unavailable", error_description: expect.any(String), error_code: "DEPENDENCY_UNAVAILABLE" });
  });

  test("the device page says it on a page: 503 with Retry-After", async () => {
    const page = pageClient(app, { ip: "10.9.8.7" });
    const res = await page.signIn("/device", user.email, user.password);
    expect([res.status, res.headers.get("retry-after")]).toEqual([503, "5"]);
    expect(res.html).toContain("the database is unavailable");
  });
});
