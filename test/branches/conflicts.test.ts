// A KB's conflict branches over HTTP (docs/sync.md, "Conflict branches"): the list, one
// branch with its content, accept (the branch becomes master, the old master a revision
// when history is on, siblings stay) and discard; what they hold in the usage ledger; and
// no user reaching another's.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { conflictBranches } from "../../src/modules/library/kbs/table.ts";
import { updateUser } from "../../src/modules/identity/public.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeKey, makeUser, type TestUser } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { del, fullManifest, newKb, pushed, sha256, upsert } from "../kbs/fixtures.ts";
import { allConflicts, counters, kbWith, openTestBranch } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const DAY = 86_400_000;
const utf8 = (s: string) => Buffer.byteLength(s, "utf8");
/** Sets the user's version history through PATCH /v1/user/me. */
const history = async (user: TestUser, json: { docVersioningEnabled: boolean; docVersioningMax?: number }) =>
  expect((await callJson("PATCH", "/v1/user/me", { token: user.jwt, json })).status).toBe(200);
/** docs.revisionCount and docs.revisionBytes of GET /v1/user/me/usage. */
const revisionUsage = async (user: TestUser) =>
  (await callJson("GET", "/v1/user/me/usage", { token: (await makeKey(user, ["usage.read"])).key })).body.data.docs;
const raw = async (token: string, kbId: string, path: string) => {
  const res = await call("GET", `/v1/kbs/${kbId}/raw?path=${encodeURIComponent(path)}`, { token });
  return { status: res.status, text: await res.text(), hash: res.headers.get("x-source-hash") };
};

describe("GET /v1/kbs/:id/conflicts", () => {
  test("lists the KB's pending branches oldest first with docId, relativePath, branchId, sourceHash, sizeBytes, createdAt and expiresAt (30 days)", async () => {
    const { user, key, kb, ids } = await kbWith({ "a.md": "master a", "b.md": "master b" });
    const first = await openTestBranch(user.id, kb.id, "a.md", "mine a");
    const second = await openTestBranch(user.id, kb.id, "b.md", "mine b 😀");
    const res = await callJson("GET", `/v1/kbs/${kb.id}/conflicts`, { token: key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { nextCursor: null } });
    expect(res.body.data.items).toEqual([
      {
        branchId: first.id,
        docId: ids["a.md"],
        relativePath: "a.md",
        kind: "document",
        sourceHash: sha256("mine a"),
        sizeBytes: utf8("mine a"),
        createdAt: first.createdAt.toISOString(),
        expiresAt: new Date(first.createdAt.getTime() + 30 * DAY).toISOString(),
      },
      expect.objectContaining({ branchId: second.id, docId: ids["b.md"], relativePath: "b.md", sizeBytes: utf8("mine b 😀") }),
    ]);
    // Another KB of the same user lists none of them.
    const other = await newKb(key);
    expect((await callJson("GET", `/v1/kbs/${other.id}/conflicts`, { token: key })).body.data).toEqual({ items: [], nextCursor: null });
  });

  test("pages through the one cursor codec; a bad cursor is 400 INVALID_CURSOR and a bad limit 422", async () => {
    const { user, key, kb } = await kbWith({ "a.md": "a" });
    const opened = [];
    for (let i = 0; i < 5; i++) opened.push((await openTestBranch(user.id, kb.id, "a.md", `v${i}`)).id);
    const page = await callJson("GET", `/v1/kbs/${kb.id}/conflicts?limit=2`, { token: key });
    expect(page.body.data.items).toHaveLength(2);
    expect(page.body.data.nextCursor).toBeString();
    expect((await allConflicts(key, kb.id)).map((b) => b.branchId)).toEqual(opened);
    const bad = await callJson("GET", `/v1/kbs/${kb.id}/conflicts?cursor=not-a-cursor`, { token: key });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("INVALID_CURSOR");
    for (const limit of ["0", "51", "x"]) expect((await callJson("GET", `/v1/kbs/${kb.id}/conflicts?limit=${limit}`, { token: key })).status).toBe(422);
  });
});

