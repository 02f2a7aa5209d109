// An archive brought by a resumable upload (kind archive at /v1/uploads): its import starts
// once its last byte is in, and POST /v1/migration { uploadId } answers that import.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createMigrationWorker } from "../../src/modules/migration/worker.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { countersOf } from "../jobs/world.ts";
import { create, patch, tusCall, metaHeader } from "../uploads/helpers.ts";
import { docItem, jsonBytes, manifestOf, postArchive, rawZip, runMigration } from "./fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const archive = () => {
  const note = docItem("documents/note.md", "# Resumed\n");
  return rawZip([
    { name: "documents/note.md", bytes: new TextEncoder().encode("# Resumed\n") },
    { name: "manifest.json", bytes: jsonBytes(manifestOf([note])) },
  ]);
};

describe("an archive by resumable upload", () => {
  test("its last PATCH starts the import (X-Resource-Id), which { uploadId } names; nothing is held in storage while it uploads", async () => {
    const { key, user } = await makeClient({ plan: "pro" });
    const zip = archive();
    const path = await create(key, zip.length, { kind: "archive", filename: "export.zip" });
    expect((await countersOf(user.id))["total:img_storage"] ?? 0).toBe(0);
    const half = Math.floor(zip.length / 2);
    expect((await patch(key, path, 0, zip.subarray(0, half))).status).toBe(204);
    const last = await patch(key, path, half, zip.subarray(half));
    expect(last.status).toBe(204);
    const migrationId = last.headers.get("x-resource-id")!;
    const uploadId = path.split("/").pop()!;

    const named = await callJson("POST", "/v1/migration", { token: key, json: { uploadId } });
    expect(named.status).toBe(202);
    expect(named.body.data).toMatchObject({ id: migrationId, status: "queued", archiveBytes: zip.length });
    const { deps, services } = await testContext();
    const worker = createMigrationWorker({ ...deps, compliance: services.compliance, svgSanitizer: services.svgSanitizer }, { heartbeatMs: 60_000 });
    const done = await runMigration(worker, key, migrationId);
    expect(done).toMatchObject({ status: "completed", report: { counts: { imported: 1 } } });
    const docs = (await callJson("GET", "/v1/docs", { token: key })).body.data.items;
    expect(docs.map((d: { title: string }) => d.title)).toEqual(["Note"]);
    // The upload's bytes went to the import, which removed them once it ended.
    const left: string[] = [];
    for await (const o of deps.storage.list(`uploads/${user.id}/`)) left.push(o.key);
    for await (const o of deps.storage.list(`migrations/${user.id}/`)) left.push(o.key);
    expect(left).toEqual([]);
  });

  test("an archive upload finished while another import is queued is 409, keeps its bytes, and is finished by an empty PATCH once that import ended", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const zip = archive();
    const first = await postArchive(key, zip);
    expect(first.status).toBe(202);
    const path = await create(key, zip.length, { kind: "archive", filename: "export.zip" });
    const refused = await patch(key, path, 0, zip);
    expect(refused.status).toBe(409);
    const { deps, services } = await testContext();
    const worker = createMigrationWorker({ ...deps, compliance: services.compliance, svgSanitizer: services.svgSanitizer }, { heartbeatMs: 60_000 });
    expect((await runMigration(worker, key, first.body.data.id)).status).toBe("completed");
    const again = await patch(key, path, zip.length, new Uint8Array(0));
    expect(again.status).toBe(204);
    const second = again.headers.get("x-resource-id")!;
    const done = await runMigration(worker, key, second);
    expect(done).toMatchObject({ status: "completed", report: { counts: { imported: 0, skipped: 1 } } });
  });

  test("an id that is no finished archive upload of the caller's is 404; a body that is not { uploadId } is 422", async () => {
    const { key } = await makeClient();
    const other = await makeClient();
    const zip = archive();
    const path = await create(other.key, zip.length, { kind: "archive", filename: "export.zip" });
    expect((await patch(other.key, path, 0, zip)).status).toBe(204);
    const theirs = await callJson("POST", "/v1/migration", { token: key, json: { uploadId: path.split("/").pop() } });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ code: "NOT_FOUND", meta: { entity: "upload" } });
    const bad = await callJson("POST", "/v1/migration", { token: key, json: { uploadId: 5 } });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
  });

  test("an archive upload needs kb.write (403), and is bounded by MIGRATION_MAX_BYTES (413)", async () => {
    const user = await makeUser({ plan: "pro" });
    const { key } = await makeKey(user, ["media.read", "media.write"]);
    const refused = await tusCall("POST", "/v1/uploads", key, {
      "upload-length": "100",
      "upload-metadata": metaHeader({ kind: "archive", filename: "e.zip" }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "FORBIDDEN", meta: { required: "kb.write" } });
    const { config } = await testContext();
    const big = await tusCall("POST", "/v1/uploads", user.jwt, {
      "upload-length": String(config.MIGRATION_MAX_BYTES + 1),
      "upload-metadata": metaHeader({ kind: "archive", filename: "e.zip" }),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: "FILE_TOO_LARGE", meta: { limit: config.MIGRATION_MAX_BYTES } });
  });
});
