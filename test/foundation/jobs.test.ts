import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createJobRunner } from "../../jobs/runner.ts";
import type { Job } from "../../src/core/job.ts";
import { jobRuns } from "../../jobs/table.ts";
import { testContext } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const unique = (s: string) => `${s}-${crypto.randomUUID().slice(0, 8)}`;

describe("job runner", () => {
  test("a manual run is recorded with its outcome and summary", async () => {
    const { deps } = await testContext();
    const job: Job = { name: unique("ok"), schedule: "* * * * *", description: "", run: async () => "did 3 things" };
    const run = await createJobRunner(deps, [job]).runNow(job.name);
    expect(run.outcome).toBe("ok");
    expect(run.summary).toBe("did 3 things");
    expect(run.trigger).toBe("manual");
    expect(run.finishedAt!.getTime()).toBeGreaterThanOrEqual(run.startedAt.getTime());
  });

  test("a failing job is recorded as failed and does not stop the others", async () => {
    const { deps } = await testContext();
    const bad: Job = { name: unique("bad"), schedule: "* * * * *", description: "", run: async () => Promise.reject(new Error("disk on fire")) };
    const good: Job = { name: unique("good"), schedule: "* * * * *", description: "", run: async () => "fine" };
    const runner = createJobRunner(deps, [bad, good]);
    const failed = await runner.runNow(bad.name);
    expect(failed.outcome).toBe("failed");
    expect(failed.error).toContain("disk on fire");
    expect((await runner.runNow(good.name)).outcome).toBe("ok");
  });

  test("a scheduled run happens once across workers", async () => {
    const { deps } = await testContext();
    let count = 0;
    const job: Job = { name: unique("once"), schedule: "* * * * *", description: "", run: async () => void count++ };
    const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const workers = [createJobRunner(deps, [job]), createJobRunner(deps, [job]), createJobRunner(deps, [job])];
    const results = await Promise.all(workers.map((w) => w.runScheduled(job.name, minute)));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(count).toBe(1);
    const rows = await deps.db.select().from(jobRuns).where(eq(jobRuns.name, job.name));
    expect(rows).toHaveLength(1);
  });

  test("a run is skipped while another run of the same job holds the lease", async () => {
    const { deps } = await testContext();
    const running = Promise.withResolvers<void>();
    const release = Promise.withResolvers<void>();
    const job: Job = {
      name: unique("slow"),
      schedule: "* * * * *",
      description: "",
      run: async () => {
        running.resolve();
        await release.promise;
        return undefined;
      },
    };
    const runner = createJobRunner(deps, [job]);
    const first = runner.runNow(job.name);
    await running.promise; // the lease is held from before the job starts until it returns
    const second = await runner.runNow(job.name);
    expect(second.outcome).toBe("skipped");
    release.resolve();
    expect((await first).outcome).toBe("ok");
  });

  test("unknown job names are NOT_FOUND", async () => {
    const { deps } = await testContext();
    await expect(createJobRunner(deps, []).runNow("nope")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  test("prune-job-runs deletes records older than 30 days", async () => {
    const { deps, runner } = await testContext();
    const old = new Date(deps.clock.nowMs() - 31 * 86_400_000);
    const [row] = await deps.db
      .insert(jobRuns)
      .values({ name: unique("ancient"), trigger: "manual", startedAt: old, outcome: "ok" })
      .returning();
    const run = await runner.runNow("prune-job-runs");
    expect(run.outcome).toBe("ok");
    expect(await deps.db.select().from(jobRuns).where(eq(jobRuns.id, row!.id))).toHaveLength(0);
  });
});

test("migrations are idempotent", async () => {
  const { deps } = await testContext();
  expect(await deps.database.migrate()).toBe(0);
});
