// The accounts (GET /v1/admin/users): newest first, a page at a time, narrowed by e-mail;
// each with its plan, state and "Edit plan", which fills the plan form (admin.ts) with the
// account and takes the person there.
import type { Answer } from "./api.ts";
import { part } from "./admin-part.ts";
import { h, when } from "./dom.ts";
import { pagedList } from "./paged.ts";

type Accounts = Answer<"/v1/admin/users", "get">;
export type Account = Accounts["items"][number];

function accountItem(a: Account, planName: (plan: string) => string, choose: (a: Account) => void) {
  const change = h("button", { type: "button", class: "secondary" }, "Edit plan", h("span", { class: "visually-hidden" }, ` of ${a.email}`));
  change.addEventListener("click", () => choose(a));
  const state = !a.planActive ? "ended" : a.planExpiresAt ? `until ${new Date(a.planExpiresAt).toLocaleDateString()}` : "no end";
  return h(
    "li",
    { class: "admin-item", "data-user": a.id },
    h("h3", {}, a.email, a.isAdmin ? h("span", { class: "outcome good admin-flag" }, "admin") : null),
    a.nickname ? h("p", { class: "meta" }, a.nickname) : null,
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Plan"),
      h("dd", {}, `${planName(a.plan)} (${state})`),
      h("dt", {}, "Joined"),
      h("dd", {}, when(a.createdAt)),
      h("dt", {}, "ID"),
      h("dd", {}, h("code", {}, a.id)),
    ),
    h("div", { class: "admin-actions" }, change),
  );
}

/** The list of accounts with its search; `choose` is what "Edit plan" does with one. */
export function accountList(planName: (plan: string) => string, choose: (a: Account) => void) {
  const search = h("input", { id: "admin-user-search", type: "search", name: "email", autocomplete: "off", spellcheck: "false" });
  const accounts = pagedList<Accounts>({
    label: "Accounts",
    path: "/v1/admin/users",
    params: (): Record<string, string> => (search.value.trim() ? { email: search.value.trim() } : {}),
    empty: () => `No account's e-mail contains “${search.value.trim()}”.`,
    item: (a) => accountItem(a, planName, choose),
    listClass: "admin-list",
    moreLabel: "Show more accounts",
  });
  // Centred under the grid of cards (admin.css).
  accounts.more.classList.add("more-apps");
  const form = h(
    "form",
    { class: "filter admin-search", role: "search", "aria-label": "Accounts" },
    h("label", { for: "admin-user-search" }, "Find by e-mail"),
    search,
    h("button", { type: "submit", class: "secondary" }, "Find"),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    accounts.restart();
  });
  return part("admin-accounts", "Accounts", h("div", { class: "admin-accounts" }, form, accounts.error, accounts.status, accounts.list, accounts.more));
}
