// Sessions: sign-up and login open one, refresh rotates its token with reuse detection,
// logout and a replayed token end it, and pruning drops what has expired.
import { and, eq, gt, isNull, lt, ne, notExists, sql } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { AppError } from "../../core/errors.ts";
import type { DbOrTx, Tx } from "../../infra/db/index.ts";
import { prepared } from "../../infra/db/prepared.ts";
import { newId } from "../../infra/ids.ts";
import { announceRevoked } from "./revocations.ts";
import { emailLinks, refreshTokens, sessions } from "./table.ts";
import { newRefreshToken, REFRESH_TOKEN_TTL_MS, refreshSuccessor, sha256Hex, type TokenSigner } from "./tokens.ts";
import { assertPasswordAcceptable } from "./password.ts";
import { createUser, getUser, getUserByEmail, hashPassword, type NewAccount, type User } from "./users.ts";

/** What a session records of the device that opened it (GET /v1/user/me/sessions shows it). */
export interface SessionClient {
  userAgent?: string;
  address?: string;
}

/** A User-Agent is the client's to write: kept to a length a list can show. */
const clientColumns = (client: SessionClient | undefined) => ({
  userAgent: client?.userAgent?.slice(0, 512) || null,
  // clientIp's "unknown" (no socket to read it from) is not an address to show.
  address: client?.address && client.address !== "unknown" ? client.address.slice(0, 64) : null,
});

export interface SessionGrant {
  user: User;
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
  sessionId: string;
}

// A fixed hash to verify against when the email is unknown, so both failures take as long.
let dummyHash: Promise<string> | undefined;

/** A new session with its first refresh token, in `tx` (the caller's transaction). */
async function insertSession(tx: Tx, userId: string, now: Date, client: SessionClient | undefined) {
  const sessionId = newId();
  const refreshToken = newRefreshToken();
  await tx.insert(sessions).values({ id: sessionId, userId, createdAt: now, lastUsedAt: now, ...clientColumns(client) });
  await tx.insert(refreshTokens).values({
    id: newId(),
    sessionId,
    tokenHash: sha256Hex(refreshToken),
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
    createdAt: now,
  });
  return { sessionId, refreshToken };
}

async function grantOf(signer: TokenSigner, user: User, opened: { sessionId: string; refreshToken: string }): Promise<SessionGrant> {
  const { token, expiresIn } = await signer.sign({ userId: user.id, sessionId: opened.sessionId });
  return { user, accessToken: token, expiresIn, refreshToken: opened.refreshToken, sessionId: opened.sessionId };
}

async function openSession(deps: Deps, signer: TokenSigner, user: User, client: SessionClient | undefined): Promise<SessionGrant> {
  const opened = await deps.db.transaction((tx) => insertSession(tx, user.id, deps.clock.now(), client));
  return grantOf(signer, user, opened);
}

/**
 * The account and its first session in one transaction: a sign-up that fails half-way
 * leaves no account that nobody holds a session of (and whose email is then taken).
 */
export async function signup(
  deps: Deps,
  signer: TokenSigner,
  input: { email: string; password: string; nickname?: string },
  client?: SessionClient,
): Promise<SessionGrant & { user: NewAccount }> {
  assertPasswordAcceptable(input.password);
  const passwordHash = await hashPassword(deps.config, input.password);
  const { user, opened } = await deps.db.transaction(async (tx) => {
    const user = await createUser(deps, { email: input.email, nickname: input.nickname, passwordHash }, tx);
    return { user, opened: await insertSession(tx, user.id, deps.clock.now(), client) };
  });
  return { ...(await grantOf(signer, user, opened)), user };
}

/** Checks the password; the same 401 whether the email or the password is wrong. */
export async function verifyCredentials(deps: Deps, email: string, password: string): Promise<User> {
  const user = await getUserByEmail(deps.db, email);
  const ok = user?.passwordHash
    ? await Bun.password.verify(password, user.passwordHash)
    : await Bun.password.verify(password, await (dummyHash ??= hashPassword(deps.config, crypto.randomUUID()))).then(() => false);
  if (!user || !ok) throw new AppError("UNAUTHORIZED", "wrong email or password");
  return user;
}

