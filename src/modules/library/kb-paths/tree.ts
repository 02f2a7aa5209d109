// GET /v1/kbs/:id/tree?prefix=: one folder of a KB, its subfolders and documents, a page at
// a time by name. Folders exist only through the documents under them (a KB stores paths,
// not folders), so a folder is a group of the KB's active rows by the path segment after
// the prefix; a folder with nothing under it is no folder (404).
import { and, count, eq, max, min, sql, sum } from "drizzle-orm";
import { decodeCursor, toPage } from "../../../core/cursor.ts";
import type { Deps } from "../../../core/deps.ts";
import { notFound, validationError } from "../../../core/errors.ts";
import { iso } from "../../../infra/clock.ts";
import { normalizePath, pathProblemText } from "../documents/path.ts";
import { docFormat, documents } from "../documents/table.ts";
import { getKb } from "../kbs/service.ts";
import type { TreeItem } from "./model.ts";

/** The folder a prefix names, normalized ("" for the top level), and its case-folded key. */
function folderOf(prefix: string | undefined): { path: string; key: string } {
  const trimmed = (prefix ?? "").replace(/\/+$/, "");
  if (trimmed === "") return { path: "", key: "" };
  const p = normalizePath(trimmed);
  if (!p.ok) throw validationError("query.prefix", pathProblemText(p.problem));
  return { path: p.path, key: p.key };
}

const segments = (path: string) => (path === "" ? 0 : path.split("/").length);

export async function listFolder(deps: Deps, userId: string, kbId: string, q: { prefix?: string; cursor?: string; limit: number }) {
  const folder = folderOf(q.prefix);
  const after = q.cursor ? decodeCursor(q.cursor, ["s", "n"] as const) : undefined;
  await getKb(deps.db, { userId, id: kbId });
  // The child's segment is the one after the folder's: the folder's own segments are
  // counted, never its characters, as a case-folded key may be longer than the path.
  const at = segments(folder.path) + 1;
  const children = deps.db
    .select({
      key: sql<string>`split_part(${documents.pathKey}, '/', ${at}::int)`.as("key"),
      folder: sql<boolean>`(array_length(string_to_array(${documents.pathKey}, '/'), 1) > ${at}::int)`.as("folder"),
      name: sql<string>`split_part(${documents.relativePath}, '/', ${at}::int)`.as("name"),
      path: sql<string>`array_to_string((string_to_array(${documents.relativePath}, '/'))[1:${at}::int], '/')`.as("path"),
      id: documents.id,
      format: documents.format,
      sourceHash: documents.sourceHash,
      sizeBytes: documents.sizeBytes,
      updatedAt: documents.updatedAt,
    })
    .from(documents)
    .where(
      and(
        eq(documents.ownerId, userId),
        eq(documents.kbId, kbId),
        sql`${documents.deletedAt} is null`,
        folder.key ? sql`starts_with(${documents.pathKey}, ${`${folder.key}/`})` : undefined,
      ),
    )
    .as("children");
  const rows = await deps.db
    .select({
      key: children.key,
      folder: children.folder,
      name: min(children.name),
      path: min(children.path),
      docCount: count(sql`case when ${children.format} <> 'file' then 1 end`),
      fileCount: count(sql`case when ${children.format} = 'file' then 1 end`),
      sizeBytes: sum(children.sizeBytes).mapWith(Number),
      updatedAt: max(children.updatedAt),
      // A document's group is its one row (a path is unique in a KB): these are its values.
      id: max(children.id),
      format: max(children.format),
      sourceHash: max(children.sourceHash),
    })
    .from(children)
    .where(after ? sql`(${children.key}, ${children.folder}) > (${after[0]}, ${after[1] === 1})` : undefined)
    .groupBy(children.key, children.folder)
    .orderBy(children.key, children.folder)
    .limit(q.limit + 1);
  if (!rows.length && !after && folder.path) throw notFound("folder");
  const page = toPage(
    rows,
    q.limit,
    (r) => [r.key, r.folder ? 1 : 0],
    (r): TreeItem =>
      r.folder
        ? {
            kind: "folder",
            name: r.name!,
            path: r.path!,
            docCount: r.docCount,
            fileCount: r.fileCount,
            sizeBytes: r.sizeBytes,
            updatedAt: iso(r.updatedAt!),
          }
        : r.format === "file"
          ? { kind: "file", name: r.name!, path: r.path!, id: r.id!, sizeBytes: r.sizeBytes, sourceHash: r.sourceHash!, updatedAt: iso(r.updatedAt!) }
          : {
              kind: "document",
              name: r.name!,
              path: r.path!,
              id: r.id!,
              format: docFormat({ format: r.format! }),
              sizeBytes: r.sizeBytes,
              sourceHash: r.sourceHash!,
              updatedAt: iso(r.updatedAt!),
            },
  );
  return { prefix: folder.path, ...page };
}
