// Collections in the account import (docs/api.md, "Migration"): an export's collections are
// made again once its media are, with their items' ids here and in their order, the cover
// mapped; an archive without collections imports as before; a failed import takes them
// back with the rest; the collections' limits refuse an archive before anything is stored.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { newId } from "../../src/infra/ids.ts";
import { COLLECTION_LIMITS } from "../../src/modules/collections/limits.ts";
import { collections } from "../../src/modules/collections/table.ts";
import { createMigrationWorker } from "../../src/modules/migration/worker.ts";
import { fixture, uploadAudio } from "../audio/fixtures.ts";
import { download, exportWorker, runExport, startExport } from "../backup/fixtures.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { clip, uploadVideo } from "../videos/fixtures.ts";
import { docItem, jsonBytes, manifestOf, postArchive, rawZip, runMigration, sha256 } from "./fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS * 3);

type Ref = { kind: "image" | "video" | "audio"; id: string };

async function worker() {
  const { deps, services } = await testContext();
  return createMigrationWorker({ ...deps, compliance: services.compliance, svgSanitizer: services.svgSanitizer }, { heartbeatMs: 60_000 });
}

async function imported(token: string, zip: Uint8Array) {
  const posted = await postArchive(token, zip);
  expect(posted.status).toBe(202);
  return runMigration(await worker(), token, posted.body.data.id);
}

async function exportedZip(token: string) {
  const id = (await startExport(token)).body.data.id;
  const ready = await runExport(await exportWorker(), token, id);
  expect(ready.state).toBe("ready");
  return new Uint8Array(await (await download(ready.downloadUrl)).arrayBuffer());
}

const collectionsOf = async (token: string) => (await callJson("GET", "/v1/collections?limit=50", { token })).body.data.items;
const itemsOf = async (token: string, id: string): Promise<Ref[]> =>
  (await callJson("GET", `/v1/collections/${id}/items?limit=50`, { token })).body.data.items.map((e: Ref) => ({ kind: e.kind, id: e.id }));

/** An image item of a hand-written manifest, its bytes at `member`. */
function imageItem(member: string, bytes: Uint8Array, id = newId().slice(0, 11)) {
  return { ...docItem(member, ""), id, kind: "image", name: "x.png", contentType: "image/png", size: bytes.length, sha256: sha256(bytes), fields: {} };
}

const aCollection = (items: Ref[], over: Record<string, unknown> = {}) => ({
  id: newId(),
  title: "Album",
  description: null,
  cover: null,
  createdAt: new Date(Date.now() - 86_400_000).toISOString(),
  updatedAt: new Date().toISOString(),
  items,
  ...over,
});

