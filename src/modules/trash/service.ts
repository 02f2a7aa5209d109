// The trash: one listing of every kind's trashed items under one cursor, and restore and
// purge by id, each through the kind that has the id (the kinds' own trash.ts holds the
// rules: what stops serving, what stays counted, what a restore checks).
import type { Deps } from "../../core/deps.ts";
import { decodeCursor, toPage } from "../../core/cursor.ts";
import { AppError } from "../../core/errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Scope } from "../../core/scopes.ts";
import { TRASH_KINDS, type TrashEntry, type TrashKey, type TrashKind, type TrashedRef } from "../../core/trash.ts";
import { audioTrashPage, expiredAudio, purgeAudio, restoreAudio } from "../audio/public.ts";
import { expiredImages, imageTrashPage, purgeImage, restoreImage } from "../images/public.ts";
import { documentTrashPage, expiredDocuments, expiredKbs, kbTrashPage, purgeDocument, purgeKb, restoreDocument, restoreKb } from "../library/public.ts";
import { expiredVideos, purgeVideo, restoreVideo, videoTrashPage } from "../videos/public.ts";
import type { ListTrashQuery, TrashItem } from "./model.ts";

interface TrashKindRules {
  page(deps: Deps, ownerId: string, after: TrashKey | null, limit: number): Promise<TrashEntry[]>;
  restore(deps: Deps, ownerId: string, id: string): Promise<boolean>;
  purge(deps: Deps, ownerId: string, id: string): Promise<boolean>;
  expired(deps: Deps, before: Date, limit: number): Promise<TrashedRef[]>;
  /** The scopes that reach the kind: to see it, and to restore or purge it. */
  scopes: { read: Scope; write: Scope };
}

const MEDIA = { read: "media.read", write: "media.delete" } as const;
const LIBRARY = { read: "kb.read", write: "kb.write" } as const;

const KINDS: Record<TrashKind, TrashKindRules> = {
  image: { page: imageTrashPage, restore: restoreImage, purge: purgeImage, expired: expiredImages, scopes: MEDIA },
  video: { page: videoTrashPage, restore: restoreVideo, purge: purgeVideo, expired: expiredVideos, scopes: MEDIA },
  audio: { page: audioTrashPage, restore: restoreAudio, purge: purgeAudio, expired: expiredAudio, scopes: MEDIA },
  document: { page: documentTrashPage, restore: restoreDocument, purge: purgeDocument, expired: expiredDocuments, scopes: LIBRARY },
  kb: { page: kbTrashPage, restore: restoreKb, purge: purgeKb, expired: expiredKbs, scopes: LIBRARY },
};

const DAY_MS = 86_400_000;
const retentionMs = (deps: Deps) => deps.config.TRASH_RETENTION_DAYS * DAY_MS;

const toItem = (deps: Deps, e: TrashEntry): TrashItem => ({
  id: e.id,
  kind: e.kind,
  name: e.name,
  size: e.size,
  deletedAt: iso(e.trashedAt),
  purgeAt: iso(new Date(e.trashedAt.getTime() + retentionMs(deps))),
});

const rank = (kind: TrashKind) => TRASH_KINDS.indexOf(kind);
const LAST_INSTANT = Date.parse("9999-12-31T23:59:59.999Z");

/**
 * Where a kind resumes after the cursor's item, as the media listing resumes (media/service.ts):
 * items of one instant are ordered by kind, then by id within the kind.
 */
function resumeAt(kind: TrashKind, cursor: { at: Date; kind: TrashKind; id: string }): TrashKey | null {
  if (kind === cursor.kind) return { at: cursor.at, id: cursor.id };
  if (rank(kind) < rank(cursor.kind)) return { at: cursor.at, id: "" };
  if (cursor.at.getTime() >= LAST_INSTANT) return null;
  return { at: new Date(cursor.at.getTime() + 1), id: "" };
}

function decodeTrashCursor(cursor: string) {
  const [at, kind, id] = decodeCursor(cursor, ["d", "s", "s"] as const);
  if (!(TRASH_KINDS as readonly string[]).includes(kind)) throw new AppError("INVALID_CURSOR", "cursor is not valid", {});
  return { at, kind: kind as TrashKind, id };
}

