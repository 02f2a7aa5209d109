// Search results (GET /v1/docs/search) as a list a person reads, for the library and for a
// knowledge base: each document's title (a link into its knowledge base, or a button that
// opens a document kept outside one), where it is, and its snippet with the matched words
// marked; the next page on "Show more". A snippet is a document's own text, so it is built
// as text nodes, the matches wrapped in <mark> by the answer's offsets, never parsed as HTML.
import { type Answer, call } from "./api.ts";
import { inWords } from "./auth.ts";
import { h } from "./dom.ts";
import { getKb, kbHref } from "./kb-data.ts";

type Found = Answer<"/v1/docs/search", "get">;
type Hit = Found["items"][number];

const PAGE_SIZE = 20;

/**
 * The snippet with each match in a <mark>. The offsets point inside the « and » the API puts
 * around a match: those two are left out (the <mark> shows it), any other « is the text's own.
 */
function snippet(hit: Pick<Hit, "snippet" | "marks">): HTMLElement {
  const p = h("p", { class: "snippet" });
  let at = 0;
  for (const m of hit.marks) {
    if (m.start < at + 1 || m.end > hit.snippet.length) continue;
    p.append(hit.snippet.slice(at, m.start - 1), h("mark", {}, hit.snippet.slice(m.start, m.end)));
    at = m.end + 1;
  }
  p.append(hit.snippet.slice(at));
  return p;
}

interface Options {
  /** Only this KB's documents. */
  kbId?: string;
  /** What a person is told when nothing matches `q`. */
  none: (q: string) => string;
  /** Opens a document kept outside any KB (one in a KB is a link to it there). */
  open?: (hit: Hit, row: HTMLLIElement) => void;
}

export function searchResults(opts: Options) {
  const list = h("ol", { class: "search-results", "aria-label": "Search results" });
  const status = h("p", { class: "status", role: "status" });
  const error = h("p", { class: "error", role: "alert" });
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "Show more");
  // A KB's name is asked once per search, whichever of its documents come first.
  const kbNames = new Map<string, Promise<string>>();
  const kbName = (id: string) => {
    let name = kbNames.get(id);
    if (!name)
      kbNames.set(
        id,
        (name = getKb(id).then(
          (kb) => kb.name,
          () => "a knowledge base",
        )),
      );
    return name;
  };
  let q = "";
  let cursor: string | null = null;
  let shown = 0;
  // A page of a search the person has since replaced is dropped when it arrives.
  let current = 0;

  function row(hit: Hit): HTMLLIElement {
    const place = h("span", { class: "meta" }, hit.relativePath ?? "Not in a knowledge base");
    const li = h("li", { class: "hit" });
    let title: HTMLElement;
    if (hit.kbId && hit.relativePath) {
      title = h("a", { href: kbHref(hit.kbId, hit.relativePath), class: "hit-title" }, hit.title);
      if (!opts.kbId) {
        void kbName(hit.kbId).then((name) => {
          place.textContent = `${name} · ${hit.relativePath}`;
        });
      }
    } else {
      title = h("button", { type: "button", class: "hit-title link" }, hit.title);
      title.addEventListener("click", () => opts.open?.(hit, li));
    }
    li.append(title, place, snippet(hit));
    return li;
  }

  async function load(search: number) {
    more.disabled = true;
    error.textContent = "";
    status.textContent = shown ? "" : "Searching…";
    try {
      const params = new URLSearchParams({ q, limit: String(PAGE_SIZE), ...(opts.kbId ? { kbId: opts.kbId } : {}), ...(cursor ? { cursor } : {}) });
      const page = await call<Found>("GET", `/v1/docs/search?${params}`);
      if (search !== current) return;
      list.append(...page.items.map(row));
      shown += page.items.length;
      cursor = page.nextCursor;
      more.hidden = !cursor;
      const n = `${shown}${cursor ? "+" : ""}`;
      status.textContent = shown ? `${n} ${shown === 1 && !cursor ? "document matches" : "documents match"} “${q}”.` : opts.none(q);
    } catch (e) {
      if (search !== current) return;
      status.textContent = "";
      error.textContent = inWords(e);
    } finally {
      more.disabled = false;
    }
  }
  more.addEventListener("click", () => load(current));

  return {
    parts: [status, error, list, h("div", { class: "more" }, more)] as const,
    /** Shows the first page for `query`; an empty one clears the results. */
    search(query: string) {
      current++;
      q = query;
      cursor = null;
      shown = 0;
      list.replaceChildren();
      more.hidden = true;
      status.textContent = "";
      error.textContent = "";
      if (q) void load(current);
    },
  };
}
