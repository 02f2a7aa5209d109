// Audio on the media edge: every byte served is metered to the owner, the
// file in media bandwidth and its thumbnail in image bandwidth, and audio keeps playing
// while the owner's video playback is suspended.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../src/wiring/app.ts";
import { dayKey } from "../../src/infra/clock.ts";
import { createServices, type Services } from "../../src/wiring/services.ts";
import { testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { addMediaBandwidth, storedVideo } from "../videos/playback-fixtures.ts";
import { fixture, uploadAudio } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const opened: Services[] = [];
afterAll(() => Promise.all(opened.map((s) => s.close())));

describe("audio on the media edge", () => {
  test("bytes served are metered per owner: the file (whole, ranges) in media bandwidth, the thumbnail in image bandwidth; HEAD and 304 count nothing", async () => {
    const { deps } = await testContext();
    const services = createServices(deps);
    opened.push(services);
    const counted: { dimension: string; day: string; ownerId: string; bytes: number }[] = [];
    const meter = {
      ...services.meter,
      add: (dimension: string, day: string, ownerId: string, bytes: number) => void counted.push({ dimension, day, ownerId, bytes }),
    };
    const app = createApp({ ...services, meter });
    const get = (url: string, headers: Record<string, string> = {}, method = "GET") =>
      app.handle(new Request(url.replace(deps.config.MEDIA_URL, "http://shelf.test/media"), { method, headers }));

    const owner = await makeUser();
    const bytes = await fixture("mp3");
    const a = (await uploadAudio(owner.jwt, bytes, "tone.mp3")).body.data;
    const whole = await get(a.url);
    await whole.arrayBuffer();
    const part = await get(a.url, { range: "bytes=0-99" });
    await part.arrayBuffer();
    expect((await get(a.url, {}, "HEAD")).status).toBe(200);
    expect((await get(a.url, { "if-none-match": whole.headers.get("etag")! })).status).toBe(304);
    const thumb = await get(a.thumbnailUrl);
    const svg = await thumb.arrayBuffer();

    // Tallied by UTC day (the month follows from it).
    const day = dayKey(deps.clock.now());
    expect(counted).toEqual([
      { dimension: "media_bandwidth", day, ownerId: owner.id, bytes: bytes.length },
      { dimension: "media_bandwidth", day, ownerId: owner.id, bytes: 100 },
      { dimension: "image_bandwidth", day, ownerId: owner.id, bytes: svg.byteLength },
    ]);
  });

  test("the owner's video playback suspended (over 120%): videos answer 451, audio and its thumbnail still play", async () => {
    const { deps } = await testContext();
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id);
    const a = (await uploadAudio(owner.jwt, await fixture("mp3-cover"), "song.mp3")).body.data;
    await addMediaBandwidth(owner.id, Math.ceil(deps.plans.pro.mediaBandwidthBytes * 1.2) + 1);
    const { app } = await testContext();
    const video = await app.handle(new Request(`http://shelf.test/media/v/${v.id}/master.m3u8`));
    expect(video.status).toBe(451);
    for (const url of [a.url, a.thumbnailUrl]) {
      const res = await app.handle(new Request(url.replace(deps.config.MEDIA_URL, "http://shelf.test/media")));
      expect({ url, status: res.status }).toEqual({ url, status: 200 });
    }
  });
});
