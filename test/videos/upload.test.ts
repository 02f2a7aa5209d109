// POST /v1/videos: streamed to storage, container from the first bytes, plan and quota
// before a byte is stored, 413 while streaming, and nothing left behind by any failure.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createApp } from "../../src/wiring/app.ts";
import type { Deps } from "../../src/wiring/deps.ts";
import { transcodeJobs } from "../../src/modules/videos/table.ts";
import { createServices, type Services } from "../../src/wiring/services.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, type TestUser } from "../helpers/factories.ts";
import { clip, uploadVideo, videoForm, videoObjects, videoRow } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

async function mediaUsed(user: TestUser): Promise<number> {
  const { key } = await makeKey(user, ["usage.read"]);
  return (await callJson("GET", "/v1/user/me/usage", { token: key })).body.data.video.storage.used;
}

const opened: Services[] = [];
afterAll(() => Promise.all(opened.map((s) => s.close())));

/** An app on the shared parts whose pro plan has other limits. */
async function appWithPro(pro: Partial<Deps["plans"]["pro"]>) {
  const { deps } = await testContext();
  const services = createServices({ ...deps, plans: { ...deps.plans, pro: { ...deps.plans.pro, ...pro } } });
  opened.push(services);
  return createApp(services);
}

async function post(app: { handle(r: Request): Promise<Response> }, key: string, body: BodyInit, headers: Record<string, string> = {}) {
  const res = await app.handle(new Request("http://shelf.test/v1/videos", { method: "POST", headers: { authorization: `Bearer ${key}`, ...headers }, body }));
  return { status: res.status, body: (await res.json()) as any };
}

