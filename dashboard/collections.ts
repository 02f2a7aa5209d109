// Collections (#/collections): the person's albums, playlists and series, newest first, each
// with its cover and item count, and a form that creates one. A collection's page
// (#/collections/<id>) shows its items in order with their pictures: Move up and Move down
// put an item elsewhere (the whole new order sent at once, as the API takes it), Make cover
// chooses the cover, Remove takes an item out (the item stays in the library); its title
// and description are changed in a form, and Delete collection asks first. Items are added
// from an item's dialog in the library ("Add to collection", media-dialog.ts).
import { type Answer, call, mediaBlobUrl } from "./api.ts";
import { inWords } from "./auth.ts";
import { field, h } from "./dom.ts";
import { pagedList } from "./paged.ts";
import { tileQuery } from "./thumbs.ts";

type Collection = Answer<"/v1/collections/{id}", "get">;
type Entry = Answer<"/v1/collections/{id}/items", "get">["items"][number];
type Ref = { kind: Entry["kind"]; id: string };

const PAGE_SIZE = 50;
const KIND = { image: "Image", video: "Video", audio: "Audio" } as const;

const collectionHref = (id: string) => `#/collections/${id}`;

/**
 * A picture of the collection or of an item: fetched with the token (a private item's needs
 * it, and a public one's answers the same), at the size of a list's tile.
 */
function thumb(url: string | null | undefined, label: string): HTMLElement {
  const box = h("div", { class: "collection-thumb", "aria-hidden": "true" });
  if (!url) {
    box.append(h("span", { class: "placeholder" }, "▦"));
    return box;
  }
  const img = h("img", { alt: "", decoding: "async" });
  box.append(img);
  const sized = url.includes("?") ? url : `${url}${tileQuery(url)}`;
  void mediaBlobUrl(sized)
    .then((src) => {
      img.src = src;
    })
    .catch(() => {
      box.replaceChildren(h("span", { class: "placeholder", title: label }, "▦"));
    });
  return box;
}

const countWords = (n: number) => `${n} item${n === 1 ? "" : "s"}`;

function row(c: Collection) {
  return h(
    "li",
    { class: "collection-row" },
    thumb(c.cover?.thumbnailUrl, c.title),
    h(
      "div",
      { class: "collection-main" },
      h("a", { href: collectionHref(c.id), class: "collection-name" }, c.title),
      h("span", { class: "meta" }, countWords(c.itemCount)),
      c.description ? h("p", { class: "collection-description" }, c.description) : null,
    ),
  );
}

export function collectionsScreen() {
  const list = pagedList<Answer<"/v1/collections", "get">>({
    label: "Collections",
    path: "/v1/collections",
    params: () => ({ limit: String(PAGE_SIZE) }),
    listClass: "collection-list",
    empty: "No collections yet. Create one below, then add items to it from the library.",
    item: row,
    key: (c) => c.id,
  });
  const error = h("p", { class: "error", role: "alert" });
  const create = h("button", { type: "submit", class: "primary" }, "Create collection");
  const form = h(
    "form",
    { class: "card collection-form", "aria-labelledby": "collection-create-title", novalidate: true },
    h("h2", { id: "collection-create-title" }, "New collection"),
    field(
      "Title",
      { name: "title", required: true, maxlength: 120, autocomplete: "off" },
      "An album, a playlist, a series: any of your images, videos and audio.",
    ),
    field("Description", { name: "description", maxlength: 500, autocomplete: "off" }, "Optional."),
    error,
    create,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const data = new FormData(form);
    const title = String(data.get("title") ?? "").trim();
    const description = String(data.get("description") ?? "").trim();
    if (!title) {
      error.textContent = "Give the collection a title.";
      return;
    }
    create.disabled = true;
    try {
      const c = await call<Answer<"/v1/collections", "post", 201>>("POST", "/v1/collections", { title, ...(description ? { description } : {}) });
      list.prepend(c);
      form.reset();
      list.status.textContent = `Created “${c.title}”.`;
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      create.disabled = false;
    }
  });
  return h("section", { class: "collections" }, h("div", { class: "title-row" }, h("h1", {}, "Collections")), ...list.parts, form);
}

/** An item's name in words: an image's file name, a video's or audio file's title. */
function nameOf(e: Entry): string {
  const item = e.item as { filename?: string; title?: string };
  return ("title" in item && item.title) || item.filename || e.id;
}

