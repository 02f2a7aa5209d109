// The /v1/kbs resource: create (slug rules, the plan's KB count), list, read, update
// (name, description, default) and delete (with or without its documents).
import { and, count, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { Deps } from "../../../core/deps.ts";
import { type KeysetQuery, keysetPage } from "../../../core/cursor.ts";
import { AppError, validationError } from "../../../core/errors.ts";
import { iso } from "../../../infra/clock.ts";
import type { Tx } from "../../../infra/db/index.ts";
import { newId } from "../../../infra/ids.ts";
import { purgeKbDocuments } from "../documents/kb-documents.ts";
import { removeObjects } from "../documents/content.ts";
import { dropUnlinked, kbFileHashes, lockOwnerFiles } from "../files/blobs.ts";
import { requireUser } from "../../identity/public.ts";
import { release } from "../../usage/public.ts";
import { trashedKbBytes, untrashKbDocuments } from "./trash.ts";
import { type CreateKbBody, type KbItem, SLUG_PATTERN, type UpdateKbBody } from "./model.ts";
import { purgeKbBranches } from "./branches.ts";
import { lockKb, nextStamp, nextStampAfter } from "./service.ts";
import { tombstoneKb } from "./tombstones.ts";
import { type KbRow, kbs } from "./table.ts";

export const toKbItem = (r: KbRow): KbItem => ({
  id: r.id,
  name: r.name,
  slug: r.slug,
  description: r.description,
  docCount: r.docCount,
  fileCount: r.fileCount,
  sizeBytes: r.sizeBytes,
  isDefault: r.isDefault,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

const SLUG = new RegExp(SLUG_PATTERN);

/** The name lower-cased, its spaces turned into `-`; a name it cannot make a slug of needs an explicit one. */
function slugOf(name: string): string {
  if (/[^\x20-\x7e]/.test(name)) {
    throw validationError("body.slug", "a name with characters outside ASCII needs an explicit slug (a-z, 0-9 and -, 2 to 64 characters)");
  }
  const slug = name.trim().toLowerCase().replace(/\s+/g, "-");
  if (!SLUG.test(slug)) {
    throw validationError("body.slug", `no slug can be derived from this name ("${slug}" is not ${SLUG_PATTERN}); send one`);
  }
  return slug;
}

/** Every change of a user's set of KBs (create, the default flag) takes turns on this lock, so counts and the default stay exact. */
const lockUserKbs = (tx: Tx, userId: string) => tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`kbs:${userId}`}))`);

const clearDefault = (tx: Tx, userId: string, except?: string) =>
  tx
    .update(kbs)
    .set({ isDefault: false })
    .where(and(eq(kbs.ownerId, userId), eq(kbs.isDefault, true), except ? ne(kbs.id, except) : undefined));

export async function createKbChecked(deps: Deps, userId: string, body: CreateKbBody, opts: { id?: string } = {}): Promise<KbRow> {
  const slug = body.slug ?? slugOf(body.name);
  const user = await requireUser(deps.db, userId);
  const limit = deps.plans[user.plan].kbCount;
  return deps.db.transaction(async (tx) => {
    await lockUserKbs(tx, userId);
    const [{ n }] = (await tx.select({ n: count() }).from(kbs).where(eq(kbs.ownerId, userId))) as [{ n: number }];
    if (limit >= 0 && n >= limit) throw new AppError("KB_LIMIT_REACHED", `this plan allows ${limit} knowledge bases`, { limit, used: n });
    const [taken] = await tx
      .select({ id: kbs.id })
      .from(kbs)
      .where(and(eq(kbs.ownerId, userId), eq(kbs.slug, slug)));
    if (taken) throw new AppError("KB_SLUG_TAKEN", `you already have a knowledge base with the slug "${slug}"`, { slug, existingId: taken.id });
    if (body.isDefault) await clearDefault(tx, userId);
    const now = deps.clock.now();
    const [row] = await tx
      .insert(kbs)
      .values({
        id: opts.id ?? newId(),
        ownerId: userId,
        name: body.name,
        slug,
        description: body.description ?? null,
        isDefault: body.isDefault ?? false,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return row!;
  });
}

interface KbListQuery {
  cursor?: string;
  limit: number;
  sort: "updated_at" | "name";
}

/** The keyset query of a KB list page: most recently changed first, or by name A to Z (the name index read backwards). */
export function kbListQuery(userId: string, q: KbListQuery): KeysetQuery<typeof kbs> {
  return {
    from: kbs,
    shape: "owned",
    where: () => and(eq(kbs.ownerId, sql.placeholder("userId")), isNull(kbs.trashedAt))!,
    params: { userId },
    sort: q.sort === "name" ? ["name", "id"] : ["updatedAt", "id"],
    direction: q.sort === "name" ? "asc" : "desc",
    cursor: q.cursor,
    limit: q.limit,
  };
}

export const listKbs = (deps: Deps, userId: string, q: KbListQuery) => keysetPage(deps.db, kbListQuery(userId, q), toKbItem);

export async function updateKb(deps: Deps, userId: string, id: string, body: UpdateKbBody): Promise<KbRow> {
  return deps.db.transaction(async (tx) => {
    if (body.isDefault) await lockUserKbs(tx, userId);
    const kb = await lockKb(tx, { userId, id });
    if (body.slug !== undefined && body.slug !== kb.slug) throw validationError("body.slug", "a knowledge base's slug cannot change");
    if (body.isDefault) await clearDefault(tx, userId, id);
    const [row] = await tx
      .update(kbs)
      .set({
        ...(body.name !== undefined && { name: body.name }),
        ...(body.description !== undefined && { description: body.description }),
        ...(body.isDefault !== undefined && { isDefault: body.isDefault }),
        updatedAt: nextStamp(deps.clock.now()),
      })
      .where(eq(kbs.id, id))
      .returning();
    return row!;
  });
}

/**
 * Deletes a trashed KB for good (trash.ts: at once or at the end of its retention). Its
 * documents go with it, with their history: what they held (doc_count, img_storage, the
 * revision counters, the trash's bytes) is given back in the same transaction, their
 * objects removed after; its files' blobs go too where no other KB or branch of the owner
 * links them. False when the owner has no such KB in the trash.
 */
export async function purgeKb(deps: Deps, userId: string, id: string): Promise<boolean> {
  const freed = await deps.db.transaction(async (tx) => {
    const [kb] = await tx
      .select()
      .from(kbs)
      .where(and(eq(kbs.id, id), eq(kbs.ownerId, userId), isNotNull(kbs.trashedAt)))
      .for("update");
    if (!kb) return null;
    await lockOwnerFiles(tx, userId);
    const linked = await kbFileHashes(tx, userId, id);
    const held = await trashedKbBytes(tx, userId, id);
    // Its documents active again within this transaction: the cascade below then goes as it
    // always has (their tombstones, their counts given back).
    await untrashKbDocuments(tx, userId, id);
    // Their tombstones and branches first: the documents' rows are what they are made from.
    await tombstoneKb(tx, userId, id, nextStampAfter(kb.updatedAt, deps.clock.now()));
    const branchObjects = await purgeKbBranches(tx, userId, id);
    const objects = [...branchObjects, ...(await purgeKbDocuments(tx, userId, id)), ...(await dropUnlinked(tx, userId, linked))];
    await tx.delete(kbs).where(eq(kbs.id, id));
    await release(tx, userId, { trashBytes: held });
    return objects;
  });
  if (!freed) return false;
  await removeObjects(deps, freed);
  return true;
}
