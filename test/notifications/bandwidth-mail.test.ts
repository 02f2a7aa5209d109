// Bandwidth marks: the hourly attribution's counts past 80% and 100% of a
// month's image bandwidth are e-mailed once that month, however many batches or racing
// attributions see them, and again the next month; video bandwidth tells 80% as a quota
// warning and 100%, 110%, 120% with the playback state they bring, one e-mail each.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { monthKey } from "../../src/infra/clock.ts";
import { newId } from "../../src/infra/ids.ts";
import { addBandwidthBatch, recordBandwidthCrossings } from "../../src/modules/usage/public.ts";
import type { BandwidthDimension } from "../../src/modules/usage/dimensions.ts";
import { makeUser } from "../helpers/factories.ts";
import { startSmtp, type TestSmtp, world } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const DAY = 86_400_000;
let smtp: TestSmtp;
let w: Awaited<ReturnType<typeof world>>;
beforeAll(async () => {
  smtp = await startSmtp();
  w = await world(smtp, { pro: { imageBandwidthBytes: 1000, mediaBandwidthBytes: 1000 } });
});
afterAll(async () => {
  await w.close();
  await smtp.close();
});

/** What the attribution jobs do for one owner: a batch of this month's bytes, told in its transaction. */
function attribute(ownerId: string, dimension: BandwidthDimension, bytes: number, batchId = newId()) {
  const now = w.clock.now();
  return w.deps.db.transaction(async (tx) => {
    const entries = [{ ownerId, month: monthKey(now), dimension, bytes }];
    await addBandwidthBatch(tx, entries, { id: batchId, at: now }, { plans: w.deps.plans, now });
    if (dimension === "media_bandwidth") await recordBandwidthCrossings(tx, w.deps.plans, entries, now);
  });
}

const subjects = (email: string) => smtp.to(email).map((m) => m.subject);

describe("bandwidth e-mails", () => {
  test("image bandwidth past 80% and 100%: once per month whatever the batches, again the next month", async () => {
    // The first of a month, so that a month later is the next month.
    const start = new Date(Date.UTC(2031, 4, 1, 10));
    w.clock.advance(start.getTime() - w.clock.nowMs());
    const owner = await makeUser({ plan: "pro" });
    await attribute(owner.id, "image_bandwidth", 500);
    const batch = newId();
    await attribute(owner.id, "image_bandwidth", 350, batch); // 850: 80%
    await attribute(owner.id, "image_bandwidth", 350, batch); // the same batch again: counted and told once
    await w.deliver();
    expect(subjects(owner.email)).toEqual(["You have used 80% of your image bandwidth for May 2031"]);
    const [warning] = smtp.to(owner.email);
    for (const body of [warning!.text, warning!.html]) {
      expect(body).toContain("850 B of its 1,000 B of image bandwidth for May 2031 (85%)");
      expect(body).toContain("1 June 2031");
      expect(body).toContain(`${w.deps.config.CENTER_URL}/usage`);
    }

    await attribute(owner.id, "image_bandwidth", 300); // 1150: past 100%, no cutoff
    await attribute(owner.id, "image_bandwidth", 300);
    await w.deliver();
    expect(subjects(owner.email)).toEqual(["You have used 80% of your image bandwidth for May 2031", "You have used all of your image bandwidth for May 2031"]);
    expect(smtp.to(owner.email)[1]!.text).toContain("no hard cutoff");

    w.clock.advance(31 * DAY); // June: a new count and new marks
    await attribute(owner.id, "image_bandwidth", 900);
    await w.deliver();
    expect(subjects(owner.email).slice(2)).toEqual(["You have used 80% of your image bandwidth for June 2031"]);
  });

  test("attributions racing past the same mark tell it once", async () => {
    const owner = await makeUser({ plan: "pro" });
    await attribute(owner.id, "image_bandwidth", 700);
    await Promise.all([attribute(owner.id, "image_bandwidth", 100), attribute(owner.id, "image_bandwidth", 100)]);
    await w.deliver();
    expect(subjects(owner.email)).toHaveLength(1);
    expect(subjects(owner.email)[0]).toStartWith("You have used 80% of your image bandwidth");

    // Two transactions that both see the same crossing (a count told again after a retry):
    // the mark's key lets one of them queue the message.
    const now = w.clock.now();
    const added = [{ ownerId: owner.id, month: monthKey(now), bytes: 1050 }];
    await w.deps.db.transaction((tx) => addBandwidthBatch(tx, [{ ...added[0]!, dimension: "media_bandwidth" }]));
    const told = await Promise.all([1, 2].map(() => w.deps.db.transaction((tx) => recordBandwidthCrossings(tx, w.deps.plans, added, now))));
    expect(told.flat()).toEqual([{ ownerId: owner.id, kind: "video_bandwidth_degraded" }]);
    await w.deliver();
    expect(subjects(owner.email)).toHaveLength(2);
  });

  test("video bandwidth: 80% warning, then one e-mail each for 100% (degraded), 110% and 120% (suspended); none twice", async () => {
    const owner = await makeUser({ plan: "pro" });
    const month = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" }).format(w.clock.now());
    await attribute(owner.id, "media_bandwidth", 850);
    await w.deliver();
    expect(subjects(owner.email)).toEqual([`You have used 80% of your video and audio bandwidth for ${month}`]);

    await attribute(owner.id, "media_bandwidth", 200); // 1050: past 100%, one message, not a quota 100% beside it
    await w.deliver();
    expect(subjects(owner.email).slice(1)).toEqual([`Video playback reduced to 360p: bandwidth for ${month} used up`]);
    expect(smtp.to(owner.email)[1]!.text).toContain("start at 360p");

    await attribute(owner.id, "media_bandwidth", 200); // 1250: past 110% and 120%
    await attribute(owner.id, "media_bandwidth", 200); // 1450: nothing new
    await w.deliver();
    expect(subjects(owner.email).slice(2).sort()).toEqual([
      `Video bandwidth for ${month} is over 110%`,
      `Video playback suspended: bandwidth for ${month} over 120%`,
    ]);
    const suspended = smtp.to(owner.email).find((m) => m.subject.startsWith("Video playback suspended"))!;
    expect(suspended.text).toContain("1.2 KB of its 1,000 B of video and audio bandwidth");
    expect(suspended.html).toContain("Audio keeps playing");
    expect(smtp.to(owner.email)).toHaveLength(4);
  });
});
