// The account import (docs/api.md, "Migration"): an account with every kind, history and a
// KB, exported by the existing export, imported into a fresh instance with another
// MEDIA_URL, into another account, and compared item by item: the imported account is
// exported again there and its manifest and members set beside the first.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createExportWorker } from "../../src/modules/backup/worker.ts";
import { fixture, uploadAudio } from "../audio/fixtures.ts";
import { download, exportWorker, readZip, runExport, startExport } from "../backup/fixtures.ts";
import { postDoc, uploadedDoc } from "../documents/fixtures.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { PNG, storedFile, upsertFile } from "../kbs/file-fixtures.ts";
import { newKb } from "../kbs/fixtures.ts";
import { pushed2 } from "../kbs/v2-fixtures.ts";
import { clip, uploadVideo } from "../videos/fixtures.ts";
import { ELSEWHERE_MEDIA, type Instance, otherInstance, postArchive, runMigration, sha256 } from "./fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS * 4);

let there: Instance;
beforeAll(async () => {
  there = await otherInstance();
});
afterAll(async () => {
  await there?.close();
});

/** On embedded parts the second instance has a database of its own: ids are free there. */
const freshInstance = !process.env.DATABASE_URL;

type ManifestItem = {
  id: string;
  createdAt: string;
  kind: string;
  member: string | null;
  name: string;
  sha256: string;
  size: number;
  tags: string[];
  isPublic: boolean;
  fields: Record<string, unknown>;
  kb?: { slug: string; path: string };
  revisions: { sha256: string; revNumber: number }[];
};

async function exportedZip(token: string, app?: Instance) {
  const worker = app ? createExportWorker(app.deps, { heartbeatMs: 60_000 }) : await exportWorker();
  const opts = app ? { app: app.app } : {};
  const id = (await startExport(token, {}, opts)).body.data.id;
  let ready = (await callJson("GET", `/v1/backup/${id}`, { token, ...opts })).body.data;
  if (app) {
    for (let i = 0; i < 50 && ready.state !== "ready"; i++) {
      await worker.step();
      ready = (await callJson("GET", `/v1/backup/${id}`, { token, ...opts })).body.data;
    }
  } else ready = await runExport(worker, token, id);
  expect(ready.state).toBe("ready");
  const u = new URL(ready.downloadUrl);
  const res = app ? await call("GET", `${u.pathname}${u.search}`, { app: app.app }) : await download(ready.downloadUrl);
  return new Uint8Array(await res.arrayBuffer());
}

async function contents(zip: Uint8Array) {
  const members = new Map((await readZip(zip)).map((m) => [m.name, m.bytes]));
  const manifest = JSON.parse(new TextDecoder().decode(members.get("manifest.json")));
  return { members, manifest: manifest as { items: ManifestItem[]; kbs: { slug: string; name: string; id: string }[]; instance: { mediaUrl: string } } };
}

