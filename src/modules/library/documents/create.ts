// POST /v1/docs: a new document, or (in a KB, at a path that has one) a new content for
// it. Everything that can refuse (format, path, size, image count, doc_count, storage) is
// decided before anything is stored, and the images a rewrite made are recorded in the
// same transaction as the document: a refusal leaves nothing behind.
import { and, eq, or, sql } from "drizzle-orm";
import type { Deps } from "../../../core/deps.ts";
import { AppError, validationError } from "../../../core/errors.ts";
import { hasUnsafeChars, stripUnsafeChars } from "../../../core/text.ts";
import { iso } from "../../../infra/clock.ts";
import type { Tx } from "../../../infra/db/index.ts";
import { newId } from "../../../infra/ids.ts";
import { assertCompliant, type WithCompliance } from "../../compliance/public.ts";
import { discardPrepared, type ImageDeps, insertPrepared, type Uploader } from "../../images/public.ts";
import { requireUser, type User } from "../../identity/public.ts";
import { assertFits, reserve, snapshotUsage } from "../../usage/public.ts";
import { listCdnHosts } from "./cdn-hosts.ts";
import { getKb, lockKb, moveKbCounts } from "../kbs/service.ts";
import { removeObjects, sha256Hex, type StoredContent, storeContent, utf8Length } from "./content.ts";
import { countWords, readMarkdown } from "./markdown.ts";
import { typstWarnings } from "./typst.ts";
import { typstTitle } from "./typst-title.ts";
import type { CreateDocBody, UploadResult } from "./model.ts";
import { normalizePath, pathProblemText } from "./path.ts";
import { type Actor, type NextContent, replaceContent } from "./row-changes.ts";
import { rewriteImages } from "./rewrite.ts";
import { type DocFormat, type DocumentRow, docColumns, docFormat, documents, isFileRow } from "./table.ts";
import { documentChanged } from "./events.ts";

export const TITLE_MAX = 255;
/** As the raw endpoint serves them (raw-text.ts), without the charset. */
const MIME: Record<DocFormat, string> = { markdown: "text/markdown", typst: "text/plain" };

/** The format by the file name's extension; 422 INVALID_FILE_TYPE otherwise. */
export function formatOf(filename: string): DocFormat {
  const dot = filename.lastIndexOf(".");
  const ext = dot > 0 ? filename.slice(dot + 1).toLowerCase() : "";
  if (ext === "md" || ext === "markdown") return "markdown";
  if (ext === "typ") return "typst";
  throw new AppError("INVALID_FILE_TYPE", "a document is Markdown (.md, .markdown) or Typst (.typ)", { filename });
}

/**
 * The platform's compliance check of a document's text, before it is stored: every way a
 * text comes in (an upload, a sync push) calls it.
 */
export async function assertDocumentCompliant(
  deps: Deps & WithCompliance,
  d: { ownerId: string; filename: string; text: string; sha256: string; size: number },
) {
  if (deps.compliance.enabled) await assertCompliant(deps, { kind: "document", ...d, mimeType: MIME[formatOf(d.filename)] });
}

/** A title taken from the text: one line of plain characters (the rule of names), at most `max`. */
export const clip = (s: string, max: number) => {
  const chars = [...stripUnsafeChars(s.replace(/\s+/g, " ")).trim()];
  return chars.length > max ? chars.slice(0, max).join("") : chars.join("");
};

export const withoutExtension = (filename: string) => {
  const dot = filename.lastIndexOf(".");
  return dot > 0 ? filename.slice(0, dot) : filename;
};

/** Frontmatter tags kept only where they pass the rule of tags (at most 10 of 1 to 32 plain characters). */
export function cleanTags(tags: readonly string[] | undefined): string[] {
  const out = new Set<string>();
  for (const t of tags ?? []) {
    if (t.length >= 1 && t.length <= 32 && !hasUnsafeChars(t)) out.add(t);
    if (out.size === 10) break;
  }
  return [...out];
}

