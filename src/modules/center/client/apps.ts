// Authorized apps (#/apps): the live OAuth grants (GET /v1/user/me/oauth-grants), whether
// given on the consent page or by approving a device's code, each with Revoke (DELETE,
// after a confirmation): every token of the grant is refused from then on.
import { call } from "./api.ts";
import { inWords } from "./auth.ts";
import { h, when } from "./dom.ts";
import { refreshUnread } from "./notifications.ts";
import { pagedList } from "./paged.ts";

interface Grant {
  id: string;
  clientId: string;
  clientName: string;
  scopes: string[];
  createdAt: string;
}

function grantItem(grant: Grant, revoked: (li: HTMLLIElement) => void) {
  const error = h("p", { class: "error", role: "alert" });
  const revoke = h("button", { type: "button", class: "danger", "aria-label": `Revoke ${grant.clientName}` }, "Revoke");
  const li = h(
    "li",
    { class: "item card" },
    h(
      "div",
      { class: "item-main" },
      h("h3", {}, grant.clientName),
      h("ul", { class: "chips", "aria-label": `Scopes of ${grant.clientName}` }, ...grant.scopes.map((s) => h("li", {}, s))),
      h("p", { class: "meta" }, `Authorized ${when(grant.createdAt)} · client ${grant.clientId}`),
      error,
    ),
    revoke,
  );
  revoke.addEventListener("click", async () => {
    if (!confirm(`Revoke ${grant.clientName}? It is signed out at once and must be authorized again to use your account.`)) return;
    revoke.disabled = true;
    try {
      await call("DELETE", `/v1/user/me/oauth-grants/${grant.id}`);
      refreshUnread();
      revoked(li);
    } catch (e) {
      error.textContent = inWords(e);
      revoke.disabled = false;
    }
  });
  return li;
}

export function appsScreen() {
  const grants = pagedList<Grant>({
    label: "Authorized apps",
    path: "/v1/user/me/oauth-grants",
    empty: "No apps or devices are signed in to your account.",
    item: grantItem,
  });
  const device = `${document.body.dataset.api ?? location.origin}/device`;
  return h(
    "section",
    { class: "narrow" },
    h("div", { class: "title-row" }, h("h1", {}, "Authorized apps")),
    h(
      "p",
      { class: "lead" },
      "Apps and devices you let use your account, from an app's consent page or by entering a device's code. Revoke one you no longer use. A device shows you a code to ",
      h("a", { href: device }, "enter on the device page"),
      ".",
    ),
    ...grants.parts,
  );
}
