// What a share link of a KB folder (shares/) or a published site (publish/) opens below it:
// one of its documents or files by id, for the KB's owner, only when it sits in that folder
// (any depth); a file's bytes as the API serves them (its own type, ranges, the headers that
// keep it from running); and, for a site's navigation and links, every entry of the folder.
import { and, eq, sql } from "drizzle-orm";
import type { Deps } from "../../../core/deps.ts";
import { AppError } from "../../../core/errors.ts";
import { readContent } from "../documents/content.ts";
import { normalizePath } from "../documents/path.ts";
import { docColumns, documents } from "../documents/table.ts";
import { heldBlob } from "../files/blobs.ts";
import { askedOf, serveBlob } from "../files/serve.ts";
import { getKb } from "./service.ts";

export type KbEntryInFolder =
  | { kind: "document"; title: string; format: "markdown" | "typst"; text: string }
  | { kind: "file"; serve: (request: Request) => Promise<Response> };

/** The active document or file `id` of the owner's KB under `folder` ("" is the whole KB); null otherwise. */
export async function kbEntryInFolder(deps: Deps, ownerId: string, kbId: string, folder: string, id: string): Promise<KbEntryInFolder | null> {
  const [row] = await deps.db
    .select(docColumns)
    .from(documents)
    .where(and(eq(documents.id, id), eq(documents.ownerId, ownerId), eq(documents.kbId, kbId), sql`${documents.deletedAt} is null`));
  if (!row?.pathKey) return null;
  if (folder) {
    const f = normalizePath(folder);
    if (!f.ok || !row.pathKey.startsWith(`${f.key}/`)) return null;
  }
  if (row.format === "file") {
    return {
      kind: "file",
      serve: async (request) => {
        const blob = await heldBlob(deps.db, ownerId, row.sourceHash);
        if (!blob) throw new AppError("STORAGE_ERROR", "the file's bytes are missing", { sourceHash: row.sourceHash });
        return serveBlob(deps, blob, row.filename, askedOf(request));
      },
    };
  }
  return { kind: "document", title: row.title, format: row.format, text: await readContent(deps, row) };
}

/** One active document or file of a folder, by its path in the KB. */
export interface KbFolderEntry {
  id: string;
  path: string;
  title: string;
  format: "markdown" | "typst" | "file";
}

/** At most this many entries of a folder are read for a published site's pages (its navigation, its links). */
const FOLDER_ENTRIES_MAX = 5000;

/**
 * Every active document and file of the owner's KB under `folder` ("" is the whole KB), by
 * path, read now (what a sync pushed is there at once); null when the KB is not the
 * owner's, is in the trash, or the folder path breaks a path rule.
 */
export async function kbFolderEntries(deps: Deps, ownerId: string, kbId: string, folder: string): Promise<{ kbName: string; entries: KbFolderEntry[] } | null> {
  const kb = await getKb(deps.db, { userId: ownerId, id: kbId }).catch((e: unknown) => {
    if (e instanceof AppError && e.code === "NOT_FOUND") return null;
    throw e;
  });
  if (!kb) return null;
  let key = "";
  if (folder) {
    const f = normalizePath(folder);
    if (!f.ok) return null;
    key = f.key;
  }
  const rows = await deps.db
    .select({ id: documents.id, path: documents.relativePath, title: documents.title, format: documents.format })
    .from(documents)
    .where(
      and(
        eq(documents.ownerId, ownerId),
        eq(documents.kbId, kbId),
        sql`${documents.deletedAt} is null`,
        key ? sql`starts_with(${documents.pathKey}, ${`${key}/`})` : undefined,
      ),
    )
    .orderBy(documents.relativePath)
    .limit(FOLDER_ENTRIES_MAX);
  return { kbName: kb.name, entries: rows.filter((r) => r.path !== null).map((r) => ({ ...r, path: r.path! })) };
}