describe("GET /v1/kbs/:id/conflicts/:branchId", () => {
  test("answers the branch with its content and its master's state now, inline or from the object store", async () => {
    const { user, key, kb, applied } = await kbWith({ "n.md": "master" });
    const small = await openTestBranch(user.id, kb.id, "n.md", "# mine\n");
    const res = await callJson("GET", `/v1/kbs/${kb.id}/conflicts/${small.id}`, { token: key });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      branchId: small.id,
      relativePath: "n.md",
      content: "# mine\n",
      sourceHash: sha256("# mine\n"),
      masterHash: sha256("master"),
      currentMasterHash: sha256("master"),
      currentMasterUpdatedAt: applied[0]!.updatedAt,
      currentMasterPath: "n.md",
    });
    const big = "x".repeat(300 * 1024);
    const large = await openTestBranch(user.id, kb.id, "n.md", big);
    expect(large.objectKey).toBeString();
    expect(large.content).toBeNull();
    expect((await callJson("GET", `/v1/kbs/${kb.id}/conflicts/${large.id}`, { token: key })).body.data.content).toBe(big);
  });

  test("a branch id that is not one of the KB's pending branches is 404; a malformed one 422", async () => {
    const { user, key, kb } = await kbWith({ "n.md": "master" });
    const branch = await openTestBranch(user.id, kb.id, "n.md", "mine");
    const other = await newKb(key);
    for (const path of [`/v1/kbs/${other.id}/conflicts/${branch.id}`, `/v1/kbs/${kb.id}/conflicts/${"z".repeat(21)}`]) {
      const res = await callJson("GET", path, { token: key });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("NOT_FOUND");
    }
    expect((await callJson("GET", `/v1/kbs/${kb.id}/conflicts/short`, { token: key })).status).toBe(422);
  });
});

