// Admin (#/admin): for accounts with the admin flag only; the API refuses everyone else
// (403), and the screen says so politely instead of showing controls that would fail.
// Four parts, each a page of its own behind the admin screen's tabs, each through the admin
// API (docs/api.md): the accounts, where a plan is changed by picking an account
// (admin-users.ts, #/admin), the plans (admin-plans.ts, #/admin/plans), the approval queue
// of registered OAuth clients (admin-clients.ts, #/admin/apps) and the scheduled jobs
// (admin-jobs.ts, #/admin/jobs).
import { currentUser } from "./api.ts";
import { clientQueue } from "./admin-clients.ts";
import { jobList } from "./admin-jobs.ts";
import { planTable } from "./admin-plans.ts";
import { accountList } from "./admin-users.ts";
import { h } from "./dom.ts";

export type AdminPart = "accounts" | "plans" | "apps" | "jobs";

const PARTS: { part: AdminPart; href: string; title: string; draw: () => HTMLElement }[] = [
  { part: "accounts", href: "#/admin", title: "Accounts", draw: accountList },
  { part: "plans", href: "#/admin/plans", title: "Plans", draw: planTable },
  { part: "apps", href: "#/admin/apps", title: "App approval", draw: clientQueue },
  { part: "jobs", href: "#/admin/jobs", title: "Jobs", draw: jobList },
];

export function adminScreen(part: AdminPart) {
  if (!currentUser()?.isAdmin) {
    return h(
      "section",
      { class: "admin" },
      h("h1", {}, "Admins only"),
      h("p", {}, "This part of the dashboard is for the service's administrators. Your account is not one. "),
      h("p", {}, h("a", { href: "#/library" }, "Back to your library")),
    );
  }
  const shown = PARTS.find((p) => p.part === part) ?? PARTS[0]!;
  const tabs = h(
    "nav",
    { class: "admin-tabs", "aria-label": "Admin" },
    h("ul", {}, ...PARTS.map((p) => h("li", {}, h("a", { href: p.href, "aria-current": p === shown ? "page" : undefined }, p.title)))),
  );
  return h("section", { class: "admin" }, h("div", { class: "title-row" }, h("h1", {}, "Admin")), tabs, shown.draw());
}
