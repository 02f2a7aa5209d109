// A video's captions (PUT/GET/DELETE /v1/videos/:id/captions): WebVTT or SRT in, WebVTT
// out, one track per language, listed in the master playlist as a subtitles group that a
// player reads (hls.js in Chromium: test/browser/hls.test.ts; the ffmpeg of Debian 12
// does not read subtitle renditions);
// counted in image storage; bad files, languages and sizes refused with their codes.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { storedVideos } from "../../src/modules/videos/stored-kind.ts";
import { join } from "node:path";
import { call, callJson, tempDir, testContext } from "../helpers/context.ts";
import { makeUser, type TestUser } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { imageStorage } from "../kbs/file-fixtures.ts";
import { insertVideo, videoObjects } from "./fixtures.ts";
import { storedVideo } from "./playback-fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const SRT = "1\r\n00:00:00,200 --> 00:00:00,900\r\nHello there\r\n\r\n2\r\n00:00:01,000 --> 00:00:01,800\r\nGeneral Kenobi\r\n";
const VTT = "WEBVTT\n\n00:00:00.200 --> 00:00:01.800\nBonjour\n";

const put = (user: TestUser, id: string, language: string, body: string | Uint8Array<ArrayBuffer>, query = "") =>
  callJson("PUT", `/v1/videos/${id}/captions/${language}${query}`, { token: user.jwt, body, headers: { "content-type": "text/plain" } });
const list = (user: TestUser, id: string) => callJson("GET", `/v1/videos/${id}/captions`, { token: user.jwt });
const edge = async (url: string) => (await testContext()).app.handle(new Request(url));

