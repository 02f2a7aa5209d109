// Size variants of other kinds' pictures: a video's thumbnail and an audio file's cover take
// an image's size query (?w=&h=&fit=&q=&format=) on their edge paths, under the kind's own
// rules (a private video's thumbnail only through its signature); made once, kept beside
// the picture, deleted with the video or the audio file.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { sharp } from "../../src/infra/sharp.ts";
import { fixture, uploadAudio } from "../audio/fixtures.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { drain, insertVideo, testWorker } from "../videos/fixtures.ts";
import { photoLike } from "./fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const WEBP = "image/webp,*/*;q=0.8";
const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());
const edgePath = (url: string) => new URL(url).pathname;

async function keysUnder(prefix: string) {
  const { deps } = await testContext();
  const keys: string[] = [];
  for await (const o of deps.storage.list(prefix)) keys.push(o.key);
  return keys.sort();
}

describe("size variants of video thumbnails and audio covers", () => {
  test("an audio cover's ?w= is a variant of it (image bandwidth, its own ETag); a bad query is 400; the variants go with the file", async () => {
    const user = await makeUser({ plan: "pro" });
    const up = await uploadAudio(user.jwt, await fixture("mp3-cover"), "song.mp3");
    expect(up.status).toBe(201);
    const cover = up.body.data.thumbnailUrl as string;
    expect(cover).toEndWith("/cover.jpg");
    const whole = await call("GET", edgePath(cover));
    const res = await call("GET", `${edgePath(cover)}?w=16&h=16`, { headers: { accept: WEBP } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    expect(res.headers.get("etag")).not.toBe(whole.headers.get("etag"));
    const m = await sharp(await bytesOf(res)).metadata();
    expect([m.format, m.width, m.height]).toEqual(["webp", 16, 16]);
    const again = await call("GET", `${edgePath(cover)}?w=16&h=16`, { headers: { accept: WEBP, "if-none-match": res.headers.get("etag")! } });
    expect(again.status).toBe(304);
    const bad = await call("GET", `${edgePath(cover)}?w=17`);
    expect([bad.status, (await bad.json()).meta.param]).toEqual([400, "w"]);

    const prefix = `audio/${user.id}/${up.body.data.id}/`;
    expect((await keysUnder(prefix)).filter((k) => k.includes(".v/"))).toHaveLength(1);
    expect((await call("DELETE", `/v1/audio/${up.body.data.id}`, { token: user.jwt })).status).toBe(204);
    expect((await call("DELETE", `/v1/trash/${up.body.data.id}`, { token: user.jwt })).status).toBe(204);
    expect(await keysUnder(prefix)).toEqual([]);
  });

  test("a video's thumbnail takes the size query; a private video's only through its signed URL; the variants go with the video", async () => {
    const user = await makeUser({ plan: "pro" });
    const { deps } = await testContext();
    const id = crypto.randomUUID().replaceAll("-", "").slice(0, 21);
    const prefix = `videos/${user.id}/${id}/`;
    const thumb = await sharp(await photoLike(640, 360))
      .jpeg()
      .toBuffer();
    await deps.storage.put(`${prefix}thumb.jpg`, thumb, { contentType: "image/jpeg" });
    await insertVideo(user.id, { id, status: "ready", durationSeconds: 2, renditions: [], thumbnailKey: `${prefix}thumb.jpg`, readyAt: new Date() } as never);
    const listed = (await callJson("GET", `/v1/videos/${id}`, { token: user.jwt })).body.data;
    const path = edgePath(listed.thumbnail_url);
    const res = await call("GET", `${path}?w=128`, { headers: { accept: WEBP } });
    expect(res.status).toBe(200);
    const m = await sharp(await bytesOf(res)).metadata();
    expect([m.format, m.width, m.height]).toEqual(["webp", 128, 72]);
    expect((await keysUnder(prefix)).filter((k) => k.includes("thumb.jpg.v/"))).toHaveLength(1);

    // Made private: the variant is refused without a signature, as the thumbnail is.
    expect((await callJson("PATCH", `/v1/videos/${id}`, { token: user.jwt, json: { isPublic: false } })).status).toBe(200);
    expect((await call("GET", `${path}?w=128`, { headers: { accept: WEBP } })).status).toBe(403);
    expect((await call("GET", path)).status).toBe(403);

    expect((await call("DELETE", `/v1/videos/${id}`, { token: user.jwt })).status).toBe(204);
    expect((await call("DELETE", `/v1/trash/${id}`, { token: user.jwt })).status).toBe(204);
    await drain(await testWorker()); // the video's objects go in a job of the queue
    expect(await keysUnder(prefix)).toEqual([]);
  });
});
