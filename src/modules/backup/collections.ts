// The account's collections in the manifest (docs/api.md, "Backup"): read through the
// collections module when the export holds media, and written with the items the archive
// lists alone, in their order. The collections are read before the media (a bounded list:
// the collections' limits), each medium the archive lists is marked as it is listed, and
// what was marked is what the manifest's collections keep: a trashed item, or one of a
// kind not exported, is not in the archive and so not in its collections.
import { iso } from "../../infra/clock.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { type CollectionItemKind, type CollectionItemRef, collectionsForExport } from "../collections/public.ts";
import type { ExportKind } from "./table.ts";

const MEDIA: Partial<Record<ExportKind, CollectionItemKind>> = { images: "image", videos: "video", audio: "audio" };

export interface ManifestCollection {
  id: string;
  title: string;
  description: string | null;
  cover: CollectionItemRef | null;
  createdAt: string;
  updatedAt: string;
  items: CollectionItemRef[];
}

const key = (kind: string, id: string) => `${kind}:${id}`;

export async function exportCollections(db: DbOrTx, ownerId: string, kinds: readonly ExportKind[]) {
  const media = new Set(kinds.flatMap((k) => MEDIA[k] ?? []));
  const all = media.size ? await collectionsForExport(db, ownerId) : [];
  const wanted = new Set(all.flatMap((c) => c.items.filter((i) => media.has(i.kind)).map((i) => key(i.kind, i.id))));
  const listed = new Set<string>();
  return {
    /** The archive lists this item. */
    listed(kind: string, id: string) {
      const k = key(kind, id);
      if (wanted.has(k)) listed.add(k);
    },
    /** Every collection, with the items the archive lists, in order; the cover when it is one of them. */
    manifest(): ManifestCollection[] {
      return all.map((c) => {
        const items = c.items.filter((i) => listed.has(key(i.kind, i.id)));
        return {
          id: c.id,
          title: c.title,
          description: c.description,
          cover: c.cover && listed.has(key(c.cover.kind, c.cover.id)) ? c.cover : null,
          createdAt: iso(c.createdAt),
          updatedAt: iso(c.updatedAt),
          items,
        };
      });
    },
  };
}
