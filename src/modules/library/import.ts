// What an account import (the migration module) makes of the library, through the same
// rules as the API: a KB by the rules of POST /v1/kbs, a document by those of POST /v1/docs
// (a KB path's earlier texts replayed in order make its history, as the account's version
// settings keep it), a KB file as PUT /v1/kbs/:id/files and a sync upsert of kind file.
// Each keeps its id where the caller found it free.
import { and, eq, inArray } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { AppError } from "../../core/errors.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import type { ImageDeps } from "../images/public.ts";
import { createDocument } from "./documents/create.ts";
import { normalizePath, pathProblemText } from "./documents/path.ts";
import { activeAtKbPath } from "./documents/kb-rows.ts";
import { documents } from "./documents/table.ts";
import { precheckFile, storeFile } from "./files/upload.ts";
import { createKbChecked } from "./kbs/manage.ts";
import { kbs } from "./kbs/table.ts";
import { runSync } from "./sync/service.ts";

export interface ImportedKb {
  id: string;
  /** Found in the account (by its id or its slug): a re-run, or a KB of that name already there. */
  existing: boolean;
}

/**
 * The account's KB for an imported one: the same id if the account holds it, else the
 * account's KB of the same slug, else a new one (its own id when no one holds it). It is
 * the account's default only when the account has none.
 */
export async function importKb(
  deps: Deps,
  userId: string,
  kb: { id: string; name: string; slug: string; description: string | null; isDefault: boolean },
): Promise<ImportedKb> {
  const [byId] = await deps.db.select({ ownerId: kbs.ownerId }).from(kbs).where(eq(kbs.id, kb.id));
  if (byId?.ownerId === userId) return { id: kb.id, existing: true };
  const [bySlug] = await deps.db
    .select({ id: kbs.id })
    .from(kbs)
    .where(and(eq(kbs.ownerId, userId), eq(kbs.slug, kb.slug)));
  if (bySlug) return { id: bySlug.id, existing: true };
  const [hasDefault] = await deps.db
    .select({ id: kbs.id })
    .from(kbs)
    .where(and(eq(kbs.ownerId, userId), eq(kbs.isDefault, true)));
  const row = await createKbChecked(
    deps,
    userId,
    { name: kb.name, slug: kb.slug, ...(kb.description ? { description: kb.description } : {}), isDefault: kb.isDefault && !hasDefault },
    byId ? {} : { id: kb.id },
  );
  return { id: row.id, existing: false };
}

export interface ImportDocument {
  /** Its id where free; a new one otherwise. */
  id?: string;
  filename: string;
  content: string;
  title?: string;
  tags: string[];
  isPublic: boolean;
  kb?: { id: string; path: string };
  /** Its own creation time, kept when it is made (not when it replaces a text at its KB path). */
  createdAt?: Date;
}

/** A document made as POST /v1/docs makes it; `created`: a new one (not a new text at its KB path), `duplicate`: the text was there already. */
export async function importDocument(deps: ImageDeps, userId: string, d: ImportDocument): Promise<{ id: string; created: boolean; duplicate: boolean }> {
  const { status, result } = await createDocument(
    deps,
    userId,
    {
      filename: d.filename,
      content: d.content,
      tags: d.tags,
      isPublic: d.isPublic,
      ...(d.title?.trim() ? { title: d.title.slice(0, 255) } : {}),
      ...(d.kb ? { kbId: d.kb.id, relativePath: d.kb.path } : {}),
    },
    { ...(d.id ? { id: d.id } : {}), ...(d.createdAt ? { createdAt: d.createdAt } : {}) },
  );
  return { id: result.id, created: status === 201, duplicate: result.duplicate };
}

/**
 * A KB file at `path`: its bytes stored as a PUT stores them (or the account's blob of the
 * same hash), then linked at the path by a sync upsert of kind file. Its document's id.
 */
export async function importKbFile(
  deps: ImageDeps,
  userId: string,
  kbId: string,
  path: string,
  file: { stream: ReadableStream<Uint8Array>; size: number; sha256: string; name: string },
): Promise<{ id: string; duplicate: boolean }> {
  const p = normalizePath(path);
  if (!p.ok) throw new AppError("VALIDATION_ERROR", pathProblemText(p.problem), { path });
  const pre = await precheckFile(deps, { userId, kbId, sha256: file.sha256, declaredLength: file.size });
  if ("uploader" in pre) {
    await storeFile(
      deps,
      pre.uploader,
      { sha256: file.sha256, name: file.name },
      { body: file.stream, contentType: "application/octet-stream", declaredLength: file.size, signal: new AbortController().signal },
    );
  } else {
    await file.stream.cancel().catch(() => {});
  }
  const { outcomes } = await runSync(deps, userId, kbId, [
    { kind: "upsert", path: p.path, pathKey: p.key, content: null, sourceHash: file.sha256, base: null, overwrite: true },
  ]);
  const out = outcomes[0];
  if (out?.kind !== "applied") {
    const why = out?.kind === "skipped" ? out.message : `the file could not be linked at ${p.path}`;
    throw new AppError("CONFLICT", why, { path: p.path });
  }
  return { id: out.doc.id, duplicate: out.change === "unchanged" };
}

/** What a KB's path holds now (an active document or file): its id and hash; undefined for a free path. */
export async function kbPathHolder(db: DbOrTx, userId: string, kbId: string, path: string): Promise<{ id: string; sha256: string | null } | undefined> {
  const p = normalizePath(path);
  if (!p.ok) return undefined;
  const row = await activeAtKbPath(db, { userId, kbId, pathKey: p.key });
  return row && { id: row.id, sha256: row.sourceHash };
}

/** Who holds each of these document ids, and its text's hash: what an import asks before it keeps a document's id. */
export async function documentIdOwners(db: DbOrTx, ids: readonly string[]): Promise<Map<string, { ownerId: string; sha256: string | null; active: boolean }>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: documents.id, ownerId: documents.ownerId, sha256: documents.sourceHash, deletedAt: documents.deletedAt })
    .from(documents)
    .where(inArray(documents.id, [...ids]));
  return new Map(rows.map((r) => [r.id, { ownerId: r.ownerId, sha256: r.sha256, active: r.deletedAt === null }]));
}
