// Resumable uploads as the operator work sees them (usage StoredKind): objects under
// uploads/<owner>/<id>/ (the folder store's file, S3's tail object and, once assembled,
// its data object) and S3 multipart uploads, named while the upload is unfinished; the
// storage each holds, counted in media_storage or img_storage until it ends.
import { inArray, sql } from "drizzle-orm";
import type { StoredKind } from "../usage/public.ts";
import { KINDS } from "./kinds.ts";
import { tailKey } from "./store.ts";
import { type UPLOAD_KINDS, uploads } from "./table.ts";

const KEY = /^uploads\/([^/]+)\/([^/]+)\/[^/]+$/;
const UNFINISHED = ["uploading", "processing"] as const;

export const storedUploads: StoredKind = {
  name: "uploads",
  prefix: "uploads/",
  async referenced(db, keys) {
    const ids = [...new Set(keys.flatMap((k) => KEY.exec(k)?.[2] ?? []))];
    if (!ids.length) return new Set();
    const rows = await db
      .select({ id: uploads.id, ownerId: uploads.ownerId, dataKey: uploads.dataKey, status: uploads.status })
      .from(uploads)
      .where(inArray(uploads.id, ids));
    const named = new Set(rows.filter((r) => (UNFINISHED as readonly string[]).includes(r.status)).flatMap((r) => [r.dataKey, tailKey(r)]));
    return new Set(keys.filter((k) => named.has(k)));
  },
  // An unfinished upload's objects come and go with its PATCHes (S3 has none until its
  // first short tail): none is missing in a way the operator should look into.
  namedKeys: async () => ({ keys: [], next: null }),
  async keptUploads(db, pending) {
    if (!pending.length) return new Set();
    const rows = await db
      .select({ multipartId: uploads.multipartId })
      .from(uploads)
      .where(
        inArray(
          uploads.multipartId,
          pending.map((p) => p.uploadId),
        ),
      );
    return new Set(rows.flatMap((r) => (r.multipartId ? [r.multipartId] : [])));
  },
  async recount(db, userIds) {
    const rows = await db
      .select({ ownerId: uploads.ownerId, kind: uploads.kind, held: sql<string>`coalesce(sum(${uploads.reserved}), 0)` })
      .from(uploads)
      .where(inArray(uploads.ownerId, [...userIds]))
      .groupBy(uploads.ownerId, uploads.kind);
    const out = new Map<string, Record<string, number>>();
    for (const r of rows) {
      const need = out.get(r.ownerId) ?? {};
      const holds = KINDS[r.kind as (typeof UPLOAD_KINDS)[number]].holds;
      if (!holds) continue;
      need[holds] = (need[holds] ?? 0) + Number(r.held);
      out.set(r.ownerId, need);
    }
    return out;
  },
};
