// A collection an account import makes again (docs/api.md, "Migration"): checked against the
// collections' rules for all of an archive at once before the import stores anything, then
// made one by one under the same rules as POST /v1/collections. Its items are the ones the
// import made or found here; one its kind does not show (in the trash here) is left out.
import { Value } from "@sinclair/typebox/value";
import { and, eq, inArray } from "drizzle-orm";
import { AppError } from "../../core/errors.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { newId } from "../../infra/ids.ts";
import { type ItemRef, itemsOf, refKey } from "./kinds.ts";
import { COLLECTION_LIMITS as L } from "./limits.ts";
import { CreateCollectionBody } from "./model.ts";
import { assertNoRepeats, assertRoomFor, collectionCount, insertItems, lockRoomFor } from "./service.ts";
import { collections } from "./table.ts";
import type { ViewDeps } from "./view.ts";

export interface ImportedCollection {
  title: string;
  description: string | null;
  /** In order, with the ids they have in this account. */
  items: ItemRef[];
  cover: ItemRef | null;
  /** Its creation time in the archive; the import's when absent. */
  createdAt?: Date;
}

/**
 * Whether the account has room for `planned` (403 COLLECTION_LIMIT_REACHED), each of them
 * for its items (409 COLLECTION_FULL, `meta.collection` its place) and each title and
 * description keep the rules of POST /v1/collections (422 VALIDATION_ERROR): what making
 * them would refuse, asked before anything is made.
 */
export async function assertCollectionsFit(db: DbOrTx, userId: string, planned: readonly Pick<ImportedCollection, "title" | "description" | "items">[]) {
  planned.forEach((c, i) => {
    if (!Value.Check(CreateCollectionBody, { title: c.title, description: c.description })) {
      const path = `/collections/${i}`;
      throw new AppError(
        "VALIDATION_ERROR",
        `collection ${i}: its title or description breaks the rules of a collection's (at most ${L.titleChars} and ${L.descriptionChars} characters, plain text)`,
        {
          path,
          issues: [{ path, message: "title or description refused" }],
        },
      );
    }
    if (c.items.length > L.itemsPerCollection) {
      throw new AppError("COLLECTION_FULL", `a collection holds at most ${L.itemsPerCollection} items; collection ${i} has ${c.items.length}`, {
        limit: L.itemsPerCollection,
        count: 0,
        adding: c.items.length,
        collection: i,
      });
    }
  });
  if (planned.length) assertRoomFor(await collectionCount(db, userId), planned.length);
}

/** Makes one collection with its items in order and its cover (none when the cover is not among them); its id and how many items it holds. */
export async function importCollection(deps: ViewDeps, userId: string, c: ImportedCollection): Promise<{ id: string; items: number }> {
  assertNoRepeats(c.items, "/items");
  return deps.db.transaction(async (tx) => {
    await lockRoomFor(tx, userId, 1);
    if (c.items.length > L.itemsPerCollection) {
      throw new AppError("COLLECTION_FULL", `a collection holds at most ${L.itemsPerCollection} items`, {
        limit: L.itemsPerCollection,
        count: 0,
        adding: c.items.length,
      });
    }
    const shown = await itemsOf({ ...deps, db: tx }, userId, c.items);
    const kept = c.items.filter((r) => shown.has(refKey(r)));
    const cover = c.cover && kept.some((r) => refKey(r) === refKey(c.cover!)) ? c.cover : null;
    const now = deps.clock.now();
    const id = newId();
    await tx.insert(collections).values({
      id,
      ownerId: userId,
      title: c.title,
      description: c.description,
      coverKind: cover?.kind ?? null,
      coverId: cover?.id ?? null,
      createdAt: c.createdAt ?? now,
      updatedAt: now,
    });
    await insertItems(tx, id, kept, 0, now);
    return { id, items: kept.length };
  });
}

/** Which of `ids` are collections of the owner's. */
export async function heldCollectionIds(db: DbOrTx, ownerId: string, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db
    .select({ id: collections.id })
    .from(collections)
    .where(and(eq(collections.ownerId, ownerId), inArray(collections.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}
