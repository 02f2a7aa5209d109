// The approval queue: OAuth clients registered by anyone (RFC 7591) wait as "pending" until
// an administrator approves or rejects them (GET/PATCH /v1/admin/oauth-clients). A pending
// client already works, its users warned it is unverified; rejecting revokes every grant it
// holds and is final, so it asks first. An app that registered again exactly as an earlier
// one (a test run, an app that lost its client_id) is marked as a copy of it, and the
// copies shown can be rejected at once.
import { type Answer, call, type Sent } from "./api.ts";
import { part } from "./admin-part.ts";
import { inWords } from "./auth.ts";
import { h } from "./dom.ts";
import { pagedList } from "./paged.ts";

type Clients = Answer<"/v1/admin/oauth-clients", "get">;
type Client = Clients["items"][number];
/** What an administrator may decide: a client leaves "pending" for good. */
type Decision = Sent<"/v1/admin/oauth-clients/{id}", "patch">["status"];

const SHOWN: [Client["status"], string][] = [
  ["pending", "Waiting for a decision"],
  ["approved", "Approved"],
  ["rejected", "Rejected"],
];

const GRANT_WORDS: Record<string, string> = {
  authorization_code: "sign-in in a browser",
  refresh_token: "staying signed in",
  "urn:ietf:params:oauth:grant-type:device_code": "sign-in with a code (devices)",
};

const at = (iso: string) => new Date(iso).toLocaleString();

/**
 * A line of the list; the buttons' names carry the client's name, so each is unique (a
 * copy's also say it is one, and when it registered, as its name is its original's).
 */
function clientItem(c: Client, decide: (c: Client, status: Decision) => void) {
  const copy = c.duplicateOf;
  const who = copy ? ` ${c.name}, the copy registered ${at(c.createdAt)}` : ` ${c.name}`;
  const named = (verb: string) => h("span", {}, verb, h("span", { class: "visually-hidden" }, who));
  const approve = c.status === "pending" ? h("button", { type: "button", class: "primary", onclick: () => decide(c, "approved") }, named("Approve")) : null;
  const reject = c.status !== "rejected" ? h("button", { type: "button", class: "danger", onclick: () => decide(c, "rejected") }, named("Reject")) : null;
  const when = c.decidedAt ? `decided ${at(c.decidedAt)}` : `registered ${at(c.createdAt)}`;
  return h(
    "li",
    { class: "admin-item", "data-client": c.id, "data-duplicate-of": copy?.id, "data-status": c.status },
    h("h3", {}, c.name),
    h("p", { class: "meta" }, `${c.id} · ${when}`),
    copy
      ? h(
          "p",
          { class: "meta duplicate" },
          `Same as ${c.name} registered ${at(copy.createdAt)} (${copy.id}, ${copy.status === "approved" ? "approved" : "waiting"}): the same name, return addresses and access.`,
        )
      : null,
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Scopes"),
      h("dd", {}, c.scopes.join(", ") || "none"),
      h("dt", {}, "Sign-in"),
      h("dd", {}, c.grantTypes.map((g) => GRANT_WORDS[g] ?? g).join(", ")),
      c.redirectUris.length ? h("dt", {}, "Returns to") : null,
      c.redirectUris.length ? h("dd", { class: "uris" }, c.redirectUris.join(", ")) : null,
    ),
    approve || reject ? h("div", { class: "admin-actions" }, approve, reject) : null,
  );
}

export function clientQueue() {
  const which = h("select", { id: "admin-client-status" }, ...SHOWN.map(([v, label]) => h("option", { value: v }, label)));
  const apps = pagedList<Clients>({
    label: "Registered apps",
    path: "/v1/admin/oauth-clients",
    params: () => ({ status: which.value }),
    empty: () => (which.value === "pending" ? "No apps are waiting for a decision." : `No ${which.value} apps.`),
    item: (c) => clientItem(c, decide),
    listClass: "admin-list",
    moreLabel: "Show more apps",
    onPage: () => countCopies(),
  });
  const { list, status, error } = apps;
  // Centred under the grid of cards (admin.css).
  apps.more.classList.add("more-apps");
  const copies = h("button", { type: "button", class: "danger", hidden: true, onclick: () => rejectCopies() });

  /** The copies listed that are still to be refused. */
  const shownCopies = () => [...list.querySelectorAll<HTMLElement>(":scope > [data-duplicate-of]:not([data-status=rejected])")];
  function countCopies() {
    const n = shownCopies().length;
    copies.hidden = n === 0;
    copies.textContent = n === 1 ? "Reject the 1 copy shown" : `Reject the ${n} copies shown`;
  }

  async function rejectCopies() {
    const shown = shownCopies();
    if (
      shown.length === 0 ||
      !confirm(
        `Reject ${shown.length} ${shown.length === 1 ? "app that repeats" : "apps that repeat"} an earlier registration? Anyone signed in through them is signed out, and they cannot be approved later.`,
      )
    )
      return;
    error.textContent = "";
    copies.disabled = true;
    let done = 0;
    try {
      for (const item of shown) {
        await call("PATCH", `/v1/admin/oauth-clients/${encodeURIComponent(item.dataset.client!)}`, { status: "rejected" satisfies Decision });
        item.remove();
        done++;
      }
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      copies.disabled = false;
      status.textContent = `${done} ${done === 1 ? "copy" : "copies"} rejected.`;
      countCopies();
      if (list.children.length === 0) apps.restart();
      which.focus();
    }
  }

  async function decide(c: Client, decision: Decision) {
    if (decision === "rejected" && !confirm(`Reject ${c.name}? Everyone signed in through it is signed out, and it cannot be approved later.`)) return;
    error.textContent = "";
    try {
      const done = await call<Answer<"/v1/admin/oauth-clients/{id}", "patch">>("PATCH", `/v1/admin/oauth-clients/${encodeURIComponent(c.id)}`, {
        status: decision,
      });
      status.textContent = `${done.name} ${decision === "approved" ? "is approved" : "is rejected"}.`;
      // It leaves this list (or, approved and still shown, changes its buttons).
      const item = list.querySelector(`[data-client="${CSS.escape(c.id)}"]`);
      // Focus goes where a keyboard user would go on: the app's own buttons, or the next app's.
      let next: Element | null | undefined;
      if (done.status === which.value) {
        next = clientItem(done, decide);
        item?.replaceWith(next);
      } else {
        next = item?.nextElementSibling ?? item?.previousElementSibling;
        item?.remove();
      }
      (next?.querySelector("button") ?? which).focus();
      countCopies();
    } catch (e) {
      error.textContent = inWords(e);
    }
  }

  which.addEventListener("change", () => {
    copies.hidden = true;
    apps.restart();
  });
  return part(
    "admin-clients",
    "App approval",
    h(
      "p",
      { class: "hint" },
      "Apps registered by anyone work at once, shown to their users as unverified until approved. Rejecting one signs out everyone using it.",
    ),
    h("div", { class: "filter" }, h("label", { for: "admin-client-status" }, "Show"), which, copies),
    error,
    status,
    list,
    apps.more,
  );
}
