// Where a document's text lives: in its row up to INLINE_MAX_BYTES, else in the object
// store under a key of its own (one object per row, never shared, so deleting a row may
// delete its object without asking who else uses it).
import { logStoreFailure } from "../../../infra/storage/outages.ts";
import type { Deps } from "../../../core/deps.ts";
import { storageError } from "../../../core/errors.ts";
import { newId } from "../../../infra/ids.ts";

/** Up to 256 KB inline in the database. */
const INLINE_MAX_BYTES = 256 * 1024;

export interface StoredContent {
  content: string | null;
  objectKey: string | null;
}

export const sha256Hex = (text: string | Uint8Array) => new Bun.CryptoHasher("sha256").update(text).digest("hex");
export const utf8Length = (text: string) => Buffer.byteLength(text, "utf8");

/**
 * Writes `text` where it belongs and returns the row's columns. An object is written
 * before the transaction that names it; if that transaction fails the caller removes it.
 */
export async function storeContent(deps: Deps, ownerId: string, docId: string, text: string, sizeBytes: number): Promise<StoredContent> {
  if (sizeBytes <= INLINE_MAX_BYTES) return { content: text, objectKey: null };
  const key = `docs/${ownerId}/${docId}/${newId()}`;
  for (let attempt = 1; ; attempt++) {
    try {
      await deps.storage.put(key, new TextEncoder().encode(text), { contentType: "text/plain; charset=utf-8" });
      return { content: null, objectKey: key };
    } catch (err) {
      if (attempt >= 2) {
        logStoreFailure(deps.log, "object store write failed", { key }, err);
        throw storageError(err, "the object store failed; try again");
      }
    }
  }
}

/** The text of a row; throws STORAGE_ERROR when its object cannot be read. */
export async function readContent(deps: Deps, row: StoredContent): Promise<string> {
  if (row.content !== null) return row.content;
  if (!row.objectKey) return "";
  try {
    const bytes = await deps.storage.read(row.objectKey);
    if (!bytes) throw new Error("object missing");
    // A leading byte order mark is the client's text, and is in its hash.
    return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  } catch (err) {
    logStoreFailure(deps.log, "document content read failed", { key: row.objectKey }, err);
    throw storageError(err, "the document's content could not be read");
  }
}

/** Removes objects after the transaction that dropped their rows committed; a failure is logged, never lost data. */
export async function removeObjects(deps: Deps, keys: readonly (string | null)[]): Promise<void> {
  const live = keys.filter((k): k is string => !!k);
  const results = await Promise.allSettled(live.map((k) => deps.storage.delete(k)));
  for (const r of results) if (r.status === "rejected") logStoreFailure(deps.log, "document object delete failed", { keys: live }, r.reason);
}
