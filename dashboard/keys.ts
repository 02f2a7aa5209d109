// API keys (#/keys): create one with a name and chosen scopes (the full key is in the
// creation's answer only, so it is shown then, once, with a copy button), list them by the
// cursor, revoke one after a confirmation (POST, GET, DELETE /v1/api-keys).
import { call } from "./api.ts";
import { inWords } from "./auth.ts";
import { copy, field, h, when } from "./dom.ts";
import { refreshUnread } from "./unread.ts";
import { pagedList, revocableItem } from "./paged.ts";

interface Key {
  id: string;
  name: string;
  last4: string;
  scopes: string[];
  lastUsedAt: string | null;
  createdAt: string;
}

/** The scopes (docs/api.md, "Authentication, scopes and limits"), each with what it allows; a new key gets all but media.delete unless told. */
const SCOPES: [name: string, allows: string, byDefault: boolean][] = [
  ["media.read", "List images, videos and audio; read their details", true],
  ["media.write", "Upload media; change titles and visibility", true],
  ["media.delete", "Permanently delete media", false],
  ["kb.read", "List knowledge bases; read their documents", true],
  ["kb.write", "Create, change and delete documents and knowledge bases", true],
  ["account.read", "Read your profile (e-mail, nickname, plan)", true],
  ["usage.read", "Read your quotas and usage", true],
];

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
  const keys = pagedList<Key>({ label: "API keys", path: "/v1/api-keys", empty: "No API keys yet.", item: keyItem });
  const slot = h("div", {});

  const error = h("p", { class: "error", role: "alert" });
  const create = h("button", { type: "submit", class: "primary" }, "Create key");
  const scopes = h(
    "fieldset",
    { class: "scopes" },
    h("legend", {}, "Scopes: what the key may do"),
    ...SCOPES.map(([name, allows, byDefault]) => {
      const id = `scope-${name.replace(".", "-")}`;
      return h(
        "div",
        { class: "check" },
        h("input", { id, type: "checkbox", name: "scope", value: name, checked: byDefault, "aria-describedby": `${id}-hint` }),
        h("label", { for: id }, name),
        h("span", { class: "hint", id: `${id}-hint` }, allows),
      );
    }),
  );
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
      const key = await call<Key & { key: string }>("POST", "/v1/api-keys", {
        name: String(d.get("name") ?? "").trim(),
        scopes: d.getAll("scope").map(String),
      });
      form.reset();
      keys.prepend(key);
      refreshUnread();
      const panel = createdPanel(key.name, key.key, () => {
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
