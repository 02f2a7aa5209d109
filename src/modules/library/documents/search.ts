// Full-text search over the caller's active documents (GET /v1/docs/search): ranked, with
// a snippet. The generated `search` vector of each row (table.ts: title, path, inline
// content) and its GIN index do the matching; the query is read as web search syntax
// (websearch_to_tsquery: "quoted phrases", -exclusions, or), never as tsquery syntax, so
// no input is a syntax error. docs/api.md, "Searching documents".
import { and, desc, eq, sql } from "drizzle-orm";
import { validationError } from "../../../core/errors.ts";
import { iso } from "../../../infra/clock.ts";
import { type DbOrTx, rowsOf } from "../../../infra/db/index.ts";
import { prepared } from "../../../infra/db/prepared.ts";
import { getKb } from "../kbs/service.ts";
import type { DocSearchHit } from "./model.ts";
import { documents } from "./table.ts";

/**
 * ts_headline's options: the matches between « and » (plain text: the snippet is no HTML),
 * up to two fragments of about 8 to 20 words each.
 */
const HEADLINE = sql.raw(`'StartSel=«, StopSel=», MaxFragments=2, MinWords=8, MaxWords=20, FragmentDelimiter=" … "'`);

/**
 * The best matches, then their snippets: the inner query ranks and limits, so ts_headline
 * (which parses the whole text again) runs for the rows answered only. `q` is the parsed
 * query, once per statement. A query of exclusions only (`-draft`) matches no index entry
 * (querytree is 'T'): it would read every row of the owner, so it finds nothing here and
 * is refused below.
 */
const searchStatement = (inKb: boolean) => (db: DbOrTx) => {
  const hits = db
    .select({
      id: documents.id,
      kbId: documents.kbId,
      relativePath: documents.relativePath,
      title: documents.title,
      format: documents.format,
      updatedAt: documents.updatedAt,
      content: documents.content,
      rank: sql<number>`ts_rank_cd(${documents.search}, q)`.as("rank"),
      query: sql<string>`q`.as("query"),
    })
    .from(documents)
    .crossJoin(sql`websearch_to_tsquery('simple', ${sql.placeholder("q")}) as q`)
    .where(
      and(
        eq(documents.ownerId, sql.placeholder("userId")),
        sql`${documents.deletedAt} is null`,
        sql`${documents.search} @@ q`,
        sql`querytree(q) <> 'T'`,
        inKb ? eq(documents.kbId, sql.placeholder("kbId")) : undefined,
      ),
    )
    .orderBy(sql`rank desc`, desc(documents.updatedAt), documents.id)
    .limit(sql.placeholder("limit"))
    .as("hits");
  return db
    .select({
      id: hits.id,
      kbId: hits.kbId,
      relativePath: hits.relativePath,
      title: hits.title,
      format: hits.format,
      updatedAt: hits.updatedAt,
      rank: hits.rank,
      snippet: sql<string>`ts_headline('simple', ${hits.title} || E'\n\n' || coalesce(${hits.content}, ''), ${hits.query}, ${HEADLINE})`,
    })
    .from(hits)
    .orderBy(desc(hits.rank), desc(hits.updatedAt), hits.id)
    .prepare(inKb ? "documents_search_kb" : "documents_search");
};

export interface SearchQuery {
  q: string;
  kbId?: string;
  limit: number;
}

/**
 * The caller's active documents that match `q`, best first (in the KB `kbId` only, when
 * given: 404 unless it is the caller's); 422 VALIDATION_ERROR when `q` has no word to look for.
 */
export async function searchDocuments(db: DbOrTx, userId: string, query: SearchQuery): Promise<{ items: DocSearchHit[] }> {
  const q = query.q.trim();
  const inKb = query.kbId !== undefined;
  if (inKb) await getKb(db, { userId, id: query.kbId! });
  const name = inKb ? "documents_search_kb" : "documents_search";
  const rows = await prepared(db, name, searchStatement(inKb)).execute({ userId, q, limit: query.limit, ...(inKb && { kbId: query.kbId }) });
  // Nothing found: say so, unless nothing could have been (asked only then, so a search
  // that finds something costs one statement).
  if (!rows.length && !(await searchable(db, q))) {
    throw validationError("query.q", "q must contain a word to look for (not only punctuation, and not only -exclusions)");
  }
  return {
    items: rows.map((r) => ({
      id: r.id,
      kbId: r.kbId,
      relativePath: r.relativePath,
      title: r.title,
      format: r.format,
      updatedAt: iso(r.updatedAt),
      rank: r.rank,
      // One line: the text's line breaks are nothing to a snippet.
      snippet: r.snippet.replace(/\s+/g, " ").trim(),
    })),
  };
}

/** Whether `q` names a word a document must contain (an empty query, or one of exclusions only, does not). */
async function searchable(db: DbOrTx, q: string): Promise<boolean> {
  const [row] = rowsOf<{ tree: string }>(await db.execute(sql`select querytree(websearch_to_tsquery('simple', ${q})) as tree`));
  return row !== undefined && row.tree !== "" && row.tree !== "T";
}
