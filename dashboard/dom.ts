// A tiny element builder: the dashboard's screens are plain DOM, no framework (the first
// page's script stays small; docs/decisions/dashboard.md).

type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | boolean | number | EventListener | undefined>;

/** `h("button", { type: "button", onclick: f }, "Save")`: attributes, `on*` listeners, children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c) el.append(c);
  return el;
}

/** A labelled input: the label names the control (how people and tests find it). */
export function field(label: string, input: Attrs & { name: string }, hint?: string) {
  const id = `f-${input.name}`;
  const hintId = hint ? `${id}-hint` : undefined;
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    h("input", { id, "aria-describedby": hintId, ...input }),
    hint ? h("p", { class: "hint", id: hintId }, hint) : null,
  );
}

/** Replaces the screen, and moves focus to its heading so keyboard and screen reader users know it changed. */
export function show(root: HTMLElement, ...content: Node[]) {
  root.replaceChildren(...content);
  const heading = root.querySelector<HTMLElement>("h1");
  if (heading) {
    heading.tabIndex = -1;
    heading.focus();
  }
}

/**
 * Bytes in words, in units of 1024 as the plans state their limits (a pro plan's image
 * storage is "100 GB", not "107.4 GB"): one decimal, none when it is whole. The one size
 * format of the dashboard, for files and limits alike, so "3.2 MB of 100 GB" compares.
 */
export function bytes(n: number): string {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  if (i === 0) return `${n} ${n === 1 ? "byte" : "bytes"}`;
  const rounded = Math.round(n * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded : rounded.toFixed(1)} ${units[i]}`;
}

/** A moment in the reader's words and time zone: 27 Nov 2026, 06:10. */
export const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/** Copies an input's text; the Clipboard API needs a secure context, so plain HTTP falls back to a selection copy. */
export async function copy(input: HTMLInputElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    input.select();
    return document.execCommand("copy");
  }
}
