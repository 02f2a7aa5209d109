// The plan's cap on an account's version-history bytes (planLimits.revisionBytes): a write
// that would pass it prunes the account's oldest revisions, across its documents, in the
// same transaction, whatever saved the revision (an upload into a KB path, v1 and v2 sync,
// a restore, an accepted conflict branch); the live write always succeeds; a content larger
// than the whole cap is not kept. Counters equal the rows and pruned objects leave storage.
// Each test runs on an app whose trial plan has a small cap, on a clock of its own.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { docRevisions, documents } from "../../src/modules/library/documents/table.ts";
import type { PlanOverrides } from "../../src/modules/identity/public.ts";
import { adminCli } from "../helpers/admin-cli.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, type TestUser } from "../helpers/factories.ts";
import { openTestBranch } from "../branches/fixtures.ts";
import { sync, upsert } from "../kbs/fixtures.ts";
import { pushed2, update2 } from "../kbs/v2-fixtures.ts";
import { closeWorlds, stoppedWorld } from "../jobs/world.ts";
import { makeKb } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

afterAll(closeWorlds);

/** Past the 256 KiB kept inline: each such content is one object of its own. */
const BIG = 300 * 1024;
const FUTURE = "2100-01-01T00:00:00.000Z";

/** A content of exactly `size` bytes that starts with `tag`. */
const sized = (tag: string, size: number) => `${tag}\n`.padEnd(size, "x");

type World = Awaited<ReturnType<typeof stoppedWorld>>;

/** An app whose trial plan keeps at most `cap` bytes of history, and a client with history on. */
async function cappedWorld(cap: number, extra: PlanOverrides["trial"] = {}) {
  const world = await stoppedWorld(undefined, { trial: { revisionBytes: cap, ...extra } });
  const { user, key } = await makeClient();
  await setHistory(world, user, { docVersioningEnabled: true, docVersioningMax: 500 });
  return { world, user, key, kbId: await makeKb(user) };
}

async function setHistory(world: World, user: TestUser, json: { docVersioningEnabled: boolean; docVersioningMax?: number }) {
  expect((await callJson("PATCH", "/v1/user/me", { token: user.jwt, json, app: world.app })).status).toBe(200);
}

/** Puts `content` at a KB path through POST /v1/docs, a second later than the last write; the document's id. */
async function put(world: World, key: string, kbId: string, path: string, content: string): Promise<string> {
  world.clock.advance(1000);
  const res = await callJson("POST", "/v1/docs", { token: key, json: { filename: path, content, kbId, relativePath: path }, app: world.app });
  expect([200, 201]).toContain(res.status);
  return res.body.data.id;
}

const revisionsOf = async (world: World, key: string, id: string) =>
  (await callJson("GET", `/v1/docs/${id}/revisions`, { token: key, app: world.app })).body.data as {
    revisions: { id: string; revNumber: number; sizeBytes: number; origin: string; createdAt: string }[];
    totalBytes: number;
  };
const revNumbers = async (world: World, key: string, id: string) => (await revisionsOf(world, key, id)).revisions.map((r) => r.revNumber);
const raw = async (world: World, key: string, id: string) => await (await call("GET", `/v1/docs/${id}/raw`, { token: key, app: world.app })).text();
const usageOf = async (world: World, user: TestUser) =>
  (await callJson("GET", "/v1/user/me/usage", { token: (await makeKey(user, ["usage.read"])).key, app: world.app })).body.data;

/** The stored objects under the user's documents, and the keys the user's rows name. */
async function objectsOf(userId: string) {
  const { deps } = await testContext();
  const stored: string[] = [];
  for await (const o of deps.storage.list(`docs/${userId}/`)) stored.push(o.key);
  const live = await deps.db.select({ k: documents.objectKey }).from(documents).where(eq(documents.ownerId, userId));
  const kept = await deps.db.select({ k: docRevisions.objectKey }).from(docRevisions).where(eq(docRevisions.ownerId, userId));
  const named = [...live, ...kept].flatMap((r) => (r.k ? [r.k] : []));
  return { stored: stored.sort(), named: named.sort() };
}

/** The object key of one revision (not shown by the API), read from its row. */
async function objectOfRevision(revId: string): Promise<string | null> {
  const { deps } = await testContext();
  const [row] = await deps.db.select({ k: docRevisions.objectKey }).from(docRevisions).where(eq(docRevisions.id, revId));
  return row?.k ?? null;
}

