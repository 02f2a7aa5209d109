// API keys (#/keys): create one with a name and chosen scopes (the full key is in the
// creation's answer only, so it is shown then, once, with a copy button), list them by the
// cursor, revoke one after a confirmation (POST, GET, DELETE /v1/api-keys).
import { type Answer, call } from "./api.ts";
import { inWords } from "./auth.ts";
import { copy, field, h, when } from "./dom.ts";
import { refreshUnread } from "./unread.ts";
import { pagedList, revocableItem } from "./paged.ts";

type Keys = Answer<"/v1/api-keys", "get">;
type Key = Keys["items"][number];

/** One checkbox per scope the API names, checked when a new key gets it unless told. */
function scopeChecks(fieldset: HTMLFieldSetElement, error: HTMLElement) {
  call<Answer<"/v1/api-keys/scopes", "get">>("GET", "/v1/api-keys/scopes")
    .then(({ scopes }) => {
      for (const s of scopes) {
        const id = `scope-${s.name.replace(".", "-")}`;
        fieldset.append(
          h(
            "div",
            { class: "check" },
            h("input", { id, type: "checkbox", name: "scope", value: s.name, checked: s.default, "aria-describedby": `${id}-hint` }),
            h("label", { for: id }, s.name),
            h("span", { class: "hint", id: `${id}-hint` }, s.description),
          ),
        );
      }
    })
    .catch((e) => {
      error.textContent = inWords(e);
    });
}

/** The key's shape as it is kept: its prefix and last four characters (docs/api.md, API keys). */
const keyHint = (last4: string) => `sk_live_…${last4}`;

function keyItem(key: Key, removed: (li: HTMLLIElement) => void) {
  return revocableItem({
    name: key.name,
    hint: h("code", { class: "key-hint" }, keyHint(key.last4)),
    scopes: key.scopes,
    meta: `Created ${when(key.createdAt)} · ${key.lastUsedAt ? `last used ${when(key.lastUsedAt)}` : "never used"}`,
    confirm: `Revoke the key “${key.name}”? Anything using it stops working at once. This cannot be undone.`,
    path: `/v1/api-keys/${key.id}`,
    removed,
  });
}

/** The new key, shown once: its full text, a copy button and the warning. */
function createdPanel(name: string, key: string, done: () => void) {
  const input = h("input", { id: "new-key", readonly: true, value: key, class: "mono" });
  const note = h("p", { class: "saved", role: "status" });
  const copyButton = h("button", { type: "button", class: "primary" }, "Copy key");
  copyButton.addEventListener("click", async () => {
    note.textContent = (await copy(input)) ? "Key copied." : "Select the key and copy it.";
  });
  const close = h("button", { type: "button", class: "secondary" }, "Done");
  close.addEventListener("click", done);
  return h(
    "section",
    { class: "card created", "aria-labelledby": "created-title" },
    h("h2", { id: "created-title" }, `Your new key “${name}”`),
    h("p", { class: "warning" }, "Copy it now: it will not be shown again. Keep it secret, as you would a password."),
    h("div", { class: "field" }, h("label", { for: "new-key" }, "API key"), h("div", { class: "row" }, input, copyButton)),
    note,
    close,
  );
}

export function keysScreen() {
  const keys = pagedList<Keys>({ label: "API keys", path: "/v1/api-keys", empty: "No API keys yet.", item: keyItem });
  const slot = h("div", {});

  const error = h("p", { class: "error", role: "alert" });
  const create = h("button", { type: "submit", class: "primary" }, "Create key");
  const scopes = h("fieldset", { class: "scopes" }, h("legend", {}, "Scopes: what the key may do"));
  scopeChecks(scopes, error);
  const form = h(
    "form",
    { class: "card settings-form", "aria-labelledby": "new-key-title", novalidate: true },
    h("h2", { id: "new-key-title" }, "New key"),
    field("Key name", { name: "name", required: true, maxlength: 100, autocomplete: "off" }, "Say where it is used, e.g. “backup script”."),
    scopes,
    error,
    h("div", { class: "actions" }, create),
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    create.disabled = true;
    const d = new FormData(form);
    try {
      const { key: secret, ...created } = await call<Answer<"/v1/api-keys", "post", 201>>("POST", "/v1/api-keys", {
        name: String(d.get("name") ?? "").trim(),
        scopes: d.getAll("scope").map(String),
      });
      form.reset();
      // The creation's answer has no lastUsedAt: a key just made has not been used.
      keys.prepend({ ...created, lastUsedAt: null });
      refreshUnread();
      const panel = createdPanel(created.name, secret, () => {
        panel.remove();
        form.querySelector("input")?.focus();
      });
      slot.replaceChildren(panel);
      panel.querySelector("input")?.focus();
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      create.disabled = false;
    }
  });
  return h(
    "section",
    { class: "narrow" },
    h("div", { class: "title-row" }, h("h1", {}, "API keys")),
    h("p", { class: "lead" }, "Keys let scripts and apps use your account through the API. Give each its own key and only the scopes it needs."),
    slot,
    form,
    h("h2", { class: "list-title" }, "Your keys"),
    ...keys.parts,
  );
}
