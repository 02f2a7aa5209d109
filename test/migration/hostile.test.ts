// Archives an import must refuse (docs/api.md, "Migration"): each ends the import failed with
// its code in report.error, and leaves nothing of it (no document, no counted byte, no
// object); a file that is not a zip is refused at once. Also: ids another account holds are
// never touched, and another user cannot read an import.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { zipChunks } from "../../src/modules/backup/zip.ts";
import { createMigrationWorker } from "../../src/modules/migration/worker.ts";
import { postDoc } from "../documents/fixtures.ts";
import { newId } from "../../src/infra/ids.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { newKb } from "../kbs/fixtures.ts";
import { makeClient } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { closeWorlds, countersOf, setCounter, stoppedWorld } from "../jobs/world.ts";
import type { Storage } from "../../src/infra/storage/index.ts";
import { StorageUnavailableError } from "../../src/infra/storage/types.ts";
import { docItem, jsonBytes, manifestOf, postArchive, type RawMember, rawZip, runMigration, sha256 } from "./fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);
afterAll(closeWorlds);

async function worker() {
  const { deps, services } = await testContext();
  return createMigrationWorker({ ...deps, compliance: services.compliance, svgSanitizer: services.svgSanitizer }, { heartbeatMs: 60_000 });
}

/** The import of `zip` by a new user of `plan`, run to its end; the user and the import. */
async function imported(zip: Uint8Array, plan: "trial" | "pro" = "pro", before?: (userId: string) => Promise<void>) {
  const client = await makeClient({ plan });
  await before?.(client.user.id);
  const posted = await postArchive(client.key, zip);
  expect(posted.status).toBe(202);
  return { ...client, migration: await runMigration(await worker(), client.key, posted.body.data.id) };
}

/** Nothing of a failed import is left: no document, no counted byte or document, no archive (unless it waits for a retry). */
async function nothingLeft(key: string, userId: string, archiveGone = true) {
  expect((await callJson("GET", "/v1/docs", { token: key })).body.data.items).toEqual([]);
  const counters = await countersOf(userId);
  expect(counters["total:img_storage"] ?? 0).toBe(0);
  expect(counters["total:doc_count"] ?? 0).toBe(0);
  const { deps } = await testContext();
  const left: string[] = [];
  for (const prefix of [...(archiveGone ? [`migrations/${userId}/`] : []), `docs/${userId}/`, `images/${userId}/`])
    for await (const o of deps.storage.list(prefix)) left.push(o.key);
  expect(left).toEqual([]);
}

/** An archive of one document, its manifest and member as given (a member may be another's). */
function oneDoc(text: string, over: Record<string, unknown> = {}, extra: RawMember[] = []) {
  const item = docItem("documents/note.md", text, over);
  return rawZip([
    { name: "documents/note.md", bytes: new TextEncoder().encode(text) },
    ...extra,
    { name: "manifest.json", bytes: jsonBytes(manifestOf([item])) },
  ]);
}

