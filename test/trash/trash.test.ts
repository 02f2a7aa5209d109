// The trash: a delete of any kind moves the item there (it stops serving and leaves every
// listing, its bytes still counted), GET /v1/trash lists it, a restore brings back the same
// item, a purge (one, all, or the scheduled job past the retention) removes it for good.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { storedKinds } from "../../jobs/index.ts";
import { verifyUsage } from "../../src/modules/usage/public.ts";
import { purgeExpired } from "../../src/modules/trash/service.ts";
import { trashImage } from "../../src/modules/images/trash.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { SCOPES } from "../../src/core/scopes.ts";
import { makeKey, makeUser } from "../helpers/factories.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { edgeGet, png, uploaded } from "../images/fixtures.ts";
import { fixture, uploadAudio } from "../audio/fixtures.ts";
import { insertVideo } from "../videos/fixtures.ts";
import { uploadedDoc } from "../documents/fixtures.ts";
import { newKb, pushed, sha256, upsert } from "../kbs/fixtures.ts";
import { walk2 } from "../kbs/v2-fixtures.ts";
import { download, exportWorker, readZip, runExport, startExport } from "../backup/fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const DAY_MS = 86_400_000;
const trashOf = async (token: string, query = "") => (await callJson("GET", `/v1/trash${query}`, { token })).body.data;
/** A user and a key with every scope (the trash's routes need the delete and kb scopes). */
async function makeClient(opts: Parameters<typeof makeUser>[0] = {}) {
  const user = await makeUser(opts);
  return { user, key: (await makeKey(user, [...SCOPES])).key };
}
const usage = async (token: string) => (await callJson("GET", "/v1/user/me/usage", { token })).body.data;

