// Authorized apps (#/apps): the live OAuth grants (GET /v1/user/me/oauth-grants), whether
// given on the consent page or by approving a device's code, each with Revoke (DELETE,
// after a confirmation): every token of the grant is refused from then on.
import type { Answer } from "./api.ts";
import { h, when } from "./dom.ts";
import { pagedList, revocableItem } from "./paged.ts";

type Grants = Answer<"/v1/user/me/oauth-grants", "get">;
type Grant = Grants["items"][number];

function grantItem(grant: Grant, removed: (li: HTMLLIElement) => void) {
  return revocableItem({
    name: grant.clientName,
    // Unverified: no administrator has approved the app, so its name is its developer's word.
    hint: grant.unverified
      ? h(
          "p",
          { class: "warning", role: "note" },
          "Unverified app: no administrator has reviewed it, and its name may imitate another app's. Revoke it if you do not know it.",
        )
      : undefined,
    scopes: grant.scopes,
    meta: `Authorized ${when(grant.createdAt)} · client ${grant.clientId}`,
    confirm: `Revoke ${grant.clientName}? It is signed out at once and must be authorized again to use your account.`,
    path: `/v1/user/me/oauth-grants/${grant.id}`,
    removed,
  });
}

export function appsScreen() {
  const grants = pagedList<Grants>({
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