describe("POST /v1/migration: an export imported into a fresh instance", () => {
  test("every kind comes back item by item (bytes, metadata, tags, KB tree, history), links follow the new MEDIA_URL, and a re-run skips everything", async () => {
    const { config } = await testContext();
    // The account exported: two images, a video, audio, a document linking an image, a KB with a revised note and a file.
    const source = await makeUser({ plan: "pro" });
    const token = source.jwt;
    await callJson("PATCH", "/v1/user/me", { token, json: { docVersioningEnabled: true, docVersioningMax: 10 } });
    const cat = await uploaded(token, await png(40, 30), { filename: "cat.png", tags: '["pets","cats"]' });
    await uploaded(token, await png(20, 10), { filename: "dog.png" });
    expect((await uploadVideo(token, await clip(), {}, "holiday.mp4")).status).toBe(201);
    expect((await uploadAudio(token, await fixture("mp3"), "song.mp3")).status).toBe(201);
    const doc = await uploadedDoc(token, { filename: "hello.md", content: `# Hello\n\n![cat](${cat.url})\n`, tags: ["greeting"] });
    const kb = await newKb(token);
    await postDoc(token, { filename: "a.md", content: "first\n", kbId: kb.id, relativePath: "notes/a.md" });
    await postDoc(token, { filename: "a.md", content: "second\n", kbId: kb.id, relativePath: "notes/a.md" });
    await storedFile(token, kb.id, PNG, "p.png");
    await pushed2(token, kb.id, [upsertFile("attachments/p.png", PNG)]);
    const zip = await exportedZip(token);
    const before = await contents(zip);
    expect(before.manifest.items).toHaveLength(7);

    // Into another account of another instance, whose history is on.
    const target = await there.user("pro");
    const opts = { app: there.app };
    await callJson("PATCH", "/v1/user/me", { token: target.token, json: { docVersioningEnabled: true, docVersioningMax: 10 }, ...opts });
    const posted = await postArchive(target.token, zip, opts);
    expect(posted.status).toBe(202);
    expect(posted.body.data).toMatchObject({ status: "queued", progress: { itemsDone: 0 }, archiveBytes: zip.length, report: null });
    const done = await runMigration(there.worker(), target.token, posted.body.data.id, opts);
    expect(done.report.error).toBeNull();
    expect(done).toMatchObject({ status: "completed", progress: { itemsDone: 7, itemsTotal: 7 } });
    expect(done.report.counts).toEqual({ imported: 7, skipped: 0, revisions: 1, kbs: 1, collections: 0, rewrittenLinks: 1 });
    const newId = new Map<string, string>(done.report.imported.map((e: { sourceId: string; id: string }) => [e.sourceId, e.id]));
    // Ids are kept where free; a KB file's link is made by a sync upsert, which names its own.
    const kept = done.report.imported.filter((e: { kind: string }) => e.kind !== "kb_file");
    if (freshInstance) for (const e of kept) expect(e.id).toBe(e.sourceId);

    // The imported account exported there: the same things, item by item.
    const after = await contents(await exportedZip(target.token, there));
    expect(after.manifest.instance.mediaUrl).toBe(ELSEWHERE_MEDIA);
    expect(after.manifest.kbs.map((k) => ({ slug: k.slug, name: k.name }))).toEqual(before.manifest.kbs.map((k) => ({ slug: k.slug, name: k.name })));
    const theirs = new Map(after.manifest.items.map((i) => [i.id, i]));
    for (const item of before.manifest.items) {
      const got = theirs.get(newId.get(item.id)!)!;
      expect(got).toBeDefined();
      expect({ kind: got.kind, name: got.name, tags: got.tags, isPublic: got.isPublic, kb: got.kb && { slug: got.kb.slug, path: got.kb.path } }).toEqual({
        kind: item.kind,
        name: item.name,
        tags: item.tags,
        isPublic: item.isPublic,
        kb: item.kb && { slug: item.kb.slug, path: item.kb.path },
      });
      // Creation times are kept but for videos (their transcode starts with the import).
      if (item.kind !== "video" && item.kind !== "kb_file") expect(got.createdAt, item.kind).toBe(item.createdAt);
      if (item.id === doc.id) {
        // The image link now points at this instance's media address (and the image's id here).
        const text = new TextDecoder().decode(after.members.get(got.member!));
        expect(text).toBe(`# Hello\n\n![cat](${ELSEWHERE_MEDIA}/${newId.get(cat.id)}.png)\n`);
        expect(text).not.toContain(config.MEDIA_URL);
        continue;
      }
      expect(got.sha256).toBe(item.sha256);
      expect(sha256(after.members.get(got.member!)!)).toBe(item.sha256);
      expect((got.revisions ?? []).map((r) => r.sha256)).toEqual((item.revisions ?? []).map((r) => r.sha256));
      if (item.kind === "image") expect(got.fields).toMatchObject({ width: item.fields.width, height: item.fields.height, format: item.fields.format });
      if (item.kind === "audio")
        expect(got.fields).toMatchObject({ title: item.fields.title, format: item.fields.format, durationSeconds: item.fields.durationSeconds });
      if (item.kind === "video") expect(got.fields).toMatchObject({ title: item.fields.title, container: item.fields.container, status: "processing" });
    }

    // A re-run finds everything here already.
    const again = await postArchive(target.token, zip, opts);
    expect(again.status).toBe(202);
    const rerun = await runMigration(there.worker(), target.token, again.body.data.id, opts);
    expect(rerun).toMatchObject({ status: "completed", report: { counts: { imported: 0, skipped: 7 }, error: null } });
    expect(rerun.report.skipped.every((s: { reason: string }) => s.reason.startsWith("already present"))).toBe(true);
    const images = (await callJson("GET", "/v1/images", { token: target.token, ...opts })).body.data.items;
    expect(images).toHaveLength(2);

    // The archive is not kept once the import ended, and the list shows both imports.
    const list = (await callJson("GET", "/v1/migration", { token: target.token, ...opts })).body.data;
    expect(list.items.map((m: { id: string }) => m.id)).toEqual([again.body.data.id, posted.body.data.id]);
    const left: string[] = [];
    for await (const o of there.deps.storage.list(`migrations/${target.id}/`)) left.push(o.key);
    expect(left).toEqual([]);
  });
});
