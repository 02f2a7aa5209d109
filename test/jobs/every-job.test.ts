// Every scheduled job, moved to its next scheduled minute by a stopped clock: two workers
// firing that tick run it once (one run recorded, the other finds it claimed), the run is
// recorded ok with its counts, and a second run right after finds nothing to do.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Cron } from "croner";
import { and, eq } from "drizzle-orm";
import { allJobs } from "../../jobs/index.ts";
import { createJobRunner } from "../../jobs/runner.ts";
import { jobRuns } from "../../jobs/table.ts";
import { callJson } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { closeWorlds, stoppedWorld } from "./world.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

afterAll(closeWorlds);

/**
 * Counts that describe what a run saw rather than what it changed: the same on a second
 * run. Everything else a run counts is work done, and a second run does none.
 */
const OBSERVED = new Set(["objects", "young", "missing", "users", "differences", "asked", "edgeSkipped", "uploadsYoung", "uploadListFailed"]);
const work = (counts: Record<string, number>) => Object.entries(counts).filter(([k]) => !OBSERVED.has(k));

describe("every job", () => {
  test("is listed by GET /v1/admin/jobs with its schedule", async () => {
    const admin = await makeUser({ isAdmin: true });
    const res = await callJson("GET", "/v1/admin/jobs", { token: admin.jwt });
    expect(res.status).toBe(200);
    expect(res.body.data.items.map((j: { name: string }) => j.name).sort()).toEqual(allJobs.map((j) => j.name).sort());
  });

  test("POST /v1/admin/jobs/:name/run answers the recorded run with its counts", async () => {
    const admin = await makeUser({ isAdmin: true });
    const run = await callJson("POST", "/v1/admin/jobs/month-rollover/run", { token: admin.jwt });
    expect(run.status).toBe(200);
    expect(run.body.data).toMatchObject({ name: "month-rollover", trigger: "manual", outcome: "ok", error: null });
    expect(Object.keys(run.body.data.counts).sort()).toEqual(["closed", "edgeSkipped", "prunedDayCounters", "prunedMonthCounters", "restored", "settledBytes"]);
    const list = await callJson("GET", "/v1/admin/jobs", { token: admin.jwt });
    const job = list.body.data.items.find((j: { name: string }) => j.name === "month-rollover");
    expect(job).toMatchObject({ schedule: "5 0 1 * *", lastRun: { id: run.body.data.id, counts: run.body.data.counts } });
  });

  for (const job of allJobs) {
    test(`${job.name} (${job.schedule}): runs once per scheduled tick across two workers, with counts; a second run does nothing`, async () => {
      const w = await stoppedWorld();
      const tick = new Cron(job.schedule, { timezone: "UTC", paused: true }).nextRun(w.deps.clock.now())!;
      w.clock.advance(tick.getTime() - w.deps.clock.nowMs());
      expect(w.deps.clock.now()).toEqual(tick);

      const workers = [createJobRunner(w.deps, allJobs), createJobRunner(w.deps, allJobs)];
      const runs = await Promise.all(workers.map((r) => r.runScheduled(job.name, tick)));
      const ran = runs.filter((r) => r !== null);
      expect(ran).toHaveLength(1);
      expect(ran[0]).toMatchObject({ name: job.name, trigger: "schedule", outcome: "ok", scheduledFor: tick });
      expect(ran[0]!.counts).toBeObject();
      expect(
        await w.deps.db
          .select()
          .from(jobRuns)
          .where(and(eq(jobRuns.name, job.name), eq(jobRuns.scheduledFor, tick))),
      ).toHaveLength(1);
      // The same tick again: already claimed.
      expect(await workers[0]!.runScheduled(job.name, tick)).toBeNull();

      const again = await w.runner.runNow(job.name);
      expect(again.outcome).toBe("ok");
      expect(work(again.counts!)).toEqual(work(again.counts!).map(([k]) => [k, 0]));
    });
  }
});