describe("POST /v1/kbs/:id/conflicts/:branchId/accept", () => {
  test("the branch becomes master in one step: the old master is a revision (history on), the other pending branches stay, the ledger holds the new master only", async () => {
    const { user, key, kb, ids, applied } = await kbWith({ "n.md": "the master text" });
    await history(user, { docVersioningEnabled: true });
    const docId = ids["n.md"]!;
    const taken = await openTestBranch(user.id, kb.id, "n.md", "# Adopted\nthe branch text");
    const sibling = await openTestBranch(user.id, kb.id, "n.md", "another take");
    expect(await counters(user.id)).toEqual({ imgStorage: utf8("the master text") + utf8("# Adopted\nthe branch text") + utf8("another take"), branches: 2 });

    const res = await callJson("POST", `/v1/kbs/${kb.id}/conflicts/${taken.id}/accept`, { token: key });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      branchId: taken.id,
      status: "adopted",
      docId,
      relativePath: "n.md",
      sourceHash: sha256("# Adopted\nthe branch text"),
      sizeBytes: utf8("# Adopted\nthe branch text"),
      savedRevision: { revNumber: 1 },
    });
    // Master is the branch's text, with the title it gives; the old text is revision 1.
    expect(await raw(key, kb.id, "n.md")).toMatchObject({ status: 200, text: "# Adopted\nthe branch text", hash: sha256("# Adopted\nthe branch text") });
    expect((await callJson("GET", `/v1/docs/${docId}`, { token: key })).body.data).toMatchObject({ id: docId, title: "Adopted" });
    const revisions = await callJson("GET", `/v1/docs/${docId}/revisions`, { token: key });
    expect(revisions.body.data.revisions).toEqual([expect.objectContaining({ revNumber: 1, origin: "sync", sourceHash: sha256("the master text") })]);
    const rev = await callJson("GET", `/v1/docs/${docId}/revisions/${revisions.body.data.revisions[0].id}`, { token: key });
    expect(rev.body.data.content).toBe("the master text");
    // The manifest reports the new master at a new time; the sibling is still pending.
    const entry = (await fullManifest(key, kb.id)).items.find((i) => i.relativePath === "n.md")!;
    expect(entry).toMatchObject({ sourceHash: sha256("# Adopted\nthe branch text"), updatedAt: res.body.data.updatedAt });
    expect((await allConflicts(key, kb.id)).map((b) => b.branchId)).toEqual([sibling.id]);
    expect(await counters(user.id)).toEqual({ imgStorage: utf8("# Adopted\nthe branch text") + utf8("another take"), branches: 1 });
    const { deps } = await testContext();
    const [row] = await deps.db.select().from(conflictBranches).where(eq(conflictBranches.id, taken.id));
    expect(row).toMatchObject({ status: "adopted", content: null, objectKey: null });
    expect(row!.adoptedAt).toBeInstanceOf(Date);

    // Adopted is no longer pending: accepting or discarding it again is 404.
    expect((await callJson("POST", `/v1/kbs/${kb.id}/conflicts/${taken.id}/accept`, { token: key })).status).toBe(404);
    expect((await callJson("DELETE", `/v1/kbs/${kb.id}/conflicts/${taken.id}`, { token: key })).status).toBe(404);
    // A sync client that held the old master's updatedAt is now behind.
    const stale = await pushed(key, kb.id, [upsert("n.md", "late edit", applied[0]!.updatedAt)]);
    expect(stale.conflicts).toEqual([expect.objectContaining({ reason: "REMOTE_NEWER" })]);
  });

  test("with version history off (the default) accepting keeps no revision: none listed, none counted, savedRevision null", async () => {
    const { user, key, kb, ids } = await kbWith({ "n.md": "the master text" });
    const branch = await openTestBranch(user.id, kb.id, "n.md", "the branch text");
    const res = await callJson("POST", `/v1/kbs/${kb.id}/conflicts/${branch.id}/accept`, { token: key });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "adopted", sourceHash: sha256("the branch text"), savedRevision: null });
    expect(await raw(key, kb.id, "n.md")).toMatchObject({ text: "the branch text" });
    expect((await callJson("GET", `/v1/docs/${ids["n.md"]}/revisions`, { token: key })).body.data).toEqual({ revisions: [], totalBytes: 0 });
    expect(await revisionUsage(user)).toEqual({ revisionCount: 0, revisionBytes: 0 });
    expect(await counters(user.id)).toEqual({ imgStorage: utf8("the branch text"), branches: 0 });
  });

  test("with version history on, each accept keeps the master it replaces, pruned to docVersioningMax", async () => {
    const { user, key, kb, ids } = await kbWith({ "n.md": "master one" });
    await history(user, { docVersioningEnabled: true, docVersioningMax: 1 });
    const docId = ids["n.md"]!;
    const first = await openTestBranch(user.id, kb.id, "n.md", "branch two");
    expect((await callJson("POST", `/v1/kbs/${kb.id}/conflicts/${first.id}/accept`, { token: key })).body.data.savedRevision).toMatchObject({ revNumber: 1 });
    expect(await revisionUsage(user)).toEqual({ revisionCount: 1, revisionBytes: utf8("master one") });
    const second = await openTestBranch(user.id, kb.id, "n.md", "branch three!");
    expect((await callJson("POST", `/v1/kbs/${kb.id}/conflicts/${second.id}/accept`, { token: key })).body.data.savedRevision).toMatchObject({ revNumber: 2 });
    const revisions = (await callJson("GET", `/v1/docs/${docId}/revisions`, { token: key })).body.data;
    expect(revisions).toEqual({
      revisions: [expect.objectContaining({ revNumber: 2, origin: "sync", sourceHash: sha256("branch two") })],
      totalBytes: utf8("branch two"),
    });
    expect(await revisionUsage(user)).toEqual({ revisionCount: 1, revisionBytes: utf8("branch two") });
  });

  test("a branch held in the object store is handed to the document: readable after the accept, and the master's bytes given back", async () => {
    const big = `${"y".repeat(400 * 1024)}\n`;
    const { user, key, kb, ids } = await kbWith({ "big.md": "small master" });
    const branch = await openTestBranch(user.id, kb.id, "big.md", big);
    expect((await callJson("POST", `/v1/kbs/${kb.id}/conflicts/${branch.id}/accept`, { token: key })).status).toBe(200);
    const { deps } = await testContext();
    expect(new TextDecoder().decode((await deps.storage.read(branch.objectKey!))!)).toBe(big);
    expect((await raw(key, kb.id, "big.md")).text).toBe(big);
    expect((await callJson("GET", `/v1/docs/${ids["big.md"]}`, { token: key })).body.data.hasInlineContent).toBe(false);
    expect(await counters(user.id)).toEqual({ imgStorage: utf8(big), branches: 0 });
  });

  test("accepting the branch of a master deleted since recreates it at its path; one equal to master only ends the branch", async () => {
    const { user, key, kb, applied } = await kbWith({ "gone.md": "was here", "same.md": "same text" });
    const revive = await openTestBranch(user.id, kb.id, "gone.md", "bring it back");
    const same = await openTestBranch(user.id, kb.id, "same.md", "same text");
    await pushed(key, kb.id, [del("gone.md", applied.find((a) => a.relativePath === "gone.md")!.updatedAt)]);
    expect((await raw(key, kb.id, "gone.md")).status).toBe(404);
    expect((await callJson("GET", `/v1/kbs/${kb.id}/conflicts/${revive.id}`, { token: key })).body.data).toMatchObject({
      currentMasterHash: null,
      currentMasterUpdatedAt: null,
    });

    expect((await callJson("POST", `/v1/kbs/${kb.id}/conflicts/${revive.id}/accept`, { token: key })).body.data).toMatchObject({
      relativePath: "gone.md",
      savedRevision: null,
    });
    expect((await raw(key, kb.id, "gone.md")).text).toBe("bring it back");
    const before = (await fullManifest(key, kb.id)).items.find((i) => i.relativePath === "same.md")!;
    const res = await callJson("POST", `/v1/kbs/${kb.id}/conflicts/${same.id}/accept`, { token: key });
    expect(res.body.data).toMatchObject({ sourceHash: sha256("same text"), updatedAt: before.updatedAt, savedRevision: null });
    expect(await counters(user.id)).toEqual({ imgStorage: utf8("bring it back") + utf8("same text"), branches: 0 });
    expect((await callJson("GET", `/v1/kbs/${kb.id}`, { token: key })).body.data).toMatchObject({ docCount: 2 });
  });

  test("needs an active plan: 403 PLAN_INACTIVE, and the branch stays pending", async () => {
    const { user, key, kb } = await kbWith({ "n.md": "master" });
    const branch = await openTestBranch(user.id, kb.id, "n.md", "mine");
    const { deps } = await testContext();
    await updateUser(deps.db, user.id, { planExpiresAt: new Date(deps.clock.nowMs() - 1000) }, deps.clock.now());
    const res = await callJson("POST", `/v1/kbs/${kb.id}/conflicts/${branch.id}/accept`, { token: key });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("PLAN_INACTIVE");
    expect((await raw(key, kb.id, "n.md")).text).toBe("master");
    // Reading and discarding stay open to a lapsed plan.
    expect((await callJson("GET", `/v1/kbs/${kb.id}/conflicts/${branch.id}`, { token: key })).status).toBe(200);
    expect((await call("DELETE", `/v1/kbs/${kb.id}/conflicts/${branch.id}`, { token: key })).status).toBe(204);
  });
});

