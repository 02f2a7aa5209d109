// The conflict-branches job, by moving a stopped clock: a warning in the
// outbox 7 days before the auto-discard (day 23), the discard at 30 days, and a
// force-discard after 14 days while the owner is over quota, resolved rows pruned at 60
// days; every run repeatable.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { BRANCHES_EXPIRING } from "../../src/modules/library/public.ts";
import { conflictBranches } from "../../src/modules/library/kbs/table.ts";
import { outbox } from "../../src/modules/notifications/table.ts";
import { buildPlans } from "../../src/modules/identity/public.ts";
import { createServices } from "../../src/wiring/services.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { testContext } from "../helpers/context.ts";
import { counters, kbWith, openTestBranch } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const DAY = 86_400_000;
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/** The shared app's parts on a clock of the test's own (and, if given, another plan table), with a job runner on them. */
async function stoppedWorld(plans?: Parameters<typeof buildPlans>[0]) {
  const { deps } = await testContext();
  const clock = stoppedClock(deps.clock.nowMs());
  const world = { ...deps, clock, plans: plans ? buildPlans(plans) : deps.plans };
  const services = createServices(world);
  closers.push(() => services.close());
  const run = async () => {
    const r = await services.runner.runNow("conflict-branches");
    expect(r.outcome).toBe("ok");
    return r.summary;
  };
  return { deps: world, clock, run };
}

const branchRows = async (ids: string[]) => {
  const { deps } = await testContext();
  const rows = await deps.db.select().from(conflictBranches).where(inArray(conflictBranches.id, ids));
  return Object.fromEntries(rows.map((r) => [r.id, r]));
};
const messages = async (userId: string) => {
  const { deps } = await testContext();
  return deps.db.select().from(outbox).where(eq(outbox.userId, userId)).orderBy(outbox.createdAt);
};

describe("conflict-branches job", () => {
  test("warns once through the outbox 7 days before the auto-discard, then discards at 30 days and gives back what the branch held", async () => {
    const w = await stoppedWorld();
    const { user, kb, ids } = await kbWith({ "a.md": "master a", "b.md": "master b" });
    const t0 = w.clock.nowMs();
    const b1 = await openTestBranch(user.id, kb.id, "a.md", "x".repeat(300 * 1024), w.deps);
    w.clock.advance(DAY);
    const b2 = await openTestBranch(user.id, kb.id, "b.md", "mine b", w.deps);

    w.clock.advance(22 * DAY - 1); // t0 + 23 days - 1 ms: b1 expires in more than 7 days
    await w.run();
    expect(await messages(user.id)).toEqual([]);

    w.clock.advance(1); // t0 + 23 days
    await w.run();
    await w.run();
    let sent = await messages(user.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      kind: BRANCHES_EXPIRING,
      sentAt: null,
      payload: { branches: [{ branchId: b1.id, kbId: kb.id, docId: ids["a.md"], relativePath: "a.md", expiresAt: new Date(t0 + 30 * DAY).toISOString() }] },
    });
    expect((await branchRows([b1.id]))[b1.id]!.warnedAt).toEqual(new Date(t0 + 23 * DAY));

    w.clock.advance(DAY); // t0 + 24 days: b2's turn, in a message of its own
    await w.run();
    sent = await messages(user.id);
    expect(sent.map((m) => (m.payload as { branches: { branchId: string }[] }).branches.map((b) => b.branchId))).toEqual([[b1.id], [b2.id]]);

    w.clock.advance(6 * DAY - 1); // one ms short of b1's 30 days
    await w.run();
    expect((await branchRows([b1.id]))[b1.id]!.status).toBe("pending");
    w.clock.advance(1);
    await w.run();
    await w.run();
    let rows = await branchRows([b1.id, b2.id]);
    expect(rows[b1.id]).toMatchObject({ status: "discarded", discardReason: "expired", discardedAt: new Date(t0 + 30 * DAY), objectKey: null });
    expect(rows[b2.id]!.status).toBe("pending");
    expect(await w.deps.storage.read(b1.objectKey!)).toBeNull();
    expect(await counters(user.id)).toEqual({ imgStorage: 16 + 6, branches: 1 });

    w.clock.advance(DAY);
    await w.run();
    rows = await branchRows([b2.id]);
    expect(rows[b2.id]).toMatchObject({ status: "discarded", discardReason: "expired" });
    expect(await counters(user.id)).toEqual({ imgStorage: 16, branches: 0 });
    expect(await messages(user.id)).toHaveLength(2);

    // Resolved rows go 60 days after their branch was opened: b1's first.
    w.clock.advance(29 * DAY + 1);
    await w.run();
    expect(Object.keys(await branchRows([b1.id, b2.id]))).toEqual([b2.id]);
  });

  test("after 14 days, a user over the storage quota loses the oldest branches until within it; one within it keeps them", async () => {
    // A pro_plus account with 1000 bytes of img_storage: its branches may take it to 1200.
    const w = await stoppedWorld({ pro_plus: { imageStorageBytes: 1000 } });
    const { user, kb } = await kbWith({ "n.md": "m".repeat(900) }, { plan: "pro_plus" });
    const calm = await kbWith({ "n.md": "m".repeat(100) }, { plan: "pro_plus" });
    const b = [];
    for (let i = 0; i < 3; i++) {
      b.push(await openTestBranch(user.id, kb.id, "n.md", String(i).repeat(100), w.deps));
      w.clock.advance(DAY);
    }
    const kept = await openTestBranch(calm.user.id, calm.kb.id, "n.md", "k".repeat(100), w.deps);
    expect(await counters(user.id)).toEqual({ imgStorage: 1200, branches: 3 });

    w.clock.advance(10 * DAY); // b[0] is 13 days old
    await w.run();
    expect(await counters(user.id)).toEqual({ imgStorage: 1200, branches: 3 });
    w.clock.advance(DAY); // b[0] 14 days: over by 200, and only b[0] is old enough
    await w.run();
    await w.run();
    let rows = await branchRows(b.map((x) => x.id));
    expect(rows[b[0]!.id]).toMatchObject({ status: "discarded", discardReason: "over_quota" });
    expect([rows[b[1]!.id]!.status, rows[b[2]!.id]!.status]).toEqual(["pending", "pending"]);
    w.clock.advance(DAY); // b[1] 14 days: discarding it ends the overage, so b[2] stays when its turn comes
    await w.run();
    w.clock.advance(DAY);
    await w.run();
    w.clock.advance(DAY); // kept is 14 days old too
    await w.run();
    rows = await branchRows(b.map((x) => x.id));
    expect(b.map((x) => rows[x.id]!.status)).toEqual(["discarded", "discarded", "pending"]);
    expect(await counters(user.id)).toEqual({ imgStorage: 1000, branches: 1 });
    // The user within the quota keeps a branch as old.
    expect((await branchRows([kept.id]))[kept.id]!.status).toBe("pending");
    const { deps } = await testContext();
    expect(
      await deps.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.userId, user.id), eq(outbox.kind, BRANCHES_EXPIRING))),
    ).toEqual([]);
  });
});
