// What the trash (src/modules/trash) asks of each kind that trashes instead of deleting:
// a page of the owner's trashed items and, for the purge job, the items trashed before a
// cutoff. The kinds implement it on their own tables; the trash module merges them.
import { and, type AnyColumn, eq, isNotNull, lt, or, type SQL, sql } from "drizzle-orm";

export const TRASH_KINDS = ["image", "video", "audio", "document", "kb"] as const;
export type TrashKind = (typeof TRASH_KINDS)[number];

/** One trashed item as its kind reads it. */
export interface TrashEntry {
  id: string;
  kind: TrashKind;
  name: string;
  /** The bytes it holds, counted in the owner's storage (and the trash's bytes) until purged. */
  size: number;
  trashedAt: Date;
}

/** Where a page resumes: strictly after (trashedAt, id) in (trashedAt desc, id desc) order. */
export type TrashKey = { at: Date; id: string };

/** An owner's item purged or trashed before a cutoff: what the purge job walks. */
export type TrashedRef = { ownerId: string; id: string };

/** The where of a kind's trash page: the owner's trashed rows strictly after `after`. */
export function trashPageWhere(t: { ownerId: AnyColumn; trashedAt: AnyColumn; id: AnyColumn }, ownerId: string, after: TrashKey | null): SQL {
  const at = after ? sql`${after.at.toISOString()}::timestamptz` : null;
  return and(
    eq(t.ownerId, ownerId),
    isNotNull(t.trashedAt),
    after && at ? or(lt(t.trashedAt, at), and(eq(t.trashedAt, at), lt(t.id, after.id))) : undefined,
  ) as SQL;
}