function thumbnailOf(e: Entry): string | null {
  const item = e.item as { thumbnail_url?: string; thumbnailUrl?: string };
  return item.thumbnail_url ?? item.thumbnailUrl ?? null;
}

/** Every item of the collection, in order (all pages: a collection holds at most 1000). */
async function allItems(id: string): Promise<Entry[]> {
  const out: Entry[] = [];
  let cursor: string | null = null;
  do {
    const q: URLSearchParams = new URLSearchParams({ limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) });
    const page: Answer<"/v1/collections/{id}/items", "get"> = await call("GET", `/v1/collections/${id}/items?${q}`);
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

const refOf = (e: Entry): Ref => ({ kind: e.kind, id: e.id });

/** One collection: its facts and form, its items in order with their controls, and Delete. */
export function collectionScreen(id: string) {
  const heading = h("h1", {}, "Collection");
  const facts = h("p", { class: "meta" });
  const status = h("p", { class: "status", role: "status" }, "Loading…");
  const error = h("p", { class: "error", role: "alert" });
  const list = h("ol", { class: "collection-items", "aria-label": "Items in order" });
  const formError = h("p", { class: "error", role: "alert" });
  const save = h("button", { type: "submit", class: "primary" }, "Save changes");
  const title = h("input", { id: "collection-title", name: "title", required: true, maxlength: 120, autocomplete: "off" });
  const description = h("input", { id: "collection-description", name: "description", maxlength: 500, autocomplete: "off" });
  const form = h(
    "form",
    { class: "card collection-form", "aria-labelledby": "collection-edit-title", novalidate: true },
    h("h2", { id: "collection-edit-title" }, "Edit collection"),
    h("div", { class: "field" }, h("label", { for: "collection-title" }, "Title"), title),
    h("div", { class: "field" }, h("label", { for: "collection-description" }, "Description"), description),
    formError,
    save,
  );
  const remove = h("button", { type: "button", class: "danger" }, "Delete collection");
  let items: Entry[] = [];
  let collection: Collection | null = null;

  const showFacts = (c: Collection) => {
    collection = c;
    heading.textContent = c.title;
    document.title = `${c.title} · shelf`;
    facts.textContent = `${countWords(c.itemCount)}${c.description ? ` · ${c.description}` : ""}`;
  };

  /** Runs a change, then shows what the API holds; a refusal is said, and the list read again. */
  async function change(work: () => Promise<Collection>, said: string, focus?: () => HTMLElement | null | undefined) {
    error.textContent = "";
    try {
      showFacts(await work());
      items = await allItems(id);
      draw();
      status.textContent = said;
      focus?.()?.focus();
    } catch (e) {
      error.textContent = inWords(e);
      items = await allItems(id).catch(() => items);
      draw();
    }
  }

  const reorder = (from: number, to: number, name: string, which: "up" | "down") => {
    const order = items.map(refOf);
    const [moved] = order.splice(from, 1);
    order.splice(to, 0, moved!);
    void change(
      () => call<Collection>("PUT", `/v1/collections/${id}/order`, { items: order }),
      `Moved ${name} to place ${to + 1}.`,
      // The same button of the item at its new place keeps the focus, so it can move on.
      () => list.querySelector<HTMLButtonElement>(`[data-key="${CSS.escape(`${moved!.kind}:${moved!.id}`)}"] button.move-${which}:not(:disabled)`),
    );
  };

  function draw() {
    status.textContent = items.length ? "" : "No items yet. Open an item in the library and choose Add to collection.";
    list.replaceChildren(
      ...items.map((e, i) => {
        const name = nameOf(e);
        const isCover = collection?.cover?.kind === e.kind && collection.cover.id === e.id;
        const up = h("button", { type: "button", class: "secondary move-up", "aria-label": `Move ${name} up`, disabled: i === 0 }, "↑ Up");
        const down = h(
          "button",
          { type: "button", class: "secondary move-down", "aria-label": `Move ${name} down`, disabled: i === items.length - 1 },
          "↓ Down",
        );
        const cover = h(
          "button",
          { type: "button", class: "secondary", "aria-label": `Make cover: ${name}`, "aria-pressed": String(isCover && !!collection?.cover?.chosen) },
          isCover ? "Cover" : "Make cover",
        );
        const out = h("button", { type: "button", class: "secondary", "aria-label": `Remove ${name}` }, "Remove");
        up.addEventListener("click", () => reorder(i, i - 1, name, "up"));
        down.addEventListener("click", () => reorder(i, i + 1, name, "down"));
        cover.addEventListener("click", () => change(() => call<Collection>("PATCH", `/v1/collections/${id}`, { cover: refOf(e) }), `${name} is the cover.`));
        out.addEventListener("click", () =>
          change(
            async () => (await call<Answer<"/v1/collections/{id}/items", "delete">>("DELETE", `/v1/collections/${id}/items`, { items: [refOf(e)] })).collection,
            `Removed ${name} from the collection; it stays in the library.`,
            () => heading,
          ),
        );
        return h(
          "li",
          { class: "collection-item", "data-key": `${e.kind}:${e.id}` },
          thumb(thumbnailOf(e), name),
          h(
            "div",
            { class: "collection-main" },
            h("span", { class: "collection-name" }, name),
            h("span", { class: "meta" }, `${KIND[e.kind]} · place ${i + 1}${isCover ? " · cover" : ""}`),
          ),
          h("div", { class: "collection-controls" }, up, down, cover, out),
        );
      }),
    );
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    formError.textContent = "";
    if (!title.value.trim()) {
      formError.textContent = "Give the collection a title.";
      return;
    }
    save.disabled = true;
    try {
      showFacts(await call<Collection>("PATCH", `/v1/collections/${id}`, { title: title.value.trim(), description: description.value.trim() || null }));
      status.textContent = "Saved.";
    } catch (e) {
      formError.textContent = inWords(e);
    } finally {
      save.disabled = false;
    }
  });
  remove.addEventListener("click", async () => {
    if (!confirm(`Delete the collection ${collection?.title ?? ""}? Its items stay in the library.`)) return;
    try {
      await call("DELETE", `/v1/collections/${id}`);
      location.hash = "#/collections";
    } catch (e) {
      error.textContent = inWords(e);
    }
  });

  void (async () => {
    try {
      const c = await call<Collection>("GET", `/v1/collections/${id}`);
      showFacts(c);
      title.value = c.title;
      description.value = c.description ?? "";
      items = await allItems(id);
      draw();
    } catch (e) {
      status.textContent = "";
      error.textContent = inWords(e);
    }
  })();

  return h(
    "section",
    { class: "collection" },
    h("nav", { class: "crumbs", "aria-label": "Breadcrumb" }, h("ol", {}, h("li", {}, h("a", { href: "#/collections" }, "Collections")))),
    h("div", { class: "title-row" }, heading),
    facts,
    status,
    error,
    list,
    form,
    h("div", { class: "dialog-foot" }, remove),
  );
}

