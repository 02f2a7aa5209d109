// A Typst document's title: its first level-1 heading (`= Heading` at the start of a line
// of top-level markup), as Markdown's first H1 is. Read from the text by a small scanner
// rather than by the compiler: the title is needed wherever a text comes in (uploads and
// sync pushes, in the API process) and must not depend on a compiler process, its time
// bound or the platform having the addon; the compiler only reports a heading of a source
// that compiles (docs/decisions/documents.md, "Typst documents").
//
// The scanner knows what hides a line start from markup: comments (`//`, nested `/* */`),
// raw text (`` `x` ``, ``` fences), and code (`#{ … }`, `#let …` to the end of its line,
// `#f(…)` arguments, strings in code), and content blocks (`[ … ]`), where a heading belongs
// to something else.
type Frame = "code(" | "code{" | "codeLine" | "content";

const IDENT = /[\p{L}\p{N}_-]/u;
const KEYWORDS = new Set(["let", "set", "show", "import", "include", "if", "for", "while", "return", "context"]);

/** The text of a heading line, without markup: strong/emphasis marks, raw backticks, labels, escapes, `#f[...]` wrappers. */
function headingText(line: string): string {
  return line
    .replace(/<[\p{L}\p{N}_:.-]+>\s*$/u, "")
    .replace(/#[\p{L}\p{N}_.-]+(\([^)]*\))?\[/gu, "")
    .replace(/(?<!\\)[*_`\]]/g, "")
    .replace(/\\(.)/g, "$1")
    .trim();
}

export function typstTitle(text: string): string | undefined {
  const stack: Frame[] = [];
  const top = () => stack[stack.length - 1];
  const n = text.length;
  let i = 0;
  let lineStart = true;
  while (i < n) {
    const c = text[i]!;
    const mode = top();
    if (c === "\n") {
      if (mode === "codeLine") stack.pop();
      lineStart = true;
      i++;
      continue;
    }
    if (lineStart && stack.length === 0) {
      // A heading: spaces, then "=" not followed by another "=", then a space.
      let j = i;
      while (text[j] === " " || text[j] === "\t") j++;
      if (text[j] === "=" && text[j + 1] !== "=" && (text[j + 1] === " " || text[j + 1] === "\t")) {
        const end = text.indexOf("\n", j);
        const title = headingText(text.slice(j + 2, end < 0 ? n : end).replace(/\r$/, ""));
        if (title) return title;
      }
    }
    lineStart = false;
    // Comments and raw text, in markup and code alike (not `//` right after ":" in markup, a URL).
    if (c === "/" && text[i + 1] === "/" && (mode?.startsWith("code") || text[i - 1] !== ":")) {
      const end = text.indexOf("\n", i);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      let depth = 0;
      while (i < n) {
        if (text[i] === "/" && text[i + 1] === "*") depth++, (i += 2);
        else if (text[i] === "*" && text[i + 1] === "/") {
          depth--;
          i += 2;
          if (depth === 0) break;
        } else i++;
      }
      continue;
    }
    if (c === "`") {
      let run = 0;
      while (text[i + run] === "`") run++;
      if (run === 2) {
        i += 2;
        continue;
      }
      const close = text.indexOf("`".repeat(run), i + run);
      i = close < 0 ? n : close + run;
      continue;
    }
    if (mode === undefined || mode === "content") {
      if (c === "\\") i += 2;
      else if (c === "]" && mode === "content") stack.pop(), i++;
      else if (c === "[" && mode === "content") stack.push("content"), i++;
      else if (c === "#") i = enterCode(text, i + 1, stack);
      else i++;
      continue;
    }
    // Code.
    if (c === '"') {
      i++;
      while (i < n && text[i] !== '"' && text[i] !== "\n") i += text[i] === "\\" ? 2 : 1;
      i++;
    } else if (c === "(") stack.push("code("), i++;
    else if (c === "{") stack.push("code{"), i++;
    else if (c === "[") stack.push("content"), i++;
    else if ((c === ")" && mode === "code(") || (c === "}" && mode === "code{")) {
      stack.pop();
      i++;
      // A closed call or block may go on: `#f(a)[b]`, `#if c {…} else {…}` (a codeLine frame), `#a.b()`.
      if (stack.length === 0 || top() === "content") i = continueExpression(text, i, stack);
    } else i++;
  }
  return undefined;
}

/** After `#` in markup: an identifier (a keyword starts a line of code), then what it opens. */
function enterCode(text: string, i: number, stack: Frame[]): number {
  const c = text[i];
  if (c === "{") return (stack.push("code{"), i + 1);
  if (c === "(") return (stack.push("code("), i + 1);
  if (c === "[") return (stack.push("content"), i + 1);
  let j = i;
  while (j < text.length && IDENT.test(text[j]!)) j++;
  if (j === i) return i;
  if (KEYWORDS.has(text.slice(i, j))) return (stack.push("codeLine"), j);
  return continueExpression(text, j, stack);
}

/** A call or field access chained onto an expression in markup: `(…)`, `[…]`, `.name`. */
function continueExpression(text: string, i: number, stack: Frame[]): number {
  const c = text[i];
  if (c === "(") return (stack.push("code("), i + 1);
  if (c === "[") return (stack.push("content"), i + 1);
  if (c === "." && text[i + 1] !== undefined && IDENT.test(text[i + 1]!)) {
    let j = i + 1;
    while (j < text.length && IDENT.test(text[j]!)) j++;
    return continueExpression(text, j, stack);
  }
  return i;
}
