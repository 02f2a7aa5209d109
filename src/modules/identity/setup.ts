// What a sign-up page needs to know before anyone can sign in (GET /v1/auth/setup): whether
// the instance has an account yet and, on an empty one, what its first account becomes
// (the rule placeOf in users.ts applies), so the dashboard can open on creating the owner's
// account instead of a sign-in no one can use.
import type { Deps } from "../../core/deps.ts";
import type { SetupState } from "./model.ts";
import { hasAccounts } from "./users.ts";

export async function setupState(deps: Pick<Deps, "db" | "config">): Promise<SetupState> {
  const { config } = deps;
  // The button "Sign in with <name>" of the sign-in screens, when the operator named a provider.
  const oidc = config.OIDC_ISSUER && config.OIDC_CLIENT_ID ? { name: config.OIDC_NAME, signup: config.OIDC_SIGNUP } : null;
  if (await hasAccounts(deps.db)) return { hasAccounts: true, firstAccount: null, oidc };
  return {
    hasAccounts: false,
    oidc,
    firstAccount: {
      isAdmin: config.FIRST_USER_ADMIN,
      plan: config.FIRST_USER_ADMIN ? config.FIRST_USER_PLAN : config.DEFAULT_PLAN,
      laterPlan: config.DEFAULT_PLAN,
    },
  };
}
