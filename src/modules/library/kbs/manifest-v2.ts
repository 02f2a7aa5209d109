// The v2 manifest (docs/sync.md): the v1 page walk plus an opaque `since` cursor,
// tombstones, a conditional fetch, and a since past the plan's tombstone retention.
//
// `since` is an ISO instant (as in v1: entries changed after it) or a sinceCursor: the
// same base64url (timestamp, document id) the page cursors are, and the walk starts
// strictly after it in (updated_at, id) order. The last page carries the next sinceCursor:
// the last entry of the walk, or the KB's stamp alone when that is later (a walk that
// listed nothing new, a KB rename, a document purged since): a cursor of an instant alone
// reads as that instant does, strictly after it, since whatever was stamped then had
// committed before the stamp was read.
//
// The weak ETag is a hash of the KB's high-water mark (its updatedAt, which every change
// of its documents moves in its own transaction) and of what was asked: the same question
// asked of the same mark has the same answer, so If-None-Match with it is an empty 304.
import type { Deps } from "../../../core/deps.ts";
import { decodeCursor, encodeCursor } from "../../../core/cursor.ts";
import { AppError } from "../../../core/errors.ts";
import { iso } from "../../../infra/clock.ts";
import { manifestRows } from "../documents/kb-rows.ts";
import { sha256Hex } from "../documents/content.ts";
import { pendingBranchDocIds } from "./branches.ts";
import { heldBlobs } from "../files/blobs.ts";
import { tombstonesBetween } from "./tombstones.ts";
import { cutPage, toEntry } from "./manifest.ts";
import { getKb } from "./service.ts";
import { syncActor } from "../sync/service.ts";
import { instantOf } from "../sync/v1.ts";

const DAY_MS = 86_400_000;
const ISO_LIKE = /^\d{4}-\d{2}-\d{2}/;

export interface ManifestV2Query {
  since?: string;
  cursor?: string;
  limit: number;
  tombstones: boolean;
  ifNoneMatch?: string;
}

/** `since` as sent: an ISO instant (strictly after it) or a cursor (strictly after its timestamp and id). */
type Since = { at: Date; cursor?: string };

function sinceOf(text: string): Since {
  if (ISO_LIKE.test(text)) return { at: instantOf(text, "query.since") };
  const [at, id] = decodeCursor(text, ["d", "s"]);
  // A cursor of an instant alone (the KB's stamp, below) means what that instant as ISO
  // does: strictly after it. Every entry stamped then was committed before it was handed out.
  return id === "" ? { at } : { at, cursor: text };
}

const manifestEtag = (parts: (string | number | undefined)[]) => `W/"${sha256Hex(parts.map((p) => p ?? "").join("\n")).slice(0, 32)}"`;

/** Whether If-None-Match names `etag` (weak comparison, RFC 9110 8.8.3.2; `*` matches). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || bare(tag) === bare(etag));
}

export type ManifestV2Answer = { notModified: true; etag: string } | { notModified: false; etag?: string; data: Record<string, unknown> };

export async function readManifestV2(deps: Deps, userId: string, kbId: string, q: ManifestV2Query): Promise<ManifestV2Answer> {
  const since = q.since === undefined ? undefined : sinceOf(q.since);
  const [actor, kb, branched] = await Promise.all([
    syncActor(deps, userId),
    getKb(deps.db, { userId, id: kbId }),
    pendingBranchDocIds(deps.db, { userId, kbId }),
  ]);
  const retentionDays = actor.limits.tombstoneRetentionDays;
  if (since && since.at.getTime() < actor.now.getTime() - retentionDays * DAY_MS) {
    const hint = `since is older than the ${retentionDays}-day tombstone retention of your plan: drop it and read the manifest again without since`;
    if (q.tombstones) throw new AppError("TOMBSTONE_CURSOR_EXPIRED", hint, { retentionDays, since: iso(since.at) });
    return {
      notModified: false,
      data: { kbId, items: [], nextCursor: null, serverTime: iso(kb.updatedAt), tombstoneCursorExpired: true, retentionDays, hint },
    };
  }
  // Which documents have pending branches is part of the answer, and opening or resolving
  // a branch does not move the KB's stamp (master is untouched): the ETag names them too.
  const pending = [...branched].sort().join(",");
  const etag = manifestEtag(["v2", iso(kb.updatedAt), q.since, q.cursor, q.limit, q.tombstones ? "tombstones" : "", pending]);
  if (matches(q.ifNoneMatch, etag)) return { notModified: true, etag };

  // A since cursor starts the walk as a page cursor would; an ISO since filters it as in v1.
  const page = await manifestRows(deps.db, {
    userId,
    kbId,
    since: since && !since.cursor ? since.at : undefined,
    cursor: q.cursor ?? since?.cursor,
    limit: q.limit,
  });
  const { rows, nextCursor } = cutPage(page);
  // A file's type is its blob's: one read for the page's active files.
  const blobs = await heldBlobs(
    deps.db,
    userId,
    rows.flatMap((r) => (r.format === "file" && !r.deletedAt ? [r.sourceHash] : [])),
  );
  const data: Record<string, unknown> = {
    kbId,
    items: rows.map((r) => {
      const file = r.format === "file";
      const contentType = file && !r.deletedAt ? blobs.get(r.sourceHash)?.contentType : undefined;
      return {
        ...toEntry(r),
        docId: r.id,
        kind: file ? "file" : "document",
        ...(contentType !== undefined && { contentType }),
        hasPendingBranches: branched.has(r.id),
      };
    }),
    nextCursor,
    serverTime: iso(kb.updatedAt),
  };
  if (nextCursor === null) {
    // An empty last page: the walk ended where its cursor, or the since cursor, points.
    // Times compared as the ISO text they are printed as (one format: it sorts as the instants do).
    const last = rows.at(-1) ?? lastOfWalk(q.cursor ?? since?.cursor);
    const stamp = iso(kb.updatedAt);
    const upTo = last && last.updatedAt > stamp ? new Date(last.updatedAt) : kb.updatedAt;
    data.sinceCursor = last && last.updatedAt >= stamp ? encodeCursor([last.updatedAt, last.id]) : encodeCursor([stamp, ""]);
    if (q.tombstones) {
      // Without since the manifest is the whole state: no path needs a tombstone.
      const tombstones = since ? await tombstonesBetween(deps.db, { userId, kbId, after: since.at, upTo }) : [];
      data.tombstones = tombstones.map((t) => ({
        docId: t.docId,
        relativePath: t.relativePath,
        sourceHash: t.sourceHash,
        kind: t.kind,
        deletedAt: iso(t.deletedAt),
      }));
    }
  }
  return { notModified: false, etag, data };
}

/** The entry a cursor names. */
function lastOfWalk(cursor: string | undefined): { updatedAt: string; id: string } | undefined {
  if (!cursor) return undefined;
  const [updatedAt, id] = decodeCursor(cursor, ["d", "s"]);
  return { updatedAt: iso(updatedAt), id };
}
