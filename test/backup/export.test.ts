// The whole-account export (docs/api.md, "Backup"): POST /v1/backup queues it, a worker
// writes one zip into the object store, GET shows its progress and, when ready, a signed
// download URL that serves the archive with ranges until it expires. The archive is read
// back with a zip reader and compared item by item with what the account holds.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { archiveKey } from "../../src/modules/backup/archive.ts";
import { expireExports } from "../../src/modules/backup/expire.ts";
import { accountExports } from "../../src/modules/backup/table.ts";
import { outbox } from "../../src/modules/notifications/table.ts";
import { videos } from "../../src/modules/videos/table.ts";
import type { Storage } from "../../src/infra/storage/index.ts";
import { StorageUnavailableError } from "../../src/infra/storage/types.ts";
import { fixture, uploadAudio } from "../audio/fixtures.ts";
import { postDoc, uploadedDoc } from "../documents/fixtures.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, makeUser, type TestUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { closeWorlds, stoppedWorld } from "../jobs/world.ts";
import { PNG, storedFile, upsertFile } from "../kbs/file-fixtures.ts";
import { newKb } from "../kbs/fixtures.ts";
import { pushed2 } from "../kbs/v2-fixtures.ts";
import { clip, uploadVideo } from "../videos/fixtures.ts";
import { download, exportOf, exportWorker, readZip, runExport, sha256, startExport } from "./fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);
afterAll(closeWorlds);

const HOUR = 3_600_000;

async function historyOn(user: TestUser) {
  expect((await callJson("PATCH", "/v1/user/me", { token: user.jwt, json: { docVersioningEnabled: true, docVersioningMax: 10 } })).status).toBe(200);
}

/** An account with one of every kind: two images of one name, a video, an audio file, a document, and a KB with a revised note and a file. */
async function fullAccount() {
  const user = await makeUser({ plan: "pro" });
  const token = user.jwt;
  await historyOn(user);
  const { deps } = await testContext();
  const cat1 = await uploaded(token, await png(40, 30), { filename: "cat.png", tags: '["pets","cats"]' });
  const cat2 = await uploaded(token, await png(20, 10), { filename: "cat.png" });
  const video = await uploadVideo(token, await clip(), {}, "holiday.mp4");
  expect(video.status).toBe(201);
  const audio = await uploadAudio(token, await fixture("mp3"), "song.mp3");
  expect(audio.status).toBe(201);
  const doc = await uploadedDoc(token, { filename: "hello.md", content: `# Hello\n\n![cat](${cat1.url})\n` });
  const kb = await newKb(token);
  const v1 = await postDoc(token, { filename: "a.md", content: "first\n", kbId: kb.id, relativePath: "notes/a.md" });
  const v2 = await postDoc(token, { filename: "a.md", content: "second\n", kbId: kb.id, relativePath: "notes/a.md" });
  expect([v1.status, v2.status]).toEqual([201, 200]);
  await storedFile(token, kb.id, PNG, "p.png");
  await pushed2(token, kb.id, [upsertFile("attachments/p.png", PNG)]);
  const [videoRow] = await deps.db.select().from(videos).where(eq(videos.id, video.body.data.id));
  return { user, token, cat1, cat2, video: videoRow!, audio: audio.body.data, doc, kb, noteId: v2.body.data.id as string };
}

