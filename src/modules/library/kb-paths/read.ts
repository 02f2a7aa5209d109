// POST /v1/kbs/:id/read { paths }: the text of several documents of one KB by path, in the
// order asked, each read or failed on its own (as POST /v1/docs/raw:batch does by id): an
// agent reading a folder's notes asks once, and one bad path does not cost it the others.
import { and, eq, sql } from "drizzle-orm";
import type { Deps } from "../../../core/deps.ts";
import { AppError } from "../../../core/errors.ts";
import { iso } from "../../../infra/clock.ts";
import type { DbOrTx } from "../../../infra/db/index.ts";
import { prepared } from "../../../infra/db/prepared.ts";
import { readContent } from "../documents/content.ts";
import { normalizePath, pathProblemText } from "../documents/path.ts";
import { docColumns, documents } from "../documents/table.ts";
import { getKb } from "../kbs/service.ts";
import type { ReadResult } from "./model.ts";

/** The active documents of a KB at some path keys, a prepared statement (the MCP read_document reads through it). */
const activeAtKeys = (db: DbOrTx) =>
  db
    .select(docColumns)
    .from(documents)
    .where(
      and(
        eq(documents.ownerId, sql.placeholder("userId")),
        eq(documents.kbId, sql.placeholder("kbId")),
        sql`${documents.pathKey} = any(${sql.placeholder("keys")}::text[])`,
        sql`${documents.deletedAt} is null`,
      ),
    )
    .prepare("kb_docs_at_path_keys");

type Failed = ReadResult["failed"][number];
type Read = ReadResult["docs"][number];

export async function readPaths(deps: Deps, userId: string, kbId: string, paths: readonly string[]): Promise<ReadResult> {
  await getKb(deps.db, { userId, id: kbId });
  const asked = paths.map((path) => ({ path, normalized: normalizePath(path) }));
  const keys = [...new Set(asked.flatMap((a) => (a.normalized.ok ? [a.normalized.key] : [])))];
  const rows = keys.length ? await prepared(deps.db, "kb_docs_at_path_keys", activeAtKeys).execute({ userId, kbId, keys }) : [];
  const byKey = new Map(rows.map((r) => [r.pathKey!, r]));
  const answers = await Promise.all(
    asked.map(async ({ path, normalized }): Promise<Read | Failed> => {
      if (!normalized.ok) return { path, reason: "VALIDATION_ERROR", message: pathProblemText(normalized.problem) };
      const row = byKey.get(normalized.key);
      if (!row) return { path, reason: "NOT_FOUND", message: "no document at this path" };
      // A file's bytes are no text to read here: raw by path answers them.
      if (row.format === "file")
        return { path, reason: "NOT_FOUND", message: "the path holds a file, not a document: GET /v1/kbs/{id}/raw?path= answers its bytes" };
      try {
        const content = await readContent(deps, row);
        return {
          path,
          relativePath: row.relativePath!,
          id: row.id,
          title: row.title,
          format: row.format,
          content,
          sourceHash: row.sourceHash,
          updatedAt: iso(row.updatedAt),
        };
      } catch (e) {
        if (e instanceof AppError) return { path, reason: "CONTENT_FETCH_FAILED", message: e.message };
        throw e;
      }
    }),
  );
  return {
    docs: answers.filter((a): a is Read => "content" in a),
    failed: answers.filter((a): a is Failed => "reason" in a),
  };
}
