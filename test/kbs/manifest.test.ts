// GET /v1/kbs/:id/manifest: full and incremental reads, pages, soft-deleted entries, and a
// serverTime that never lets a change slip through, even one that commits late.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { lockKb } from "../../src/modules/library/public.ts";
import { describeText, lockAtPath, replaceContent } from "../../src/modules/library/public.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { del, fullManifest, manifest, newKb, pushed, sha256, upsert } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

describe("GET /v1/kbs/:id/manifest", () => {
  test("a full manifest lists every document, deleted ones included, oldest change first, in pages of `limit`", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const made = await pushed(
      key,
      kb.id,
      Array.from({ length: 7 }, (_, i) => upsert(`d${i}.md`, `doc ${i}`)),
    );
    await pushed(key, kb.id, [del("d0.md", made.applied[0]!.updatedAt)]);
    const first = await manifest(key, kb.id, "limit=3");
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ kbId: kb.id });
    expect(first.body.data.items).toHaveLength(3);
    expect(first.body.data.items[0]).toEqual({
      relativePath: "d1.md",
      sourceHash: sha256("doc 1"),
      sizeBytes: 5,
      updatedAt: made.applied[1]!.updatedAt,
      deletedAt: null,
    });
    const all = await fullManifest(key, kb.id, { limit: "3" });
    expect(all.items.map((i) => i.relativePath)).toEqual(["d1.md", "d2.md", "d3.md", "d4.md", "d5.md", "d6.md", "d0.md"]);
    expect(all.items.at(-1)).toMatchObject({ sourceHash: null, sizeBytes: null, updatedAt: null });
    expect(all.serverTime).toBe(all.items.at(-1)!.deletedAt!);
    expect((await manifest(key, kb.id)).body.data.items).toHaveLength(7);
  });

  test("a since round trip picks up exactly the changes made after it: adds, replacements and deletes", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const made = await pushed(key, kb.id, [upsert("keep.md", "keep"), upsert("edit.md", "edit"), upsert("drop.md", "drop")]);
    const { serverTime } = await fullManifest(key, kb.id);
    expect((await fullManifest(key, kb.id, { since: serverTime })).items).toEqual([]);
    const changes = await pushed(key, kb.id, [
      upsert("edit.md", "edited", made.applied[1]!.updatedAt),
      del("drop.md", made.applied[2]!.updatedAt),
      upsert("new.md", "new"),
    ]);
    const next = await fullManifest(key, kb.id, { since: serverTime, limit: "2" });
    expect(next.items.map((i) => [i.relativePath, i.sourceHash])).toEqual([
      ["edit.md", sha256("edited")],
      ["drop.md", null],
      ["new.md", sha256("new")],
    ]);
    expect(next.items[1]!.deletedAt).toBe(changes.applied[1]!.updatedAt);
    expect(next.serverTime >= changes.serverTime).toBe(true);
    expect((await fullManifest(key, kb.id, { since: next.serverTime })).items).toEqual([]);
  });

  test("changes made through /v1/docs (upload into the KB, delete, restore) are stamped alike and seen by the next since", async () => {
    const { user, key } = await makeClient();
    await callJson("PATCH", "/v1/user/me", { token: user.jwt, json: { docVersioningEnabled: true } });
    const kb = await newKb(key);
    const { serverTime } = await fullManifest(key, kb.id);
    const up = await callJson("POST", "/v1/docs", { token: key, json: { filename: "u.md", content: "one", kbId: kb.id, relativePath: "up/u.md" } });
    expect(up.status).toBe(201);
    const first = await fullManifest(key, kb.id, { since: serverTime });
    expect(first.items).toEqual([{ relativePath: "up/u.md", sourceHash: sha256("one"), sizeBytes: 3, updatedAt: up.body.data.updatedAt, deletedAt: null }]);
    await callJson("POST", "/v1/docs", { token: key, json: { filename: "u.md", content: "two", kbId: kb.id, relativePath: "up/u.md" } });
    const [rev] = (await callJson("GET", `/v1/docs/${up.body.data.id}/revisions`, { token: key })).body.data.revisions;
    const restored = await callJson("POST", `/v1/docs/${up.body.data.id}/revisions/${rev.id}/restore`, { token: key });
    const second = await fullManifest(key, kb.id, { since: first.serverTime });
    expect(second.items).toMatchObject([{ relativePath: "up/u.md", sourceHash: sha256("one"), updatedAt: restored.body.data.updatedAt }]);
    expect((await call("DELETE", `/v1/docs/${up.body.data.id}`, { token: key })).status).toBe(204);
    const third = await fullManifest(key, kb.id, { since: second.serverTime });
    expect(third.items).toMatchObject([{ relativePath: "up/u.md", sourceHash: null, updatedAt: null }]);
    expect(third.items[0]!.deletedAt! > second.serverTime).toBe(true);
    // Outside a KB a metadata change still moves updatedAt.
    const loose = await callJson("POST", "/v1/docs", { token: key, json: { filename: "l.md", content: "loose" } });
    (await testContext()).deps.clock.advance(5);
    const patched = await callJson("PATCH", `/v1/docs/${loose.body.data.id}`, { token: key, json: { title: "New" } });
    expect(patched.body.data.updatedAt > loose.body.data.updatedAt).toBe(true);
  });

  test("a change made between two pages of a walk is seen by the walk", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const made = await pushed(key, kb.id, [upsert("a.md", "a"), upsert("b.md", "b"), upsert("c.md", "c")]);
    const first = await manifest(key, kb.id, "limit=2");
    await pushed(key, kb.id, [upsert("a.md", "a2", made.applied[0]!.updatedAt)]);
    const rest = await manifest(key, kb.id, `limit=2&cursor=${first.body.data.nextCursor}`);
    expect(rest.body.data.items.map((i: { relativePath: string }) => i.relativePath)).toEqual(["c.md", "a.md"]);
    expect(rest.body.data.nextCursor).toBeNull();
  });

  test("a write whose transaction is open across a read is in the read or in the next since read: serverTime never passes it", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const kb = await newKb(key);
    const made = await pushed(key, kb.id, [upsert("late.md", "before")]);
    const start = await fullManifest(key, kb.id);

    let open!: () => void;
    const opened = new Promise<void>((r) => (open = r));
    let commit!: () => void;
    const committing = new Promise<void>((r) => (commit = r));
    // A writer that stamped its change long ago by its own clock and commits only later.
    const writer = deps.db.transaction(async (tx) => {
      await lockKb(tx, { userId: user.id, id: kb.id });
      const row = await lockAtPath(tx, { userId: user.id, kbId: kb.id, pathKey: "late.md" });
      const { ownTags: _, ...next } = describeText("late.md", "after", { sourceHash: sha256("after"), sizeBytes: 5 }, { content: "after", objectKey: null });
      const actor = { userId: user.id, limits: deps.plans.trial, history: { enabled: false, max: 20 }, now: new Date(Date.parse(made.serverTime) - 60_000) };
      await replaceContent(tx, actor, row!, next, "sync");
      open();
      await committing;
    });
    await opened;
    const during = manifest(key, kb.id, `since=${encodeURIComponent(start.serverTime)}`);
    // Postgres answers while the writer is open (PGlite, one connection, after it commits).
    if (deps.database.kind === "postgres") {
      const read = await during;
      expect(read.body.data.items).toEqual([]);
      expect(read.body.data.serverTime).toBe(start.serverTime);
    }
    commit();
    await writer;
    const read = (await during).body.data;
    const next = await fullManifest(key, kb.id, { since: read.serverTime });
    const seen = [...read.items, ...next.items].filter((i: { relativePath: string }) => i.relativePath === "late.md");
    expect(seen.map((i: { sourceHash: string }) => i.sourceHash)).toContain(sha256("after"));
    expect(seen.at(-1)!.updatedAt! > start.serverTime).toBe(true);
  });

  test("a page lists at most 5 MB of documents (at least one); the rest follows", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const kb = await newKb(key);
    const two = "t".repeat(2 * 1024 * 1024);
    await pushed(key, kb.id, [upsert("a.md", two), upsert("b.md", `${two}b`), upsert("c.md", `${two}c`), upsert("small.md", "s")]);
    const first = await manifest(key, kb.id, "limit=1000");
    expect(first.body.data.items.map((i: { relativePath: string }) => i.relativePath)).toEqual(["a.md", "b.md"]);
    const rest = await manifest(key, kb.id, `cursor=${first.body.data.nextCursor}`);
    expect(rest.body.data.items.map((i: { relativePath: string }) => i.relativePath)).toEqual(["c.md", "small.md"]);
    expect(rest.body.data.nextCursor).toBeNull();
    // 6 MB of Markdown pushed and read back: past the default 5 s on a busy machine.
  }, 60_000);

  test("bad input: limit outside 1..1000, a since that is no instant, a cursor it did not give: 422, 422, 400", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    for (const q of ["limit=0", "limit=1001", "since=yesterday", "since=2026-13-01T00:00:00Z"]) {
      expect((await manifest(key, kb.id, q)).status).toBe(422);
    }
    // Instants the date-time format lets through but no calendar or database holds.
    for (const since of ["2026-02-30T00:00:00Z", "0000-01-01T00:00:00Z", "+275760-09-13T00:00:00Z"]) {
      const res = await manifest(key, kb.id, `since=${encodeURIComponent(since)}`);
      expect(res.status).toBe(422);
      expect(res.body.meta.path).toBe("query.since");
    }
    expect((await manifest(key, kb.id, `since=${encodeURIComponent("2026-01-01T02:00:00+02:00")}`)).status).toBe(200);
    const bad = await manifest(key, kb.id, "cursor=abc");
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("INVALID_CURSOR");
    expect((await manifest(key, kb.id, "limit=1000")).status).toBe(200);
  });

  test("the protocol version: header or query; not a number or 0 is 400 INVALID_SYNC_VERSION, 3 or more SYNC_VERSION_UNSUPPORTED", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const get = (headers: Record<string, string>, q = "") => callJson("GET", `/v1/kbs/${kb.id}/manifest${q}`, { token: key, headers });
    expect((await get({ "service-sync-version": "1" })).status).toBe(200);
    expect((await get({}, "?syncVersion=1")).status).toBe(200);
    for (const v of ["abc", "0", "1.5", ""]) expect((await get({ "service-sync-version": v })).body.code).toBe("INVALID_SYNC_VERSION");
    expect((await get({ "service-sync-version": "3" })).body.code).toBe("SYNC_VERSION_UNSUPPORTED");
    expect((await get({}, "?syncVersion=7")).body.code).toBe("SYNC_VERSION_UNSUPPORTED");
    // The header wins over the query.
    expect((await get({ "service-sync-version": "1" }, "?syncVersion=9")).status).toBe(200);
    expect((await get({ "service-sync-version": "2" })).status).toBe(200);
  });

  test("tenancy: 401, 403 without kb.read, 404 for another user's KB", async () => {
    await expectTenantIsolation({
      method: "GET",
      path: (id) => `/v1/kbs/${id}/manifest`,
      scope: "kb.read",
      create: async (owner) => (await newKb(owner.jwt)).id,
    });
  });
});

