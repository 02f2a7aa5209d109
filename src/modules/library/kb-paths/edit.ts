// POST /v1/kbs/:id/edit: an exact find-and-replace in one document of a KB. The text to
// find must occur exactly once: an edit that matches nowhere or in several places would
// change what its author did not mean to, so it is refused and nothing changes. The new
// text is written as a sync v2 upsert whose base is the text the edit was made on (the
// sync service: the KB's lock, revisions, counters, quotas, the compliance check), so a
// write that lands in between is never lost: the edit is made again on the new text, or,
// with the caller's baseHash, refused.
import type { Deps } from "../../../core/deps.ts";
import { AppError, notFound, validationError } from "../../../core/errors.ts";
import { iso } from "../../../infra/clock.ts";
import type { WithCompliance } from "../../compliance/public.ts";
import { readContent, sha256Hex } from "../documents/content.ts";
import { activeAtKbPath } from "../documents/kb-rows.ts";
import { normalizePath, pathProblemText } from "../documents/path.ts";
import { typstWarnings } from "../documents/typst.ts";
import type { DocumentRow } from "../documents/table.ts";
import { getKb } from "../kbs/service.ts";
import { runSync, type SyncOp } from "../sync/service.ts";
import type { EditBody, EditResult } from "./model.ts";

/** Writes that land between the read and the write before the edit gives up (each one is made again on the new text). */
const ATTEMPTS = 3;
/** How many of the places a repeated oldText occurs at are named. */
const LINES_NAMED = 10;

/** Where `needle` starts in `text`, overlapping occurrences included ("aa" is twice in "aaa": either could be meant). */
function occurrences(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) at.push(i);
  return at;
}

const lineOf = (text: string, index: number) => {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
};

function refused(reason: "no_match" | "several_matches" | "stale_base" | "busy", message: string, row: DocumentRow, meta: Record<string, unknown> = {}) {
  return new AppError("CONFLICT", message, { reason, relativePath: row.relativePath, currentHash: row.sourceHash, ...meta });
}

/** The rules newText must keep for the document to stay text (sync/values.ts judges an op's content the same way). */
function checkNewText(text: string) {
  if (text.includes("\u0000")) throw validationError("body.newText", "newText may not contain NUL characters");
  if (!text.isWellFormed()) throw validationError("body.newText", "newText is not well-formed Unicode (it holds a lone surrogate)");
}

export async function editDocument(deps: Deps & WithCompliance, userId: string, kbId: string, body: EditBody): Promise<EditResult> {
  const p = normalizePath(body.path);
  if (!p.ok) throw validationError("body.path", pathProblemText(p.problem));
  checkNewText(body.newText);
  await getKb(deps.db, { userId, id: kbId });
  for (let attempt = 1; ; attempt++) {
    const row = await activeAtKbPath(deps.db, { userId, kbId, pathKey: p.key });
    // A file (an attachment) has no text to edit.
    if (!row || row.format === "file") throw notFound("document");
    if (body.baseHash !== undefined && body.baseHash.toLowerCase() !== row.sourceHash) {
      throw refused(
        "stale_base",
        `${row.relativePath} changed since the version you read (baseHash); read it again and make the edit on its current text`,
        row,
      );
    }
    const text = await readContent(deps, row);
    const found = occurrences(text, body.oldText);
    if (found.length === 0) {
      throw refused(
        "no_match",
        `oldText does not occur in ${row.relativePath}: nothing was changed (it must match letter for letter, line breaks and spaces included)`,
        row,
        {
          count: 0,
        },
      );
    }
    if (found.length > 1) {
      const lines = found.slice(0, LINES_NAMED).map((i) => lineOf(text, i));
      throw refused(
        "several_matches",
        `oldText occurs ${found.length} times in ${row.relativePath} (from lines ${lines.join(", ")}${found.length > LINES_NAMED ? ", ..." : ""}): nothing was changed; include more of the surrounding text so that it occurs once`,
        row,
        { count: found.length, lines },
      );
    }
    const at = found[0]!;
    const content = text.slice(0, at) + body.newText + text.slice(at + body.oldText.length);
    const op: SyncOp = {
      kind: "upsert",
      path: row.relativePath!,
      pathKey: row.pathKey!,
      content,
      sourceHash: sha256Hex(content),
      base: null,
      baseHash: row.sourceHash,
    };
    const [outcome] = (await runSync(deps, userId, kbId, [op])).outcomes;
    if (outcome?.kind === "applied") {
      const doc = outcome.doc;
      const typst = outcome.change === "updated" && doc.format === "typst";
      return {
        id: doc.id,
        relativePath: doc.relativePath!,
        change: outcome.change === "unchanged" ? "unchanged" : "updated",
        sourceHash: doc.sourceHash,
        previousHash: row.sourceHash,
        sizeBytes: doc.sizeBytes,
        updatedAt: iso(doc.updatedAt),
        ...(typst && { warnings: await typstWarnings(deps, content) }),
      };
    }
    if (outcome?.kind === "skipped") {
      // A limit or a check refused the new text: its own code (DOC_FILE_TOO_LARGE,
      // QUOTA_EXCEEDED, COMPLIANCE_BLOCKED, STORAGE_ERROR...); a document deleted meanwhile is gone.
      // (A text's upsert never meets a file's reasons; were one to, it is no document either.)
      const gone = ["ALREADY_DELETED", "NOT_FOUND", "FILE_MISSING", "PATH_HOLDS_FILE"] as const;
      if ((gone as readonly string[]).includes(outcome.reason)) throw notFound("document");
      const code = outcome.reason as Exclude<typeof outcome.reason, (typeof gone)[number]>;
      throw new AppError(code, outcome.message, outcome.meta ?? {});
    }
    // The document changed between the read and the write (the base is stale): again, on its new text.
    if (attempt >= ATTEMPTS) {
      throw refused("busy", `${row.relativePath} kept changing while the edit was made; read it again and retry`, row);
    }
  }
}
