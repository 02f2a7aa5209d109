// Accounts and sessions: sign-up, login, refresh rotation with reuse detection, logout.
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Config } from "../../config.ts";
import type { Deps } from "../../deps.ts";
import { AppError, notFound, validationError } from "../../http/errors.ts";
import { newId } from "../../infra/ids.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { prepared } from "../../infra/db/prepared.ts";
import { ensureUsageRow } from "../usage/ledger.ts";
import { refreshTokens, sessions, users } from "./table.ts";
import { newRefreshToken, REFRESH_TOKEN_TTL_MS, refreshSuccessor, sha256Hex, type TokenSigner } from "./tokens.ts";
import type { PlanName } from "../../plans.ts";

export type User = typeof users.$inferSelect;
/** The columns an update may set (the profile route, the admin route, the CLI). */
export type UserPatch = Partial<Pick<typeof users.$inferInsert, "nickname" | "docVersioningEnabled" | "docVersioningMax" | "plan" | "planExpiresAt" | "isAdmin">>;

export interface SessionGrant {
  user: User;
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
}

// A fixed hash to verify against when the email is unknown, so both failures take as long.
let dummyHash: Promise<string> | undefined;
/** argon2id at the configured cost (production: Bun's defaults, 64 MiB and 2 passes); verify reads the cost from the hash. */
export const hashPassword = (config: Config, password: string) =>
  Bun.password.hash(password, { algorithm: "argon2id", memoryCost: config.PASSWORD_HASH_MEMORY_KIB, timeCost: config.PASSWORD_HASH_TIME_COST });

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/**
 * The password rule of every account, however it is made (sign-up, CLI): 8 to 256
 * characters and not one character repeated. Throws 422 VALIDATION_ERROR at `path`.
 */
export function assertPasswordAcceptable(password: string, path = "body.password") {
  if (password.length < PASSWORD_MIN_LENGTH) throw validationError(path, `the password needs at least ${PASSWORD_MIN_LENGTH} characters`);
  if (password.length > PASSWORD_MAX_LENGTH) throw validationError(path, `the password may have at most ${PASSWORD_MAX_LENGTH} characters`);
  if (/^(.)\1*$/su.test(password)) throw validationError(path, "the password is too weak");
}

const userById = (db: DbOrTx) => db.query.users.findFirst({ where: eq(users.id, sql.placeholder("id")) }).prepare("user_by_id");

/** Read on every upload, usage and profile request: a prepared statement. */
export function getUser(db: DbOrTx, id: string): Promise<User | undefined> {
  return prepared(db, "user_by_id", userById).execute({ id });
}

export function getUserByEmail(db: DbOrTx, email: string): Promise<User | undefined> {
  return db.query.users.findFirst({ where: eq(users.email, normalizeEmail(email)) });
}

/** Sets the given columns and updatedAt; the updated row, or undefined when there is no such user. */
export async function updateUser(db: DbOrTx, id: string, patch: UserPatch, now: Date): Promise<User | undefined> {
  const [user] = await db
    .update(users)
    .set({ ...patch, updatedAt: now })
    .where(eq(users.id, id))
    .returning();
  return user;
}

/** The signed-in caller's user row; 404 when the account is gone (a credential outlived it). */
export async function requireUser(db: DbOrTx, id: string): Promise<User> {
  const user = await getUser(db, id);
  if (!user) throw notFound("user");
  return user;
}

export async function createUser(
  deps: Deps,
  input: { email: string; password: string; nickname?: string | null; plan?: PlanName; isAdmin?: boolean; planExpiresAt?: Date | null },
): Promise<User> {
  assertPasswordAcceptable(input.password);
  const now = deps.clock.now();
  const passwordHash = await hashPassword(deps.config, input.password);
  return deps.db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        id: newId(),
        email: normalizeEmail(input.email),
        passwordHash,
        nickname: input.nickname ?? null,
        plan: input.plan ?? "trial",
        planExpiresAt: input.planExpiresAt ?? null,
        isAdmin: input.isAdmin ?? false,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!user) throw new AppError("CONFLICT", "this email is already registered", { field: "email" });
    await ensureUsageRow(tx, user.id, now);
    return user;
  });
}

async function openSession(deps: Deps, signer: TokenSigner, user: User): Promise<SessionGrant> {
  const now = deps.clock.now();
  const sessionId = newId();
  const refreshToken = newRefreshToken();
  await deps.db.transaction(async (tx) => {
    await tx.insert(sessions).values({ id: sessionId, userId: user.id, createdAt: now });
    await tx.insert(refreshTokens).values({
      id: newId(),
      sessionId,
      tokenHash: sha256Hex(refreshToken),
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
      createdAt: now,
    });
  });
  const { token, expiresIn } = await signer.sign({ userId: user.id, sessionId });
  return { user, accessToken: token, expiresIn, refreshToken };
}

export async function signup(deps: Deps, signer: TokenSigner, input: { email: string; password: string; nickname?: string }) {
  const user = await createUser(deps, input);
  return openSession(deps, signer, user);
}

