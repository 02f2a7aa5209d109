// Callouts as Obsidian writes them: a blockquote whose first line is `[!type]`, with an
// optional title after it and `-` or `+` to make it foldable (closed or open). Written
// here rather than taken from a package: the one for Obsidian's syntax writes the callout's
// type into an attribute unescaped, and the well-kept GitHub-alerts one reads neither a
// title nor folding. The type becomes a class only if it is a plain word; the title is
// Markdown, parsed by markdown-it's inline rules like any other text (so it is escaped
// the same way). Unknown types look like a note, as in Obsidian.
import type MarkdownIt from "markdown-it";
import type StateCore from "markdown-it/lib/rules_core/state_core.mjs";

/** Each type Obsidian knows (and its aliases), by the look it shares. */
const LOOKS: Record<string, string> = {
  note: "note",
  info: "note",
  todo: "note",
  abstract: "abstract",
  summary: "abstract",
  tldr: "abstract",
  tip: "tip",
  hint: "tip",
  important: "tip",
  success: "success",
  check: "success",
  done: "success",
  question: "question",
  help: "question",
  faq: "question",
  warning: "warning",
  caution: "warning",
  attention: "warning",
  failure: "danger",
  fail: "danger",
  missing: "danger",
  danger: "danger",
  error: "danger",
  bug: "danger",
  example: "example",
  quote: "quote",
  cite: "quote",
};

const FIRST_LINE = /^\[!([A-Za-z][\w-]*)\]([+-]?)[ \t]*([^\n]*)(?:\n|$)/;

interface CalloutMeta {
  look: string;
  fold: "" | "+" | "-";
  titleId: string;
}

function callouts(state: StateCore) {
  const tokens = state.tokens;
  const env = state.env as { prefix?: string; callouts?: number };
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i]!;
    const inline = tokens[i + 2];
    if (open.type !== "blockquote_open" || tokens[i + 1]?.type !== "paragraph_open" || inline?.type !== "inline") continue;
    const m = FIRST_LINE.exec(inline.content);
    if (!m) continue;
    let close = i + 1;
    while (close < tokens.length && !(tokens[close]!.type === "blockquote_close" && tokens[close]!.level === open.level)) close++;
    if (close >= tokens.length) continue;
    const type = m[1]!.toLowerCase();
    const fold = m[2] as CalloutMeta["fold"];
    const tag = fold ? "details" : "div";
    env.callouts = (env.callouts ?? 0) + 1;
    const meta: CalloutMeta = { look: LOOKS[type] ?? "note", fold, titleId: `${env.prefix ?? ""}callout-${env.callouts}` };
    Object.assign(open, { type: "callout_open", tag, meta });
    Object.assign(tokens[close]!, { type: "callout_close", tag });

    const titleTag = fold ? "summary" : "p";
    const titleOpen = new state.Token("callout_title_open", titleTag, 1);
    titleOpen.meta = meta;
    const title = new state.Token("inline", "", 0);
    title.content = m[3]!.trim() || type.charAt(0).toUpperCase() + type.slice(1);
    title.children = [];
    title.map = inline.map;
    const titleClose = new state.Token("callout_title_close", titleTag, -1);
    const bodyOpen = new state.Token("callout_body_open", "div", 1);
    const bodyClose = new state.Token("callout_body_close", "div", -1);
    inline.content = inline.content.slice(m[0].length);
    // A first line alone leaves an empty paragraph: it goes.
    const emptied = !inline.content.trim();
    tokens.splice(i + 1, emptied ? 3 : 0, titleOpen, title, titleClose, bodyOpen);
    const end = close + 4 - (emptied ? 3 : 0);
    tokens.splice(end, 0, bodyClose);
  }
}

/** The plugin: `callout_*` tokens and their HTML. */
export function calloutPlugin(md: MarkdownIt) {
  md.core.ruler.after("block", "callouts", callouts);
  const esc = md.utils.escapeHtml;
  md.renderer.rules.callout_open = (tokens, i) => {
    const { look, fold, titleId } = tokens[i]!.meta as CalloutMeta;
    const cls = `callout callout-${look}`;
    return fold ? `<details class="${cls}"${fold === "+" ? " open" : ""}>\n` : `<div class="${cls}" role="note" aria-labelledby="${esc(titleId)}">\n`;
  };
  md.renderer.rules.callout_close = (tokens, i) => `</${tokens[i]!.tag}>\n`;
  md.renderer.rules.callout_title_open = (tokens, i) => {
    const { titleId } = tokens[i]!.meta as CalloutMeta;
    return `<${tokens[i]!.tag} class="callout-title" id="${esc(titleId)}">`;
  };
  md.renderer.rules.callout_title_close = (tokens, i) => `</${tokens[i]!.tag}>\n`;
  md.renderer.rules.callout_body_open = () => `<div class="callout-body">\n`;
  md.renderer.rules.callout_body_close = () => "</div>\n";
}
