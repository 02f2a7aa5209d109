// Line diffs of two texts (jsdiff, loaded on first use apart from the first page): a unified
// list for a document's history, and two columns for a conflict branch beside its master.
// Added and removed lines carry a text marker (+ or −) and words for screen readers, not
// colour alone; long unchanged stretches fold to a line that says how many were left out.
import { h } from "./dom.ts";

type Kind = "same" | "add" | "del";
interface Line {
  kind: Kind;
  text: string;
}

const CONTEXT = 3;
const MARK: Record<Kind, string> = { same: " ", add: "+", del: "−" };
const SAID: Record<Kind, string> = { same: "", add: "Added: ", del: "Removed: " };

/** The two texts line by line: unchanged, removed (from `before`) and added (in `after`). */
async function lines(before: string, after: string): Promise<Line[]> {
  const { diffLines } = await import("diff");
  const out: Line[] = [];
  for (const change of diffLines(before, after)) {
    const kind: Kind = change.added ? "add" : change.removed ? "del" : "same";
    const texts = change.value.replace(/\n$/, "").split("\n");
    for (const text of texts) out.push({ kind, text });
  }
  return out;
}

/** Indexes of the unchanged lines far from any change: they fold. */
function folded(all: Line[]): boolean[] {
  const near = all.map(() => false);
  all.forEach((l, i) => {
    if (l.kind === "same") return;
    for (let j = Math.max(0, i - CONTEXT); j <= Math.min(all.length - 1, i + CONTEXT); j++) near[j] = true;
  });
  return all.map((l, i) => l.kind === "same" && !near[i]);
}

const gap = (n: number) => `… ${n === 1 ? "1 unchanged line" : `${n} unchanged lines`} …`;

function marked(kind: Kind, text: string) {
  const body = kind === "add" ? h("ins", {}, text) : kind === "del" ? h("del", {}, text) : h("span", {}, text);
  return [h("span", { class: "mark", "aria-hidden": "true" }, MARK[kind]), SAID[kind] ? h("span", { class: "visually-hidden" }, SAID[kind]) : null, body];
}

/** The changes from `before` to `after` as one list of lines, named `label`. */
export async function unifiedDiff(before: string, after: string, label: string): Promise<HTMLElement> {
  const all = await lines(before, after);
  if (!all.some((l) => l.kind !== "same")) return h("p", { class: "status" }, "The two texts are the same.");
  const fold = folded(all);
  const list = h("ol", { class: "diff", "aria-label": label });
  for (let i = 0; i < all.length; i++) {
    if (fold[i]) {
      let n = 0;
      while (i + n < all.length && fold[i + n]) n++;
      list.append(h("li", { class: "gap" }, gap(n)));
      i += n - 1;
      continue;
    }
    const l = all[i]!;
    list.append(h("li", { class: l.kind }, ...marked(l.kind, l.text)));
  }
  return list;
}

/**
 * `left` and `right` side by side: a table whose rows pair a removed line with the added one
 * that replaces it, so a changed line reads across.
 */
export async function sideBySide(left: string, right: string, headings: [string, string], caption: string): Promise<HTMLElement> {
  const all = await lines(left, right);
  const rows: [Line | null, Line | null][] = [];
  for (let i = 0; i < all.length; ) {
    if (all[i]!.kind === "same") {
      rows.push([all[i]!, all[i]!]);
      i++;
      continue;
    }
    const dels: Line[] = [];
    const adds: Line[] = [];
    while (i < all.length && all[i]!.kind === "del") dels.push(all[i++]!);
    while (i < all.length && all[i]!.kind === "add") adds.push(all[i++]!);
    for (let k = 0; k < Math.max(dels.length, adds.length); k++) rows.push([dels[k] ?? null, adds[k] ?? null]);
  }
  const fold = folded(rows.map(([l, r]) => (l && r && l === r ? l : { kind: "add", text: "" })));
  const cell = (l: Line | null) => h("td", { class: l ? l.kind : "empty" }, ...(l ? marked(l.kind, l.text) : []));
  const body = h("tbody", {});
  for (let i = 0; i < rows.length; i++) {
    if (fold[i]) {
      let n = 0;
      while (i + n < rows.length && fold[i + n]) n++;
      body.append(h("tr", { class: "gap" }, h("td", { colspan: 2 }, gap(n))));
      i += n - 1;
      continue;
    }
    const [l, r] = rows[i]!;
    body.append(h("tr", {}, cell(l), cell(r)));
  }
  return h(
    "div",
    { class: "side-by-side" },
    h(
      "table",
      {},
      h("caption", { class: "visually-hidden" }, caption),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, headings[0]), h("th", { scope: "col" }, headings[1]))),
      body,
    ),
  );
}
