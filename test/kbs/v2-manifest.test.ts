// GET /v1/kbs/:id/manifest under v2 (docs/sync.md): the since cursor and sinceCursor, tombstones,
// the weak ETag and 304, a since past the plan's tombstone retention (by moving the clock).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createModuleApp } from "../../src/wiring/app.ts";
import { kbsModule } from "../../src/modules/library/kbs/index.ts";
import { createServices, routeServices } from "../../src/wiring/services.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { newKb, sha256 } from "./fixtures.ts";
import { delete2, manifest2, move2, pushed2, upsert2, V2, walk2 } from "./v2-fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const DAY = 86_400_000;
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

describe("v2 manifest: cursors", () => {
  test("entries carry docId; the last page (only) carries sinceCursor, and since=sinceCursor lists exactly what changed after", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const made = await pushed2(
      key,
      kb.id,
      Array.from({ length: 5 }, (_, i) => upsert2(`n${i}.md`, `note ${i}`)),
    );
    const first = await manifest2(key, kb.id, { limit: "2" });
    expect(first.status).toBe(200);
    expect(first.body.data.items[0]).toEqual({
      relativePath: "n0.md",
      docId: made.results[0]!.docId,
      kind: "document",
      sourceHash: sha256("note 0"),
      sizeBytes: 6,
      updatedAt: made.results[0]!.updatedAt,
      deletedAt: null,
      hasPendingBranches: false,
    });
    expect(first.body.data.sinceCursor).toBeUndefined();
    const all = await walk2(key, kb.id, { limit: "2" });
    expect(all.items.map((i) => i.relativePath)).toEqual(["n0.md", "n1.md", "n2.md", "n3.md", "n4.md"]);
    expect(typeof all.sinceCursor).toBe("string");
    // Nothing changed: an incremental read from the cursor is empty, and hands back a cursor as good.
    const none = await walk2(key, kb.id, { since: all.sinceCursor });
    expect(none.items).toEqual([]);
    expect((await walk2(key, kb.id, { since: none.sinceCursor })).items).toEqual([]);

    const changed = await pushed2(key, kb.id, [upsert2("n1.md", "note 1 edited", { baseUpdatedAt: made.results[1]!.updatedAt }), upsert2("n5.md", "new")]);
    const next = await walk2(key, kb.id, { since: all.sinceCursor, limit: "1" });
    expect(next.items.map((i) => [i.relativePath, i.sourceHash])).toEqual([
      ["n1.md", sha256("note 1 edited")],
      ["n5.md", sha256("new")],
    ]);
    expect(next.items[1]!.updatedAt).toBe(changed.results[1]!.updatedAt!);
    expect((await walk2(key, kb.id, { since: next.sinceCursor })).items).toEqual([]);
  });

  test("since also takes an ISO instant (strictly after it, as in v1)", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const made = await pushed2(key, kb.id, [upsert2("a.md", "a"), upsert2("b.md", "b")]);
    const after = await walk2(key, kb.id, { since: made.results[0]!.updatedAt! });
    expect(after.items.map((i) => i.relativePath)).toEqual(["b.md"]);
  });

  test("a since or cursor that is neither an instant nor a cursor it gave: 422 at query.since, 400 INVALID_CURSOR", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const bad = await manifest2(key, kb.id, { since: "2026-02-30T00:00:00Z" });
    expect(bad.status).toBe(422);
    expect(bad.body.meta.path).toBe("query.since");
    for (const params of [{ since: "not-a-cursor" }, { since: "abc" }, { cursor: "abc" }, { since: Buffer.from('["x",1]').toString("base64url") }] as Record<
      string,
      string
    >[]) {
      const res = await manifest2(key, kb.id, params);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("INVALID_CURSOR");
    }
    const include = await manifest2(key, kb.id, { include: "deleted" });
    expect(include.status).toBe(422);
  });

  test("include=tombstones is a v2 parameter: 422 under v1", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const res = await callJson("GET", `/v1/kbs/${kb.id}/manifest?include=tombstones`, { token: key });
    expect(res.status).toBe(422);
    expect(res.body.meta.path).toBe("query.include");
  });
});

