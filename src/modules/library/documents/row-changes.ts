// The changes of a document row that move counters and history with them, each inside
// the caller's transaction: a content replacement (saving the previous content as a
// revision when history is on), a soft delete and a hard delete. Upload, restore and
// sync all go through these, so every path keeps the same books: img_storage and
// doc_count in the usage ledger, the KB's counts, revision_count and revision_bytes.
// A KB file's row (format `file`) counts nothing in the ledger (its blob counts its bytes,
// once however many rows link it), has no history, and in its KB counts as a file; a
// change that lets go of a file row's hash says so (`unlinked`), and the caller drops the
// blob at the end of its transaction if nothing links it any more (files/blobs.ts).
import { and, desc, eq, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../../infra/db/index.ts";
import { placeholders, prepared } from "../../../infra/db/prepared.ts";
import { newId } from "../../../infra/ids.ts";
import type { PlanLimits } from "../../identity/public.ts";
import { type Books, directBooks } from "./counters.ts";
import type { StoredContent } from "./content.ts";
import { documentChanged } from "./events.ts";
import { keepsInHistory } from "./history.ts";
import { type DocumentRow, docRevisions, docColumns, documents, isFileRow, type RevisionOrigin } from "./table.ts";
import { purgeDocBranches } from "../kbs/branches.ts";
import { writeTombstone } from "../kbs/tombstones.ts";

/** The tombstone of a KB document leaving its path at `stamp`. */
export const tombstoneOf = (doc: DocumentRow, stamp: Date) =>
  ({
    ownerId: doc.ownerId,
    kbId: doc.kbId!,
    docId: doc.id,
    relativePath: doc.relativePath!,
    pathKey: doc.pathKey!,
    sourceHash: doc.sourceHash,
    kind: isFileRow(doc) ? "file" : "document",
    deletedAt: stamp,
  }) as const;

type Counted = Pick<DocumentRow, "format" | "sizeBytes">;

/** What an active row counts in the ledger: a document itself and its bytes, a file nothing. */
const ledgerShare = (r: Counted) => (isFileRow(r) ? { docs: 0, imageBytes: 0 } : { docs: 1, imageBytes: r.sizeBytes });
/** What an active row counts in its KB. */
const kbShare = (r: Counted) => ({ docs: isFileRow(r) ? 0 : 1, files: isFileRow(r) ? 1 : 0, bytes: r.sizeBytes });
const NOTHING = { docs: 0, files: 0, bytes: 0, imageBytes: 0 };
/** The hash an active row that goes, or changes, lets go of: a file's. */
const heldHash = (r: Pick<DocumentRow, "format" | "sourceHash">) => (isFileRow(r) ? [r.sourceHash] : []);

/** Who is changing a document, and under which rules. */
export interface Actor {
  userId: string;
  limits: PlanLimits;
  history: { enabled: boolean; max: number };
  now: Date;
  /** Where the counters go (default: written as they move; a sync batch gathers them). */
  books?: Books;
}

/** The books of a change by `actor`. */
export const booksOf = (actor: Pick<Actor, "userId" | "now" | "books"> & { limits?: PlanLimits }): Books => actor.books ?? directBooks(actor);

/** Everything a content replacement sets (the derived fields of the new content). */
export interface NextContent extends StoredContent {
  sourceHash: string;
  inputHash: string;
  sizeBytes: number;
  wordCount: number;
  imageCount: number;
  rewrittenCount: number;
  excerpt: string;
  coverUrl: string | null;
  title: string;
  tags: string[];
  isPublic: boolean;
  filename: string;
  format: DocumentRow["format"];
  /** A new spelling of the path (letter case; its key is the same). */
  relativePath?: string;
}

export interface Changed {
  row: DocumentRow;
  /** Objects no row names any more: removed once the transaction has committed. */
  freed: string[];
  /** The revision the previous content was saved as, if any. */
  revision: { id: string; revNumber: number } | null;
  /** Blob hashes the row let go of (its file's, when it was one): dropped if nothing links them. */
  unlinked: string[];
}

/** The columns a content replacement sets, each a placeholder of its name. */
const REPLACED = [
  "content",
  "objectKey",
  "sourceHash",
  "inputHash",
  "sizeBytes",
  "wordCount",
  "imageCount",
  "rewrittenCount",
  "excerpt",
  "coverUrl",
  "title",
  "tags",
  "isPublic",
  "filename",
  "format",
  "relativePath",
  "updatedAt",
] as const;
type Replaced = { [K in (typeof REPLACED)[number]]: DocumentRow[K] };
/** What a replacement writes: its columns, and the row is active again. */
const REPLACED_ROW = [...REPLACED, "deletedAt"] as const;

/**
 * The replacement's update, a prepared statement: a sync batch runs it for every changed
 * path, where building the statement again each time cost more than running it.
 */
const replaceStatement = (db: DbOrTx) =>
  db
    .update(documents)
    .set({ ...(placeholders(REPLACED) as Record<keyof Replaced, never>), deletedAt: null })
    .where(eq(documents.id, sql.placeholder("id")))
    .returning(docColumns)
    .prepare("documents_replace");

/** Locks a document row of the caller until the transaction ends (null when absent). */
export async function lockDocument(tx: Tx, userId: string, id: string): Promise<DocumentRow | undefined> {
  const [row] = await tx
    .select(docColumns)
    .from(documents)
    .where(and(eq(documents.id, id), eq(documents.ownerId, userId)))
    .for("update");
  return row;
}

/**
 * Saves the document's current content as its next revision (the row's object, if any,
 * now belongs to the revision): the one place a revision is saved (an upload into a KB
 * path, sync, a restore, an accepted conflict branch). It prunes the document's oldest
 * past the user's retention count and then the account's oldest past the plan's cap on
 * history bytes (history.ts), so the write itself is never refused for its history. A
 * content larger than the whole cap is not kept (null). Returns the objects of pruned
 * revisions.
 */
async function saveRevision(
  tx: Tx,
  actor: Actor,
  doc: DocumentRow,
  origin: RevisionOrigin,
): Promise<{ id: string; revNumber: number; freed: string[] } | null> {
  if (!keepsInHistory(doc.sizeBytes, actor.limits.revisionBytes)) return null;
  const [last] = await tx
    .select({ n: docRevisions.revNumber })
    .from(docRevisions)
    .where(eq(docRevisions.docId, doc.id))
    .orderBy(desc(docRevisions.revNumber))
    .limit(1);
  const revNumber = (last?.n ?? 0) + 1;
  const id = newId();
  await tx.insert(docRevisions).values({
    id,
    docId: doc.id,
    ownerId: doc.ownerId,
    revNumber,
    origin,
    sourceHash: doc.sourceHash,
    sizeBytes: doc.sizeBytes,
    content: doc.content,
    objectKey: doc.objectKey,
    createdAt: actor.now,
  });
  const books = booksOf(actor);
  await books.reserve(tx, { revisions: 1, revisionBytes: doc.sizeBytes });
  const pruned = await tx
    .delete(docRevisions)
    .where(
      sql`${docRevisions.id} in (select ${docRevisions.id} from ${docRevisions} where ${docRevisions.docId} = ${doc.id} order by ${docRevisions.revNumber} desc offset ${actor.history.max})`,
    )
    .returning({ sizeBytes: docRevisions.sizeBytes, objectKey: docRevisions.objectKey });
  if (pruned.length) {
    await books.release(tx, { revisions: pruned.length, revisionBytes: pruned.reduce((n, r) => n + r.sizeBytes, 0) });
  }
  const freed = pruned.flatMap((r) => (r.objectKey ? [r.objectKey] : []));
  freed.push(...(await books.fitHistory(tx)));
  return { id, revNumber, freed };
}

/**
 * Moves doc_count and img_storage from what a row counted to what it counts now (a growth
 * is checked against the plan), with `extra`: what else the same change counts.
 */
async function moveLedger(
  tx: Tx,
  actor: Actor,
  was: { docs: number; imageBytes: number },
  now: { docs: number; imageBytes: number },
  extra: { uploads?: number; images?: number; imageBytes?: number } = {},
) {
  const books = booksOf(actor);
  await books.reserve(tx, {
    ...extra,
    docs: Math.max(0, now.docs - was.docs),
    imageBytes: Math.max(0, now.imageBytes - was.imageBytes) + (extra.imageBytes ?? 0),
  });
  const freed = { docs: Math.max(0, was.docs - now.docs), imageBytes: Math.max(0, was.imageBytes - now.imageBytes) };
  if (freed.docs || freed.imageBytes) await books.release(tx, freed);
}

/**
 * Replaces a locked document's content (an active one: its previous content is saved as
 * a revision when history is on or `alwaysKeep`; a soft-deleted one: revived). `extra`:
 * what else the same change counts (the upload and images of a rewrite).
 */
export async function replaceContent(
  tx: Tx,
  actor: Actor,
  doc: DocumentRow,
  next: NextContent,
  origin: RevisionOrigin,
  opts: { alwaysKeep?: boolean; extra?: { uploads?: number; images?: number; imageBytes?: number } } = {},
): Promise<Changed> {
  const revived = doc.deletedAt !== null;
  const freed: string[] = [];
  let revision: Changed["revision"] = null;
  // A file has no text to keep: its history is none.
  const saved = !revived && !isFileRow(doc) && (actor.history.enabled || opts.alwaysKeep) ? await saveRevision(tx, actor, doc, origin) : null;
  if (saved) {
    revision = { id: saved.id, revNumber: saved.revNumber };
    freed.push(...saved.freed);
  } else if (doc.objectKey) freed.push(doc.objectKey);

  await moveLedger(tx, actor, revived ? NOTHING : ledgerShare(doc), ledgerShare(next), opts.extra);
  const [was, now] = [revived ? NOTHING : kbShare(doc), kbShare(next)];
  const stamp = doc.kbId
    ? await booksOf(actor).moveKb(tx, doc.kbId, { docs: now.docs - was.docs, files: now.files - was.files, bytes: now.bytes - was.bytes })
    : actor.now;
  const unlinked = revived ? [] : heldHash(doc);
  const values: Replaced & { id: string } = {
    id: doc.id,
    content: next.content,
    objectKey: next.objectKey,
    sourceHash: next.sourceHash,
    inputHash: next.inputHash,
    sizeBytes: next.sizeBytes,
    wordCount: next.wordCount,
    imageCount: next.imageCount,
    rewrittenCount: next.rewrittenCount,
    excerpt: next.excerpt,
    coverUrl: next.coverUrl,
    title: next.title,
    tags: next.tags,
    isPublic: next.isPublic,
    filename: next.filename,
    format: next.format,
    relativePath: next.relativePath ?? doc.relativePath,
    updatedAt: stamp,
  };
  await documentChanged(tx, { ...doc, ...values }, revived ? "created" : "updated", actor.now);
  const books = booksOf(actor);
  if (books.updateLater) return { row: books.updateLater({ ...doc, ...values, deletedAt: null }, REPLACED_ROW), freed, revision, unlinked };
  const [row] = await prepared(tx, "documents_replace", replaceStatement).execute(values);
  return { row: row!, freed, revision, unlinked };
}

/**
 * Soft-deletes a locked, active document: its content goes (the manifest keeps reporting
 * the path as deleted), doc_count, img_storage and the KB's counts are given back; its
 * history stays; in a KB a tombstone at its path is written with the same stamp. Returns
 * the row as it is now, the object to remove and the blob hash a file lets go of.
 */
export async function softDelete(
  tx: Tx,
  actor: Pick<Actor, "userId" | "now" | "books">,
  doc: DocumentRow,
): Promise<{ row: DocumentRow; freed: string[]; unlinked: string[] }> {
  const books = booksOf(actor);
  const share = ledgerShare(doc);
  if (share.docs || share.imageBytes) await books.release(tx, share);
  const kb = kbShare(doc);
  const stamp = doc.kbId ? await books.moveKb(tx, doc.kbId, { docs: -kb.docs, files: -kb.files, bytes: -kb.bytes }) : actor.now;
  const [row] = await tx
    .update(documents)
    .set({ deletedAt: stamp, updatedAt: stamp, content: null, objectKey: null })
    .where(eq(documents.id, doc.id))
    .returning(docColumns);
  if (doc.kbId) await writeTombstone(tx, tombstoneOf(doc, stamp));
  await documentChanged(tx, doc, "deleted", actor.now);
  return { row: row!, freed: doc.objectKey ? [doc.objectKey] : [], unlinked: heldHash(doc) };
}

/**
 * Deletes a locked document, its history and its conflict branches for good (an active one
 * in a KB leaves a tombstone). Returns the objects to remove. A file is let go of by sync or
 * its KB's delete only, which drop its blob: an active one never comes here.
 */
export async function hardDelete(tx: Tx, actor: Pick<Actor, "userId" | "now" | "books">, doc: DocumentRow): Promise<string[]> {
  if (!doc.deletedAt && isFileRow(doc)) throw new Error("an active KB file is deleted by sync or with its KB, not for good");
  const books = booksOf(actor);
  const revisions = await tx
    .delete(docRevisions)
    .where(eq(docRevisions.docId, doc.id))
    .returning({ sizeBytes: docRevisions.sizeBytes, objectKey: docRevisions.objectKey });
  if (revisions.length) await books.release(tx, { revisions: revisions.length, revisionBytes: revisions.reduce((n, r) => n + r.sizeBytes, 0) });
  // A trashed document is deleted but still counted (its bytes in the trash's too) until purged.
  if (doc.trashedAt) await books.release(tx, { docs: 1, imageBytes: doc.sizeBytes, trashBytes: doc.sizeBytes });
  if (!doc.deletedAt) {
    await documentChanged(tx, doc, "deleted", actor.now);
    await books.release(tx, { docs: 1, imageBytes: doc.sizeBytes });
    if (doc.kbId) await writeTombstone(tx, tombstoneOf(doc, await books.moveKb(tx, doc.kbId, { docs: -1, bytes: -doc.sizeBytes })));
  }
  const branches = await purgeDocBranches(tx, actor.userId, doc.id);
  await tx.delete(documents).where(eq(documents.id, doc.id));
  return [doc.objectKey, ...revisions.map((r) => r.objectKey), ...branches].filter((k): k is string => !!k);
}

/** Where a move puts a document: its new path in the same KB, and what the name decides. */
export interface MoveTarget {
  relativePath: string;
  pathKey: string;
  filename: string;
  format: DocumentRow["format"];
}

/**
 * Moves a locked, active KB document to a free path of its KB: same id, content and
 * history, and the KB stamped, in the caller's transaction. At the path it left: a
 * tombstone (v2 manifests), and a soft-deleted row (`left`), which is how v1 manifests say
 * a path went away; an upsert there later revives that row as it would any deleted one.
 */
export async function moveDocument(
  tx: Tx,
  actor: Pick<Actor, "userId" | "now" | "books">,
  doc: DocumentRow,
  to: MoveTarget,
): Promise<{ row: DocumentRow; left: DocumentRow | null }> {
  if (!doc.kbId || doc.deletedAt) throw new Error("only an active KB document moves");
  const stamp = await booksOf(actor).moveKb(tx, doc.kbId, { docs: 0, bytes: 0 });
  const [row] = await tx
    .update(documents)
    .set({ relativePath: to.relativePath, pathKey: to.pathKey, filename: to.filename, format: to.format, updatedAt: stamp })
    .where(eq(documents.id, doc.id))
    .returning(docColumns);
  await documentChanged(tx, row!, "moved", actor.now, { previousPath: doc.relativePath });
  // A change of letter case only is a rename in place: the path did not go away.
  if (to.pathKey === doc.pathKey) return { row: row!, left: null };
  await writeTombstone(tx, tombstoneOf(doc, stamp));
  const [left] = await tx
    .insert(documents)
    .values({ ...doc, id: newId(), content: null, objectKey: null, tags: [], isPublic: false, createdAt: stamp, updatedAt: stamp, deletedAt: stamp })
    .returning(docColumns);
  return { row: row!, left: left! };
}