/** Checks the password; the same 401 whether the email or the password is wrong. */
export async function verifyCredentials(deps: Deps, email: string, password: string): Promise<User> {
  const user = await getUserByEmail(deps.db, email);
  const ok = user
    ? await Bun.password.verify(password, user.passwordHash)
    : await Bun.password.verify(password, await (dummyHash ??= hashPassword(deps.config, crypto.randomUUID()))).then(() => false);
  if (!user || !ok) throw new AppError("UNAUTHORIZED", "wrong email or password");
  return user;
}

export async function login(deps: Deps, signer: TokenSigner, user: User) {
  return openSession(deps, signer, user);
}

type Reuse = "grant" | "replay" | "ended";

/**
 * What a token that lost the rotation race (or was rotated earlier) may get. Two tabs of
 * one browser refresh at once and share the cookie, so the loser presents the token the
 * winner just rotated; ending the session then would sign the user out. RFC 9700 section
 * 4.14.2 allows a short grace instead: within REFRESH_REUSE_GRACE_S of the rotation the
 * loser gets the winner's successor. Only while that successor is unused and its session
 * alive: once the successor has been rotated too, the chain has moved on, and handing out
 * a token from behind it would let a stale copy follow the session, so that is a replay
 * as after the grace. A session ended meanwhile (logout, a replay) is not reopened.
 */
async function reuseOf(deps: Deps, tokenId: string, successor: string, now: Date): Promise<Reuse> {
  const [presented] = await deps.db.select({ rotatedAt: refreshTokens.rotatedAt }).from(refreshTokens).where(eq(refreshTokens.id, tokenId));
  const graceMs = deps.config.REFRESH_REUSE_GRACE_S * 1000;
  if (!presented?.rotatedAt || now.getTime() - presented.rotatedAt.getTime() >= graceMs) return "replay";
  const [next] = await deps.db
    .select({ rotatedAt: refreshTokens.rotatedAt, expiresAt: refreshTokens.expiresAt, revokedAt: sessions.revokedAt })
    .from(refreshTokens)
    .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
    .where(eq(refreshTokens.tokenHash, sha256Hex(successor)));
  // No such successor: the token was rotated before successors were derived (a random one).
  if (!next || next.rotatedAt) return "replay";
  if (next.revokedAt || next.expiresAt <= now) return "ended";
  return "grant";
}

/**
 * Rotates a refresh token. A token already rotated means it was copied: the whole session
 * is revoked and every token of it refused from then on, unless it comes back within the
 * reuse grace (reuseOf).
 */
export async function refresh(deps: Deps, signer: TokenSigner, refreshToken: string, onRevoke: (sessionId: string) => Promise<void>) {
  const now = deps.clock.now();
  const row = await deps.db.query.refreshTokens.findFirst({ where: eq(refreshTokens.tokenHash, sha256Hex(refreshToken)) });
  if (!row) throw new AppError("UNAUTHORIZED", "invalid refresh token");
  const session = await deps.db.query.sessions.findFirst({ where: eq(sessions.id, row.sessionId) });
  if (!session || session.revokedAt) throw new AppError("UNAUTHORIZED", "session ended");
  if (row.expiresAt <= now) throw new AppError("UNAUTHORIZED", "refresh token expired");

  const next = refreshSuccessor(deps.config.JWT_SECRET, refreshToken);
  const rotated = await deps.db.transaction(async (tx) => {
    // Only one caller can rotate a token: the conditional update decides.
    const [won] = await tx
      .update(refreshTokens)
      .set({ rotatedAt: now })
      .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.rotatedAt)))
      .returning({ id: refreshTokens.id });
    if (!won) return false;
    await tx.insert(refreshTokens).values({
      id: newId(),
      sessionId: row.sessionId,
      tokenHash: sha256Hex(next),
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
      createdAt: now,
    });
    return true;
  });
  if (!rotated) {
    // The winner committed its successor with its rotation, so both are visible here.
    const reuse = await reuseOf(deps, row.id, next, now);
    if (reuse === "ended") throw new AppError("UNAUTHORIZED", "session ended");
    if (reuse === "replay") {
      await revokeSession(deps, row.sessionId, onRevoke);
      throw new AppError("UNAUTHORIZED", "refresh token reuse detected; the session was ended", { reason: "refresh_token_reused" });
    }
  }
  const user = await getUser(deps.db, session.userId);
  if (!user) throw new AppError("UNAUTHORIZED", "session ended");
  const { token, expiresIn } = await signer.sign({ userId: user.id, sessionId: row.sessionId });
  return { user, accessToken: token, expiresIn, refreshToken: next };
}

export async function revokeSession(deps: Deps, sessionId: string, onRevoke: (sessionId: string) => Promise<void>) {
  await deps.db.update(sessions).set({ revokedAt: deps.clock.now() }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  await onRevoke(sessionId);
}

/** Logout by refresh token (cookie) or by the session of the access token. */
export async function logout(deps: Deps, by: { refreshToken?: string; sessionId?: string }, onRevoke: (sessionId: string) => Promise<void>) {
  let sessionId = by.sessionId;
  if (!sessionId && by.refreshToken) {
    const row = await deps.db.query.refreshTokens.findFirst({ where: eq(refreshTokens.tokenHash, sha256Hex(by.refreshToken)) });
    sessionId = row?.sessionId;
  }
  if (sessionId) await revokeSession(deps, sessionId, onRevoke);
}
