// The rules of account imports: taking an archive (streamed into the object store, one
// import of an account at a time), reading and listing the caller's own. Every query
// filters by the owner: another user's import is 404 like one that does not exist.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { keysetPage } from "../../core/cursor.ts";
import { AppError, notFound } from "../../core/errors.ts";
import { streamUpload, type UploadBody } from "../../core/streamed-upload.ts";
import { iso, isoOrNull } from "../../infra/clock.ts";
import type { DbOrTx, Tx } from "../../infra/db/index.ts";
import { newId } from "../../infra/ids.ts";
import { requireUser } from "../identity/public.ts";
import { looksLikeZip } from "./archive.ts";
import type { MigrationView } from "./model.ts";
import { type MigrationRow, migrations } from "./table.ts";

const archiveKey = (ownerId: string, id: string) => `migrations/${ownerId}/${id}.zip`;

/** 409 CONFLICT while the account has an import queued or running: one at a time. */
async function assertNoneRunning(db: DbOrTx, userId: string) {
  const [running] = await db
    .select({ id: migrations.id })
    .from(migrations)
    .where(and(eq(migrations.ownerId, userId), inArray(migrations.state, ["queued", "running"])))
    .limit(1);
  if (running) throw new AppError("CONFLICT", "an import of this account is queued or running: wait for it to end", { migrationId: running.id });
}

/**
 * Streams the form's `file` into the object store and queues its import (202). 422
 * INVALID_FILE_TYPE for a file that is not a zip, 413 past MIGRATION_MAX_BYTES; nothing is
 * kept then. The archive counts against no quota: it is removed once the import ends.
 */
export async function createMigration(deps: Deps, userId: string, upload: UploadBody, mediaUrl: string): Promise<MigrationRow> {
  await requireUser(deps.db, userId);
  await assertNoneRunning(deps.db, userId);
  const id = newId();
  const key = archiveKey(userId, id);
  const file = await streamUpload(upload, {
    storage: deps.storage,
    key,
    maxFileBytes: deps.config.MIGRATION_MAX_BYTES,
    deadlineMs: deps.config.VIDEO_UPLOAD_TIMEOUT_S * 1000,
    sniffBytes: 4,
    sniff: (first) => (looksLikeZip(first) ? "zip" : null),
    unsupported: "the file is not a zip archive: send the archive of an account export",
  });
  try {
    return await deps.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`migration:${userId}`}))`);
      await assertNoneRunning(tx, userId);
      const [row] = await tx
        .insert(migrations)
        .values({ id, ownerId: userId, objectKey: key, archiveBytes: file.size, mediaUrl, createdAt: deps.clock.now() })
        .returning();
      return row!;
    });
  } catch (e) {
    await deps.storage.delete(key).catch(() => {});
    throw e;
  }
}

/**
 * A finished resumable upload of kind archive (the uploads module): its bytes moved into
 * place and its import queued, in the transaction that `within` marks the upload complete
 * in. Refused (409) while another import of the account is queued or running.
 */
export async function queueArchiveImport(
  deps: Deps,
  userId: string,
  file: { key: string; size: number; uploadId: string; mediaUrl: string },
  within: (tx: Tx, id: string) => Promise<void>,
): Promise<MigrationRow> {
  await assertNoneRunning(deps.db, userId);
  const id = newId();
  const key = archiveKey(userId, id);
  const moved = (await deps.storage.move?.(file.key, key)) ?? false;
  if (!moved) {
    const body = await deps.storage.get(file.key);
    if (!body) throw new AppError("STORAGE_ERROR", "the upload's bytes are missing from the object store");
    await deps.storage.put(key, body, { contentType: "application/zip" });
  }
  try {
    return await deps.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`migration:${userId}`}))`);
      await assertNoneRunning(tx, userId);
      await within(tx, id);
      const [row] = await tx
        .insert(migrations)
        .values({ id, ownerId: userId, objectKey: key, archiveBytes: file.size, uploadId: file.uploadId, mediaUrl: file.mediaUrl, createdAt: deps.clock.now() })
        .returning();
      return row!;
    });
  } catch (e) {
    // Given back to the upload (a 409 leaves it to be finished by a retry of its last PATCH), or the copy removed.
    const back = moved && (await deps.storage.move?.(key, file.key).catch(() => false));
    if (!back) await deps.storage.delete(key).catch(() => {});
    throw e;
  }
}

/** The import a finished archive upload of the caller's started; 404 for any other id. */
export async function migrationOfUpload(db: DbOrTx, userId: string, uploadId: string): Promise<MigrationRow> {
  const [row] = await db
    .select()
    .from(migrations)
    .where(and(eq(migrations.ownerId, userId), eq(migrations.uploadId, uploadId)))
    .limit(1);
  if (!row)
    throw new AppError("NOT_FOUND", "no finished archive upload of yours has this id: an upload of kind archive starts its import once its last byte is in", {
      entity: "upload",
    });
  return row;
}

export function toView(r: MigrationRow): MigrationView {
  return {
    id: r.id,
    status: r.state,
    progress: { itemsDone: r.itemsDone, itemsTotal: r.itemsTotal },
    archiveBytes: r.archiveBytes,
    // A report written before imports made collections counts none.
    report: r.report ? { ...r.report, counts: { ...r.report.counts, collections: r.report.counts.collections ?? 0 } } : null,
    createdAt: iso(r.createdAt),
    startedAt: isoOrNull(r.startedAt),
    finishedAt: isoOrNull(r.finishedAt),
  };
}

export async function getMigration(db: DbOrTx, userId: string, id: string): Promise<MigrationRow> {
  const [row] = await db
    .select()
    .from(migrations)
    .where(and(eq(migrations.id, id), eq(migrations.ownerId, userId)));
  if (!row) throw notFound("migration");
  return row;
}

/** The caller's imports, newest first. */
export function listMigrations(db: DbOrTx, userId: string, q: { cursor?: string; limit: number }) {
  return keysetPage(
    db,
    {
      from: migrations,
      where: () => eq(migrations.ownerId, sql.placeholder("userId")),
      params: { userId },
      sort: ["createdAt", "id"],
      cursor: q.cursor,
      limit: q.limit,
    },
    (r) => toView(r as MigrationRow),
  );
}
