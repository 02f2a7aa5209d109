// The library: the person's images as a grid of thumbnails, newest first, one page of the
// cursor at a time ("Show more"). Each image comes from the media edge, which answers WebP
// to a browser that accepts it; a private one is its owner's only, so it is fetched with the
// access token and shown as a blob: URL.
import { call, mediaBlobUrl } from "./api.ts";
import { inWords } from "./auth.ts";
import { bytes, h } from "./dom.ts";
import { type Image, openImage } from "./image.ts";

interface ImagePage {
  items: Image[];
  nextCursor: string | null;
  total: number;
}

const PAGE_SIZE = 24;

// A private image is fetched with the token only once its tile nears the viewport (what
// loading="lazy" does for a public one), so a long library does not load at once.
const nearViewport = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const img = entry.target as HTMLImageElement;
      nearViewport.unobserve(img);
      mediaBlobUrl(img.dataset.src!)
        .then((src) => {
          img.src = src;
        })
        .catch(() => img.classList.add("broken"));
    }
  },
  { rootMargin: "400px" },
);

/** A tile; its name is the button that opens the image (a click on the picture does too). */
function tile(image: Image, open: (image: Image, img: HTMLImageElement, li: HTMLLIElement) => void) {
  const img = h("img", { alt: image.filename, width: image.width, height: image.height, loading: "lazy", decoding: "async" });
  // A public image is loaded by its permanent URL, so the browser's cache keeps it.
  if (image.is_public) img.src = image.url;
  else {
    img.dataset.src = image.url;
    nearViewport.observe(img);
  }
  const name = h("button", { type: "button", class: "name" }, image.filename);
  const thumb = h("div", { class: "thumb" }, img);
  const meta = `${image.width}×${image.height} · ${bytes(image.size)} · ${image.is_public ? "public" : "private"}`;
  const li = h("li", { class: "tile" }, h("figure", {}, thumb, h("figcaption", {}, name, h("span", { class: "meta" }, meta))));
  name.addEventListener("click", () => open(image, img, li));
  thumb.addEventListener("click", () => open(image, img, li));
  return li;
}

export function libraryScreen() {
  const grid = h("ul", { class: "grid", "aria-label": "Images" });
  const status = h("p", { class: "status", role: "status" });
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "Show more");
  const count = h("p", { class: "count" });
  let cursor: string | null = null;
  let total = 0;
  let tag = "";
  const counted = () => {
    count.textContent = total === 1 ? "1 image" : `${total} images`;
  };
  const open = (image: Image, img: HTMLImageElement, li: HTMLLIElement) =>
    openImage(image, img.src || undefined, {
      changed: (updated) => li.replaceWith(tile(updated, open)),
      deleted: () => {
        li.remove();
        total--;
        counted();
      },
    });

  async function load() {
    more.disabled = true;
    status.textContent = "Loading…";
    try {
      const q = new URLSearchParams({ limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}), ...(tag ? { tag } : {}) });
      const page = await call<ImagePage>("GET", `/v1/images?${q}`);
      grid.append(...page.items.map((i) => tile(i, open)));
      cursor = page.nextCursor;
      more.hidden = !cursor;
      total = page.total;
      counted();
      status.textContent = "";
      if (page.items.length === 0 && tag) status.textContent = `No images tagged “${tag}”.`;
      else if (page.total === 0) {
        status.replaceChildren(h("span", {}, "No images yet. "), h("a", { href: "#/upload" }, "Add your first files"));
      }
    } catch (e) {
      status.textContent = inWords(e);
    } finally {
      more.disabled = false;
    }
  }
  more.addEventListener("click", load);
  // The tag filter starts the list over from its first page.
  const tagInput = h("input", { id: "tag-filter", name: "tag", type: "search", autocomplete: "off" });
  const filter = h(
    "form",
    { class: "filter", role: "search" },
    h("label", { for: "tag-filter" }, "Filter by tag"),
    tagInput,
    h("button", { type: "submit", class: "secondary" }, "Filter"),
  );
  filter.addEventListener("submit", (ev) => {
    ev.preventDefault();
    tag = tagInput.value.trim();
    cursor = null;
    grid.replaceChildren();
    void load();
  });
  void load();
  return h(
    "section",
    {},
    h("div", { class: "title-row" }, h("h1", {}, "Library"), count, h("a", { href: "#/upload", class: "button primary" }, "Add files")),
    filter,
    status,
    grid,
    h("div", { class: "more" }, more),
  );
}
