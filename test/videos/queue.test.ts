// The transcode queue: two workers never hold the same job; progress only grows and stops
// at a terminal state.
import { describe, expect, test } from "bun:test";
import { newId } from "../../src/infra/ids.ts";
import { claim, complete, enqueue, renew } from "../../src/modules/videos/queue.ts";
import { reportProgress } from "../../src/modules/videos/state.ts";
import { testContext } from "../helpers/context.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { makeUser } from "../helpers/factories.ts";
import { insertVideo, videoRow } from "./fixtures.ts";

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
});
