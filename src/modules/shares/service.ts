// Share links: made by the owner of an item, a KB or a KB folder (POST /v1/shares), listed,
// changed (expiry, password) and revoked. A link is named in its URL by a token of 192
// random bits, never by its id; whether it opens is read from its row on every request
// (byToken), so a revocation or an expiry holds at once on every node.
import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { keysetPage } from "../../core/cursor.ts";
import type { Deps } from "../../core/deps.ts";
import { AppError, notFound, validationError } from "../../core/errors.ts";
import { iso, isoOrNull } from "../../infra/clock.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { prepared, rowById } from "../../infra/db/prepared.ts";
import { newId } from "../../infra/ids.ts";
import { hashPassword } from "../identity/public.ts";
import type { CreateShareBody, Share, UpdateShareBody } from "./model.ts";
import { type ShareRow, shares } from "./table.ts";
import { assertOwnedTarget, storedTarget } from "./targets.ts";

/** 24 random bytes, 32 URL-safe characters: not guessable, and not the row's id. */
const newToken = () => randomBytes(24).toString("base64url");
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

/** The anonymous page of a link. */
export const shareUrl = (centerUrl: string, token: string) => `${centerUrl.replace(/\/+$/, "")}/s/${token}`;

/** Opens now: not revoked and not past its expiry. */
export const isLive = (row: Pick<ShareRow, "revokedAt" | "expiresAt">, nowMs: number) =>
  row.revokedAt === null && (row.expiresAt === null || row.expiresAt.getTime() > nowMs);

export function toShare(centerUrl: string, nowMs: number, r: ShareRow): Share {
  return {
    id: r.id,
    target: { kind: r.targetKind, id: r.targetId, ...(r.targetKind === "kb" ? { path: r.targetPath ?? "" } : {}) },
    url: shareUrl(centerUrl, r.token),
    hasPassword: r.passwordHash !== null,
    expiresAt: isoOrNull(r.expiresAt),
    revokedAt: isoOrNull(r.revokedAt),
    active: isLive(r, nowMs),
    viewCount: r.viewCount,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

/** An expiry the request gives: in the future, or null (never). */
function expiryOf(deps: Pick<Deps, "clock">, value: string | null | undefined): Date | null | undefined {
  if (value === undefined || value === null) return value;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw validationError("body.expiresAt", "expiresAt is not a date");
  if (at.getTime() <= deps.clock.nowMs()) throw validationError("body.expiresAt", "expiresAt must be in the future");
  return at;
}

const passwordHashOf = (deps: Pick<Deps, "config">, password: string | null | undefined) =>
  password === undefined ? undefined : password === null ? null : hashPassword(deps.config, password);

export async function createShare(deps: Deps, ownerId: string, body: CreateShareBody): Promise<ShareRow> {
  const target = storedTarget(body.target);
  const expiresAt = expiryOf(deps, body.expiresAt) ?? null;
  await assertOwnedTarget(deps, ownerId, target);
  const passwordHash = (await passwordHashOf(deps, body.password)) ?? null;
  const now = deps.clock.now();
  const [row] = await deps.db
    .insert(shares)
    .values({
      id: newId(),
      ownerId,
      targetKind: target.kind,
      targetId: target.id,
      targetPath: target.path,
      token: newToken(),
      passwordHash,
      expiresAt,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

const ownedQuery = (db: DbOrTx) =>
  db
    .select()
    .from(shares)
    .where(and(eq(shares.id, sql.placeholder("id")), eq(shares.ownerId, sql.placeholder("ownerId"))))
    .prepare("share_by_owner");

export async function getShare(db: DbOrTx, ownerId: string, id: string): Promise<ShareRow> {
  const [row] = await prepared(db, "share_by_owner", ownedQuery).execute({ id, ownerId });
  if (!row) throw notFound("share");
  return row;
}

export function listShares(deps: Deps, ownerId: string, q: { cursor?: string; limit: number }) {
  const nowMs = deps.clock.nowMs();
  return keysetPage(
    deps.db,
    {
      from: shares,
      shape: "owned",
      where: () => eq(shares.ownerId, sql.placeholder("ownerId")),
      params: { ownerId },
      sort: ["createdAt", "id"],
      cursor: q.cursor,
      limit: q.limit,
    },
    (r) => toShare(deps.config.CENTER_URL, nowMs, r as ShareRow),
  );
}

/** A new expiry or password (null: none); a revoked link stays revoked (409). */
export async function updateShare(deps: Deps, ownerId: string, id: string, body: UpdateShareBody): Promise<ShareRow> {
  const expiresAt = expiryOf(deps, body.expiresAt);
  const current = await getShare(deps.db, ownerId, id);
  if (current.revokedAt) throw new AppError("CONFLICT", "this share link is revoked; make a new one", { entity: "share" });
  const passwordHash = await passwordHashOf(deps, body.password);
  const [row] = await deps.db
    .update(shares)
    .set({
      ...(expiresAt !== undefined && { expiresAt }),
      ...(passwordHash !== undefined && { passwordHash }),
      updatedAt: deps.clock.now(),
    })
    .where(and(eq(shares.id, id), eq(shares.ownerId, ownerId)))
    .returning();
  if (!row) throw notFound("share");
  return row;
}

/** Revoked at once: the next request for its page or its media, on any node, reads the row. Revoking twice keeps the first time. */
export async function revokeShare(deps: Deps, ownerId: string, id: string): Promise<void> {
  const now = deps.clock.now();
  const [row] = await deps.db
    .update(shares)
    .set({ revokedAt: sql`coalesce(${shares.revokedAt}, ${now.toISOString()}::timestamptz)`, updatedAt: now })
    .where(and(eq(shares.id, id), eq(shares.ownerId, ownerId)))
    .returning({ id: shares.id });
  if (!row) throw notFound("share");
}

const byToken = rowById("share_by_token", shares, shares.token, {
  id: shares.id,
  ownerId: shares.ownerId,
  targetKind: shares.targetKind,
  targetId: shares.targetId,
  targetPath: shares.targetPath,
  passwordHash: shares.passwordHash,
  expiresAt: shares.expiresAt,
  revokedAt: shares.revokedAt,
});
export type OpenedShare = NonNullable<Awaited<ReturnType<typeof byToken>>>;

/** The link a token names, read from the database on every call (no cache: revocation is immediate); null for none. */
export async function shareByToken(db: DbOrTx, token: string): Promise<OpenedShare | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  return (await byToken(db, token)) ?? null;
}

/** One view of the page that showed the content. */
export async function countView(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(shares)
    .set({ viewCount: sql`${shares.viewCount} + 1` })
    .where(eq(shares.id, id));
}
