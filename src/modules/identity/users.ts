// Accounts: the password hash, the user row's reads and writes, its profile view.
import { eq, sql } from "drizzle-orm";
import type { Config } from "../../config.ts";
import type { Deps } from "../../core/deps.ts";
import { AppError, notFound } from "../../core/errors.ts";
import { iso, isoOrNull } from "../../infra/clock.ts";
import type { DbOrTx, Tx } from "../../infra/db/index.ts";
import { prepared } from "../../infra/db/prepared.ts";
import { newId } from "../../infra/ids.ts";
import { keepAnAdmin } from "./admins.ts";
import { type PlanName, planActive } from "../../core/plans.ts";
import type { Me } from "./model.ts";
import { allChoices } from "./notification-settings.ts";
import { assertPasswordAcceptable } from "./password.ts";
import { users } from "./table.ts";

export type User = typeof users.$inferSelect;
/** The columns an update may set (the profile route, the admin route, the CLI). */
export type UserPatch = Partial<
  Pick<
    typeof users.$inferInsert,
    "nickname" | "docVersioningEnabled" | "docVersioningMax" | "quotaWarnings" | "notificationSettings" | "plan" | "planExpiresAt" | "isAdmin"
  >
>;

/** argon2id at the configured cost (production: Bun's defaults, 64 MiB and 2 passes); verify reads the cost from the hash. */
export const hashPassword = (config: Config, password: string) =>
  Bun.password.hash(password, { algorithm: "argon2id", memoryCost: config.PASSWORD_HASH_MEMORY_KIB, timeCost: config.PASSWORD_HASH_TIME_COST });

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

const userById = (db: DbOrTx) => db.query.users.findFirst({ where: eq(users.id, sql.placeholder("id")) }).prepare("user_by_id");

/** Read on every upload, usage and profile request: a prepared statement. */
export function getUser(db: DbOrTx, id: string): Promise<User | undefined> {
  return prepared(db, "user_by_id", userById).execute({ id });
}

export function getUserByEmail(db: DbOrTx, email: string): Promise<User | undefined> {
  return db.query.users.findFirst({ where: eq(users.email, normalizeEmail(email)) });
}

/**
 * Sets the given columns and updatedAt; the updated row, or undefined when there is no such
 * user. Taking the admin flag away is refused (409) where it would leave no admin (admins.ts).
 */
export async function updateUser(db: DbOrTx, id: string, patch: UserPatch, now: Date): Promise<User | undefined> {
  const write = async (to: DbOrTx) => {
    const [user] = await to
      .update(users)
      .set({ ...patch, updatedAt: now })
      .where(eq(users.id, id))
      .returning();
    return user;
  };
  if (patch.isAdmin !== false) return write(db);
  return db.transaction(async (tx) => {
    await keepAnAdmin(tx, id, "demote");
    return write(tx);
  });
}

/** The signed-in caller's user row; 404 when the account is gone (a credential outlived it). */
export async function requireUser(db: DbOrTx, id: string): Promise<User> {
  const user = await getUser(db, id);
  if (!user) throw notFound("user");
  return user;
}

/**
 * Locks the user's row until the transaction ends, so that work counted per user (its
 * API keys) takes turns: a count made after the lock sees what the turns before it
 * committed, which READ COMMITTED alone does not promise. 404 when there is no such user.
 */
export async function lockUser(tx: Tx, id: string): Promise<void> {
  const [owner] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).for("update");
  if (!owner) throw notFound("user");
}

export type NewUser = { email: string; nickname?: string | null; plan?: PlanName; isAdmin?: boolean; planExpiresAt?: Date | null } & (
  | { password: string }
  /** A hash made by hashPassword: argon2id is slow on purpose, so test fixtures hash one password once. */
  | { passwordHash: string }
  /** No password: an account made by a sign-in through an OpenID provider, whose address the provider vouched for. */
  | { passwordHash: null; emailVerified: true }
);

/** Whether the instance has any account (the start banner says how to make the first). */
export async function hasAccounts(db: DbOrTx): Promise<boolean> {
  return (await db.select({ id: users.id }).from(users).limit(1)).length > 0;
}

/** A new account; `firstAccount` when it was the instance's first and took the first account's place. */
export type NewAccount = User & { firstAccount: boolean };

/**
 * The place of an account about to be made: on an instance with no accounts (and
 * FIRST_USER_ADMIN on) its owner runs the box, so the first account is an admin on
 * FIRST_USER_PLAN, as in other self-hosted services; every later one gets DEFAULT_PLAN. What
 * the caller names (the CLI's --plan and --admin) wins. Two sign-ups racing on an empty
 * instance take turns on a transaction lock, so only one of them is first.
 */
async function placeOf(deps: Deps, tx: Tx, input: NewUser): Promise<{ plan: PlanName; isAdmin: boolean; firstAccount: boolean }> {
  const { config } = deps;
  const noAccounts = async () => !(await hasAccounts(tx));
  let first = false;
  if (config.FIRST_USER_ADMIN && (await noAccounts())) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('accounts:first'))`);
    first = await noAccounts();
  }
  return {
    plan: input.plan ?? (first ? config.FIRST_USER_PLAN : config.DEFAULT_PLAN),
    isAdmin: input.isAdmin ?? first,
    firstAccount: first,
  };
}

/**
 * Creates the account (its plan and admin flag per placeOf); 409 CONFLICT when the email is
 * taken. Its usage counters appear with its first count. In `db` when given (a transaction
 * that goes on to open its first session); the password is hashed before, as argon2id is
 * slow on purpose.
 */
export async function createUser(deps: Deps, input: NewUser, db: DbOrTx = deps.db): Promise<NewAccount> {
  const now = deps.clock.now();
  let passwordHash: string | null;
  if ("password" in input) {
    assertPasswordAcceptable(input.password);
    passwordHash = await hashPassword(deps.config, input.password);
  } else passwordHash = input.passwordHash;
  return db.transaction(async (tx) => {
    const { plan, isAdmin, firstAccount } = await placeOf(deps, tx, input);
    const [user] = await tx
      .insert(users)
      .values({
        id: newId(),
        email: normalizeEmail(input.email),
        passwordHash,
        emailVerifiedAt: "emailVerified" in input ? now : null,
        nickname: input.nickname ?? null,
        plan,
        planExpiresAt: input.planExpiresAt ?? null,
        isAdmin,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!user) throw new AppError("CONFLICT", "this email is already registered", { field: "email" });
    return { ...user, firstAccount };
  });
}

/** The account as its owner (and an operator) sees it. */
export const toMe = (u: User, now: Date): Me => ({
  id: u.id,
  email: u.email,
  emailVerified: u.emailVerifiedAt !== null,
  nickname: u.nickname,
  plan: u.plan,
  planActive: planActive(u, now),
  planExpiresAt: isoOrNull(u.planExpiresAt),
  isAdmin: u.isAdmin,
  docVersioningEnabled: u.docVersioningEnabled,
  docVersioningMax: u.docVersioningMax,
  quotaWarnings: u.quotaWarnings,
  notifications: allChoices(u),
  twoFactor: { totp: u.totpSecret !== null, recoveryCodesLeft: u.recoveryCodes.length },
  hasPassword: u.passwordHash !== null,
  createdAt: iso(u.createdAt),
});
