// A collection as an account export writes it (docs/api.md, "Backup"): its fields, its
// chosen cover and every membership in order, as stored. The export keeps those of the items
// it holds; which ones its kinds show is theirs to say.
import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../infra/db/index.ts";
import type { ItemRef } from "./kinds.ts";
import { collections } from "./table.ts";
import { membershipsOf } from "./view.ts";

export interface ExportCollection {
  id: string;
  title: string;
  description: string | null;
  /** The cover chosen with PATCH; null when none was (the first item shows). */
  cover: ItemRef | null;
  createdAt: Date;
  updatedAt: Date;
  /** Every membership, in the collection's order. */
  items: ItemRef[];
}

/** The owner's collections, oldest first (a bounded list: COLLECTION_LIMITS). */
export async function collectionsForExport(db: DbOrTx, ownerId: string): Promise<ExportCollection[]> {
  const rows = await db.select().from(collections).where(eq(collections.ownerId, ownerId)).orderBy(asc(collections.createdAt), asc(collections.id));
  const byCollection = Map.groupBy(
    await membershipsOf(
      db,
      rows.map((r) => r.id),
    ),
    (m) => m.collectionId,
  );
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    description: r.description,
    cover: r.coverKind && r.coverId ? { kind: r.coverKind, id: r.coverId } : null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    items: (byCollection.get(r.id) ?? []).map((m) => ({ kind: m.kind, id: m.id })),
  }));
}
