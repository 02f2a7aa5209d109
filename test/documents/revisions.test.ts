// Version history: revisions saved with each content replacement when it is on, pruned
// past docVersioningMax, listed and read back (also on an expired plan), restored (an
// active plan, the current content kept first), cleared 200 at a time; usage follows.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { updateUser } from "../../src/modules/identity/public.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, type TestUser } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { makeKb, postDoc, usageOf } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

async function historyOn(user: TestUser, max: number) {
  const res = await callJson("PATCH", "/v1/user/me", { token: user.jwt, json: { docVersioningEnabled: true, docVersioningMax: max } });
  expect(res.status).toBe(200);
}

/** A document in a KB given `versions` contents one after the other; returns its id. */
async function withVersions(user: TestUser, key: string, versions: string[]): Promise<string> {
  const kbId = await makeKb(user);
  let id = "";
  for (const content of versions) {
    const res = await postDoc(key, { filename: "n.md", content, kbId, relativePath: "n.md" });
    expect([200, 201]).toContain(res.status);
    id = res.body.data.id;
  }
  return id;
}

const revisionsOf = async (token: string, id: string) => (await callJson("GET", `/v1/docs/${id}/revisions`, { token })).body.data;
const raw = async (token: string, id: string) => await (await call("GET", `/v1/docs/${id}/raw`, { token })).text();

