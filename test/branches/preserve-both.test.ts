// Sync v2 with conflictResolution=preserve_both over HTTP (docs/decisions/sync.md, "Sync v2"):
// a stale upsert or update keeps the client's text as a conflict branch, master
// untouched, answered 200 with conflict_branch_created, branchId and master's hash and
// time; the branch limits refuse the request; the v2 manifest says which documents have
// pending branches.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createModuleApp } from "../../src/wiring/app.ts";
import { kbsModule } from "../../src/modules/library/kbs/index.ts";
import { buildPlans } from "../../src/modules/identity/public.ts";
import { createServices, routeServices } from "../../src/wiring/services.ts";
import { type CallOptions, call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, type TestUser } from "../helpers/factories.ts";
import { newKb, sha256 } from "../kbs/fixtures.ts";
import { delete2, manifest2, move2, type OpResult, pushed2, sync2, update2, upsert2 } from "../kbs/v2-fixtures.ts";
import { allConflicts, counters, openTestBranch } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const PRESERVE = { query: "conflictResolution=preserve_both" };
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

const raw = async (token: string, kbId: string, path: string, app?: CallOptions["app"]) =>
  (await call("GET", `/v1/kbs/${kbId}/raw?path=${encodeURIComponent(path)}`, { token, app })).text();

/** Version history on (accepting a branch then keeps the master it replaces). */
const historyOn = async (user: TestUser) =>
  expect((await callJson("PATCH", "/v1/user/me", { token: user.jwt, json: { docVersioningEnabled: true } })).status).toBe(200);