const refusals: [string, string, () => Uint8Array][] = [
  ["a member named ../x", "ARCHIVE_UNSAFE_NAME", () => oneDoc("hi\n", {}, [{ name: "../x", bytes: new Uint8Array([1]) }])],
  ["a member with an absolute name", "ARCHIVE_UNSAFE_NAME", () => oneDoc("hi\n", {}, [{ name: "/etc/passwd", bytes: new Uint8Array([1]) }])],
  ["a symlink member", "ARCHIVE_LINK", () => oneDoc("hi\n", {}, [{ name: "documents/link", bytes: new TextEncoder().encode("/etc/passwd"), mode: 0o120777 }])],
  ["a member named twice", "ARCHIVE_DUPLICATE_NAME", () => oneDoc("hi\n", {}, [{ name: "Documents/NOTE.md", bytes: new Uint8Array([1]) }])],
  [
    "a zip bomb (a member unpacking to a thousand times its size)",
    "ARCHIVE_TOO_LARGE",
    () => oneDoc("hi\n", {}, [{ name: "zeros", bytes: new Uint8Array(20 * 1024 * 1024), deflate: true }]),
  ],
  [
    "a member whose header understates what it inflates to",
    "ARCHIVE_SIZE_MISMATCH",
    () => {
      const text = "x".repeat(5000);
      const item = docItem("documents/note.md", text.slice(0, 10));
      return rawZip([
        { name: "documents/note.md", bytes: new TextEncoder().encode(text), deflate: true, claimedSize: 10 },
        { name: "manifest.json", bytes: jsonBytes(manifestOf([item])) },
      ]);
    },
  ],
  ["a manifest that lies about a size", "ARCHIVE_SIZE_MISMATCH", () => oneDoc("hello\n", { size: 3 })],
  ["a manifest that lies about a checksum", "ARCHIVE_CHECKSUM_MISMATCH", () => oneDoc("hello\n", { sha256: sha256("something else") })],
  ["a manifest naming a member not in the archive", "MANIFEST_INVALID", () => oneDoc("hello\n", { member: "documents/other.md" })],
  ["a manifest that is not an export's", "MANIFEST_INVALID", () => rawZip([{ name: "manifest.json", bytes: jsonBytes({ hello: "world" }) }])],
  ["an item id that is no id", "MANIFEST_INVALID", () => oneDoc("hello\n", { id: "../../etc" })],
  ["a zip with no manifest", "MANIFEST_INVALID", () => rawZip([{ name: "a.txt", bytes: new Uint8Array([1]) }])],
  ["a truncated zip", "ARCHIVE_INVALID", () => oneDoc("hello\n").subarray(0, 60)],
];

describe("hostile archives are refused, and nothing of them is kept", () => {
  for (const [what, code, zip] of refusals) {
    test(`${what}: failed with ${code}`, async () => {
      const { key, user, migration } = await imported(zip());
      expect(migration.status).toBe("failed");
      expect(migration.report).toMatchObject({ error: { code }, counts: { imported: 0 }, imported: [] });
      await nothingLeft(key, user.id);
    });
  }

  test("a file that is not a zip is 422 INVALID_FILE_TYPE at once, and nothing is queued", async () => {
    const { key } = await makeClient();
    const res = await postArchive(key, new TextEncoder().encode("just text, not an archive"));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, code: "INVALID_FILE_TYPE" });
    expect((await callJson("GET", "/v1/migration", { token: key })).body.data.items).toEqual([]);
  });

  test("over the plan's storage: QUOTA_EXCEEDED before anything is stored", async () => {
    const { deps } = await testContext();
    const limit = deps.plans.trial.imageStorageBytes;
    const { key, user, migration } = await imported(oneDoc("# A note\n\nsome text\n"), "trial", (userId) =>
      setCounter(userId, "total", "img_storage", limit - 5),
    );
    expect(migration.report.error).toMatchObject({ code: "QUOTA_EXCEEDED" });
    expect((await callJson("GET", "/v1/docs", { token: key })).body.data.items).toEqual([]);
    expect((await countersOf(user.id))["total:img_storage"]).toBe(limit - 5);
  });

  test("a document past the plan's size: DOC_FILE_TOO_LARGE before anything is stored", async () => {
    const { key, user, migration } = await imported(oneDoc(`# Big\n\n${"b".repeat(1024 * 1024 + 10)}\n`), "trial");
    expect(migration.report.error).toMatchObject({ code: "DOC_FILE_TOO_LARGE" });
    await nothingLeft(key, user.id);
  });

  test("a refusal met half way (an image whose bytes are no image) takes back what was made before it", async () => {
    const note = docItem("documents/a.md", "# Small\n");
    const junk = new TextEncoder().encode("not an image at all");
    const image = { ...docItem("images/x.png", "not an image at all"), id: "abcdefghijk", kind: "image", name: "x.png", contentType: "image/png", fields: {} };
    const zip = rawZip([
      { name: "documents/a.md", bytes: new TextEncoder().encode("# Small\n") },
      { name: "images/x.png", bytes: junk },
      { name: "manifest.json", bytes: jsonBytes(manifestOf([note, image])) },
    ]);
    const { key, user, migration } = await imported(zip);
    expect(migration.status).toBe("failed");
    expect(migration.report.error).toMatchObject({ code: "INVALID_FILE_TYPE" });
    expect(migration.progress.itemsDone).toBe(1);
    await nothingLeft(key, user.id);
  });
});

