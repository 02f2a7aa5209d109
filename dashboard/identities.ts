// The Account screen's sign-in providers (GET /v1/user/me/identities): each identity at the
// instance's OpenID provider that signs in to this account, with its unlink button (DELETE
// .../:id). An account with no password keeps its last one: the API refuses, and says why.
import { type Answer, call } from "./api.ts";
import { inWords } from "./auth.ts";
import { h, when } from "./dom.ts";

type Identities = Answer<"/v1/user/me/identities", "get">;
type Identity = Identities["items"][number];

function identityRow(i: Identity, onGone: () => void): HTMLElement {
  const name = i.email ?? i.subject;
  const host = (() => {
    try {
      return new URL(i.issuer).host;
    } catch {
      return i.issuer;
    }
  })();
  const meta = [`Linked ${when(i.createdAt)}`, i.lastUsedAt ? `last used ${when(i.lastUsedAt)}` : null, `at ${host}`].filter(Boolean).join(" · ");
  const error = h("p", { class: "error", role: "alert" });
  const unlink = h("button", { type: "button", class: "danger", "aria-label": `Unlink ${name} at ${host}` }, "Unlink");
  const row = h("li", { class: "item card" }, h("div", { class: "item-main" }, h("h3", {}, name), h("p", { class: "meta" }, meta), error), unlink);
  unlink.addEventListener("click", async () => {
    if (!confirm(`Unlink ${name}? Signing in through ${host} will no longer open this account by it.`)) return;
    unlink.disabled = true;
    try {
      await call("DELETE", `/v1/user/me/identities/${encodeURIComponent(i.id)}`);
      row.remove();
      onGone();
    } catch (e) {
      error.textContent = inWords(e);
      unlink.disabled = false;
    }
  });
  return row;
}

export function identitiesCard(): HTMLElement {
  const list = h("ul", { class: "items", "aria-label": "Linked sign-in providers" });
  const error = h("p", { class: "error", role: "alert" });
  const empty = h("p", { class: "hint", hidden: true }, "No provider is linked to this account.");
  const section = h(
    "section",
    { class: "card settings", id: "identities", "aria-labelledby": "identities-title", hidden: true },
    h("h2", { id: "identities-title" }, "Sign-in providers"),
    h("p", { class: "hint" }, "Accounts at another service that sign in to this one."),
    list,
    empty,
    error,
  );
  const shown = () => {
    empty.hidden = list.childElementCount > 0;
  };
  call<Identities>("GET", "/v1/user/me/identities?limit=50")
    .then((page) => {
      list.replaceChildren(...page.items.map((i) => identityRow(i, shown)));
      // Shown to an account that has one: an instance without a provider has nothing to say here.
      section.hidden = page.items.length === 0;
      shown();
    })
    .catch((e) => {
      section.hidden = false;
      error.textContent = inWords(e);
    });
  return section;
}
