// Moves and tombstones (docs/sync.md): a move keeps docId and leaves a tombstone at fromPath;
// MOVE_SOURCE_MISSING, MOVE_TARGET_EXISTS; tombstones on every delete (sync, /v1/docs, a
// KB's cascade), tombstone_ack recorded, and prune-tombstones by moving the clock.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createModuleApp } from "../../src/wiring/app.ts";
import { docTombstones } from "../../src/modules/library/kbs/table.ts";
import { kbsModule } from "../../src/modules/library/kbs/index.ts";
import { createServices, routeServices } from "../../src/wiring/services.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { fullManifest, newKb, sha256 } from "./fixtures.ts";
import { delete2, move2, pushed2, sync2, update2, upsert2, walk2 } from "./v2-fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const DAY = 86_400_000;
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

const tombstonesOf = async (kbId: string) => {
  const { deps } = await testContext();
  return deps.db.select().from(docTombstones).where(eq(docTombstones.kbId, kbId)).orderBy(docTombstones.deletedAt);
};
const raw = (key: string, kbId: string, path: string) => call("GET", `/v1/kbs/${kbId}/raw?path=${encodeURIComponent(path)}`, { token: key });

describe("move", () => {
  test("keeps docId, content and history; the applied result carries op, docId, relativePath = toPath, fromPath, updatedAt, sourceHash; a tombstone at fromPath", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const a = (await pushed2(key, kb.id, [upsert2("notes/a.md", "# A\n")])).results[0]!;
    const b = (await pushed2(key, kb.id, [update2(a.docId!, "# A2\n", { baseUpdatedAt: a.updatedAt })])).results[0]!;
    const { sinceCursor } = await walk2(key, kb.id);
    const moved = await pushed2(key, kb.id, [move2("notes/a.md", "archive/a.typ", "# A2\n", { baseUpdatedAt: b.updatedAt })]);
    expect(moved.results).toEqual([
      {
        opIndex: 0,
        op: "move",
        status: "applied",
        docId: a.docId,
        relativePath: "archive/a.typ",
        kind: "document",
        fromPath: "notes/a.md",
        updatedAt: expect.any(String),
        sourceHash: sha256("# A2\n"),
      },
    ]);
    expect(moved.results[0]!.updatedAt! > b.updatedAt!).toBe(true);
    expect((await raw(key, kb.id, "notes/a.md")).status).toBe(404);
    expect(await (await raw(key, kb.id, "archive/a.typ")).text()).toBe("# A2\n");
    const doc = (await callJson("GET", `/v1/docs/${a.docId}`, { token: key })).body.data;
    expect(doc).toMatchObject({ relativePath: "archive/a.typ", filename: "a.typ", format: "typst" });
    const revisions = await callJson("GET", `/v1/docs/${a.docId}/revisions`, { token: key });
    expect(revisions.status).toBe(200);
    const after = await walk2(key, kb.id, { since: sinceCursor, include: "tombstones" });
    // The path it left is a deleted entry too, which is how a v1 client learns it went.
    // (The two entries share the move's stamp: their order is their ids'.)
    const byPath = (x: { relativePath: string }, y: { relativePath: string }) => x.relativePath.localeCompare(y.relativePath);
    expect(after.items.sort(byPath)).toMatchObject([
      { relativePath: "archive/a.typ", docId: a.docId, sourceHash: sha256("# A2\n"), deletedAt: null },
      { relativePath: "notes/a.md", sourceHash: null, deletedAt: moved.results[0]!.updatedAt },
    ]);
    expect((await fullManifest(key, kb.id, { since: b.updatedAt! })).items.sort(byPath).map((i) => [i.relativePath, i.deletedAt !== null])).toEqual([
      ["archive/a.typ", false],
      ["notes/a.md", true],
    ]);
    expect(after.tombstones).toEqual([
      { docId: a.docId!, relativePath: "notes/a.md", sourceHash: sha256("# A2\n"), kind: "document", deletedAt: moved.results[0]!.updatedAt! },
    ]);
    // The KB's counts do not move.
    expect((await callJson("GET", `/v1/kbs/${kb.id}`, { token: key })).body.data).toMatchObject({ docCount: 1, sizeBytes: 5 });
  });

  test("MOVE_SOURCE_MISSING (none or deleted at fromPath), MOVE_TARGET_EXISTS (toPath active), a stale base or another text is REMOTE_NEWER: 409, nothing moved", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const [a, b, c] = (await pushed2(key, kb.id, [upsert2("a.md", "a"), upsert2("b.md", "b"), upsert2("c.md", "c")])).results;
    await pushed2(key, kb.id, [delete2("c.md", { baseUpdatedAt: c!.updatedAt })]);
    const res = await sync2(key, kb.id, [
      move2("none.md", "x.md", "a", { baseUpdatedAt: a!.updatedAt }),
      move2("c.md", "x.md", "c", { baseUpdatedAt: c!.updatedAt }),
      move2("a.md", "B.md", "a", { baseUpdatedAt: a!.updatedAt }),
      move2("a.md", "x.md", "a", { baseUpdatedAt: "2020-01-01T00:00:00.000Z" }),
      move2("a.md", "x.md", "not what master holds", { baseUpdatedAt: a!.updatedAt }),
      move2("a.md", "x.md", "a"),
    ]);
    expect(res.status).toBe(409);
    expect((res.body.meta.results as any[]).map((r) => [r.status, r.reason])).toEqual([
      ["conflict", "MOVE_SOURCE_MISSING"],
      ["conflict", "MOVE_SOURCE_MISSING"],
      ["conflict", "MOVE_TARGET_EXISTS"],
      ["conflict", "REMOTE_NEWER"],
      ["conflict", "REMOTE_NEWER"],
      ["conflict", "BASE_MISSING"],
    ]);
    expect(res.body.meta.results[2]).toMatchObject({ docId: b!.docId, currentMasterHash: sha256("b") });
    expect((await fullManifest(key, kb.id)).items.map((i) => i.relativePath).sort()).toEqual(["a.md", "b.md", "c.md"]);
    expect(await tombstonesOf(kb.id)).toHaveLength(1);
  });

  test("onto a soft-deleted path (which gives it up), a change of letter case (no tombstone), a move of a document the same batch made, an unsupported extension (skipped)", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const [a, old] = (await pushed2(key, kb.id, [upsert2("a.md", "a"), upsert2("old.md", "old")])).results;
    await pushed2(key, kb.id, [delete2("old.md", { baseUpdatedAt: old!.updatedAt })]);
    const res = await pushed2(key, kb.id, [
      move2("a.md", "old.md", "a", { baseUpdatedAt: a!.updatedAt }),
      upsert2("new.md", "n"),
      move2("new.md", "New.md", "n", { baseHash: sha256("n") }),
      move2("New.md", "n.txt", "n", { baseHash: sha256("n") }),
    ]);
    expect(res.results.map((r) => [r.status, r.relativePath, r.docId === a!.docId])).toEqual([
      ["applied", "old.md", true],
      ["applied", "new.md", false],
      ["applied", "New.md", false],
      ["skipped", "New.md", false],
    ]);
    expect(res.results[3]).toMatchObject({ reason: "INVALID_FILE_TYPE" });
    const items = (await fullManifest(key, kb.id)).items;
    // (a.md, left by the move, and old.md share the move's stamp.)
    expect(items.map((i) => [i.relativePath, i.sourceHash]).sort()).toEqual([
      ["New.md", sha256("n")],
      ["a.md", null],
      ["old.md", sha256("a")],
    ]);
    // What a move left behind is a deleted path like any other: an upsert there makes it anew.
    const again = await pushed2(key, kb.id, [upsert2("a.md", "a again")]);
    expect(again.results[0]).toMatchObject({ status: "applied", relativePath: "a.md", sourceHash: sha256("a again") });
    expect(again.results[0]!.docId).not.toBe(a!.docId);
    expect((await tombstonesOf(kb.id)).map((t) => t.relativePath)).toEqual(["old.md", "a.md"]);
  });
});

