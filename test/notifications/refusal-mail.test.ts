// The 100% e-mail when an upload is refused for lack of room: a refused upload rolls
// back, so no counter crosses the limit; the refusal itself tells the 100% mark, once, in a
// transaction of its own. Rate counts (429) and limits without marks tell nothing, and the
// refused upload still stores nothing.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { dayKey } from "../../src/infra/clock.ts";
import { newId } from "../../src/infra/ids.ts";
import { formatBytes } from "../../src/modules/notifications/format.ts";
import { outbox, quotaMarks } from "../../src/modules/notifications/table.ts";
import { ledger } from "../../src/modules/usage/ledger.ts";
import { tellRefusal } from "../../src/modules/usage/public.ts";
import { LimitRefusal } from "../../src/core/refusal.ts";
import { audioForm, audioObjects } from "../audio/fixtures.ts";
import { kbWith, openTestBranch } from "../branches/fixtures.ts";
import { callJson } from "../helpers/context.ts";
import { makeClient, type TestUser } from "../helpers/factories.ts";
import { jpegWithExif, uploadForm } from "../images/fixtures.ts";
import { del, newKb, sync, upsert } from "../kbs/fixtures.ts";
import { clip, videoForm, videoObjects } from "../videos/fixtures.ts";
import { startSmtp, type TestSmtp, world } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const DAY = 86_400_000;
const IMAGE_LIMIT = 20_000;
const MEDIA_LIMIT = 100_000;
const limits = {
  trial: { imageStorageBytes: IMAGE_LIMIT, mediaStorageBytes: MEDIA_LIMIT, docCount: 10, uploadsPerDay: 50 },
  pro: { mediaStorageBytes: MEDIA_LIMIT },
};
const DOCS_FULL = "A new document was refused because your account holds all the documents its plan allows";
const IMAGE_FULL = "An upload was refused because your image and document storage is full";
const MEDIA_FULL = "An upload was refused because your video and audio storage is full";

const photo = await jpegWithExif({ width: 64, height: 64, orientation: 1 });
let smtp: TestSmtp;
let w: Awaited<ReturnType<typeof world>>;
beforeAll(async () => {
  smtp = await startSmtp();
  w = await world(smtp, limits);
});
afterAll(async () => {
  await w.close();
  await smtp.close();
});

/** Sets one of the user's all-time counters (as earlier uploads would have, without their e-mails). */
const holds = (user: TestUser, dimension: "img_storage" | "media_storage" | "doc_count", amount: number) =>
  ledger.add(w.deps.db, [{ userId: user.id, dimension, period: "total", amount }]);

const uploadImage = (key: string) => callJson("POST", "/v1/images", { app: w.app, token: key, body: uploadForm(photo, { filename: "p.jpg" }) });
const uploadDoc = (key: string, bytes = 100) => {
  const head = `${newId()}\n`;
  return callJson("POST", "/v1/docs", { app: w.app, token: key, json: { filename: `${newId()}.md`, content: head + "x".repeat(bytes - head.length) } });
};
const usage = async (key: string) => (await callJson("GET", "/v1/user/me/usage", { app: w.app, token: key })).body.data;

/** A multipart form with its Content-Length: the pre-check refuses on the declared size. */
async function declared(path: string, key: string, form: FormData) {
  const r = new Response(form);
  const body = new Uint8Array(await r.arrayBuffer());
  const headers = { "content-type": r.headers.get("content-type")!, "content-length": String(body.length) };
  return callJson("POST", path, { app: w.app, token: key, body, headers });
}

/** The same form streamed without a Content-Length: only the transaction's reserve() can refuse it. */
async function streamed(path: string, key: string, form: FormData) {
  const r = new Response(form);
  const contentType = r.headers.get("content-type")!;
  return callJson("POST", path, { app: w.app, token: key, body: r.body!, headers: { "content-type": contentType } });
}

const subjects = (user: TestUser) => smtp.to(user.email).map((m) => m.subject);