/** A preserve_both push that must answer 200; its results. */
async function preserved(token: string, kbId: string, ops: unknown[], app?: CallOptions["app"]) {
  const res = await sync2(token, kbId, ops, { ...PRESERVE, app });
  if (res.status !== 200) throw new Error(`preserve_both sync answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data as { results: (OpResult & { branchId?: string })[] };
}

/** A KB with `n.md` pushed, then changed by another client: what a stale client pushes against. */
async function staleSetup() {
  const { user, key } = await makeClient();
  const kb = await newKb(key);
  const first = (await pushed2(key, kb.id, [upsert2("n.md", "original")])).results[0]!;
  const master = (await pushed2(key, kb.id, [upsert2("n.md", "their edit", { baseUpdatedAt: first.updatedAt })])).results[0]!;
  return { user, key, kb, docId: first.docId!, base: first.updatedAt!, master };
}

describe("preserve_both", () => {
  test("a stale upsert is kept as a branch: 200, conflict_branch_created with branchId and master's hash and time; master untouched; accept makes it master", async () => {
    const { user, key, kb, docId, base, master } = await staleSetup();
    const res = await sync2(key, kb.id, [upsert2("n.md", "my edit", { baseUpdatedAt: base }), upsert2("other.md", "fine")], PRESERVE);
    expect(res.status).toBe(200);
    const [kept, other] = res.body.data.results;
    expect(kept).toEqual({
      opIndex: 0,
      op: "upsert",
      status: "conflict_branch_created",
      docId,
      relativePath: "n.md",
      branchId: expect.stringMatching(/^[A-Za-z0-9_-]{21}$/),
      currentMasterHash: sha256("their edit"),
      currentMasterUpdatedAt: master.updatedAt,
    });
    expect(other).toMatchObject({ opIndex: 1, status: "applied" });
    expect(await raw(key, kb.id, "n.md")).toBe("their edit");
    expect(await allConflicts(key, kb.id)).toEqual([
      expect.objectContaining({ branchId: kept.branchId, docId, relativePath: "n.md", sourceHash: sha256("my edit") }),
    ]);
    expect((await callJson("GET", `/v1/kbs/${kb.id}/conflicts/${kept.branchId}`, { token: key })).body.data.content).toBe("my edit");

    await historyOn(user);
    const accepted = await callJson("POST", `/v1/kbs/${kb.id}/conflicts/${kept.branchId}/accept`, { token: key });
    expect(accepted.status).toBe(200);
    expect(await raw(key, kb.id, "n.md")).toBe("my edit");
    const revisions = await callJson("GET", `/v1/docs/${docId}/revisions`, { token: key });
    expect(revisions.body.data.revisions.map((r: { sourceHash: string }) => r.sourceHash)).toContain(sha256("their edit"));
  });

  test("a stale update by docId, an upsert without a base on a taken path and one on a path deleted since are kept too; the 200 lists each", async () => {
    const { user, key, kb, docId, base } = await staleSetup();
    const gone = (await pushed2(key, kb.id, [upsert2("gone.md", "was")])).results[0]!;
    const deleted = (await pushed2(key, kb.id, [delete2("gone.md", { baseUpdatedAt: gone.updatedAt })])).results[0]!;
    const res = await sync2(
      key,
      kb.id,
      [update2(docId, "update text", { baseUpdatedAt: base }), upsert2("n.md", "no base"), upsert2("gone.md", "still mine", { baseUpdatedAt: gone.updatedAt })],
      PRESERVE,
    );
    expect(res.status).toBe(200);
    const results = res.body.data.results;
    expect(results.map((r: { status: string }) => r.status)).toEqual(["conflict_branch_created", "conflict_branch_created", "conflict_branch_created"]);
    expect(results[0]).toMatchObject({ op: "update", docId, currentMasterHash: sha256("their edit") });
    expect(results[2]).toMatchObject({ docId: gone.docId, currentMasterHash: null, currentMasterUpdatedAt: deleted.updatedAt });
    const listed = await allConflicts(key, kb.id);
    // Opened at one instant, they are listed in id order.
    expect(listed.map((b) => `${b.relativePath} ${b.sourceHash}`).sort()).toEqual(
      [`n.md ${sha256("update text")}`, `n.md ${sha256("no base")}`, `gone.md ${sha256("still mine")}`].sort(),
    );
    expect((await counters(user.id)).branches).toBe(3);
  });

  test("a conflict with no text to keep (a stale delete) stays a conflict: 409 SYNC_CONFLICT whose meta.results shows the branch the batch kept", async () => {
    const { key, kb, base } = await staleSetup();
    const res = await sync2(key, kb.id, [upsert2("n.md", "kept", { baseUpdatedAt: base }), delete2("n.md", { baseUpdatedAt: base })], PRESERVE);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("SYNC_CONFLICT");
    expect(res.body.meta.results.map((r: { status: string }) => r.status)).toEqual(["conflict_branch_created", "conflict"]);
    expect(res.body.meta.results[1]).toMatchObject({ reason: "REMOTE_NEWER" });
    expect((await allConflicts(key, kb.id)).map((b) => b.branchId)).toEqual([res.body.meta.results[0].branchId]);
  });

  test("without preserve_both a stale upsert is 409 SYNC_CONFLICT and keeps nothing", async () => {
    const { user, key, kb, base } = await staleSetup();
    const res = await sync2(key, kb.id, [upsert2("n.md", "lost?", { baseUpdatedAt: base })]);
    expect(res.status).toBe(409);
    expect(res.body.meta.results[0]).toMatchObject({ status: "conflict", reason: "REMOTE_NEWER" });
    expect(await allConflicts(key, kb.id)).toEqual([]);
    expect((await counters(user.id)).branches).toBe(0);
  });

  test("a text past the inline size is kept in the object store by the branch, not removed with the batch's leftovers", async () => {
    const { key, kb, base } = await staleSetup();
    const big = `${"b".repeat(300 * 1024)}\n`;
    const res = await sync2(key, kb.id, [upsert2("n.md", big, { baseUpdatedAt: base })], PRESERVE);
    const branchId = res.body.data.results[0].branchId;
    expect((await callJson("GET", `/v1/kbs/${kb.id}/conflicts/${branchId}`, { token: key })).body.data.content).toBe(big);
    expect((await callJson("POST", `/v1/kbs/${kb.id}/conflicts/${branchId}/accept`, { token: key })).status).toBe(200);
    expect(await raw(key, kb.id, "n.md")).toBe(big);
  });

  test("the v2 manifest says which documents have pending branches, and its ETag changes when that does", async () => {
    const { key, kb, docId, base } = await staleSetup();
    await pushed2(key, kb.id, [upsert2("calm.md", "calm")]);
    const before = await manifest2(key, kb.id);
    expect(before.body.data.items.map((i: { hasPendingBranches: boolean }) => i.hasPendingBranches)).toEqual([false, false]);
    const etag = before.headers.get("etag")!;
    expect((await call("GET", `/v1/kbs/${kb.id}/manifest`, { token: key, headers: { "service-sync-version": "2", "if-none-match": etag } })).status).toBe(304);

    const branchId = (await preserved(key, kb.id, [upsert2("n.md", "mine", { baseUpdatedAt: base })])).results[0]!.branchId as string;
    const after = await manifest2(key, kb.id, {}, { headers: { "if-none-match": etag } });
    expect(after.status).toBe(200);
    expect(after.body.data.items.map((i: { docId: string; hasPendingBranches: boolean }) => [i.docId, i.hasPendingBranches])).toEqual([
      [docId, true],
      [expect.any(String), false],
    ]);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect((await call("DELETE", `/v1/kbs/${kb.id}/conflicts/${branchId}`, { token: key })).status).toBe(204);
    const discarded = await manifest2(key, kb.id, {}, { headers: { "if-none-match": after.headers.get("etag")! } });
    expect(discarded.status).toBe(200);
    expect(discarded.body.data.items[0].hasPendingBranches).toBe(false);
  });
});

describe("branches when their document is deleted for good", () => {
  test("a move onto the path of a deleted document hands its pending branches to the moved one; accepting one then keeps the moved text as a revision (history on)", async () => {
    const { user, key } = await makeClient();
    const kb = await newKb(key);
    const x = (await pushed2(key, kb.id, [upsert2("x.md", "x v1")])).results[0]!;
    await pushed2(key, kb.id, [delete2("x.md", { baseUpdatedAt: x.updatedAt })]);
    const branchId = (await preserved(key, kb.id, [update2(x.docId!, "x edited", { baseUpdatedAt: x.updatedAt })])).results[0]!.branchId!;
    const y = (await pushed2(key, kb.id, [upsert2("y.md", "y text")])).results[0]!;
    const moved = await pushed2(key, kb.id, [move2("y.md", "x.md", "y text", { baseUpdatedAt: y.updatedAt })]);
    expect(moved.results[0]).toMatchObject({ status: "applied", docId: y.docId, relativePath: "x.md" });
    expect(await allConflicts(key, kb.id)).toEqual([
      expect.objectContaining({ branchId, docId: y.docId, relativePath: "x.md", sourceHash: sha256("x edited") }),
    ]);
    expect((await manifest2(key, kb.id)).body.data.items.find((i: { relativePath: string }) => i.relativePath === "x.md")).toMatchObject({
      docId: y.docId,
      hasPendingBranches: true,
    });
    expect(await counters(user.id)).toEqual({ imgStorage: Buffer.byteLength("y text") + Buffer.byteLength("x edited"), branches: 1 });
    await historyOn(user);
    expect((await callJson("POST", `/v1/kbs/${kb.id}/conflicts/${branchId}/accept`, { token: key })).body.data).toMatchObject({
      docId: y.docId,
      relativePath: "x.md",
      savedRevision: { revNumber: 1 },
    });
    expect(await raw(key, kb.id, "x.md")).toBe("x edited");
  });

  test("deleting the KB and purging it takes the branches of every document, deleted ones included, and gives back what they held", async () => {
    const { user, key } = await makeClient();
    const kb = await newKb(key);
    const x = (await pushed2(key, kb.id, [upsert2("x.md", "x v1")])).results[0]!;
    await pushed2(key, kb.id, [delete2("x.md", { baseUpdatedAt: x.updatedAt })]);
    await preserved(key, kb.id, [update2(x.docId!, "x edited", { baseUpdatedAt: x.updatedAt })]);
    expect((await counters(user.id)).branches).toBe(1);
    expect((await call("DELETE", `/v1/kbs/${kb.id}?cascade=true`, { token: key })).status).toBe(204);
    expect((await call("DELETE", `/v1/trash/${kb.id}`, { token: user.jwt })).status).toBe(204);
    expect(await counters(user.id)).toEqual({ imgStorage: 0, branches: 0 });
  });
});

describe("preserve_both limits", () => {
  test("a 6th pending branch of a document is 422 CONFLICT_BRANCH_LIMIT_PER_DOC for the whole request: nothing of the batch is written", async () => {
    const { user, key, kb, base } = await staleSetup();
    for (let i = 0; i < 5; i++) await preserved(key, kb.id, [upsert2("n.md", `take ${i}`, { baseUpdatedAt: base })]);
    const res = await sync2(key, kb.id, [upsert2("new.md", "new"), upsert2("n.md", "take 5", { baseUpdatedAt: base })], PRESERVE);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, code: "CONFLICT_BRANCH_LIMIT_PER_DOC", meta: { limit: 5, relativePath: "n.md" } });
    expect((await call("GET", `/v1/kbs/${kb.id}/raw?path=new.md`, { token: key })).status).toBe(404);
    expect((await counters(user.id)).branches).toBe(5);
  });

  test("the 101st pending branch of a user is 422 CONFLICT_BRANCH_LIMIT_PER_USER", async () => {
    const { user, key, kb, base } = await staleSetup();
    const other = await newKb(key);
    await pushed2(
      key,
      other.id,
      Array.from({ length: 20 }, (_, i) => upsert2(`d${i}.md`, `d${i}`)),
    );
    for (let i = 0; i < 20; i++) for (let j = 0; j < 5; j++) await openTestBranch(user.id, other.id, `d${i}.md`, `take ${j}`);
    const res = await sync2(key, kb.id, [upsert2("n.md", "one more", { baseUpdatedAt: base })], PRESERVE);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: "CONFLICT_BRANCH_LIMIT_PER_USER", meta: { limit: 100, used: 100 } });
    expect(await allConflicts(key, kb.id)).toEqual([]);
  });

  test("past the plan's branch size: 422 CONFLICT_BRANCH_LIMIT_SIZE; past 120% of img_storage the op is skipped QUOTA_EXCEEDED", async () => {
    const { deps } = await testContext();
    const services = createServices({ ...deps, plans: buildPlans({ trial: { maxBranchBytes: 300, imageStorageBytes: 1000 } }) });
    closers.push(() => services.close());
    const app = createModuleApp(services, kbsModule(routeServices(services)));
    const { user, key } = await makeClient();
    const kb = (await callJson("POST", "/v1/kbs", { token: key, json: { name: "small" }, app })).body.data;
    const first = (await pushed2(key, kb.id, [upsert2("n.md", "m".repeat(800))], { app })).results[0]!;
    const stale = { baseUpdatedAt: first.updatedAt! };
    await pushed2(key, kb.id, [upsert2("n.md", "m".repeat(900), stale)], { app });

    const big = await sync2(key, kb.id, [upsert2("n.md", "x".repeat(301), stale)], { ...PRESERVE, app });
    expect(big.status).toBe(422);
    expect(big.body).toMatchObject({ code: "CONFLICT_BRANCH_LIMIT_SIZE", meta: { limit: 300, size: 301 } });
    expect((await preserved(key, kb.id, [upsert2("n.md", "y".repeat(250), stale)], app)).results[0]!.status).toBe("conflict_branch_created");
    expect(await counters(user.id)).toEqual({ imgStorage: 1150, branches: 1 });
    const over = await preserved(key, kb.id, [upsert2("n.md", "z".repeat(51), stale)], app);
    expect(over.results[0]).toMatchObject({ status: "skipped", reason: "QUOTA_EXCEEDED", meta: { type: "img_storage", used: 1150, limit: 1200 } });
    expect(await counters(user.id)).toEqual({ imgStorage: 1150, branches: 1 });
    expect(await raw(key, kb.id, "n.md", app)).toBe("m".repeat(900));
  });
});
