// Full-text search over the caller's active documents (GET /v1/docs/search): ranked, with
// a snippet, a page at a time. The generated `search` vector of each row (table.ts: title,
// path, inline content) and its GIN index do the matching; the query is read as web search
// syntax (websearch_to_tsquery: "quoted phrases", -exclusions, or), never as tsquery
// syntax, so no input is a syntax error. docs/api.md, "Searching documents".
import { and, desc, eq, sql } from "drizzle-orm";
import { decodeCursor, toPage } from "../../../core/cursor.ts";
import { AppError, validationError } from "../../../core/errors.ts";
import { iso } from "../../../infra/clock.ts";
import { type DbOrTx, rowsOf } from "../../../infra/db/index.ts";
import { prepared } from "../../../infra/db/prepared.ts";
import { getKb } from "../kbs/service.ts";
import type { DocSearchHit } from "./model.ts";
import { docFormat, documents, documentsOnly } from "./table.ts";

/**
 * What ts_headline marks the matches with: two private-use characters, taken out of the
 * text first, so a mark is always the headline's and never a character of the document
 * (a French text is full of « and »). They become « and » and the marks' offsets (marked()).
 */
const OPEN = "\uE000";
const CLOSE = "\uE001";
const SENTINELS = sql.raw(`'${OPEN}${CLOSE}'`);
/** ts_headline's options: plain text (the snippet is no HTML), up to two fragments of about 8 to 20 words each. */
const HEADLINE = sql.raw(`'StartSel=${OPEN}, StopSel=${CLOSE}, MaxFragments=2, MinWords=8, MaxWords=20, FragmentDelimiter=" … "'`);

/**
 * The text a snippet is cut from: the document's words as a reader sees them. Its front
 * matter goes, and the marks of Markdown and Typst a note's source shows: heading, quote
 * and list markers (a task's box too) at a line's start, emphasis, highlight and
 * strike-through pairs, wikilink brackets, backticks and comment marks. The title is the
 * text of a document with none inline (its hit is its title or path); it is not put before
 * the text, where a note's first heading would say it again.
 */
const FRONT_MATTER = String.raw`^---\r??\n.*?\n---\r??\n`;
const LINE_MARKS = String.raw`(^|\n)[ \t]*(#{1,6}|=+|>+|[-*+]([ \t]+\[[ xX]\])?|[0-9]+[.)])[ \t]+`;
const INLINE_MARKS = String.raw`\*\*|__|==|~~|!?\[\[|\]\]|\`+|%%`;
/** A pattern as a standard SQL string: the backslashes are the regular expression's. */
const pattern = (re: string) => sql.raw(`'${re}'`);
const SNIPPET_TEXT = (title: unknown, content: unknown) => sql`coalesce(nullif(
  regexp_replace(regexp_replace(regexp_replace(${content}, ${pattern(FRONT_MATTER)}, ''),
    ${pattern(LINE_MARKS)}, ${pattern(String.raw`\1`)}, 'g'), ${pattern(INLINE_MARKS)}, '', 'g'),
  ''), ${title})`;

/**
 * The best matches, then their snippets: the inner query ranks and limits, so ts_headline
 * (which parses the whole text again) runs for the rows answered only. `q` is the parsed
 * query, once per statement. A query of exclusions only (`-draft`) matches no index entry
 * (querytree is 'T'): it would read every row of the owner, so it finds nothing here and
 * is refused below.
 *
 * Pages are keyset pages on (rank, updatedAt, id), all descending: the rank is a float4
 * the cursor carries as the number the driver read, which the database reads back as the
 * same float4 (its text form is the shortest that round-trips), so the row comparison
 * resumes exactly after the last hit.
 */
const statementName = (inKb: boolean, after: boolean) => `documents_search${inKb ? "_kb" : ""}${after ? "_after" : ""}`;
const searchStatement = (inKb: boolean, after: boolean) => (db: DbOrTx) => {
  const rank = sql`ts_rank_cd(${documents.search}, q)`;
  const hits = db
    .select({
      id: documents.id,
      kbId: documents.kbId,
      relativePath: documents.relativePath,
      title: documents.title,
      format: documents.format,
      updatedAt: documents.updatedAt,
      content: documents.content,
      rank: sql<number>`${rank}`.as("rank"),
      query: sql<string>`q`.as("query"),
    })
    .from(documents)
    .crossJoin(sql`websearch_to_tsquery('simple', ${sql.placeholder("q")}) as q`)
    .where(
      and(
        eq(documents.ownerId, sql.placeholder("userId")),
        // The same owner as a key of the search index (table.ts): the index then reads that
        // owner's entries of the words only, not every owner's.
        sql`array[${documents.ownerId}] @> array[${sql.placeholder("userId")}::text]`,
        sql`${documents.deletedAt} is null`,
        documentsOnly,
        sql`${documents.search} @@ q`,
        sql`querytree(q) <> 'T'`,
        inKb ? eq(documents.kbId, sql.placeholder("kbId")) : undefined,
        // A folder of the KB (its case-folded key and a slash; "" for all of it): a published site's search.
        inKb ? sql`(${sql.placeholder("under")}::text = '' or starts_with(${documents.pathKey}, ${sql.placeholder("under")}::text))` : undefined,
        after
          ? sql`(${rank}, ${documents.updatedAt}, ${documents.id}) < (${sql.placeholder("afterRank")}::real, ${sql.placeholder("afterAt")}::timestamptz, ${sql.placeholder("afterId")})`
          : undefined,
      ),
    )
    .orderBy(sql`rank desc`, desc(documents.updatedAt), desc(documents.id))
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
      snippet: sql<string>`ts_headline('simple', translate(${SNIPPET_TEXT(hits.title, hits.content)}, ${SENTINELS}, ''), ${hits.query}, ${HEADLINE})`,
    })
    .from(hits)
    .orderBy(desc(hits.rank), desc(hits.updatedAt), desc(hits.id))
    .prepare(statementName(inKb, after));
};

