// The Account screen's "Passkeys" card: add a passkey with a name (the browser's own dialog,
// through @simplewebauthn/browser), the list with each one's kind, when it was added and
// last used, renaming, and removing one with the password. The first passkey of an account
// without an authenticator app brings recovery codes, shown once as the two-factor card does.
import { browserSupportsWebAuthn, startRegistration } from "@simplewebauthn/browser";
import { type Answer, call } from "./api.ts";
import { inWords } from "./auth.ts";
import { field, h, when } from "./dom.ts";
import { recoveryCodesView } from "./two-factor.ts";
import { refreshUnread } from "./unread.ts";

type Page = Answer<"/v1/user/me/passkeys", "get">;
type Passkey = Page["items"][number];

/** The browser's refusal (the dialog cancelled, no authenticator) in words. */
function passkeyWords(e: unknown): string {
  if (e instanceof Error && (e.name === "NotAllowedError" || e.name === "AbortError")) return "The passkey dialog was closed before it finished.";
  if (e instanceof Error && e.name === "InvalidStateError") return "This device already holds a passkey of this account.";
  if (e instanceof Error && !("status" in e)) return `The browser could not use a passkey: ${e.message}`;
  return inWords(e);
}

function passkeyRow(p: Passkey, reload: () => Promise<void>): HTMLElement {
  const error = h("p", { class: "error", role: "alert" });
  const kind = p.deviceType === "multiDevice" ? (p.backedUp ? "Synced passkey" : "Syncable passkey") : "Passkey of one device";
  const meta = [kind, `added ${when(p.createdAt)}`, p.lastUsedAt ? `last used ${when(p.lastUsedAt)}` : "not used yet"].join(" · ");
  const actions = h("div", { class: "item-actions" });
  const main = h("div", { class: "item-main" }, h("h3", {}, p.name), h("p", { class: "meta" }, meta), error);
  const row = h("li", { class: "item card passkey" }, main, actions);

  const rename = h("button", { type: "button", class: "secondary", "aria-label": `Rename passkey ${p.name}` }, "Rename");
  const remove = h("button", { type: "button", class: "danger", "aria-label": `Remove passkey ${p.name}` }, "Remove");
  actions.append(rename, remove);

  /** A small form in the row, instead of its buttons until it is done or cancelled. */
  const inline = (label: string, input: HTMLElement, submit: string, act: (d: FormData) => Promise<void>) => {
    const cancel = h("button", { type: "button", class: "secondary" }, "Cancel");
    const form = h(
      "form",
      { class: "settings-form inline", "aria-label": label, novalidate: true },
      input,
      h("div", { class: "actions" }, h("button", { type: "submit", class: "primary" }, submit), cancel),
    );
    cancel.addEventListener("click", () => {
      form.remove();
      actions.hidden = false;
    });
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      error.textContent = "";
      try {
        await act(new FormData(form));
        await reload();
      } catch (e) {
        error.textContent = inWords(e);
      }
    });
    actions.hidden = true;
    main.append(form);
    form.querySelector("input")?.focus();
  };

  rename.addEventListener("click", () =>
    inline(
      "Rename the passkey",
      field("New name", { name: "name", value: p.name, required: true, maxlength: 64, autocomplete: "off" }),
      "Save name",
      async (d) => {
        await call("PATCH", `/v1/user/me/passkeys/${encodeURIComponent(p.id)}`, { name: String(d.get("name")).trim() });
      },
    ),
  );
  remove.addEventListener("click", () =>
    inline(
      "Remove the passkey",
      field("Your password, to remove it", { name: "password", type: "password", autocomplete: "current-password", required: true }),
      "Remove passkey",
      async (d) => {
        await call("DELETE", `/v1/user/me/passkeys/${encodeURIComponent(p.id)}`, { password: String(d.get("password")) });
        refreshUnread();
      },
    ),
  );
  return row;
}

export function passkeysCard(): HTMLElement {
  const list = h("ul", { class: "items", "aria-label": "Passkeys" });
  const empty = h("p", { class: "hint" }, "No passkeys yet.");
  const error = h("p", { class: "error", role: "alert" });
  const status = h("p", { class: "saved", role: "status" });
  const extra = h("div", {});
  const load = async () => {
    try {
      const page = await call<Page>("GET", "/v1/user/me/passkeys?limit=50");
      list.replaceChildren(...page.items.map((p) => passkeyRow(p, load)));
      empty.hidden = page.items.length > 0;
    } catch (e) {
      error.textContent = inWords(e);
    }
  };

  const name = field("Name of the new passkey", { name: "passkeyName", required: true, maxlength: 64, autocomplete: "off", placeholder: "Laptop" });
  const add = h("button", { type: "submit", class: "primary" }, "Add a passkey");
  const form = h("form", { class: "settings-form", "aria-label": "Add a passkey", novalidate: true }, name, h("div", { class: "actions" }, add));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    status.textContent = "";
    const label = String(new FormData(form).get("passkeyName") ?? "").trim();
    if (!label) {
      error.textContent = "Give the passkey a name, so you can tell it from others.";
      return;
    }
    add.disabled = true;
    try {
      const { options } = await call<Answer<"/v1/user/me/passkeys/options", "post">>("POST", "/v1/user/me/passkeys/options");
      const response = await startRegistration({ optionsJSON: options as never });
      const added = await call<Answer<"/v1/user/me/passkeys", "post", 201>>("POST", "/v1/user/me/passkeys", { name: label, response });
      form.reset();
      status.textContent = `Passkey "${added.passkey.name}" added. Signing in now asks for a passkey after the password, or a passkey alone signs in.`;
      if (added.recoveryCodes) extra.replaceChildren(recoveryCodesView(added.recoveryCodes, () => extra.replaceChildren()));
      refreshUnread();
      await load();
    } catch (e) {
      error.textContent = passkeyWords(e);
    } finally {
      add.disabled = false;
    }
  });
  if (!browserSupportsWebAuthn()) {
    add.disabled = true;
    error.textContent = "This browser cannot use passkeys.";
  }
  void load();
  return h(
    "section",
    { class: "card settings", id: "passkeys", "aria-labelledby": "passkeys-title" },
    h("h2", { id: "passkeys-title" }, "Passkeys"),
    h(
      "p",
      { class: "hint" },
      "A passkey signs you in with your device's screen lock or a security key instead of the password, and is asked for after the password as a second step.",
    ),
    list,
    empty,
    form,
    error,
    status,
    extra,
  );
}
