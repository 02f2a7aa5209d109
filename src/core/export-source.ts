// What an account export (src/modules/backup/) reads of each module that stores a user's
// things: pages of plain items, in the order they were made, each naming where its bytes
// are. It sits below the modules so that each one says what of its rows an export copies
// without knowing the backup module, which reads them all through their public surfaces.

/** Where an item's bytes are: an object in the store, or text held in its row. */
export type ExportBody = { key: string } | { text: string };

export interface ExportItem {
  id: string;
  /** The name it came with (an upload's filename) or is known by (a document's title). */
  name: string;
  /** The extension its member gets when `name` has none of its own (no dot). */
  ext: string;
  contentType: string;
  /** What its row says it holds; the archive's manifest records the bytes it copied. */
  size: number;
  /** Null when nothing is to be copied (a video whose original is gone): the item is listed, not stored. */
  body: ExportBody | null;
  tags: string[];
  isPublic: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** Its address on this instance, where it has one. */
  url: string | null;
  /** What else an import needs of it, by the kind's own names (width, durationSeconds, format...). */
  fields: Record<string, unknown>;
}

/** A page of a kind's items, oldest first; `next` continues after the last, null at the end. */
export interface ExportPage<T = ExportItem> {
  items: T[];
  next: string | null;
}

/** The sort key of a page's last item as the next page's start: its creation instant and id. */
export const exportCursor = (r: { createdAt: Date; id: string }) => `${r.createdAt.toISOString()}|${r.id}`;

export function readExportCursor(after: string | null): { at: Date; id: string } | null {
  if (after === null) return null;
  const bar = after.indexOf("|");
  return { at: new Date(after.slice(0, bar)), id: after.slice(bar + 1) };
}
