// The owner's view of their sign-ins: each live session with the device that opened it
// and when it was last used (GET /v1/user/me/sessions), ended one at a time or all but the
// one asking. A live session has not been ended and holds a refresh token not yet expired.
import Bowser from "bowser";
import { and, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { keysetPage } from "../../core/cursor.ts";
import { notFound } from "../../core/errors.ts";
import { iso, isoOrNull } from "../../infra/clock.ts";
import { announceRevoked } from "./revocations.ts";
import { endOtherSessions } from "./sessions.ts";
import { refreshTokens, sessions } from "./table.ts";

const live = () =>
  and(
    eq(sessions.userId, sql.placeholder("userId")),
    isNull(sessions.revokedAt),
    sql`exists (select 1 from ${refreshTokens} where ${refreshTokens.sessionId} = ${sessions.id} and ${refreshTokens.expiresAt} > ${sql.placeholder("now")})`,
  );

/** "Firefox 133 on Linux", from a User-Agent; null when it names neither. */
export function deviceName(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, parsed.browser.version?.split(".")[0]].filter(Boolean).join(" ");
  const os = parsed.os.name;
  if (!browser && !os) return null;
  return browser && os ? `${browser} on ${os}` : browser || os!;
}

/** How far back a sign-in from the same browser and address makes a new one familiar. */
const FAMILIAR_MS = 30 * 86_400_000;

/**
 * Whether this sign-in's device is one the account knows: it signed in from this User-Agent
 * at this address in the last 30 days, or it has no device on record at all (an account made
 * by a script or an operator's command: its first browser is not "new" to anything). A
 * sign-in that is neither, from a browser holding no device proof, is told to its owner
 * (sign-in.ts).
 */
export async function familiarDevice(deps: Deps, userId: string, client: { userAgent?: string; address?: string }): Promise<boolean> {
  const since = new Date(deps.clock.now().getTime() - FAMILIAR_MS);
  const recorded = and(eq(sessions.userId, userId), isNotNull(sessions.userAgent));
  const [any] = await deps.db.select({ id: sessions.id }).from(sessions).where(recorded).limit(1);
  if (!any) return true;
  if (!client.userAgent || !client.address || client.address === "unknown") return false;
  const [same] = await deps.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(recorded, eq(sessions.userAgent, client.userAgent.slice(0, 512)), eq(sessions.address, client.address), gt(sessions.createdAt, since)))
    .limit(1);
  return same !== undefined;
}

/** A page of the user's live sessions, newest first; `current` marks the asking one. */
export function listSessions(deps: Deps, userId: string, currentSessionId: string | undefined, q: { cursor?: string; limit: number }) {
  const query = {
    from: sessions,
    shape: "live",
    where: live,
    params: { userId, now: deps.clock.now().toISOString() },
    sort: ["createdAt", "id"] as const,
    cursor: q.cursor,
    limit: q.limit,
  };
  return keysetPage(deps.db, query, (r) => ({
    id: r.id,
    current: r.id === currentSessionId,
    device: deviceName(r.userAgent),
    userAgent: r.userAgent,
    address: r.address,
    createdAt: iso(r.createdAt),
    lastUsedAt: isoOrNull(r.lastUsedAt),
  }));
}

/** Ends one live session of the user (the asking one too: that is a sign-out); 404 for any other. */
export async function endSession(deps: Deps, userId: string, sessionId: string): Promise<void> {
  const [row] = await deps.db
    .update(sessions)
    .set({ revokedAt: deps.clock.now() })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  if (!row) throw notFound("session");
  await announceRevoked(deps, "session", row.id);
}

/** Ends every session of the user but `keep` (the asking one, when it is a session); how many. */
export async function endSessionsBut(deps: Deps, userId: string, keep: string | undefined): Promise<number> {
  const ended = await endOtherSessions(deps.db, userId, keep, deps.clock.now());
  for (const id of ended) await announceRevoked(deps, "session", id);
  return ended.length;
}
