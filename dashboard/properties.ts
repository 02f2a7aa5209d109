// A note's front matter shown as its properties, above its text, as an editor shows them:
// each key with its value, a list as chips, yes or no for true and false, a web address as
// a link, a value with a [[wikilink]] as Markdown (so the link resolves in the KB like any
// other), a nested value as YAML. The YAML is read by the `yaml` package, loaded with the
// first note that has front matter; front matter that is no mapping is shown as its text.
import { h } from "./dom.ts";

/** Markdown of one line rendered and sanitized as the note is (markdown.ts). */
type Inline = (text: string) => DocumentFragment;

const WEB = /^https?:\/\/\S+$/i;

function scalar(value: unknown, inline: Inline): Node {
  if (value === null || value === undefined || value === "") return h("span", { class: "meta" }, "Empty");
  if (typeof value === "boolean") return document.createTextNode(value ? "Yes" : "No");
  if (value instanceof Date) return document.createTextNode(value.toISOString().slice(0, 10));
  const text = String(value);
  if (text.includes("[[")) return inline(text);
  if (WEB.test(text)) return h("a", { href: text, rel: "noopener noreferrer" }, text);
  return document.createTextNode(text);
}

/** The properties of `yamlText`, as a list of terms and values named "Properties". */
export async function properties(yamlText: string, inline: Inline): Promise<HTMLElement> {
  const { parse, stringify } = await import("yaml");
  const box = h("section", { class: "properties", "aria-label": "Properties" });
  let data: unknown;
  try {
    data = parse(yamlText, { maxAliasCount: 16 });
  } catch {
    data = undefined;
  }
  if (data === null || typeof data !== "object" || Array.isArray(data) || data instanceof Date) {
    if (!yamlText.trim()) return box;
    box.append(h("p", { class: "meta" }, "Front matter (not read as properties):"), h("pre", { class: "doc-source" }, yamlText));
    return box;
  }
  const list = h("dl", {});
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    let shown: Node;
    if (Array.isArray(value)) {
      shown = value.length
        ? h("ul", { class: "prop-chips", "aria-label": key }, ...value.map((v) => h("li", { class: "prop-chip" }, scalar(v, inline))))
        : h("span", { class: "meta" }, "Empty");
    } else if (value !== null && typeof value === "object" && !(value instanceof Date)) {
      shown = h("pre", { class: "property-yaml" }, stringify(value).trimEnd());
    } else {
      shown = scalar(value, inline);
    }
    list.append(h("div", { class: "property" }, h("dt", {}, key), h("dd", {}, shown)));
  }
  box.append(list);
  return box;
}
