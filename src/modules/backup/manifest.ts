// The archive's manifest.json: everything an import needs to make the account's things again
// (docs/api.md, "Backup"), versioned. Items are listed in the order their members were
// written; a document's revisions ride with it, oldest first.
import type { ExportItem } from "../../core/export-source.ts";
import { iso } from "../../infra/clock.ts";
import type { ExportKb } from "../library/public.ts";
import type { ExportRow } from "./table.ts";

const MANIFEST_FORMAT = "shelf-export";
const MANIFEST_VERSION = 1;
export const MANIFEST_MEMBER = "manifest.json";

export type ItemKind = "image" | "video" | "audio" | "document" | "kb_document" | "kb_file";

/** What the archive holds of one member's bytes. */
export interface Copied {
  member: string;
  size: number;
  sha256: string;
}

interface ManifestRevision extends Copied {
  id: string;
  revNumber: number;
  origin: string;
  sourceHash: string;
  createdAt: string;
}

export interface ManifestItem {
  id: string;
  kind: ItemKind;
  /** Null for an item listed without bytes (a video whose original is gone). */
  member: string | null;
  name: string;
  contentType: string;
  size: number;
  sha256: string | null;
  tags: string[];
  isPublic: boolean;
  createdAt: string;
  updatedAt: string;
  url: string | null;
  fields: Record<string, unknown>;
  kb?: { id: string; slug: string; path: string };
  revisions?: ManifestRevision[];
}

export function manifestItem(kind: ItemKind, item: ExportItem, copied: Copied | null, extra: Pick<ManifestItem, "kb" | "revisions"> = {}): ManifestItem {
  return {
    id: item.id,
    kind,
    member: copied?.member ?? null,
    name: item.name,
    contentType: item.contentType,
    size: copied?.size ?? 0,
    sha256: copied?.sha256 ?? null,
    tags: item.tags,
    isPublic: item.isPublic,
    createdAt: iso(item.createdAt),
    updatedAt: iso(item.updatedAt),
    url: item.url,
    fields: item.fields,
    ...extra,
  };
}

export function manifestKb(kb: ExportKb, folder: string) {
  return {
    id: kb.id,
    name: kb.name,
    slug: kb.slug,
    description: kb.description,
    isDefault: kb.isDefault,
    folder,
    createdAt: iso(kb.createdAt),
    updatedAt: iso(kb.updatedAt),
  };
}

/** The manifest's text: its head, then the lists as they were gathered. */
export function manifestText(
  row: ExportRow,
  account: { id: string; email: string | null; nickname: string | null },
  exportedAt: Date,
  kbs: ReturnType<typeof manifestKb>[],
  items: ManifestItem[],
): string {
  return JSON.stringify(
    {
      format: MANIFEST_FORMAT,
      version: MANIFEST_VERSION,
      exportId: row.id,
      account,
      requestedAt: iso(row.createdAt),
      exportedAt: iso(exportedAt),
      // What documents' image links and items' URLs were written with: an import into
      // another instance rewrites the ones that start with mediaUrl to its own.
      instance: { publicUrl: row.publicUrl, mediaUrl: row.mediaUrl },
      selection: { kinds: row.kinds, kbIds: row.kbIds },
      counts: { items: items.length, kbs: kbs.length, revisions: items.reduce((n, i) => n + (i.revisions?.length ?? 0), 0) },
      kbs,
      items,
    },
    null,
    2,
  );
}