describe("archives as the export writes them", () => {
  test("a Zip64 archive (the export's form past 4 GiB or 65,535 members), with data descriptors, is read and imported", async () => {
    const text = "# Zip64\n";
    const item = docItem("documents/zip64.md", text);
    async function* members() {
      yield { name: "documents/zip64.md", modified: new Date(), body: new TextEncoder().encode(text) };
      yield { name: "manifest.json", modified: new Date(), body: jsonBytes(manifestOf([item])) };
    }
    const parts: Uint8Array[] = [];
    for await (const c of zipChunks(members(), { force64: true })) parts.push(c);
    const { key, migration } = await imported(new Uint8Array(Buffer.concat(parts)));
    expect(migration).toMatchObject({ status: "completed", report: { counts: { imported: 1 }, error: null } });
    expect((await callJson("GET", `/v1/docs/${item.id}`, { token: key })).status).toBe(200);
  });
});

describe("transient failures", () => {
  test("the store away while an import runs: nothing is kept, it is queued again after a back-off, and imported once the store is back; three times away, it fails", async () => {
    const world = await stoppedWorld();
    const { key, user } = await makeClient();
    const posted = await postArchive(key, oneDoc("# Later\n"), { app: world.app });
    const id = posted.body.data.id;
    const away: Storage = {
      ...world.deps.storage,
      get: async (k, range) => {
        if (k.startsWith(`migrations/${user.id}/`)) throw new StorageUnavailableError("ConnectionRefused");
        return world.deps.storage.get(k, range);
      },
    };
    const parts = { compliance: world.services.compliance, svgSanitizer: world.services.svgSanitizer };
    const flaky = createMigrationWorker({ ...world.deps, ...parts, storage: away }, { heartbeatMs: 60_000 });
    const row = async () => (await callJson("GET", `/v1/migration/${id}`, { token: key, app: world.app })).body.data;
    // Other imports may be due first: step until ours was tried.
    for (let i = 0; i < 50 && (await row()).status !== "queued"; i++) await flaky.step();
    for (let i = 0; i < 50 && (await row()).startedAt === null; i++) await flaky.step();
    expect(await row()).toMatchObject({ status: "queued", report: null });
    await nothingLeft(key, user.id, false);
    world.clock.advance(3_600_000);
    const good = createMigrationWorker({ ...world.deps, ...parts }, { heartbeatMs: 60_000 });
    const done = await runMigration(good, key, id, { app: world.app });
    expect(done).toMatchObject({ status: "completed", report: { counts: { imported: 1 } } });

    const again = (await postArchive(key, oneDoc("# Never\n"), { app: world.app })).body.data.id;
    let seen = 0;
    for (let i = 0; i < 60; i++) {
      const m = (await callJson("GET", `/v1/migration/${again}`, { token: key, app: world.app })).body.data;
      if (m.status === "failed") {
        expect(m.report.error).toMatchObject({ code: "STORAGE_ERROR" });
        seen = 1;
        break;
      }
      if (!(await flaky.step())) world.clock.advance(3_600_000);
    }
    expect(seen).toBe(1);
  });
});

