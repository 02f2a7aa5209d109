// POST /v1/audio: the format from the bytes, metadata read from the stream,
// the embedded cover as the thumbnail (else the format's default), the plan's size and
// duration limits, and nothing stored or counted by any refusal.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../src/wiring/app.ts";
import type { Deps } from "../../src/wiring/deps.ts";
import { sharp } from "../../src/infra/sharp.ts";
import { createServices, type Services } from "../../src/wiring/services.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, makeUser } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { png } from "../images/fixtures.ts";
import { audioForm, audioObjects, audioRow, fixture, uploadAudio, usageOf } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const opened: Services[] = [];
afterAll(() => Promise.all(opened.map((s) => s.close())));

/** An app on the shared parts whose trial plan has other limits. */
async function appWithTrial(trial: Partial<Deps["plans"]["trial"]>) {
  const { deps } = await testContext();
  const services = createServices({ ...deps, plans: { ...deps.plans, trial: { ...deps.plans.trial, ...trial } } });
  opened.push(services);
  return createApp(services);
}

async function post(app: { handle(r: Request): Promise<Response> }, key: string, body: BodyInit) {
  const res = await app.handle(new Request("http://shelf.test/v1/audio", { method: "POST", headers: { authorization: `Bearer ${key}` }, body }));
  return { status: res.status, body: (await res.json()) as any };
}

const edge = (url: string, headers: Record<string, string> = {}) => call("GET", new URL(url).pathname, { headers });