describe("v2 manifest: tombstones", () => {
  test("a delete and a move leave tombstones after since, on the last page; a path written again after its tombstone is listed, not tombstoned", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const made = await pushed2(key, kb.id, [upsert2("gone.md", "gone"), upsert2("from.md", "moving"), upsert2("back.md", "back")]);
    const [gone, from, back] = made.results;
    const { sinceCursor } = await walk2(key, kb.id);
    const changed = await pushed2(key, kb.id, [
      delete2("gone.md", { baseUpdatedAt: gone!.updatedAt }),
      move2("from.md", "to.md", "moving", { baseUpdatedAt: from!.updatedAt }),
      delete2("back.md", { baseHash: sha256("back") }),
    ]);
    const res = await walk2(key, kb.id, { since: sinceCursor, include: "tombstones", limit: "1" });
    expect(res.tombstones).toEqual([
      { docId: gone!.docId!, relativePath: "gone.md", sourceHash: sha256("gone"), kind: "document", deletedAt: changed.results[0]!.updatedAt! },
      { docId: from!.docId!, relativePath: "from.md", sourceHash: sha256("moving"), kind: "document", deletedAt: changed.results[1]!.updatedAt! },
      { docId: back!.docId!, relativePath: "back.md", sourceHash: sha256("back"), kind: "document", deletedAt: changed.results[2]!.updatedAt! },
    ]);
    expect(res.items.find((i) => i.relativePath === "to.md")).toMatchObject({ docId: from!.docId, sourceHash: sha256("moving") });

    await pushed2(key, kb.id, [upsert2("back.md", "back again")]);
    const later = await walk2(key, kb.id, { since: sinceCursor, include: "tombstones" });
    expect(later.tombstones.map((t) => t.relativePath)).toEqual(["gone.md", "from.md"]);
    expect(later.items.find((i) => i.relativePath === "back.md")).toMatchObject({ docId: back!.docId, sourceHash: sha256("back again") });
    // From the new cursor on, nothing: the tombstones were handed out once.
    expect((await walk2(key, kb.id, { since: later.sinceCursor, include: "tombstones" })).tombstones).toEqual([]);
    // Without since the manifest is the whole state: no tombstones.
    expect((await walk2(key, kb.id, { include: "tombstones" })).tombstones).toEqual([]);
  });

  test("a delete through /v1/docs leaves a tombstone too", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const made = await pushed2(key, kb.id, [upsert2("d.md", "doc")]);
    const { sinceCursor } = await walk2(key, kb.id);
    expect((await call("DELETE", `/v1/docs/${made.results[0]!.docId}`, { token: key })).status).toBe(204);
    const res = await walk2(key, kb.id, { since: sinceCursor, include: "tombstones" });
    expect(res.tombstones).toMatchObject([{ docId: made.results[0]!.docId, relativePath: "d.md", sourceHash: sha256("doc") }]);
    expect(res.items).toMatchObject([{ relativePath: "d.md", sourceHash: null }]);
  });
});

describe("v2 manifest: conditional fetch", () => {
  test("a weak ETag; If-None-Match with it is an empty 304 until the KB changes (a push, a move, a delete through /v1/docs), then 200 with a new one", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const made = await pushed2(key, kb.id, [upsert2("a.md", "a"), upsert2("b.md", "b")]);
    const params = { include: "tombstones", limit: "1000" };
    const first = await manifest2(key, kb.id, params);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"[0-9a-f]{32}"$/);
    const conditional = (tag: string) =>
      call("GET", `/v1/kbs/${kb.id}/manifest?include=tombstones&limit=1000`, { token: key, headers: { ...V2, "if-none-match": tag } });
    const again = await conditional(etag);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    // Another question (limit, since) is another tag.
    expect((await manifest2(key, kb.id, { ...params, limit: "999" }, { headers: { "if-none-match": etag } })).status).toBe(200);

    const tags = [etag];
    const changes = [
      () => pushed2(key, kb.id, [upsert2("c.md", "c")]),
      () => pushed2(key, kb.id, [move2("a.md", "a2.md", "a", { baseUpdatedAt: made.results[0]!.updatedAt })]),
      () => call("DELETE", `/v1/docs/${made.results[1]!.docId}`, { token: key }),
    ];
    for (const change of changes) {
      await change();
      const res = await manifest2(key, kb.id, params, { headers: { "if-none-match": tags.at(-1)! } });
      expect(res.status).toBe(200);
      const tag = res.headers.get("etag")!;
      expect(tags).not.toContain(tag);
      tags.push(tag);
      expect((await conditional(tag)).status).toBe(304);
    }
  });
});

