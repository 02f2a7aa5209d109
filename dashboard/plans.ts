// The plans by the names a person reads: the API's names are the document's (trial, pro,
// pro_plus); their limits are the server's (GET /v1/admin/plans, PLAN_OVERRIDES).
import type { Answer } from "./api.ts";

type PlanName = Answer<"/v1/admin/users", "get">["items"][number]["plan"];

export const PLANS: [PlanName, string][] = [
  ["trial", "Trial"],
  ["pro", "Pro"],
  ["pro_plus", "Pro+"],
];

/** A plan's name in words; one the page does not know (or "none") as the API gives it. */
export const planName = (plan: string) => (plan === "none" ? "No plan" : (PLANS.find(([v]) => v === plan)?.[1] ?? plan));