describe("accept and discard at the same moment", () => {
  test("one branch accepted twice and discarded at once: exactly one wins, the books stay exact", async () => {
    const { user, key, kb } = await kbWith({ "n.md": "master" });
    const branch = await openTestBranch(user.id, kb.id, "n.md", "mine!");
    const results = await Promise.all([
      call("POST", `/v1/kbs/${kb.id}/conflicts/${branch.id}/accept`, { token: key }),
      call("POST", `/v1/kbs/${kb.id}/conflicts/${branch.id}/accept`, { token: key }),
      call("DELETE", `/v1/kbs/${kb.id}/conflicts/${branch.id}`, { token: key }),
    ]);
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(2);
    const accepted = statuses[0] === 200 || statuses[1] === 200;
    expect((await raw(key, kb.id, "n.md")).text).toBe(accepted ? "mine!" : "master");
    expect(await counters(user.id)).toEqual({ imgStorage: accepted ? utf8("mine!") : utf8("master"), branches: 0 });
  });
});

describe("DELETE /v1/kbs/:id/conflicts/:branchId", () => {
  test("discards for good: gone from the list, its storage and its object given back, master untouched", async () => {
    const big = "z".repeat(300 * 1024);
    const { user, key, kb } = await kbWith({ "n.md": "master" });
    const branch = await openTestBranch(user.id, kb.id, "n.md", big);
    const res = await call("DELETE", `/v1/kbs/${kb.id}/conflicts/${branch.id}`, { token: key });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(await allConflicts(key, kb.id)).toEqual([]);
    expect((await callJson("GET", `/v1/kbs/${kb.id}/conflicts/${branch.id}`, { token: key })).status).toBe(404);
    expect((await call("DELETE", `/v1/kbs/${kb.id}/conflicts/${branch.id}`, { token: key })).status).toBe(404);
    const { deps } = await testContext();
    expect(await deps.storage.read(branch.objectKey!)).toBeNull();
    const [row] = await deps.db.select().from(conflictBranches).where(eq(conflictBranches.id, branch.id));
    expect(row).toMatchObject({ status: "discarded", discardReason: "user", content: null, objectKey: null });
    expect(await counters(user.id)).toEqual({ imgStorage: utf8("master"), branches: 0 });
    expect((await raw(key, kb.id, "n.md")).text).toBe("master");
  });

  test("deleting the KB with its documents, and purging it, takes its branches and gives back what they held", async () => {
    const { user, key, kb } = await kbWith({ "n.md": "master" });
    const branch = await openTestBranch(user.id, kb.id, "n.md", "w".repeat(300 * 1024));
    expect((await call("DELETE", `/v1/kbs/${kb.id}?cascade=true`, { token: key })).status).toBe(204);
    expect((await call("DELETE", `/v1/trash/${kb.id}`, { token: user.jwt })).status).toBe(204);
    const { deps } = await testContext();
    expect(await deps.db.select().from(conflictBranches).where(eq(conflictBranches.id, branch.id))).toEqual([]);
    expect(await deps.storage.read(branch.objectKey!)).toBeNull();
    expect(await counters(user.id)).toEqual({ imgStorage: 0, branches: 0 });
  });
});