/** A multipart body streamed in chunks without a Content-Length: the file part is `fileBytes` long. */
function chunkedForm(fileBytes: number, head: Uint8Array, opts: { failAfter?: number } = {}) {
  const boundary = "----shelfvideoboundary";
  const enc = new TextEncoder();
  const pre = enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`);
  const post = enc.encode(`\r\n--${boundary}--\r\n`);
  let sent = 0;
  const chunk = new Uint8Array(64 * 1024);
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(pre);
      c.enqueue(head);
      sent = head.length;
    },
    pull(c) {
      if (opts.failAfter !== undefined && sent >= opts.failAfter) return c.error(new Error("client went away"));
      if (sent >= fileBytes) {
        c.enqueue(post);
        return c.close();
      }
      const n = Math.min(chunk.length, fileBytes - sent);
      c.enqueue(chunk.subarray(0, n));
      sent += n;
    },
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe("POST /v1/videos", () => {
  test("201 in status processing with the video's fields; the original stored, its bytes counted, a transcode queued", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient({ plan: "pro" });
    const bytes = await clip();
    const res = await uploadVideo(key, bytes, {}, "holiday.mp4");
    expect(res.status).toBe(201);
    const v = res.body.data;
    expect(v).toMatchObject({ title: "holiday.mp4", filename: "holiday.mp4", sizeBytes: bytes.length, status: "processing", isPublic: true, tags: [] });
    expect(v.id).toHaveLength(21);
    expect(v.createdAt).toBe(v.updatedAt);
    expect(await videoObjects(user.id)).toEqual([`videos/${user.id}/${v.id}/original`]);
    expect(await deps.storage.read(`videos/${user.id}/${v.id}/original`)).toEqual(bytes);
    expect(await mediaUsed(user)).toBe(bytes.length);
    const jobs = await deps.db.select().from(transcodeJobs).where(eq(transcodeJobs.videoId, v.id));
    expect(jobs.map((j) => [j.kind, j.state])).toEqual([["transcode", "queued"]]);
  });

  test("title, tags (JSON text) and isPublic are taken from the form", async () => {
    const { key } = await makeClient({ plan: "pro_plus" });
    const res = await uploadVideo(key, await clip(), { title: "My talk", tags: '["talks","2026"]', isPublic: "false" });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ title: "My talk", tags: ["talks", "2026"], isPublic: false });
  });

  test("a trial user is refused with 403 PLAN_REQUIRED and nothing is stored", async () => {
    const { user, key } = await makeClient();
    const res = await uploadVideo(key, await clip());
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("PLAN_REQUIRED");
    expect(await videoObjects(user.id)).toEqual([]);
  });

  test("bytes that are no supported container: 422 INVALID_FILE_TYPE, nothing stored or counted", async () => {
    const { user, key } = await makeClient({ plan: "pro" });
    const res = await uploadVideo(key, new TextEncoder().encode("just some text, not a video at all, however it is named".repeat(4)), {}, "x.mp4");
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("INVALID_FILE_TYPE");
    expect(await videoObjects(user.id)).toEqual([]);
    expect(await mediaUsed(user)).toBe(0);
  });

  test("bad fields (tags not JSON, a blank title) are 422 naming the field; the streamed original is removed", async () => {
    const { user, key } = await makeClient({ plan: "pro" });
    const bad = await uploadVideo(key, await clip(), { tags: "talks" });
    expect(bad.status).toBe(422);
    expect(bad.body.meta.path).toBe("body.tags");
    const blank = await uploadVideo(key, await clip(), { title: "  " });
    expect(blank.status).toBe(422);
    expect(blank.body.meta.path).toBe("body.title");
    expect(await videoObjects(user.id)).toEqual([]);
    expect(await mediaUsed(user)).toBe(0);
  });

  test("no file part: 422 VALIDATION_ERROR; not multipart: 400", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const form = new FormData();
    form.set("title", "nothing");
    const none = await callJson("POST", "/v1/videos", { token: key, body: form });
    expect(none.status).toBe(422);
    expect(none.body.meta.path).toBe("body.file");
    const json = await callJson("POST", "/v1/videos", { token: key, json: { file: "x" } });
    expect(json.status).toBe(400);
  });

  test("a stream over the plan's size (no Content-Length): 413 FILE_TOO_LARGE, the partial object removed, nothing counted", async () => {
    const app = await appWithPro({ videoMaxBytes: 300_000 });
    const { user, key } = await makeClient({ plan: "pro" });
    const head = (await clip()).subarray(0, 4096);
    const { body, contentType } = chunkedForm(1_000_000, head);
    const res = await post(app, key, body, { "content-type": contentType });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("FILE_TOO_LARGE");
    expect(await videoObjects(user.id)).toEqual([]);
    expect(await mediaUsed(user)).toBe(0);
  });

  test("a Content-Length over the plan's size is refused (413) before the body is read", async () => {
    const app = await appWithPro({ videoMaxBytes: 300_000 });
    const { user, key } = await makeClient({ plan: "pro" });
    const form = videoForm(await clip());
    const res = await post(app, key, new Uint8Array(await new Response(form).arrayBuffer()), {
      "content-type": new Response(form).headers.get("content-type")!,
      "content-length": "5000000",
    });
    expect(res.status).toBe(413);
    expect(await videoObjects(user.id)).toEqual([]);
  });

  test("over media storage: 403 QUOTA_EXCEEDED meta.type media_storage, before a byte is stored", async () => {
    const bytes = await clip();
    const app = await appWithPro({ mediaStorageBytes: bytes.length - 1 });
    const { user, key } = await makeClient({ plan: "pro" });
    const res = await post(app, key, videoForm(bytes));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "QUOTA_EXCEEDED", meta: { type: "media_storage", used: 0, limit: bytes.length - 1 } });
    expect(await videoObjects(user.id)).toEqual([]);
    expect(await mediaUsed(user)).toBe(0);
  });

  test("a client that disconnects mid-upload leaves nothing behind", async () => {
    const { deps, app } = await testContext();
    const { user, key } = await makeClient({ plan: "pro" });
    const head = (await clip()).subarray(0, 4096);
    const { body, contentType } = chunkedForm(2_000_000, head, { failAfter: 500_000 });
    const res = await post(app, key, body, { "content-type": contentType });
    expect(res.status).toBe(400);
    expect(await videoObjects(user.id)).toEqual([]);
    expect(await mediaUsed(user)).toBe(0);
    const rows = await deps.db.select().from(transcodeJobs).where(eq(transcodeJobs.ownerId, user.id));
    expect(rows).toEqual([]);
  });

  test("the row matches the answer", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const res = await uploadVideo(key, await clip(), { tags: '["a"]' });
    const row = await videoRow(res.body.data.id);
    expect(row).toMatchObject({ status: "processing", tags: ["a"], container: "mp4", provider: "local", progress: 0 });
  });
});