/**
 * "Add to collection" for an item of the library's dialog: the person's collections in a
 * list box (the first page), and Add. What happened is said beside it.
 */
export function addToCollection(ref: Ref): HTMLElement {
  const select = h("select", { id: "add-to-collection", name: "collection" }, h("option", { value: "" }, "Loading collections…"));
  const add = h("button", { type: "button", class: "secondary", disabled: true }, "Add");
  const said = h("p", { class: "status", role: "status" });
  void call<Answer<"/v1/collections", "get">>("GET", `/v1/collections?limit=${PAGE_SIZE}`)
    .then((page) => {
      select.replaceChildren(
        ...(page.items.length ? page.items.map((c) => h("option", { value: c.id }, c.title)) : [h("option", { value: "" }, "No collections yet")]),
      );
      add.disabled = page.items.length === 0;
    })
    .catch((e) => {
      said.textContent = inWords(e);
    });
  add.addEventListener("click", async () => {
    const chosen = select.selectedOptions[0];
    if (!select.value || !chosen) return;
    add.disabled = true;
    try {
      const r = await call<Answer<"/v1/collections/{id}/items", "post">>("POST", `/v1/collections/${select.value}/items`, { items: [ref] });
      said.textContent = r.added ? `Added to ${chosen.text}.` : `Already in ${chosen.text}.`;
    } catch (e) {
      said.textContent = inWords(e);
    } finally {
      add.disabled = false;
    }
  });
  return h(
    "div",
    { class: "field add-to-collection" },
    h("label", { for: "add-to-collection" }, "Add to collection"),
    h("div", { class: "row" }, select, add),
    said,
  );
}
