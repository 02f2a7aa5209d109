// A knowledge base's search box: its documents found by the words of their title, path and
// text (GET /v1/docs/search with kbId), shown above the KB's page with their snippets
// (search-results.ts). It wraps the KB's screen (kb-tree.ts) rather than living in it, so
// the screen's own drawing stays its own.
import { h } from "./dom.ts";
import { searchResults } from "./search-results.ts";

/** `screen`: the KB's page for `rest` ("<id>" or "<id>/<path...>"); the box goes under its title. */
export function withKbSearch(screen: HTMLElement, rest: string): HTMLElement {
  const kbId = rest.split(/[/#]/)[0] ?? "";
  const results = searchResults({ kbId, none: (q) => `No document of this knowledge base contains “${q}”.` });
  const input = h("input", { id: "kb-search", name: "q", type: "search", autocomplete: "off", "aria-describedby": "kb-search-hint" });
  const clear = h("button", { type: "button", class: "secondary", hidden: true }, "Clear search");
  const form = h(
    "form",
    { class: "filter kb-search", role: "search", "aria-label": "This knowledge base" },
    h("label", { for: "kb-search" }, "Search this knowledge base"),
    input,
    h("button", { type: "submit", class: "secondary" }, "Search"),
    clear,
    h("p", { class: "hint", id: "kb-search-hint" }, "Finds the words in titles, paths and text (the text of a document over 256 KB is not searched)."),
  );
  const found = h("section", { class: "found", "aria-label": "Documents found", hidden: true }, ...results.parts);
  const run = (q: string) => {
    results.search(q);
    found.hidden = !q;
    clear.hidden = !q;
  };
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    run(input.value.trim());
  });
  clear.addEventListener("click", () => {
    input.value = "";
    run("");
    input.focus();
  });
  const title = screen.querySelector(":scope > .title-row");
  if (title) title.after(form, found);
  else screen.prepend(form, found);
  return screen;
}
