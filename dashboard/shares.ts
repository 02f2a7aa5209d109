// Share links: the "Share" part of an item's dialog and of a KB folder (make a link to it,
// with an optional expiry and password, and copy it) and the Share links screen (#/shares:
// every link, its page, views and state; revoke one). POST, GET and DELETE /v1/shares.
import { type Answer, call } from "./api.ts";
import { inWords } from "./auth.ts";
import { copy, h, when } from "./dom.ts";
import { pagedList } from "./paged.ts";

type Shares = Answer<"/v1/shares", "get">;
type Share = Shares["items"][number];
type NewShare = Answer<"/v1/shares", "post", 201>;

const TARGET_WORDS: Record<Share["target"]["kind"], string> = {
  image: "Image",
  video: "Video",
  audio: "Audio",
  document: "Document",
  kb: "Knowledge base",
};

/** A link's URL with its copy button, labelled `label`. */
export function linkField(id: string, label: string, url: string) {
  const input = h("input", { id, readonly: true, value: url, class: "mono" });
  const note = h("p", { class: "status", role: "status" });
  const button = h("button", { type: "button", class: "secondary", "aria-label": `Copy ${label.toLowerCase()}` }, "Copy");
  button.addEventListener("click", async () => {
    note.textContent = (await copy(input)) ? "Link copied." : "Select the link and copy it.";
  });
  return h("div", { class: "field" }, h("label", { for: id }, label), h("div", { class: "row" }, input, button), note);
}

/** What a link opens, as POST /v1/shares names it. */
type Target = { kind: Share["target"]["kind"]; id: string; path?: string };

/** The "Share" part of an item's dialog or a KB folder: a form that makes a link, then the link to copy. */
export function sharePanel(target: Target, what = "this item"): HTMLElement {
  const error = h("p", { class: "error", role: "alert" });
  const made = h("div", {});
  const expires = h("input", { id: "share-expires", name: "expires", type: "datetime-local", "aria-describedby": "share-expires-hint" });
  const password = h("input", { id: "share-password", name: "password", type: "password", autocomplete: "new-password", maxlength: 256 });
  const create = h("button", { type: "submit", class: "secondary" }, "Create share link");
  const form = h(
    "form",
    { class: "share-form", "aria-labelledby": "share-title" },
    h("h3", { id: "share-title" }, "Share link"),
    h("p", { class: "hint" }, `Anyone with the link can see ${what}, even while it is private.`),
    h(
      "div",
      { class: "field" },
      h("label", { for: "share-expires" }, "Expires (optional)"),
      expires,
      h("p", { class: "hint", id: "share-expires-hint" }, "Leave empty for a link that lasts until you revoke it."),
    ),
    h("div", { class: "field" }, h("label", { for: "share-password" }, "Password (optional)"), password),
    error,
    create,
    made,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    create.disabled = true;
    try {
      const share = await call<NewShare>("POST", "/v1/shares", {
        target,
        ...(expires.value ? { expiresAt: new Date(expires.value).toISOString() } : {}),
        ...(password.value ? { password: password.value } : {}),
      });
      password.value = "";
      made.replaceChildren(
        linkField("share-url", "Share link", share.url),
        h("p", { class: "hint" }, "Your links, their views and Revoke: ", h("a", { href: "#/shares" }, "Share links"), "."),
      );
      made.querySelector("input")?.focus();
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      create.disabled = false;
    }
  });
  return form;
}

/** What a link's line says: its views, expiry, password and state. */
function facts(s: Share): string {
  const parts = [`Created ${when(s.createdAt)}`, `${s.viewCount} ${s.viewCount === 1 ? "view" : "views"}`];
  if (s.revokedAt) parts.push(`revoked ${when(s.revokedAt)}`);
  else if (s.expiresAt) parts.push(`${s.active ? "expires" : "expired"} ${when(s.expiresAt)}`);
  if (s.hasPassword) parts.push("password");
  return parts.join(" · ");
}

function shareItem(s: Share): HTMLLIElement {
  const name = `${TARGET_WORDS[s.target.kind]} ${s.target.path ? `${s.target.id} / ${s.target.path}` : s.target.id}`;
  const error = h("p", { class: "error", role: "alert" });
  const meta = h("p", { class: "meta" }, facts(s));
  const state = h("p", { class: "meta" }, s.active ? "" : s.revokedAt ? "Revoked" : "Expired");
  const revoke = s.active ? h("button", { type: "button", class: "danger", "aria-label": `Revoke the link to ${name}` }, "Revoke") : null;
  const li = h(
    "li",
    { class: "item card" },
    h("div", { class: "item-main" }, h("h3", {}, name), h("p", {}, h("a", { href: s.url, rel: "noopener", target: "_blank" }, s.url)), meta, state, error),
    revoke,
  );
  revoke?.addEventListener("click", async () => {
    if (!confirm("Revoke this link? Its page and media stop working at once. This cannot be undone.")) return;
    revoke.disabled = true;
    try {
      await call("DELETE", `/v1/shares/${s.id}`);
      const now = new Date().toISOString();
      meta.textContent = facts({ ...s, active: false, revokedAt: now });
      state.textContent = "Revoked";
      revoke.remove();
    } catch (e) {
      error.textContent = inWords(e);
      revoke.disabled = false;
    }
  });
  return li;
}

export function sharesScreen() {
  const shares = pagedList<Shares>({
    label: "Share links",
    path: "/v1/shares",
    empty: "No share links yet. Open an item in the library and make one.",
    item: shareItem,
  });
  return h(
    "section",
    { class: "narrow" },
    h("div", { class: "title-row" }, h("h1", {}, "Share links")),
    h("p", { class: "lead" }, "Each link shows one item to anyone who has it, without an account. Revoke a link to close it at once."),
    ...shares.parts,
  );
}
