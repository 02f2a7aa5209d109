// ThumbHash placeholders of the pictures videos and audio show (a video's thumbnail, an
// audio cover), as images have theirs: a client paints one before the picture's bytes
// arrive. An audio cover's is made at upload and a custom thumbnail's when it is set; a
// transcode's thumbnail, and anything from before placeholders, get theirs from the jobs.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import sharp from "sharp";
import { thumbHashToRGBA } from "thumbhash";
import { audioPlaceholdersJob } from "../../src/modules/audio/public.ts";
import { audio } from "../../src/modules/audio/table.ts";
import { videoPlaceholdersJob } from "../../src/modules/videos/public.ts";
import { eq } from "drizzle-orm";
import { fixture, uploadAudio } from "../audio/fixtures.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { storedVideo } from "../videos/playback-fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

/** A placeholder decodes as a ThumbHash into a small picture. */
function expectThumbHash(placeholder: unknown) {
  expect(typeof placeholder).toBe("string");
  const decoded = thumbHashToRGBA(Buffer.from(placeholder as string, "base64"));
  expect(decoded.w).toBeGreaterThan(0);
  expect(decoded.h).toBeGreaterThan(0);
}

const runJob = async (job: typeof videoPlaceholdersJob) => {
  const { deps } = await testContext();
  return job.run({ deps, signal: new AbortController().signal } as Parameters<typeof job.run>[0]);
};

describe("placeholders of video thumbnails and audio covers", () => {
  test("an audio file's cover has its placeholder from the upload; one with no cover has none", async () => {
    const u = await makeUser({ plan: "pro" });
    const covered = (await uploadAudio(u.jwt, await fixture("mp3-cover"), "song.mp3")).body.data;
    const bare = (await uploadAudio(u.jwt, await fixture("mp3"), "tone.mp3")).body.data;
    const got = await callJson("GET", `/v1/audio/${covered.id}`, { token: u.jwt });
    expectThumbHash(got.body.data.placeholder);
    expect((await callJson("GET", `/v1/audio/${bare.id}`, { token: u.jwt })).body.data.placeholder).toBeNull();
    const listed = (await callJson("GET", "/v1/media?type=audio", { token: u.jwt })).body.data.items;
    expect(listed.find((i: { id: string }) => i.id === covered.id).placeholder).toBe(got.body.data.placeholder);
  });

  test("a cover from before placeholders gets its own from the job, once", async () => {
    const { deps } = await testContext();
    const u = await makeUser({ plan: "pro" });
    const covered = (await uploadAudio(u.jwt, await fixture("mp3-cover"), "song.mp3")).body.data;
    await deps.db.update(audio).set({ placeholder: null }).where(eq(audio.id, covered.id));
    expect((await callJson("GET", `/v1/audio/${covered.id}`, { token: u.jwt })).body.data.placeholder).toBeNull();
    await runJob(audioPlaceholdersJob);
    expectThumbHash((await callJson("GET", `/v1/audio/${covered.id}`, { token: u.jwt })).body.data.placeholder);
  });

  test("a transcoded video's thumbnail gets its placeholder from the job; a custom thumbnail brings its own, and removing it hands back to the job", async () => {
    const u = await makeUser({ plan: "pro" });
    const v = await storedVideo(u.id);
    const placeholderOf = async () => (await callJson("GET", `/v1/videos/${v.id}`, { token: u.jwt })).body.data.placeholder;
    const listed = async () => (await callJson("GET", "/v1/videos", { token: u.jwt })).body.data.items.find((i: { id: string }) => i.id === v.id).placeholder;
    expect(await placeholderOf()).toBeNull();
    await runJob(videoPlaceholdersJob);
    const auto = await placeholderOf();
    expectThumbHash(auto);
    expect(await listed()).toBe(auto);

    const red = await sharp({ create: { width: 64, height: 36, channels: 3, background: "#cc2222" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.set("file", new File([red as Uint8Array<ArrayBuffer>], "t.png"));
    expect((await call("POST", `/v1/videos/${v.id}/thumbnail`, { token: u.jwt, body: form })).status).toBe(200);
    const custom = await placeholderOf();
    expectThumbHash(custom);
    expect(custom).not.toBe(auto);

    expect((await call("DELETE", `/v1/videos/${v.id}/thumbnail`, { token: u.jwt })).status).toBe(200);
    expect(await placeholderOf()).toBeNull();
    await runJob(videoPlaceholdersJob);
    expect(await placeholderOf()).toBe(auto);
  });
});
