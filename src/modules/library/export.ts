// What an account export copies of the library: documents outside any KB, each KB with its
// active documents and files by path, and each document's revisions. Soft-deleted rows
// (a KB path's tombstone) are not the user's things any more and stay out.
import { and, asc, eq, gt, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { type ExportBody, type ExportItem, type ExportPage, exportCursor, readExportCursor } from "../../core/export-source.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { docColumns, documents, docRevisions, type DocumentRow } from "./documents/table.ts";
import { kbFiles } from "./files/table.ts";
import { kbs } from "./kbs/table.ts";

const TEXT_TYPES = { markdown: "text/markdown; charset=utf-8", typst: "text/plain; charset=utf-8" } as const;
const EXT = { markdown: "md", typst: "typ" } as const;

const bodyOf = (r: { content: string | null; objectKey: string | null }): ExportBody => (r.content !== null ? { text: r.content } : { key: r.objectKey ?? "" });

function documentItem(publicUrl: string, r: DocumentRow): ExportItem {
  const format = r.format === "file" ? "markdown" : r.format;
  return {
    id: r.id,
    name: r.title,
    ext: EXT[format],
    contentType: TEXT_TYPES[format],
    size: r.sizeBytes,
    // A text past the inline size is in the store; one with neither is empty.
    body: r.content === null && !r.objectKey ? { text: "" } : bodyOf(r),
    tags: r.tags,
    isPublic: r.isPublic,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    url: r.isPublic ? `${publicUrl}/v1/docs/${r.id}/raw` : null,
    fields: { format, title: r.title, filename: r.filename, sourceHash: r.sourceHash, inputHash: r.inputHash },
  };
}

const active = and(isNull(documents.deletedAt), ne(documents.format, "file"));

/** The documents outside any KB, oldest first. */
export async function documentsForExport(db: DbOrTx, publicUrl: string, ownerId: string, after: string | null, limit: number): Promise<ExportPage> {
  const from = readExportCursor(after);
  const rows = await db
    .select(docColumns)
    .from(documents)
    .where(
      and(
        eq(documents.ownerId, ownerId),
        isNull(documents.kbId),
        active,
        from ? or(gt(documents.createdAt, from.at), and(eq(documents.createdAt, from.at), gt(documents.id, from.id))) : undefined,
      ),
    )
    .orderBy(asc(documents.createdAt), asc(documents.id))
    .limit(limit);
  return { items: rows.map((r) => documentItem(publicUrl, r)), next: rows.length === limit ? exportCursor(rows.at(-1)!) : null };
}

export interface ExportKb {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  isDefault: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** The owner's KBs by slug (`ids`: only these; an id not the owner's is left out). */
export async function kbsForExport(db: DbOrTx, ownerId: string, ids: readonly string[] | null): Promise<ExportKb[]> {
  if (ids && !ids.length) return [];
  return db
    .select({
      id: kbs.id,
      name: kbs.name,
      slug: kbs.slug,
      description: kbs.description,
      isDefault: kbs.isDefault,
      createdAt: kbs.createdAt,
      updatedAt: kbs.updatedAt,
    })
    .from(kbs)
    .where(and(eq(kbs.ownerId, ownerId), isNull(kbs.trashedAt), ids ? inArray(kbs.id, [...ids]) : undefined))
    .orderBy(asc(kbs.slug));
}

/** A KB path's item: a document or a file, and its path. */
export interface KbExportItem extends ExportItem {
  entry: "document" | "file";
  relativePath: string;
}

/** A KB's active documents and files, by case-folded path. */
export async function kbEntriesForExport(
  db: DbOrTx,
  publicUrl: string,
  ownerId: string,
  kbId: string,
  after: string | null,
  limit: number,
): Promise<ExportPage<KbExportItem>> {
  const rows = await db
    .select({ doc: docColumns, blobKey: kbFiles.objectKey, blobType: kbFiles.contentType, blobSize: kbFiles.sizeBytes })
    .from(documents)
    .leftJoin(kbFiles, and(eq(documents.format, "file"), eq(kbFiles.ownerId, documents.ownerId), eq(kbFiles.sha256, documents.sourceHash)))
    .where(
      and(eq(documents.ownerId, ownerId), eq(documents.kbId, kbId), isNull(documents.deletedAt), after === null ? undefined : gt(documents.pathKey, after)),
    )
    .orderBy(asc(documents.pathKey))
    .limit(limit);
  const items = rows.map(({ doc, blobKey, blobType, blobSize }): KbExportItem => {
    const relativePath = doc.relativePath!;
    if (doc.format !== "file") return { ...documentItem(publicUrl, doc), entry: "document", relativePath };
    const dot = relativePath.lastIndexOf(".");
    return {
      id: doc.id,
      name: doc.filename,
      ext: dot > relativePath.lastIndexOf("/") + 1 ? relativePath.slice(dot + 1) : "bin",
      contentType: blobType ?? "application/octet-stream",
      size: blobSize ?? doc.sizeBytes,
      // A link without its blob row is a loss the export reports, not a file it skips.
      body: { key: blobKey ?? "" },
      tags: doc.tags,
      isPublic: doc.isPublic,
      createdAt: doc.createdAt,
      updatedAt: doc.updatedAt,
      url: null,
      fields: { sourceHash: doc.sourceHash },
      entry: "file",
      relativePath,
    };
  });
  return { items, next: rows.length === limit ? rows.at(-1)!.doc.pathKey : null };
}

export interface RevisionExport {
  id: string;
  revNumber: number;
  origin: string;
  sourceHash: string;
  size: number;
  body: ExportBody;
  createdAt: Date;
}

/** The revisions of these documents of the owner, oldest first for each. */
export async function revisionsForExport(db: DbOrTx, ownerId: string, docIds: readonly string[]): Promise<Map<string, RevisionExport[]>> {
  const out = new Map<string, RevisionExport[]>();
  if (!docIds.length) return out;
  const rows = await db
    .select()
    .from(docRevisions)
    .where(and(eq(docRevisions.ownerId, ownerId), inArray(docRevisions.docId, [...docIds])))
    .orderBy(asc(docRevisions.docId), asc(docRevisions.revNumber));
  for (const r of rows) {
    const list = out.get(r.docId) ?? [];
    list.push({ id: r.id, revNumber: r.revNumber, origin: r.origin, sourceHash: r.sourceHash, size: r.sizeBytes, body: bodyOf(r), createdAt: r.createdAt });
    out.set(r.docId, list);
  }
  return out;
}

/** How many items and bytes an export of the library holds: documents outside KBs, and KB entries (all KBs, or these). */
export async function libraryExportTotals(
  db: DbOrTx,
  ownerId: string,
  what: { documents: boolean; kbIds: readonly string[] | null | false },
): Promise<{ items: number; bytes: number }> {
  const parts = [];
  if (what.documents) parts.push(and(isNull(documents.kbId), active));
  if (what.kbIds !== false) {
    const inKbs = what.kbIds === null ? sql`${documents.kbId} is not null` : what.kbIds.length ? inArray(documents.kbId, [...what.kbIds]) : sql`false`;
    parts.push(and(inKbs, isNull(documents.deletedAt)));
  }
  if (!parts.length) return { items: 0, bytes: 0 };
  const [docs] = await db
    .select({ n: sql<number>`count(*)::int`, bytes: sql<string>`coalesce(sum(${documents.sizeBytes}), 0)` })
    .from(documents)
    .where(and(eq(documents.ownerId, ownerId), or(...parts)));
  const [revs] = await db
    .select({ n: sql<number>`count(*)::int`, bytes: sql<string>`coalesce(sum(${docRevisions.sizeBytes}), 0)` })
    .from(docRevisions)
    .innerJoin(documents, eq(documents.id, docRevisions.docId))
    .where(and(eq(docRevisions.ownerId, ownerId), or(...parts)));
  return { items: (docs?.n ?? 0) + (revs?.n ?? 0), bytes: Number(docs?.bytes ?? 0) + Number(revs?.bytes ?? 0) };
}
