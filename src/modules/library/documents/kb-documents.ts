// What the knowledge-base features (sync, KB delete) change in the documents table: a text
// or a file described for a KB path, a new document at a path, and the purge of a KB's
// documents with everything they count (kb-rows.ts has what they read). Each runs in the
// caller's transaction, so the books move with the rows.
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../../infra/db/index.ts";
import { placeholders, prepared } from "../../../infra/db/prepared.ts";
import { release } from "../../usage/public.ts";
import { cleanTags, clip, formatOf, TITLE_MAX, withoutExtension } from "./create.ts";
import { countWords, readMarkdown } from "./markdown.ts";
import { typstTitle } from "./typst-title.ts";
import { documentChanged } from "./events.ts";
import { type Actor, booksOf, type NextContent } from "./row-changes.ts";
import { type DocumentRow, docRevisions, docColumns, documents, isFileRow } from "./table.ts";
import type { StoredContent } from "./content.ts";

/**
 * The fields a text stored at a KB path gets (sync stores text as given: no image
 * rewriting). The format comes from the path's extension (INVALID_FILE_TYPE otherwise);
 * the title from the frontmatter, the first H1 or the file name; tags from the
 * frontmatter. What the text does not say (visibility, tags without frontmatter ones)
 * is kept from the document it replaces: keptFrom().
 */
export function describeText(relativePath: string, text: string, hashes: { sourceHash: string; sizeBytes: number }, stored: StoredContent): DescribedText {
  const filename = relativePath.slice(relativePath.lastIndexOf("/") + 1);
  const format = formatOf(filename);
  const markdown = format === "markdown" ? readMarkdown(text) : null;
  return {
    ...stored,
    sourceHash: hashes.sourceHash,
    inputHash: hashes.sourceHash,
    sizeBytes: hashes.sizeBytes,
    wordCount: markdown ? markdown.wordCount : countWords(text),
    imageCount: markdown ? markdown.images.length : 0,
    rewrittenCount: 0,
    excerpt: markdown?.excerpt ?? "",
    coverUrl: markdown?.images.find((i) => i.url && !i.url.toLowerCase().startsWith("data:"))?.url ?? null,
    title:
      clip(markdown?.frontmatterTitle ?? markdown?.firstH1 ?? (format === "typst" ? typstTitle(text) : undefined) ?? withoutExtension(filename), TITLE_MAX) ||
      filename,
    tags: markdown?.frontmatterTags ? cleanTags(markdown.frontmatterTags) : [],
    isPublic: false,
    filename,
    format,
    relativePath,
    ownTags: !!markdown?.frontmatterTags,
  };
}

export interface DescribedText extends NextContent {
  /** The tags came from the text's frontmatter (else the replaced document's are kept). */
  ownTags: boolean;
}

/**
 * The fields a KB file at `relativePath` gets: its blob's hash and size, its name as its
 * title, and nothing of a text (no words, images, excerpt, tags or content of its own).
 */
export function describeFile(relativePath: string, blob: { sha256: string; sizeBytes: number }): DescribedText {
  const filename = relativePath.slice(relativePath.lastIndexOf("/") + 1);
  return {
    content: null,
    objectKey: null,
    sourceHash: blob.sha256,
    inputHash: blob.sha256,
    sizeBytes: blob.sizeBytes,
    wordCount: 0,
    imageCount: 0,
    rewrittenCount: 0,
    excerpt: "",
    coverUrl: null,
    title: clip(filename, TITLE_MAX) || filename,
    tags: [],
    isPublic: false,
    filename,
    format: "file",
    relativePath,
    ownTags: true,
  };
}

/** The content for replacing `doc`: its visibility kept, and its tags unless the text names some (a file keeps neither). */
export function keptFrom({ ownTags, ...next }: DescribedText, doc?: Pick<DocumentRow, "tags" | "isPublic">): NextContent {
  if (!doc || isFileRow(next)) return next;
  return { ...next, tags: ownTags ? next.tags : doc.tags, isPublic: doc.isPublic };
}

