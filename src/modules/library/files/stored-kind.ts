// KB files as the operator work sees them (usage StoredKind): one object per blob under
// kb-files/<owner>/<sha256>/<id> (table.ts), named by its blob's row. Counted: each blob's
// bytes in img_storage, once per owner and hash. A blob nothing links is the sweep's too:
// released ORPHAN_SWEEP_AFTER_H after its last PUT, then removed as the orphan it is.
import { and, gt, inArray, sql } from "drizzle-orm";
import type { StoredKind } from "../../usage/public.ts";
import { sweepUnlinked } from "./blobs.ts";
import { kbFiles } from "./table.ts";

export const storedKbFiles: StoredKind = {
  name: "kbFiles",
  prefix: "kb-files/",
  async referenced(db, keys) {
    if (!keys.length) return new Set();
    const rows = await db
      .select({ k: kbFiles.objectKey })
      .from(kbFiles)
      .where(inArray(kbFiles.objectKey, [...keys]));
    return new Set(rows.map((r) => r.k));
  },
  async namedKeys(db, after, limit) {
    const rows = await db
      .select({ k: kbFiles.objectKey })
      .from(kbFiles)
      .where(after === null ? undefined : gt(kbFiles.objectKey, after))
      .orderBy(kbFiles.objectKey)
      .limit(limit);
    const keys = rows.map((r) => r.k);
    return { keys, next: keys.length === limit ? keys.at(-1)! : null };
  },
  async recount(db, userIds) {
    const rows = await db
      .select({ ownerId: kbFiles.ownerId, bytes: sql<string>`coalesce(sum(${kbFiles.sizeBytes}), 0)` })
      .from(kbFiles)
      .where(and(inArray(kbFiles.ownerId, [...userIds])))
      .groupBy(kbFiles.ownerId);
    return new Map(rows.map((r) => [r.ownerId, { imageBytes: Number(r.bytes) }]));
  },
  releaseUnneeded: async (db, before, signal) => (await sweepUnlinked(db, before, signal)).length,
};
