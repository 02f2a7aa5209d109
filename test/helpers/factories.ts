// Fixtures: each test makes its own user (no shared state). Users are inserted directly
// with one precomputed password hash, because argon2id is deliberately slow.
import { hashPassword, login } from "../../src/modules/auth/service.ts";
import { users } from "../../src/modules/auth/table.ts";
import { ensureUsageRow } from "../../src/modules/usage/ledger.ts";
import { newId } from "../../src/infra/ids.ts";
import type { PlanName } from "../../src/plans.ts";
import { callJson, testContext } from "./context.ts";

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
  const now = deps.clock.now();
  const email = `u-${newId().toLowerCase()}@example.test`;
  const [user] = await deps.db
    .insert(users)
    .values({
      id: newId(),
      email,
      passwordHash: await passwordHash,
      plan: opts.plan ?? "trial",
      isAdmin: opts.isAdmin ?? false,
      planExpiresAt: opts.planExpiresAt ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await ensureUsageRow(deps.db, user!.id, now);
  const grant = await login(deps, services.signer, user!);
  return { id: user!.id, email, password: PASSWORD, jwt: grant.accessToken, refreshToken: grant.refreshToken };
}

/** Creates an API key over HTTP, as a signed-in user would; returns the full key. */
export async function makeKey(user: TestUser, scopes?: string[], name = "test key"): Promise<{ id: string; key: string }> {
  const res = await callJson("POST", "/v1/api-keys", { token: user.jwt, json: scopes ? { name, scopes } : { name } });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, key: res.body.data.key };
}

/** A user with a default-scoped API key: the usual API client. */
export async function makeClient(opts: Parameters<typeof makeUser>[0] = {}) {
  const user = await makeUser(opts);
  const { key } = await makeKey(user);
  return { user, key };
}
