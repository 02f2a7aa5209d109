import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { type Scope, SCOPE_DESCRIPTIONS } from "../../src/core/scopes.ts";
import { sql } from "drizzle-orm";
import { rowsOf } from "../../src/infra/db/index.ts";
import { SCOPES } from "../../src/core/scopes.ts";
import { DEFAULT_KEY_SCOPES } from "../../src/modules/identity/public.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeKey, makeUser } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

describe("POST /v1/api-keys", () => {
  test("creates a key shown once, with the default scopes", async () => {
    const u = await makeUser();
    const res = await callJson("POST", "/v1/api-keys", { token: u.jwt, json: { name: "laptop sync" } });
    expect(res.status).toBe(201);
    const k = res.body.data;
    expect(k.key).toMatch(/^sk_live_[A-Za-z0-9_-]{32}$/);
    expect(k.key).toHaveLength(40);
    expect(k.last4).toBe(k.key.slice(-4));
    expect(k.id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(k.name).toBe("laptop sync");
    expect(k.scopes).toEqual([...DEFAULT_KEY_SCOPES]);
    expect(k.scopes).not.toContain("media.delete");
    expect(k.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect((await call("GET", "/v1/user/me", { token: k.key })).status).toBe(200);
  });

  test("GET /v1/api-keys/scopes names every scope, in the consent page's words, and which a new key gets unless told", async () => {
    const u = await makeUser();
    const res = await callJson("GET", "/v1/api-keys/scopes", { token: u.jwt });
    expect(res.status).toBe(200);
    const scopes = res.body.data.scopes as { name: string; description: string; default: boolean }[];
    expect(scopes.map((s) => s.name)).toEqual([...SCOPES]);
    expect(scopes.filter((s) => !s.default).map((s) => s.name)).toEqual(["media.delete"]);
    for (const s of scopes) expect(s.description).toBe(SCOPE_DESCRIPTIONS[s.name as Scope]);
    // A new key made without scopes gets exactly the defaults.
    const made = await callJson("POST", "/v1/api-keys", { token: u.jwt, json: { name: "defaults" } });
    expect(made.body.data.scopes).toEqual(scopes.filter((s) => s.default).map((s) => s.name));
    expect((await callJson("GET", "/v1/api-keys/scopes", {})).status).toBe(401);
  });

  test("legacy tiers expand to scopes", async () => {
    const u = await makeUser();
    const scopesOf = async (tier: string) => (await callJson("POST", "/v1/api-keys", { token: u.jwt, json: { name: tier, scopes: [tier] } })).body.data.scopes;
    expect(await scopesOf("read")).toEqual(["media.read", "kb.read", "account.read", "usage.read"]);
    expect(await scopesOf("read_write")).toEqual(["media.read", "media.write", "kb.read", "kb.write", "account.read", "usage.read"]);
    expect(await scopesOf("read_write_delete")).toEqual([...SCOPES]);
  });

  test("unknown scope names are 422", async () => {
    const u = await makeUser();
    const res = await callJson("POST", "/v1/api-keys", { token: u.jwt, json: { name: "x", scopes: ["media.read", "root.everything"] } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("VALIDATION_ERROR");
    expect(res.body.error).toContain("root.everything");
  });

  test("a key cannot create keys (403), and anonymous calls are 401", async () => {
    const u = await makeUser();
    const { key } = await makeKey(u, [...SCOPES]);
    const res = await callJson("POST", "/v1/api-keys", { token: key, json: { name: "child" } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("FORBIDDEN");
    expect((await call("POST", "/v1/api-keys", { json: { name: "x" } })).status).toBe(401);
  });

  test("the plan's key count is enforced", async () => {
    const { deps } = await testContext();
    const u = await makeUser();
    for (let i = 0; i < deps.plans.trial.apiKeyCount; i++) await makeKey(u);
    const res = await callJson("POST", "/v1/api-keys", { token: u.jwt, json: { name: "one too many" } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("QUOTA_EXCEEDED");
    expect(res.body.meta).toMatchObject({ type: "api_keys", limit: deps.plans.trial.apiKeyCount });
  });

  test("concurrent creates cannot pass the plan's key count together", async () => {
    const { deps } = await testContext();
    const u = await makeUser();
    const limit = deps.plans.trial.apiKeyCount;
    const results = await Promise.all(Array.from({ length: limit * 3 }, (_, i) => callJson("POST", "/v1/api-keys", { token: u.jwt, json: { name: `k${i}` } })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(limit);
    expect(statuses.filter((s) => s === 403)).toHaveLength(limit * 2);
    for (const r of results.filter((r) => r.status === 403)) expect(r.body.code).toBe("QUOTA_EXCEEDED");
    const [row] = rowsOf<{ n: number }>(await deps.db.execute(sql`select count(*)::int as n from api_keys where user_id = ${u.id} and revoked_at is null`));
    expect(row!.n).toBe(limit);
  });
});

describe("GET /v1/api-keys", () => {
  test("lists keys without the key, newest first, with lastUsedAt", async () => {
    const u = await makeUser();
    const { deps } = await testContext();
    const a = await makeKey(u, undefined, "a");
    deps.clock.advance(5); // distinct creation instants make "newest first" unambiguous
    const b = await makeKey(u, undefined, "b");
    await call("GET", "/v1/user/me", { token: a.key });
    const res = await call("GET", "/v1/api-keys", { token: u.jwt });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).not.toContain(a.key);
    expect(text).not.toContain(b.key);
    const body = JSON.parse(text);
    expect(body.data.items.map((k: any) => k.name)).toEqual(["b", "a"]);
    expect(Object.keys(body.data.items[0]).sort()).toEqual(["createdAt", "id", "last4", "lastUsedAt", "name", "scopes"]);
    expect(body.data.items[1].lastUsedAt).toMatch(/Z$/);
    expect(body.data.items[0].lastUsedAt).toBeNull();
    expect(body.data.nextCursor).toBeNull();
  });

  test("limit is 1 to 50 (422 otherwise) and a page holds 20 keys by default", async () => {
    const u = await makeUser({ plan: "pro_plus" });
    for (const limit of ["51", "0", "-1", "abc"]) {
      const res = await callJson("GET", `/v1/api-keys?limit=${limit}`, { token: u.jwt });
      expect({ limit, status: res.status }).toEqual({ limit, status: 422 });
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
    for (let i = 0; i < 21; i++) await makeKey(u, undefined, `k${i}`);
    const first = await callJson("GET", "/v1/api-keys", { token: u.jwt });
    expect(first.status).toBe(200);
    expect(first.body.data.items).toHaveLength(20);
    expect(first.body.data.nextCursor).toBeString();
    const rest = await callJson("GET", `/v1/api-keys?cursor=${first.body.data.nextCursor}`, { token: u.jwt });
    expect(rest.body.data.items).toHaveLength(1);
    expect(rest.body.data.nextCursor).toBeNull();
    expect((await callJson("GET", "/v1/api-keys?limit=50", { token: u.jwt })).body.data.items).toHaveLength(21);
  });

  test("pages walk every key", async () => {
    const u = await makeUser();
    const { deps } = await testContext();
    for (const n of ["1", "2", "3"]) {
      await makeKey(u, undefined, n);
      deps.clock.advance(5);
    }
    const seen: string[] = [];
    let cursor = "";
    for (let i = 0; i < 5; i++) {
      const res = await callJson("GET", `/v1/api-keys?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { token: u.jwt });
      seen.push(...res.body.data.items.map((k: any) => k.name));
      if (!res.body.data.nextCursor) break;
      cursor = res.body.data.nextCursor;
    }
    expect(seen).toEqual(["3", "2", "1"]);
    expect((await callJson("GET", "/v1/api-keys?cursor=garbage!", { token: u.jwt })).body.code).toBe("INVALID_CURSOR");
  });

  test("last use reaches the database without a write per request", async () => {
    const { services, deps } = await testContext();
    const u = await makeUser();
    const k = await makeKey(u);
    for (let i = 0; i < 5; i++) await call("GET", "/v1/user/me", { token: k.key });
    const before = await deps.db.query.apiKeys.findFirst({ where: (t, { eq }) => eq(t.id, k.id) });
    expect(before!.lastUsedAt).toBeNull();
    await services.identity.flushLastUsed();
    const after = await deps.db.query.apiKeys.findFirst({ where: (t, { eq }) => eq(t.id, k.id) });
    expect(after!.lastUsedAt).toBeInstanceOf(Date);
  });
});

describe("DELETE /v1/api-keys/:id", () => {
  test("revokes: the key is refused with API_KEY_REVOKED and cannot be revoked again", async () => {
    const u = await makeUser();
    const k = await makeKey(u);
    expect((await call("GET", "/v1/user/me", { token: k.key })).status).toBe(200); // now cached
    expect((await call("DELETE", `/v1/api-keys/${k.id}`, { token: u.jwt })).status).toBe(204);
    const res = await callJson("GET", "/v1/user/me", { token: k.key });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("API_KEY_REVOKED");
    expect((await callJson("DELETE", `/v1/api-keys/${k.id}`, { token: u.jwt })).status).toBe(404);
    const list = await callJson("GET", "/v1/api-keys", { token: u.jwt });
    expect(list.body.data.items.map((i: any) => i.id)).not.toContain(k.id);
  });

  test("tenant isolation", async () => {
    await expectTenantIsolation({
      method: "DELETE",
      path: (id) => `/v1/api-keys/${id}`,
      scope: "account.read",
      create: async (owner) => (await makeKey(owner)).id,
    });
  });
});

test("a database dump holds no API key in plain text", async () => {
  const { deps } = await testContext();
  const u = await makeUser();
  const { key } = await makeKey(u);
  await call("GET", "/v1/user/me", { token: key });
  const tables = rowsOf<{ table_name: string }>(
    await deps.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`),
  );
  expect(tables.length).toBeGreaterThan(3);
  for (const { table_name } of tables) {
    const rows = rowsOf<{ j: unknown }>(await deps.db.execute(sql`select row_to_json(t)::text as j from ${sql.identifier(table_name)} t`));
    for (const r of rows) expect(String(r.j)).not.toContain(key.slice(8));
  }
});
