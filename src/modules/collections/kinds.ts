// What a collection reads of the kinds it holds, each through its module's public surface:
// the kind's list items of the owner's ids (what its own GET would show), and which ids
// still have a row at all (one that has none is gone for good and its membership may go).
import type { Deps } from "../../core/deps.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { type AudioItem, audioItemsByIds, heldAudioIds } from "../audio/public.ts";
import { heldImageIds, type ImageItem, imageItemsByIds } from "../images/public.ts";
import { heldVideoIds, type VideoListItem, videoItemsByIds } from "../videos/public.ts";
import type { ItemKind } from "./table.ts";

export interface ItemRef {
  kind: ItemKind;
  id: string;
}

export type MediaItem = ImageItem | VideoListItem | AudioItem;

type KindDeps = Pick<Deps, "db" | "config" | "clock">;

interface Kind {
  items(deps: KindDeps, ownerId: string, ids: readonly string[]): Promise<MediaItem[]>;
  held(db: DbOrTx, ownerId: string, ids: readonly string[]): Promise<Set<string>>;
  thumbnail(item: MediaItem): string | null;
}

const KINDS: Record<ItemKind, Kind> = {
  image: { items: imageItemsByIds, held: heldImageIds, thumbnail: (i) => (i as ImageItem).thumbnail_url },
  video: { items: videoItemsByIds, held: heldVideoIds, thumbnail: (i) => (i as VideoListItem).thumbnail_url ?? null },
  audio: { items: audioItemsByIds, held: heldAudioIds, thumbnail: (i) => (i as AudioItem).thumbnailUrl },
};

export const refKey = (r: { kind: ItemKind; id: string }) => `${r.kind}:${r.id}`;

function byKind(refs: readonly ItemRef[]): Map<ItemKind, string[]> {
  const ids = new Map<ItemKind, string[]>();
  for (const r of refs) ids.set(r.kind, [...(ids.get(r.kind) ?? []), r.id]);
  return ids;
}

/** The items `refs` name that the owner's GET of their kind would show, by refKey. */
export async function itemsOf(deps: KindDeps, ownerId: string, refs: readonly ItemRef[]): Promise<Map<string, MediaItem>> {
  const found = new Map<string, MediaItem>();
  await Promise.all(
    [...byKind(refs)].map(async ([kind, ids]) => {
      for (const item of await KINDS[kind].items(deps, ownerId, ids)) found.set(refKey({ kind, id: item.id }), item);
    }),
  );
  return found;
}

/** Of `refs` not among `shown`, those whose item has no row at all any more: gone for good. */
export async function goneOf(db: DbOrTx, ownerId: string, refs: readonly ItemRef[], shown: Map<string, MediaItem>): Promise<ItemRef[]> {
  const unseen = refs.filter((r) => !shown.has(refKey(r)));
  if (!unseen.length) return [];
  const held = new Set<string>();
  await Promise.all(
    [...byKind(unseen)].map(async ([kind, ids]) => {
      for (const id of await KINDS[kind].held(db, ownerId, ids)) held.add(refKey({ kind, id }));
    }),
  );
  return unseen.filter((r) => !held.has(refKey(r)));
}

export const thumbnailOf = (kind: ItemKind, item: MediaItem) => KINDS[kind].thumbnail(item);