/** The kinds a credential with `scopes` may see (or, with `write`, restore and purge). */
export const kindsFor = (scopes: readonly string[], need: "read" | "write") => TRASH_KINDS.filter((k) => scopes.includes(KINDS[k].scopes[need]));

/**
 * A page of the owner's trash, most recently deleted first, across the kinds asked for and
 * allowed: `limit + 1` of each after the cursor, merged by (deletedAt desc, kind), the first
 * `limit` kept. The cursor is the last item's (deletedAt, kind, id).
 */
export async function listTrash(deps: Deps, ownerId: string, allowed: readonly TrashKind[], q: ListTrashQuery) {
  const limit = q.limit ?? 20;
  const cursor = q.cursor ? decodeTrashCursor(q.cursor) : null;
  const kinds = allowed.filter((k) => !q.kind || k === q.kind);
  const pages = await Promise.all(
    kinds.map((k) => {
      const after = cursor ? resumeAt(k, cursor) : null;
      if (cursor && !after) return [];
      return KINDS[k].page(deps, ownerId, after, limit + 1);
    }),
  );
  const merged = pages.flat().sort((a, b) => b.trashedAt.getTime() - a.trashedAt.getTime() || rank(a.kind) - rank(b.kind) || (a.id < b.id ? 1 : -1));
  return toPage(
    merged.slice(0, limit + 1),
    limit,
    (e: TrashEntry) => [e.trashedAt.toISOString(), e.kind, e.id],
    (e) => toItem(deps, e),
  );
}

/** Restores the owner's trashed item with `id` through the kind that has it; 404 when none of `allowed` does. */
export async function restoreFromTrash(deps: Deps, ownerId: string, allowed: readonly TrashKind[], id: string): Promise<{ id: string; kind: TrashKind }> {
  for (const kind of allowed) if (await KINDS[kind].restore(deps, ownerId, id)) return { id, kind };
  throw new AppError("NOT_FOUND", "no such item in the trash", { entity: "trash item" });
}

/** Purges the owner's trashed item with `id`; 404 when none of `allowed` has it. */
export async function purgeFromTrash(deps: Deps, ownerId: string, allowed: readonly TrashKind[], id: string): Promise<void> {
  for (const kind of allowed) if (await KINDS[kind].purge(deps, ownerId, id)) return;
  throw new AppError("NOT_FOUND", "no such item in the trash", { entity: "trash item" });
}

const PURGE_BATCH = 100;

/** Empties the owner's trash of the kinds allowed, one item after another; how many went. */
export async function emptyTrash(deps: Deps, ownerId: string, allowed: readonly TrashKind[]): Promise<number> {
  let purged = 0;
  for (const kind of allowed) {
    for (;;) {
      const page = await KINDS[kind].page(deps, ownerId, null, PURGE_BATCH);
      let went = 0;
      for (const e of page) if (await KINDS[kind].purge(deps, ownerId, e.id)) went++;
      purged += went;
      // A full page of which nothing went (each restored meanwhile) would come back as it was.
      if (page.length < PURGE_BATCH || went === 0) break;
    }
  }
  return purged;
}

/**
 * Purges every item deleted more than TRASH_RETENTION_DAYS ago, every kind, oldest first.
 * Idempotent: an item purged by a run that died half-way is gone, one it had not reached
 * is found by the next run.
 */
export async function purgeExpired(deps: Deps, signal?: AbortSignal): Promise<Record<TrashKind, number>> {
  const before = new Date(deps.clock.nowMs() - retentionMs(deps));
  const counts = Object.fromEntries(TRASH_KINDS.map((k) => [k, 0])) as Record<TrashKind, number>;
  for (const kind of TRASH_KINDS) {
    for (;;) {
      if (signal?.aborted) return counts;
      const page = await KINDS[kind].expired(deps, before, PURGE_BATCH);
      let went = 0;
      for (const ref of page) if (await KINDS[kind].purge(deps, ref.ownerId, ref.id)) went++;
      counts[kind] += went;
      if (page.length < PURGE_BATCH || went === 0) break;
    }
  }
  return counts;
}