describe("POST /v1/backup and the archive", () => {
  test("an account with every kind round-trips: each item is a member under a readable name with its bytes (sha256) and its manifest entry", async () => {
    const a = await fullAccount();
    const { deps, config } = await testContext();
    const started = await startExport(a.token);
    expect(started.status).toBe(202);
    const queued = started.body.data;
    expect(queued).toMatchObject({ state: "queued", kinds: ["images", "videos", "audio", "documents", "kbs"], kbIds: null, downloadUrl: null });

    const ready = await runExport(await exportWorker(), a.token, queued.id);
    expect(ready.state).toBe("ready");
    expect(ready.progress.itemsDone).toBe(ready.progress.itemsTotal);
    expect(ready.progress.bytesDone).toBe(ready.progress.bytesTotal);
    expect(new Date(ready.expiresAt).getTime() - new Date(ready.finishedAt).getTime()).toBe(config.EXPORT_RETENTION_H * HOUR);
    expect(ready.downloadUrl).toStartWith(`${config.PUBLIC_URL}/v1/backup/${queued.id}/archive?`);

    const res = await download(ready.downloadUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${ready.filename}"`);
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    const zip = new Uint8Array(await res.arrayBuffer());
    expect(zip.length).toBe(ready.archiveBytes);
    const members = await readZip(zip);
    const byName = new Map(members.map((m) => [m.name, m.bytes]));
    const slug = a.kb.slug;
    expect(members.map((m) => m.name).sort()).toEqual(
      [
        "images/cat.png",
        "images/cat (2).png",
        "videos/holiday.mp4",
        "audio/song.mp3",
        "documents/Hello.md",
        `kbs/${slug}/attachments/p.png`,
        `kbs/${slug}/notes/a.md`,
        `revisions/kbs/${slug}/notes/a.md/1.md`,
        "manifest.json",
      ].sort(),
    );

    const manifest = JSON.parse(new TextDecoder().decode(byName.get("manifest.json")));
    expect(manifest).toMatchObject({
      format: "shelf-export",
      version: 1,
      exportId: queued.id,
      account: { id: a.user.id, email: a.user.email },
      instance: { publicUrl: config.PUBLIC_URL, mediaUrl: config.MEDIA_URL },
      selection: { kinds: queued.kinds, kbIds: null },
      counts: { items: 7, kbs: 1, revisions: 1 },
    });
    expect(manifest.kbs).toEqual([
      expect.objectContaining({ id: a.kb.id, slug, name: a.kb.name, folder: `kbs/${slug}`, isDefault: false, createdAt: expect.any(String) }),
    ]);

    // Every member the manifest names holds the bytes it says, and every member is named once.
    const named = new Set<string>(["manifest.json"]);
    for (const item of manifest.items) {
      const entries = [item, ...(item.revisions ?? [])];
      for (const e of entries) {
        expect(byName.has(e.member)).toBe(true);
        expect(sha256(byName.get(e.member)!)).toBe(e.sha256);
        expect(byName.get(e.member)!.length).toBe(e.size);
        named.add(e.member);
      }
    }
    expect([...named].sort()).toEqual([...byName.keys()].sort());

    // And those bytes are the account's: the stored originals, the documents' text.
    const item = (id: string) => manifest.items.find((i: { id: string }) => i.id === id);
    const stored = async (key: string) => sha256((await deps.storage.read(key))!);
    expect(item(a.cat1.id)).toMatchObject({
      kind: "image",
      member: "images/cat.png",
      name: "cat.png",
      contentType: "image/png",
      tags: ["pets", "cats"],
      isPublic: true,
      url: a.cat1.url,
      fields: { width: 40, height: 30, format: "png" },
      createdAt: a.cat1.created_at,
    });
    expect(item(a.cat1.id).sha256).toBe(await stored(`images/${a.user.id}/${a.cat1.id}/original.png`));
    expect(item(a.cat2.id).member).toBe("images/cat (2).png");
    expect(item(a.video.id)).toMatchObject({
      kind: "video",
      member: "videos/holiday.mp4",
      contentType: "video/mp4",
      fields: { container: "mp4", status: a.video.status },
    });
    expect(item(a.video.id).sha256).toBe(await stored(a.video.originalKey!));
    expect(item(a.audio.id)).toMatchObject({ kind: "audio", member: "audio/song.mp3", contentType: "audio/mpeg", url: a.audio.url });
    expect(item(a.audio.id).sha256).toBe(sha256(await (await call("GET", new URL(a.audio.url).pathname)).bytes()));
    const docText = await (await call("GET", `/v1/docs/${a.doc.id}/raw`, { token: a.token })).text();
    expect(item(a.doc.id)).toMatchObject({
      kind: "document",
      member: "documents/Hello.md",
      sha256: sha256(docText),
      revisions: [],
      fields: { format: "markdown" },
    });
    // The image link inside the document points at this instance's media address, which the manifest records.
    expect(docText).toContain(config.MEDIA_URL);
    const note = item(a.noteId);
    expect(note).toMatchObject({
      kind: "kb_document",
      member: `kbs/${slug}/notes/a.md`,
      sha256: sha256("second\n"),
      kb: { id: a.kb.id, slug, path: "notes/a.md" },
      revisions: [expect.objectContaining({ revNumber: 1, origin: "upload", member: `revisions/kbs/${slug}/notes/a.md/1.md`, sha256: sha256("first\n") })],
    });
    const file = manifest.items.find((i: { kind: string }) => i.kind === "kb_file");
    expect(file).toMatchObject({
      member: `kbs/${slug}/attachments/p.png`,
      sha256: sha256(PNG),
      size: PNG.length,
      contentType: "image/png",
      kb: { path: "attachments/p.png" },
    });
  });

  test("progress is visible while the worker writes: running, with the totals and what is copied so far", async () => {
    const { key: token, user } = await makeClient();
    const { deps } = await testContext();
    const first = await uploaded(token, await png(), { filename: "one.png" });
    const second = await uploaded(token, await png(30, 30), { filename: "two.png" });
    const held = `images/${user.id}/${second.id}/original.png`;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const storage: Storage = {
      ...deps.storage,
      get: async (key, range) => (key === held ? (await gate, deps.storage.get(key, range)) : deps.storage.get(key, range)),
    };
    let copiedOne!: () => void;
    const oneCopied = new Promise<void>((r) => (copiedOne = r));
    const worker = await exportWorker({ deps: { ...deps, storage }, onProgress: (_id, done) => done.items >= 1 && copiedOne() });
    const id = (await startExport(token, { kinds: ["images"] })).body.data.id;
    const running = runExport(worker, token, id);
    await oneCopied;
    const mid = await exportOf(token, id);
    expect(mid.state).toBe("running");
    expect(mid.progress).toEqual({ itemsDone: 1, itemsTotal: 2, bytesDone: first.size, bytesTotal: first.size + second.size });
    expect(mid.downloadUrl).toBeNull();
    release();
    expect((await running).state).toBe("ready");
  });

  test("the download: one range (206 with Content-Range), past the end 416, the ETag's 304; a bad signature 404", async () => {
    const { key: token } = await makeClient();
    await uploaded(token, await png(), { filename: "x.png" });
    const id = (await startExport(token, { kinds: ["images"] })).body.data.id;
    const ready = await runExport(await exportWorker(), token, id);
    const whole = new Uint8Array(await (await download(ready.downloadUrl)).arrayBuffer());
    const part = await download(ready.downloadUrl, { range: "bytes=10-109" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 10-109/${whole.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(whole.subarray(10, 110));
    const tail = await download(ready.downloadUrl, { range: "bytes=-22" });
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(whole.subarray(whole.length - 22));
    const past = await download(ready.downloadUrl, { range: `bytes=${whole.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${whole.length}`);
    const etag = (await download(ready.downloadUrl)).headers.get("etag")!;
    expect((await download(ready.downloadUrl, { "if-none-match": etag })).status).toBe(304);

    const url = new URL(ready.downloadUrl);
    const sig = url.searchParams.get("signature")!;
    url.searchParams.set("signature", `${sig.slice(0, -1)}${sig.endsWith("A") ? "B" : "A"}`);
    const forged = await download(url.href);
    expect(forged.status).toBe(404);
    expect(((await forged.json()) as { code: string }).code).toBe("NOT_FOUND");
    const later = new URL(ready.downloadUrl);
    later.searchParams.set("expires", String(Number(later.searchParams.get("expires")) + 3600));
    expect((await download(later.href)).status).toBe(404);
  });

  test("an export expires after EXPORT_RETENTION_H: answered expired at once (no downloadUrl, 410 EXPORT_EXPIRED), and the job removes its archive", async () => {
    const world = await stoppedWorld();
    const { key: token, user } = await makeClient();
    await uploaded(token, await png(), { filename: "x.png" });
    const started = await callJson("POST", "/v1/backup", { token, json: { kinds: ["images"] }, app: world.app });
    const id = started.body.data.id;
    const worker = await exportWorker({ deps: world.deps });
    let ready = (await callJson("GET", `/v1/backup/${id}`, { token, app: world.app })).body.data;
    for (let i = 0; i < 50 && ready.state !== "ready"; i++) {
      await worker.step();
      ready = (await callJson("GET", `/v1/backup/${id}`, { token, app: world.app })).body.data;
    }
    expect(ready.state).toBe("ready");
    const key = archiveKey({ ownerId: user.id, id });
    expect(await world.deps.storage.head(key)).not.toBeNull();

    world.clock.advance(world.deps.config.EXPORT_RETENTION_H * HOUR - 1000);
    expect((await callJson("GET", `/v1/backup/${id}`, { token, app: world.app })).body.data.state).toBe("ready");
    expect((await call("GET", `${new URL(ready.downloadUrl).pathname}${new URL(ready.downloadUrl).search}`, { app: world.app })).status).toBe(200);

    world.clock.advance(2000);
    const expired = (await callJson("GET", `/v1/backup/${id}`, { token, app: world.app })).body.data;
    expect(expired).toMatchObject({ state: "expired", downloadUrl: null, archiveBytes: null, expiresAt: ready.expiresAt });
    const gone = await call("GET", `${new URL(ready.downloadUrl).pathname}${new URL(ready.downloadUrl).search}`, { app: world.app });
    expect(gone.status).toBe(410);
    expect(((await gone.json()) as { code: string }).code).toBe("EXPORT_EXPIRED");

    expect((await expireExports(world.deps)).expired).toBeGreaterThanOrEqual(1);
    expect(await world.deps.storage.head(key)).toBeNull();
    const [row] = await world.deps.db.select().from(accountExports).where(eq(accountExports.id, id));
    expect(row).toMatchObject({ state: "expired", objectKey: null });
    // A second run finds nothing of it to do.
    await expireExports(world.deps);
    expect((await callJson("GET", `/v1/backup/${id}`, { token, app: world.app })).body.data.state).toBe("expired");
  });

  test("a missing original fails the export with a reason, leaves no archive, and tells the owner", async () => {
    const { key: token, user } = await makeClient();
    const { deps } = await testContext();
    const img = await uploaded(token, await png(), { filename: "lost.png" });
    await deps.storage.delete(`images/${user.id}/${img.id}/original.png`);
    const id = (await startExport(token, { kinds: ["images"] })).body.data.id;
    const failed = await runExport(await exportWorker(), token, id);
    expect(failed).toMatchObject({ state: "failed", downloadUrl: null });
    expect(failed.failureReason).toContain(img.id);
    expect(failed.failureReason).toContain("missing");
    expect(await deps.storage.head(archiveKey({ ownerId: user.id, id }))).toBeNull();
    const told = (await callJson("GET", "/v1/notifications", { token })).body.data.items;
    expect(told.map((n: { kind: string }) => n.kind)).toContain("export_failed");
  });

  test("an unreachable store is tried again after a back-off, and after three tries the export fails with a reason, not a hung job", async () => {
    const world = await stoppedWorld();
    const { key: token, user } = await makeClient();
    await uploaded(token, await png(), { filename: "x.png" });
    const id = (await callJson("POST", "/v1/backup", { token, json: { kinds: ["images"] }, app: world.app })).body.data.id;
    let gets = 0;
    const away: Storage = {
      ...world.deps.storage,
      get: async (k, range) => {
        if (!k.startsWith(`images/${user.id}/`)) return world.deps.storage.get(k, range);
        gets++;
        throw new StorageUnavailableError("ConnectionRefused");
      },
    };
    const worker = await exportWorker({ deps: { ...world.deps, storage: away } });
    const row = async () => (await world.deps.db.select().from(accountExports).where(eq(accountExports.id, id)))[0]!;
    const seen: string[] = [];
    for (let i = 0; i < 60 && (await row()).state !== "failed"; i++) {
      // Other exports may be due first; ours waits out its back-off (at most 32 minutes) on the world's clock.
      if (!(await worker.step())) world.clock.advance(HOUR);
      const r = await row();
      if (r.state === "queued" && r.attempts > seen.length) seen.push(r.state);
    }
    const failed = await row();
    expect(failed).toMatchObject({ state: "failed", attempts: 3, failureReason: "the object store could not be reached" });
    expect(seen).toEqual(["queued", "queued"]);
    expect(gets).toBe(3);
    expect(await world.deps.storage.head(archiveKey({ ownerId: user.id, id }))).toBeNull();
  });

  test("a ready export is told in-app and by e-mail", async () => {
    const { key: token, user } = await makeClient();
    const { deps } = await testContext();
    const id = (await startExport(token, { kinds: ["documents"] })).body.data.id;
    const ready = await runExport(await exportWorker(), token, id);
    expect(ready.state).toBe("ready");
    const told = (await callJson("GET", "/v1/notifications", { token })).body.data.items;
    expect(told[0]).toMatchObject({ kind: "export_ready", data: { exportId: id, archiveBytes: ready.archiveBytes, expiresAt: ready.expiresAt } });
    const mail = await deps.db.select().from(outbox).where(eq(outbox.userId, user.id));
    expect(mail.map((m) => m.kind)).toContain("export_ready");
  });

  test("a document and a revision past the inline size (kept in the object store) are exported whole", async () => {
    const user = await makeUser({ plan: "pro" });
    await historyOn(user);
    const big = (c: string) => `# Long\n\n${c.repeat(300 * 1024)}\n`;
    const kb = await newKb(user.jwt);
    await postDoc(user.jwt, { filename: "long.md", content: big("a"), kbId: kb.id, relativePath: "long.md" });
    const second = await postDoc(user.jwt, { filename: "long.md", content: big("b"), kbId: kb.id, relativePath: "long.md" });
    expect(second.status).toBe(200);
    const id = (await startExport(user.jwt, { kinds: ["kbs"] })).body.data.id;
    const ready = await runExport(await exportWorker(), user.jwt, id);
    const members = new Map((await readZip(new Uint8Array(await (await download(ready.downloadUrl)).arrayBuffer()))).map((m) => [m.name, m.bytes]));
    expect(new TextDecoder().decode(members.get(`kbs/${kb.slug}/long.md`))).toBe(big("b"));
    expect(new TextDecoder().decode(members.get(`revisions/kbs/${kb.slug}/long.md/1.md`))).toBe(big("a"));
  });

  test("an empty account exports a zip holding its manifest alone", async () => {
    const { key: token } = await makeClient();
    const id = (await startExport(token)).body.data.id;
    const ready = await runExport(await exportWorker(), token, id);
    const members = await readZip(new Uint8Array(await (await download(ready.downloadUrl)).arrayBuffer()));
    expect(members.map((m) => m.name)).toEqual(["manifest.json"]);
    expect(JSON.parse(new TextDecoder().decode(members[0]!.bytes))).toMatchObject({ items: [], kbs: [], counts: { items: 0 } });
  });
});

describe("choosing what is exported", () => {
  test("kbIds alone exports those KBs and nothing else; a KB not the caller's is 404; kbIds with kinds lacking kbs is 422", async () => {
    const { user, key } = await makeClient();
    await uploaded(key, await png(), { filename: "x.png" });
    const one = await newKb(key);
    const two = await newKb(key);
    await pushed2(key, one.id, [{ op: "upsert", relativePath: "a.md", content: "a\n", sourceHash: sha256("a\n") }]);
    await pushed2(key, two.id, [{ op: "upsert", relativePath: "b.md", content: "b\n", sourceHash: sha256("b\n") }]);
    const started = await startExport(key, { kbIds: [one.id] });
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({ kinds: ["kbs"], kbIds: [one.id] });
    const ready = await runExport(await exportWorker(), key, started.body.data.id);
    const names = (await readZip(new Uint8Array(await (await download(ready.downloadUrl)).arrayBuffer()))).map((m) => m.name);
    expect(names.sort()).toEqual([`kbs/${one.slug}/a.md`, "manifest.json"]);

    const stranger = await makeClient();
    const theirs = await newKb(stranger.key);
    const refused = await startExport(key, { kbIds: [theirs.id] });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ code: "NOT_FOUND", meta: { entity: "kb" } });
    const mixed = await startExport(key, { kinds: ["images"], kbIds: [one.id] });
    expect(mixed.status).toBe(422);
    expect(mixed.body.code).toBe("VALIDATION_ERROR");
    const bad = await startExport(key, { kinds: ["photos"] });
    expect(bad.status).toBe(422);
    const none = await startExport(key, { kinds: [] });
    expect(none.status).toBe(422);
    expect((await callJson("GET", "/v1/backup", { token: user.jwt })).body.data.items).toHaveLength(1);
  });

  test("a POST with no body at all exports everything, as {} does", async () => {
    const { key } = await makeClient();
    const res = await callJson("POST", "/v1/backup", { token: key });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ state: "queued", kinds: ["images", "videos", "audio", "documents", "kbs"], kbIds: null });
  });

  test("scopes: media.read exports media; documents and KBs need kb.read too (403 naming it), as reading such an export does", async () => {
    const user = await makeUser();
    const { key: media } = await makeKey(user, ["media.read"]);
    const { key: kb } = await makeKey(user, ["kb.read"]);
    const refused = await startExport(media);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "FORBIDDEN", meta: { required: "kb.read" } });
    const images = await startExport(media, { kinds: ["images", "videos", "audio"] });
    expect(images.status).toBe(202);
    expect((await startExport(kb, { kinds: ["documents"] })).status).toBe(403);
    const all = await startExport(user.jwt, {});
    expect(all.status).toBe(202);
    const read = await callJson("GET", `/v1/backup/${all.body.data.id}`, { token: media });
    expect(read.status).toBe(403);
    expect((await callJson("GET", `/v1/backup/${images.body.data.id}`, { token: media })).status).toBe(200);
  });

  test("exports a day are counted by the plan (trial: 2): the next is 429 with when to come back; deleting one gives nothing back", async () => {
    const { key } = await makeClient({ plan: "trial" });
    const a = await startExport(key, { kinds: ["images"] });
    const b = await startExport(key, { kinds: ["images"] });
    expect([a.status, b.status]).toEqual([202, 202]);
    expect((await call("DELETE", `/v1/backup/${a.body.data.id}`, { token: key })).status).toBe(204);
    const c = await startExport(key, { kinds: ["images"] });
    expect(c.status).toBe(429);
    expect(c.body).toMatchObject({ code: "RATE_LIMITED", meta: { type: "exports_per_day", used: 2, limit: 2 } });
    expect(Number(c.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("reading and deleting exports", () => {
  test("GET /v1/backup lists the caller's exports newest first in cursor pages; a bad cursor is 400", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await startExport(key, { kinds: ["images"] })).body.data.id);
    const first = await callJson("GET", "/v1/backup?limit=2", { token: key });
    expect(first.status).toBe(200);
    expect(first.body.data.items.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    const second = await callJson("GET", `/v1/backup?limit=2&cursor=${first.body.data.nextCursor}`, { token: key });
    expect(second.body.data).toMatchObject({ items: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    const bad = await callJson("GET", "/v1/backup?cursor=nope!", { token: key });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("INVALID_CURSOR");
  });

  test("another user's export is 404 to GET and DELETE, and is left as it was", async () => {
    const owner = await makeClient();
    const stranger = await makeClient();
    const id = (await startExport(owner.key, { kinds: ["images"] })).body.data.id;
    for (const method of ["GET", "DELETE"]) {
      const res = await callJson(method, `/v1/backup/${id}`, { token: stranger.key });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: "NOT_FOUND", meta: { entity: "export" } });
    }
    expect((await exportOf(owner.key, id)).state).toBe("queued");
    expect((await callJson("GET", "/v1/backup", { token: stranger.key })).body.data.items).toEqual([]);
  });

  test("DELETE removes a ready export's archive and stops its downloadUrl; a second DELETE is 404", async () => {
    const { key, user } = await makeClient();
    const { deps } = await testContext();
    await uploaded(key, await png(), { filename: "x.png" });
    const id = (await startExport(key, { kinds: ["images"] })).body.data.id;
    const ready = await runExport(await exportWorker(), key, id);
    expect((await call("DELETE", `/v1/backup/${id}`, { token: key })).status).toBe(204);
    expect(await deps.storage.head(archiveKey({ ownerId: user.id, id }))).toBeNull();
    expect((await download(ready.downloadUrl)).status).toBe(404);
    expect((await callJson("GET", `/v1/backup/${id}`, { token: key })).status).toBe(404);
    expect((await callJson("DELETE", `/v1/backup/${id}`, { token: key })).status).toBe(404);
  });

  test("an export deleted while it is written stops, and nothing of it is left", async () => {
    const { key, user } = await makeClient();
    const { deps } = await testContext();
    await uploaded(key, await png(), { filename: "one.png" });
    const second = await uploaded(key, await png(30, 30), { filename: "two.png" });
    const held = `images/${user.id}/${second.id}/original.png`;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const storage: Storage = { ...deps.storage, get: async (k, range) => (k === held ? (await gate, deps.storage.get(k, range)) : deps.storage.get(k, range)) };
    let copiedOne!: () => void;
    const oneCopied = new Promise<void>((r) => (copiedOne = r));
    const worker = await exportWorker({ deps: { ...deps, storage }, onProgress: (_id, done) => done.items >= 1 && copiedOne() });
    const id = (await startExport(key, { kinds: ["images"] })).body.data.id;
    let stepped: Promise<boolean> | undefined;
    for (let i = 0; i < 50 && !stepped; i++) {
      // Other tests' exports may be due first: step until ours is the one running.
      const s = worker.step();
      const which = await Promise.race([s.then(() => "other" as const), oneCopied.then(() => "ours" as const)]);
      if (which === "ours") stepped = s;
    }
    expect((await call("DELETE", `/v1/backup/${id}`, { token: key })).status).toBe(204);
    release();
    await stepped;
    expect(await deps.storage.head(archiveKey({ ownerId: user.id, id }))).toBeNull();
    const [row] = await deps.db.select().from(accountExports).where(eq(accountExports.id, id));
    expect(row).toBeUndefined();
  });
});