/** The columns of a new document at a KB path, each a placeholder of its name. */
const INSERTED = [
  "id",
  "ownerId",
  "kbId",
  "relativePath",
  "pathKey",
  "title",
  "filename",
  "format",
  "sourceHash",
  "inputHash",
  "sizeBytes",
  "wordCount",
  "imageCount",
  "rewrittenCount",
  "excerpt",
  "coverUrl",
  "isPublic",
  "tags",
  "content",
  "objectKey",
  "createdAt",
  "updatedAt",
] as const;
type Inserted = { [K in (typeof INSERTED)[number]]: DocumentRow[K] };

/** The insert of a new document at a KB path, a prepared statement (a sync batch runs it for every new path). */
const insertStatement = (db: DbOrTx) =>
  db
    .insert(documents)
    .values(placeholders(INSERTED) as unknown as typeof documents.$inferInsert)
    .returning(docColumns)
    .prepare("documents_insert_in_kb");

/**
 * A new document at a free KB path: doc_count and img_storage reserved, the KB's counts
 * moved and stamped. A file reserves nothing (its blob's bytes are counted already).
 */
export async function insertInKb(
  tx: Tx,
  actor: Actor,
  place: { id: string; kbId: string; relativePath: string; pathKey: string },
  next: NextContent,
): Promise<DocumentRow> {
  const books = booksOf(actor);
  const file = isFileRow(next);
  if (!file) await books.reserve(tx, { docs: 1, imageBytes: next.sizeBytes });
  const stamp = await books.moveKb(tx, place.kbId, { docs: file ? 0 : 1, files: file ? 1 : 0, bytes: next.sizeBytes });
  const values: Inserted = {
    ...place,
    ownerId: actor.userId,
    title: next.title,
    filename: next.filename,
    format: next.format,
    sourceHash: next.sourceHash,
    inputHash: next.inputHash,
    sizeBytes: next.sizeBytes,
    wordCount: next.wordCount,
    imageCount: next.imageCount,
    rewrittenCount: next.rewrittenCount,
    excerpt: next.excerpt,
    coverUrl: next.coverUrl,
    isPublic: next.isPublic,
    tags: next.tags,
    content: next.content,
    objectKey: next.objectKey,
    createdAt: actor.now,
    updatedAt: stamp,
  };
  await documentChanged(tx, { ...values, kbId: place.kbId }, "created", actor.now);
  if (books.insertLater) return books.insertLater({ ...values, deletedAt: null, trashedAt: null, trashedKbId: null, trashedPath: null });
  const [row] = await prepared(tx, "documents_insert_in_kb", insertStatement).execute(values);
  return row!;
}

/**
 * Removes every document of a KB for good, with its history, in the transaction that
 * deletes the KB (which has written their tombstones and purged their conflict branches
 * first): what the active ones held (doc_count, img_storage) and every revision
 * (revision_count, revision_bytes) is given back, in a few statements whatever the KB's
 * size. Returns the objects to remove once the transaction has committed.
 */
export async function purgeKbDocuments(tx: Tx, userId: string, kbId: string): Promise<string[]> {
  const inKb = and(eq(documents.ownerId, userId), eq(documents.kbId, kbId));
  const revisions = await tx
    .delete(docRevisions)
    .where(sql`${docRevisions.ownerId} = ${userId} and ${docRevisions.docId} in (select ${documents.id} from ${documents} where ${inKb})`)
    .returning({ sizeBytes: docRevisions.sizeBytes, objectKey: docRevisions.objectKey });
  if (revisions.length) await release(tx, userId, { revisions: revisions.length, revisionBytes: revisions.reduce((n, r) => n + r.sizeBytes, 0) });
  const gone = await tx
    .delete(documents)
    .where(inKb)
    .returning({ sizeBytes: documents.sizeBytes, objectKey: documents.objectKey, deletedAt: documents.deletedAt, format: documents.format });
  // Files count their blobs, which the KB's delete drops when nothing else links them.
  const active = gone.filter((d) => d.deletedAt === null && !isFileRow(d));
  if (active.length) await release(tx, userId, { docs: active.length, imageBytes: active.reduce((n, d) => n + d.sizeBytes, 0) });
  return [...gone.map((d) => d.objectKey), ...revisions.map((r) => r.objectKey)].filter((k): k is string => !!k);
}