function toUploadResult(
  row: DocumentRow,
  extra: { duplicate: boolean; failures?: UploadResult["failures"]; warnings?: UploadResult["warnings"] },
): UploadResult {
  const failures = extra.failures ?? [];
  return {
    id: row.id,
    title: row.title,
    format: docFormat(row),
    sizeBytes: row.sizeBytes,
    sourceHash: row.sourceHash,
    imageCount: row.imageCount,
    rewrittenCount: extra.duplicate ? 0 : row.rewrittenCount,
    failedCount: failures.length,
    failures,
    warnings: extra.warnings ?? [],
    duplicate: extra.duplicate,
    hasInlineContent: row.objectKey === null,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

type Place = { kbId: null } | { kbId: string; relativePath: string; pathKey: string };

function placeOf(body: CreateDocBody): Place {
  if (body.kbId === undefined && body.relativePath === undefined) return { kbId: null };
  if (body.kbId === undefined) throw validationError("body.kbId", "kbId and relativePath come together: a document is in a KB at a path, or outside any KB");
  if (body.relativePath === undefined)
    throw validationError("body.relativePath", "kbId and relativePath come together: a document is in a KB at a path, or outside any KB");
  const p = normalizePath(body.relativePath);
  if (!p.ok) throw validationError("body.relativePath", pathProblemText(p.problem));
  return { kbId: body.kbId, relativePath: p.path, pathKey: p.key };
}

/** An active document in the same place with this content (as sent, or as stored). */
async function findDuplicate(db: Deps["db"] | Tx, ownerId: string, place: Place, hash: string): Promise<DocumentRow | undefined> {
  const same = or(eq(documents.sourceHash, hash), eq(documents.inputHash, hash));
  const where =
    place.kbId === null
      ? and(eq(documents.ownerId, ownerId), sql`${documents.kbId} is null`, sql`${documents.deletedAt} is null`, same)
      : and(eq(documents.ownerId, ownerId), eq(documents.kbId, place.kbId), eq(documents.pathKey, place.pathKey), sql`${documents.deletedAt} is null`, same);
  const [row] = await db.select(docColumns).from(documents).where(where).limit(1);
  return row;
}

export interface Created {
  status: 200 | 201;
  result: UploadResult;
}

/**
 * A document ready to be inserted: its text checked against the plan and compliance and
 * stored, its inline images converted and stored (not yet counted), what it will count.
 * discardDocument removes what it stored when it is not inserted.
 */
interface PreparedDocument {
  userId: string;
  place: Place;
  docId: string;
  next: NextContent;
  sourceHash: string;
  inputHash: string;
  content: StoredContent;
  rewritten: Awaited<ReturnType<typeof rewriteImages>>;
  imageNeed: { uploads: number; images: number; imageBytes: number };
  actor: Actor;
  /** An imported document's own creation time (migration); the actor's now otherwise. */
  createdAt?: Date;
}

/**
 * Creates a document, or replaces the content of the active one at its KB path: prepared
 * (checked and stored), inserted in one transaction, or discarded when it turned out to be
 * a duplicate or failed. The same text again in the same place consumes nothing (200).
 */
export async function createDocument(deps: ImageDeps, userId: string, body: CreateDocBody, opts: { id?: string; createdAt?: Date } = {}): Promise<Created> {
  const created = await createOrFind(deps, userId, body, opts);
  // The compile check of a Typst text, once it is stored (what it finds never refuses it).
  if (created.result.format === "typst") created.result.warnings = await typstWarnings(deps, body.content);
  return created;
}

async function createOrFind(deps: ImageDeps, userId: string, body: CreateDocBody, opts: { id?: string; createdAt?: Date }): Promise<Created> {
  const early = await prepareDocument(deps, userId, body, opts);
  if ("duplicate" in early) return { status: 200, result: toUploadResult(early.duplicate, { duplicate: true }) };
  const prepared = early.ready;
  let outcome: Awaited<ReturnType<typeof insertDocument>>;
  try {
    outcome = await insertDocument(deps, prepared);
  } catch (e) {
    await discardDocument(deps, prepared);
    throw e;
  }
  if ("duplicate" in outcome) {
    await discardDocument(deps, prepared);
    return { status: 200, result: toUploadResult(outcome.duplicate, { duplicate: true }) };
  }
  await removeObjects(deps, outcome.freed);
  const { failures, warnings } = prepared.rewritten;
  return { status: outcome.created ? 201 : 200, result: toUploadResult(outcome.row, { duplicate: false, failures, warnings }) };
}

/** What prepareDocument found: the document already there with this text, or one ready to insert. */
async function prepareDocument(
  deps: ImageDeps,
  userId: string,
  body: CreateDocBody,
  opts: { id?: string; createdAt?: Date },
): Promise<{ duplicate: DocumentRow } | { ready: PreparedDocument }> {
  const format = formatOf(body.filename);
  // Postgres text cannot hold NUL, and no Markdown or Typst needs it: refused alike whether
  // the text would be stored inline or as an object.
  if (body.content.includes("\u0000")) throw validationError("body.content", "the content may not contain NUL characters");
  const place = placeOf(body);
  const { user, uploader } = await readUploader(deps, userId);
  const limits = uploader.limits;
  // A new content for an active document at a KB path is no new document, and needs only
  // the bytes it adds.
  const replacing = place.kbId === null ? undefined : await activeAtPath(deps.db, userId, place);
  if (replacing && isFileRow(replacing)) throw pathHoldsFile(replacing);
  const docsNeed = replacing ? 0 : 1;
  assertFits(uploader.userId, uploader.usage, limits, { docs: docsNeed }, deps.clock.now());

  // Idempotency before any work: the same text again in the same place consumes nothing.
  const inputHash = sha256Hex(body.content);
  const early = await findDuplicate(deps.db, userId, place, inputHash);
  if (early) return { duplicate: early };

  const markdown = format === "markdown" ? readMarkdown(body.content) : null;
  const images = markdown?.images ?? [];
  if (limits.docMaxImagesPerDoc >= 0 && images.length > limits.docMaxImagesPerDoc) {
    throw new AppError("DOC_IMAGE_LIMIT_EXCEEDED", `a document may hold at most ${limits.docMaxImagesPerDoc} images on this plan`, {
      limit: limits.docMaxImagesPerDoc,
      count: images.length,
    });
  }
  // The least the text can weigh once its inline images are links: if even that is too
  // large, refuse before storing a single image.
  const rewriting = body.rewriteImages === true && format === "markdown";
  const inlineBytes = rewriting ? images.reduce((n, i) => n + (i.span && i.url.slice(0, 5).toLowerCase() === "data:" ? utf8Length(i.url) : 0), 0) : 0;
  const assertSize = (size: number) => {
    if (limits.docMaxFileBytes >= 0 && size > limits.docMaxFileBytes) {
      throw new AppError("DOC_FILE_TOO_LARGE", `a document may have at most ${limits.docMaxFileBytes} bytes on this plan`, {
        limit: limits.docMaxFileBytes,
        size,
      });
    }
  };
  const inputBytes = utf8Length(body.content);
  assertSize(inputBytes - inlineBytes);
  const now = deps.clock.now();
  assertFits(uploader.userId, uploader.usage, limits, { docs: docsNeed, imageBytes: inputBytes - inlineBytes - (replacing?.sizeBytes ?? 0) }, now);

  const rewritten =
    format === "markdown"
      ? await rewriteImages(deps, body.content, images, {
          rewrite: rewriting,
          cdnHosts: await listCdnHosts(deps.db),
          uploader,
          docBytes: inputBytes - inlineBytes,
        })
      : { content: body.content, prepared: [], failures: [], warnings: [], coverUrl: null };
  const text = rewritten.content;
  const sizeBytes = utf8Length(text);
  // An imported document keeps the id it had where the caller found it free (migration).
  const docId = opts.id ?? newId();
  let content: StoredContent | undefined;
  try {
    assertSize(sizeBytes);
    const sourceHash = sha256Hex(text);
    // The text as it would be stored (inline images already checked one by one).
    await assertDocumentCompliant(deps, { ownerId: userId, filename: body.filename, text, sha256: sourceHash, size: sizeBytes });
    content = await storeContent(deps, userId, docId, text, sizeBytes);
    const next: NextContent = {
      ...content,
      sourceHash,
      inputHash,
      sizeBytes,
      wordCount: markdown ? markdown.wordCount : countWords(text),
      imageCount: images.length,
      rewrittenCount: rewritten.prepared.length,
      excerpt: markdown?.excerpt ?? "",
      coverUrl: rewritten.coverUrl,
      title:
        clip(
          body.title ??
            markdown?.frontmatterTitle ??
            markdown?.firstH1 ??
            (format === "typst" ? typstTitle(text) : undefined) ??
            withoutExtension(body.filename),
          TITLE_MAX,
        ) || body.filename,
      tags: body.tags ?? cleanTags(markdown?.frontmatterTags),
      isPublic: body.isPublic ?? false,
      filename: body.filename,
      format,
    };
    const imageNeed = {
      uploads: rewritten.prepared.length ? 1 : 0,
      images: rewritten.prepared.length,
      imageBytes: rewritten.prepared.reduce((n, p) => n + p.stored, 0),
    };
    const actor: Actor = { userId, limits, history: { enabled: user.docVersioningEnabled, max: user.docVersioningMax }, now: deps.clock.now() };

    return {
      ready: {
        userId,
        place,
        docId,
        next,
        sourceHash,
        inputHash,
        content,
        rewritten,
        imageNeed,
        actor,
        ...(opts.createdAt ? { createdAt: opts.createdAt } : {}),
      },
    };
  } catch (e) {
    await discardPrepared(deps, rewritten.prepared);
    if (content) await removeObjects(deps, [content.objectKey]);
    throw e;
  }
}

/** Removes what prepareDocument stored, for a document that is not inserted. */
async function discardDocument(deps: Deps, p: PreparedDocument): Promise<void> {
  await discardPrepared(deps, p.rewritten.prepared);
  await removeObjects(deps, [p.content.objectKey]);
}

/**
 * Inserts a prepared document (or replaces the content at its KB path) in one transaction
 * that counts it and the images its rewriting stored. A duplicate found under the
 * transaction's lock is returned instead.
 */
async function insertDocument(deps: Deps, p: PreparedDocument): Promise<{ duplicate: DocumentRow } | { row: DocumentRow; created: boolean; freed: string[] }> {
  const { userId, place, docId, next, sourceHash, inputHash, rewritten, imageNeed, actor } = p;
  const createdAt = p.createdAt ?? actor.now;
  const limits = actor.limits;
  const sizeBytes = next.sizeBytes;
  // What a new document counts: itself, its bytes and the images its rewriting stored.
  const newDocumentNeed = { docs: 1, imageBytes: sizeBytes + imageNeed.imageBytes, uploads: imageNeed.uploads, images: imageNeed.images };
  return deps.db.transaction(async (tx) => {
    if (place.kbId === null) {
      // Two identical uploads at once: the second waits here and then finds the first.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`doc:${userId}:${sourceHash}`}))`);
      const dup = (await findDuplicate(tx, userId, place, sourceHash)) ?? (await findDuplicate(tx, userId, place, inputHash));
      if (dup) return { duplicate: dup };
      await reserve(tx, userId, limits, newDocumentNeed, actor.now);
      await insertPrepared(tx, rewritten.prepared, actor.now);
      const [row] = await tx
        .insert(documents)
        .values({ id: docId, ownerId: userId, ...next, createdAt, updatedAt: actor.now })
        .returning(docColumns);
      await documentChanged(tx, row!, "created", actor.now);
      return { row: row!, created: true, freed: [] };
    }
    // In a KB: its row lock orders every change of its documents.
    await lockKb(tx, { userId, id: place.kbId });
    const [existing] = await tx
      .select(docColumns)
      .from(documents)
      .where(and(eq(documents.ownerId, userId), eq(documents.kbId, place.kbId), eq(documents.pathKey, place.pathKey)))
      .for("update");
    if (existing && existing.deletedAt === null) {
      if (isFileRow(existing)) throw pathHoldsFile(existing);
      if (existing.sourceHash === sourceHash || existing.inputHash === inputHash) return { duplicate: existing };
      if (existing.relativePath !== place.relativePath) {
        throw new AppError(
          "CONFLICT",
          "another document in this KB has the same path but for letter case; clients on case-insensitive file systems could keep only one",
          {
            existingId: existing.id,
            existingPath: existing.relativePath,
          },
        );
      }
    }
    if (existing) {
      await insertPrepared(tx, rewritten.prepared, actor.now);
      const changed = await replaceContent(tx, actor, existing, { ...next, relativePath: place.relativePath }, "upload", { extra: imageNeed });
      return { row: changed.row, created: false, freed: changed.freed };
    }
    await reserve(tx, userId, limits, newDocumentNeed, actor.now);
    await insertPrepared(tx, rewritten.prepared, actor.now);
    const stamp = await moveKbCounts(tx, place.kbId, { docs: 1, bytes: sizeBytes }, actor.now);
    const [row] = await tx
      .insert(documents)
      .values({
        id: docId,
        ownerId: userId,
        ...next,
        kbId: place.kbId,
        relativePath: place.relativePath,
        pathKey: place.pathKey,
        createdAt,
        updatedAt: stamp,
      })
      .returning(docColumns);
    await documentChanged(tx, row!, "created", actor.now);
    return { row: row!, created: true, freed: [] };
  });
}

/**
 * An upload at a KB path that holds a file (an attachment): a document replaces a file only
 * through sync v2 (an upsert of kind document at the path), where the file's bytes are let
 * go of under the rules that keep them.
 */
const pathHoldsFile = (existing: DocumentRow) =>
  new AppError("CONFLICT", "the path holds a file (an attachment); replace it with a sync v2 upsert, or choose another path", {
    existingId: existing.id,
    existingPath: existing.relativePath,
    existingKind: "file",
  });

/** The user's plan and usage now. */
async function readUploader(deps: Deps, userId: string): Promise<{ user: User; uploader: Uploader }> {
  const [user, usage] = await Promise.all([requireUser(deps.db, userId), snapshotUsage(deps.db, userId, deps.clock.now())]);
  return { user, uploader: { userId, limits: deps.plans[user.plan], usage } };
}

/** The active document at a KB path, if any (404 for a KB that is not the caller's). */
async function activeAtPath(db: Deps["db"], userId: string, place: Extract<Place, { pathKey: string }>): Promise<DocumentRow | undefined> {
  await getKb(db, { userId, id: place.kbId });
  const [row] = await db
    .select(docColumns)
    .from(documents)
    .where(and(eq(documents.ownerId, userId), eq(documents.kbId, place.kbId), eq(documents.pathKey, place.pathKey), sql`${documents.deletedAt} is null`));
  return row;
}