describe("conflict routes: credentials, scopes and other users", () => {
  const withBranch = async (owner: TestUser) => {
    const { key } = await makeKey(owner);
    const kb = await newKb(key);
    await pushed(key, kb.id, [upsert("n.md", "master")]);
    const branch = await openTestBranch(owner.id, kb.id, "n.md", "mine");
    return `${kb.id}/${branch.id}`;
  };
  const stillPending = async (owner: TestUser, id: string) => {
    const [kbId, branchId] = id.split("/");
    const res = await callJson("GET", `/v1/kbs/${kbId}/conflicts/${branchId}`, { token: owner.jwt });
    expect(res.status).toBe(200);
    expect(res.body.data.content).toBe("mine");
  };
  for (const route of [
    { method: "GET", path: (id: string) => `/v1/kbs/${id.split("/")[0]}/conflicts`, scope: "kb.read" as const },
    { method: "GET", path: (id: string) => `/v1/kbs/${id.replace("/", "/conflicts/")}`, scope: "kb.read" as const },
    { method: "POST", path: (id: string) => `/v1/kbs/${id.replace("/", "/conflicts/")}/accept`, scope: "kb.write" as const },
    { method: "DELETE", path: (id: string) => `/v1/kbs/${id.replace("/", "/conflicts/")}`, scope: "kb.write" as const },
  ]) {
    test(`${route.method} ${route.path(":id/:branchId")}: 401 without credentials, 403 without ${route.scope}, 404 for another user`, async () => {
      await expectTenantIsolation({ ...route, create: withBranch, untouched: stillPending });
    });
  }

  test("another user's branch id under the caller's own KB is 404, and stays the owner's", async () => {
    const owner = await makeUser();
    const id = await withBranch(owner);
    const branchId = id.split("/")[1];
    const { key } = await makeKey(await makeUser());
    const mine = await newKb(key);
    for (const [method, suffix] of [
      ["GET", ""],
      ["POST", "/accept"],
      ["DELETE", ""],
    ] as const) {
      const res = await callJson(method, `/v1/kbs/${mine.id}/conflicts/${branchId}${suffix}`, { token: key });
      expect(res.status).toBe(404);
    }
    await stillPending(owner, id);
  });
});
