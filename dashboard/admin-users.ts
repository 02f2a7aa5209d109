// The accounts (GET /v1/admin/users): newest first, a page at a time, narrowed by e-mail;
// each with its plan and its state. A plan is changed from the account: "Change plan" opens
// a dialog with the plan and when it ends (PATCH /v1/admin/users/{id}), and the account's
// card shows the answer.
import { type Answer, call } from "./api.ts";
import { part } from "./admin-part.ts";
import { inWords } from "./auth.ts";
import { h, when } from "./dom.ts";
import { pagedList } from "./paged.ts";
import { PLANS, planName } from "./plans.ts";

type Accounts = Answer<"/v1/admin/users", "get">;
type Account = Accounts["items"][number];
type Changed = Answer<"/v1/admin/users/{id}", "patch">;

const planState = (a: Pick<Account, "plan" | "planActive" | "planExpiresAt">) =>
  `${planName(a.plan)} (${!a.planActive ? "ended" : a.planExpiresAt ? `until ${new Date(a.planExpiresAt).toLocaleDateString()}` : "no end"})`;

/**
 * The plan of `a` in a modal dialog: the plan and an optional last day. `done` gets the
 * account as the API then has it; the dialog closes itself, and focus returns to `from`.
 */
function planDialog(a: Account, from: HTMLElement, done: (changed: Changed) => void) {
  const error = h("p", { class: "error", role: "alert" });
  const plan = h("select", { id: "plan-choice", name: "plan" }, ...PLANS.map(([v, label]) => h("option", { value: v, selected: v === a.plan }, label)));
  const ends = h("input", {
    id: "plan-ends",
    name: "ends",
    type: "date",
    value: a.planExpiresAt ? a.planExpiresAt.slice(0, 10) : "",
    "aria-describedby": "plan-ends-hint",
  });
  const save = h("button", { type: "submit", class: "primary" }, "Save plan");
  const cancel = h("button", { type: "button", class: "secondary" }, "Cancel");
  const form = h(
    "form",
    { class: "image-form" },
    h("div", { class: "field" }, h("label", { for: "plan-choice" }, "Plan"), plan),
    h(
      "div",
      { class: "field" },
      h("label", { for: "plan-ends" }, "Plan ends"),
      ends,
      h("p", { class: "hint", id: "plan-ends-hint" }, "Optional: the plan's last day (UTC). Empty: the plan does not end."),
    ),
    error,
    h("div", { class: "admin-actions" }, save, cancel),
  );
  const dialog = h(
    "dialog",
    { class: "image-dialog plan-dialog", "aria-labelledby": "plan-dialog-title", "aria-describedby": "plan-dialog-now" },
    h("h2", { id: "plan-dialog-title" }, `Plan of ${a.email}`),
    h("p", { class: "hint", id: "plan-dialog-now" }, `Now: ${planState(a)}. The change applies at once.`),
    form,
  );
  const close = () => dialog.close();
  cancel.addEventListener("click", close);
  dialog.addEventListener("close", () => {
    dialog.remove();
    from.focus();
  });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    save.disabled = true;
    try {
      // A date means the end of that day, in UTC; none means no end.
      const planExpiresAt = ends.value ? `${ends.value}T23:59:59.000Z` : null;
      const changed = await call<Changed>("PATCH", `/v1/admin/users/${encodeURIComponent(a.id)}`, { plan: plan.value, planExpiresAt });
      // Closed first (the focus goes back to the button), then the card is redrawn with the answer.
      close();
      done(changed);
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      save.disabled = false;
    }
  });
  document.body.append(dialog);
  dialog.showModal();
  plan.focus();
}

function accountItem(a: Account, changed: (a: Account, li: HTMLLIElement) => void) {
  const change = h("button", { type: "button", class: "secondary" }, "Change plan", h("span", { class: "visually-hidden" }, ` of ${a.email}`));
  const li = h(
    "li",
    { class: "admin-item", "data-user": a.id },
    h("h3", {}, a.email, a.isAdmin ? h("span", { class: "outcome good admin-flag" }, "admin") : null),
    a.nickname ? h("p", { class: "meta" }, a.nickname) : null,
    h("dl", { class: "facts" }, h("dt", {}, "Plan"), h("dd", {}, planState(a)), h("dt", {}, "Joined"), h("dd", {}, when(a.createdAt))),
    h("div", { class: "admin-actions" }, change),
  );
  change.addEventListener("click", () => planDialog(a, change, (now) => changed({ ...a, ...now }, li)));
  return li;
}

/** The accounts with their search; each changes its plan from its own card. */
export function accountList() {
  const search = h("input", { id: "admin-user-search", type: "search", name: "email", autocomplete: "off", spellcheck: "false" });
  const done = h("p", { class: "status done-note", role: "status" });
  const changed = (a: Account, li: HTMLLIElement) => {
    const again = accountItem(a, changed);
    li.replaceWith(again);
    // The button pressed was replaced: its successor keeps the focus.
    again.querySelector("button")?.focus();
    const until = a.planExpiresAt ? ` until ${new Date(a.planExpiresAt).toLocaleDateString()}` : "";
    done.textContent = `${a.email} is now on ${planName(a.plan)}${until}.`;
  };
  const accounts = pagedList<Accounts>({
    label: "Accounts",
    path: "/v1/admin/users",
    params: (): Record<string, string> => (search.value.trim() ? { email: search.value.trim() } : {}),
    empty: () => `No account's e-mail contains “${search.value.trim()}”.`,
    item: (a) => accountItem(a, changed),
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
    done.textContent = "";
    accounts.restart();
  });
  return part(
    "admin-accounts",
    "Accounts",
    h("p", { class: "hint" }, "Every account on this server, newest first. Pick one to change its plan."),
    form,
    done,
    accounts.error,
    accounts.status,
    accounts.list,
    accounts.more,
  );
}
