// Fixtures: each test makes its own user (no shared state). Users are made by identity's
// createUser with one precomputed password hash, because argon2id is deliberately slow.
import { createApiKey, createUser, hashPassword, login, requireUser, type PlanName } from "../../src/modules/identity/public.ts";
import { newId } from "../../src/infra/ids.ts";
import { testContext } from "./context.ts";

export const PASSWORD = "correct horse battery staple";
let passwordHash: Promise<string> | undefined;

export interface TestUser {
  id: string;
  email: string;
  password: string;
  /** A JWT access token of a fresh session: holds every scope. */
  jwt: string;
  refreshToken: string;
}

export async function makeUser(opts: { plan?: PlanName; isAdmin?: boolean; planExpiresAt?: Date | null } = {}): Promise<TestUser> {
  const { deps, services } = await testContext();
  passwordHash ??= hashPassword(deps.config, PASSWORD);
  const email = `u-${newId().toLowerCase()}@example.test`;
  const user = await createUser(deps, { email, passwordHash: await passwordHash, ...opts });
  const grant = await login(deps, services.identity.signer, user);
  return { id: user.id, email, password: PASSWORD, jwt: grant.accessToken, refreshToken: grant.refreshToken };
}

/** Creates an API key under the user's plan, as POST /v1/api-keys does; returns the full key. */
export async function makeKey(user: TestUser, scopes?: string[], name = "test key"): Promise<{ id: string; key: string }> {
  const { deps } = await testContext();
  const { plan } = await requireUser(deps.db, user.id);
  const created = await createApiKey(deps, user.id, deps.plans[plan], { name, scopes });
  return { id: created.id, key: created.key };
}

/** A user with a default-scoped API key: the usual API client. */
export async function makeClient(opts: Parameters<typeof makeUser>[0] = {}) {
  const user = await makeUser(opts);
  const { key } = await makeKey(user);
  return { user, key };
}