describe("trashing and restoring", () => {
  test("an image: 404 on its URL and GET, out of the list, in the trash with its fields; restored with the same id, URL and tags", async () => {
    const { key } = await makeClient();
    const img = await uploaded(key, await png(64, 64), { tags: JSON.stringify(["keep", "blue"]) });
    expect((await edgeGet(img.url)).status).toBe(200); // cached at the edge now
    const before = await usage(key);

    expect((await call("DELETE", `/v1/images/${img.id}`, { token: key })).status).toBe(204);
    expect((await callJson("GET", `/v1/images/${img.id}`, { token: key })).status).toBe(404);
    expect((await edgeGet(img.url)).status).toBe(404);
    expect((await callJson("GET", "/v1/images", { token: key })).body.data.items).toEqual([]);
    // Deleting it again: it is not there to delete.
    expect((await call("DELETE", `/v1/images/${img.id}`, { token: key })).status).toBe(404);

    const page = await trashOf(key);
    expect(page.nextCursor).toBeNull();
    expect(page.items).toHaveLength(1);
    const item = page.items[0];
    expect(item).toMatchObject({ id: img.id, kind: "image", name: img.filename });
    expect(item.size).toBeGreaterThanOrEqual(img.size);
    expect(Date.parse(item.purgeAt) - Date.parse(item.deletedAt)).toBe(30 * DAY_MS);
    // Still counted in storage, and told apart as the trash's.
    const trashed = await usage(key);
    expect(trashed.image.storage.used).toBe(before.image.storage.used);
    expect(trashed.trashBytes).toBe(item.size);

    const restored = await callJson("POST", `/v1/trash/${img.id}/restore`, { token: key });
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual({ success: true, data: { id: img.id, kind: "image" } });
    const back = await callJson("GET", `/v1/images/${img.id}`, { token: key });
    expect(back.body.data).toMatchObject({ id: img.id, url: img.url, tags: ["keep", "blue"] });
    expect((await edgeGet(img.url)).status).toBe(200);
    expect((await trashOf(key)).items).toEqual([]);
    expect((await usage(key)).trashBytes).toBe(0);
  });

  test("audio and video: gone from their gets, /v1/media and the edge while trashed; the batch delete trashes too", async () => {
    const { user, key } = await makeClient({ plan: "pro" });
    const a = (await uploadAudio(key, await fixture("mp3"))).body.data;
    const v = await insertVideo(user.id, { status: "ready" });
    const batch = await callJson("DELETE", "/v1/media", { token: key, json: { ids: [a.id, v.id] } });
    expect(batch.body.data.results).toEqual([
      { id: a.id, type: "audio", deleted: true },
      { id: v.id, type: "video", deleted: true },
    ]);
    expect((await callJson("GET", `/v1/audio/${a.id}`, { token: key })).status).toBe(404);
    expect((await callJson("GET", `/v1/videos/${v.id}`, { token: key })).status).toBe(404);
    // No signed playback URL for it either.
    expect((await callJson("POST", `/v1/videos/${v.id}/sign`, { token: key, json: {} })).status).toBe(404);
    expect((await callJson("GET", "/v1/media", { token: key })).body.data.items).toEqual([]);
    expect((await edgeGet(a.url)).status).toBe(404);
    const kinds = (await trashOf(key)).items.map((i: { id: string; kind: string }) => [i.kind, i.id]);
    expect(kinds.sort()).toEqual([
      ["audio", a.id],
      ["video", v.id],
    ]);
    expect((await trashOf(key, "?kind=video")).items.map((i: { id: string }) => i.id)).toEqual([v.id]);
    expect((await callJson("POST", `/v1/trash/${v.id}/restore`, { token: key })).body.data).toEqual({ id: v.id, kind: "video" });
    expect((await callJson("GET", `/v1/videos/${v.id}`, { token: key })).status).toBe(200);
  });

  test("a document outside a KB: gone from get, list and search; restored with its tags", async () => {
    const { key } = await makeClient();
    const word = `zebra${Date.now()}`;
    const doc = await uploadedDoc(key, { content: `# Trash ${word}\n\ntext\n`, tags: ["kept"] });
    expect((await call("DELETE", `/v1/docs/${doc.id}`, { token: key })).status).toBe(204);
    expect((await callJson("GET", `/v1/docs/${doc.id}`, { token: key })).status).toBe(404);
    expect((await callJson("GET", "/v1/docs", { token: key })).body.data.items).toEqual([]);
    expect((await callJson("GET", `/v1/docs/search?q=${word}`, { token: key })).body.data.items).toEqual([]);
    expect((await trashOf(key)).items).toMatchObject([{ id: doc.id, kind: "document" }]);
    expect((await callJson("POST", `/v1/trash/${doc.id}/restore`, { token: key })).status).toBe(200);
    const back = await callJson("GET", `/v1/docs/${doc.id}`, { token: key });
    expect(back.body.data).toMatchObject({ id: doc.id, tags: ["kept"] });
    expect((await callJson("GET", `/v1/docs/search?q=${word}`, { token: key })).body.data.items).toHaveLength(1);
  });

  test("a KB document: a tombstone in the manifest while trashed, back at its path as a change; a path taken meanwhile is 409 TRASH_PATH_TAKEN", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const [made] = (await pushed(key, kb.id, [upsert("notes/a.md", "# A\n")])).applied;
    const first = await walk2(key, kb.id);
    expect((await call("DELETE", `/v1/docs/${made!.id}`, { token: key })).status).toBe(204);
    const after = await walk2(key, kb.id, { since: first.sinceCursor, include: "tombstones" });
    expect(after.tombstones.map((t: { relativePath: string }) => t.relativePath)).toEqual(["notes/a.md"]);
    expect(after.items.filter((i) => !i.deletedAt)).toEqual([]);

    const restored = await callJson("POST", `/v1/trash/${made!.id}/restore`, { token: key });
    expect(restored.status).toBe(200);
    const again = await walk2(key, kb.id, { since: after.sinceCursor });
    expect(again.items).toMatchObject([{ relativePath: "notes/a.md", docId: made!.id, sourceHash: sha256("# A\n"), deletedAt: null }]);

    // Trashed again, and another document takes the path: the restore is refused, the trash keeps it.
    expect((await call("DELETE", `/v1/docs/${made!.id}`, { token: key })).status).toBe(204);
    await pushed(key, kb.id, [upsert("notes/a.md", "# B\n")]);
    const taken = await callJson("POST", `/v1/trash/${made!.id}/restore`, { token: key });
    expect([taken.status, taken.body.success, taken.body.code]).toEqual([409, false, "TRASH_PATH_TAKEN"]);
    expect((await trashOf(key)).items.map((i: { id: string }) => i.id)).toEqual([made!.id]);
  });

  test("a KB with its documents: 404 while trashed, back with them; a document cannot come back into a trashed KB", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const [one, two] = (await pushed(key, kb.id, [upsert("one.md", "# One\n"), upsert("two.md", "# Two\n")])).applied;
    expect((await call("DELETE", `/v1/docs/${one!.id}`, { token: key })).status).toBe(204);
    expect((await call("DELETE", `/v1/kbs/${kb.id}?cascade=true`, { token: key })).status).toBe(204);
    expect((await callJson("GET", `/v1/kbs/${kb.id}`, { token: key })).status).toBe(404);
    expect((await callJson("GET", `/v1/docs/${two!.id}`, { token: key })).status).toBe(404);
    // A batch naming a document of the trashed KB: that one is not there to delete, the others are.
    const loose = await uploadedDoc(key);
    const batch = await callJson("DELETE", "/v1/docs", { token: key, json: { ids: [two!.id, loose.id] } });
    expect(batch.body.data.results).toEqual([
      { id: two!.id, deleted: false, reason: "NOT_FOUND" },
      { id: loose.id, deleted: true },
    ]);
    expect((await callJson("POST", `/v1/trash/${loose.id}/restore`, { token: key })).status).toBe(200);
    expect((await callJson("GET", "/v1/kbs", { token: key })).body.data.items).toEqual([]);
    const items = (await trashOf(key)).items;
    expect(items.map((i: { kind: string; id: string }) => `${i.kind}:${i.id}`).sort()).toEqual([`document:${one!.id}`, `kb:${kb.id}`].sort());

    const refused = await callJson("POST", `/v1/trash/${one!.id}/restore`, { token: key });
    expect([refused.status, refused.body.code]).toEqual([409, "TRASH_KB_GONE"]);
    expect((await callJson("POST", `/v1/trash/${kb.id}/restore`, { token: key })).status).toBe(200);
    expect((await callJson("GET", `/v1/docs/${two!.id}`, { token: key })).status).toBe(200);
    expect((await callJson("GET", `/v1/kbs/${kb.id}`, { token: key })).body.data).toMatchObject({ id: kb.id, docCount: 1 });
    expect((await callJson("POST", `/v1/trash/${one!.id}/restore`, { token: key })).status).toBe(200);
    expect((await callJson("GET", `/v1/kbs/${kb.id}`, { token: key })).body.data).toMatchObject({ docCount: 2 });
  });
});

