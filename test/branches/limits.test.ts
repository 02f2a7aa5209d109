// The limits of conflict branches: 5 pending per document, 100 per user, a size
// per plan, and img_storage up to 20% past the plan's limit; a refusal leaves nothing.
// Branches are opened as a sync batch opens them (openTestBranch); the sync tests check
// the same refusals over HTTP.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { pendingBranchDocIds } from "../../src/modules/library/public.ts";
import { conflictBranches } from "../../src/modules/library/kbs/table.ts";
import { buildPlans } from "../../src/modules/identity/public.ts";
import { call, testContext } from "../helpers/context.ts";
import { newKb, pushed, upsert } from "../kbs/fixtures.ts";
import { counters, kbWith, openTestBranch } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const MB = 1024 * 1024;

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return e as { code?: string; status?: number; meta?: Record<string, unknown>; dimension?: string; used?: number; limit?: number };
  }
  throw new Error("expected a refusal");
};

describe("conflict branch limits", () => {
  test("5 pending per document: the 6th is 422 CONFLICT_BRANCH_LIMIT_PER_DOC and writes nothing; a resolved one makes room", async () => {
    const { user, key, kb, ids } = await kbWith({ "a.md": "a", "b.md": "b" });
    const opened = [];
    for (let i = 0; i < 5; i++) opened.push(await openTestBranch(user.id, kb.id, "a.md", `take ${i}`));
    const before = await counters(user.id);
    const e = await refusal(openTestBranch(user.id, kb.id, "a.md", "one too many"));
    expect(e).toMatchObject({ code: "CONFLICT_BRANCH_LIMIT_PER_DOC", status: 422, meta: { limit: 5, docId: ids["a.md"], relativePath: "a.md" } });
    expect(await counters(user.id)).toEqual(before);
    const { deps } = await testContext();
    expect(await deps.db.select().from(conflictBranches).where(eq(conflictBranches.docId, ids["a.md"]!))).toHaveLength(5);
    // Another document of the KB has room of its own.
    await openTestBranch(user.id, kb.id, "b.md", "b take");
    expect((await call("DELETE", `/v1/kbs/${kb.id}/conflicts/${opened[0]!.id}`, { token: key })).status).toBe(204);
    await openTestBranch(user.id, kb.id, "a.md", "now it fits");
  });

  test("100 pending per user, across KBs: the 101st is 422 CONFLICT_BRANCH_LIMIT_PER_USER", async () => {
    const docs = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`d${i}.md`, `doc ${i}`]));
    const first = await kbWith(docs);
    const second = await newKb(first.key);
    await pushed(
      first.key,
      second.id,
      Object.entries(docs).map(([p, c]) => upsert(p, c)),
    );
    for (const kbId of [first.kb.id, second.id]) {
      for (const path of Object.keys(docs)) for (let i = 0; i < 5; i++) await openTestBranch(first.user.id, kbId, path, `${path} ${i}`);
    }
    expect((await counters(first.user.id)).branches).toBe(100);
    await pushed(first.key, first.kb.id, [upsert("new.md", "fresh")]);
    const e = await refusal(openTestBranch(first.user.id, first.kb.id, "new.md", "x"));
    expect(e).toMatchObject({ code: "CONFLICT_BRANCH_LIMIT_PER_USER", status: 422, meta: { limit: 100, used: 100 } });
    expect((await counters(first.user.id)).branches).toBe(100);
  });

  test("a branch's size by plan: 10 MB on trial, 20 MB on pro, 50 MB on pro_plus; larger is 422 CONFLICT_BRANCH_LIMIT_SIZE", async () => {
    const { deps } = await testContext();
    expect([deps.plans.trial.maxBranchBytes, deps.plans.pro.maxBranchBytes, deps.plans.pro_plus.maxBranchBytes]).toEqual([10 * MB, 20 * MB, 50 * MB]);
    const trial = await kbWith({ "n.md": "master" });
    const e = await refusal(openTestBranch(trial.user.id, trial.kb.id, "n.md", "x".repeat(10 * MB + 1)));
    expect(e).toMatchObject({ code: "CONFLICT_BRANCH_LIMIT_SIZE", status: 422, meta: { limit: 10 * MB, size: 10 * MB + 1 } });
    const ok = await openTestBranch(trial.user.id, trial.kb.id, "n.md", "x".repeat(10 * MB));
    expect(ok.sizeBytes).toBe(10 * MB);
    const pro = await kbWith({ "n.md": "master" }, { plan: "pro" });
    expect(await refusal(openTestBranch(pro.user.id, pro.kb.id, "n.md", "y".repeat(20 * MB + 1)))).toMatchObject({ code: "CONFLICT_BRANCH_LIMIT_SIZE" });
    expect(await counters(pro.user.id)).toEqual({ imgStorage: 6, branches: 0 });
  });

  test("pending branches may take img_storage up to 20% past the plan's limit, no further (403 QUOTA_EXCEEDED as any quota)", async () => {
    const { deps } = await testContext();
    const small = { ...deps, plans: buildPlans({ trial: { imageStorageBytes: 1000 } }) };
    const { user, kb } = await kbWith({ "n.md": "m".repeat(900) });
    await openTestBranch(user.id, kb.id, "n.md", "b".repeat(250), small);
    expect(await counters(user.id)).toEqual({ imgStorage: 1150, branches: 1 });
    const e = await refusal(openTestBranch(user.id, kb.id, "n.md", "c".repeat(51), small));
    expect(e).toMatchObject({ dimension: "img_storage", used: 1150, limit: 1200 });
    expect(await counters(user.id)).toEqual({ imgStorage: 1150, branches: 1 });
    await openTestBranch(user.id, kb.id, "n.md", "c".repeat(50), small);
    expect(await counters(user.id)).toEqual({ imgStorage: 1200, branches: 2 });
  });

  test("the manifest's lookup names the documents of a KB that have pending branches, and only while they do", async () => {
    const { user, key, kb, ids } = await kbWith({ "a.md": "a", "b.md": "b", "c.md": "c" });
    const { deps } = await testContext();
    expect(await pendingBranchDocIds(deps.db, { userId: user.id, kbId: kb.id })).toEqual(new Set());
    const a = await openTestBranch(user.id, kb.id, "a.md", "a2");
    await openTestBranch(user.id, kb.id, "c.md", "c2");
    await openTestBranch(user.id, kb.id, "c.md", "c3");
    expect(await pendingBranchDocIds(deps.db, { userId: user.id, kbId: kb.id })).toEqual(new Set([ids["a.md"]!, ids["c.md"]!]));
    expect((await call("POST", `/v1/kbs/${kb.id}/conflicts/${a.id}/accept`, { token: key })).status).toBe(200);
    expect(await pendingBranchDocIds(deps.db, { userId: user.id, kbId: kb.id })).toEqual(new Set([ids["c.md"]!]));
    // Another user asking about this KB learns nothing.
    const other = await kbWith({ "a.md": "a" });
    expect(await pendingBranchDocIds(deps.db, { userId: other.user.id, kbId: kb.id })).toEqual(new Set());
  });
});
