// The archive's manifest.json: everything an import needs to make the account's things again
// (docs/api.md, "Backup"), versioned. Items are listed in the order their members were
// written; a document's revisions ride with it, oldest first.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExportItem } from "../../core/export-source.ts";
import { iso } from "../../infra/clock.ts";
import type { ExportKb } from "../library/public.ts";
import type { ManifestCollection } from "./collections.ts";
import type { ExportRow } from "./table.ts";

const MANIFEST_FORMAT = "shelf-export";
/**
 * Raised only for a change an importer of the version before could not read right; a field
 * added (as `collections` was) is read by the importers that know it and passed by the
 * older ones, which refuse any version but theirs.
 */
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

/**
 * The manifest's items, spooled to a file of the worker's own as they are gathered (one
 * JSON value each, comma-separated), so an account of any size holds none of them in
 * memory; read back as the last part of manifest.json.
 */
export async function openSpool() {
  const dir = await mkdtemp(join(tmpdir(), "shelf-export-"));
  const path = join(dir, "items.json");
  const writer = Bun.file(path).writer({ highWaterMark: 256 * 1024 });
  const counts = { items: 0, revisions: 0 };
  let ended = false;
  const end = async () => {
    if (ended) return;
    ended = true;
    await writer.end();
  };
  return {
    counts,
    add(item: ManifestItem) {
      writer.write(`${counts.items ? ",\n" : ""}    ${JSON.stringify(item)}`);
      counts.items++;
      counts.revisions += item.revisions?.length ?? 0;
    },
    /** Every item written so far, as the bytes of a JSON array's inside. */
    async *read(): AsyncGenerator<Uint8Array> {
      await end();
      yield* Bun.file(path).stream();
    },
    async remove() {
      await end().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
export type Spool = Awaited<ReturnType<typeof openSpool>>;

/** manifest.json: its head (every field but the items), then the spooled items, streamed. */
export async function* manifestChunks(
  row: ExportRow,
  account: { id: string; email: string | null; nickname: string | null },
  exportedAt: Date,
  kbs: ReturnType<typeof manifestKb>[],
  collections: ManifestCollection[],
  spool: Spool,
): AsyncGenerator<Uint8Array> {
  const head = JSON.stringify(
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
      counts: { items: spool.counts.items, kbs: kbs.length, revisions: spool.counts.revisions, collections: collections.length },
      kbs,
      collections,
    },
    null,
    2,
  );
  const enc = new TextEncoder();
  // The head without its closing brace, then "items" as its last field.
  yield enc.encode(`${head.slice(0, head.lastIndexOf("}")).trimEnd()},\n  "items": [\n`);
  yield* spool.read();
  yield enc.encode("\n  ]\n}\n");
}