describe("v2 manifest: since past the tombstone retention", () => {
  async function clocked() {
    const { deps } = await testContext();
    const clock = stoppedClock(deps.clock.nowMs());
    const services = createServices({ ...deps, clock });
    closers.push(() => services.close());
    return { clock, app: createModuleApp(services, kbsModule(routeServices(services))) };
  }

  test("trial and pro keep 30 days, pro_plus 90: older, 200 tombstoneCursorExpired with no items, and 410 TOMBSTONE_CURSOR_EXPIRED with include=tombstones", async () => {
    const { clock, app } = await clocked();
    for (const [plan, days] of [
      ["trial", 30],
      ["pro", 30],
      ["pro_plus", 90],
    ] as const) {
      const { key } = await makeClient({ plan });
      const kb = await newKb(key);
      await pushed2(key, kb.id, [upsert2("a.md", "a")], { app });
      const { sinceCursor, serverTime } = await walk2(key, kb.id, {}, { app });
      // serverTime (and the cursor's instant) is the KB's stamp: retention is measured from it.
      clock.advance(Date.parse(serverTime) + days * DAY - clock.nowMs());
      for (const since of [sinceCursor, serverTime]) {
        expect((await walk2(key, kb.id, { since, include: "tombstones" }, { app })).items).toEqual([]);
      }
      clock.advance(1);
      for (const since of [sinceCursor, serverTime]) {
        const res = await manifest2(key, kb.id, { since }, { app });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ kbId: kb.id, items: [], nextCursor: null, tombstoneCursorExpired: true, retentionDays: days });
        expect(res.body.data.hint).toContain("without since");
        const gone = await manifest2(key, kb.id, { since, include: "tombstones" }, { app });
        expect(gone.status).toBe(410);
        expect(gone.body).toMatchObject({ success: false, code: "TOMBSTONE_CURSOR_EXPIRED", meta: { retentionDays: days } });
      }
      // The way back: a manifest without since.
      expect((await walk2(key, kb.id, { include: "tombstones" }, { app })).items.map((i) => i.relativePath)).toEqual(["a.md"]);
    }
  });
});

test("v2 manifest tenancy: 401, 403 without kb.read, 404 for another user's KB", async () => {
  await expectTenantIsolation({
    method: "GET",
    path: (id) => `/v1/kbs/${id}/manifest?include=tombstones`,
    scope: "kb.read",
    create: async (owner) => (await newKb(owner.jwt)).id,
    request: () => ({ headers: V2 }),
  });
});

test("a sinceCursor from a read that listed nothing (the KB's stamp) lists nothing again while nothing changes", async () => {
  const { key } = await makeClient();
  const kb = await newKb(key);
  const { serverTime } = await pushed2(key, kb.id, [upsert2("a.md", "a\n")]);
  const first = await walk2(key, kb.id, { since: serverTime });
  expect(first.items).toEqual([]);
  const again = await walk2(key, kb.id, { since: first.sinceCursor });
  expect(again.items).toEqual([]);
  expect((await walk2(key, kb.id, { since: again.sinceCursor })).items).toEqual([]);
  await pushed2(key, kb.id, [upsert2("b.md", "b\n")]);
  expect((await walk2(key, kb.id, { since: again.sinceCursor })).items.map((i) => i.relativePath)).toEqual(["b.md"]);
});
