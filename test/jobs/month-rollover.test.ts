// The month rollover, moved to 00:05 UTC on the 1st by a stopped clock: the
// month that ended is settled from the edge tallies, owners degraded or suspended in it
// are ok again (and counted once), old period counters go, and a second run does nothing.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { DAYS_KEPT, MONTHS_KEPT } from "../../src/modules/videos/month-rollover.job.ts";
import { createJobRunner } from "../../jobs/runner.ts";
import { allJobs } from "../../jobs/index.ts";
import { monthRollovers } from "../../src/modules/videos/table.ts";
import { dayKey, monthKey } from "../../src/infra/clock.ts";
import { BANDWIDTH_HASHES } from "../../src/modules/edge/meter.ts";
import { addBandwidthBatch } from "../../src/modules/usage/public.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { closeWorlds, countersOf, DAY, monthStartMs, setCounter, stoppedWorld } from "./world.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

afterAll(closeWorlds);

const LIMIT = 1000;

describe("month-rollover job", () => {
  test("settles the month that ended, restores degraded and suspended owners with the new month, prunes old counters, and does nothing the second time", async () => {
    // The last minute of a month a little ahead of every other test's, then its rollover.
    const { deps: shared } = await testContext();
    const start = monthStartMs(shared.clock.nowMs(), 2) - 60_000;
    const w = await stoppedWorld(start, { pro: { mediaBandwidthBytes: LIMIT } });
    const ended = monthKey(new Date(start));
    const degraded = await makeClient({ plan: "pro" });
    const suspended = await makeClient({ plan: "pro" });
    const calm = await makeClient({ plan: "pro" });
    await addBandwidthBatch(w.deps.db, [
      { ownerId: degraded.user.id, month: ended, dimension: "media_bandwidth", bytes: 1050 },
      { ownerId: suspended.user.id, month: ended, dimension: "media_bandwidth", bytes: 1300 },
      { ownerId: calm.user.id, month: ended, dimension: "media_bandwidth", bytes: 400 },
    ]);
    // Served in the last second of the month, still in the kv when the month ends.
    await w.deps.kv.hincrby(BANDWIDTH_HASHES.media_bandwidth, `${ended}:${calm.user.id}`, 700);
    // Counters older than what is kept.
    const oldMonth = monthKey(new Date(monthStartMs(start, -(MONTHS_KEPT + 1))));
    const keptMonth = monthKey(new Date(monthStartMs(start, -(MONTHS_KEPT - 2))));
    const oldDay = dayKey(new Date(start - (DAYS_KEPT + 2) * DAY));
    await setCounter(calm.user.id, oldMonth, "media_bandwidth", 5);
    await setCounter(calm.user.id, keptMonth, "media_bandwidth", 6);
    await setCounter(calm.user.id, oldDay, "uploads_per_day", 1);

    const status = async (key: string) => (await callJson("GET", "/v1/user/me/usage", { token: key, app: w.app })).body.data.video.status;
    expect(await status(degraded.key)).toBe("degraded");
    expect(await status(suspended.key)).toBe("suspended");

    w.clock.advance(5 * 60_000); // 00:05 UTC on the 1st
    const at = w.deps.clock.now();
    // Two workers fire at once: one run.
    const runs = await Promise.all([createJobRunner(w.deps, allJobs), createJobRunner(w.deps, allJobs)].map((r) => r.runScheduled("month-rollover", at)));
    const done = runs.filter((r) => r !== null);
    expect(done).toHaveLength(1);
    const run = done[0]!;
    expect(run.outcome).toBe("ok");
    expect(run.counts).toMatchObject({ closed: 1 });
    expect(run.counts!.restored).toBeGreaterThanOrEqual(2);
    expect(run.counts!.settledBytes).toBeGreaterThanOrEqual(700);
    expect(run.counts!.prunedMonthCounters).toBeGreaterThanOrEqual(1);
    expect(run.counts!.prunedDayCounters).toBeGreaterThanOrEqual(1);

    // The tally went to the month it was served in; the old counters are gone, the kept one stays.
    const c = await countersOf(calm.user.id);
    expect(c[`${ended}:media_bandwidth`]).toBe(1100);
    expect(c[`${oldMonth}:media_bandwidth`]).toBeUndefined();
    expect(c[`${oldDay}:uploads_per_day`]).toBeUndefined();
    expect(c[`${keptMonth}:media_bandwidth`]).toBe(6);
    expect(await status(degraded.key)).toBe("ok");
    expect(await status(suspended.key)).toBe("ok");
    const [row] = await w.deps.db
      .select()
      .from(monthRollovers)
      .where(eq(monthRollovers.month, monthKey(at)));
    expect(row).toMatchObject({ closedAt: at, restored: run.counts!.restored });

    // Again, by hand and on the next tick: no month to close, nobody to restore, nothing to prune,
    // and these owners' counters as they were. (Its settling of the edge's meter is every
    // owner's: on real parts the suite's other servers share the Redis it drains.)
    const again = await w.runner.runNow("month-rollover");
    expect(again.outcome).toBe("ok");
    expect(again.counts).toMatchObject({ closed: 0, restored: 0, prunedMonthCounters: 0, prunedDayCounters: 0 });
    expect(await countersOf(calm.user.id)).toEqual(c);
    w.clock.advance(60_000);
    expect((await w.runner.runScheduled("month-rollover", w.deps.clock.now()))!.counts).toMatchObject({ closed: 0, restored: 0 });
  });
});
