// Admin (#/admin): for accounts with the admin flag only; the API refuses everyone else
// (403), and the screen says so politely instead of showing controls that would fail.
// Its parts, each through the admin API (docs/api.md): the accounts (admin-users.ts) and a
// user's plan, the plans (admin-plans.ts), the approval queue of registered OAuth clients
// (admin-clients.ts) and the scheduled jobs (admin-jobs.ts).
import { type Answer, call, currentUser } from "./api.ts";
import { clientQueue } from "./admin-clients.ts";
import { jobList } from "./admin-jobs.ts";
import { part } from "./admin-part.ts";
import { planTable } from "./admin-plans.ts";
import { type Account, accountList } from "./admin-users.ts";
import { inWords } from "./auth.ts";
import { h } from "./dom.ts";

// The plan names are the document's; their limits are the server's (PLAN_OVERRIDES).
const PLANS: [Account["plan"], string][] = [
  ["trial", "Trial"],
  ["pro", "Pro"],
  ["pro_plus", "Pro+"],
];
const planName = (plan: string) => PLANS.find(([v]) => v === plan)?.[1] ?? plan;

/**
 * Sets a user's plan by the account's id (PATCH /v1/admin/users/{id}); the answer is the
 * account as it now is. `fill` puts an account from the list into the form.
 */
function planForm() {
  const error = h("p", { class: "error", role: "alert" });
  const done = h("p", { class: "status done-note", role: "status" });
  const id = h("input", {
    id: "admin-user-id",
    name: "id",
    required: true,
    autocomplete: "off",
    spellcheck: "false",
    "aria-describedby": "admin-user-id-hint",
  });
  const plan = h("select", { id: "admin-plan", name: "plan" }, ...PLANS.map(([v, label]) => h("option", { value: v }, label)));
  const ends = h("input", { id: "admin-plan-ends", name: "ends", type: "date", "aria-describedby": "admin-plan-ends-hint" });
  const save = h("button", { type: "submit", class: "primary" }, "Change plan");
  const form = h(
    "form",
    { class: "admin-form", "aria-labelledby": "admin-users" },
    h(
      "div",
      { class: "field" },
      h("label", { for: "admin-user-id" }, "User ID"),
      id,
      h("p", { class: "hint", id: "admin-user-id-hint" }, "The account's id, as the API gives it (the id in GET /v1/user/me)."),
    ),
    h("div", { class: "field" }, h("label", { for: "admin-plan" }, "Plan"), plan),
    h(
      "div",
      { class: "field" },
      h("label", { for: "admin-plan-ends" }, "Plan ends"),
      ends,
      h("p", { class: "hint", id: "admin-plan-ends-hint" }, "Optional. Empty: the plan does not end."),
    ),
    error,
    h("div", { class: "admin-actions" }, save),
    done,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    done.textContent = "";
    if (!id.value.trim()) {
      error.textContent = "Enter the user's ID.";
      id.focus();
      return;
    }
    save.disabled = true;
    try {
      // A date means the end of that day, in UTC; none means no end.
      const planExpiresAt = ends.value ? `${ends.value}T23:59:59.000Z` : null;
      const user = await call<Answer<"/v1/admin/users/{id}", "patch">>("PATCH", `/v1/admin/users/${encodeURIComponent(id.value.trim())}`, {
        plan: plan.value,
        planExpiresAt,
      });
      const until = user.planExpiresAt ? ` until ${new Date(user.planExpiresAt).toLocaleDateString()}` : "";
      done.textContent = `${user.email} is now on ${planName(user.plan)}${until}.`;
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      save.disabled = false;
    }
  });
  const fill = (a: Account) => {
    id.value = a.id;
    plan.value = a.plan;
    ends.value = a.planExpiresAt ? a.planExpiresAt.slice(0, 10) : "";
    error.textContent = "";
    done.textContent = `Changing the plan of ${a.email}.`;
    plan.focus();
  };
  return { form, fill };
}

export function adminScreen() {
  if (!currentUser()?.isAdmin) {
    return h(
      "section",
      { class: "admin" },
      h("h1", {}, "Admins only"),
      h("p", {}, "This part of the dashboard is for the service's administrators. Your account is not one. "),
      h("p", {}, h("a", { href: "#/library" }, "Back to your library")),
    );
  }
  const plans = planForm();
  return h(
    "section",
    { class: "admin" },
    h("div", { class: "title-row" }, h("h1", {}, "Admin")),
    part("admin-users", "Users", h("p", { class: "hint" }, "Move an account to another plan. The change applies at once."), plans.form),
    accountList(planName, plans.fill),
    planTable(planName),
    clientQueue(),
    jobList(),
  );
}