describe("moves within one batch", () => {
  test("later ops see what a move did: a move back, an update of the moved document by id, a new document at the path it left", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const a = (await pushed2(key, kb.id, [upsert2("a.md", "a")])).results[0]!;
    const res = await pushed2(key, kb.id, [
      move2("a.md", "b.md", "a", { baseUpdatedAt: a.updatedAt }),
      move2("b.md", "c.md", "a", { baseHash: sha256("a") }),
      update2(a.docId!, "# C\n", { baseHash: sha256("a") }),
      upsert2("a.md", "a new one"),
      move2("c.md", "a2.md", "# C\n", { baseHash: sha256("# C\n") }),
      move2("a2.md", "b.md", "# C\n", { baseHash: sha256("# C\n") }),
    ]);
    expect(res.results.map((r) => [r.status, r.relativePath])).toEqual([
      ["applied", "b.md"],
      ["applied", "c.md"],
      ["applied", "c.md"],
      ["applied", "a.md"],
      ["applied", "a2.md"],
      ["applied", "b.md"],
    ]);
    expect(new Set(res.results.filter((r) => r.op !== "upsert").map((r) => r.docId))).toEqual(new Set([a.docId]));
    const active = (await fullManifest(key, kb.id)).items.filter((i) => i.deletedAt === null);
    expect(active.map((i) => [i.relativePath, i.sourceHash]).sort()).toEqual([
      ["a.md", sha256("a new one")],
      ["b.md", sha256("# C\n")],
    ]);
    expect((await callJson("GET", `/v1/docs/${a.docId}`, { token: key })).body.data).toMatchObject({ relativePath: "b.md", title: "C" });
    expect((await callJson("GET", `/v1/kbs/${kb.id}`, { token: key })).body.data).toMatchObject({ docCount: 2 });
  });
});