export async function login(deps: Deps, signer: TokenSigner, user: User, client?: SessionClient) {
  return openSession(deps, signer, user, client);
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
export async function refresh(deps: Deps, signer: TokenSigner, refreshToken: string, client?: SessionClient) {
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
    await tx
      .update(sessions)
      .set({ lastUsedAt: now, ...(clientColumns(client).address ? { address: clientColumns(client).address } : {}) })
      .where(eq(sessions.id, row.sessionId));
    return true;
  });
  if (!rotated) {
    // The winner committed its successor with its rotation, so both are visible here.
    const reuse = await reuseOf(deps, row.id, next, now);
    if (reuse === "ended") throw new AppError("UNAUTHORIZED", "session ended");
    if (reuse === "replay") {
      await revokeSession(deps, row.sessionId);
      throw new AppError("UNAUTHORIZED", "refresh token reuse detected; the session was ended", { reason: "refresh_token_reused" });
    }
  }
  const user = await getUser(deps.db, session.userId);
  if (!user) throw new AppError("UNAUTHORIZED", "session ended");
  const { token, expiresIn } = await signer.sign({ userId: user.id, sessionId: row.sessionId });
  return { user, accessToken: token, expiresIn, refreshToken: next, sessionId: row.sessionId };
}

/** Ends the session; every node's cache drops it at once. */
async function revokeSession(deps: Deps, sessionId: string) {
  await deps.db
    .update(sessions)
    .set({ revokedAt: deps.clock.now() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  await announceRevoked(deps, "session", sessionId);
}

/** Ends every open session of the user but `keep`; the ids ended, for the caller to announce once committed. */
export async function endOtherSessions(tx: DbOrTx, userId: string, keep: string | undefined, now: Date): Promise<string[]> {
  const rows = await tx
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keep ? ne(sessions.id, keep) : undefined))
    .returning({ id: sessions.id });
  return rows.map((r) => r.id);
}

/** Logout by refresh token (cookie) or by the session of the access token. */
export async function logout(deps: Deps, by: { refreshToken?: string; sessionId?: string }) {
  let sessionId = by.sessionId;
  if (!sessionId && by.refreshToken) {
    const row = await deps.db.query.refreshTokens.findFirst({ where: eq(refreshTokens.tokenHash, sha256Hex(by.refreshToken)) });
    sessionId = row?.sessionId;
  }
  if (sessionId) await revokeSession(deps, sessionId);
}

const sessionById = (db: DbOrTx) =>
  db
    .select({ userId: sessions.userId, revokedAt: sessions.revokedAt })
    .from(sessions)
    .where(eq(sessions.id, sql.placeholder("id")))
    .prepare("session_by_id");

/** The user of a session that exists and was not ended, else null: read on every JWT request, so prepared. */
export async function liveSessionUser(db: DbOrTx, sessionId: string): Promise<string | null> {
  const [row] = await prepared(db, "session_by_id", sessionById).execute({ id: sessionId });
  return row && !row.revokedAt ? row.userId : null;
}

/**
 * Deletes refresh tokens that expired before `before`, and sessions created before it
 * with no refresh token left that expires after it (ended, or expired as long ago).
 */
export async function pruneSessions(db: DbOrTx, before: Date): Promise<{ refreshTokens: number; sessions: number }> {
  // Mailed links expired as long ago are worth nothing, used or not.
  await db.delete(emailLinks).where(lt(emailLinks.expiresAt, before));
  const tokens = await db.delete(refreshTokens).where(lt(refreshTokens.expiresAt, before)).returning({ id: refreshTokens.id });
  const live = db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.sessionId, sessions.id), gt(refreshTokens.expiresAt, before)));
  const ended = await db
    .delete(sessions)
    .where(and(lt(sessions.createdAt, before), notExists(live)))
    .returning({ id: sessions.id });
  return { refreshTokens: tokens.length, sessions: ended.length };
}
