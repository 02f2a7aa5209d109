// Published KBs: the "Publish" part of a KB or a KB folder (publish it as a read-only site,
// its URL to copy, and Unpublish). POST, GET and DELETE /v1/published-pages.
import { type Answer, call } from "./api.ts";
import { inWords } from "./auth.ts";
import { h } from "./dom.ts";
import { linkField } from "./shares.ts";

type Sites = Answer<"/v1/published-pages", "get">;
type Site = Sites["items"][number];
type NewSite = Answer<"/v1/published-pages", "post", 201>;

/** The caller's sites of this KB folder: one page of the newest is enough to find them. */
async function sitesOf(kbId: string, path: string): Promise<Site[]> {
  const page = await call<Sites>("GET", "/v1/published-pages?limit=50");
  return page.items.filter((s) => s.kbId === kbId && s.path === path);
}

/** A published site: its URL to copy and open, and Unpublish. */
function siteRow(site: Site, gone: () => void): HTMLElement {
  const error = h("p", { class: "error", role: "alert" });
  const unpublish = h("button", { type: "button", class: "danger", "aria-label": `Unpublish ${site.url}` }, "Unpublish");
  unpublish.addEventListener("click", async () => {
    if (!confirm("Unpublish this site? Its pages stop working at once.")) return;
    unpublish.disabled = true;
    try {
      await call("DELETE", `/v1/published-pages/${site.id}`);
      gone();
    } catch (e) {
      error.textContent = inWords(e);
      unpublish.disabled = false;
    }
  });
  return h(
    "div",
    { class: "published-site" },
    linkField(`site-${site.id}`, "Published site", site.url),
    h("p", {}, h("a", { href: site.url, rel: "noopener", target: "_blank" }, "Open the site")),
    unpublish,
    error,
  );
}

/** The "Publish" part of a KB (path "") or a folder of it. */
export function publishPanel(kbId: string, path: string, what: string): HTMLElement {
  const error = h("p", { class: "error", role: "alert" });
  const status = h("p", { class: "status", role: "status" });
  const list = h("div", {});
  const slug = h("input", {
    id: "publish-slug",
    name: "slug",
    pattern: "[a-z0-9]([a-z0-9\\-]{0,61}[a-z0-9])?",
    "aria-describedby": "publish-slug-hint",
    autocomplete: "off",
  });
  const publish = h("button", { type: "submit", class: "secondary" }, "Publish");
  const show = (sites: Site[]) =>
    list.replaceChildren(
      ...sites.map((s) =>
        siteRow(s, () => {
          status.textContent = "Unpublished.";
          void refresh();
        }),
      ),
    );
  const refresh = async () => {
    try {
      show(await sitesOf(kbId, path));
    } catch (e) {
      error.textContent = inWords(e);
    }
  };
  const form = h(
    "form",
    { class: "publish-form", "aria-labelledby": "publish-title" },
    h("h3", { id: "publish-title" }, "Published site"),
    h("p", { class: "hint" }, `Anyone can read ${what} as a website, kept up to date as it syncs.`),
    list,
    h(
      "div",
      { class: "field" },
      h("label", { for: "publish-slug" }, "Site name in the address (optional)"),
      slug,
      h("p", { class: "hint", id: "publish-slug-hint" }, "Lower case letters, digits and hyphens. Leave empty to use the knowledge base's."),
    ),
    error,
    status,
    publish,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    status.textContent = "";
    publish.disabled = true;
    try {
      await call<NewSite>("POST", "/v1/published-pages", { kbId, ...(path ? { path } : {}), ...(slug.value ? { slug: slug.value } : {}) });
      slug.value = "";
      await refresh();
      status.textContent = "Published.";
      list.querySelector("input")?.focus();
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      publish.disabled = false;
    }
  });
  void refresh();
  return form;
}