describe("tombstones", () => {
  test("tombstone_ack: applied and recorded on the document's tombstones; none of that document: skipped NOT_FOUND", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const a = (await pushed2(key, kb.id, [upsert2("a.md", "a")])).results[0]!;
    await pushed2(key, kb.id, [delete2("a.md", { baseHash: sha256("a") })]);
    const res = await pushed2(key, kb.id, [
      { op: "tombstone_ack", docId: a.docId },
      { op: "tombstone_ack", docId: a.docId, relativePath: "other.md" },
      { op: "tombstone_ack", docId: "z".repeat(21) },
    ]);
    expect(res.results.map((r) => [r.op, r.status, r.docId, (r as any).reason ?? null])).toEqual([
      ["tombstone_ack", "applied", a.docId, null],
      ["tombstone_ack", "skipped", null, "NOT_FOUND"],
      ["tombstone_ack", "skipped", null, "NOT_FOUND"],
    ]);
    const [t] = await tombstonesOf(kb.id);
    expect(t!.ackedAt).toBeInstanceOf(Date);
  });

  test("a KB deleted with cascade and purged leaves a tombstone for each active document, in the purge transaction", async () => {
    const { key, user } = await makeClient();
    const kb = await newKb(key);
    const made = await pushed2(key, kb.id, [upsert2("a.md", "a"), upsert2("b.md", "b"), upsert2("c.md", "c")]);
    await pushed2(key, kb.id, [delete2("c.md", { baseHash: sha256("c") })]);
    expect((await call("DELETE", `/v1/kbs/${kb.id}?cascade=true`, { token: key })).status).toBe(204);
    expect((await call("DELETE", `/v1/trash/${kb.id}`, { token: user.jwt })).status).toBe(204);
    const rows = await tombstonesOf(kb.id);
    expect(rows.map((r) => [r.relativePath, r.docId, r.sourceHash, r.ownerId]).sort()).toEqual([
      ["a.md", made.results[0]!.docId!, sha256("a"), user.id],
      ["b.md", made.results[1]!.docId!, sha256("b"), user.id],
      ["c.md", made.results[2]!.docId!, sha256("c"), user.id],
    ]);
    expect(rows[2]!.deletedAt.getTime()).toBe(rows[1]!.deletedAt.getTime());
    expect((await callJson("GET", `/v1/kbs/${kb.id}/manifest`, { token: key })).status).toBe(404);
  });

  test("prune-tombstones drops tombstones past the owner's plan retention (30 days trial, 90 pro_plus), and a second run finds nothing", async () => {
    const { deps } = await testContext();
    const clock = stoppedClock(deps.clock.nowMs());
    const services = createServices({ ...deps, clock });
    closers.push(() => services.close());
    const app = createModuleApp(services, kbsModule(routeServices(services)));
    const kbs: Record<string, string> = {};
    for (const plan of ["trial", "pro_plus"] as const) {
      const { key } = await makeClient({ plan });
      const kb = await newKb(key);
      kbs[plan] = kb.id;
      const a = (await pushed2(key, kb.id, [upsert2("a.md", "a")], { app })).results[0]!;
      await pushed2(key, kb.id, [delete2("a.md", { baseUpdatedAt: a.updatedAt })], { app });
    }
    const left = async () => ({ trial: (await tombstonesOf(kbs.trial!)).length, pro_plus: (await tombstonesOf(kbs.pro_plus!)).length });
    // The stamps follow the KBs' (made on the shared app's clock): measure from the trial tombstone's.
    const [trialTombstone] = await tombstonesOf(kbs.trial!);
    clock.advance(trialTombstone!.deletedAt.getTime() + 30 * DAY - clock.nowMs());
    expect((await services.runner.runNow("prune-tombstones")).outcome).toBe("ok");
    expect(await left()).toEqual({ trial: 1, pro_plus: 1 });
    clock.advance(1000);
    const run = await services.runner.runNow("prune-tombstones");
    expect(run.summary).toMatch(/^deleted \d+ tombstones of \d+ users$/);
    expect(await left()).toEqual({ trial: 0, pro_plus: 1 });
    await services.runner.runNow("prune-tombstones");
    expect(await left()).toEqual({ trial: 0, pro_plus: 1 });
    clock.advance(61 * DAY);
    await services.runner.runNow("prune-tombstones");
    expect(await left()).toEqual({ trial: 0, pro_plus: 0 });
  });

  test("a tombstone is another user's never: a since read of one KB shows its own only", async () => {
    const one = await makeClient();
    const two = await makeClient();
    const [k1, k2] = [await newKb(one.key), await newKb(two.key)];
    const s1 = (await walk2(one.key, k1.id)).sinceCursor;
    for (const [c, kb] of [
      [one, k1],
      [two, k2],
    ] as const) {
      const d = (await pushed2(c.key, kb.id, [upsert2("same.md", "x")])).results[0]!;
      await pushed2(c.key, kb.id, [delete2("same.md", { baseUpdatedAt: d.updatedAt })]);
    }
    const seen = await walk2(one.key, k1.id, { since: s1, include: "tombstones" });
    expect(seen.tombstones).toHaveLength(1);
    expect((await tombstonesOf(k1.id))[0]!.ownerId).toBe(one.user.id);
    expect(await tombstonesOf(k1.id)).toHaveLength(1);
    expect(await callJson("GET", `/v1/kbs/${k2.id}/manifest`, { token: one.key })).toMatchObject({ status: 404 });
  });
});