describe("POST /v1/audio", () => {
  test("MP3: 201 ready with the audio resource's fields; stored, counted in media storage, and playing at once (ranges, audio/mpeg, nosniff)", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const bytes = await fixture("mp3");
    const res = await uploadAudio(key, bytes, "tone.mp3");
    expect(res.status).toBe(201);
    const a = res.body.data;
    expect(a).toMatchObject({
      type: "audio",
      filename: "tone.mp3",
      title: "tone.mp3",
      sizeBytes: bytes.length,
      mimeType: "audio/mpeg",
      status: "ready",
      isPublic: true,
      bitrate: 32,
    });
    expect(a.id).toHaveLength(21);
    expect(a.durationSeconds).toBeGreaterThan(1.9);
    expect(a.durationSeconds).toBeLessThan(2.2);
    expect(a.url).toBe(`${deps.config.MEDIA_URL}/a/${a.id}.mp3`);
    expect(a.thumbnailUrl).toBe(`${deps.config.MEDIA_URL}/a/${a.id}/cover.svg`);
    expect(a).toMatchObject({ sampleRate: 44100, channels: 1 });
    expect(await audioObjects(user.id)).toEqual([`audio/${user.id}/${a.id}/original`]);
    expect((await usageOf(user)).video.storage.used).toBe(bytes.length);

    const whole = await edge(a.url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("audio/mpeg");
    expect(whole.headers.get("x-content-type-options")).toBe("nosniff");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(bytes);
    const part = await edge(a.url, { range: "bytes=10-19" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 10-19/${bytes.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.subarray(10, 20));
    // Another extension names nothing.
    expect((await call("GET", new URL(a.url.replace(/\.mp3$/, ".ogg")).pathname)).status).toBe(404);
  });

  test("an MP3 with an APIC cover: the cover is the thumbnail (a JPEG on the edge), counted in image storage; its ID3 tags are read", async () => {
    const { user, key } = await makeClient();
    const res = await uploadAudio(key, await fixture("mp3-cover"), "song.mp3");
    expect(res.status).toBe(201);
    const a = res.body.data;
    expect(a.thumbnailUrl).toEndWith(`/a/${a.id}/cover.jpg`);
    expect(a.tags).toMatchObject({ title: "Song", artist: "Someone" });
    const thumb = await edge(a.thumbnailUrl);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/jpeg");
    const jpeg = new Uint8Array(await thumb.arrayBuffer());
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: "jpeg", width: 64, height: 64 });
    const row = await audioRow(a.id);
    expect(row!.coverBytes).toBe(jpeg.length);
    expect((await usageOf(user)).image.storage.used).toBe(jpeg.length);
    expect(await audioObjects(user.id)).toEqual([`audio/${user.id}/${a.id}/cover.jpg`, `audio/${user.id}/${a.id}/original`]);
    // The default thumbnail is not served beside a cover.
    expect((await call("GET", new URL(a.thumbnailUrl.replace(/jpg$/, "svg")).pathname)).status).toBe(404);
  });

  test("a FLAC without a cover: the default FLAC thumbnail, a fixed SVG that runs nothing; a FLAC with a PICTURE block gets its cover", async () => {
    const { user, key } = await makeClient();
    const res = await uploadAudio(key, await fixture("flac"), "tone.flac");
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ mimeType: "audio/flac", durationSeconds: 2 });
    const thumb = await edge(res.body.data.thumbnailUrl);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/svg+xml");
    expect(thumb.headers.get("content-security-policy")).toContain("sandbox");
    const svg = await thumb.text();
    expect(svg).toStartWith("<svg");
    expect(svg).toContain("FLAC");
    expect((await usageOf(user)).image.storage.used).toBe(0);

    const covered = await uploadAudio(key, await fixture("flac-cover"), "pic.flac");
    expect(covered.status).toBe(201);
    expect(covered.body.data.thumbnailUrl).toEndWith("/cover.jpg");
    expect((await edge(covered.body.data.thumbnailUrl)).headers.get("content-type")).toBe("image/jpeg");
  });

  test("no image storage left for the cover: the file is taken with the default thumbnail, nothing counted in image storage", async () => {
    const app = await appWithTrial({ imageStorageBytes: 10 });
    const { user, key } = await makeClient();
    const res = await post(app, key, audioForm(await fixture("mp3-cover")));
    expect(res.status).toBe(201);
    expect(res.body.data.thumbnailUrl).toEndWith("/cover.svg");
    expect((await usageOf(user)).image.storage.used).toBe(0);
    expect(await audioObjects(user.id)).toEqual([`audio/${user.id}/${res.body.data.id}/original`]);
  });

  test("an OGG named .mp3 and declared audio/mpeg is judged by its bytes: stored and served as audio/ogg", async () => {
    const { key } = await makeClient();
    const res = await uploadAudio(key, await fixture("ogg"), "fake.mp3", {}, "audio/mpeg");
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ mimeType: "audio/ogg", filename: "fake.mp3" });
    expect(res.body.data.url).toEndWith(".ogg");
    expect((await edge(res.body.data.url)).headers.get("content-type")).toBe("audio/ogg");
  });

  test("WAV and M4A are taken with their types; an MP4 holding video is refused (422 INVALID_FILE_TYPE), nothing stored", async () => {
    const { user, key } = await makeClient();
    const wav = await uploadAudio(key, await fixture("wav"), "a.wav");
    expect(wav.status).toBe(201);
    expect(wav.body.data).toMatchObject({ mimeType: "audio/wav", durationSeconds: 1, bitrate: 128 });
    const m4a = await uploadAudio(key, await fixture("m4a"), "a.m4a");
    expect(m4a.status).toBe(201);
    expect(m4a.body.data.mimeType).toBe("audio/mp4");
    expect(m4a.body.data.durationSeconds).toBeGreaterThan(1.9);
    const before = await audioObjects(user.id);
    const video = await uploadAudio(key, await fixture("m4a-video"), "v.m4a");
    expect(video.status).toBe(422);
    expect(video.body.code).toBe("INVALID_FILE_TYPE");
    expect(await audioObjects(user.id)).toEqual(before);
  });

  test("a file of no accepted signature is 422 INVALID_FILE_TYPE, whatever its name and type say; nothing stored or counted", async () => {
    const { user, key } = await makeClient();
    const res = await uploadAudio(key, await png(), "song.mp3", {}, "audio/mpeg");
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("INVALID_FILE_TYPE");
    expect(await audioObjects(user.id)).toEqual([]);
    expect((await usageOf(user)).video.storage.used).toBe(0);
  });

  test("trial: an 11-minute file is refused, 413 FILE_TOO_LARGE with the limit and the duration in meta; nothing stored; pro takes it", async () => {
    const { user, key } = await makeClient();
    const long = await fixture("long-ogg");
    const res = await uploadAudio(key, long, "long.ogg");
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("FILE_TOO_LARGE");
    expect(res.body.meta.limit).toBe(600);
    expect(res.body.meta.durationSeconds).toBeCloseTo(660, 0);
    expect(await audioObjects(user.id)).toEqual([]);
    expect((await usageOf(user)).video.storage.used).toBe(0);

    const mp3 = await uploadAudio(key, await fixture("long-mp3"), "long.mp3");
    expect(mp3.status).toBe(413);
    expect(mp3.body.meta.limit).toBe(600);

    const pro = await makeClient({ plan: "pro" });
    const ok = await uploadAudio(pro.key, long, "long.ogg");
    expect(ok.status).toBe(201);
    expect(ok.body.data.durationSeconds).toBeCloseTo(660, 0);
    // ffmpeg makes two 11-minute files first.
  }, 60_000);

  test("over the plan's size: 413 FILE_TOO_LARGE with meta.limit, refused while streaming, nothing stored", async () => {
    const app = await appWithTrial({ audioMaxBytes: 4096 });
    const { user, key } = await makeClient();
    const res = await post(app, key, audioForm(await fixture("mp3")));
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: "FILE_TOO_LARGE", meta: { limit: 4096 } });
    expect(await audioObjects(user.id)).toEqual([]);
    expect((await usageOf(user)).video.storage.used).toBe(0);
  });

  test("a plan without audio: 403 FORBIDDEN before anything is read", async () => {
    const app = await appWithTrial({ audioAllowed: false });
    const { user, key } = await makeClient();
    const res = await post(app, key, audioForm(await fixture("mp3")));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "FORBIDDEN", meta: { plan: "trial" } });
    expect(await audioObjects(user.id)).toEqual([]);
  });

  test("no room left in media storage: 403 QUOTA_EXCEEDED (media_storage), nothing stored", async () => {
    const app = await appWithTrial({ mediaStorageBytes: 1000 });
    const { user, key } = await makeClient();
    const res = await post(app, key, audioForm(await fixture("mp3")));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "QUOTA_EXCEEDED", meta: { type: "media_storage" } });
    expect(await audioObjects(user.id)).toEqual([]);
  });

  test("the default title is the file's own title tag (trimmed); an explicit title wins over it; without a tag it is the file name", async () => {
    const { key } = await makeClient();
    const tagged = await uploadAudio(key, await fixture("ogg-titled"), "track01.ogg");
    expect(tagged.status).toBe(201);
    expect(tagged.body.data).toMatchObject({ title: "Morning Raga", filename: "track01.ogg" });
    expect(await audioRow(tagged.body.data.id)).toMatchObject({ title: "Morning Raga" });
    const read = await callJson("GET", `/v1/audio/${tagged.body.data.id}`, { token: key });
    expect(read.body.data).toMatchObject({ title: "Morning Raga", tags: { title: "Morning Raga", artist: "Someone" } });
    // An ID3v2 TIT2 as well.
    const mp3 = await uploadAudio(key, await fixture("mp3-cover"), "song.mp3");
    expect(mp3.body.data).toMatchObject({ title: "Song", filename: "song.mp3" });

    const named = await uploadAudio(key, await fixture("ogg-titled"), "track01.ogg", { title: "My pick" });
    expect(named.status).toBe(201);
    expect(named.body.data).toMatchObject({ title: "My pick", tags: { title: "Morning Raga" } });

    const untagged = await uploadAudio(key, await fixture("ogg"), "tone.ogg");
    expect(untagged.body.data).toMatchObject({ title: "tone.ogg", tags: {} });
  });

  test("title and isPublic from the form; a title over 255 characters is 422 VALIDATION_ERROR with nothing stored", async () => {
    const { user, key } = await makeClient();
    const named = await uploadAudio(key, await fixture("mp3"), "a.mp3", { title: "Morning tone", isPublic: "false" });
    expect(named.status).toBe(201);
    expect(named.body.data).toMatchObject({ title: "Morning tone", filename: "a.mp3", isPublic: false });
    const before = await audioObjects(user.id);
    const long = await uploadAudio(key, await fixture("mp3"), "a.mp3", { title: "x".repeat(256) });
    expect(long.status).toBe(422);
    expect(long.body).toMatchObject({ code: "VALIDATION_ERROR", meta: { path: "body.title" } });
    expect(await audioObjects(user.id)).toEqual(before);
    const max = await uploadAudio(key, await fixture("mp3"), "a.mp3", { title: "é".repeat(255) });
    expect(max.status).toBe(201);
  });

  test("POST /v1/audio: 401 without a credential, 403 without media.write", async () => {
    const bytes = await fixture("mp3");
    await expectTenantIsolation({ method: "POST", path: () => "/v1/audio", scope: "media.write", request: () => ({ body: audioForm(bytes) }) });
    const user = await makeUser();
    const { key } = await makeKey(user, ["media.read"]);
    expect((await uploadAudio(key, bytes)).status).toBe(403);
  });
});
