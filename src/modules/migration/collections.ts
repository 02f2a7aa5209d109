// The archive's collections, made again once its media are (docs/api.md, "Migration"):
// planned with the rest before anything is stored (the collections' own limits, for all of
// them at once), then made through the collections module with their items' ids here, in
// order. An item the import neither made nor found here (skipped for want of bytes, or not
// in the archive at all) is left out, and so is a cover that is not one of the items.
import { and, eq, inArray } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { assertCollectionsFit, type CollectionItemRef, heldCollectionIds, importCollection } from "../collections/public.ts";
import type { CollectionEntry, MediaKind } from "./manifest.ts";
import type { Step } from "./plan.ts";
import { migrationItems } from "./table.ts";

const CHUNK = 500;
const COLLECTION = "collection";
const key = (r: { kind: string; id: string }) => `${r.kind}:${r.id}`;

/** What each item of the archive is here, by kind and id in the archive: made by this import, or found here already. */
export type HereIds = Map<string, string>;

export const noteHere = (here: HereIds, kind: string, sourceId: string, id: string) => here.set(key({ kind, id: sourceId }), id);

/** The item refs of `c` as they are here, in order, each once; those not here left out. */
function mapped(c: CollectionEntry, isHere: (r: { kind: MediaKind; id: string }) => string | undefined): CollectionItemRef[] {
  const seen = new Set<string>();
  return c.items.flatMap((r) => {
    const id = isHere(r);
    if (!id || seen.has(key({ kind: r.kind, id }))) return [];
    seen.add(key({ kind: r.kind, id }));
    return [{ kind: r.kind, id }];
  });
}

/**
 * The collections to make: all the archive lists but those this account holds (the one it
 * came from, by their ids) or an earlier import of it made here and still here. Throws what making them would refuse (the account's
 * room for them, a collection's for its items, the rules of titles and descriptions).
 */
export async function planCollections(deps: Deps, userId: string, collections: CollectionEntry[], steps: Step[]): Promise<CollectionEntry[]> {
  if (!collections.length) return [];
  const earlier = new Map<string, string>();
  const sourceIds = collections.map((c) => c.id);
  for (let i = 0; i < sourceIds.length; i += CHUNK) {
    const rows = await deps.db
      .select({ sourceId: migrationItems.sourceId, targetId: migrationItems.targetId })
      .from(migrationItems)
      .where(and(eq(migrationItems.ownerId, userId), eq(migrationItems.kind, COLLECTION), inArray(migrationItems.sourceId, sourceIds.slice(i, i + CHUNK))));
    for (const r of rows) earlier.set(r.sourceId, r.targetId);
  }
  // Held here: the account it came from has it still, or an earlier import made it.
  const ids = [...sourceIds, ...earlier.values()];
  const held = new Set<string>();
  for (let i = 0; i < ids.length; i += CHUNK) for (const id of await heldCollectionIds(deps.db, userId, ids.slice(i, i + CHUNK))) held.add(id);
  const make = collections.filter((c) => !held.has(c.id) && !held.has(earlier.get(c.id) ?? ""));
  // What each will hold: the items a step makes, or finds here.
  const coming = new Set(steps.filter((s) => !("skip" in s) || s.here).map((s) => key(s.item)));
  const planned = make.map((c) => ({ title: c.title, description: c.description, items: mapped(c, (r) => (coming.has(key(r)) ? r.id : undefined)) }));
  await assertCollectionsFit(deps.db, userId, planned);
  return make;
}

/** Its creation time in the archive, when it is one and not in the future. */
function createdAtOf(deps: Deps, at: string): Date | undefined {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) || d.getTime() > deps.clock.nowMs() ? undefined : d;
}

/** Makes the planned collections; tells `made` each one's id as it is made (for a take-back), and records it for a re-run. */
export async function makeCollections(deps: Deps, userId: string, migrationId: string, make: CollectionEntry[], here: HereIds, made: (id: string) => void) {
  for (const c of make) {
    const isHere = (r: { kind: MediaKind; id: string }) => here.get(key(r));
    const coverId = c.cover && isHere(c.cover);
    const createdAt = createdAtOf(deps, c.createdAt);
    const got = await importCollection(deps, userId, {
      title: c.title,
      description: c.description,
      items: mapped(c, isHere),
      cover: c.cover && coverId ? { kind: c.cover.kind, id: coverId } : null,
      ...(createdAt ? { createdAt } : {}),
    });
    made(got.id);
    await deps.db
      .insert(migrationItems)
      .values({ ownerId: userId, kind: COLLECTION, sourceId: c.id, sha256: "", targetId: got.id, migrationId, createdAt: deps.clock.now() })
      .onConflictDoUpdate({
        target: [migrationItems.ownerId, migrationItems.kind, migrationItems.sourceId, migrationItems.sha256],
        set: { targetId: got.id, migrationId },
      });
  }
}