describe("ids and tenancy", () => {
  test("an item whose id another account holds gets a new id, and that account's document is untouched", async () => {
    const other = await makeClient();
    const theirs = (await postDoc(other.key, { filename: "mine.md", content: "# Mine\n" })).body.data;
    const zip = oneDoc("# Imported\n", { id: theirs.id });
    const { key, migration } = await imported(zip);
    expect(migration.status).toBe("completed");
    const entry = migration.report.imported[0];
    expect(entry).toMatchObject({ kind: "document", sourceId: theirs.id, reason: "its id is taken on this instance: it has a new id" });
    expect(entry.id).not.toBe(theirs.id);
    expect((await callJson("GET", `/v1/docs/${entry.id}`, { token: key })).status).toBe(200);
    expect((await callJson("GET", `/v1/docs/${theirs.id}`, { token: key })).status).toBe(404);
    const raw = await callJson("GET", `/v1/docs/${theirs.id}`, { token: other.key });
    expect(raw.body.data).toMatchObject({ title: "Mine" });
  });

  test("a KB path the account holds already with other content is left as it is; the KB of that slug is filled, not doubled", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const kb = await newKb(key, { name: "Notes", slug: "notes-import" });
    await postDoc(key, { filename: "a.md", content: "# Mine\n", kbId: kb.id, relativePath: "a.md" });
    const kbId = newId();
    const kbEntry = { id: kbId, name: "Notes", slug: "notes-import", description: null, isDefault: false, folder: "kbs/notes-import" };
    const at = (path: string, text: string) => ({
      ...docItem(`kbs/notes-import/${path}`, text),
      kind: "kb_document",
      kb: { id: kbId, slug: "notes-import", path },
    });
    const zip = rawZip([
      { name: "kbs/notes-import/a.md", bytes: new TextEncoder().encode("# Theirs\n") },
      { name: "kbs/notes-import/b.md", bytes: new TextEncoder().encode("# New\n") },
      { name: "manifest.json", bytes: jsonBytes(manifestOf([at("a.md", "# Theirs\n"), at("b.md", "# New\n")], { kbs: [kbEntry] })) },
    ]);
    const posted = await postArchive(key, zip);
    const done = await runMigration(await worker(), key, posted.body.data.id);
    expect(done.report).toMatchObject({ counts: { imported: 1, skipped: 1, kbs: 0 }, error: null });
    expect(done.report.skipped[0].reason).toContain("holds another document");
    expect(await (await call("GET", `/v1/kbs/${kb.id}/raw?path=a.md`, { token: key })).text()).toBe("# Mine\n");
    expect(await (await call("GET", `/v1/kbs/${kb.id}/raw?path=b.md`, { token: key })).text()).toBe("# New\n");
    expect((await callJson("GET", "/v1/kbs", { token: key })).body.data.items).toHaveLength(1);
  });

  test("another user's import is 404, and their list does not show it; a second import while one is queued is 409", async () => {
    const owner = await makeClient();
    const stranger = await makeClient();
    const posted = await postArchive(owner.key, oneDoc("# Note\n"));
    const id = posted.body.data.id;
    const res = await callJson("GET", `/v1/migration/${id}`, { token: stranger.key });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: "NOT_FOUND", meta: { entity: "migration" } });
    expect((await callJson("GET", "/v1/migration", { token: stranger.key })).body.data.items).toEqual([]);
    const second = await postArchive(owner.key, oneDoc("# Note\n"));
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: "CONFLICT", meta: { migrationId: id } });
    expect((await runMigration(await worker(), owner.key, id)).status).toBe("completed");
  });

  test("a key without kb.write cannot import (403 naming it)", async () => {
    const { makeKey, makeUser } = await import("../helpers/factories.ts");
    const user = await makeUser();
    const { key } = await makeKey(user, ["media.read", "media.write"]);
    const res = await postArchive(key, oneDoc("# Note\n"));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "FORBIDDEN", meta: { required: "kb.write" } });
  });
});
