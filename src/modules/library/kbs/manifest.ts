// GET /v1/kbs/:id/manifest: a KB's documents as path, hash, size and times, soft-deleted
// ones included, oldest change first, a page at a time.
//
// serverTime, the `since` of the client's next read, must never let a change slip
// through, including one whose transaction began before this read and commits after it.
// A wall-clock instant cannot promise that: a row's updatedAt is written when its
// statement runs but seen only at commit, so a slow transaction would commit a time
// earlier than a serverTime already handed out. Instead every change of a KB's documents
// takes the KB's row lock and is stamped under it with the KB's next stamp (moveKbCounts:
// strictly after every earlier stamp of the KB), so stamps follow commit order. The read
// takes the KB's stamp first, then the page, and answers with that stamp: every change
// committed before the stamp was read is at or below it, and every change committing
// later, in flight or not yet begun, is stamped above it, so `updated_at > serverTime`
// finds it. No lock is taken by readers, and it holds alike on PGlite and Postgres, on
// any number of nodes, whatever their clocks say. A page walk in this order also sees a
// change made between two of its pages: its stamp is above the cursor.
import type { Deps } from "../../../core/deps.ts";
import { encodeCursor } from "../../../core/cursor.ts";
import { iso } from "../../../infra/clock.ts";
import { type ManifestRow, manifestRows } from "../documents/kb-rows.ts";
import { getKb } from "./service.ts";
import { syncActor } from "../sync/service.ts";

/** A page lists at most this many bytes of documents (at least one entry); files, fetched apart, are not counted. */
const V1_PAGE_BYTES = 5 * 1024 * 1024;

export interface ManifestQuery {
  since?: Date;
  cursor?: string;
  limit: number;
}

/** A page cut to at most V1_PAGE_BYTES of documents (at least one entry), its next cursor moved with the cut. */
export function cutPage(page: { items: ManifestRow[]; nextCursor: string | null }) {
  let rows = page.items;
  let nextCursor = page.nextCursor;
  let bytes = 0;
  const cut = rows.findIndex((r) => (bytes += r.deletedAt || r.format === "file" ? 0 : r.sizeBytes) > V1_PAGE_BYTES);
  if (cut > 0) {
    rows = rows.slice(0, cut);
    const last = rows[rows.length - 1]!;
    nextCursor = encodeCursor([last.updatedAt, last.id]);
  }
  return { rows, nextCursor };
}

/** A soft-deleted document shows only its path and when it went. */
export const toEntry = (r: ManifestRow) => ({
  relativePath: r.relativePath!,
  sourceHash: r.deletedAt ? null : r.sourceHash,
  sizeBytes: r.deletedAt ? null : r.sizeBytes,
  updatedAt: r.deletedAt ? null : r.updatedAt,
  deletedAt: r.deletedAt,
});

export async function readManifest(deps: Deps, userId: string, kbId: string, q: ManifestQuery) {
  // The page is read once the stamp is (see above), while the plan is checked beside them.
  const [, { kb, page }] = await Promise.all([
    syncActor(deps, userId),
    getKb(deps.db, { userId, id: kbId }).then(async (kb) => ({
      kb,
      // v1 does not see KB files: its pages hold documents only.
      page: await manifestRows(deps.db, { userId, kbId, since: q.since, cursor: q.cursor, limit: q.limit, documentsOnly: true }),
    })),
  ]);
  const { rows, nextCursor } = cutPage(page);
  return { kbId, items: rows.map(toEntry), nextCursor, serverTime: iso(kb.updatedAt) };
}