/** The books hold: the usage counters equal the sums of the rows, history within the cap. */
async function expectBooksKept(world: World, user: TestUser) {
  const verify = await adminCli("usage", "verify", "--email", user.email);
  expect(verify.out).toEqual(["1 users, 0 counters differ from their rows"]);
  const usage = await usageOf(world, user);
  expect(usage.planLimits.revisionBytes).toBe(world.deps.plans.trial.revisionBytes);
  expect(usage.docs.revisionBytes).toBeLessThanOrEqual(usage.planLimits.revisionBytes);
  return usage;
}

describe("the plan's cap on history bytes", () => {
  test("uploads into KB paths: the account's oldest revisions go first, across documents; their objects leave storage; newest contents intact", async () => {
    const { world, user, key, kbId } = await cappedWorld(Math.floor(BIG * 2.5));
    const a = await put(world, key, kbId, "a.md", sized("a0", BIG));
    const b = await put(world, key, kbId, "b.md", sized("b0", BIG));
    await put(world, key, kbId, "a.md", sized("a1", BIG)); // a#1 keeps a0
    await put(world, key, kbId, "b.md", sized("b1", BIG)); // b#1 keeps b0
    expect(await revNumbers(world, key, a)).toEqual([1]);
    expect(await revNumbers(world, key, b)).toEqual([1]);
    const [oldestOfA] = (await revisionsOf(world, key, a)).revisions;
    const oldestObject = await objectOfRevision(oldestOfA!.id);
    expect(oldestObject).not.toBeNull();
    expect(await world.deps.storage.head(oldestObject!)).not.toBeNull();

    // A third revision would pass 2.5 contents: the oldest of the account (a#1) goes.
    await put(world, key, kbId, "a.md", sized("a2", BIG)); // a#2 keeps a1
    expect(await revNumbers(world, key, a)).toEqual([2]);
    expect(await revNumbers(world, key, b)).toEqual([1]);
    expect(await world.deps.storage.head(oldestObject!)).toBeNull();
    // Then b#1, the oldest left, though the write is to b; then a#2.
    await put(world, key, kbId, "b.md", sized("b2", BIG)); // b#2 keeps b1
    await put(world, key, kbId, "a.md", sized("a3", BIG)); // a#3 keeps a2
    expect(await revNumbers(world, key, a)).toEqual([3]);
    expect(await revNumbers(world, key, b)).toEqual([2]);
    const kept = (await revisionsOf(world, key, a)).revisions[0]!;
    expect((await callJson("GET", `/v1/docs/${a}/revisions/${kept.id}`, { token: key, app: world.app })).body.data.content).toBe(sized("a2", BIG));
    expect(await raw(world, key, a)).toBe(sized("a3", BIG));
    expect(await raw(world, key, b)).toBe(sized("b2", BIG));

    const usage = await expectBooksKept(world, user);
    expect(usage.docs).toEqual({ revisionCount: 2, revisionBytes: 2 * BIG });
    expect((await revisionsOf(world, key, a)).totalBytes + (await revisionsOf(world, key, b)).totalBytes).toBe(2 * BIG);
    // Two documents and two revisions hold an object each; the five pruned or replaced ones are gone.
    const objects = await objectsOf(user.id);
    expect(objects.stored).toEqual(objects.named);
    expect(objects.stored).toHaveLength(4);
  });

  test("one v1 push of 100 upserts at one path: the newest revisions stay within the cap, the account's older ones (another document's too) pruned", async () => {
    const { world, user, key, kbId } = await cappedWorld(1000);
    // An earlier revision of another document: older than anything the push saves.
    const old = await put(world, key, kbId, "old.md", sized("old0", 100));
    await put(world, key, kbId, "old.md", sized("old1", 100));
    expect(await revNumbers(world, key, old)).toEqual([1]);

    world.clock.advance(1000);
    const ops = Array.from({ length: 100 }, (_, i) => upsert("n.md", sized(`v${i}`, 100), FUTURE));
    const res = await sync(key, kbId, ops, { app: world.app });
    expect(res.status).toBe(200);
    expect(res.body.data.applied).toHaveLength(100);
    const id = res.body.data.applied[0].id;

    // 99 revisions of 100 bytes were saved; 10 fit in 1000 bytes: the newest, 99 down to 90.
    expect(await revNumbers(world, key, id)).toEqual([99, 98, 97, 96, 95, 94, 93, 92, 91, 90]);
    expect(await revNumbers(world, key, old)).toEqual([]);
    expect(await raw(world, key, id)).toBe(sized("v99", 100));
    expect(await raw(world, key, old)).toBe(sized("old1", 100));
    const usage = await expectBooksKept(world, user);
    expect(usage.docs).toEqual({ revisionCount: 10, revisionBytes: 1000 });
    expect((await revisionsOf(world, key, id)).totalBytes).toBe(1000);
  });

  test("a v2 push of large updates: the revisions pruned at the batch's end leave storage", async () => {
    const { world, user, key, kbId } = await cappedWorld(Math.floor(BIG * 2.5));
    const id = await put(world, key, kbId, "big.md", sized("c0", BIG));
    world.clock.advance(1000);
    const out = await pushed2(
      key,
      kbId,
      [1, 2, 3, 4].map((i) => update2(id, sized(`c${i}`, BIG), { baseUpdatedAt: FUTURE })),
      { app: world.app },
    );
    expect(out.results.map((r) => r.status)).toEqual(["applied", "applied", "applied", "applied"]);
    expect(await revNumbers(world, key, id)).toEqual([4, 3]);
    expect(await raw(world, key, id)).toBe(sized("c4", BIG));
    const usage = await expectBooksKept(world, user);
    expect(usage.docs).toEqual({ revisionCount: 2, revisionBytes: 2 * BIG });
    const objects = await objectsOf(user.id);
    expect(objects.stored).toEqual(objects.named);
    expect(objects.stored).toHaveLength(3);
  });

  test("a restore with history off still keeps the current content, and prunes the account's oldest to stay within the cap", async () => {
    const { world, user, key, kbId } = await cappedWorld(250);
    const id = await put(world, key, kbId, "n.md", sized("v0", 100));
    await put(world, key, kbId, "n.md", sized("v1", 100));
    await put(world, key, kbId, "n.md", sized("v2", 100));
    await setHistory(world, user, { docVersioningEnabled: false });
    const second = (await revisionsOf(world, key, id)).revisions.find((r) => r.revNumber === 2)!;
    world.clock.advance(1000);
    const res = await callJson("POST", `/v1/docs/${id}/revisions/${second.id}/restore`, { token: key, app: world.app });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ duplicate: false, savedRevision: { revNumber: 3 } });
    expect((await revisionsOf(world, key, id)).revisions.map((r) => [r.revNumber, r.origin])).toEqual([
      [3, "restore"],
      [2, "upload"],
    ]);
    expect(await raw(world, key, id)).toBe(sized("v1", 100));
    expect((await expectBooksKept(world, user)).docs).toEqual({ revisionCount: 2, revisionBytes: 200 });
  });

  test("accepting a conflict branch keeps the master as a revision through the same cap", async () => {
    const { world, user, key, kbId } = await cappedWorld(250);
    const id = await put(world, key, kbId, "n.md", sized("v0", 100));
    await put(world, key, kbId, "n.md", sized("v1", 100));
    await put(world, key, kbId, "n.md", sized("v2", 100));
    const branch = await openTestBranch(user.id, kbId, "n.md", sized("mine", 100), world.deps);
    world.clock.advance(1000);
    const res = await callJson("POST", `/v1/kbs/${kbId}/conflicts/${branch.id}/accept`, { token: key, app: world.app });
    expect(res.status).toBe(200);
    expect(await revNumbers(world, key, id)).toEqual([3, 2]);
    expect(await raw(world, key, id)).toBe(sized("mine", 100));
    expect((await expectBooksKept(world, user)).docs).toEqual({ revisionCount: 2, revisionBytes: 200 });
  });

  test("a content larger than the whole cap is not kept: the write succeeds, older revisions stay, its object leaves storage", async () => {
    const { world, user, key, kbId } = await cappedWorld(BIG - 1);
    const id = await put(world, key, kbId, "n.md", sized("s0", 100));
    await put(world, key, kbId, "n.md", sized("big", BIG)); // #1 keeps s0
    expect(await put(world, key, kbId, "n.md", sized("s2", 100))).toBe(id); // the big content is not kept
    expect(await revNumbers(world, key, id)).toEqual([1]);
    expect(await raw(world, key, id)).toBe(sized("s2", 100));
    expect((await expectBooksKept(world, user)).docs).toEqual({ revisionCount: 1, revisionBytes: 100 });
    expect((await objectsOf(user.id)).stored).toEqual([]);
  });
});