describe("GET /v1/kbs/:id/raw?path=", () => {
  test("the text at a path with X-Doc-Id, X-Source-Hash and X-Updated-At, by any Unicode form or letter case of the path", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const done = await pushed(key, kb.id, [upsert("Dir/Café.md", "# Café\n"), upsert("t.typ", "= T\n")]);
    for (const path of ["Dir/Café.md", "Dir/Cafe\u0301.md", "dir/CAFÉ.md"]) {
      const res = await call("GET", `/v1/kbs/${kb.id}/raw?path=${encodeURIComponent(path)}`, { token: key });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
      expect(res.headers.get("x-doc-id")).toBe(done.applied[0]!.id);
      expect(res.headers.get("x-source-hash")).toBe(sha256("# Café\n"));
      expect(res.headers.get("x-updated-at")).toBe(done.applied[0]!.updatedAt);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("ratelimit-limit")).toBeTruthy();
      expect(await res.text()).toBe("# Café\n");
    }
    const typ = await call("GET", `/v1/kbs/${kb.id}/raw?path=t.typ`, { token: key });
    expect(typ.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  });

  test("no active document is 404; a bad or missing path 422; another user's KB 404", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const made = await pushed(key, kb.id, [upsert("gone.md", "g")]);
    await pushed(key, kb.id, [del("gone.md", made.applied[0]!.updatedAt)]);
    for (const path of ["gone.md", "never.md"]) {
      const res = await callJson("GET", `/v1/kbs/${kb.id}/raw?path=${path}`, { token: key });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("NOT_FOUND");
    }
    for (const q of ["?path=..%2Fx", "?path=%2Fa", "?path=a%5Cb", "?path=a%2F%2Fb", ""]) {
      const res = await callJson("GET", `/v1/kbs/${kb.id}/raw${q}`, { token: key });
      expect(res.status).toBe(422);
      expect(res.body.meta.path).toBe("query.path");
    }
    await expectTenantIsolation({
      method: "GET",
      path: (id) => `/v1/kbs/${id}/raw?path=a.md`,
      scope: "kb.read",
      create: async (owner) => {
        const id = (await newKb(owner.jwt)).id;
        await pushed(owner.jwt, id, [upsert("a.md", "secret")]);
        return id;
      },
    });
  });
});
