// The library: everything the person keeps (images, videos, audio, documents) as a grid,
// newest first, one page at a time ("Show more"). Each kind has its own listing in the API
// (media.ts); the "All" view merges them by creation time, keeping each listing's cursor.
// Filters: the kind and a tag (images, videos and documents have tags; audio has none). The
// search finds documents by the words of their title, path and text, in knowledge bases too
// (GET /v1/docs/search, search-results.ts), and shows them in place of the grid, each with
// its snippet. Several items are selected by their checkboxes and deleted together.
import { mediaBlobUrl } from "./api.ts";
import { inWords } from "./auth.ts";
import { bytes, h } from "./dom.ts";
import { deleteItems, docById, duration, type Item, KIND_WORDS, type Kind, type Source, sources } from "./media.ts";
import { openItem } from "./media-dialog.ts";
import { searchResults } from "./search-results.ts";
import { paintPlaceholder, TILE_SIZES, tileQuery, tileSrcset, tileUrl } from "./thumbs.ts";
import { thumbnailOf, videoState } from "./video.ts";

const PAGE_SIZE = 24;

type View = "all" | Kind;
const VIEWS: { view: View; label: string }[] = [
  { view: "all", label: "All" },
  { view: "image", label: "Images" },
  { view: "video", label: "Videos" },
  { view: "audio", label: "Audio" },
  { view: "doc", label: "Documents" },
];

/** The listings a view reads, or the words saying why it has none; `withKb`: documents in knowledge bases too. */
function sourcesOf(view: View, tag: string, withKb: boolean): Source[] | string {
  if (view === "audio") return tag ? "Audio files have no tags: clear the tag filter to see them." : [sources.media("audio")];
  if (view === "image") return [sources.images(tag)];
  if (view === "video") return [tag ? sources.videosTagged(tag) : sources.media("video")];
  if (view === "doc") return [sources.docs(tag, "", withKb)];
  return tag
    ? [sources.images(tag), sources.videosTagged(tag), sources.docs(tag, "", withKb)]
    : [sources.images(""), sources.media(), sources.docs("", "", withKb)];
}

/**
 * Several listings as one, newest first: each keeps its cursor and a buffer, and the next
 * item is the newest buffer head. A listing is read again only when its buffer runs dry.
 */
function merged(list: Source[]) {
  const states = list.map((source) => ({ source, buffer: [] as Item[], cursor: null as string | null, done: false }));
  return {
    async next(n: number): Promise<Item[]> {
      const out: Item[] = [];
      while (out.length < n) {
        await Promise.all(
          states
            .filter((s) => !s.buffer.length && !s.done)
            .map(async (s) => {
              const page = await s.source(s.cursor, PAGE_SIZE);
              s.buffer.push(...page.items);
              s.cursor = page.next;
              s.done = !page.next;
            }),
        );
        let best: (typeof states)[number] | undefined;
        for (const s of states) if (s.buffer.length && (!best || s.buffer[0]!.createdAt > best.buffer[0]!.createdAt)) best = s;
        if (!best) break;
        out.push(best.buffer.shift()!);
      }
      return out;
    },
    more: () => states.some((s) => s.buffer.length || !s.done),
  };
}

// A private picture is fetched with the token (or, for a video, through a signed URL) only
// once its tile nears the viewport (what loading="lazy" does for a public one).
const loaders = new WeakMap<Element, () => Promise<string | undefined>>();
const nearViewport = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const img = entry.target as HTMLImageElement;
      nearViewport.unobserve(img);
      loaders
        .get(img)?.()
        .then((src) => {
          if (src) img.src = src;
          else img.classList.add("broken");
        })
        .catch(() => img.classList.add("broken"));
    }
  },
  { rootMargin: "400px" },
);

function lazyImg(attrs: Record<string, string | number>, load: () => Promise<string | undefined>) {
  const img = h("img", { loading: "lazy", decoding: "async", ...attrs });
  loaders.set(img, load);
  nearViewport.observe(img);
  return img;
}

/**
 * The tile's picture: the image, a video's thumbnail, an audio file's cover, or a document's
 * mark. `previous` is the picture a tile already showed of the item (after a change in its
 * dialog): kept, since the edge may answer by the old visibility for a few seconds.
 */