describe("the listing", () => {
  test("pages of every kind under one cursor, most recently deleted first, neither repeating nor skipping; a bad cursor is 400", async () => {
    const { user, key } = await makeClient();
    const { deps } = await testContext();
    const ids: string[] = [];
    // Images deleted an hour ago, two of them at the same instant (the id orders those); documents now.
    const at = Date.now() - 3_600_000;
    for (let i = 0; i < 3; i++) {
      const img = await uploaded(key, await png(30 + i, 30));
      await trashImage({ ...deps, clock: stoppedClock(at + Math.min(i, 1) * 60_000) }, user.id, img.id);
      ids.push(img.id);
    }
    for (let i = 0; i < 2; i++) {
      const doc = await uploadedDoc(key);
      expect((await call("DELETE", `/v1/docs/${doc.id}`, { token: key })).status).toBe(204);
      ids.push(doc.id);
    }
    const seen: { id: string; deletedAt: string }[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: string; deletedAt: string }[]; nextCursor: string | null } = await trashOf(
        key,
        `?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.map((i) => i.id).sort()).toEqual([...ids].sort());
    const times = seen.map((i) => Date.parse(i.deletedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const bad = await callJson("GET", "/v1/trash?cursor=nonsense", { token: key });
    expect([bad.status, bad.body.code]).toEqual([400, "INVALID_CURSOR"]);
  });
});

describe("purging", () => {
  test("one item and then all: objects gone from storage, bytes released in usage", async () => {
    const { user, key } = await makeClient();
    const { deps } = await testContext();
    const a = await uploaded(key, await png(40, 40));
    const b = await uploaded(key, await png(50, 50));
    const doc = await uploadedDoc(key);
    for (const id of [a.id, b.id]) expect((await call("DELETE", `/v1/images/${id}`, { token: key })).status).toBe(204);
    expect((await call("DELETE", `/v1/docs/${doc.id}`, { token: key })).status).toBe(204);
    const original = (id: string, ext = "png") => `images/${user.id}/${id}/original.${ext}`;
    expect(await deps.storage.read(original(a.id))).not.toBeNull();

    expect((await call("DELETE", `/v1/trash/${a.id}`, { token: key })).status).toBe(204);
    expect(await deps.storage.read(original(a.id))).toBeNull();
    expect((await call("DELETE", `/v1/trash/${a.id}`, { token: key })).status).toBe(404);
    expect((await callJson("POST", `/v1/trash/${a.id}/restore`, { token: key })).status).toBe(404);

    const emptied = await callJson("DELETE", "/v1/trash", { token: key });
    expect(emptied.body).toEqual({ success: true, data: { purged: 2 } });
    expect(await deps.storage.read(original(b.id))).toBeNull();
    expect((await trashOf(key)).items).toEqual([]);
    const after = await usage(key);
    expect([after.image.storage.used, after.doc.count.used, after.trashBytes]).toEqual([0, 0, 0]);
  });

  test("the scheduled purge removes only what is past the retention", async () => {
    const { user, key } = await makeClient();
    const { deps } = await testContext();
    const old = await uploaded(key, await png(40, 40));
    const fresh = await uploaded(key, await png(44, 44));
    // Trashed 31 days ago, by a clock set back.
    await trashImage({ ...deps, clock: stoppedClock(Date.now() - 31 * DAY_MS) }, user.id, old.id);
    expect((await call("DELETE", `/v1/images/${fresh.id}`, { token: key })).status).toBe(204);
    await purgeExpired(deps);
    expect((await trashOf(key)).items.map((i: { id: string }) => i.id)).toEqual([fresh.id]);
    expect(await deps.storage.read(`images/${user.id}/${old.id}/original.png`)).toBeNull();
    // Run again: nothing more (idempotent); moved past the retention, the rest goes too.
    await purgeExpired(deps);
    expect((await trashOf(key)).items).toHaveLength(1);
    await purgeExpired({ ...deps, clock: stoppedClock(Date.now() + 31 * DAY_MS) });
    expect((await trashOf(key)).items).toEqual([]);
    expect((await usage(key)).trashBytes).toBe(0);
  });
});

describe("the books", () => {
  test("usage verify finds every counter equal to its rows while items are in the trash, restored, and purged", async () => {
    const { user, key } = await makeClient();
    const { deps } = await testContext();
    const differences = async () => (await verifyUsage(deps.db, storedKinds, { userIds: [user.id] })).differences;
    const img = await uploaded(key, await png(40, 40));
    const a = (await uploadAudio(key, await fixture("mp3-cover"))).body.data;
    const loose = await uploadedDoc(key);
    const kb = await newKb(key);
    const [inKb] = (await pushed(key, kb.id, [upsert("in.md", "# In\n")])).applied;
    const other = await newKb(key);
    await pushed(key, other.id, [upsert("x.md", "# X\n"), upsert("y.md", "# Y\n")]);
    expect(await differences()).toEqual([]);

    for (const path of [`/v1/images/${img.id}`, `/v1/audio/${a.id}`, `/v1/docs/${loose.id}`, `/v1/docs/${inKb!.id}`, `/v1/kbs/${other.id}?cascade=true`]) {
      expect((await call("DELETE", path, { token: key })).status).toBe(204);
    }
    expect(await differences()).toEqual([]);
    const sizes = (await trashOf(key)).items.reduce((n: number, i: { size: number }) => n + i.size, 0);
    expect((await usage(key)).trashBytes).toBe(sizes);

    for (const id of [img.id, inKb!.id, other.id]) expect((await callJson("POST", `/v1/trash/${id}/restore`, { token: key })).status).toBe(200);
    expect(await differences()).toEqual([]);
    expect((await callJson("DELETE", "/v1/trash", { token: key })).body.data).toEqual({ purged: 2 });
    expect(await differences()).toEqual([]);
    expect((await usage(key)).trashBytes).toBe(0);
  });
});

describe("the account export", () => {
  test("leaves out what is in the trash: a trashed image, document and KB", async () => {
    const { key } = await makeClient();
    const kept = await uploaded(key, await png(40, 40), { filename: "kept.png" });
    const gone = await uploaded(key, await png(44, 44), { filename: "gone.png" });
    const doc = await uploadedDoc(key, { filename: "gone.md" });
    const kb = await newKb(key);
    await pushed(key, kb.id, [upsert("in.md", "# In\n")]);
    for (const path of [`/v1/images/${gone.id}`, `/v1/docs/${doc.id}`, `/v1/kbs/${kb.id}?cascade=true`]) {
      expect((await call("DELETE", path, { token: key })).status).toBe(204);
    }
    const started = await startExport(key);
    expect(started.status).toBe(202);
    const ready = await runExport(await exportWorker(), key, started.body.data.id);
    expect(ready.state).toBe("ready");
    const members = await readZip(new Uint8Array(await (await download(ready.downloadUrl)).arrayBuffer()));
    expect(members.map((m) => m.name).sort()).toEqual(["images/kept.png", "manifest.json"]);
    const manifest = JSON.parse(new TextDecoder().decode(members.find((m) => m.name === "manifest.json")!.bytes));
    expect(manifest.items.map((i: { id: string }) => i.id)).toEqual([kept.id]);
    expect(manifest.kbs).toEqual([]);
  });
});

describe("another user", () => {
  test("cannot list, restore or purge someone else's trash", async () => {
    const owner = await makeClient();
    const stranger = await makeClient();
    const img = await uploaded(owner.key, await png(40, 40));
    expect((await call("DELETE", `/v1/images/${img.id}`, { token: owner.key })).status).toBe(204);
    expect((await trashOf(stranger.key)).items).toEqual([]);
    const restore = await callJson("POST", `/v1/trash/${img.id}/restore`, { token: stranger.key });
    expect([restore.status, restore.body.code]).toEqual([404, "NOT_FOUND"]);
    expect((await call("DELETE", `/v1/trash/${img.id}`, { token: stranger.key })).status).toBe(404);
    expect((await callJson("DELETE", "/v1/trash", { token: stranger.key })).body.data).toEqual({ purged: 0 });
    expect((await trashOf(owner.key)).items.map((i: { id: string }) => i.id)).toEqual([img.id]);
  });
});

describe("a credential's scopes", () => {
  test("a key with the kb scopes alone lists, restores and purges documents; media items stay out of its sight; one with neither is 403", async () => {
    const { user, key } = await makeClient();
    const img = await uploaded(key, await png(40, 40));
    const kept = await uploadedDoc(key, { content: "# Kept\n\ntext\n" });
    const gone = await uploadedDoc(key, { content: "# Gone\n\ntext\n" });
    for (const path of [`/v1/images/${img.id}`, `/v1/docs/${kept.id}`, `/v1/docs/${gone.id}`])
      expect((await call("DELETE", path, { token: key })).status).toBe(204);

    const { key: sync } = await makeKey(user, ["kb.read", "kb.write"]);
    const seen = (await trashOf(sync)).items.map((i: { id: string }) => i.id).sort();
    expect(seen).toEqual([kept.id, gone.id].sort());
    const image = await callJson("POST", `/v1/trash/${img.id}/restore`, { token: sync });
    expect([image.status, image.body.code]).toEqual([404, "NOT_FOUND"]);
    expect((await callJson("POST", `/v1/trash/${kept.id}/restore`, { token: sync })).status).toBe(200);
    expect((await call("DELETE", `/v1/trash/${gone.id}`, { token: sync })).status).toBe(204);
    // Emptying the trash empties what the key reaches: the image stays.
    expect((await callJson("DELETE", "/v1/trash", { token: sync })).body.data).toEqual({ purged: 0 });
    expect((await trashOf(key)).items.map((i: { id: string }) => i.id)).toEqual([img.id]);

    // Reading the kb alone is no way to restore.
    const { key: reader } = await makeKey(user, ["kb.read"]);
    expect((await callJson("POST", `/v1/trash/${img.id}/restore`, { token: reader })).status).toBe(403);
    const { key: usageOnly } = await makeKey(user, ["usage.read"]);
    const refused = await callJson("GET", "/v1/trash", { token: usageOnly });
    expect([refused.status, refused.body.code, refused.body.meta?.required]).toEqual([403, "FORBIDDEN", "media.read kb.read"]);
  });
});
