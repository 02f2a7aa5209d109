// A collection as the API shows it: its items counted and its cover chosen among the items
// their kinds still show. A membership whose item is gone for good is removed on the way.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { iso } from "../../infra/clock.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { goneOf, type ItemRef, itemsOf, type MediaItem, refKey, thumbnailOf } from "./kinds.ts";
import type { Collection } from "./model.ts";
import { collectionItems, type CollectionRow, type ItemKind } from "./table.ts";

export type ViewDeps = Pick<Deps, "db" | "config" | "clock">;

export interface Membership extends ItemRef {
  collectionId: string;
  position: number;
  addedAt: Date;
}

/** The memberships of the collections, each collection's in order. */
export async function membershipsOf(db: DbOrTx, collectionIds: readonly string[]): Promise<Membership[]> {
  if (!collectionIds.length) return [];
  const rows = await db
    .select({
      collectionId: collectionItems.collectionId,
      kind: collectionItems.kind,
      id: collectionItems.itemId,
      position: collectionItems.position,
      addedAt: collectionItems.addedAt,
    })
    .from(collectionItems)
    .where(inArray(collectionItems.collectionId, [...collectionIds]))
    .orderBy(collectionItems.collectionId, collectionItems.position);
  return rows;
}

/**
 * The items of `memberships` their kinds show (by refKey). Those gone for good lose their
 * membership here, without renumbering the rest: a read never moves an item's position (a
 * cursor stays good); the next change to the collection closes the gap.
 */
export async function shownItems(
  deps: ViewDeps,
  ownerId: string,
  memberships: readonly Membership[],
): Promise<{ shown: Map<string, MediaItem>; gone: Set<string> }> {
  const shown = await itemsOf(deps, ownerId, memberships);
  const gone = await goneOf(deps.db, ownerId, memberships, shown);
  if (gone.length) await forget(deps.db, gone, memberships);
  return { shown, gone: new Set(gone.map(refKey)) };
}

/** Removes the memberships of items gone for good from the collections that hold them. */
async function forget(db: DbOrTx, gone: readonly ItemRef[], memberships: readonly Membership[]) {
  const goneKeys = new Set(gone.map(refKey));
  const rows = memberships.filter((m) => goneKeys.has(refKey(m)));
  for (const kind of new Set(rows.map((r) => r.kind))) {
    const ofKind = rows.filter((r) => r.kind === kind);
    await db
      .delete(collectionItems)
      .where(
        and(
          eq(collectionItems.kind, kind as ItemKind),
          inArray(collectionItems.collectionId, [...new Set(ofKind.map((r) => r.collectionId))]),
          inArray(collectionItems.itemId, [...new Set(ofKind.map((r) => r.id))]),
        ),
      );
  }
}

/** Closes the gaps in a collection's positions (0 to n-1, in the order they were). */
export async function renumber(db: DbOrTx, collectionId: string) {
  await db.execute(sql`
    update ${collectionItems} as c set position = r.n - 1
    from (select kind, item_id, row_number() over (order by position, item_id) as n
          from ${collectionItems} where collection_id = ${collectionId}) as r
    where c.collection_id = ${collectionId} and c.kind = r.kind and c.item_id = r.item_id and c.position <> r.n - 1`);
}

function toCollection(row: CollectionRow, items: readonly Membership[], shown: Map<string, MediaItem>): Collection {
  const present = items.filter((m) => shown.has(refKey(m)));
  const chosen = row.coverKind && row.coverId ? present.find((m) => m.kind === row.coverKind && m.id === row.coverId) : undefined;
  const cover = chosen ?? present[0];
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    itemCount: present.length,
    cover: cover ? { kind: cover.kind, id: cover.id, thumbnailUrl: thumbnailOf(cover.kind, shown.get(refKey(cover))!), chosen: cover === chosen } : null,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** The collections as the API shows them, in the order given. */
export async function viewsOf(deps: ViewDeps, ownerId: string, rows: readonly CollectionRow[]): Promise<Collection[]> {
  const memberships = await membershipsOf(
    deps.db,
    rows.map((r) => r.id),
  );
  const { shown } = await shownItems(deps, ownerId, memberships);
  const byCollection = Map.groupBy(memberships, (m) => m.collectionId);
  return rows.map((r) => toCollection(r, byCollection.get(r.id) ?? [], shown));
}