/**
 * The headline as one line of plain text with each match between « and », and where each
 * match is in it (UTF-16 offsets, the markers left out), so a reader can tell a mark from
 * a « of the document's own.
 */
function marked(headline: string): { snippet: string; marks: { start: number; end: number }[] } {
  // One line: the text's line breaks are nothing to a snippet.
  const line = headline.replace(/\s+/g, " ").trim();
  let snippet = "";
  const marks: { start: number; end: number }[] = [];
  let start = -1;
  for (const ch of line) {
    if (ch === OPEN) {
      snippet += "«";
      start = snippet.length;
    } else if (ch === CLOSE && start >= 0) {
      marks.push({ start, end: snippet.length });
      snippet += "»";
      start = -1;
    } else if (ch !== CLOSE) snippet += ch;
  }
  return { snippet, marks };
}

export interface SearchQuery {
  q: string;
  kbId?: string;
  /** With kbId: only documents below this folder of the KB (a normalized path's key). */
  folderKey?: string;
  cursor?: string;
  limit: number;
}

/**
 * A page of the caller's active documents that match `q`, best first (in the KB `kbId`
 * only, when given: 404 unless it is the caller's); 422 VALIDATION_ERROR when `q` has no
 * word to look for, 400 INVALID_CURSOR for a cursor this search did not make.
 */
export async function searchDocuments(db: DbOrTx, userId: string, query: SearchQuery): Promise<{ items: DocSearchHit[]; nextCursor: string | null }> {
  const q = query.q.trim();
  const inKb = query.kbId !== undefined;
  const after = query.cursor ? searchCursor(query.cursor) : undefined;
  if (inKb) await getKb(db, { userId, id: query.kbId! });
  const rows = await prepared(db, statementName(inKb, after !== undefined), searchStatement(inKb, after !== undefined)).execute({
    userId,
    q,
    limit: query.limit + 1,
    ...(inKb && { kbId: query.kbId, under: query.folderKey ? `${query.folderKey}/` : "" }),
    ...(after && { afterRank: after[0], afterAt: after[1].toISOString(), afterId: after[2] }),
  });
  // Nothing found: say so, unless nothing could have been (asked only then, so a search
  // that finds something costs one statement).
  if (!rows.length && !(await searchable(db, q))) {
    throw validationError("query.q", "q must contain a word to look for (not only punctuation, and not only -exclusions)");
  }
  return toPage(
    rows,
    query.limit,
    (r) => [r.rank, r.updatedAt.toISOString(), r.id],
    (r) => ({
      id: r.id,
      kbId: r.kbId,
      relativePath: r.relativePath,
      title: r.title,
      format: docFormat(r),
      updatedAt: iso(r.updatedAt),
      rank: r.rank,
      ...marked(r.snippet),
    }),
  );
}

/** The smallest normal float4: a rank is 0 or at least this (the database refuses to read a smaller one back). */
const FLOAT4_MIN = 1.1754943508222875e-38;

/** A cursor this search made: its rank one the database reads as the same float4, else 400 INVALID_CURSOR. */
function searchCursor(cursor: string) {
  const parts = decodeCursor(cursor, ["n", "d", "s"] as const);
  const rank = Math.fround(parts[0]);
  const readable = parts[0] === 0 || (rank >= FLOAT4_MIN && Number.isFinite(rank));
  if (!readable) throw new AppError("INVALID_CURSOR", "cursor is not valid", {});
  return parts;
}

/** Whether `q` names a word a document must contain (an empty query, or one of exclusions only, does not). */
async function searchable(db: DbOrTx, q: string): Promise<boolean> {
  const [row] = rowsOf<{ tree: string }>(await db.execute(sql`select querytree(websearch_to_tsquery('simple', ${q})) as tree`));
  return row !== undefined && row.tree !== "" && row.tree !== "T";
}