describe("collections in the import", () => {
  test("into another account they are made again with the new ids, in order, with the cover; a re-run and a restore into their own account make none again", async () => {
    const source = await makeUser({ plan: "pro" });
    const a: Ref = { kind: "image", id: (await uploaded(source.jwt, await png(8, 8), { filename: "a.png" })).id };
    const b: Ref = { kind: "image", id: (await uploaded(source.jwt, await png(9, 9), { filename: "b.png" })).id };
    const audio = await uploadAudio(source.jwt, await fixture("mp3"), "song.mp3");
    expect(audio.status).toBe(201);
    const song: Ref = { kind: "audio", id: audio.body.data.id };
    const video = await uploadVideo(source.jwt, await clip(), {}, "holiday.mp4");
    expect(video.status).toBe(201);
    const film: Ref = { kind: "video", id: video.body.data.id };
    const json = { title: "Trip", description: "the summer", items: [b, film, song, a] };
    const trip = (await callJson("POST", "/v1/collections", { token: source.jwt, json })).body.data;
    expect((await callJson("PATCH", `/v1/collections/${trip.id}`, { token: source.jwt, json: { cover: a } })).status).toBe(200);
    const single = (await callJson("POST", "/v1/collections", { token: source.jwt, json: { title: "Single", items: [a] } })).body.data;
    const before = await collectionsOf(source.jwt);
    const zip = await exportedZip(source.jwt);

    // Another account of this instance: every id is the source account's, so each item has a new one.
    const target = await makeClient({ plan: "pro" });
    const done = await imported(target.key, zip);
    expect(done.report.error).toBeNull();
    expect(done).toMatchObject({ status: "completed", report: { counts: { imported: 4, skipped: 0, collections: 2 } } });
    const here = new Map<string, string>(done.report.imported.map((e: { sourceId: string; id: string }) => [e.sourceId, e.id]));
    for (const r of [a, b, film, song]) expect(here.get(r.id)).not.toBe(r.id);
    const moved = (r: Ref): Ref => ({ kind: r.kind, id: here.get(r.id)! });

    const theirs = await collectionsOf(target.key);
    expect(theirs).toHaveLength(2);
    const tripHere = theirs.find((c: { title: string }) => c.title === "Trip");
    const singleHere = theirs.find((c: { title: string }) => c.title === "Single");
    expect(tripHere).toMatchObject({ description: "the summer", itemCount: 4, cover: { ...moved(a), chosen: true }, createdAt: trip.createdAt });
    expect(singleHere).toMatchObject({ description: null, itemCount: 1, cover: { ...moved(a), chosen: false }, createdAt: single.createdAt });
    expect([tripHere.id, singleHere.id]).not.toContain(trip.id);
    // The video is processing again here (the import queued its transcode), and in its place.
    expect(await itemsOf(target.key, tripHere.id)).toEqual([moved(b), moved(film), moved(song), moved(a)]);
    expect(await itemsOf(target.key, singleHere.id)).toEqual([moved(a)]);
    // The source account's collections are as they were.
    expect(await collectionsOf(source.jwt)).toEqual(before);

    // Imported again into the same account: nothing is made twice.
    const rerun = await imported(target.key, zip);
    expect(rerun).toMatchObject({ status: "completed", report: { counts: { imported: 0, skipped: 4, collections: 0 }, error: null } });
    expect(await collectionsOf(target.key)).toHaveLength(2);
    // Into the account it came from: its collections are there already.
    const restore = await imported(source.jwt, zip);
    expect(restore).toMatchObject({ status: "completed", report: { counts: { imported: 0, collections: 0 }, error: null } });
    expect(await collectionsOf(source.jwt)).toEqual(before);
  });

  test("an item not in the archive, or skipped for want of bytes, is left out, and a cover that is one of those is none", async () => {
    const bytes = await png(8, 8);
    const image = imageItem("images/x.png", bytes);
    const video = { ...docItem("videos/gone.mp4", ""), kind: "video", member: null, size: 0, sha256: null, name: "gone.mp4", fields: {} };
    const notInArchive: Ref = { kind: "image", id: newId().slice(0, 11) };
    const album = aCollection([notInArchive, { kind: "video", id: video.id }, { kind: "image", id: image.id }], { cover: notInArchive, description: "kept" });
    const zip = rawZip([
      { name: "images/x.png", bytes },
      { name: "manifest.json", bytes: jsonBytes(manifestOf([image, video], { collections: [album] })) },
    ]);
    const { key } = await makeClient({ plan: "pro" });
    const done = await imported(key, zip);
    expect(done).toMatchObject({ status: "completed", report: { counts: { imported: 1, skipped: 1, collections: 1 }, error: null } });
    const [made] = await collectionsOf(key);
    expect(made).toMatchObject({ title: "Album", description: "kept", itemCount: 1, cover: { kind: "image", chosen: false }, createdAt: album.createdAt });
    expect(await itemsOf(key, made.id)).toEqual([{ kind: "image", id: done.report.imported[0].id }]);
  });

  test("an archive without collections (written before exports held them) imports as before", async () => {
    const bytes = await png(8, 8);
    const image = imageItem("images/x.png", bytes);
    const zip = rawZip([
      { name: "images/x.png", bytes },
      { name: "manifest.json", bytes: jsonBytes(manifestOf([image])) },
    ]);
    const { key } = await makeClient({ plan: "pro" });
    const done = await imported(key, zip);
    expect(done).toMatchObject({ status: "completed", report: { counts: { imported: 1, skipped: 0, collections: 0 }, error: null } });
    expect(await collectionsOf(key)).toEqual([]);
  });

  test("a refusal met after the collections were made takes them back with the rest", async () => {
    const bytes = await png(8, 8);
    const image = imageItem("images/x.png", bytes);
    // Postgres text holds no NUL: the document is refused when it is made, after the media and the collections.
    const bad = "# Bad\n\u0000\n";
    const note = docItem("documents/bad.md", bad);
    const zip = rawZip([
      { name: "images/x.png", bytes },
      { name: "documents/bad.md", bytes: new TextEncoder().encode(bad) },
      { name: "manifest.json", bytes: jsonBytes(manifestOf([image, note], { collections: [aCollection([{ kind: "image", id: image.id }])] })) },
    ]);
    const { key } = await makeClient({ plan: "pro" });
    const done = await imported(key, zip);
    expect(done.status).toBe("failed");
    expect(done.report.error).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(done.progress.itemsDone).toBe(1);
    expect(await collectionsOf(key)).toEqual([]);
    expect((await callJson("GET", "/v1/images", { token: key })).body.data.items).toEqual([]);
  });

  test("the collections' limits refuse the archive before anything is stored: the account's room, a title's length", async () => {
    const { deps } = await testContext();
    const bytes = await png(8, 8);
    const image = imageItem("images/x.png", bytes);
    const archive = (cols: unknown[]) =>
      rawZip([
        { name: "images/x.png", bytes },
        { name: "manifest.json", bytes: jsonBytes(manifestOf([image], { collections: cols })) },
      ]);

    const full = await makeClient({ plan: "pro" });
    const now = deps.clock.now();
    await deps.db.insert(collections).values(
      Array.from({ length: COLLECTION_LIMITS.perAccount - 1 }, (_, i) => ({
        id: newId(),
        ownerId: full.user.id,
        title: `C${i}`,
        createdAt: now,
        updatedAt: now,
      })),
    );
    const refused = await imported(full.key, archive([aCollection([]), aCollection([{ kind: "image", id: image.id }])]));
    expect(refused.status).toBe("failed");
    expect(refused.report.error).toMatchObject({ code: "COLLECTION_LIMIT_REACHED" });
    expect(refused.progress.itemsDone).toBe(0);
    expect((await callJson("GET", "/v1/images", { token: full.key })).body.data.items).toEqual([]);

    const other = await makeClient({ plan: "pro" });
    const long = await imported(other.key, archive([aCollection([], { title: "t".repeat(COLLECTION_LIMITS.titleChars + 1) })]));
    expect(long.status).toBe("failed");
    expect(long.report.error).toMatchObject({ code: "VALIDATION_ERROR" });
    expect((await callJson("GET", "/v1/images", { token: other.key })).body.data.items).toEqual([]);
    expect(await collectionsOf(other.key)).toEqual([]);
  });
});
