// /v1/kbs: slugs, the plan's KB count, the one default, list orders and pages, updates,
// and deletes that give back everything the KB's documents held.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { newId } from "../../src/infra/ids.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, type TestUser } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { newKb, pushed, upsert } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const usage = async (user: TestUser) => (await callJson("GET", "/v1/user/me/usage", { token: (await makeKey(user, ["usage.read"])).key })).body.data;
const createFor = async (owner: TestUser) => (await newKb(owner.jwt, { name: "Keep" })).id;
async function expectUntouched(owner: TestUser, id: string) {
  const res = await callJson("GET", `/v1/kbs/${id}`, { token: owner.jwt });
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({ id, name: "Keep" });
}

describe("POST /v1/kbs", () => {
  test("the slug is derived from the name (lower case, spaces to -) or given; it is answered with the KbItem", async () => {
    const { key } = await makeClient();
    const res = await callJson("POST", "/v1/kbs", { token: key, json: { name: "  My Work  Notes ", description: "work" } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: "  My Work  Notes ", slug: "my-work-notes", description: "work", docCount: 0, sizeBytes: 0, isDefault: false });
    expect(res.body.data.id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    const given = await callJson("POST", "/v1/kbs", { token: key, json: { name: "笔记", slug: "notes-cn" } });
    expect(given.status).toBe(201);
    expect(given.body.data.slug).toBe("notes-cn");
  });

  test("a non-ASCII name without a slug, a name no slug derives from, or a bad slug is 422 at body.slug", async () => {
    const { key } = await makeClient();
    for (const json of [{ name: "笔记" }, { name: "Café" }, { name: "a!" }, { name: "x" }, { name: "ok", slug: "-no" }, { name: "ok", slug: "No" }]) {
      const res = await callJson("POST", "/v1/kbs", { token: key, json });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.meta.path).toBe("body.slug");
    }
    for (const json of [{ name: "" }, { name: "n".repeat(121) }, { name: "ok", description: "d".repeat(501) }, { name: "a\u202eb", slug: "ab" }]) {
      expect((await callJson("POST", "/v1/kbs", { token: key, json })).status).toBe(422);
    }
    expect((await callJson("GET", "/v1/kbs", { token: key })).body.data.items).toEqual([]);
  });

  test("a slug the user already has is 409 KB_SLUG_TAKEN; another user may have it", async () => {
    const { key } = await makeClient();
    await newKb(key, { name: "Notes" });
    const again = await callJson("POST", "/v1/kbs", { token: key, json: { name: "Other", slug: "notes" } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("KB_SLUG_TAKEN");
    expect(again.body.meta.slug).toBe("notes");
    const other = await makeClient();
    expect((await callJson("POST", "/v1/kbs", { token: other.key, json: { name: "Notes" } })).status).toBe(201);
  });

  test("the plan's KB count (5 on trial) is 403 KB_LIMIT_REACHED, also for creates at the same moment", async () => {
    const { key } = await makeClient();
    const results = await Promise.all(Array.from({ length: 7 }, (_, i) => callJson("POST", "/v1/kbs", { token: key, json: { name: `kb ${i}` } })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = results.filter((r) => r.status === 403);
    expect(refused).toHaveLength(2);
    expect(refused[0]!.body).toMatchObject({ code: "KB_LIMIT_REACHED", meta: { limit: 5, used: 5 } });
    const { user } = await makeClient({ plan: "pro" });
    for (let i = 0; i < 6; i++) await newKb(user.jwt);
  });

  test("at most one default KB: a new default or PATCH isDefault true clears the others", async () => {
    const { key } = await makeClient();
    const a = await newKb(key, { isDefault: true });
    const b = await newKb(key, { isDefault: true });
    const get = async (id: string) => (await callJson("GET", `/v1/kbs/${id}`, { token: key })).body.data;
    expect((await get(a.id)).isDefault).toBe(false);
    expect((await get(b.id)).isDefault).toBe(true);
    const patched = await callJson("PATCH", `/v1/kbs/${a.id}`, { token: key, json: { isDefault: true } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.isDefault).toBe(true);
    expect((await get(b.id)).isDefault).toBe(false);
  });

  test("tenancy: 401, 403 without kb.write", async () => {
    await expectTenantIsolation({ method: "POST", path: () => "/v1/kbs", scope: "kb.write", request: () => ({ json: { name: "x y" } }) });
  });
});

describe("GET /v1/kbs", () => {
  test("most recently changed first (a document push moves a KB up), or by name; keyset pages", async () => {
    const { deps } = await testContext();
    const { key } = await makeClient({ plan: "pro" });
    const names = ["delta", "alpha", "charlie", "bravo", "echo"];
    const made = [];
    for (const name of names) {
      made.push(await newKb(key, { name }));
      deps.clock.advance(2);
    }
    await pushed(key, made[1]!.id, [upsert("a.md", "moves alpha up")]);
    const walk = async (sort: string) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const q: string = `sort=${sort}&limit=2${cursor ? `&cursor=${cursor}` : ""}`;
        const res = await callJson("GET", `/v1/kbs?${q}`, { token: key });
        expect(res.status).toBe(200);
        expect(res.body.data.items.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.data.items.map((k: { name: string }) => k.name));
        cursor = res.body.data.nextCursor;
      } while (cursor);
      return seen;
    };
    expect(await walk("updated_at")).toEqual(["alpha", "echo", "bravo", "charlie", "delta"]);
    expect(await walk("name")).toEqual(["alpha", "bravo", "charlie", "delta", "echo"]);
    expect((await callJson("GET", "/v1/kbs?cursor=nope", { token: key })).body.code).toBe("INVALID_CURSOR");
    for (const q of ["limit=0", "limit=51", "sort=size"]) expect((await callJson("GET", `/v1/kbs?${q}`, { token: key })).status).toBe(422);
  });

  test("tenancy: 401, 403 without kb.read", async () => {
    await expectTenantIsolation({ method: "GET", path: () => "/v1/kbs", scope: "kb.read" });
  });
});

describe("GET, PATCH /v1/kbs/:id", () => {
  test("PATCH changes name, description and the default; the slug never changes (the same slug is accepted)", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key, { name: "Old name" });
    const res = await callJson("PATCH", `/v1/kbs/${kb.id}`, { token: key, json: { name: "New", description: null, slug: kb.slug } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: kb.id, name: "New", slug: "old-name", description: null });
    expect(res.body.data.updatedAt > kb.updatedAt).toBe(true);
    const slug = await callJson("PATCH", `/v1/kbs/${kb.id}`, { token: key, json: { slug: "other" } });
    expect(slug.status).toBe(422);
    expect(slug.body.meta.path).toBe("body.slug");
    expect((await callJson("PATCH", `/v1/kbs/${kb.id}`, { token: key, json: {} })).status).toBe(422);
    expect((await callJson("GET", `/v1/kbs/${kb.id}`, { token: key })).body.data).toMatchObject({ name: "New", slug: "old-name" });
    expect((await callJson("GET", `/v1/kbs/${newId()}`, { token: key })).status).toBe(404);
  });

  test("tenancy of GET, PATCH and DELETE: 401, 403 without the scope, 404 for another user's KB, which stays", async () => {
    await expectTenantIsolation({ method: "GET", path: (id) => `/v1/kbs/${id}`, scope: "kb.read", create: createFor, untouched: expectUntouched });
    await expectTenantIsolation({
      method: "PATCH",
      path: (id) => `/v1/kbs/${id}`,
      scope: "kb.write",
      create: createFor,
      request: () => ({ json: { name: "Stolen" } }),
      untouched: expectUntouched,
    });
    await expectTenantIsolation({
      method: "DELETE",
      path: (id) => `/v1/kbs/${id}?cascade=true`,
      scope: "kb.write",
      create: createFor,
      untouched: expectUntouched,
    });
  });
});

describe("DELETE /v1/kbs/:id", () => {
  test("a KB with active documents is 409 KB_NOT_EMPTY without cascade; one whose documents are all deleted goes", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const { applied } = await pushed(key, kb.id, [upsert("a.md", "a")]);
    const refused = await callJson("DELETE", `/v1/kbs/${kb.id}`, { token: key });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "KB_NOT_EMPTY", meta: { docCount: 1 } });
    expect((await callJson("GET", `/v1/kbs/${kb.id}`, { token: key })).status).toBe(200);
    await pushed(key, kb.id, [{ op: "delete", relativePath: "a.md", baseUpdatedAt: applied[0]!.updatedAt }]);
    expect((await call("DELETE", `/v1/kbs/${kb.id}`, { token: key })).status).toBe(204);
    expect((await callJson("GET", `/v1/kbs/${kb.id}`, { token: key })).status).toBe(404);
  });

  test("with cascade it goes to the trash with its documents; purged, their history and objects go, and doc_count, storage and revision counters are given back", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient({ plan: "pro" });
    await callJson("PATCH", "/v1/user/me", { token: user.jwt, json: { docVersioningEnabled: true } });
    const keep = await newKb(key);
    await pushed(key, keep.id, [upsert("stays.md", "stays")]);
    const kb = await newKb(key);
    const big = "b".repeat(300 * 1024);
    const first = await pushed(key, kb.id, [upsert("a.md", "first"), upsert("big.md", big), upsert("gone.md", "gone")]);
    const [a, , gone] = first.applied;
    await pushed(key, kb.id, [upsert("a.md", "second", a!.updatedAt), { op: "delete", relativePath: "gone.md", baseUpdatedAt: gone!.updatedAt }]);
    const before = await usage(user);
    expect(before.doc.count.used).toBe(3);
    expect(before.docs.revisionCount).toBe(1);
    const objects = async () => (await Array.fromAsync(deps.storage.list(`docs/${user.id}/`))).length;
    expect(await objects()).toBe(1);

    expect((await call("DELETE", `/v1/kbs/${kb.id}?cascade=true`, { token: key })).status).toBe(204);
    // In the trash everything still counts; its purge gives it back.
    expect((await usage(user)).doc.count.used).toBe(3);
    expect((await call("DELETE", `/v1/trash/${kb.id}`, { token: user.jwt })).status).toBe(204);
    const after = await usage(user);
    expect(after.doc.count.used).toBe(1);
    expect(after.image.storage.used).toBe(before.image.storage.used - 6 - big.length);
    expect(after.docs).toMatchObject({ revisionCount: 0, revisionBytes: 0 });
    expect(await objects()).toBe(0);
    expect((await callJson("GET", `/v1/docs/${a!.id}`, { token: key })).status).toBe(404);
    expect((await callJson("GET", `/v1/kbs/${kb.id}`, { token: key })).status).toBe(404);
    expect((await callJson("GET", `/v1/kbs/${keep.id}`, { token: key })).body.data).toMatchObject({ docCount: 1, sizeBytes: 5 });
  });
});
