// A collection's items: the page of them in order, and the changes (add, remove, reorder).
// Each change locks the collection's row, forgets the items gone for good, and leaves the
// positions 0 to n-1; a refused change changes nothing (its transaction rolls back).
import { and, eq, gte, inArray, sql } from "drizzle-orm";
import { keysetPage } from "../../core/cursor.ts";
import { AppError, notFound } from "../../core/errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Tx } from "../../infra/db/index.ts";
import { type ItemRef, refKey } from "./kinds.ts";
import { COLLECTION_LIMITS as L } from "./limits.ts";
import type { AddItemsBody, CollectionEntry, OrderBody, RemoveItemsBody } from "./model.ts";
import { assertNoRepeats, assertOwnsAll, getCollection, insertItems, lockCollection } from "./service.ts";
import { collectionItems, collections, type ItemKind } from "./table.ts";
import { type Membership, membershipsOf, renumber, shownItems, type ViewDeps } from "./view.ts";

/** The collection's items in order, one page; those their kinds no longer show are passed by. */
export async function listItems(deps: ViewDeps, userId: string, id: string, q: { cursor?: string; limit: number }) {
  const [own] = await deps.db
    .select({ id: collections.id })
    .from(collections)
    .where(and(eq(collections.id, id), eq(collections.ownerId, userId)));
  if (!own) throw notFound("collection");
  // The rows of a collection just found to be the caller's: the owner filter is the lookup above.
  const page = await keysetPage(
    deps.db,
    {
      from: collectionItems,
      shape: "of_collection",
      where: () => eq(collectionItems.collectionId, sql.placeholder("collectionId")),
      params: { collectionId: id },
      sort: ["position", "itemId"],
      direction: "asc",
      cursor: q.cursor,
      limit: q.limit,
    },
    (r): Membership => ({ collectionId: r.collectionId, kind: r.kind, id: r.itemId, position: r.position, addedAt: r.addedAt }),
  );
  const { shown } = await shownItems(deps, userId, page.items);
  const items: CollectionEntry[] = page.items.flatMap((m) => {
    const item = shown.get(refKey(m));
    return item ? [{ kind: m.kind, id: m.id, position: m.position, addedAt: iso(m.addedAt), item }] : [];
  });
  return { items, nextCursor: page.nextCursor };
}

/** The collection locked, and its memberships but those of items gone for good (removed, the gaps closed). */
async function lockedMembers(deps: ViewDeps, tx: Tx, userId: string, id: string) {
  await lockCollection(tx, userId, id);
  const all = await membershipsOf(tx, [id]);
  const { shown, gone } = await shownItems({ ...deps, db: tx }, userId, all);
  if (gone.size) await renumber(tx, id);
  return { members: all.filter((m) => !gone.has(refKey(m))), shown };
}

const touch = (tx: Tx, id: string, now: Date) => tx.update(collections).set({ updatedAt: now }).where(eq(collections.id, id));

/**
 * Adds items at `position` (the end by default, or when past it), in the order given. All
 * or nothing: an item the caller has nothing under is 404 naming it; more than the
 * collection may hold is 409 COLLECTION_FULL. An item already in it keeps its place.
 */
export async function addItems(deps: ViewDeps, userId: string, id: string, body: AddItemsBody) {
  assertNoRepeats(body.items, "/items");
  const counts = await deps.db.transaction(async (tx) => {
    const { members } = await lockedMembers(deps, tx, userId, id);
    await assertOwnsAll({ ...deps, db: tx }, userId, body.items);
    const inIt = new Set(members.map(refKey));
    const fresh = body.items.filter((r) => !inIt.has(refKey(r)));
    if (members.length + fresh.length > L.itemsPerCollection) {
      throw new AppError("COLLECTION_FULL", `a collection holds at most ${L.itemsPerCollection} items; it has ${members.length}`, {
        limit: L.itemsPerCollection,
        count: members.length,
        adding: fresh.length,
      });
    }
    if (fresh.length) {
      const at = Math.min(body.position ?? members.length, members.length);
      if (at < members.length) {
        await tx
          .update(collectionItems)
          .set({ position: sql`${collectionItems.position} + ${fresh.length}` })
          .where(and(eq(collectionItems.collectionId, id), gte(collectionItems.position, at)));
      }
      const now = deps.clock.now();
      await insertItems(tx, id, fresh, at, now);
      await touch(tx, id, now);
    }
    return { added: fresh.length, alreadyIn: body.items.length - fresh.length };
  });
  return { ...counts, collection: await getCollection(deps, userId, id) };
}

/** Takes items out (the items themselves stay); one not in the collection is passed by. */
export async function removeItems(deps: ViewDeps, userId: string, id: string, body: RemoveItemsBody) {
  assertNoRepeats(body.items, "/items");
  const removed = await deps.db.transaction(async (tx) => {
    await lockedMembers(deps, tx, userId, id);
    let removed = 0;
    for (const [kind, refs] of Map.groupBy(body.items, (r) => r.kind)) {
      const out = await tx
        .delete(collectionItems)
        .where(
          and(
            eq(collectionItems.collectionId, id),
            eq(collectionItems.kind, kind as ItemKind),
            inArray(
              collectionItems.itemId,
              refs.map((r) => r.id),
            ),
          ),
        )
        .returning({ id: collectionItems.itemId });
      removed += out.length;
    }
    if (removed) {
      await renumber(tx, id);
      await touch(tx, id, deps.clock.now());
    }
    return removed;
  });
  return { removed, notIn: body.items.length - removed, collection: await getCollection(deps, userId, id) };
}

const sample = (refs: readonly ItemRef[]) => refs.slice(0, 20).map((r) => ({ kind: r.kind, id: r.id }));

/**
 * Puts the items in the order given, which names every item of the collection once and
 * nothing else; otherwise 409 COLLECTION_ORDER_MISMATCH with what is missing and what is not
 * an item (the first 20 of each, and their counts), and nothing changes. An item its kind
 * does not show now (in the trash) is not named, and keeps its place after the others.
 */
export async function reorderItems(deps: ViewDeps, userId: string, id: string, body: OrderBody) {
  assertNoRepeats(body.items, "/items");
  await deps.db.transaction(async (tx) => {
    const { members, shown } = await lockedMembers(deps, tx, userId, id);
    const visible = members.filter((m) => shown.has(refKey(m)));
    const named = new Set(body.items.map(refKey));
    const visibleKeys = new Set(visible.map(refKey));
    const missing = visible.filter((m) => !named.has(refKey(m)));
    const unknown = body.items.filter((r) => !visibleKeys.has(refKey(r)));
    if (missing.length || unknown.length) {
      throw new AppError(
        "COLLECTION_ORDER_MISMATCH",
        `the order must name every item of the collection once and nothing else: ${missing.length} missing, ${unknown.length} not in it`,
        { missing: sample(missing), unknown: sample(unknown), missingCount: missing.length, unknownCount: unknown.length },
      );
    }
    const addedAt = new Map(members.map((m) => [refKey(m), m.addedAt]));
    const order = [...body.items, ...members.filter((m) => !shown.has(refKey(m)))];
    await tx.delete(collectionItems).where(eq(collectionItems.collectionId, id));
    await tx
      .insert(collectionItems)
      .values(order.map((r, i) => ({ collectionId: id, kind: r.kind, itemId: r.id, position: i, addedAt: addedAt.get(refKey(r))! })));
    await touch(tx, id, deps.clock.now());
  });
  return getCollection(deps, userId, id);
}
