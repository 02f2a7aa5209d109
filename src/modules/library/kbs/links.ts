// Backlinks: the notes of a KB that link to one of its paths, by a wikilink or embed
// (front matter's included) or a relative Markdown link or image, resolved by the rules of
// note-links.ts (the ones the dashboard draws links by).
//
// For now this reads every Markdown note of the KB on each request, and parses those that
// hold the target's name: simple and always current, and fast enough for KBs of a few
// thousand notes. A link index kept as notes are written is the later step when KBs grow
// past that.
import { and, eq, sql } from "drizzle-orm";
import type MarkdownIt from "markdown-it";
import type { PluginSimple } from "markdown-it";
import type { Deps } from "../../../core/deps.ts";
import { notFound, validationError } from "../../../core/errors.ts";
import { readContent } from "../documents/content.ts";
import { normalizePath, pathProblemText } from "../documents/path.ts";
import { documents } from "../documents/table.ts";
import { LinkIndex, relativeHref, noteSyntax, type NoteTarget, targetsOf } from "./note-links.ts";
import { getKb } from "./service.ts";

export interface Backlink {
  relativePath: string;
  title: string;
}

// markdown-it loads at the first backlinks read, not at start (as the documents' parser
// does: an api node that never reads Markdown does not hold it).
let parser: MarkdownIt | undefined;
function notes(): MarkdownIt {
  if (parser) return parser;
  const Md = require("markdown-it") as typeof import("markdown-it").default;
  // Footnotes' definitions are notes' text too: without the plugin "[^1]: ..." is a link reference.
  const footnote = require("markdown-it-footnote") as PluginSimple;
  parser = new Md({ html: false, linkify: false }).use(noteSyntax).use(footnote);
  return parser;
}

/** Notes read at once while scanning (most are inline in their rows; large ones are objects). */
const READ_AT_ONCE = 8;

/** Letter case folded as paths are (documents/path.ts), for the cheap look below. */
const fold = (s: string) => s.normalize("NFC").toUpperCase().toLowerCase();

/** A text with its percent-escapes decoded where they decode (a Markdown link's `My%20Note.md`). */
const unescaped = (text: string) =>
  text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });

/**
 * Whether a note may link to a path at all: it holds the path's file name (without a
 * document's extension) somewhere, as written or percent-encoded, whatever its letter
 * case. A note that does not is not parsed, which leaves most of a KB unparsed.
 */
function mayName(text: string, path: string): boolean {
  const name = fold(path.slice(path.lastIndexOf("/") + 1).replace(/\.(md|markdown|typ)$/i, ""));
  return fold(text).includes(name) || (text.includes("%") && fold(unescaped(text)).includes(name));
}

/** Whether `target` of the note at `from` names `path`. */
function names(index: LinkIndex, from: string, target: NoteTarget, path: string): boolean {
  if ("wikilink" in target) return !!target.wikilink.target && index.resolve(target.wikilink.target, from) === path;
  const place = relativeHref(target.href);
  return !!place?.path && index.resolve(place.path, from, true) === path;
}

/** The KB's notes that link to the active document at `path`, by path. 404 for no such KB or document; 422 for a path that breaks a path rule. */
export async function backlinks(deps: Deps, userId: string, kbId: string, path: string): Promise<{ items: Backlink[] }> {
  const p = normalizePath(path);
  if (!p.ok) throw validationError("query.path", pathProblemText(p.problem));
  await getKb(deps.db, { userId, id: kbId });
  const rows = await deps.db
    .select({
      relativePath: documents.relativePath,
      pathKey: documents.pathKey,
      title: documents.title,
      format: documents.format,
      content: documents.content,
      objectKey: documents.objectKey,
    })
    .from(documents)
    .where(and(eq(documents.ownerId, userId), eq(documents.kbId, kbId), sql`${documents.deletedAt} is null`));
  const target = rows.find((r) => r.pathKey === p.key);
  if (!target) throw notFound("document");
  const index = new LinkIndex(rows.map((r) => r.relativePath!));
  const candidates = rows.filter((r) => r.format === "markdown" && r !== target);
  const items: Backlink[] = [];
  for (let i = 0; i < candidates.length; i += READ_AT_ONCE) {
    const batch = candidates.slice(i, i + READ_AT_ONCE);
    const texts = await Promise.all(batch.map((r) => readContent(deps, r)));
    batch.forEach((row, j) => {
      const from = row.relativePath!;
      const text = texts[j]!;
      if (!mayName(text, target.relativePath!)) return;
      const tokens = notes().parse(text, {});
      if (targetsOf(tokens).some((t) => names(index, from, t, target.relativePath!))) items.push({ relativePath: from, title: row.title });
    });
  }
  items.sort((a, b) => a.relativePath.localeCompare(b.relativePath));
  return { items };
}
