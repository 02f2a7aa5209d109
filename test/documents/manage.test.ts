// GET /v1/docs (filters, sorts, keyset pages), GET one, GET raw (who may read, caching),
// PATCH, DELETE one and many, POST /v1/docs/raw:batch, and the cross-tenant checks.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { SCOPES } from "../../src/core/scopes.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, makeUser, type TestUser } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { getKb } from "../../src/modules/library/public.ts";
import { makeKb, postDoc, uploadedDoc, usageOf } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const createFor = async (owner: TestUser) => (await uploadedDoc(owner.jwt, { title: "Keep", tags: ["keep"] })).id;
async function expectUntouched(owner: TestUser, id: string) {
  const res = await callJson("GET", `/v1/docs/${id}`, { token: owner.jwt });
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({ id, title: "Keep", tags: ["keep"], isPublic: false });
}

async function walk(token: string, query: string, limit = 2): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = "";
  while (cursor !== null) {
    const res: { status: number; body: any } = await callJson("GET", `/v1/docs?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ""}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.data.items.length).toBeLessThanOrEqual(limit);
    ids.push(...res.body.data.items.map((i: { id: string }) => i.id));
    cursor = res.body.data.nextCursor;
  }
  return ids;
}

describe("GET /v1/docs", () => {
  test("four sorts walk every page in order; q, tag (comma = OR), isPublic and kbId filter", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const kbId = await makeKb(user);
    const made: { id: string; title: string }[] = [];
    const specs = [
      { title: "Alpha 100%", tags: ["red"], isPublic: true },
      { title: "beta", tags: ["blue"] },
      { title: "Gamma_alpha", tags: ["red", "green"] },
      { title: "delta", tags: [], kbId, relativePath: "d.md" },
      { title: "epsilon", tags: ["blue"], isPublic: true },
    ];
    for (const s of specs) {
      made.push({ id: (await uploadedDoc(key, s)).id, title: s.title });
      deps.clock.advance(1);
    }
    const ids = made.map((m) => m.id) as [string, string, string, string, string];
    expect(await walk(key, "")).toEqual([...ids].reverse());
    expect(await walk(key, "&sort=created_asc")).toEqual(ids);
    // Touch the first: it becomes the most recently updated.
    await callJson("PATCH", `/v1/docs/${ids[0]}`, { token: key, json: { tags: ["red", "x"] } });
    expect(await walk(key, "&sort=updated_desc")).toEqual([ids[0], ...ids.slice(1).reverse()]);
    expect(await walk(key, "&sort=updated_asc")).toEqual([...ids.slice(1), ids[0]]);

    expect(await walk(key, "&q=ALPHA")).toEqual([ids[2], ids[0]]);
    expect(await walk(key, "&q=100%25")).toEqual([ids[0]]);
    expect(await walk(key, "&q=a_a")).toEqual([ids[2]]);
    expect(await walk(key, "&tag=blue")).toEqual([ids[4], ids[1]]);
    expect(await walk(key, "&tag=green,blue")).toEqual([ids[4], ids[2], ids[1]]);
    expect(await walk(key, "&isPublic=true")).toEqual([ids[4], ids[0]]);
    expect(await walk(key, "&isPublic=false&tag=red")).toEqual([ids[2]]);
    expect(await walk(key, `&kbId=${kbId}`)).toEqual([ids[3]]);
  });

  test("limit 1 to 50 (default 20); a bad sort or cursor is refused; other users' documents are not listed", async () => {
    const { key } = await makeClient();
    for (const [q, status, code] of [
      ["limit=0", 422, "VALIDATION_ERROR"],
      ["limit=51", 422, "VALIDATION_ERROR"],
      ["sort=name", 422, "VALIDATION_ERROR"],
      ["cursor=nope!", 400, "INVALID_CURSOR"],
      ["cursor=WzFd", 400, "INVALID_CURSOR"],
    ] as const) {
      const res = await callJson("GET", `/v1/docs?${q}`, { token: key });
      expect(res.status).toBe(status);
      expect(res.body.code).toBe(code);
    }
    const owner = await makeUser();
    await createFor(owner);
    expect((await callJson("GET", "/v1/docs", { token: key })).body.data).toEqual({ items: [], nextCursor: null });
  });

  test("tenancy: 401, 403 without kb.read", async () => {
    await expectTenantIsolation({ method: "GET", path: () => "/v1/docs", scope: "kb.read" });
  });
});

describe("GET, PATCH, DELETE /v1/docs/:id", () => {
  test("tenancy of GET, PATCH and DELETE: 401, 403 without the scope, 404 for another user's document, which stays", async () => {
    await expectTenantIsolation({ method: "GET", path: (id) => `/v1/docs/${id}`, scope: "kb.read", create: createFor, untouched: expectUntouched });
    await expectTenantIsolation({
      method: "PATCH",
      path: (id) => `/v1/docs/${id}`,
      scope: "kb.write",
      create: createFor,
      request: () => ({ json: { title: "Stolen", isPublic: true } }),
      untouched: expectUntouched,
    });
    await expectTenantIsolation({ method: "DELETE", path: (id) => `/v1/docs/${id}`, scope: "kb.write", create: createFor, untouched: expectUntouched });
  });

  test("PATCH changes title, visibility and tags only; an empty or unknown body is 422", async () => {
    const { key } = await makeClient();
    const doc = await uploadedDoc(key);
    const res = await callJson("PATCH", `/v1/docs/${doc.id}`, { token: key, json: { title: "New", isPublic: true, tags: ["a", "b"] } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: doc.id, title: "New", isPublic: true, tags: ["a", "b"], sourceHash: doc.sourceHash });
    for (const json of [{}, { tags: ["a", "a"] }, { title: "a\u202eb" }, { isPublic: "yes" }]) {
      expect((await callJson("PATCH", `/v1/docs/${doc.id}`, { token: key, json })).status).toBe(422);
    }
  });

  test("DELETE: the document is gone for every route; its purge gives back doc_count and storage", async () => {
    const { user, key } = await makeClient();
    const { key: usageKey } = await makeKey(user, ["usage.read"]);
    const doc = await uploadedDoc(key, { isPublic: true });
    expect((await usageOf(usageKey)).doc.count.used).toBe(1);
    expect((await call("DELETE", `/v1/docs/${doc.id}`, { token: key })).status).toBe(204);
    expect((await usageOf(usageKey)).doc.count.used).toBe(1);
    expect((await call("DELETE", `/v1/trash/${doc.id}`, { token: user.jwt })).status).toBe(204);
    const usage = await usageOf(usageKey);
    expect(usage.doc.count.used).toBe(0);
    expect(usage.image.storage.used).toBe(0);
    expect((await callJson("GET", `/v1/docs/${doc.id}`, { token: key })).status).toBe(404);
    expect((await call("GET", `/v1/docs/${doc.id}/raw`)).status).toBe(401);
    expect((await callJson("DELETE", `/v1/docs/${doc.id}`, { token: key })).status).toBe(404);
  });

  test("DELETE /v1/docs: up to 50 ids, a result per id in input order; others' and unknown ids are NOT_FOUND and stay", async () => {
    const { user, key } = await makeClient();
    const stranger = await makeUser();
    const theirs = await createFor(stranger);
    const a = await uploadedDoc(key);
    const b = await uploadedDoc(key);
    const res = await callJson("DELETE", "/v1/docs", { token: key, json: { ids: [b.id, theirs, "x".repeat(21), a.id] } });
    expect(res.status).toBe(200);
    expect(res.body.data.results).toEqual([
      { id: b.id, deleted: true },
      { id: theirs, deleted: false, reason: "NOT_FOUND" },
      { id: "x".repeat(21), deleted: false, reason: "NOT_FOUND" },
      { id: a.id, deleted: true },
    ]);
    await expectUntouched(stranger, theirs);
    // Both in the trash, still counted; emptied, given back.
    expect((await usageOf((await makeKey(user, ["usage.read"])).key)).doc.count.used).toBe(2);
    expect((await callJson("DELETE", "/v1/trash", { token: user.jwt })).body.data).toEqual({ purged: 2 });
    expect((await usageOf((await makeKey(user, ["usage.read"])).key)).doc.count.used).toBe(0);
    for (const ids of [[], Array.from({ length: 51 }, () => a.id), ["short"]]) {
      expect((await callJson("DELETE", "/v1/docs", { token: key, json: { ids } })).status).toBe(422);
    }
  });
});

describe("GET /v1/docs/:id/raw", () => {
  test("public: anyone, Cache-Control public max-age=300, ETag and 304; text/markdown; nosniff", async () => {
    const { key } = await makeClient();
    const content = "# Public\n\n<script>alert(1)</script>\n";
    const doc = await uploadedDoc(key, { content, isPublic: true });
    const res = await call("GET", `/v1/docs/${doc.id}/raw`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(content);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("ratelimit-limit")).toBeNull();
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const etag = res.headers.get("etag")!;
    expect(etag).toBe(`"${doc.sourceHash}"`);
    const again = await call("GET", `/v1/docs/${doc.id}/raw`, { headers: { "if-none-match": `W/${etag}` } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    // Another user's credential reads a public document too.
    expect((await call("GET", `/v1/docs/${doc.id}/raw`, { token: (await makeClient()).key })).status).toBe(200);
  });

  test("private: owner only, no-store; anonymous is 401 whether or not it exists, another user 404", async () => {
    const { user, key } = await makeClient();
    const doc = await uploadedDoc(key, { content: "secret\n" });
    const res = await call("GET", `/v1/docs/${doc.id}/raw`, { token: key });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("etag")).toBe(`"${doc.sourceHash}"`);
    // A read with a credential counts against the read tier; an anonymous one has no user to count.
    expect(res.headers.get("ratelimit-limit")).toBe("600");
    expect((await call("GET", `/v1/docs/${doc.id}/raw`, { token: key, headers: { "if-none-match": `"${doc.sourceHash}"` } })).status).toBe(304);

    const anonymous = await callJson("GET", `/v1/docs/${doc.id}/raw`);
    const absent = await callJson("GET", `/v1/docs/${"y".repeat(21)}/raw`);
    expect([anonymous.status, absent.status]).toEqual([401, 401]);
    expect(anonymous.body).toEqual(absent.body);
    expect(anonymous.headers.get("x-content-type-options")).toBe("nosniff");
    const stranger = await makeClient();
    const theirs = await callJson("GET", `/v1/docs/${doc.id}/raw`, { token: stranger.key });
    expect(theirs.status).toBe(404);
    expect(theirs.headers.get("cache-control")).toBe("no-store");
    // The owner's key without kb.read cannot read it.
    const { key: narrow } = await makeKey(
      user,
      SCOPES.filter((s) => s !== "kb.read"),
    );
    expect((await call("GET", `/v1/docs/${doc.id}/raw`, { token: narrow })).status).toBe(404);
    expect((await call("GET", `/v1/docs/${doc.id}/raw`, { token: "sk_live_nope" })).status).toBe(401);
  });
});

describe("POST /v1/docs/raw:batch", () => {
  test("own and public documents in input order; another user's private one is NOT_FOUND like an absent one", async () => {
    const { key } = await makeClient();
    const other = await makeClient();
    const mine = await uploadedDoc(key, { content: "mine\n" });
    const theirsPublic = await uploadedDoc(other.key, { content: "public\n", isPublic: true });
    const theirsPrivate = await uploadedDoc(other.key, { content: "private\n" });
    const absent = "z".repeat(21);
    const res = await callJson("POST", "/v1/docs/raw:batch", { token: key, json: { ids: [theirsPrivate.id, mine.id, absent, theirsPublic.id] } });
    expect(res.status).toBe(200);
    expect(res.body.data.docs).toEqual([
      { id: mine.id, content: "mine\n", updatedAt: mine.updatedAt, sourceHash: mine.sourceHash },
      { id: theirsPublic.id, content: "public\n", updatedAt: theirsPublic.updatedAt, sourceHash: theirsPublic.sourceHash },
    ]);
    expect(res.body.data.failed).toEqual([
      { id: theirsPrivate.id, reason: "NOT_FOUND" },
      { id: absent, reason: "NOT_FOUND" },
    ]);
    const anonymous = await callJson("POST", "/v1/docs/raw:batch", { json: { ids: [mine.id, theirsPublic.id] } });
    expect(anonymous.body.data.docs.map((d: { id: string }) => d.id)).toEqual([theirsPublic.id]);
    expect(anonymous.body.data.failed).toEqual([{ id: mine.id, reason: "NOT_FOUND" }]);
  });

  test("a malformed id (a path, empty, 300 characters, NUL, a number as text) is NOT_FOUND in failed[] in input order, like an unknown one; the good ids still come", async () => {
    const { key } = await makeClient();
    const mine = await uploadedDoc(key, { content: "mine\n", isPublic: false });
    const pub = await uploadedDoc(key, { content: "public\n", isPublic: true });
    const malformed = ["../x", "", "a".repeat(300), `${"a".repeat(10)}\u0000${"a".repeat(10)}`, "12345", "123456789012345678901", "\ud800", "%2e%2e"];
    const ids = [malformed[0]!, mine.id, ...malformed.slice(1, 4), pub.id, ...malformed.slice(4)];
    const withKey = await callJson("POST", "/v1/docs/raw:batch", { token: key, json: { ids } });
    expect(withKey.status).toBe(200);
    expect(withKey.body.data.docs.map((d: { id: string }) => d.id)).toEqual([mine.id, pub.id]);
    expect(withKey.body.data.failed).toEqual(malformed.map((id) => ({ id, reason: "NOT_FOUND" })));
    const anonymous = await callJson("POST", "/v1/docs/raw:batch", { json: { ids } });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data.docs.map((d: { id: string }) => d.id)).toEqual([pub.id]);
    expect(anonymous.body.data.failed).toEqual([malformed[0], mine.id, ...malformed.slice(1)].map((id) => ({ id, reason: "NOT_FOUND" })));
    // Only malformed ids: nothing to look up, all NOT_FOUND.
    const none = await callJson("POST", "/v1/docs/raw:batch", { token: key, json: { ids: ["", "../x"] } });
    expect(none.body.data).toEqual({
      docs: [],
      failed: [
        { id: "", reason: "NOT_FOUND" },
        { id: "../x", reason: "NOT_FOUND" },
      ],
    });
  });

  test("content the object store cannot give back: CONTENT_FETCH_FAILED in a batch, 502 STORAGE_ERROR from raw; the others still come", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const big = await uploadedDoc(key, { content: "y".repeat(300 * 1024) });
    const small = await uploadedDoc(key, { content: "small\n" });
    for await (const o of deps.storage.list(`docs/${user.id}/`)) await deps.storage.delete(o.key);
    const res = await callJson("POST", "/v1/docs/raw:batch", { token: key, json: { ids: [big.id, small.id] } });
    expect(res.body.data.docs.map((d: { id: string }) => d.id)).toEqual([small.id]);
    expect(res.body.data.failed).toEqual([{ id: big.id, reason: "CONTENT_FETCH_FAILED" }]);
    const raw = await callJson("GET", `/v1/docs/${big.id}/raw`, { token: key });
    expect(raw.status).toBe(502);
    expect(raw.body.code).toBe("STORAGE_ERROR");
    expect(raw.headers.get("cache-control")).toBe("no-store");
  });

  test("1 to 50 strings, else 422 for the whole batch (51, none, not an array, a non-string); a bad credential is 401", async () => {
    const { key } = await makeClient();
    const doc = await uploadedDoc(key);
    for (const json of [{ ids: [] }, { ids: Array.from({ length: 51 }, () => doc.id) }, { ids: doc.id }, { ids: [doc.id, 12345] }, {}]) {
      for (const token of [key, undefined]) {
        const res = await callJson("POST", "/v1/docs/raw:batch", { token, json });
        expect(res.status).toBe(422);
        expect(res.body.code).toBe("VALIDATION_ERROR");
      }
    }
    expect((await callJson("POST", "/v1/docs/raw:batch", { token: "sk_live_bad", json: { ids: [doc.id] } })).status).toBe(401);
    const elsewhere = await callJson("POST", "/v1/docs/raw:other", { token: key, json: { ids: [doc.id] } });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.meta.entity).toBe("route");
  });
});

describe("documents in a KB", () => {
  test("a re-upload at the same path replaces the content: 200, same id, nothing counted twice; NFC and NFD spellings are one path", async () => {
    const { user, key } = await makeClient();
    const kbId = await makeKb(user);
    const nfc = "notes/caf\u00e9.md";
    const nfd = "notes/cafe\u0301.md";
    const first = await postDoc(key, { filename: "café.md", content: "v1\n", kbId, relativePath: nfc });
    expect(first.status).toBe(201);
    const second = await postDoc(key, { filename: "café.md", content: "v2 longer\n", kbId, relativePath: nfd });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ id: first.body.data.id, duplicate: false });
    const item = (await callJson("GET", `/v1/docs/${first.body.data.id}`, { token: key })).body.data;
    expect(item.relativePath).toBe(nfc);
    const usage = await usageOf((await makeKey(user, ["usage.read"])).key);
    expect(usage.doc.count.used).toBe(1);
    expect(usage.image.storage.used).toBe(Buffer.byteLength("v2 longer\n"));
    const same = await postDoc(key, { filename: "café.md", content: "v2 longer\n", kbId, relativePath: nfc });
    expect(same.body.data).toMatchObject({ id: first.body.data.id, duplicate: true });
    // The same text at another path is another document (no de-duplication across paths).
    expect((await postDoc(key, { filename: "x.md", content: "v2 longer\n", kbId, relativePath: "other.md" })).status).toBe(201);
  });

  test("paths that break a rule are 422 at body.relativePath: ../x, a//b, /a, a\\b, ./a, a/, NUL, too long", async () => {
    const { user, key } = await makeClient();
    const kbId = await makeKb(user);
    for (const relativePath of ["../x", "a/../b", "a//b", "/a", "a\\b", "./a", "a/", "a\u0000b", "a\nb", `${"a/".repeat(512)}b`, `${"é".repeat(256)}.md`]) {
      const res = await postDoc(key, { filename: "a.md", content: "x", kbId, relativePath });
      expect(res.status).toBe(422);
      expect(res.body.meta.path).toBe("body.relativePath");
    }
    for (const relativePath of [".hidden/.note.md", "日本語/メモ 😀.md", `${"é".repeat(255)}`]) {
      expect((await postDoc(key, { filename: "a.md", content: relativePath, kbId, relativePath })).status).toBe(201);
    }
    expect((await postDoc(key, { filename: "a.md", content: "x", kbId })).body.meta.path).toBe("body.relativePath");
    expect((await postDoc(key, { filename: "a.md", content: "x", relativePath: "a.md" })).body.meta.path).toBe("body.kbId");
  });

  test("two paths that differ only in letter case: the second is 409 CONFLICT while the first is active; after its delete (to the trash) a new document takes the new spelling", async () => {
    const { user, key } = await makeClient();
    const kbId = await makeKb(user);
    const first = await postDoc(key, { filename: "a.md", content: "lower\n", kbId, relativePath: "Dir/note.md" });
    const clash = await postDoc(key, { filename: "a.md", content: "upper\n", kbId, relativePath: "dir/NOTE.md" });
    expect(clash.status).toBe(409);
    expect(clash.body.meta).toMatchObject({ existingId: first.body.data.id, existingPath: "Dir/note.md" });
    expect((await call("DELETE", `/v1/docs/${first.body.data.id}`, { token: key })).status).toBe(204);
    const again = await postDoc(key, { filename: "a.md", content: "upper\n", kbId, relativePath: "dir/NOTE.md" });
    expect(again.status).toBe(200);
    expect(again.body.data.id).not.toBe(first.body.data.id);
    expect((await callJson("GET", `/v1/docs/${again.body.data.id}`, { token: key })).body.data.relativePath).toBe("dir/NOTE.md");
    // The trashed one still counts until it is purged.
    expect((await usageOf((await makeKey(user, ["usage.read"])).key)).doc.count.used).toBe(2);
  });

  test("the KB's document count and bytes follow every add, replace and delete; its updatedAt moves", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const kbId = await makeKb(user);
    const kb = () => getKb(deps.db, { userId: user.id, id: kbId });
    const created = (await kb()).updatedAt.getTime();
    deps.clock.advance(5);
    const a = await postDoc(key, { filename: "a.md", content: "aaaa", kbId, relativePath: "a.md" });
    await postDoc(key, { filename: "b.md", content: "bb", kbId, relativePath: "b.md" });
    expect(await kb()).toMatchObject({ docCount: 2, sizeBytes: 6 });
    expect((await kb()).updatedAt.getTime()).toBeGreaterThan(created);
    await postDoc(key, { filename: "a.md", content: "a", kbId, relativePath: "a.md" });
    expect(await kb()).toMatchObject({ docCount: 2, sizeBytes: 3 });
    await call("DELETE", `/v1/docs/${a.body.data.id}`, { token: key });
    expect(await kb()).toMatchObject({ docCount: 1, sizeBytes: 2 });
    await postDoc(key, { filename: "a.md", content: "again", kbId, relativePath: "a.md" });
    expect(await kb()).toMatchObject({ docCount: 2, sizeBytes: 7 });
  });
});