describe("a refusal for lack of room tells the 100% mark", () => {
  test("an image refused at 95% of image storage: one e-mail saying so with the numbers; a second refusal none; nothing stored", async () => {
    const { user, key } = await makeClient();
    const other = await makeClient();
    await holds(user, "img_storage", 19_000);
    const refused = await uploadImage(key);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "QUOTA_EXCEEDED", meta: { type: "img_storage", used: 19_000, limit: IMAGE_LIMIT } });
    await w.deliver();
    expect(subjects(user)).toEqual([IMAGE_FULL]);
    const mail = smtp.to(user.email)[0]!;
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain("An upload was refused because it needed more image and document storage than is left.");
      expect(body).toContain(`${formatBytes(19_000)} of its ${formatBytes(IMAGE_LIMIT)} of image and document storage (95%)`);
      expect(body).toContain("New image and document uploads are refused until you delete something");
      expect(body).toContain(`${w.deps.config.CENTER_URL}/usage`);
    }

    expect((await uploadImage(key)).status).toBe(403);
    await w.deliver();
    expect(subjects(user)).toHaveLength(1);
    // The refused uploads stored and counted nothing.
    const u = await usage(key);
    expect(u.image.storage.used).toBe(19_000);
    expect(u.uploads.day.used).toBe(0);
    expect((await callJson("GET", "/v1/images", { app: w.app, token: key })).body.data.items).toEqual([]);
    const objects: string[] = [];
    for await (const o of w.deps.storage.list(`images/${user.id}/`)) objects.push(o.key);
    expect(objects).toEqual([]);

    // The mark is the one a crossing tells: reaching the limit exactly later tells nothing more.
    expect((await uploadDoc(key, 1000)).status).toBe(201);
    expect((await usage(key)).image.storage.used).toBe(IMAGE_LIMIT);
    await w.deliver();
    expect(subjects(user)).toHaveLength(1);
    // Told to the owner only.
    expect(smtp.to(other.user.email)).toEqual([]);
  });

  test("media storage: audio refused by the pre-check tells once, video refused by reserve() after streaming tells nothing more; nothing stored", async () => {
    const { user, key } = await makeClient({ plan: "pro" });
    await holds(user, "media_storage", 95_000);
    // A declared 200 KB file: refused before a byte of it is read.
    const audio = await declared("/v1/audio", key, audioForm(new Uint8Array(200_000)));
    expect(audio.status).toBe(403);
    expect(audio.body).toMatchObject({ code: "QUOTA_EXCEEDED", meta: { type: "media_storage", used: 95_000, limit: MEDIA_LIMIT } });
    await w.deliver();
    expect(subjects(user)).toEqual([MEDIA_FULL]);
    expect(smtp.to(user.email)[0]!.text).toContain(`${formatBytes(95_000)} of its ${formatBytes(MEDIA_LIMIT)} of video and audio storage (95%)`);

    const video = await streamed("/v1/videos", key, videoForm(await clip()));
    expect(video.status).toBe(403);
    expect(video.body).toMatchObject({ code: "QUOTA_EXCEEDED", meta: { type: "media_storage", used: 95_000 } });
    await w.deliver();
    expect(subjects(user)).toHaveLength(1);
    expect(await videoObjects(user.id)).toEqual([]);
    expect(await audioObjects(user.id)).toEqual([]);
    expect((await usage(key)).video.storage.used).toBe(95_000);
  });

  test("a video refused by reserve() after streaming tells on its own; the streamed object is removed", async () => {
    const { user, key } = await makeClient({ plan: "pro" });
    await holds(user, "media_storage", 99_000);
    const video = await streamed("/v1/videos", key, videoForm(await clip()));
    expect(video.status).toBe(403);
    expect(video.body.meta).toMatchObject({ type: "media_storage", used: 99_000, limit: MEDIA_LIMIT });
    await w.deliver();
    expect(subjects(user)).toEqual([MEDIA_FULL]);
    expect(await videoObjects(user.id)).toEqual([]);
  });

  test("doc_count on the trial plan: a new document refused at the cap tells once", async () => {
    const { user, key } = await makeClient();
    await holds(user, "doc_count", 10);
    const refused = await uploadDoc(key);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "QUOTA_EXCEEDED", meta: { type: "doc_count", used: 10, limit: 10 } });
    expect((await uploadDoc(key)).status).toBe(403);
    await w.deliver();
    expect(subjects(user)).toEqual([DOCS_FULL]);
    expect(smtp.to(user.email)[0]!.text).toContain("Your account holds 10 of the 10 documents its plan allows (100%).");
    expect((await usage(key)).doc.count.used).toBe(10);
  });

  test("a KB sync whose new document is skipped QUOTA_EXCEEDED (doc_count, a 200 answer, not a 403) tells once; a second such push none", async () => {
    const { user, key } = await makeClient();
    const kb = await newKb(key);
    await holds(user, "doc_count", 10);
    const res = await sync(key, kb.id, [upsert("new.md", "one too many")], { app: w.app });
    expect(res.status).toBe(200);
    expect(res.body.data.skipped).toMatchObject([{ relativePath: "new.md", reason: "QUOTA_EXCEEDED", meta: { type: "doc_count", used: 10, limit: 10 } }]);
    expect((await sync(key, kb.id, [upsert("again.md", "still too many")], { app: w.app })).body.data.skipped).toHaveLength(1);
    await w.deliver();
    expect(subjects(user)).toEqual([DOCS_FULL]);
    expect((await usage(key)).doc.count.used).toBe(10);
  });

  test("accepting the branch of a master deleted since, refused at doc_count (403), tells once and leaves the branch pending", async () => {
    const { user, key, kb, applied } = await kbWith({ "gone.md": "was here" });
    const branch = await openTestBranch(user.id, kb.id, "gone.md", "bring it back", w.deps);
    expect((await sync(key, kb.id, [del("gone.md", applied[0]!.updatedAt)], { app: w.app })).status).toBe(200);
    await holds(user, "doc_count", 10);
    const res = await callJson("POST", `/v1/kbs/${kb.id}/conflicts/${branch.id}/accept`, { app: w.app, token: key });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "QUOTA_EXCEEDED", meta: { type: "doc_count", used: 10, limit: 10 } });
    await w.deliver();
    expect(subjects(user)).toEqual([DOCS_FULL]);
    expect((await callJson("GET", `/v1/kbs/${kb.id}/conflicts/${branch.id}`, { app: w.app, token: key })).status).toBe(200);
  });

  test("a file larger than what is left, refused while the storage is far from full (4%), tells nothing; at 80% it is told", async () => {
    const { user, key } = await makeClient();
    await holds(user, "img_storage", 800);
    const tus = (length: number) =>
      callJson("POST", "/v1/uploads", {
        app: w.app,
        token: key,
        headers: { "tus-resumable": "1.0.0", "upload-length": String(length), "upload-metadata": `kind ${btoa("image")},filename ${btoa("big.png")}` },
      });
    const refused = await tus(30_000);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "QUOTA_EXCEEDED", meta: { type: "img_storage", used: 800, limit: IMAGE_LIMIT } });
    await w.deliver();
    expect(smtp.to(user.email)).toEqual([]);
    expect(await w.deps.db.select().from(quotaMarks).where(eq(quotaMarks.userId, user.id))).toEqual([]);

    await holds(user, "img_storage", 15_200);
    expect((await tus(5_000)).status).toBe(403);
    await w.deliver();
    expect(subjects(user)).toEqual([IMAGE_FULL]);
  });

  test("a 429 for the day's uploads tells nothing", async () => {
    const { user, key } = await makeClient();
    await ledger.add(w.deps.db, [{ userId: user.id, dimension: "uploads_per_day", period: dayKey(w.clock.now()), amount: 50 }]);
    const res = await uploadImage(key);
    expect(res.status).toBe(429);
    expect(res.body.code).toBe("RATE_LIMITED");
    await w.deliver();
    expect(smtp.to(user.email)).toEqual([]);
    expect(await w.deps.db.select().from(quotaMarks).where(eq(quotaMarks.userId, user.id))).toEqual([]);
  });

  test("only quotas with a 100% mark are told: rate counts, conflict branches and uncapped counts are not", async () => {
    const { user } = await makeClient();
    const now = w.clock.now();
    await tellRefusal(w.deps, new LimitRefusal(user.id, "uploads_per_month", 2000, 2000, now, new Date(now.getTime() + DAY)));
    await tellRefusal(w.deps, new LimitRefusal(user.id, "conflict_branches", 100, 100, now));
    await tellRefusal(w.deps, new LimitRefusal(user.id, "img_storage", 0, 0, now));
    // Under the first mark (80%) a quota is not full: what was refused was larger than what is left.
    await tellRefusal(w.deps, new LimitRefusal(user.id, "media_storage", 15, 20, now));
    expect(await w.deps.db.select().from(quotaMarks).where(eq(quotaMarks.userId, user.id))).toEqual([]);
    await tellRefusal(w.deps, new LimitRefusal(user.id, "media_storage", 16, 20, now));
    const marks = await w.deps.db.select().from(quotaMarks).where(eq(quotaMarks.userId, user.id));
    expect(marks.map((m) => [m.dimension, m.period, m.mark])).toEqual([["media_storage", "total", 100]]);
    // A conflict branch refused past its 20% overage is told against the plan's own limit.
    await tellRefusal(w.deps, new LimitRefusal(user.id, "img_storage", 1150, 1200, now, undefined, 1000));
    const queued = await w.deps.db.select().from(outbox).where(eq(outbox.userId, user.id));
    expect(queued.map((m) => m.payload)).toContainEqual({ dimension: "img_storage", period: "total", mark: 100, used: 1150, limit: 1000, refused: true });
  });

  test("refused again a week after the e-mail, it is told again (the re-arm rule of storage marks)", async () => {
    // A world of its own: its clock moves a week.
    const outer = w;
    w = await world(smtp, limits);
    try {
      const { user, key } = await makeClient();
      await holds(user, "img_storage", 19_000);
      expect((await uploadImage(key)).status).toBe(403);
      w.clock.advance(6 * DAY);
      expect((await uploadImage(key)).status).toBe(403);
      await w.deliver();
      expect(subjects(user)).toEqual([IMAGE_FULL]);
      w.clock.advance(DAY);
      expect((await uploadImage(key)).status).toBe(403);
      await w.deliver();
      expect(subjects(user)).toEqual([IMAGE_FULL, IMAGE_FULL]);
    } finally {
      await w.close();
      w = outer;
    }
  });
});
