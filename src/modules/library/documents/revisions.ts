// Version history: a document's previous contents, newest first; one
// read back; a restore (which first keeps the current content as a revision); and the
// user's clear-all, 200 at a time.
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Deps } from "../../../core/deps.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { iso } from "../../../infra/clock.ts";
import { requireUser, planActive } from "../../identity/public.ts";
import { lockKb } from "../kbs/service.ts";
import { release } from "../../usage/public.ts";
import { readContent, removeObjects, storeContent } from "./content.ts";
import { countWords, readMarkdown } from "./markdown.ts";
import type { Revision } from "./model.ts";
import { lockDocument, replaceContent } from "./row-changes.ts";
import { getDocument } from "./service.ts";
import { docRevisions, type RevisionRow } from "./table.ts";

const CLEAR_BATCH = 200;

const toRevision = (r: RevisionRow): Revision => ({
  id: r.id,
  revNumber: r.revNumber,
  sizeBytes: r.sizeBytes,
  origin: r.origin,
  sourceHash: r.sourceHash,
  createdAt: iso(r.createdAt),
});

/** The revisions of the caller's document, newest first, and their bytes (works on an expired plan). */
export async function listRevisions(deps: Deps, userId: string, docId: string) {
  await getDocument(deps.db, { userId, id: docId });
  const rows = await deps.db
    .select()
    .from(docRevisions)
    .where(and(eq(docRevisions.docId, docId), eq(docRevisions.ownerId, userId)))
    .orderBy(desc(docRevisions.revNumber));
  return { revisions: rows.map(toRevision), totalBytes: rows.reduce((n, r) => n + r.sizeBytes, 0) };
}

async function getRevision(deps: Deps, userId: string, docId: string, revId: string): Promise<RevisionRow> {
  await getDocument(deps.db, { userId, id: docId });
  const [row] = await deps.db
    .select()
    .from(docRevisions)
    .where(and(eq(docRevisions.id, revId), eq(docRevisions.docId, docId), eq(docRevisions.ownerId, userId)));
  if (!row) throw new AppError("DOC_REVISION_NOT_FOUND", "revision not found", { entity: "revision" });
  return row;
}

export async function readRevision(deps: Deps, userId: string, docId: string, revId: string) {
  const row = await getRevision(deps, userId, docId, revId);
  return { ...toRevision(row), content: await readContent(deps, row) };
}

/**
 * Puts a revision's content back (403 PLAN_INACTIVE without an active plan). The current
 * content is kept as a revision first, whether history is on or not: a restore must never
 * lose what it replaces. Equal content: `duplicate`, nothing changes.
 */
export async function restoreRevision(deps: Deps, userId: string, docId: string, revId: string) {
  const user = await requireUser(deps.db, userId);
  if (!planActive(user, deps.clock.now())) throw new AppError("PLAN_INACTIVE", "restoring a revision needs an active plan", { plan: user.plan });
  const rev = await getRevision(deps, userId, docId, revId);
  const current = await getDocument(deps.db, { userId, id: docId });
  if (current.sourceHash === rev.sourceHash) return { row: current, duplicate: true as const, saved: null };

  const text = await readContent(deps, rev);
  const stored = await storeContent(deps, userId, docId, text, rev.sizeBytes);
  const markdown = current.format === "markdown" ? readMarkdown(text) : null;
  const now = deps.clock.now();
  const limits = deps.plans[user.plan];
  try {
    const out = await deps.db.transaction(async (tx) => {
      if (current.kbId) await lockKb(tx, { userId, id: current.kbId });
      const doc = await lockDocument(tx, userId, docId);
      if (!doc || doc.deletedAt) throw notFound("document");
      if (doc.sourceHash === rev.sourceHash) return { row: doc, duplicate: true as const, saved: null, freed: [] as string[] };
      const changed = await replaceContent(
        tx,
        { userId, limits, history: { enabled: true, max: user.docVersioningMax }, now },
        doc,
        {
          ...stored,
          sourceHash: rev.sourceHash,
          inputHash: rev.sourceHash,
          sizeBytes: rev.sizeBytes,
          wordCount: markdown ? markdown.wordCount : countWords(text),
          imageCount: markdown ? markdown.images.length : 0,
          rewrittenCount: doc.rewrittenCount,
          excerpt: markdown?.excerpt ?? "",
          coverUrl: markdown?.images.find((i) => i.url && !i.url.toLowerCase().startsWith("data:"))?.url ?? null,
          title: doc.title,
          tags: doc.tags,
          isPublic: doc.isPublic,
          filename: doc.filename,
          format: doc.format,
        },
        "restore",
        { alwaysKeep: true },
      );
      return { row: changed.row, duplicate: false as const, saved: changed.revision, freed: changed.freed };
    });
    if (out.duplicate) await removeObjects(deps, [stored.objectKey]);
    await removeObjects(deps, out.freed);
    return out;
  } catch (e) {
    await removeObjects(deps, [stored.objectKey]);
    throw e;
  }
}

/** Deletes the caller's oldest revisions, at most CLEAR_BATCH a call (allowed whatever the plan). */
export async function clearRevisions(deps: Deps, userId: string) {
  const { gone, hasMore } = await deps.db.transaction(async (tx) => {
    const batch = tx
      .select({ id: docRevisions.id })
      .from(docRevisions)
      .where(eq(docRevisions.ownerId, userId))
      .orderBy(asc(docRevisions.createdAt), asc(docRevisions.id))
      .limit(CLEAR_BATCH + 1);
    const ids = (await batch).map((r) => r.id);
    const take = ids.slice(0, CLEAR_BATCH);
    if (!take.length) return { gone: [], hasMore: false };
    const gone = await tx
      .delete(docRevisions)
      .where(and(eq(docRevisions.ownerId, userId), sql`${docRevisions.id} in ${take}`))
      .returning({ sizeBytes: docRevisions.sizeBytes, objectKey: docRevisions.objectKey });
    if (gone.length) await release(tx, userId, { revisions: gone.length, revisionBytes: gone.reduce((n, r) => n + r.sizeBytes, 0) });
    return { gone, hasMore: ids.length > CLEAR_BATCH };
  });
  await removeObjects(
    deps,
    gone.map((r) => r.objectKey),
  );
  return { deleted: gone.length, freedBytes: gone.reduce((n, r) => n + r.sizeBytes, 0), hasMore };
}
