// The local transcoder reads an original only as a file of the containers an upload may
// be, through the file protocol alone: a source that is a playlist, a concat list or a
// manifest naming URLs or other files on the node makes ffmpeg open none of them, and the
// video ends failed.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { originalKey } from "../../src/modules/videos/layout.ts";
import { enqueue } from "../../src/modules/videos/queue.ts";
import { tempDir, testContext } from "../helpers/context.ts";
import { makeClient, makeUser } from "../helpers/factories.ts";
import { clip, drain, insertVideo, testWorker, uploadVideo, videoRow } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const hits: string[] = [];
const listener = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    hits.push(new URL(req.url).pathname);
    return new Response("not here", { status: 404 });
  },
});
afterAll(() => void listener.stop(true));
const remote = (path: string) => `http://127.0.0.1:${listener.port}/${path}`;

/** A processing video whose stored original is `source`, with its transcode queued, as an upload leaves it. */
async function queuedVideo(source: string) {
  const { deps } = await testContext();
  const owner = await makeUser({ plan: "pro" });
  const v = await insertVideo(owner.id);
  await deps.storage.put(originalKey(v), new TextEncoder().encode(source), { contentType: "video/mp4" });
  await deps.db.transaction((tx) => enqueue(tx, { kind: "transcode", videoId: v.id, ownerId: owner.id, provider: "local" }, deps.clock.now()));
  return v;
}

const hlsPlaylist = (segment: string, extra = "") =>
  `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n${extra}#EXTINF:2.0,\n${segment}\n#EXT-X-ENDLIST\n`;

describe("local transcoder: inputs confined to local files of the accepted containers", () => {
  test("an HLS playlist, a concat list and a DASH manifest naming a local listener: no request reaches it, each video ends failed", async () => {
    const sources = {
      "hls segment": hlsPlaylist(remote("seg0.ts")),
      "hls key": hlsPlaylist("seg0.ts", `#EXT-X-KEY:METHOD=AES-128,URI="${remote("key")}"\n`),
      "hls variant": `#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000\n${remote("variant.m3u8")}\n`,
      concat: `ffconcat version 1.0\nfile '${remote("part.mp4")}'\n`,
      dash: `<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT2S" minBufferTime="PT1S"><BaseURL>${remote("")}</BaseURL><Period><AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="1000" width="64" height="64"><BaseURL>v.mp4</BaseURL></Representation></AdaptationSet></Period></MPD>`,
    };
    const queued = await Promise.all(Object.entries(sources).map(async ([name, source]) => [name, await queuedVideo(source)] as const));
    await drain(await testWorker());
    for (const [name, v] of queued) expect([name, (await videoRow(v.id))!.status]).toEqual([name, "failed"]);
    expect(hits).toEqual([]);
  }, 60_000);

  test("an HLS playlist naming another file on the node by its path is not read: the video ends failed, not ready with that file's pictures", async () => {
    // As another user's original in the embedded object store would be.
    const dir = tempDir("shelf-elsewhere-");
    writeFileSync(join(dir, "clip.mp4"), await clip({ seconds: 2 }));
    const elsewhere = join(dir, "someone-elses.ts");
    await Bun.$`ffmpeg -v error -y -i clip.mp4 -c copy -f mpegts ${elsewhere}`.cwd(dir).quiet();
    const v = await queuedVideo(hlsPlaylist(elsewhere));
    await drain(await testWorker());
    const row = await videoRow(v.id);
    expect(row).toMatchObject({ status: "failed", durationSeconds: null, directKey: null });
    expect(row!.failureReason).toMatch(/could not be read as a video/);
  }, 60_000);

  test("every container an upload may be (MP4, MOV, MKV, WebM, AVI) is still read: each ends ready", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const formats = ["mp4", "mov", "mkv", "webm", "avi"] as const;
    const ids: [string, string][] = [];
    for (const format of formats) {
      const up = await uploadVideo(key, await clip({ seconds: 1, format, audio: format !== "mov" }), {}, `clip.${format}`);
      expect(up.status).toBe(201);
      ids.push([format, up.body.data.id]);
    }
    await drain(await testWorker());
    for (const [format, id] of ids) expect([format, (await videoRow(id))!.status]).toEqual([format, "ready"]);
  }, 120_000);
});