function picture(item: Item, previous?: string): { thumb: HTMLElement; img: HTMLImageElement | null } {
  let img: HTMLImageElement | null = null;
  let badge: string | null = null;
  switch (item.kind) {
    case "image": {
      const i = item.raw;
      const attrs = { alt: i.filename, width: i.width, height: i.height };
      // A public image is loaded by its permanent variant URLs, so the browser's cache keeps
      // them; a private one's variant is fetched with the token.
      img = previous
        ? h("img", { ...attrs, loading: "lazy", decoding: "async", src: previous })
        : i.is_public
          ? // loading before the sources: an image element starts loading when it gets a source.
            h("img", { ...attrs, loading: "lazy", decoding: "async", sizes: TILE_SIZES, srcset: tileSrcset(i.url), src: i.thumbnail_url })
          : lazyImg(attrs, () => mediaBlobUrl(tileUrl(i.url)));
      const thumb = h("div", { class: "thumb image" }, img);
      if (!previous) paintPlaceholder(thumb, img, i.placeholder);
      return { thumb, img };
    }
    case "video": {
      const v = item.raw;
      const url = v.thumbnail_url;
      if (url)
        img = previous
          ? h("img", { alt: "", loading: "lazy", src: previous })
          : v.isPublic
            ? sizedImg(url)
            : lazyImg({ alt: "" }, () => thumbnailOf(v, tileQuery(url)));
      badge = v.status === "ready" ? `▶ ${duration(v.duration_seconds)}` : v.status === "failed" ? "Failed" : "Processing";
      break;
    }
    case "audio": {
      const a = item.raw;
      img = previous
        ? h("img", { alt: "", loading: "lazy", src: previous })
        : a.isPublic
          ? sizedImg(a.thumbnailUrl)
          : lazyImg({ alt: "" }, () => mediaBlobUrl(tileUrl(a.thumbnailUrl)));
      badge = `♪ ${duration(a.durationSeconds)}`;
      break;
    }
    case "doc":
      return {
        thumb: h(
          "div",
          { class: "thumb doc-mark", "aria-hidden": "true" },
          h("span", { class: "doc-page" }, item.raw.format === "typst" ? "Typst" : "Markdown"),
        ),
        img,
      };
  }
  const thumb = h("div", { class: `thumb ${item.kind}` }, img ?? h("span", { class: "placeholder", "aria-hidden": "true" }, item.kind === "video" ? "▶" : "♪"));
  // A video's thumbnail and an audio cover have their placeholders too, as an image has.
  if (img && !previous) paintPlaceholder(thumb, img, item.raw.placeholder ?? null);
  if (badge) thumb.append(h("span", { class: `badge ${item.kind === "video" ? item.raw.status : ""}`, "aria-hidden": "true" }, badge));
  return { thumb, img };
}

/** A public video thumbnail's or audio cover's tile picture: a square variant from a srcset, as an image's. */
const sizedImg = (url: string) => h("img", { alt: "", loading: "lazy", decoding: "async", sizes: TILE_SIZES, srcset: tileSrcset(url), src: tileUrl(url) });

/** The picture a tile shows: the one the browser chose from a srcset, else its src. */
const shownSrc = (img: HTMLImageElement | null) => img?.currentSrc || img?.src || undefined;

/** The tile's line of facts, in words. */
function meta(item: Item): string {
  const vis = item.isPublic ? "public" : "private";
  switch (item.kind) {
    case "image":
      return `${item.raw.width}×${item.raw.height} · ${bytes(item.size)} · ${vis}`;
    case "video":
      return `Video · ${videoState(item.raw)} · ${vis}`;
    case "audio":
      return `Audio · ${bytes(item.size)} · ${vis}`;
    case "doc":
      return `Document · ${bytes(item.size)} · ${vis}`;
  }
}

interface TileHandlers {
  open(item: Item, img: HTMLImageElement | null, li: HTMLLIElement): void;
  select(item: Item, on: boolean): void;
}

/** A tile; its name is the button that opens the item (a click on the picture does too); its checkbox selects it. */
function tile(item: Item, on: TileHandlers, selected: boolean, previous?: string) {
  const { thumb, img } = picture(item, previous);
  const id = `select-${item.id}`;
  const check = h("input", { type: "checkbox", id, class: "select", checked: selected, "aria-label": `Select ${item.title}` });
  const name = h("button", { type: "button", class: "name" }, item.title);
  // The checkbox comes first in the DOM as on screen (its corner), so Tab reaches it before the name.
  const li = h("li", { class: `tile tile-${item.kind}` }, check, h("figure", {}, thumb, h("figcaption", {}, name, h("span", { class: "meta" }, meta(item)))));
  check.addEventListener("change", () => on.select(item, check.checked));
  name.addEventListener("click", () => on.open(item, img, li));
  thumb.addEventListener("click", () => on.open(item, img, li));
  return li;
}

