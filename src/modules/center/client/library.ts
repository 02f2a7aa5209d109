// The library: the person's images as a grid of thumbnails, newest first, one page of the
// cursor at a time ("Show more"). Each image comes from the media edge, which answers WebP
// to a browser that accepts it; a private one is its owner's only, so it is fetched with the
// access token and shown as a blob: URL.
import { call, mediaBlobUrl } from "./api.ts";
import { inWords } from "./auth.ts";
import { bytes, h } from "./dom.ts";

interface Image {
  id: string;
  url: string;
  filename: string;
  size: number;
  width: number;
  height: number;
  is_public: boolean;
  tags: string[];
  created_at: string;
}

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

function tile(image: Image) {
  const img = h("img", { alt: image.filename, width: image.width, height: image.height, loading: "lazy", decoding: "async" });
  // A public image is loaded by its permanent URL, so the browser's cache keeps it.
  if (image.is_public) img.src = image.url;
  else {
    img.dataset.src = image.url;
    nearViewport.observe(img);
  }
  return h(
    "li",
    { class: "tile" },
    h(
      "figure",
      {},
      h("div", { class: "thumb" }, img),
      h(
        "figcaption",
        {},
        h("span", { class: "name" }, image.filename),
        h("span", { class: "meta" }, `${image.width}×${image.height} · ${bytes(image.size)}${image.is_public ? " · public" : ""}`),
      ),
    ),
  );
}

export function libraryScreen() {
  const grid = h("ul", { class: "grid", "aria-label": "Images" });
  const status = h("p", { class: "status", role: "status" });
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "Show more");
  const count = h("p", { class: "count" });
  let cursor: string | null = null;

  async function load() {
    more.disabled = true;
    status.textContent = "Loading…";
    try {
      const q = new URLSearchParams({ limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) });
      const page = await call<ImagePage>("GET", `/v1/images?${q}`);
      grid.append(...page.items.map(tile));
      cursor = page.nextCursor;
      more.hidden = !cursor;
      count.textContent = page.total === 1 ? "1 image" : `${page.total} images`;
      status.textContent = "";
      if (page.total === 0) {
        status.replaceChildren(h("span", {}, "No images yet. "), h("a", { href: "#/upload" }, "Add your first files"));
      }
    } catch (e) {
      status.textContent = inWords(e);
    } finally {
      more.disabled = false;
    }
  }
  more.addEventListener("click", load);
  void load();
  return h(
    "section",
    {},
    h("div", { class: "title-row" }, h("h1", {}, "Library"), count, h("a", { href: "#/upload", class: "button primary" }, "Add files")),
    status,
    grid,
    h("div", { class: "more" }, more),
  );
}