describe("version history", () => {
  test("off by default: a replacement keeps no revision", async () => {
    const { user, key } = await makeClient();
    const id = await withVersions(user, key, ["one\n", "two\n"]);
    expect(await revisionsOf(key, id)).toEqual({ revisions: [], totalBytes: 0 });
    expect(await raw(key, id)).toBe("two\n");
  });

  test("each replacement saves the previous content (origin upload); newest first; pruned at docVersioningMax; usage follows", async () => {
    const { user, key } = await makeClient();
    await historyOn(user, 3);
    const versions = ["v1\n", "v2 .\n", "v3 ..\n", "v4 ...\n", "v5 ....\n"];
    const id = await withVersions(user, key, versions);
    const list = await revisionsOf(key, id);
    expect(list.revisions.map((r: { revNumber: number }) => r.revNumber)).toEqual([4, 3, 2]);
    expect(list.revisions[0]).toMatchObject({ origin: "upload", sizeBytes: 7, sourceHash: new Bun.CryptoHasher("sha256").update("v4 ...\n").digest("hex") });
    expect(list.totalBytes).toBe(7 + 6 + 5);
    const one = await callJson("GET", `/v1/docs/${id}/revisions/${list.revisions[2].id}`, { token: key });
    expect(one.body.data).toMatchObject({ revNumber: 2, content: "v2 .\n" });
    const usage = await usageOf((await makeKey(user, ["usage.read"])).key);
    expect(usage.docs).toEqual({ revisionCount: 3, revisionBytes: 18 });
    expect(usage.image.storage.used).toBe(8);
    // Lowering the maximum prunes at the next replacement.
    await historyOn(user, 1);
    await postDoc(key, {
      filename: "n.md",
      content: "v6\n",
      kbId: (await callJson("GET", `/v1/docs/${id}`, { token: key })).body.data.kbId,
      relativePath: "n.md",
    });
    expect((await revisionsOf(key, id)).revisions.map((r: { revNumber: number }) => r.revNumber)).toEqual([5]);
    expect((await usageOf((await makeKey(user, ["usage.read"])).key)).docs).toEqual({ revisionCount: 1, revisionBytes: 8 });
  });

  test("uploads racing to one KB path take turns: one document, every earlier content kept as a revision, none lost", async () => {
    const { user, key } = await makeClient();
    await historyOn(user, 50);
    const kbId = await makeKb(user);
    const contents = ["r0\n", "r1\n", "r2\n", "r3\n", "r4\n"];
    const results = await Promise.all(contents.map((content) => postDoc(key, { filename: "n.md", content, kbId, relativePath: "race.md" })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    const ids = new Set(results.map((r) => r.body.data.id));
    expect(ids.size).toBe(1);
    const [id] = [...ids] as [string];
    const current = await raw(key, id);
    const { revisions } = await revisionsOf(key, id);
    expect(revisions.map((r: { revNumber: number }) => r.revNumber)).toEqual([4, 3, 2, 1]);
    const kept = await Promise.all(
      revisions.map(async (r: { id: string }) => (await callJson("GET", `/v1/docs/${id}/revisions/${r.id}`, { token: key })).body.data.content),
    );
    expect([current, ...kept].sort()).toEqual(contents);
    const usage = await usageOf((await makeKey(user, ["usage.read"])).key);
    expect(usage.doc.count.used).toBe(1);
    expect(usage.docs).toEqual({ revisionCount: 4, revisionBytes: 12 });
  });

  test("large contents are kept in object storage and read back identically", async () => {
    const { user, key } = await makeClient();
    await historyOn(user, 5);
    const big = "x".repeat(300 * 1024);
    const id = await withVersions(user, key, [big, "small\n"]);
    const [rev] = (await revisionsOf(key, id)).revisions;
    expect((await callJson("GET", `/v1/docs/${id}/revisions/${rev.id}`, { token: key })).body.data.content).toBe(big);
  });

  test("restore: the current content becomes a revision (origin restore), the document gets the old content; equal content is duplicate with no side effects", async () => {
    const { user, key } = await makeClient();
    await historyOn(user, 10);
    const id = await withVersions(user, key, ["first\n", "second\n"]);
    const [rev] = (await revisionsOf(key, id)).revisions;
    const res = await callJson("POST", `/v1/docs/${id}/revisions/${rev.id}/restore`, { token: key });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, duplicate: false, sizeBytes: 6, savedRevision: { revNumber: 2 } });
    expect(await raw(key, id)).toBe("first\n");
    const after = await revisionsOf(key, id);
    expect(after.revisions.map((r: { revNumber: number; origin: string }) => [r.revNumber, r.origin])).toEqual([
      [2, "restore"],
      [1, "upload"],
    ]);
    const again = await callJson("POST", `/v1/docs/${id}/revisions/${rev.id}/restore`, { token: key });
    expect(again.body.data).toMatchObject({ id, duplicate: true, savedRevision: null });
    expect((await revisionsOf(key, id)).revisions.length).toBe(2);
  });

  test("with an expired plan: list and read work, restore is 403 PLAN_INACTIVE, clearing works", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    await historyOn(user, 10);
    const id = await withVersions(user, key, ["a\n", "b\n"]);
    const [rev] = (await revisionsOf(key, id)).revisions;
    await updateUser(deps.db, user.id, { planExpiresAt: new Date(deps.clock.now().getTime() - 1000) }, deps.clock.now());
    expect((await revisionsOf(key, id)).revisions.length).toBe(1);
    expect((await callJson("GET", `/v1/docs/${id}/revisions/${rev.id}`, { token: key })).status).toBe(200);
    const res = await callJson("POST", `/v1/docs/${id}/revisions/${rev.id}/restore`, { token: key });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("PLAN_INACTIVE");
    expect(await raw(key, id)).toBe("b\n");
    expect((await callJson("DELETE", "/v1/user/me/doc-revisions", { token: key })).body.data).toEqual({ deleted: 1, freedBytes: 2, hasMore: false });
  });

  test("an unknown or another document's revision is 404 DOC_REVISION_NOT_FOUND", async () => {
    const { user, key } = await makeClient();
    await historyOn(user, 10);
    const a = await withVersions(user, key, ["a1\n", "a2\n"]);
    const b = await withVersions(user, key, ["b1\n", "b2\n"]);
    const [revOfB] = (await revisionsOf(key, b)).revisions;
    for (const path of [`/v1/docs/${a}/revisions/${revOfB.id}`, `/v1/docs/${a}/revisions/${"q".repeat(21)}`]) {
      const res = await callJson("GET", path, { token: key });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("DOC_REVISION_NOT_FOUND");
    }
    expect((await callJson("POST", `/v1/docs/${a}/revisions/${revOfB.id}/restore`, { token: key })).body.code).toBe("DOC_REVISION_NOT_FOUND");
  });

  test("DELETE /v1/user/me/doc-revisions: at most 200 a call with hasMore; usage goes back to zero", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    await historyOn(user, 500);
    const kbId = await makeKb(user);
    // 203 revisions: 204 contents at one path.
    for (let i = 0; i < 204; i++) {
      // Two minutes on every 50 uploads: the upload rate tier allows 60 a minute.
      deps.clock.advance(i % 50 === 49 ? 120_000 : 1);
      expect((await postDoc(key, { filename: "n.md", content: `v${i}\n`, kbId, relativePath: "n.md" })).status).toBeLessThan(300);
    }
    const first = await callJson("DELETE", "/v1/user/me/doc-revisions", { token: key });
    expect(first.body.data).toMatchObject({ deleted: 200, hasMore: true });
    const second = await callJson("DELETE", "/v1/user/me/doc-revisions", { token: key });
    expect(second.body.data).toMatchObject({ deleted: 3, hasMore: false });
    expect((await callJson("DELETE", "/v1/user/me/doc-revisions", { token: key })).body.data).toEqual({ deleted: 0, freedBytes: 0, hasMore: false });
    expect((await usageOf((await makeKey(user, ["usage.read"])).key)).docs).toEqual({ revisionCount: 0, revisionBytes: 0 });
  }, 60_000);

  test("a document deleted from a KB keeps its history in the trash, still counted; restored, it shows it again", async () => {
    const { user, key } = await makeClient();
    await historyOn(user, 10);
    const id = await withVersions(user, key, ["1\n", "2\n"]);
    const { kbId } = (await callJson("GET", `/v1/docs/${id}`, { token: key })).body.data;
    expect((await call("DELETE", `/v1/docs/${id}`, { token: key })).status).toBe(204);
    expect((await callJson("GET", `/v1/docs/${id}/revisions`, { token: key })).status).toBe(404);
    const usage = await usageOf((await makeKey(user, ["usage.read"])).key);
    expect(usage.docs.revisionCount).toBe(1);
    expect(usage.doc.count.used).toBe(1);
    expect((await callJson("GET", `/v1/docs?kbId=${kbId}`, { token: key })).body.data.items).toEqual([]);
    expect((await callJson("POST", `/v1/trash/${id}/restore`, { token: user.jwt })).status).toBe(200);
    expect((await callJson("GET", `/v1/docs/${id}`, { token: key })).body.data).toMatchObject({ kbId, relativePath: "n.md" });
    expect((await revisionsOf(key, id)).revisions.map((r: { revNumber: number }) => r.revNumber)).toEqual([1]);
    expect(await raw(key, id)).toBe("2\n");
  });

  test("tenancy: revisions routes are 401, 403 without the scope, 404 for another user's document", async () => {
    const create = async (owner: TestUser) => (await postDoc(owner.jwt, { filename: "a.md", content: `t ${Math.random()}` })).body.data.id;
    await expectTenantIsolation({ method: "GET", path: (id) => `/v1/docs/${id}/revisions`, scope: "kb.read", create });
    await expectTenantIsolation({ method: "DELETE", path: () => "/v1/user/me/doc-revisions", scope: "kb.write" });
  });
});