export function libraryScreen() {
  const grid = h("ul", { class: "grid" });
  const status = h("p", { class: "status", role: "status" });
  const error = h("p", { class: "error", role: "alert" });
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "Show more");
  const moreRow = h("div", { class: "more" }, more);
  const count = h("p", { class: "count" });
  let view: View = "all";
  let tag = "";
  let q = "";
  let withKb = false;
  let listing = merged([]);
  let shown = 0;
  const selected = new Map<string, Item>();

  const chosen = h("span", { class: "chosen" });
  const deleteSelected = h("button", { type: "button", class: "danger" }, "Delete selected");
  const clearSelection = h("button", { type: "button", class: "secondary" }, "Clear selection");
  const selection = h("div", { class: "selection", role: "group", "aria-label": "Selection", hidden: true }, chosen, clearSelection, deleteSelected);
  const selectionChanged = () => {
    selection.hidden = selected.size === 0;
    chosen.textContent = `${selected.size} selected`;
  };

  const counted = () => {
    count.textContent = shown === 0 ? "" : more.hidden ? `${shown} ${shown === 1 ? "item" : "items"}` : `${shown}+ items`;
  };
  const handlers: TileHandlers = {
    open: (item, img, li) =>
      void openItem(item, shownSrc(img), {
        changed: (updated) => li.replaceWith(tile(updated, handlers, selected.has(updated.id), shownSrc(img))),
        deleted: () => {
          li.remove();
          selected.delete(item.id);
          selectionChanged();
          shown--;
          counted();
        },
      }),
    select: (item, on) => {
      if (on) selected.set(item.id, item);
      else selected.delete(item.id);
      selectionChanged();
    },
  };

  async function load() {
    // A page of a listing the filters have since replaced (the kind changed while it was on
    // its way) is dropped when it arrives: the new listing lists its items itself.
    const from = listing;
    more.disabled = true;
    status.textContent = "Loading…";
    error.textContent = "";
    try {
      const items = await from.next(PAGE_SIZE);
      if (from !== listing) return;
      grid.append(...items.map((i) => tile(i, handlers, selected.has(i.id))));
      shown += items.length;
      more.hidden = !listing.more();
      status.textContent = "";
      if (shown === 0) emptyWords();
      counted();
    } catch (e) {
      if (from !== listing) return;
      status.textContent = "";
      error.textContent = inWords(e);
    } finally {
      more.disabled = false;
    }
  }

  function emptyWords() {
    const kind = view === "all" ? "items" : KIND_WORDS[view].many;
    // Documents left out because they live in knowledge bases are said to be, with where they are.
    const kbDocs = !withKb && (view === "all" || view === "doc");
    if (tag) status.textContent = `No ${kind} tagged “${tag}”.`;
    else if (view === "doc" && kbDocs)
      status.replaceChildren(h("span", {}, "No documents outside knowledge bases. Those in one are under "), h("a", { href: "#/kbs" }, "Knowledge bases"), ".");
    else
      status.replaceChildren(h("span", {}, view === "all" ? "Nothing here yet. " : `No ${kind} yet. `), h("a", { href: "#/upload" }, "Add your first files"));
  }

  // A search shows its results in place of the grid.
  const results = searchResults({
    none: (words) => `No document contains “${words}”.`,
    open: (hit, row) =>
      void docById(hit.id)
        .then((item) => openItem(item, undefined, { changed: () => {}, deleted: () => row.remove() }))
        .catch((e: unknown) => {
          error.textContent = inWords(e);
        }),
  });
  const found = h("section", { class: "found", "aria-label": "Documents found", hidden: true }, ...results.parts);

  /** Starts the list over from its first page with the current filters. */
  function restart() {
    results.search(q);
    found.hidden = !q;
    for (const part of [grid, status, moreRow]) part.hidden = Boolean(q);
    grid.replaceChildren();
    grid.setAttribute("aria-label", view === "all" ? "Library items" : VIEWS.find((v) => v.view === view)!.label);
    shown = 0;
    more.hidden = true;
    count.textContent = "";
    kbToggle.hidden = Boolean(q) || (view !== "all" && view !== "doc");
    if (q) {
      listing = merged([]);
      return;
    }
    const list = sourcesOf(view, tag, withKb);
    if (typeof list === "string") {
      listing = merged([]);
      status.textContent = list;
      return;
    }
    listing = merged(list);
    void load();
  }
  more.addEventListener("click", load);

  // The kind: radio buttons, each a filter applied at once.
  const kinds = h(
    "fieldset",
    { class: "kinds" },
    h("legend", { class: "visually-hidden" }, "Show"),
    ...VIEWS.map(({ view: v, label }) => {
      const radio = h("input", { type: "radio", name: "kind", id: `kind-${v}`, value: v, checked: v === view });
      radio.addEventListener("change", () => {
        if (!radio.checked) return;
        view = v;
        // The search finds documents only.
        if (view !== "doc" && q) {
          q = "";
          searchInput.value = "";
        }
        restart();
      });
      return h("label", { for: `kind-${v}`, class: "kind" }, radio, h("span", {}, label));
    }),
  );
  // Documents that live in a knowledge base belong to it, not to this grid, unless asked for.
  const kbBox = h("input", { type: "checkbox", id: "with-kb", name: "withKb" });
  kbBox.addEventListener("change", () => {
    withKb = kbBox.checked;
    restart();
  });
  const kbToggle = h("div", { class: "check with-kb" }, kbBox, h("label", { for: "with-kb" }, "Include documents in knowledge bases"));
  const setView = (v: View) => {
    view = v;
    (kinds.querySelector(`#kind-${v}`) as HTMLInputElement).checked = true;
  };

  const tagInput = h("input", { id: "tag-filter", name: "tag", type: "search", autocomplete: "off" });
  const filter = h(
    "form",
    { class: "filter", role: "search", "aria-label": "Tags" },
    h("label", { for: "tag-filter" }, "Filter by tag"),
    tagInput,
    h("button", { type: "submit", class: "secondary" }, "Filter"),
  );
  filter.addEventListener("submit", (ev) => {
    ev.preventDefault();
    tag = tagInput.value.trim();
    // A tag filters the listings: it ends a search.
    q = "";
    searchInput.value = "";
    restart();
  });
  const searchInput = h("input", { id: "doc-search", name: "q", type: "search", autocomplete: "off", "aria-describedby": "doc-search-hint" });
  const search = h(
    "form",
    { class: "filter", role: "search", "aria-label": "Documents" },
    h("label", { for: "doc-search" }, "Search documents"),
    searchInput,
    h("button", { type: "submit", class: "secondary" }, "Search"),
    h(
      "p",
      { class: "hint", id: "doc-search-hint" },
      "Finds documents by the words of their title, path and text, in knowledge bases too. Images, videos and audio are found by type and tag.",
    ),
  );
  search.addEventListener("submit", (ev) => {
    ev.preventDefault();
    q = searchInput.value.trim();
    if (q) setView("doc");
    restart();
  });

  deleteSelected.addEventListener("click", async () => {
    const items = [...selected.values()];
    const words = items.length === 1 ? `${items[0]!.title}` : `these ${items.length} items`;
    if (!confirm(`Delete ${words}? Their URLs stop working; they stay in the trash for a while, where they can be restored.`)) return;
    deleteSelected.disabled = true;
    error.textContent = "";
    try {
      const gone = await deleteItems(items);
      for (const li of grid.querySelectorAll<HTMLInputElement>("input.select")) {
        const id = li.id.slice("select-".length);
        if (gone.has(id)) li.closest("li")!.remove();
      }
      for (const id of gone) selected.delete(id);
      shown -= gone.size;
      counted();
      if (selected.size) error.textContent = `${selected.size} could not be deleted: they were no longer there.`;
      else status.textContent = `Deleted ${gone.size === 1 ? "1 item" : `${gone.size} items`}.`;
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      deleteSelected.disabled = false;
      selectionChanged();
    }
  });
  clearSelection.addEventListener("click", () => {
    selected.clear();
    for (const c of grid.querySelectorAll<HTMLInputElement>("input.select")) c.checked = false;
    selectionChanged();
  });

  restart();
  return h(
    "section",
    { class: "library" },
    h("div", { class: "title-row" }, h("h1", {}, "Library"), count, h("a", { href: "#/upload", class: "button primary" }, "Add files")),
    h("div", { class: "kinds-row" }, kinds, kbToggle),
    h("div", { class: "filters" }, filter, search),
    selection,
    error,
    found,
    status,
    grid,
    moreRow,
  );
}