test("a move and an update of one document at the same moment take turns: one applies, the other is refused as stale, nothing is lost", async () => {
  const { key } = await makeClient();
  const kb = await newKb(key);
  const a = (await pushed2(key, kb.id, [upsert2("a.md", "a")])).results[0]!;
  const [moved, edited] = await Promise.all([
    sync2(key, kb.id, [move2("a.md", "b.md", "a", { baseUpdatedAt: a.updatedAt })]),
    sync2(key, kb.id, [update2(a.docId!, "a edited", { baseUpdatedAt: a.updatedAt })]),
  ]);
  expect([moved.status, edited.status].sort()).toEqual([200, 409]);
  const active = (await fullManifest(key, kb.id)).items.filter((i) => i.deletedAt === null);
  expect(active).toHaveLength(1);
  if (moved.status === 200) {
    expect(active[0]).toMatchObject({ relativePath: "b.md", sourceHash: sha256("a") });
    expect(edited.body.meta.results[0]).toMatchObject({ reason: "REMOTE_NEWER", docId: a.docId });
  } else {
    expect(active[0]).toMatchObject({ relativePath: "a.md", sourceHash: sha256("a edited") });
    expect(moved.body.meta.results[0]).toMatchObject({ reason: "REMOTE_NEWER" });
  }
});
