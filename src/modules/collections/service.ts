// The rules of collections: create (with its first items), list, read, change, delete. A
// collection's items are its owner's media, named by kind and id; filling and ordering one
// are in items.ts.
import { and, count, eq, sql } from "drizzle-orm";
import { keysetPage } from "../../core/cursor.ts";
import { AppError, notFound } from "../../core/errors.ts";
import type { DbOrTx, Tx } from "../../infra/db/index.ts";
import { newId } from "../../infra/ids.ts";
import { type ItemRef, itemsOf, refKey } from "./kinds.ts";
import { COLLECTION_LIMITS as L } from "./limits.ts";
import type { Collection, CreateCollectionBody, UpdateCollectionBody } from "./model.ts";
import { collectionItems, type CollectionRow, collections } from "./table.ts";
import { membershipsOf, shownItems, type ViewDeps, viewsOf } from "./view.ts";

const owned = (userId: string, id: string) => and(eq(collections.id, id), eq(collections.ownerId, userId));

/** The caller's collection, its row locked for the rest of the transaction: every change of its items takes turns on it. */
export async function lockCollection(tx: Tx, userId: string, id: string): Promise<CollectionRow> {
  const [row] = await tx.select().from(collections).where(owned(userId, id)).for("update");
  if (!row) throw notFound("collection");
  return row;
}

/** Refuses a list that names an item twice (422, the first repeat's place). */
export function assertNoRepeats(refs: readonly ItemRef[], field: string) {
  const seen = new Set<string>();
  refs.forEach((r, i) => {
    if (seen.has(refKey(r))) {
      const path = `${field}/${i}`;
      throw new AppError("VALIDATION_ERROR", `${r.kind} ${r.id} is named twice`, { path, issues: [{ path, message: "named twice" }] });
    }
    seen.add(refKey(r));
  });
}

/**
 * 404 naming the first of `refs` the owner has nothing under that its kind would show
 * (another user's, deleted, or never there): `meta.entity` its kind, `meta.id` its id.
 */
export async function assertOwnsAll(deps: ViewDeps, userId: string, refs: readonly ItemRef[]) {
  const found = await itemsOf(deps, userId, refs);
  const missing = refs.find((r) => !found.has(refKey(r)));
  if (missing) throw new AppError("NOT_FOUND", `${missing.kind} ${missing.id} not found`, { entity: missing.kind, id: missing.id });
}

/** How many collections the account has. */
export async function collectionCount(db: DbOrTx, userId: string): Promise<number> {
  const [{ n }] = (await db.select({ n: count() }).from(collections).where(eq(collections.ownerId, userId))) as [{ n: number }];
  return n;
}

/** 403 COLLECTION_LIMIT_REACHED when the account has no room for `adding` more collections. */
export function assertRoomFor(used: number, adding: number) {
  if (used + adding > L.perAccount) {
    throw new AppError("COLLECTION_LIMIT_REACHED", `an account may have ${L.perAccount} collections`, { limit: L.perAccount, used, adding });
  }
}

/** Takes the account's turn at making collections (the count is then exact) and refuses when `adding` more would not fit. */
export async function lockRoomFor(tx: Tx, userId: string, adding: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`collections:${userId}`}))`);
  assertRoomFor(await collectionCount(tx, userId), adding);
}

/** Inserts items at positions from `from` on (the caller made room). */
export async function insertItems(tx: Tx, collectionId: string, refs: readonly ItemRef[], from: number, now: Date) {
  if (!refs.length) return;
  await tx.insert(collectionItems).values(refs.map((r, i) => ({ collectionId, kind: r.kind, itemId: r.id, position: from + i, addedAt: now })));
}

export async function createCollection(deps: ViewDeps, userId: string, body: CreateCollectionBody): Promise<Collection> {
  const items = body.items ?? [];
  assertNoRepeats(items, "/items");
  const row = await deps.db.transaction(async (tx) => {
    await lockRoomFor(tx, userId, 1);
    await assertOwnsAll({ ...deps, db: tx }, userId, items);
    const now = deps.clock.now();
    const [created] = await tx
      .insert(collections)
      .values({ id: newId(), ownerId: userId, title: body.title, description: body.description ?? null, createdAt: now, updatedAt: now })
      .returning();
    await insertItems(tx, created!.id, items, 0, now);
    return created!;
  });
  return (await viewsOf(deps, userId, [row]))[0]!;
}

export async function listCollections(deps: ViewDeps, userId: string, q: { cursor?: string; limit: number }) {
  const page = await keysetPage(
    deps.db,
    {
      from: collections,
      shape: "owned",
      where: () => eq(collections.ownerId, sql.placeholder("userId")),
      params: { userId },
      sort: ["createdAt", "id"],
      cursor: q.cursor,
      limit: q.limit,
    },
    (r) => r,
  );
  return { items: await viewsOf(deps, userId, page.items), nextCursor: page.nextCursor };
}

async function ownRow(deps: ViewDeps, userId: string, id: string): Promise<CollectionRow> {
  const [row] = await deps.db.select().from(collections).where(owned(userId, id));
  if (!row) throw notFound("collection");
  return row;
}

export async function getCollection(deps: ViewDeps, userId: string, id: string): Promise<Collection> {
  return (await viewsOf(deps, userId, [await ownRow(deps, userId, id)]))[0]!;
}

export async function updateCollection(deps: ViewDeps, userId: string, id: string, body: UpdateCollectionBody): Promise<Collection> {
  await deps.db.transaction(async (tx) => {
    await lockCollection(tx, userId, id);
    if (body.cover) {
      const cover = body.cover;
      const members = await membershipsOf(tx, [id]);
      const member = members.find((m) => m.kind === cover.kind && m.id === cover.id);
      const shown = member && (await shownItems({ ...deps, db: tx }, userId, [member])).shown.size > 0;
      if (!shown) {
        throw new AppError("COLLECTION_COVER_NOT_ITEM", `${cover.kind} ${cover.id} is not an item of this collection; add it first`, {
          kind: cover.kind,
          id: cover.id,
        });
      }
    }
    await tx
      .update(collections)
      .set({
        ...(body.title !== undefined && { title: body.title }),
        ...(body.description !== undefined && { description: body.description }),
        ...(body.cover !== undefined && { coverKind: body.cover?.kind ?? null, coverId: body.cover?.id ?? null }),
        updatedAt: deps.clock.now(),
      })
      .where(owned(userId, id));
  });
  return getCollection(deps, userId, id);
}

/** Deletes the collection and its memberships; the items themselves stay. */
export async function deleteCollection(deps: ViewDeps, userId: string, id: string): Promise<void> {
  const gone = await deps.db.delete(collections).where(owned(userId, id)).returning({ id: collections.id });
  if (!gone.length) throw notFound("collection");
}
