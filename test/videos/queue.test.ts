// The transcode queue: two workers never hold the same job; progress only grows and stops
// at a terminal state.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { newId } from "../../src/infra/ids.ts";
import { eq } from "drizzle-orm";
import type { Providers } from "../../src/modules/videos/providers/index.ts";
import type { VideoProvider } from "../../src/modules/videos/providers/types.ts";
import { createTranscodeWorker } from "../../src/modules/videos/public.ts";
import { claim, complete, enqueue, renew } from "../../src/modules/videos/queue.ts";
import { transcodeJobs } from "../../src/modules/videos/table.ts";
import { reportProgress } from "../../src/modules/videos/state.ts";
import { testContext } from "../helpers/context.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { makeUser } from "../helpers/factories.ts";
import { insertVideo, videoRow } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

describe("transcode queue", () => {
  test("concurrent claims get different jobs; a held lease is renewed only by its holder", async () => {
    const { deps } = await testContext();
    // The database is shared: jobs other tests left queued are due too. The loop claims
    // (and completes) whatever comes until it has held both of this test's jobs.
    const clock = stoppedClock(deps.clock.nowMs() + 365 * 86_400_000);
    const owner = await makeUser();
    const ids = [newId(), newId()];
    await deps.db.transaction(async (tx) => {
      for (const videoId of ids) await enqueue(tx, { kind: "delete", videoId, ownerId: owner.id, provider: "local" }, clock.now());
    });
    const mine: string[] = [];
    for (let round = 0; round < 100 && mine.length < 2; round++) {
      const [a, b] = await Promise.all([claim(deps.db, "w1", clock.now(), 60_000), claim(deps.db, "w2", clock.now(), 60_000)]);
      if (a && b) expect(a.id).not.toBe(b.id);
      for (const [j, w] of [
        [a, "w1"],
        [b, "w2"],
      ] as const) {
        if (!j) continue;
        if (ids.includes(j.videoId)) {
          mine.push(j.videoId);
          expect(await renew(deps.db, j, w === "w1" ? "w2" : "w1", clock.now(), 60_000)).toBe(false);
          expect(await renew(deps.db, j, w, clock.now(), 60_000)).toBe(true);
        }
        await complete(deps.db, j, w, clock.now());
      }
      if (!a && !b) break;
    }
    expect(mine.sort()).toEqual([...ids].sort());
  });

  test("progress only grows, and a ready video's progress is left alone", async () => {
    const { deps } = await testContext();
    const owner = await makeUser();
    const v = await insertVideo(owner.id);
    await reportProgress(deps, v.id, 0.4);
    await reportProgress(deps, v.id, 0.2);
    expect((await videoRow(v.id))!.progress).toBeCloseTo(0.4);
    const done = await insertVideo(owner.id, { status: "ready", progress: 1 });
    await reportProgress(deps, done.id, 0.3);
    expect((await videoRow(done.id))!.progress).toBe(1);
  });

  test("a running job's lease is renewed by the worker's heartbeat while the provider makes no progress", async () => {
    // Found by `make chaos`: the lease was renewed on progress only, so it had to be long
    // (5 minutes) and a SIGKILLed worker's video stayed in processing that long. Now it is
    // short and a heartbeat keeps it while a step (an ffmpeg pass) says nothing.
    const { deps } = await testContext();
    const clock = stoppedClock(deps.clock.nowMs() + 366 * 86_400_000);
    const owner = await makeUser();
    const videoId = newId();
    await deps.db.transaction((tx) => enqueue(tx, { kind: "transcode", videoId, ownerId: owner.id, provider: "local" }, clock.now()));
    const leaseOf = async () =>
      (await deps.db.select({ until: transcodeJobs.leaseUntil }).from(transcodeJobs).where(eq(transcodeJobs.videoId, videoId)))[0]!.until!;
    let renewed = false;
    let renewedTo = 0;
    const silent: VideoProvider = {
      name: "local",
      async run(r) {
        // Jobs other tests left due are passed over; this one waits, silent, for a heartbeat.
        if (r.job.videoId !== videoId) return { outcome: "skipped", reason: "another test's job" };
        const claimed = await leaseOf();
        clock.advance(30_000);
        while ((await leaseOf()).getTime() <= claimed.getTime()) await Bun.sleep(5);
        renewed = true;
        renewedTo = (await leaseOf()).getTime();
        return { outcome: "skipped", reason: "done waiting" };
      },
    } as VideoProvider;
    const providers = { local: silent, mux: silent, current: silent } as unknown as Providers;
    const worker = createTranscodeWorker({ ...deps, clock }, { providers, id: "heartbeat-test", heartbeatMs: 10 });
    for (let round = 0; round < 200 && !renewed; round++) if (!(await worker.step())) break;
    expect(renewed).toBe(true);
    // Renewed to a full lease past the moved clock: another worker cannot take it meanwhile.
    expect(renewedTo).toBeGreaterThan(clock.nowMs());
  });
});