describe("captions of a video", () => {
  test("SRT in, WebVTT out: 201 with its canonical language, default label and URL; listed; served as text/vtt; a replacement is 200 at a new URL and the old file goes", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id);
    const before = await imageStorage(owner.jwt);

    const created = await put(owner, v.id, "EN-us", SRT);
    expect(created.status).toBe(201);
    const track = created.body.data;
    expect(track).toMatchObject({ language: "en-US", label: "American English", updatedAt: expect.any(String) });
    expect(track.url).toMatch(new RegExp(`/v/${v.id}/subs/en-US-[A-Za-z0-9_-]{10}\\.vtt$`));
    const file = await edge(track.url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/vtt; charset=utf-8");
    const text = await file.text();
    // The cues' 0 is the video's first frame: its first segment's start as ffprobe reads it, in 90 kHz ticks.
    const segment = join(tempDir("shelf-seg-"), "seg.ts");
    await Bun.write(segment, v.files.get("360p/seg_00000.ts")!);
    const start = Number((await Bun.$`ffprobe -v error -show_entries format=start_time -of csv=p=0 ${segment}`.quiet().text()).trim());
    expect(start).toBeGreaterThan(0);
    const map = `X-TIMESTAMP-MAP=MPEGTS:${Math.round(start * 90_000)},LOCAL:00:00:00.000`;
    expect(text).toBe(`WEBVTT\n${map}\n\n1\n00:00:00.200 --> 00:00:00.900\nHello there\n\n2\n00:00:01.000 --> 00:00:01.800\nGeneral Kenobi\n`);
    expect(track.sizeBytes).toBe(new TextEncoder().encode(text).length);
    expect(await imageStorage(owner.jwt)).toBe(before + track.sizeBytes);

    const fr = await put(owner, v.id, "fr", VTT, "?label=Fran%C3%A7ais");
    expect(fr.status).toBe(201);
    expect(fr.body.data.label).toBe("Français");
    expect((await list(owner, v.id)).body.data.items.map((t: { language: string }) => t.language)).toEqual(["en-US", "fr"]);

    const replaced = await put(owner, v.id, "en-US", VTT);
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.url).not.toBe(track.url);
    expect((await edge(track.url)).status).toBe(404);
    expect(await (await edge(replaced.body.data.url)).text()).toBe(VTT.replace("WEBVTT\n", `WEBVTT\n${map}\n`));
    expect((await list(owner, v.id)).body.data.items).toHaveLength(2);
    expect(await imageStorage(owner.jwt)).toBe(before + replaced.body.data.sizeBytes + fr.body.data.sizeBytes);
    // The orphan sweep takes a track's file for the video's.
    const keys = (await videoObjects(owner.id)).filter((k) => k.includes("/captions/"));
    expect(keys).toHaveLength(2);
    const { deps } = await testContext();
    expect([...(await storedVideos.referenced(deps.db, keys))].sort()).toEqual(keys.sort());
  });

  test("the master playlist lists the tracks as a subtitles group; each track's playlist names its file; removed, the master is as stored", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id);
    const base = `http://shelf.test/media/v/${v.id}`;
    const plain = await (await edge(`${base}/master.m3u8`)).text();
    expect(plain).not.toContain("SUBTITLES");

    const track = (await put(owner, v.id, "en", SRT)).body.data;
    const master = await edge(`${base}/master.m3u8`);
    expect(master.headers.get("cache-control")).toBe("public, max-age=30");
    const text = await master.text();
    expect(text).toContain('#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,URI="subs/en.m3u8"');
    const streams = text.split("\n").filter((l) => l.startsWith("#EXT-X-STREAM-INF"));
    expect(streams).toHaveLength(2);
    for (const s of streams) expect(s.endsWith(',SUBTITLES="subs"')).toBe(true);
    const playlist = await (await edge(`${base}/subs/en.m3u8`)).text();
    expect(playlist).toContain(`\n${track.url.slice(track.url.lastIndexOf("/") + 1)}\n`);
    expect(playlist).toContain("#EXT-X-ENDLIST");

    // Gone again: the master has no group.
    expect((await call("DELETE", `/v1/videos/${v.id}/captions/en`, { token: owner.jwt })).status).toBe(204);
    expect(await (await edge(`${base}/master.m3u8`)).text()).toBe(plain);
    expect((await edge(`${base}/subs/en.m3u8`)).status).toBe(404);
    expect((await videoObjects(owner.id)).filter((k) => k.includes("/captions/"))).toEqual([]);
  });

  test("a private video's track is served through its signed URL only", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id, { isPublic: false });
    const track = (await put(owner, v.id, "de", VTT)).body.data;
    expect(track.url).toMatch(new RegExp(`/v/${v.id}/s\\.[^/]+/subs/de-`));
    expect((await edge(track.url)).status).toBe(200);
    expect((await edge(track.url.replace(/\/s\.[^/]+\//, "/"))).status).toBe(403);
  });

  test("refused with their codes and nothing kept: a bad language, a file that is not captions, not UTF-8 or too large, a video not ready yet, another user's or a Mux video, a track too many; a delete of none is 404", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id);
    const before = await imageStorage(owner.jwt);

    const badLang = await put(owner, v.id, "not_a_language", VTT);
    expect(badLang.status).toBe(422);
    expect(badLang.body).toMatchObject({ code: "VALIDATION_ERROR", meta: { issues: [{ path: "params.language" }] } });

    const junk = await put(owner, v.id, "en", "hello world\n00:00 -> nope\n");
    expect(junk.status).toBe(422);
    expect(junk.body.code).toBe("INVALID_FILE_TYPE");
    expect(junk.body.meta.errors[0]).toMatchObject({ line: expect.any(Number), message: expect.any(String) });
    const backwards = await put(owner, v.id, "en", "WEBVTT\n\n00:00:02.000 --> 00:00:01.000\nlate\n");
    expect(backwards.body.meta.errors).toEqual([{ line: 3, message: "End timestamp is not greater than start timestamp." }]);
    expect((await put(owner, v.id, "en", "WEBVTT\n")).body).toMatchObject({ code: "INVALID_FILE_TYPE", error: "the captions hold no cue" });
    expect((await put(owner, v.id, "en", Uint8Array.of(0x57, 0x45, 0xff, 0xfe))).body.code).toBe("INVALID_FILE_TYPE");
    const big = await put(owner, v.id, "en", `WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n${"x".repeat(600 * 1024)}\n`);
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: "FILE_TOO_LARGE", meta: { limit: 512 * 1024 } });
    const badLabel = await put(owner, v.id, "en", VTT, "?label=%20");
    expect(badLabel.body).toMatchObject({ code: "VALIDATION_ERROR", meta: { issues: [{ path: "query.label" }] } });

    const processing = await storedVideo(owner.id, { status: "processing" });
    const early = await put(owner, processing.id, "en", VTT);
    expect(early.status).toBe(409);
    expect(early.body.meta).toEqual({ reason: "not_ready", status: "processing" });

    const mux = await insertVideo(owner.id, { provider: "mux", status: "ready" });
    const hosted = await put(owner, mux.id, "en", VTT);
    expect(hosted.status).toBe(409);
    expect(hosted.body.meta.reason).toBe("hosted_provider");

    const other = await makeUser({ plan: "pro" });
    expect((await put(other, v.id, "en", VTT)).status).toBe(404);
    expect((await list(other, v.id)).status).toBe(404);
    expect((await call("DELETE", `/v1/videos/${v.id}/captions/en`, { token: owner.jwt })).status).toBe(404);

    expect((await list(owner, v.id)).body.data.items).toEqual([]);
    expect((await videoObjects(owner.id)).filter((k) => k.includes("/captions/"))).toEqual([]);
    expect(await imageStorage(owner.jwt)).toBe(before);

    const twenty = ["de", "es", "it", "nl", "pt", "sv", "da", "fi", "no", "pl", "cs", "hu", "ro", "el", "tr", "ru", "uk", "ja", "ko", "zh"];
    for (const language of twenty) expect((await put(owner, v.id, language, VTT)).status).toBe(201);
    const tooMany = await put(owner, v.id, "en", VTT);
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.meta).toEqual({ reason: "caption_limit", limit: 20 });
  });

  test("a video's purge gives its captions' bytes back and removes their files", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id);
    const before = await imageStorage(owner.jwt);
    await put(owner, v.id, "en", SRT);
    expect(await imageStorage(owner.jwt)).toBeGreaterThan(before);
    expect((await call("DELETE", `/v1/videos/${v.id}`, { token: owner.jwt })).status).toBe(204);
    // In the trash they still count; the purge gives them back.
    expect(await imageStorage(owner.jwt)).toBeGreaterThan(before);
    expect((await call("DELETE", `/v1/trash/${v.id}`, { token: owner.jwt })).status).toBe(204);
    expect(await imageStorage(owner.jwt)).toBe(before);
  });

  test("no request reaches another user's captions: 401 without a credential, 403 without the scope, 404 for another user", async () => {
    const withTrack = async (owner: TestUser) => {
      const v = await storedVideo(owner.id);
      await put(owner, v.id, "en", VTT);
      return v.id;
    };
    const textBody = () => ({ body: VTT, headers: { "content-type": "text/vtt" } });
    await expectTenantIsolation({ method: "GET", path: (id) => `/v1/videos/${id}/captions`, scope: "media.read", create: withTrack });
    await expectTenantIsolation({ method: "PUT", path: (id) => `/v1/videos/${id}/captions/en`, scope: "media.write", create: withTrack, request: textBody });
    await expectTenantIsolation({ method: "DELETE", path: (id) => `/v1/videos/${id}/captions/en`, scope: "media.write", create: withTrack });
  });
});
